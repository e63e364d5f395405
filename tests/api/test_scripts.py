"""The browser's modules live in feature folders that mirror the server's (issue 44), and
every import among them names a file that exists: a module moved or added flat at the top
of static/js, or an import left pointing at an old place, fails here before a page does."""

from __future__ import annotations

import re
from pathlib import Path

JS = Path(__file__).resolve().parents[2] / "static" / "js"
FOLDERS = {"core", "lang", "table", "talk", "lobby", "account", "replay", "admin", "learn",
           "tournament"}
# import ... from "./x.js", import "./x.js", import("./x.js") (also in JSDoc types)
SPECIFIER = re.compile(r'''(?:from|import)\s*\(?\s*["'](\.{1,2}/[^"']+)["']''')


def test_every_module_is_in_a_feature_folder() -> None:
    assert sorted(p.name for p in JS.glob("*.js")) == []
    assert {p.name for p in JS.iterdir() if p.is_dir()} == FOLDERS


def test_every_relative_import_names_a_module_that_exists() -> None:
    missing = [f"{path.relative_to(JS)}: {spec}"
               for path in JS.rglob("*.js")
               for spec in SPECIFIER.findall(path.read_text())
               if not (path.parent / spec).resolve().is_file()]
    assert missing == []


def test_every_page_script_exists() -> None:
    templates = Path(__file__).resolve().parents[2] / "templates"
    scripts = {src for page in templates.glob("*.html")
               for src in re.findall(r'src="/static/js/([^"]+)"', page.read_text())}
    assert scripts and all((JS / src).is_file() for src in scripts), scripts
