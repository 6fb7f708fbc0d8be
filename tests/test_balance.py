"""Balance studies: the measures on hand-made records, the config's checks, a tiny study end
to end (report included), and a study killed with kill -9 and resumed."""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import time
from collections import namedtuple
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from skip_ai.balance.config import Measures, load_balance_config, parse_balance_config
from skip_ai.balance.findings import confirmation, rung_rates
from skip_ai.balance.ladder import study_schedule, study_size
from skip_ai.balance.metrics import (
    advantaged,
    game_decisions,
    paired_difference,
    paired_unfairness,
    selfplay_table,
    sides,
    skill_depth,
    split,
    trace_table,
)
from skip_ai.balance.study import quick_config_path, run_study
from skip_ai.balance.variants import holm
from skip_ai.cli import main
from skip_ai.records import read_records
from skip_ai.stats import score_interval, wilson
from skip_ai.tournament import ConfigError

ROOT = Path(__file__).resolve().parents[1]
GAME = "skip_columns(players=2,deck=36)"
TEAM4 = "skip_columns(players=4)"

# --- the measures on hand-made records ---------------------------------------------------

Rec = namedtuple("Rec", "movers mover_values value_spreads winner")


def test_score_interval_is_wilson_for_wins_and_losses_and_never_empty():
    x = np.array([1, 1, 0, 1, 0, 0, 1, 1], float)
    assert score_interval(x)[1:] == pytest.approx(wilson(5, 8))
    p, lo, hi = score_interval(np.zeros(10))
    assert p == 0 and lo == 0 and hi == pytest.approx(wilson(0, 10)[1])
    # duplicate deals whose two games split (½ each) are one certain draw: a narrow interval
    p, lo, hi = score_interval(np.array([0.5, 0.5, 1.0, 0.5]))
    assert lo < p < hi and hi - lo < wilson(2.5, 4)[1] - wilson(2.5, 4)[0]


def test_decision_measures_of_a_hand_made_team_game():
    s = sides(TEAM4)  # seats 0, 1 are team 0; 2, 3 team 1
    # team 0's chance as the movers saw it: .6, .4 (team 1 said .6), .3, .7, .9, .95; forced
    # moves (NaN) do not count; team 0 wins
    rec = Rec(
        movers=[0, 2, 1, 3, 0, 2, 1, 3],
        mover_values=[0.6, 0.6, 0.3, 0.3, 0.9, np.nan, 0.95, 0.02],
        value_spreads=[0.2, 0.05, 0.3, 0.0, 0.1, np.nan, 0.5, 0.01],
        winner=0,
    )
    m = game_decisions(rec, s, Measures(decided_threshold=0.8, meaningful_spread=0.1))
    # team 0's series: .6 .4 .3 .7 .9 .95 .98 → above, below, below, above, ... : 2 changes
    assert m["lead_changes"] == 2
    assert m["drama"] == pytest.approx((math.sqrt(0.1) + math.sqrt(0.2)) / 2)
    assert m["comeback_rate"] == 1
    # the winner's estimate is ≥ .8 from the 5th decision (index 4) on, of 8 decisions
    assert m["decided_at"] == pytest.approx(4 / 8)
    values = np.array([0.6, 0.6, 0.3, 0.3, 0.9, 0.95, 0.02])
    assert m["uncertainty"] == pytest.approx(np.mean(1 - np.abs(2 * values - 1)))
    assert m["meaningful_choice_rate"] == pytest.approx(4 / 8)


def test_decision_measures_without_a_search_or_a_winner():
    s = sides(TEAM4)
    none = game_decisions(Rec([0, 2], [np.nan, np.nan], [np.nan, np.nan], 1), s, Measures())
    assert all(math.isnan(v) for v in none.values())
    drawn = game_decisions(Rec([0, 2], [0.5, 0.5], [0.0, 0.0], -1), s, Measures())
    assert drawn["lead_changes"] == 0 and math.isnan(drawn["drama"])
    never_behind = game_decisions(Rec([0, 2], [0.9, 0.1], [0.0, 0.0], 0), s, Measures())
    assert never_behind["drama"] == 0 and never_behind["decided_at"] == 0


