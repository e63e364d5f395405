"""Account names and their key.

The key is what makes two names the same name: NFKC, casefolded, without spaces or
format characters, each character replaced by the representative of its confusable class
(Unicode's confusables, as the `confusable-homoglyphs` package ships them), so "Alice",
"ALICE", "A lice" and "Аlice" (a Cyrillic А) all have one key, and only one account may
hold it. A guest's typed name with an account's key is refused at the table too. Which
names nobody may take (a bot's, the site's) is reserved.py.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from confusable_homoglyphs.confusables import confusables_data  # type: ignore[import-untyped]

NAME_MAX = 24  # the room layer's limit for a seat name (server.rooms.seating.NAME_MAX)
_MARKS = "\u200e\u200f"
# Look-alikes Unicode's table leaves apart (it keeps digits apart from letters), folded
# here too: in a name, "B0b" passes for "Bob".
EXTRA = {"0": "o"}


@cache
def _classes() -> dict[str, str]:
    """Each confusable character -> its class's representative (an ASCII character when
    the class has one, else the lowest code point). Built once: ~10,000 entries."""
    parent: dict[str, str] = {}

    def find(c: str) -> str:
        while parent.get(c, c) != c:
            c = parent[c]
        return c

    def rank(c: str) -> tuple[bool, int]:
        return (not c.isascii(), ord(c))

    for char, glyphs in confusables_data.items():
        for glyph in glyphs:
            other = glyph["c"].strip(_MARKS)
            if len(char) == 1 and len(other) == 1:
                a, b = find(char), find(other)
                if a != b:
                    low, high = sorted((a, b), key=rank)
                    parent[high] = low
    return {c: find(c) for c in parent}


def name_key(name: str) -> str:
    """The confusable-insensitive key of a name (see the module's docstring). Non-ASCII
    look-alikes are folded before casefolding too: capitals have look-alikes of their own
    (Cyrillic "ВОТ" is "BOT", though "вот" is no "bot"); ASCII ones are not ("I" and "l"
    look alike, "i" and "l" do not)."""
    classes = _classes()
    text = unicodedata.normalize("NFKC", name)
    text = "".join(c if c.isascii() else classes.get(c, c) for c in text).casefold()
    kept = (c for c in text if not c.isspace() and unicodedata.category(c) != "Cf")
    key = "".join(EXTRA.get(c) or classes.get(c, c) for c in kept)
    return unicodedata.normalize("NFKC", key).casefold()
