"""Every visible string exists once per language (static/js/lang/), and every key the code or
the server's registries need is there: a key in one language and not another, or a key used
and missing, fails here. Adding a string is one line per language, nothing else."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from functools import cache
from pathlib import Path

import pytest

from server.api.rules_data import rules_data
from server.bots.lesson import NOTES as LESSON_NOTES
from server.rooms.chat import REACTIONS
from server.rooms.events import EVENTS

ROOT = Path(__file__).resolve().parents[2]
LANG = ROOT / "static" / "js" / "lang"
PROMPTED = ("move", "pour", "process")  # phases whose prompts intents.js picks itself
LANGUAGES = ("en", "th", "ko")
# en.js, history.en.js, ...
GROUPS = ("", "history.", "talk.", "players.", "turns.", "admin.", "learn.", "review.",
          "tournament.")

DUMP = """
const out = {};
for (const file of process.argv.slice(1)) {
  out[file] = Object.keys((await import(file)).default);
}
console.log(JSON.stringify(out));
"""


@cache
def keys() -> dict[str, list[str]]:
    """Each language file's keys, by file name (read by Node, as the browser reads them)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    files = [str(LANG / f"{group}{lang}.js") for group in GROUPS for lang in LANGUAGES]
    done = subprocess.run([node, "--input-type=module", "-e", DUMP, *files],
                          capture_output=True, text=True, check=True)
    return {Path(f).name: k for f, k in json.loads(done.stdout).items()}


def table(lang: str) -> set[str]:
    """What t() knows in `lang`: the main table and the ones merged into it."""
    return {k for group in GROUPS for k in keys()[f"{group}{lang}.js"]}


@pytest.mark.parametrize("group", GROUPS)
def test_every_language_has_the_same_keys(group: str) -> None:
    english = set(keys()[f"{group}en.js"])
    for lang in LANGUAGES[1:]:
        other = set(keys()[f"{group}{lang}.js"])
        assert sorted(english - other) == [], f"missing in {group}{lang}.js"
        assert sorted(other - english) == [], f"only in {group}{lang}.js"


def used_literally() -> set[str]:
    """Keys named in the code: t("key") in scripts, data-i18n(-attr) in the pages."""
    found: set[str] = set()
    for path in (ROOT / "static" / "js").rglob("*.js"):
        found |= set(re.findall(r'\bt\(\s*"([\w.]+)"', path.read_text()))
    for path in (ROOT / "templates").rglob("*.html"):
        text = path.read_text()
        found |= set(re.findall(r'data-i18n="([\w.]+)"', text))
        for attrs in re.findall(r'data-i18n-attr="([^"]+)"', text):
            found |= {pair.split(":", 1)[1] for pair in attrs.split(";")}
    return found


def needed_by_the_registries() -> set[str]:
    """Keys made from what the server sends: one per error code, phase, ingredient, tile,
    bot level and reaction (static/js builds them as `err.${code}` and so on), every
    sentence of the event registry, and one per option and option choice."""
    data = rules_data()
    return {
        *(f"err.{code}" for code in data["error_codes"]), "err.other",
        *(f"phase.{phase}" for phase in data["phases"]),
        *(f"ing.{name}" for name in data["ingredients"]),
        *(f"tile.{tile}" for tile in data["tiles"]),
        *(f"tile.help.{tile}" for tile in data["tiles"]),
        *(f"bot.{level}" for level in data["bot_levels"]),
        *(f"talk.reactionName.{r}" for r in REACTIONS),
        *(key for event in EVENTS.values() for key in event.sentence_keys()),
        *(f"btn.{a['type']}" for a in data["actions"] if a["control"] in ("button", "finish")),
        # the lobby's form and the waiting room's summary: each option and its choices
        *(f"option.{o['name']}" for o in data["options"]),
        *(c["key"] for o in data["options"] for c in o["choices"] if c["key"] is not None),
        # the lesson's concepts (server/bots/lesson.py), said by static/js/learn/lesson.js
        *(f"learn.{note}" for note in LESSON_NOTES),
        # intents.js's prompt for a phase without prompts of its own
        *(f"prompt.{phase}" for phase in data["phases"] if phase not in PROMPTED),
    }


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_the_code_and_the_registries_use_exists(lang: str) -> None:
    missing = (used_literally() | needed_by_the_registries()) - table(lang)
    assert sorted(missing) == [], f"missing in {lang}"
