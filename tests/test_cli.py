"""The `coffee-rush` command line: `simulate` through the installed script, `tournament` wiring."""

from __future__ import annotations

import json
import subprocess
import sys
import types
from pathlib import Path

import pytest

from server import cli

SCRIPT = Path(sys.executable).parent / "coffee-rush"
ENDINGS = {"deck", "penalties", "stall"}
FIELDS = {
    "players", "games", "seed", "mean_turns", "mean_actions", "endings",
    "mean_winning_score", "games_per_second",
}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SCRIPT), *args], capture_output=True, text=True, timeout=120, check=False
    )


def simulate_json(players: int, games: int, seed: int) -> dict:
    done = run("simulate", "--players", str(players), "--games", str(games), "--seed", str(seed),
               "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # exactly one JSON value, or this raises


@pytest.mark.parametrize("players", [2, 3, 4])
def test_simulate_json_reports_every_figure(players: int) -> None:
    report = simulate_json(players, games=4, seed=11)
    assert set(report) == FIELDS
    assert (report["players"], report["games"], report["seed"]) == (players, 4, 11)
    assert set(report["endings"]) == ENDINGS
    assert sum(report["endings"].values()) == 4
    # R-END-STALL only exists with 3-4 players; 2 players draw a card every turn.
    if players == 2:
        assert report["endings"]["stall"] == 0
    # Every player has at least one turn before any closing condition can trigger.
    assert report["mean_turns"] >= players
    assert report["mean_actions"] > report["mean_turns"]
    assert report["games_per_second"] > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_same_seed_same_figures(players: int) -> None:
    first = simulate_json(players, games=3, seed=5)
    second = simulate_json(players, games=3, seed=5)
    first.pop("games_per_second")
    second.pop("games_per_second")
    assert first == second


def test_different_seeds_play_different_games() -> None:
    a = simulate_json(4, games=3, seed=1)
    b = simulate_json(4, games=3, seed=2)
    assert (a["mean_actions"], a["mean_turns"]) != (b["mean_actions"], b["mean_turns"])


def test_simulate_plain_output_matches_json() -> None:
    done = run("simulate", "--players", "3", "--games", "3", "--seed", "9")
    assert done.returncode == 0, done.stderr
    text = done.stdout
    report = simulate_json(3, games=3, seed=9)
    assert "games:              3 (3 players, seed 9)" in text
    assert f"mean turns/game:    {report['mean_turns']:.2f}" in text
    assert f"mean actions/game:  {report['mean_actions']:.2f}" in text
    assert f"mean winning score: {report['mean_winning_score']:.2f}" in text
    assert "no orders left" in text
    for reason, count in report["endings"].items():
        assert any(line.split()[:2] == [reason, str(count)] for line in text.splitlines())
    assert "games/second:" in text
    with pytest.raises(json.JSONDecodeError):
        json.loads(text)


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "--players", "5"],
        ["simulate", "--games", "0"],
        ["simulate", "--seed", "-1"],
        ["simulate", "--games", "many"],
        ["nonsense"],
        [],
    ],
)
def test_bad_arguments_exit_2(args: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(args)
    assert exit_.value.code == 2


def test_tournament_passes_its_options(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = []
    fake = types.ModuleType(cli.TOURNAMENT_MODULE)
    fake.main = lambda args: seen.append(args) or 0  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, cli.TOURNAMENT_MODULE, fake)
    code = cli.main([
        "tournament", "--bots", "strong,greedy", "--games", "6", "--players", "3",
        "--seed", "4", "--budget", "0.5", "--workers", "1", "--json",
    ])
    assert code == 0
    (args,) = seen
    assert args.bots == ["strong", "greedy"]
    assert (args.games, args.players, args.seed, args.budget, args.workers, args.json) == (
        6, 3, 4, 0.5, 1, True,
    )


def test_tournament_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = []
    fake = types.ModuleType(cli.TOURNAMENT_MODULE)
    fake.main = lambda args: seen.append(args) or 3  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, cli.TOURNAMENT_MODULE, fake)
    assert cli.main(["tournament"]) == 3  # its exit code is passed on
    (args,) = seen
    assert args.budget == 1.0
    assert args.bots == ["expert", "greedy"]
    assert args.workers >= 1
    assert args.json is False


def test_tournament_without_bots_module_exits_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, cli.TOURNAMENT_MODULE, None)  # import raises ImportError
    assert cli.main(["tournament", "--games", "2"]) == 2
    assert cli.TOURNAMENT_MODULE in capsys.readouterr().err
