"""Browser tests: the real server in a subprocess, Debian's Chromium through Playwright."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from tests.chromium import CHROMIUM, chromium
from tests.serving import served


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives a real Chromium against the server")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if CHROMIUM.exists():
        return
    skip = pytest.mark.skip(reason=f"browser tests need Chromium at {CHROMIUM}; not found")
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


# The package's server: a fixed seed, and rate limits no test run reaches (a module that
# needs one more setting starts its own server with these and that one).
SERVER = {"TEST_FIXED_SEED": "7", "ROOM_CREATE_RATE": "1000", "SIGN_UPS_PER_ADDRESS": "1000",
          "WS_FLOOD_MESSAGES": "100000", "WS_PER_ADDRESS": "100000",
          "SEEKS_PER_ADDRESS": "1000", "SEEK_RATE": "1000"}


@pytest.fixture(scope="session")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`python -m server` on a free port with a temporary database and a fixed seed."""
    database = tmp_path_factory.mktemp("db") / "browser.db"
    with served(database, **SERVER) as url:
        yield url


# Package scope: the sync API keeps an event loop running in this thread until it stops,
# which would break asyncio.run() in the test packages that come after this one.
@pytest.fixture(scope="package")
def browser() -> Iterator[object]:
    with chromium() as b:
        yield b


NewPage = Callable[..., object]


@pytest.fixture
def new_page(browser: object, base_url: str) -> Iterator[NewPage]:
    """Open a page in a fresh context (its own localStorage): new_page(width=1440, locale=...)."""
    contexts = []

    def make(width: int = 1280, height: int = 900, locale: str = "en-US",
             reduced_motion: str = "reduce") -> object:
        ctx = browser.new_context(  # type: ignore[attr-defined]
            base_url=base_url, viewport={"width": width, "height": height}, locale=locale,
            reduced_motion=reduced_motion,
        )
        ctx.set_default_timeout(10_000)
        contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        return page

    errors: list[str] = []
    yield make
    for ctx in contexts:
        ctx.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
