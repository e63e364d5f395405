"""The tournament command: seat rotation, Wilson intervals, and its JSON report."""

from __future__ import annotations

import argparse
import json

import pytest

from server.bots.tournament import main, schedule, wilson


def _args(**kw) -> argparse.Namespace:
    base = dict(bots="greedy,random", games=2, players=2, seed=3, budget=0.01,
                workers=1, json=True)
    base.update(kw)
    return argparse.Namespace(**base)


def test_json_report_shape(capsys):
    assert main(_args()) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 2 and report["players"] == 2 and report["seed"] == 3
    (pair,) = report["pairings"]
    assert pair["bots"] == ["greedy", "random"] and pair["games"] == 2
    assert [row["bot"] for row in pair["rows"]] == ["greedy", "random"]
    for row in pair["rows"]:
        assert set(row) == {"bot", "games", "seats", "wins", "win_rate", "ci95", "mean_score",
                            "mean_penalties", "cpu_per_decision"}
        assert row["games"] == 2
        lo, hi = row["ci95"]
        assert 0.0 <= lo <= row["win_rate"] <= hi <= 1.0
        assert 0 <= row["mean_penalties"] <= 5  # R-END-PEN closes the game at five
        cpu = row["cpu_per_decision"]
        # Measured CPU: a mean may pass the p95 when one decision is an outlier, never the max.
        assert cpu["decisions"] > 0 and 0 <= cpu["p95"] <= cpu["max"]
        assert 0 <= cpu["mean"] <= cpu["max"]
    assert sum(row["wins"] for row in pair["rows"]) == pytest.approx(2.0)
    assert sum(pair["end_reasons"].values()) == 2 == sum(report["end_reasons"].values())


def test_four_players_two_seats_each_share_the_games_wins(capsys):
    assert main(_args(players=4, games=2)) == 0
    (pair,) = json.loads(capsys.readouterr().out)["pairings"]
    assert [row["seats"] for row in pair["rows"]] == [4, 4]
    assert [row["games"] for row in pair["rows"]] == [2, 2]
    assert sum(row["win_rate"] for row in pair["rows"]) == pytest.approx(1.0)


def test_three_bots_in_two_player_games_report_each_pairing(capsys):
    assert main(_args(bots="greedy,random,strong", games=3)) == 0
    report = json.loads(capsys.readouterr().out)
    assert sorted(tuple(p["bots"]) for p in report["pairings"]) == [
        ("greedy", "random"), ("greedy", "strong"), ("random", "strong"),
    ]


def test_bots_may_come_as_a_list_and_text_output_names_them(capsys):
    assert main(_args(bots=["random", "greedy"], json=False)) == 0
    out = capsys.readouterr().out
    assert "random vs greedy" in out and "95% CI" in out and "penalties" in out
    assert "CPU s/decision" in out and "ended by" in out


def test_unknown_or_repeated_bots_are_refused(capsys):
    assert main(_args(bots="greedy,wizard")) == 2
    assert main(_args(bots="greedy,greedy")) == 2
    # The reference level expert-1 (the expert before issue 48) can be seated too.
    assert "expert-1" in capsys.readouterr().err


def test_each_bot_plays_each_seat_equally_on_the_same_deals():
    tasks = schedule(["a", "b", "c"], games=6, players=2, seed=0, budget=0.1)
    seats = {(t.lineup[s], s) for t in tasks for s in range(2)}
    assert len(seats) == 6
    for bot in "abc":
        assert sum(t.lineup.count(bot) for t in tasks) == 4
    assert tasks[0].seed == tasks[1].seed == tasks[2].seed != tasks[3].seed


def test_wilson_interval():
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(1 - hi) and lo == pytest.approx(0.2366, abs=1e-3)
    assert wilson(0, 10)[0] == pytest.approx(0.0, abs=1e-12)
    assert wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)
