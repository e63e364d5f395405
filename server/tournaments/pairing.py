"""Who sits with whom in a tournament round, and the standings: pure functions of the
results so far (no database, no clock).

Points per place (tables of 2 to 4 players): a table of k players gives k-1 points to the
first place, k-2 to the second, ... 0 to the last (4 players 3/2/1/0, 3 players 2/1/0,
2 players 1/0). Tied players share the points of the places they cover (two tied first at a
4-player table get (3+2)/2 = 2.5 each). Points are kept in halves (an int), so shared
points never round.

A bye (a player left over when a table of one would be needed: only with 2-player tables
and an odd field) scores the average of a table of the tournament's size, (k-1)/2 (a half
point for 2-player tables). Each player gets at most one bye while another can take it.

Standings, best first: points; then Buchholz (the sum, over every game played, of the
current points of each tablemate met there); then the number of first places (shared
first places count); then entry order (who joined first).

Swiss: a round's tables are filled top down in standing order. The best player not yet
seated heads the next table; each further seat goes to the next player in standing order
who has met the table's players the fewest times before (so repeat tablemates are avoided
where possible, and otherwise kept to the fewest). Tables are as equal in size as the field
allows: ceil(n / size) tables, the larger ones first.

Round robin: with 2-player tables, the circle method (every pair meets once; n-1 rounds, or
n with a bye each round for an odd field). With 3 or 4, each round is the Swiss filling over
a rotating order of the entrants, until every pair has met (at most n-1 rounds). A round
robin takes at most ROUND_ROBIN_MAX players.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

SIZES = (2, 3, 4)
SYSTEMS = ("swiss", "round_robin")
ROUND_ROBIN_MAX = 16  # players a round robin takes (its schedule has up to n-1 rounds)

Pair = tuple[int, int]


def pair_of(a: int, b: int) -> Pair:
    return (a, b) if a < b else (b, a)


def place_points(places: Sequence[int]) -> list[int]:
    """Points (in halves) for each seat of a table, from each seat's place (1 = first; tied
    seats share a place and split the points of the places they cover)."""
    k = len(places)
    ranked = sorted(places)
    out = []
    for place in places:
        first = ranked.index(place)
        count = ranked.count(place)
        # ranks first .. first+count-1 give k-1-r points each: their mean, doubled
        out.append(2 * (k - 1) - 2 * first - (count - 1))
    return out


def bye_points(size: int) -> int:
    """A bye's points in halves: the average of a table of `size`, (size-1)/2."""
    return size - 1


@dataclass(frozen=True, slots=True)
class Played:
    """One finished table: its players (in seat order) and their points in halves; a table
    of one player is a bye."""

    round: int
    players: tuple[int, ...]
    points: tuple[int, ...]
    places: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Standing:
    player: int
    points: int  # halves
    buchholz: int  # halves
    firsts: int
    games: int
    byes: int
    rank: int


def standings(entrants: Sequence[int], played: Iterable[Played]) -> list[Standing]:
    """Every entrant's standing, best first (`entrants` in entry order: the last tie-break)."""
    points: Counter[int] = Counter()
    firsts: Counter[int] = Counter()
    games: Counter[int] = Counter()
    byes: Counter[int] = Counter()
    met: list[tuple[int, int]] = []  # (player, tablemate) once per game
    for table in played:
        if len(table.players) == 1:
            byes[table.players[0]] += 1
            points[table.players[0]] += table.points[0]
            continue
        for player, score, place in zip(table.players, table.points, table.places,
                                        strict=True):
            points[player] += score
            games[player] += 1
            if place == 1:
                firsts[player] += 1
            met.extend((player, other) for other in table.players if other != player)
    buchholz: Counter[int] = Counter()
    for player, other in met:
        buchholz[player] += points[other]
    seed = {player: index for index, player in enumerate(entrants)}
    order = sorted(entrants, key=lambda p: (-points[p], -buchholz[p], -firsts[p], seed[p]))
    return [Standing(p, points[p], buchholz[p], firsts[p], games[p], byes[p], rank)
            for rank, p in enumerate(order, 1)]


def meetings(played: Iterable[Played]) -> Counter[Pair]:
    """How many times each pair of players shared a table."""
    met: Counter[Pair] = Counter()
    for table in played:
        players = table.players
        for i, a in enumerate(players):
            for b in players[i + 1:]:
                met[pair_of(a, b)] += 1
    return met


def table_sizes(n: int, size: int) -> list[int]:
    """The sizes of a round's tables for n players at tables of `size`: ceil(n / size)
    tables as equal as they can be, larger first (a 1 is a bye)."""
    if n <= 0:
        return []
    tables = -(-n // size)
    base, extra = divmod(n, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def _fill(order: Sequence[int], sizes: Sequence[int], met: Mapping[Pair, int]) -> list[list[int]]:
    """Seat `order` (best first) at tables of `sizes`, top down, fewest repeats first."""
    remaining = list(order)
    tables: list[list[int]] = []
    for k in sizes:
        table = [remaining.pop(0)]
        while len(table) < k:
            best, fewest = 0, -1
            for index, candidate in enumerate(remaining):
                repeats = sum(met.get(pair_of(candidate, p), 0) for p in table)
                if fewest < 0 or repeats < fewest:
                    best, fewest = index, repeats
                    if repeats == 0:
                        break
            table.append(remaining.pop(best))
        tables.append(table)
    return tables


def swiss(order: Sequence[int], size: int, played: Sequence[Played]) -> list[list[int]]:
    """A Swiss round: `order` is the players to seat (withdrawn ones left out), best
    standing first. Returns the tables (seat order = standing order); a table of one is a
    bye, given to the lowest-ranked player who has had none (else the lowest-ranked)."""
    sizes = table_sizes(len(order), size)
    remaining = list(order)
    bye: list[list[int]] = []
    if sizes and sizes[-1] == 1:
        had = {t.players[0] for t in played if len(t.players) == 1}
        taker = next((p for p in reversed(remaining) if p not in had), remaining[-1])
        remaining.remove(taker)
        bye = [[taker]]
        sizes = sizes[:-1]
    return _fill(remaining, sizes, meetings(played)) + bye


def _circle(players: Sequence[int]) -> list[list[list[int]]]:
    """The circle method for 2-player tables: every pair once."""
    field: list[int | None] = list(players)
    if len(field) % 2:
        field.append(None)
    n = len(field)
    rounds = []
    for _ in range(n - 1):
        tables: list[list[int]] = []
        byes: list[list[int]] = []
        for i in range(n // 2):
            a, b = field[i], field[n - 1 - i]
            if a is None or b is None:
                byes.append([p for p in (a, b) if p is not None])
            else:
                tables.append([a, b])
        rounds.append(tables + byes)
        field = [field[0], field[-1], *field[1:-1]]
    return rounds


def round_robin(players: Sequence[int], size: int) -> list[list[list[int]]]:
    """Every round of a round robin of `players` (entry order) at tables of `size`."""
    if len(players) < 2:
        return []
    if size == 2:
        return _circle(players)
    everyone = {pair_of(a, b) for i, a in enumerate(players) for b in players[i + 1:]}
    played: list[Played] = []
    rounds: list[list[list[int]]] = []
    for number in range(len(players) - 1):
        met = meetings(played)
        if everyone <= set(met):
            break
        shift = (number * (size - 1)) % len(players)
        order = [*players[shift:], *players[:shift]]
        tables = _fill(order, table_sizes(len(order), size), met)
        rounds.append(tables)
        played += [Played(number, tuple(t), (0,) * len(t), (1,) * len(t)) for t in tables]
    return rounds
