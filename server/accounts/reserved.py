"""Names no player may take, account or guest seat (issue 41.8): a name must not pass for
a bot, or for the site and the people who run it.

Every match is made on name keys (names.name_key: look-alikes and case folded, so "B0T",
"ВОТ" and "Ｂｏｔ" are all "bot"), in three ways:

- WORDS, whole words: the name is cut at anything but a letter or digit ("random-bot",
  "bot_2", "B0T"), and each piece again at digits and camelCase humps ("ExpertBot",
  "Bot2"), so "Abbott" and "Talbot" stay free.
- INFIXES, anywhere in the name: words of scripts written without spaces (Thai, Japanese,
  Chinese, Korean), the robot emoji, and the site's own name ("Coffee Rush" in any spacing).
- A bot level's name on its own ("expert"; "เซียน" and "전문가" as the Thai and Korean
  tables show it: LEVEL_NAMES).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import cache
from typing import Literal

from .errors import AccountError
from .names import NAME_MAX, name_key

Why = Literal["bot", "site"]

WORDS: dict[Why, tuple[str, ...]] = {
    "bot": ("bot", "bots", "robot", "robots", "roboter", "robô", "бот", "боты", "робот",
            "بوت", "روبوت", "बॉट", "रोबोट"),
    "site": ("admin", "admins", "administrator", "administrador", "administrateur",
             "sysadmin", "sysop", "system", "moderator", "mod", "staff", "support",
             "official", "root", "webmaster", "server", "админ", "администратор"),
}
INFIXES: dict[Why, tuple[str, ...]] = {
    "bot": ("🤖", "บอต", "หุ่นยนต์", "봇", "로봇", "ボット", "ロボット", "机器人", "機器人"),
    "site": ("coffee rush", "แอดมิน", "ผู้ดูแล", "ระบบ", "관리자", "운영자", "어드민",
             "시스템", "管理者", "運営", "システム", "管理员", "管理員", "系统", "系統"),
}
# The bot levels as the table names them in Thai and Korean (static/js/lang "bot.<level>";
# tests/accounts/test_reserved.py keeps them in step); in English, the level's own name.
LEVEL_NAMES = {
    "th": {"random": "สุ่ม", "greedy": "โลภ", "strong": "เก่ง", "expert": "เซียน"},
    "ko": {"random": "무작위", "greedy": "욕심쟁이", "strong": "강함", "expert": "전문가"},
}
SENTENCES: dict[Why, str] = {"bot": "that name would pass for a bot",
                             "site": "that name would pass for the site or its staff"}
_RUNS = re.compile(r"[^\W_]+")
_LETTERS = re.compile(r"[^\W\d_]+")
_HUMP = re.compile(r"(?<=[a-z])(?=[A-Z])")


def words(name: str) -> set[str]:
    """The words of a name: its runs of letters and digits, and the runs of letters in
    them, cut at camelCase humps too."""
    runs = _RUNS.findall(unicodedata.normalize("NFKC", name))
    return {*runs, *(part for run in runs for letters in _LETTERS.findall(run)
                     for part in _HUMP.split(letters) if part)}


@cache
def _keyed() -> dict[Why, tuple[frozenset[str], tuple[str, ...]]]:
    return {why: (frozenset(name_key(w) for w in WORDS[why]),
                  tuple(name_key(w) for w in INFIXES[why])) for why in WORDS}


def reserved(name: str, levels: Iterable[str]) -> Why | None:
    """Why `name` may not be taken ("site" before "bot"), or None when it is free."""
    key = name_key(name)
    keys = {name_key(w) for w in words(name)}
    for why in ("site", "bot"):
        whole, infixes = _keyed()[why]
        if keys & whole or any(i in key for i in infixes):
            return why
    return "bot" if key in _level_keys(tuple(levels)) else None


@cache
def _level_keys(levels: tuple[str, ...]) -> frozenset[str]:
    """The keys of the bot levels' names, as given and as the tables show them: made once
    per list of levels, not at every guest's join (a dozen keys, ~45 µs)."""
    shown = set(levels) | {n for table in LEVEL_NAMES.values() for n in table.values()}
    return frozenset(name_key(level) for level in shown)


def check_reserved(name: str, levels: Iterable[str]) -> str:
    """`name`, or AccountError `name_reserved` saying why it may not be taken."""
    why = reserved(name, levels)
    if why is not None:
        raise AccountError("name_reserved", SENTENCES[why], 422)
    return name


def check_name(name: str, levels: Iterable[str]) -> str:
    """A name an account may take (already a valid seat name: the caller passes it through
    the room layer's `clean_name` first); AccountError `name_reserved` for one that is
    reserved (above), or that has no letter or digit at all."""
    if len(name) > NAME_MAX or not any(c.isalnum() for c in name):
        raise AccountError("name_reserved",
                           f"an account's name has 1 to {NAME_MAX} characters, a letter "
                           "or digit among them", 422)
    return check_reserved(name, levels)
