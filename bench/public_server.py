"""The game server on uvicorn's stock protocols (httptools, websockets-sansio) rather than
server/ws/protocol.py's subclasses: `bench/load.py --public-protocols` runs it, to measure
what the subclasses save per action and per room (docs/ARCHITECTURE.md)."""

from server.__main__ import main

if __name__ == "__main__":
    main(own_protocols=False)
