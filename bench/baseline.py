"""The bare baseline for bench/load.py: the same uvicorn + FastAPI websocket stack, no game.

Each room is a set of sockets; an "act" frame is answered with an ack to its sender and a
~300-byte patch frame broadcast to every socket of the room. Run:
    .venv/bin/python bench/baseline.py --port 8001
"""

from __future__ import annotations

import argparse
import asyncio
import json

import uvicorn
from fastapi import FastAPI, WebSocket, WebSocketDisconnect

FILLER = "x" * 200  # pads a patch frame to about 300 bytes


def create_app() -> FastAPI:
    app = FastAPI()
    rooms: dict[str, list[WebSocket]] = {}
    versions: dict[str, int] = {}

    @app.get("/healthz")
    async def healthz() -> dict:
        return {"status": "ok", "rooms": len(rooms)}

    @app.websocket("/ws/{code}")
    async def socket(ws: WebSocket, code: str) -> None:
        await ws.accept()
        await ws.receive_text()  # hello
        members = rooms.setdefault(code, [])
        members.append(ws)
        version = versions.setdefault(code, 0)
        view = {"game": {"legal": [{"type": "noop"}]}, "room": {"code": code}}
        await ws.send_text(json.dumps({"type": "snapshot", "v": version, "view": view}))
        try:
            while True:
                frame = json.loads(await ws.receive_text())
                if frame.get("type") != "act":
                    continue
                versions[code] += 1
                v = versions[code]
                await ws.send_text(json.dumps({"type": "ack", "id": frame.get("id"), "v": v}))
                patch = json.dumps({
                    "type": "patch", "v": v,
                    "ops": [{"op": "add", "path": "/room/pad", "value": FILLER}],
                    "events": [{"type": "noop"}],
                })
                await asyncio.gather(*(m.send_text(patch) for m in list(members)),
                                     return_exceptions=True)
        except WebSocketDisconnect:
            pass
        finally:
            members.remove(ws)
            if not members:
                rooms.pop(code, None)

    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001)
    args = parser.parse_args()
    uvicorn.run(create_app(), host=args.host, port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