def _selfplay(winners: list[int], game: str = TEAM4, rung: int = 0) -> pd.DataFrame:
    n = len(winners)
    return pd.DataFrame(
        {
            "game": game,
            "rung": rung,
            "agent_a": "a",
            "deal": range(n),
            "winner": winners,
            "num_moves": 10,
            "movers": [None] * n,
            "mover_values": [None] * n,
            "value_spreads": [None] * n,
        }
    )


def test_selfplay_rates_and_the_headline():
    t = selfplay_table(_selfplay([0, 0, 1, -1]), Measures()).set_index("measure")
    assert t.loc["team0_win_rate"].value == 0.5 and t.loc["draw_rate"].value == 0.25
    assert t.loc["team0_score"].value == pytest.approx(0.625)
    assert t.loc["team0_win_rate", ["lo", "hi"]].tolist() == pytest.approx(wilson(2, 4))
    assert "lead_changes" not in t.index  # nobody searched
    seats = selfplay_table(_selfplay([0, 1, 1, 2], "skip_pyatki(players=3)"), Measures())
    assert seats.set_index("measure").loc["seat1_win_rate"].value == 0.5


def _value(game: str, rungs: list[list[int]]) -> pd.DataFrame:
    """The self-play table of hand-made winners, one list per rung, indexed as findings read
    it."""
    parts = [_selfplay(w, game, rung) for rung, w in enumerate(rungs)]
    table = selfplay_table(pd.concat(parts, ignore_index=True), Measures())
    return table.set_index(["rung", "measure"])


def test_findings_say_whether_stronger_play_confirms_an_advantage():
    names = ["random", "heuristic", "ismcts"]
    even, black = [0, 1] * 10, [1] * 20
    confirmed = confirmation(TEAM4, _value(TEAM4, [even, black, black]), [0, 1, 2], names)
    lo = 1 - wilson(0, 20)[1]  # team 1 wins all 20 games: its score's interval
    assert confirmed == (
        "Stronger play confirms the advantage of team 1 (Black, seats 2, 3): its score (wins "
        f"and half the draws), 100.0% [{100 * lo:.1f}, 100.0], lies above ½ between equal "
        "ismcts players, as at heuristic."
    )
    gone = confirmation(TEAM4, _value(TEAM4, [even, black, even]), [0, 1, 2], names)
    assert gone.startswith("Stronger play does not confirm the advantage of team 1 (Black")
    assert "seen at heuristic: between equal ismcts players its score (wins and half" in gone
    assert "50.0% [29.9, 70.1], includes ½ (at this number of games" in gone
    assert "No team is advantaged" in confirmation(TEAM4, _value(TEAM4, [even]), [0], names)


def test_pyatki_findings_speak_of_every_seat():
    game = "skip_pyatki(players=3)"
    value = _value(game, [[0, 1, 2] * 8, [2] * 16 + [0] * 8])
    rates = rung_rates(game, value, 1, "heuristic")
    assert rates.startswith("between equal heuristic players (24 games; fair: 33.3% each)")
    for seat, share in ((0, "33.3%"), (1, "0.0%"), (2, "66.7%")):
        assert f"seat {seat}{' (moves first)' if seat == 0 else ''} {share} [" in rates
    said = confirmation(game, value, [0, 1], ["random", "heuristic"])
    assert said.startswith("Stronger play confirms the advantage of seat 2: its win rate, 66.7%")
    assert "lies above the fair share 33.3%" in said and "team" not in rates + said
    assert advantaged(value, game, 0) == [] and advantaged(value, game, 1) == [2]


