"""Successive halving across variants: the decisions on hand-made records, a tiny halved study
end to end (the same records on 1 and 2 workers, the report naming what was dropped), and a
halved study killed with kill -9 and resumed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from skip_ai.balance import halving
from skip_ai.balance.config import load_balance_config, parse_balance_config
from skip_ai.balance.study import run_study
from skip_ai.records import read_records

ROOT = Path(__file__).resolve().parents[1]
FAIR, UNFAIR = "skip_columns(players=4)", "skip_columns(players=6)"


def config(deals: int = 40, rounds: int = 2, games=(FAIR, UNFAIR)):
    return parse_balance_config(
        {
            "name": "h",
            "deals": deals,
            "trace_deals": 4,
            "games": [{"game": g} for g in games],
            "agents": [{"name": "r", "spec": "random"}, {"name": "h", "spec": "heuristic"}],
            "halving": {"rounds": rounds, "rung": "h"},
            "objective": {"skill_depth": 0.0},
            "measures": {"evaluated_games": 0},
        }
    )


def records(cfg, k: int, contenders, team0_wins) -> pd.DataFrame:
    """Hand-made records of round ``k``'s games: in self-play team 0 wins when
    ``team0_wins(variant, deal)``; every step is a draw."""
    rows = []
    for g in halving.round_games(cfg, k, contenders):
        v = int(g.match_id.split("/")[0])
        rows.append(
            {
                "match_id": g.match_id,
                "status": "ok",
                "game": g.game,
                "deal": g.deal,
                "seating": g.seating,
                "team_game": True,
                "agent_a": g.agent_a.name,
                "agent_b": g.agent_b.name,
                "winner": 0 if team0_wins(v, g.deal) else 1,
                "scores": [7.0, 6.0] if team0_wins(v, g.deal) else [6.0, 7.0],
                "seconds": 0.1,
                "score_a": 0.5,
                "num_moves": 50,
                "movers": None,
                "mover_values": None,
                "value_spreads": None,
            }
        )
    return pd.DataFrame(rows)


def alternate_or_team1(v: int, deal: int) -> bool:
    """Variant 0 fair (team 0 wins every other deal), variant 1 won by team 1 every time."""
    return v == 0 and deal % 2 == 0


def test_round_deals_double_up_to_the_study():
    cfg = config(deals=10, rounds=3)
    assert [halving.round_deals(cfg, k) for k in range(4)] == [(0, 0), (3, 1), (5, 2), (10, 4)]


def test_a_variant_clearly_worse_than_the_best_is_dropped():
    cfg = config()
    first = records(cfg, 1, (0, 1), alternate_or_team1)
    rounds = halving.plan(cfg, first)
    assert [r.number for r in rounds] == [1, 2] and rounds[0].complete and not rounds[1].complete
    v = rounds[0].verdicts.set_index("game")
    fair, unfair = cfg.games
    # 20 deals (betting intervals): fair 0.5 [0.23, 0.78] → |p − ½| ≤ 0.28; unfair 0 [0, 0.21]
    # → |p − ½| ≥ 0.29
    assert v.loc[fair, "lo"] == 0 and v.loc[fair, "hi"] == pytest.approx(0.2759, abs=1e-3)
    assert v.loc[unfair, ["penalty", "lo"]].tolist() == pytest.approx([0.5, 0.2874], abs=1e-3)
    assert v.dropped.tolist() == [False, True] and set(v.best) == {fair}
    assert v.deals.tolist() == [20, 20]
    assert rounds[1].contenders == (0,)
    # the next round's games are the fair variant's deals 20–39 only
    later = list(halving.round_games(cfg, 2, rounds[1].contenders))
    assert {g.match_id.split("/")[0] for g in later} == {"0"}
    assert sorted({g.deal for g in later if "/self/" in g.match_id}) == list(range(20, 40))
    assert halving.size(cfg, rounds) == len(list(halving.schedule(cfg, rounds)))


def test_overlapping_intervals_keep_every_variant_and_incomplete_rounds_decide_nothing():
    cfg = config()
    first = records(cfg, 1, (0, 1), lambda v, deal: deal % (2 + v) == 0)  # ½ and ⅓
    rounds = halving.plan(cfg, first)
    assert not rounds[0].verdicts.dropped.any() and rounds[1].contenders == (0, 1)
    unfinished = halving.plan(cfg, first.iloc[:-1])
    assert len(unfinished) == 1 and not unfinished[0].complete and unfinished[0].verdicts.empty


def test_a_variant_alone_in_its_game_is_never_dropped():
    cfg = config(games=(UNFAIR, "skip_brook(players=4)"))
    first = records(cfg, 1, (0, 1), lambda v, deal: False)
    assert not halving.plan(cfg, first)[0].verdicts.dropped.any()


# --- end to end ----------------------------------------------------------------------------

# Columns with 36 cards takes ~36 moves, with 52 ~52: with a length target of 36 the second is
# clearly worse after round 1, whatever the cards
STUDY = """name = "{name}"
seed = 4
deals = 8
trace_deals = 2
games_per_task = {per_task}
out = "{out}"
[objective]
fairness = 0.0
skill_depth = 0.0
length = 1.0
length_target = 36
[halving]
rounds = 2
rung = "random"
[[games]]
game = "skip_columns(players=2,deck=36)"
[[games]]
game = "skip_columns(players=2,deck=52)"
[[agents]]
name = "random"
spec = "random"
[[agents]]
name = "{top}"
spec = "{top_spec}"
"""


def study(tmp_path: Path, name: str, top: str = "heuristic", per_task: int = 4) -> Path:
    path = tmp_path / f"{name}.toml"
    spec = "ismcts(iterations=8)" if top == "ismcts-8" else top
    path.write_text(
        STUDY.format(name=name, out=tmp_path / name, per_task=per_task, top=top, top_spec=spec)
    )
    return path


def _records(out: Path) -> pd.DataFrame:
    df = read_records(out / "records").drop(columns=["seconds", "batch", "code_version"])
    return df.sort_values("match_id", ignore_index=True)


def _same(a: pd.DataFrame, b: pd.DataFrame) -> None:
    floats = ["mover_values", "value_spreads"]
    pd.testing.assert_frame_equal(a.drop(columns=floats), b.drop(columns=floats))
    for col in floats:
        assert all(
            (x is None and y is None) or np.array_equal(x, y, equal_nan=True)
            for x, y in zip(a[col], b[col])
        )


def test_a_halved_study_drops_the_worse_variant_the_same_on_one_or_two_workers(tmp_path):
    one, two = (load_balance_config(study(tmp_path, n)) for n in ("one", "two"))
    summary, report = run_study(one, workers=1, progress=False)
    run_study(two, workers=2, progress=False)
    a = _records(one.out)
    _same(a, _records(two.out))
    # round 1: 4 deals each; round 2: the 36-card variant only, deals 4–7
    self_deals = a[a.match_id.str.contains("/self/")].groupby(a.match_id.str[0]).deal.max()
    assert self_deals.to_dict() == {"0": 7, "1": 3}
    assert summary.total == summary.played == len(a)
    text = report.read_text()
    assert "Columns for two dropped after round 1 on 4 deals" in text
    assert "halving is complete" in text and "## Successive halving" in text
    assert "Partial study" not in text
    # a rerun plays nothing: the decisions are replayed from the records
    again, _ = run_study(one, workers=1, progress=False)
    assert again.played == 0 and again.before == len(a)


@pytest.mark.slow
def test_a_halved_study_killed_and_resumed_gives_identical_records(tmp_path):
    killed = study(tmp_path, "k", top="ismcts-8", per_task=1)
    proc = subprocess.Popen(
        [sys.executable, "-m", "skip_ai.cli", "balance", str(killed), "--workers", "2"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    shards = tmp_path / "k" / "records"
    cfg = load_balance_config(killed)
    first_round = halving.size(cfg, halving.plan(cfg, pd.DataFrame({"match_id": [], "status": []})))
    deadline = time.monotonic() + 300
    while len(list(shards.glob("*.parquet"))) < first_round + 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    assert proc.wait() == -signal.SIGKILL
    time.sleep(2)  # the orphaned pool workers leave by themselves
    partial = len(read_records(shards))
    summary, _ = run_study(cfg, workers=2, progress=False)
    assert 0 < summary.before == partial < summary.total == summary.before + summary.played

    whole = load_balance_config(study(tmp_path, "w", top="ismcts-8"))
    run_study(whole, workers=1, progress=False)
    _same(_records(cfg.out), _records(whole.out))
