"""bench/load.py stays runnable: a tiny run of the baseline and the game under the Node load
generator, read back from its --json line. Nothing about time is asserted, only that every
figure is there, actions went through without errors and the server timed its stages and
its journal's commits; and how several rounds combine into one table."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIGURES = {"actions_per_s", "p50_ms", "p95_ms", "p99_ms", "cpu_ms_per_action",
           "server_cpu_pct", "loop_cpu_pct", "client_cpu_pct",
           "rss_kib_per_room", "rss_kib_per_room_played", "setup_cpu_ms_per_room",
           "rooms_replaced_per_s", "cpu_ms_per_action_in_play"}


def bench_load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_load", ROOT / "bench" / "load.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_load", module)  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_a_tiny_load_run_reports_baseline_game_ratio_and_stages() -> None:
    if not bench_load().node_available():
        pytest.skip("node or bench/node/node_modules missing (make bench installs them)")
    done = subprocess.run(
        [sys.executable, "bench/load.py", "--rooms", "2", "--pace", "0", "--duration", "2",
         "--stages", "--json"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    for part in ("baseline", "game", "ratio"):
        assert set(result[part]) >= FIGURES, part
    for kind in ("baseline", "game"):
        assert result[kind]["actions_per_s"] > 0, kind
        assert result[kind]["loop_cpu_pct"] > 0 and result[kind]["client_cpu_pct"] > 0, kind
        assert result[kind]["errors"] == 0, result[kind]["error_codes"]
        assert result[kind]["p99_ms_per_second"], kind
        # play alone costs no more than play with the set-ups of the rooms replaced
        assert 0 <= result[kind]["cpu_ms_per_action_in_play"] \
            <= result[kind]["cpu_ms_per_action"], kind
    assert result["game"]["setup_cpu_ms_per_room"] > 0  # rooms created, joined, started
    assert result["baseline"]["rooms_replaced_per_s"] == 0  # its games never end
    stages = result["game"]["stages"]
    assert set(stages) == {"rules", "journal", "queue", "write", "total"}
    assert all(s["count"] > 0 for s in stages.values())
    assert result["game"]["commit"]["count"] > 0  # the journal's transactions
    assert set(result["game"]["gc"]) == {"gc0", "gc1", "gc2"}  # the collector's pauses
    assert result["baseline"]["stages"] == result["baseline"]["commit"] \
        == result["baseline"]["gc"] == {}  # no /metrics
    assert "rounds" not in result  # one round: its figures are the table


def figures(**given: object) -> dict:
    run = {k: 1.0 for k in bench_load().FIGURES} | {"error_codes": {}} | given
    return run | {"stages": {"marker": run["actions_per_s"]}}


def test_rounds_combine_into_medians_with_errors_summed_and_same_round_ratios() -> None:
    load = bench_load()
    games = [figures(actions_per_s=a, errors=e, error_codes={"stale": e} if e else {})
             for a, e in ((2000, 0), (2100, 2), (1900, 1))]
    baselines = [figures(actions_per_s=a) for a in (3000, 4400, 4000)]
    combined = load.combine(games)
    assert combined["actions_per_s"] == 2000
    assert combined["errors"] == 3 and combined["error_codes"] == {"stale": 3}
    assert combined["stages"] == {"marker": 2000}  # the median round's own, not a blend
    rounds = [{"ratio": load.ratios(b, g)} for b, g in zip(baselines, games, strict=True)]
    # 0.667, 0.477 and 0.475: the median of the rounds' own ratios, not 2000 / 4000.
    assert load.median_ratios(rounds)["actions_per_s"] == 2100 / 4400


def test_rounds_alternate_their_order_and_each_is_kept_in_the_json(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    load = bench_load()
    ran: list[str] = []
    speeds = {"baseline": iter((3000, 4400, 4000)), "game": iter((2000, 2100, 1900))}

    def run(kind: str, *args: object) -> dict:  # the servers are real in the test above
        ran.append(kind)
        return figures(actions_per_s=next(speeds[kind]))

    monkeypatch.setattr(load, "run", run)
    monkeypatch.setattr(sys, "argv", ["load.py", "--rounds", "3", "--client", "python",
                                      "--json"])
    load.main()
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert ran == ["baseline", "game", "game", "baseline", "baseline", "game"]
    assert [r["ratio"]["actions_per_s"] for r in result["rounds"]] == [
        2000 / 3000, 2100 / 4400, 1900 / 4000]
    assert result["ratio"]["actions_per_s"] == 2100 / 4400  # not the medians' 2000 / 4000
    assert result["game"]["actions_per_s"] == 2000 and result["config"]["rounds"] == 3


def test_against_runs_another_checkout_in_the_same_rounds_with_both_ratio_tables(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    load = bench_load()
    ran: list[tuple[str, Path | None]] = []
    speeds = {"baseline": iter((4000, 4400, 3200)), "game": iter((2000, 2640, 1800)),
              "against": iter((1000, 2200, 1200))}

    def run(kind: str, *args: object) -> dict:
        ran.append((kind, args[8] if len(args) > 8 else None))  # root: the last, if given
        return figures(actions_per_s=next(speeds[kind])) | {"stages": {},
                                                            "p99_ms_per_second": [1.0]}

    monkeypatch.setattr(load, "run", run)
    argv = ["load.py", "--rounds", "3", "--client", "python", "--against", str(tmp_path)]
    monkeypatch.setattr(sys, "argv", [*argv, "--json"])
    load.main()
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    # The order turns by one place a round: over three rounds each server runs once first,
    # once second and once last.
    assert ran == [("baseline", None), ("game", None), ("against", tmp_path),
                   ("game", None), ("against", tmp_path), ("baseline", None),
                   ("against", tmp_path), ("baseline", None), ("game", None)]
    assert [r["ratio_against"]["actions_per_s"] for r in result["rounds"]] == [
        1000 / 4000, 2200 / 4400, 1200 / 3200]
    # Each the median of the rounds' own ratios, not the ratio of the medians (0.5, 0.3, 0.6).
    assert result["ratio"]["actions_per_s"] == 1800 / 3200
    assert result["ratio_against"]["actions_per_s"] == 1200 / 3200
    assert result["against_over_game"]["actions_per_s"] == 1200 / 1800
    assert result["config"]["against"].startswith(str(tmp_path))

    speeds.update(baseline=iter((4000, 4400, 3200)), game=iter((2000, 2640, 1800)),
                  against=iter((1000, 2200, 1200)))
    monkeypatch.setattr(sys, "argv", argv)
    load.main()
    table = capsys.readouterr().out
    assert "game/baseline" in table and "against/baseline" in table \
        and "against/game" in table


def test_stage_quantiles_interpolate_inside_the_bucket_like_prometheus() -> None:
    quantile = bench_load().bucket_quantile
    buckets = [(0.001, 0.0), (0.002, 50.0), (0.005, 100.0), (float("inf"), 100.0)]
    assert quantile(buckets, 0.5) == pytest.approx(0.002)
    assert quantile(buckets, 0.25) == pytest.approx(0.0015)
    assert quantile(buckets, 0.99) == pytest.approx(0.002 + 0.003 * 49 / 50)
    assert quantile([(float("inf"), 0.0)], 0.5) != quantile([(float("inf"), 0.0)], 0.5)  # nan
