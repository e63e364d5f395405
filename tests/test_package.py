"""The package runs anywhere: the wheel built from this checkout (every file of static/,
templates/ and migrations/ in it, subfolders too), installed into a fresh
venv in a temporary folder (run-time dependencies only), serves the lobby, a static file
and the rules with `coffee-rush serve` from an empty folder that knows nothing of the
checkout. Slow by nature: a build and an install from pip's cache, ~100 s on a busy
2-core machine."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import httpx
import pytest

from tests.serving import free_port, stop, wait_ready

ROOT = Path(__file__).resolve().parent.parent


def run(*argv: str | Path, cwd: Path) -> None:
    done = subprocess.run([str(a) for a in argv], cwd=cwd, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The `bin` folder of a fresh venv holding the wheel and its run-time dependencies."""
    tmp = tmp_path_factory.mktemp("package")
    # From a copy without build/: setuptools would pack a stale build/lib's files too.
    source = shutil.copytree(ROOT, tmp / "source", ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "*.egg-info", "data", "node_modules", "__pycache__"))
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--wheel-dir", tmp / "dist",
        source, cwd=tmp)
    (wheel,) = (tmp / "dist").glob("coffee_rush_online-*.whl")
    with zipfile.ZipFile(wheel) as packed:
        shipped = {n.removeprefix("server/") for n in packed.namelist()
                   if n.startswith(("server/static/", "server/templates/",
                                    "server/migrations/"))}
    assert shipped == {str(f.relative_to(ROOT)) for d in ("static", "templates", "migrations")
                       for f in (ROOT / d).rglob("*")
                       if f.is_file() and "__pycache__" not in f.parts}
    run(sys.executable, "-m", "venv", tmp / "venv", cwd=tmp)
    run(tmp / "venv" / "bin" / "python", "-m", "pip", "install", "--quiet", wheel, cwd=tmp)
    return tmp / "venv" / "bin"


def test_the_wheel_holds_no_checkout_paths_and_serves_from_an_empty_folder(
    installed: Path, tmp_path: Path,
) -> None:
    where = tmp_path / "empty"
    where.mkdir()
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env.update(HOST="127.0.0.1", PORT=str(port), LOG_LEVEL="warning",
               DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path}/game.db",
               JOURNAL_FALLBACK_PATH=str(tmp_path / "fallback.jsonl"))
    proc = subprocess.Popen([installed / "coffee-rush", "serve"], cwd=where, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_ready(proc, url)
        lobby = httpx.get(f"{url}/")
        css = httpx.get(f"{url}/static/css/app.css")
        rules = httpx.get(f"{url}/rules")
    finally:
        stop(proc)
    assert lobby.status_code == 200 and "<html" in lobby.text.lower()
    assert css.status_code == 200 and css.text == (ROOT / "static/css/app.css").read_text()
    assert rules.status_code == 200
    assert (tmp_path / "game.db").stat().st_size > 0  # migrated from the wheel's migrations
    assert list(where.iterdir()) == []
    origin = subprocess.run(
        [installed / "python", "-c", "import server; print(server.__file__)"], cwd=where,
        env=env, capture_output=True, text=True, check=True).stdout
    assert not origin.startswith(str(ROOT))