def test_skill_trace_and_depth():
    steps = pd.DataFrame(
        {
            "game": "g",
            "rung": [1] * 40 + [2] * 40 + [3] * 40,
            "deal": list(range(20)) * 6,
            "agent_a": "x",
            "agent_b": "y",
            "score_a": [1.0] * 40 + [1.0, 0.0] * 20 + [1.0] * 40,
        }
    )
    trace = trace_table(steps)
    assert trace.clear.tolist() == [True, False, True]
    assert skill_depth(trace, "g") == 1  # counted from the bottom, up to the first unclear step
    assert skill_depth(trace.assign(clear=True), "g") == 3


def test_paired_unfairness_compares_means_not_games():
    fair = pd.Series([1.0, 0.0] * 10)  # team 0 wins half: fair
    lopsided = pd.Series([1.0] * 18 + [0.0] * 2)  # 90%: 0.4 from ½
    d, lo, hi, p, n = paired_unfairness(fair, lopsided, 0.5, 0.5)
    assert (d, n) == (pytest.approx(-0.4), 20) and lo < d < hi < 0 and p < 0.05
    same = paired_unfairness(fair, fair, 0.5, 0.5)
    assert same[0] == 0 and same[3] == 1
    # each against its own fair share: a seat winning a third of 3-player games is fair
    third, half = pd.Series([1.0, 0.0, 0.0] * 8), pd.Series([1.0, 0.0] * 12)
    assert paired_unfairness(third, half, 1 / 3, 0.5)[0] == pytest.approx(0)
    assert paired_unfairness(fair, lopsided, 0.5, 0.5) == (d, lo, hi, p, n)  # reproducible


def test_paired_difference_and_holm():
    x = pd.Series([1.0, 1, 1, 1, 0], index=range(5))
    y = pd.Series([0.0, 0, 0, 0, 0], index=range(5))
    d, lo, hi, p, n = paired_difference(x, y)
    assert (d, n) == (0.8, 5) and -1 <= lo < d < hi <= 1 and p < 0.05
    same = paired_difference(y, y)
    assert same[0] == 0 and same[1] < 0 < same[2] and same[3] == 1  # no false certainty
    assert holm(np.array([0.01, 0.04, 0.03, np.nan])).tolist()[:3] == pytest.approx(
        [0.03, 0.06, 0.06]
    )


# --- the config ----------------------------------------------------------------------------


def config_text(out: Path, name: str = "t", deals: int = 4, extra: str = "") -> str:
    return f"""name = "{name}"
seed = 3
deals = {deals}
trace_deals = 2
games_per_task = 4
out = "{out}"
{extra}
[[games]]
game = "{GAME}"
[[games]]
game = "skip_columns(players=2,deck=52)"
[[agents]]
name = "random"
spec = "random"
[[agents]]
name = "heuristic"
spec = "heuristic"
[[agents]]
name = "ismcts-8"
spec = "ismcts(iterations=8)"
"""


GOOD = {
    "name": "t",
    "deals": 2,
    "games": [{"game": GAME}],
    "agents": [{"name": "r", "spec": "random"}, {"name": "h", "spec": "heuristic"}],
}


