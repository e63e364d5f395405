"""One registry of error codes (server/error_codes.py): every code the server can send is
registered, every registered code is sent somewhere, and PROTOCOL.md's table is generated."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from server import error_codes
from server.api.errors import HTTP_CODES
from server.error_codes import ERRORS, registered
from server.rooms import RoomError
from server.rules import errors as rule_errors
from server.ws.frames import FrameError
from server.ws.schema_doc import DOC

SERVER = Path(__file__).resolve().parents[1] / "server"
# Where a code is written as a literal: the error constructors, the HTTP answers and the
# error frames' dicts.
USES = re.compile(
    r'(?:RoomError|AccountError|FrameError|ImportRefused|ReplayError|Refusal|error_response|_answer|\.error|'
    r'\.refuse)\(\s*(?:[\w.]+,\s*)?(?:\d{3},\s*)?"([a-z_]+)"'
    r'|return \d{3}, "([a-z_]+)"|"code": "([a-z_]+)"'
)


def used_codes() -> set[str]:
    found: set[str] = set()
    for path in SERVER.rglob("*.py"):
        for match in USES.finditer(path.read_text()):
            found.add(next(g for g in match.groups() if g))
    rules = {cls.code for cls in vars(rule_errors).values()
             if isinstance(cls, type) and issubclass(cls, rule_errors.RuleError)}
    return found | rules | set(HTTP_CODES.values())


def test_every_code_the_server_sends_is_registered() -> None:
    used = used_codes()
    assert len(used) > 25  # the pattern still finds the uses
    assert used - set(ERRORS) == set()


def test_every_registered_code_is_sent_somewhere() -> None:
    assert set(ERRORS) - used_codes() == set()


def test_an_unregistered_code_cannot_be_raised() -> None:
    for make in (lambda: RoomError("no_such_code", "x"), lambda: FrameError("nope", "x")):
        with pytest.raises(ValueError, match="unregistered error code"):
            make()
    assert registered("stale") == "stale"


def test_protocol_doc_error_table_is_generated() -> None:
    document = DOC.read_text()
    assert error_codes.render_table() in document, "run: python -m server.ws.schema_doc"
    for code in ("unsupported_format", "result_mismatch", "rules_version_mismatch", "busy"):
        assert f"| `{code}` |" in document
