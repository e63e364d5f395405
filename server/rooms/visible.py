"""Whether a text shows anything: the one test for chat messages and player names.

A text that renders as nothing (a lone zero-width joiner, a Hangul filler U+3164, a blank
Braille pattern U+2800, a line separator) or as a smear (a letter under a pile of
combining marks, "Zalgo") passes a plain "no control characters" check but leaves other
players looking at an empty or unreadable line. Both are refused with `invisible_text`.
"""

from __future__ import annotations

import unicodedata

from .errors import RoomError

# Marks one letter may carry: Thai stacks a vowel and a tone mark, Vietnamese two diacritics
# (NFC composes most), a keycap emoji a variation selector and the enclosing keycap.
MARKS_MAX = 4
# Letters and symbols that are drawn blank: the Hangul fillers, the blank Braille pattern,
# the Khmer inherent vowels. (Format, control and space characters never count as shown.)
BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5")
SHOWN = frozenset("LNPS")  # the categories of characters that draw something
# The only format characters a message or a name may hold: the joiners inside emoji and
# scripts. Every other control or format character (bidi overrides, zero-width spaces, BOM)
# is refused by the caller with its own code.
JOINERS = frozenset("\u200c\u200d")


def visible_problem(text: str) -> str | None:
    """Why `text` would not show (a sentence), or None when it shows."""
    if any(unicodedata.category(c) in ("Zl", "Zp") for c in text):
        return "line and paragraph separators are not shown"
    if not any(unicodedata.category(c)[0] in SHOWN and c not in BLANK for c in text):
        return "it has nothing visible in it"
    run = 0
    for c in text:
        run = run + 1 if unicodedata.category(c)[0] == "M" else 0
        if run > MARKS_MAX:
            return f"at most {MARKS_MAX} combining marks on one character"
    return None


def check_visible(text: str, what: str) -> None:
    """Raise RoomError `invisible_text` unless `text` (a `what`: "a message", "a name")
    shows something readable."""
    problem = visible_problem(text)
    if problem is not None:
        raise RoomError("invisible_text", f"{what} must show something: {problem}", 422)