@pytest.mark.parametrize(
    "change, message",
    [
        ({"deals": 0}, "field 'deals' must be ≥ 1"),
        ({"trace_deals": 1.5}, "field 'trace_deals' must be an integer"),
        ({"measures": {"decided_threshold": float("nan")}}, "'decided_threshold' must be a finite"),
        ({"measures": {"meaningful_spread": 2}}, "'meaningful_spread' must be a finite number in"),
        ({"objective": {"fairness": float("inf")}}, "'fairness' must be a finite"),
        ({"objective": {"drama": -1}}, "'drama' must be a finite number in [0.0, inf]"),
        ({"objective": {"drama": True}}, "'drama' must be a number"),
        ({"objective": {"length": 1}}, "needs 'length_target' > 0"),
        ({"objective": {"speed": 1}}, "[objective] unknown field 'speed'"),
        ({"measures": 3}, "[measures] must be a table"),
        (
            {"agents": [{"name": "r", "spec": "nonsense"}, {"name": "h", "spec": "random"}]},
            "[[agents]] #1",
        ),
        ({"games": [{"game": "skip_columns(players=5)"}]}, "[[games]] #1"),
        ({"halving": 2}, "[halving] must be a table"),
        ({"halving": {"rounds": 2, "budget": 1}}, "[halving] unknown field 'budget'"),
        ({"halving": {"rounds": 0}}, "[halving] field 'rounds' must be ≥ 1"),
        ({"halving": {"rounds": 2}}, "rounds = 2 leaves round 1 fewer than 2 of the 2 deals"),
        ({"halving": {"rounds": 99}}, "rounds = 99 leaves round 1 fewer than 2"),
        ({"deals": 8, "halving": {"rounds": 2, "rung": "x"}}, "rung 'x' is not a rung"),
    ],
)
def test_config_errors_are_one_line_naming_the_field(change, message):
    with pytest.raises(ConfigError) as e:
        parse_balance_config(GOOD | change, source="study.toml")
    assert str(e.value).startswith("study.toml: ") and message in str(e.value)
    assert "\n" not in str(e.value)


def test_halving_enters_the_identity_only_when_configured():
    plain = parse_balance_config(GOOD)
    assert plain.halving is None
    # the identity (what the records depend on) of a study without [halving] is what it was
    # before halving existed: a study begun then continues
    assert set(plain.identity()) == {
        "kind",
        "name",
        "seed",
        "deals",
        "trace_deals",
        "games",
        "agents",
    }
    halved = parse_balance_config(GOOD | {"deals": 8, "halving": {"rounds": 3, "rung": "r"}})
    assert (halved.halving.rounds, halved.halving.rung) == (3, 0)
    assert halved.identity()["halving"] == {"rounds": 3, "rung": 0}
    assert parse_balance_config(GOOD | {"deals": 8, "halving": {"rounds": 2}}).halving.rung == 1


