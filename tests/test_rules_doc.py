"""docs/RULES.md defines every rule id that the code and the tests cite."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# An id: "R-" and upper-case words joined by hyphens, not inside a longer word.
RULE_ID = re.compile(r"(?<![A-Za-z0-9-])R-[A-Z]+(?:-[A-Z0-9]+)*(?![A-Za-z0-9])")
CITING = [("server", "*.py"), ("tests", "*.py"), ("static/js", "*.js")]


def cited() -> dict[str, set[str]]:
    """Each id cited in the code and tests, with the files that cite it."""
    found: dict[str, set[str]] = {}
    for folder, pattern in CITING:
        for path in (ROOT / folder).rglob(pattern):
            for rule in RULE_ID.findall(path.read_text()):
                found.setdefault(rule, set()).add(str(path.relative_to(ROOT)))
    return found


def defined() -> set[str]:
    return set(RULE_ID.findall((ROOT / "docs" / "RULES.md").read_text()))


def test_every_cited_rule_id_is_in_rules_md() -> None:
    missing = {rule: sorted(files) for rule, files in cited().items() if rule not in defined()}
    assert not missing, f"rule ids cited but not in docs/RULES.md: {missing}"


def test_the_id_pattern_finds_what_it_should() -> None:
    """The check above would pass vacuously if the pattern found nothing."""
    text = "R-END-DECK (Ruling), R-MOVE. not SUR-VEY nor R-lower; (R-FAQ-6)"
    assert RULE_ID.findall(text) == ["R-END-DECK", "R-MOVE", "R-FAQ-6"]
    ids = cited()
    assert {"R-END-PEN", "R-MOVE-DEADEND", "R-HIDDEN", "R-SETUP-V1"} <= set(ids)
    assert "tests/rules/scenarios/test_turn_end.py" in ids["R-END-4"]
