"""The final scoreboard as the replay shows it at its last step (issue 11), in Chromium, in
en, th and ko at a desktop and a phone width: the seed is exact even beyond 2^53 (it is sent
as text), the columns are translated, the winner is celebrated by name."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.db.migrate import upgrade
from tests.browser.ui import no_sideways_scroll, save_shot
from tests.chromium import chromium, needs_chromium
from tests.serving import served
from tests.stored import store_games

from .helpers import played

BIG_SEED = 2**64 - 59  # a JavaScript number would print 18446744073709552000
COLUMNS = ["end.place", "end.player", "end.orders", "end.upgrades", "end.penalties",
           "end.total", "end.rush"]

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def game() -> object:
    return played(7, BIG_SEED, ("Ratchanok", "Ji-woo", "Oliver"))


@pytest.fixture(scope="module")
def served_game(tmp_path_factory: pytest.TempPathFactory, game: object) -> Iterator[tuple]:
    database = tmp_path_factory.mktemp("final") / "games.db"
    url = f"sqlite+aiosqlite:///{database}"
    upgrade(url)
    (game_id,) = store_games(url, [game.record])  # type: ignore[attr-defined]
    with served(database) as base:
        yield base, game_id


@pytest.fixture(scope="module")
def browser(served_game: tuple) -> Iterator[object]:
    with chromium() as b:
        yield b


@pytest.mark.parametrize("locale", ["en-US", "th-TH", "ko-KR"])
def test_the_final_scoreboard_is_exact_translated_and_cheers_the_winner(
    browser: object, served_game: tuple, game: object, locale: str
) -> None:
    """Read at 1440×900, then the same page at 360×740: the scoreboard's content does not
    depend on the width; both widths are checked for sideways scrolling and photographed."""
    from playwright.sync_api import expect

    base, game_id = served_game
    record = game.record  # type: ignore[attr-defined]
    context = browser.new_context(  # type: ignore[attr-defined]
        base_url=base, locale=locale, viewport={"width": 1440, "height": 900})
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"/games/{game_id}?step={len(record.actions)}")
        final = page.locator("#final")
        expect(final).to_be_visible()
        expect(final.locator(".seed")).to_contain_text(str(BIG_SEED))
        lang = locale[:2]
        words = page.evaluate("""async ([lang, keys]) => {
          const i18n = await import('/static/js/lang/i18n.js');
          i18n.setLang(lang);
          return keys.map((k) => i18n.t(k));
        }""", [lang, COLUMNS])
        expect(final.locator("thead th")).to_have_text(words)
        if lang != "en":  # a translated header, not the English fallback
            english = ["Place", "Player", "Orders", "Upgrades", "Penalties", "Total"]
            assert not set(words) & set(english), words
        winners = [record.players[s].name for s in record.result["winners"]]
        celebrate = final.locator(".celebrate")
        expect(celebrate).to_be_visible()
        for name in winners:
            expect(celebrate).to_contain_text(name)
        expect(final.locator("tr.winner .win-tag")).to_have_count(len(winners))
        for width, height in ((1440, 900), (360, 740)):
            page.set_viewport_size({"width": width, "height": height})
            expect(celebrate).to_be_visible()
            no_sideways_scroll(page)
            save_shot(final, f"final-replay-{width}-{lang}")
    finally:
        context.close()
    assert errors == []


def test_a_game_with_a_64_bit_seed_imports_through_the_page(
    browser: object, served_game: tuple, tmp_path: Path
) -> None:
    """The page sends the exported file as it is: parsed in JavaScript, the seed would be
    rounded to a double and the import refused (the actions would not fit the deal)."""
    import httpx

    base, game_id = served_game
    export = tmp_path / "big-seed.json"
    export.write_bytes(httpx.get(f"{base}/api/games/{game_id}/export").content)
    assert f'"seed":{BIG_SEED}' in export.read_text().replace(" ", "")
    context = browser.new_context(base_url=base, locale="th-TH")  # type: ignore[attr-defined]
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        page.goto("/games")
        page.locator("#import-file").set_input_files(str(export))
        page.locator("#import-form button[type=submit]").click()
        page.wait_for_url(re.compile(r"/games/\d+"), timeout=30_000)
        found = re.search(r"/games/(\d+)", page.url)
        assert found is not None
        new_id = int(found.group(1))
        assert new_id != game_id
        imported = httpx.get(f"{base}/api/games/{new_id}").json()
        assert imported["seed"] == BIG_SEED
    finally:
        context.close()
