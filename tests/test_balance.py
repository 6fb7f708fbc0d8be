"""Balance studies: the config's checks, a tiny study end to end (report included), a
sequential study with mirrors, and studies killed with kill -9 and resumed (the measures on
hand-made records: test_balance_measures.py)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from skip_ai.balance import sequential
from skip_ai.balance.config import load_balance_config, parse_balance_config
from skip_ai.balance.ladder import study_schedule, study_size
from skip_ai.balance.metrics import split
from skip_ai.balance.study import quick_config_path, run_study
from skip_ai.cli import main
from skip_ai.records import read_records
from skip_ai.tournament import ConfigError

ROOT = Path(__file__).resolve().parents[1]
GAME = "skip_columns(players=2,deck=36)"
TEAM4 = "skip_columns(players=4)"

# --- the config ----------------------------------------------------------------------------


EVALUATOR = '[measures]\nevaluated_games = 2\nevaluator = "ismcts(iterations=10)"\n'


NO_EVALUATOR = "[measures]\nevaluated_games = 0\n"


def config_text(out: Path, name: str = "t", deals: int = 4, extra: str = NO_EVALUATOR) -> str:
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


SEQ = {"deals": None, "trace_deals": 1}  # with [precision] the rule decides the deals
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
        ({"mirror": 1}, "field 'mirror' must be true or false"),
        (
            {"precision": {"target": 0.0}, "deals": None, "trace_deals": 1},
            "[precision] field 'target' must be a finite number",
        ),
        (
            {"precision": {"first": 2.5}, "deals": None, "trace_deals": 1},
            "[precision] field 'first' must be a whole number",
        ),
        (
            {"precision": {"growth": 1.0}, "deals": None, "trace_deals": 1},
            "[precision] field 'growth' must be a finite number",
        ),
        (
            {"precision": {"cap_games": float("nan")}, "deals": None, "trace_deals": 1},
            "field 'cap_games' must be a finite",
        ),
        (
            {"precision": {"speed": 1}, "deals": None, "trace_deals": 1},
            "[precision] unknown field 'speed'",
        ),
        ({"precision": {}, "trace_deals": 1}, "'deals' is decided by [precision]"),
        ({"games": [{"game": GAME, "agents": ["r", "x"]}]}, "agent 'x' is not one of"),
        ({"games": [{"game": GAME, "agents": ["r"]}]}, "must list at least two agent names"),
        ({"games": [{"game": GAME, "rungs": 1}]}, "unknown field 'rungs'"),
        (
            {"agents": [{"name": "r", "spec": "random", "cap_games": 0}, GOOD["agents"][1]]},
            "field 'cap_games' must be a finite number in [2",
        ),
        (
            {"agents": [{"name": "r", "spec": "random", "cap_games": 9}, GOOD["agents"][1]]},
            "needs [precision]",
        ),
        (
            {"agents": [{"name": "r", "spec": "random", "colour": 1}, GOOD["agents"][1]]},
            "[[agents]] #1: unknown field 'colour'",
        ),
        (
            {"deals": 8, "halving": {"rounds": 2}, "games": [{"game": GAME, "agents": ["r", "h"]}]},
            "cannot be combined",
        ),
    ],
)
def test_config_errors_are_one_line_naming_the_field(change, message):
    with pytest.raises(ConfigError) as e:
        raw = {k: v for k, v in (GOOD | change).items() if v is not None}
        parse_balance_config(raw, source="study.toml")
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
    path.write_text(config_text(tmp_path / "out", extra=EVALUATOR))
    cfg = load_balance_config(path)
    summary, report = run_study(cfg, progress=False)
    assert summary.played == summary.total == study_size(cfg)
    text = report.read_text()
    order = ["## Verdict", "## At a glance", "## Evidence", "## Skill trace", "## Definitions"]
    assert [text.index(x) for x in order] == sorted(text.index(x) for x in order)
    glance = text.split("## At a glance")[1].split("## Evidence")[0]
    assert "| Columns for two (deck=36) " in glance and "| unresolved " in glance
    # the verdicts open the report, one a variant, in words; the specs only in "who played"
    verdicts = text.split("## Verdict")[1].split("## At a glance")[0]
    assert verdicts.count("\n- **Columns for two") == 2
    assert "between equal ISMCTS players at 8 iterations" in text
    assert "team 0" not in text and "skip_columns(" not in text.replace(
        text[text.index("Who played:") :].split("\n")[0], ""
    )
    assert "Each rung against the one below on duplicate deals" in text
    assert "betting interval" in text
    # two variants of one game: compared, with the variants' section and its definitions
    assert "## Variants" in text and "**Penalty**, **rank**" in text
    for figure in ("advantage", "trace", "variants"):
        assert (cfg.out / "figures" / f"{figure}.png").stat().st_size > 1000
    df = read_records(cfg.out / "records")
    assert not df.mirrored.any()
    assert all(len(m) == n for m, n in zip(df.movers, df.num_moves))
    assert "Partial study" not in text and "every variant and rung complete" in text
    assert (cfg.out / "selfplay.csv").stat().st_size > 100
    assert (cfg.out / "answers.csv").stat().st_size > 100
    # the per-decision measures come from the one named evaluator, for every rung
    assert "## Per-decision measures (one fixed evaluator)" in text
    assert "Read by the fixed evaluator `ismcts(iterations=10)` on 2 games" in text
    assert len(pd.read_parquet(cfg.out / "evaluations.parquet").match_id.unique()) == 2 * 3 * 2

    # a study stopped early (the shard of its last steps gone) reports what it holds,
    # labelled partial
    sorted((cfg.out / "records").glob("*.parquet"))[-1].unlink()
    left = len(read_records(cfg.out / "records"))
    assert main(["balance", str(path), "--report-to", str(tmp_path / "partial")]) == 0
    assert len(read_records(cfg.out / "records")) == left  # nothing played
    partial = (tmp_path / "partial" / "report.md").read_text()
    assert "**Partial study**" in partial and "are recorded; every number below" in partial


SEQUENTIAL = """name = "seq"
seed = 4
trace_deals = 3
games_per_task = 6
out = "{out}"
mirror = true

