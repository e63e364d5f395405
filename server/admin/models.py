"""The bodies of the operators' requests: checked at the boundary (strict, no extra field)."""

from __future__ import annotations

import unicodedata
from typing import Literal

from pydantic import Field, field_validator

from server.api.models import Body
from server.db.models import ANNOUNCEMENT, NAME

# Bidirectional overrides and isolates: they make a text read as another (spoofing).
BIDI = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))}


def clean_announcement(text: str) -> str:
    """One line: control characters and bidi overrides dropped, white space collapsed."""
    kept = "".join(ch for ch in text
                   if ch not in BIDI and unicodedata.category(ch) != "Cc" or ch in "\t\n")
    return " ".join(kept.split())


class Announcement(Body):
    text: str = Field(max_length=ANNOUNCEMENT,
                      description=f"shown in every lobby and table (at most {ANNOUNCEMENT} "
                      "characters, one line); empty: no announcement")

    @field_validator("text")
    @classmethod
    def _one_line(cls, value: str) -> str:
        return clean_announcement(value)


class AccountAction(Body):
    who: str = Field(min_length=1, max_length=NAME, description="an account's name, or #id")
    action: Literal["disable", "enable", "mute", "unmute"]
