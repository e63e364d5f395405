"""The `coffee-rush` command: `serve` the game (as `python -m server`), `simulate` random
games, run a bot `tournament`, manage `users` (accounts: list, disable, enable, rename),
`ratings recompute`, or `backup` and `restore` the database."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

PLAYER_COUNTS = (2, 3, 4)
TOURNAMENT_MODULE = "server.bots.tournament"


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _seed(text: str) -> int:
    value = int(text)
    if not 0 <= value < 1 << 64:
        raise argparse.ArgumentTypeError("a seed is an integer in [0, 2**64)")
    return value


def _positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be greater than 0, not {text}")
    return value


def _names(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",")]
    if not all(names):
        raise argparse.ArgumentTypeError(f"expected a comma-separated list of names: {text!r}")
    return names


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="coffee-rush", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = commands.add_parser(
        "serve", help="serve the game on HOST:PORT (the settings), as `python -m server` does")
    serve.set_defaults(run=_serve)

    save = commands.add_parser(
        "backup", help="write every table of a running server's database to FILE (JSON lines; "
        ".gz: gzipped), unfinished games' journals included")
    save.add_argument("file", type=Path)
    save.add_argument("--database-url", help="default: the DATABASE_URL setting")
    save.set_defaults(run=_backup)
    load = commands.add_parser(
        "restore", help="load a backup FILE into an empty database (SQLite or PostgreSQL, "
        "whichever it came from), migrating it first; then start the server on it")
    load.add_argument("file", type=Path)
    load.add_argument("--database-url", help="default: the DATABASE_URL setting")
    load.set_defaults(run=_restore)

    sim = commands.add_parser("simulate", help="play random legal games and report figures")
    sim.add_argument("--players", type=int, choices=PLAYER_COUNTS, default=4)
    sim.add_argument("--games", type=_positive_int, default=100)
    sim.add_argument("--seed", type=_seed, default=0)
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    sim.set_defaults(run=_simulate)

    tour = commands.add_parser("tournament", help="play bots against each other")
    tour.add_argument(
        "--bots", type=_names, default=["expert", "greedy"],
        help="comma-separated bot names, e.g. expert,greedy (passed on as a list)",
    )
    tour.add_argument("--games", type=_positive_int, default=100)
    tour.add_argument("--players", type=int, choices=PLAYER_COUNTS, default=2)
    tour.add_argument("--seed", type=_seed, default=0)
    tour.add_argument(
        "--budget", type=_positive_float, default=1.0,
        help="share of each level's full thinking work per decision (1.0: as at a table); "
        "work is counted, not timed, so a seeded tournament reproduces on any machine",
    )
    tour.add_argument("--workers", type=_positive_int, default=os.cpu_count() or 1)
    tour.add_argument("--json", action="store_true", help="print one JSON object")
    tour.set_defaults(run=_tournament)

    rate = commands.add_parser("ratings", help="the signed-in players' ratings")
    rate_commands = rate.add_subparsers(dest="ratings_command", required=True, metavar="WHAT")
    again = rate_commands.add_parser(
        "recompute", help="rate every stored game again, in the order they ended "
        "(after an upgrade, or a change of the bots' ratings)")
    again.set_defaults(run=_recompute_ratings)
    users = commands.add_parser("users", help="manage accounts (in DATABASE_URL's database), "
                                "and who the operators are")
    users.add_argument("--database-url", help="default: the DATABASE_URL setting")
    actions = users.add_subparsers(dest="action", required=True, metavar="ACTION")
    listing = actions.add_parser("list", help="every account, with its status")
    listing.add_argument("--json", action="store_true", help="print one JSON array")
    for action, words in (("disable", "may not sign in; its sessions end"),
                          ("enable", "may sign in again")):
        sub = actions.add_parser(action, help=f"the account {words}")
        sub.add_argument("who", help="the account's id (12 or #12) or its name")
    oper = actions.add_parser("operator", help="the account may open /admin, the operators' "
                              "page (--revoke: no longer)")
    oper.add_argument("who", help="the account's id (12 or #12) or its name")
    oper.add_argument("--revoke", action="store_true", help="take the mark away")
    ren = actions.add_parser("rename", help="give an account another name")
    ren.add_argument("who", help="the account's id (12 or #12) or its name")
    ren.add_argument("name", help="the new name (checked as players' names are)")
    users.set_defaults(run=_users)
    return parser


def _serve(args: argparse.Namespace) -> int:
    from server.__main__ import main as serve

    serve()
    return 0


def _backup(args: argparse.Namespace) -> int:
    return _move(args, "backup")


def _restore(args: argparse.Namespace) -> int:
    return _move(args, "restore")


def _move(args: argparse.Namespace, how: str) -> int:
    import time

    from server.config import Settings
    from server.db import backup
    from server.db.migrate import DatabaseRefused

    url = args.database_url or Settings().DATABASE_URL
    start = time.monotonic()
    try:
        counts = getattr(backup, how)(url, args.file)
    except (backup.BackupError, DatabaseRefused, OSError) as exc:
        print(f"coffee-rush: {how} failed: {exc}", file=sys.stderr)
        return 1
    rows = ", ".join(f"{n} {table}" for table, n in counts.items() if n)
    print(f"{how}: {sum(counts.values())} rows in {time.monotonic() - start:.1f} s "
          f"({rows or 'no rows'})")
    return 0


def _simulate(args: argparse.Namespace) -> int:
    from server.simulate import render, simulate

    report = simulate(players=args.players, games=args.games, seed=args.seed)
    print(json.dumps(report.to_dict()) if args.json else render(report))
    return 0


def _tournament(args: argparse.Namespace) -> int:
    # Imported only here: bots may be heavy, and `simulate` must work without them.
    try:
        tournament = importlib.import_module(TOURNAMENT_MODULE)
    except ImportError as exc:
        print(
            f"coffee-rush: error: the tournament needs {TOURNAMENT_MODULE}, "
            f"which could not be imported ({exc})",
            file=sys.stderr,
        )
        return 2
    return int(tournament.main(args) or 0)


def _recompute_ratings(args: argparse.Namespace) -> int:
    """On the database at DATABASE_URL (the server's settings), migrated first."""
    import asyncio

    from server.config import Settings
    from server.db import ratings
    from server.db.migrate import upgrade
    from server.db.session import make_engine, session_factory

    async def run(url: str) -> int:
        engine = make_engine(url)
        try:
            async with session_factory(engine).begin() as session:
                return await ratings.recompute(session)
        finally:
            await engine.dispose()

    url = Settings().DATABASE_URL
    upgrade(url)
    print(f"rated games: {asyncio.run(run(url))}, rated again in the order they ended")
    return 0


def _users(args: argparse.Namespace) -> int:
    from server.accounts import admin
    from server.accounts.errors import AccountError
    from server.accounts.limits import Limits
    from server.accounts.reserved import check_name
    from server.bots.levels import LEVELS
    from server.config import Settings
    from server.rooms import RoomError
    from server.rooms.seating import clean_name

    url = args.database_url or Settings().DATABASE_URL
    try:
        if args.action == "list":
            rows = asyncio.run(admin.list_users(url))
            if args.json:
                print(json.dumps(rows))
            for r in [] if args.json else rows:
                ways = ", ".join(w for w, on in (("password", r["password"]),
                                                 (f"{r['passkeys']} passkey(s)", r["passkeys"]))
                                 if on) or "no way to sign in"
                status = f"{r['status']}, operator" if r["operator"] else r["status"]
                print(f"#{r['id']}\t{r['name'] or '-'}\t{status}\t{r['created_at'][:10]}"
                      f"\t{ways}")
        elif args.action == "operator":
            from server.admin.host import set_operator

            account = asyncio.run(set_operator(url, args.who, not args.revoke))
            print(f"#{account.id} {account.name}: "
                  f"{'no longer an operator' if args.revoke else 'operator (may open /admin)'}")
        elif args.action in ("disable", "enable"):
            account = asyncio.run(admin.set_disabled(url, args.who, args.action == "disable"))
            print(f"#{account.id} {account.name}: {args.action}d")
        else:
            name = check_name(clean_name(args.name), LEVELS)
            hold = Limits.of(Settings()).hold
            account, name = asyncio.run(admin.rename(url, args.who, name, hold))
            print(f"#{account.id} {account.name} is now {name}")
    except (AccountError, RoomError) as exc:
        print(f"coffee-rush: error: {exc.message} ({exc.code})", file=sys.stderr)
        return 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