[measures]
evaluated_games = 0

[precision]
target = 0.05
first = 8
growth = 2.0
cap_games = 64

[[games]]
game = "skip_columns(players=4)"
[[games]]
game = "skip_brook(players=2)"
agents = ["random", "heuristic"]

[[agents]]
name = "random"
spec = "random"
[[agents]]
name = "heuristic"
spec = "heuristic"
[[agents]]
name = "ismcts-8"
spec = "ismcts(iterations=8)"
cap_games = 16
"""


def test_a_sequential_study_with_mirrors_stops_each_rung_by_its_rule(tmp_path):
    path = tmp_path / "seq.toml"
    path.write_text(SEQUENTIAL.format(out=tmp_path / "out"))
    cfg = load_balance_config(path)
    summary, report = run_study(cfg, workers=2, progress=False)
    df = read_records(cfg.out / "records")
    plans = sequential.plan(cfg, df)
    assert sequential.done(plans) and summary.before + summary.played == len(df)
    by = {(p.variant, p.rung): p for p in plans}
    # Black wins Columns between equal heuristic players about 19 times in 20: clear at once
    assert by[(0, 1)].stop == "clear" and by[(0, 1)].deals <= 16
    assert by[(0, 2)].stop in ("clear", "capped") and by[(0, 2)].deals <= 8  # 16 games cap
    assert by[(0, 0)].stop == "capped" and by[(0, 0)].deals == 32  # coin flips, 64 games
    selfplay, steps = split(df)
    # each deal with its mirror; Brook's own ladder has two rungs, one step
    assert (selfplay.groupby(["variant", "rung", "deal"]).size() == 2).all()
    assert selfplay.mirrored.sum() == len(selfplay) // 2
    assert set(steps[steps.variant == 1].rung) == {1}
    text = report.read_text()
    assert "betting confidence sequence" in text and "| clear " in text and "| capped " in text
    assert "Columns for four" in text and "Brook for two" in text and "mirror ×" in text
    # resumed, nothing is played again and the report is the same
    again, report2 = run_study(cfg, workers=1, progress=False)
    assert again.played == 0 and report2.read_text() == text


def _records(out: Path) -> pd.DataFrame:
    df = read_records(out / "records").drop(columns="seconds")
    return df.sort_values("match_id", ignore_index=True)


def _timeless(out: Path) -> tuple[pd.DataFrame, pd.DataFrame, str]:
    """A report's answers, self-play table and findings (its verdicts and points) with every
    time left out (CPU seconds are the one thing two runs of the same games differ in)."""
    answers = pd.read_csv(out / "answers.csv").drop(columns=["CPU s", "s / game"])
    table = pd.read_csv(out / "selfplay.csv")
    findings = [line for line in (out / "report.md").read_text().splitlines() if line[:4] == "- **"]
    text = re.sub(r"[\d.]+ (more )?CPU s", "", "\n".join(findings))
    return answers, table[table.measure != "seconds"], text


@pytest.mark.slow
def test_a_sequential_study_killed_and_resumed_gives_identical_records_and_report(tmp_path):
    killed = tmp_path / "k.toml"
    killed.write_text(SEQUENTIAL.format(out=tmp_path / "k"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "skip_ai.cli", "balance", str(killed), "--workers", "2"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    shards = tmp_path / "k" / "records"
    deadline = time.monotonic() + 120
    while len(list(shards.glob("*.parquet"))) < 12 and time.monotonic() < deadline:
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    assert proc.wait() == -signal.SIGKILL
    time.sleep(2)  # the orphaned pool workers leave by themselves
    cfg = load_balance_config(killed)
    partial = len(read_records(shards))
    assert partial > 0 and not sequential.done(sequential.plan(cfg, read_records(shards)))
    run_study(cfg, workers=2, progress=False)

    whole = tmp_path / "w.toml"
    whole.write_text(SEQUENTIAL.format(out=tmp_path / "w"))
    run_study(load_balance_config(whole), workers=1, progress=False)
    a, b = _records(tmp_path / "k"), _records(tmp_path / "w")
    pd.testing.assert_frame_equal(
        a.drop(columns=["mover_values", "value_spreads"]),
        b.drop(columns=["mover_values", "value_spreads"]),
    )
    for col in ("mover_values", "value_spreads"):
        assert all(np.array_equal(x, y, equal_nan=True) for x, y in zip(a[col], b[col]))
    (ka, kt, ktext), (wa, wt, wtext) = _timeless(tmp_path / "k"), _timeless(tmp_path / "w")
    pd.testing.assert_frame_equal(ka, wa)
    pd.testing.assert_frame_equal(kt.reset_index(drop=True), wt.reset_index(drop=True))
    assert ktext == wtext


def test_cli_config_error_is_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text(config_text(tmp_path / "out", extra="[objective]\nfairness = nan\n"))
    assert main(["balance", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"skip-ai: error: {bad}: [objective] field 'fairness'")
    assert "\n" not in err


@pytest.mark.slow
def test_a_sequential_study_on_ray_gives_the_local_records(tmp_path):
    pytest.importorskip("ray")
    paths = []
    for name in ("r", "l"):
        path = tmp_path / f"{name}.toml"
        path.write_text(SEQUENTIAL.format(out=tmp_path / name))
        paths.append(path)
    on_ray, local = (load_balance_config(p) for p in paths)
    summary, _ = run_study(on_ray, workers=2, backend="ray", progress=False)
    run_study(local, workers=1, progress=False)
    assert summary.played == len(read_records(local.out / "records"))
    a, b = _records(on_ray.out), _records(local.out)
    assert a.drop(columns=["mover_values", "value_spreads"]).equals(
        b.drop(columns=["mover_values", "value_spreads"])
    )
    for col in ("mover_values", "value_spreads"):
        assert all(np.array_equal(x, y, equal_nan=True) for x, y in zip(a[col], b[col]))
