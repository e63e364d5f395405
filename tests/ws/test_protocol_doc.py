"""docs/PROTOCOL.md's schema section is generated from the models and must not drift."""

from __future__ import annotations

from server.ws.schema_doc import BEGIN, DOC, END, render, splice


def test_protocol_doc_schemas_are_current():
    document = DOC.read_text()
    assert BEGIN in document and END in document
    assert splice(document) == document, "run: python -m server.ws.schema_doc"


def test_every_frame_is_documented():
    section = render()
    for name in ("Hello", "Act", "Ping", "Snapshot", "Patch", "Ack", "Error", "Bye", "Pong",
                 "CreateRoom", "JoinRoom", "SeatBot"):
        assert f"#### {name}\n" in section