def test_config_file_errors_name_the_file(tmp_path):
    with pytest.raises(ConfigError, match="missing.toml: no such config file"):
        load_balance_config(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("name = ")
    with pytest.raises(ConfigError, match="bad.toml is not valid TOML"):
        load_balance_config(bad)


def test_the_quick_study_and_the_overnight_study_load():
    quick = load_balance_config(quick_config_path())
    assert len(quick.agents) >= 3
    night = load_balance_config(ROOT / "experiments" / "balance" / "all-games.toml")
    assert len(night.games) >= 11


def test_schedule_pairs_rungs_and_variants_by_deal(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(config_text(tmp_path / "out"))
    cfg = load_balance_config(path)
    games = list(study_schedule(cfg))
    assert len(games) == study_size(cfg) == 2 * (3 * 4 + 2 * 2 * 2)
    assert len({g.match_id for g in games}) == len(games)
    seeds = {(g.match_id.split("/")[1], g.deal): g.seed for g in games}
    assert seeds[("self", 1)] == seeds[("step", 1)]  # deal 1: the same cards everywhere
    assert all(g.agent_a == g.agent_b for g in games if "/self/" in g.match_id)


# --- end to end ----------------------------------------------------------------------------


def test_a_tiny_study_writes_its_report(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(config_text(tmp_path / "out"))
    cfg = load_balance_config(path)
    summary, report = run_study(cfg, progress=False)
    assert summary.played == summary.total == study_size(cfg)
    text = report.read_text()
    assert text.index("## Findings") < text.index("## Definitions") < text.index("## Self-play")
    assert "between equal heuristic players" in text and "Skill depth" in text
    assert "| advantaged at the top " in text.split("## Findings")[1].split("**")[0]
    assert "team 0 (Red, seat 0; moves first)" in text or "team 1 (Black, seat 1)" in text
    for figure in ("rungs", "trace", "variants"):
        assert (cfg.out / "figures" / f"{figure}.png").stat().st_size > 1000
    df = read_records(cfg.out / "records")
    selfplay, _ = split(df)
    searched = selfplay[selfplay.agent_a == "ismcts-8"]
    assert all(np.isfinite(v).any() for v in searched.mover_values)
    assert all(len(m) == n for m, n in zip(df.movers, df.num_moves))
    assert "Partial study" not in text and "every variant and rung complete" in text
    assert (cfg.out / "selfplay.csv").stat().st_size > 100

    # a study stopped early (the shard of its last steps gone) reports what it holds,
    # labelled partial
    sorted((cfg.out / "records").glob("*.parquet"))[-1].unlink()
    left = len(read_records(cfg.out / "records"))
    assert main(["balance", str(path), "--report-to", str(tmp_path / "partial")]) == 0
    assert len(read_records(cfg.out / "records")) == left  # nothing played
    partial = (tmp_path / "partial" / "report.md").read_text()
    assert "**Partial study**" in partial and "are recorded; every number below" in partial
    assert f"Complete: {cfg.games[0]}. In progress: {cfg.games[1]} (step ismcts-8 v" in partial


def _records(out: Path) -> pd.DataFrame:
    df = read_records(out / "records").drop(columns="seconds")
    return df.sort_values("match_id", ignore_index=True)


@pytest.mark.slow
def test_a_study_killed_and_resumed_gives_identical_records(tmp_path):
    killed = tmp_path / "k.toml"
    killed.write_text(config_text(tmp_path / "k", deals=30))
    proc = subprocess.Popen(
        [sys.executable, "-m", "skip_ai.cli", "balance", str(killed), "--workers", "2"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    shards = tmp_path / "k" / "records"
    deadline = time.monotonic() + 120
    while len(list(shards.glob("*.parquet"))) < 6 and time.monotonic() < deadline:
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    assert proc.wait() == -signal.SIGKILL
    time.sleep(2)  # the orphaned pool workers leave by themselves
    cfg = load_balance_config(killed)
    partial = len(read_records(shards))
    assert 0 < partial < study_size(cfg)
    summary, _ = run_study(cfg, workers=2, progress=False)
    assert (summary.before, summary.before + summary.played) == (partial, study_size(cfg))

    whole = tmp_path / "w.toml"
    whole.write_text(config_text(tmp_path / "w", deals=30))
    run_study(load_balance_config(whole), workers=1, progress=False)
    a, b = _records(tmp_path / "k"), _records(tmp_path / "w")
    pd.testing.assert_frame_equal(
        a.drop(columns=["mover_values", "value_spreads"]),
        b.drop(columns=["mover_values", "value_spreads"]),
    )
    for col in ("mover_values", "value_spreads"):
        assert all(np.array_equal(x, y, equal_nan=True) for x, y in zip(a[col], b[col]))


def test_cli_config_error_is_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text(config_text(tmp_path / "out", extra="[objective]\nfairness = nan\n"))
    assert main(["balance", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"skip-ai: error: {bad}: [objective] field 'fairness'")
    assert "\n" not in err


@pytest.mark.slow
def test_a_study_on_ray_gives_the_local_records(tmp_path):
    pytest.importorskip("ray")
    paths = []
    for name in ("r", "l"):
        path = tmp_path / f"{name}.toml"
        path.write_text(config_text(tmp_path / name))
        paths.append(path)
    on_ray, local = (load_balance_config(p) for p in paths)
    summary, _ = run_study(on_ray, workers=2, backend="ray", progress=False)
    run_study(local, workers=1, progress=False)
    assert summary.played == study_size(on_ray)
    a, b = _records(on_ray.out), _records(local.out)
    assert a.drop(columns=["mover_values", "value_spreads"]).equals(
        b.drop(columns=["mover_values", "value_spreads"])
    )
    for col in ("mover_values", "value_spreads"):
        assert all(np.array_equal(x, y, equal_nan=True) for x, y in zip(a[col], b[col]))
