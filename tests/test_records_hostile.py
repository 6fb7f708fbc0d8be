"""Hostile records: every way a record can lie, injected into a real small batch's shard, is
refused by ``skip-ai report`` and by the analysis API (one line naming the file, the row, the
match id and what is wrong) instead of changing the report silently; another batch's shard
likewise. Then ``skip-ai balance --report-to`` on a partial study at every stage (nothing
recorded, self-play without trace games, a rung with one game, a step with one deal, the
evaluator's cache missing, a rung whose games all failed), and on a folder that holds another
study or none."""

from __future__ import annotations

import math
import re
import shutil
import time
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from skip_ai import analysis
from skip_ai.balance.config import load_balance_config
from skip_ai.balance.study import run_study
from skip_ai.cli import main
from skip_ai.record_checks import problems, validate
from skip_ai.record_schema import RESULT, SCHEMA, RecordError, to_table
from skip_ai.records import read_records
from skip_ai.tournament import load_config, run_tournament

TEAM = "skip_columns(deck=36,players=4)"  # a team game: two teams, seats 0, 1 against 2, 3
PYATKI = "skip_pyatki(deck=36,max_exchanges=200,places=False,players=3)"  # each for themselves


def tournament_config(folder: Path, name: str = "t", seed: int = 5) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "batch.toml"
    path.write_text(
        f'name = "{name}"\nseed = {seed}\ndeals = 2\ngames_per_task = 3\n'
        f'out = "{folder / "out"}"\n'
        f'[[games]]\ngame = "{TEAM}"\n[[games]]\ngame = "{PYATKI}"\n'
        '[[agents]]\nname = "rnd"\nspec = "random"\n'
        '[[agents]]\nname = "heur"\nspec = "heuristic"\n'
    )
    return path


@pytest.fixture(scope="module")
def batch(tmp_path_factory) -> Path:
    """A real batch: random against heuristic, 2 duplicate deals of a team game (4 games) and
    of Pyatki for three (6 games), in shards of 3 games with the store's fingerprint."""
    folder = tmp_path_factory.mktemp("batch")
    run_tournament(load_config(tournament_config(folder)), workers=1, progress=False)
    return folder / "out"


@pytest.fixture
def copy(batch, tmp_path) -> Path:
    """A copy of the batch to damage."""
    return Path(shutil.copytree(batch, tmp_path / "out"))


def locate(out: Path, game: str, want) -> tuple[Path, int, dict]:
    """The shard, row and record of the first finished game of ``game`` for which ``want``
    (a record) holds."""
    for shard in sorted((out / "records").glob("*.parquet")):
        for row, rec in enumerate(pq.read_table(shard).to_pylist()):
            if rec["game"] == game and rec["status"] == "ok" and want(rec):
                return shard, row, rec
    raise AssertionError("no such record in the batch")


def rewrite_row(shard: Path, row: int, change: dict) -> None:
    """Write the shard again with ``change`` made to one row, its metadata (the batch's
    fingerprint) kept."""
    table = pq.read_table(shard)
    rows = table.to_pylist()
    rows[row] |= change
    pq.write_table(pa.Table.from_pylist(rows, schema=table.schema), shard)


def decided(rec: dict) -> bool:
    return rec["winner"] >= 0


# (id, game, which record, the change, what the refusal says)
CORRUPTIONS = [
    ("flipped score_a", TEAM, decided, lambda r: {"score_a": 1 - r["score_a"]}, "score_a is"),
    ("score_a of 5", TEAM, decided, lambda r: {"score_a": 5.0}, "score_a is 5.0: must be in"),
    ("NaN score_a", TEAM, decided, lambda r: {"score_a": math.nan}, "score_a is nan"),
    ("null score_a", TEAM, decided, lambda r: {"score_a": None}, "score_a is missing"),
    ("winner of 7", TEAM, decided, lambda r: {"winner": 7}, "winner is 7: must be -1"),
    ("Pyatki winner of 3", PYATKI, decided, lambda r: {"winner": 3}, "winner is 3: must be -1"),
    (
        "returns contradict the winner",
        TEAM,
        decided,
        lambda r: {"returns": [-x for x in r["returns"]]},
        "but the returns",
    ),
    (
        "Pyatki winner not the top return",
        PYATKI,
        decided,
        lambda r: {"winner": (r["winner"] + 1) % 3},
        "but the returns",
    ),
    (
        "Pyatki tie claimed as a win",  # two seats on the top return: nobody won
        PYATKI,
        decided,
        lambda r: {"returns": [0.5, 0.5, -1.0], "winner": 0},
        "make it -1",
    ),
    (
        "team draw claimed as a win",  # every return 0: a draw, no winner
        TEAM,
        decided,
        lambda r: {"returns": [0.0] * 4},
        "make it -1",
    ),
    (
        "team's seats disagree",
        TEAM,
        decided,
        lambda r: {"returns": [1.0, -1.0, 1.0, -1.0]},
        "differ within a team",
    ),
    ("returns not zero-sum", TEAM, decided, lambda r: {"returns": [1.0] * 4}, "sum to 4"),
    ("returns of 3 seats", TEAM, decided, lambda r: {"returns": [1.0, 1.0, -1.0]}, "hold 3"),
    (
        "NaN return",
        TEAM,
        decided,
        lambda r: {"returns": [math.nan, 1.0, -1.0, -1.0]},
        "not finite numbers",
    ),
    ("return beyond the utilities", TEAM, decided, lambda r: {"returns": [5, 5, -5, -5]}, "within"),
    ("negative deal", TEAM, decided, lambda r: {"deal": -1}, "deal is -1"),
    ("negative move count", TEAM, decided, lambda r: {"num_moves": -5}, "num_moves is -5"),
    ("negative action count", TEAM, decided, lambda r: {"num_actions": -1}, "num_actions is -1"),
    (
        "more moves than actions",
        TEAM,
        decided,
        lambda r: {"num_moves": r["num_actions"] + 1},
        "exceeds num_actions",
    ),
    ("NaN seconds", TEAM, decided, lambda r: {"seconds": math.nan}, "seconds is nan"),
    ("status of neither", TEAM, decided, lambda r: {"status": "done"}, "status 'done'"),
    (
        "failed but with a result",
        TEAM,
        decided,
        lambda r: {"status": "failed", "error": "boom"},
        "status failed but returns holds a result",
    ),
    (
        "failed without a reason",
        TEAM,
        decided,
        lambda r: dict.fromkeys(RESULT, None) | {"status": "failed", "error": None},
        "without an error",
    ),
    ("ok with an error", TEAM, decided, lambda r: {"error": "boom"}, "status ok but error"),
    (
        "game name of another game",
        TEAM,
        decided,
        lambda r: {"game_name": "skip_brook"},
        "game_name",
    ),
    ("team_game flipped", TEAM, decided, lambda r: {"team_game": False}, "team_game is False"),
    ("unknown game", TEAM, decided, lambda r: {"game": "skip_nonsense"}, "does not load"),
    ("seating of 5", TEAM, decided, lambda r: {"seating": 5}, "seating is 5"),
    (
        "agents of the other seating",
        TEAM,
        decided,
        lambda r: {"agents": r["agents"][2:] + r["agents"][:2]},
        "are not seating",
    ),
    ("scores of 3 teams", TEAM, decided, lambda r: {"scores": [1.0, 2.0, 3.0]}, "hold 3 values"),
    ("NaN score", TEAM, decided, lambda r: {"scores": [math.nan, 1.0]}, "not all finite"),
    ("movers short", TEAM, decided, lambda r: {"movers": r["movers"][1:]}, "movers holds"),
    ("mover of seat 9", TEAM, decided, lambda r: {"movers": [9] * r["num_moves"]}, "movers hold 9"),
    (
        "mover value of 3",
        TEAM,
        decided,
        lambda r: {"mover_values": [3.0] * r["num_moves"]},
        "mover_values hold 3.0",
    ),
    ("history short", TEAM, decided, lambda r: {"actions": r["actions"][:-1]}, "actions holds"),
    (
        "negative action id",
        TEAM,
        decided,
        lambda r: {"actions": [-1] * r["num_actions"]},
        "actions hold -1",
    ),
]


def refused_line(capsys, out: Path) -> str:
    """``skip-ai report OUT`` refuses: exit 2, one line on stderr, no report written."""
    assert main(["report", str(out), "--bootstrap", "10"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and err.startswith("skip-ai: error: ")
    assert not (out / "report.md").exists()
    return err


@pytest.mark.parametrize(
    "game, want, change, said",
    [pytest.param(*c[1:], id=c[0]) for c in CORRUPTIONS],
)
def test_a_lying_record_is_refused_by_name(copy, capsys, game, want, change, said):
    shard, row, rec = locate(copy, game, want)
    rewrite_row(shard, row, change(rec))
    err = refused_line(capsys, copy)
    for part in (shard.name, f"row {row} ", f"(match {rec['match_id']})", said):
        assert part in err, (part, err)
    with pytest.raises(RecordError) as refused:  # the analysis API notebooks use
        analysis.load_records(copy)
    assert str(refused.value) in err
    # the function a server (or anyone holding a frame) calls
    frame = pd.read_parquet(shard)
    with pytest.raises(RecordError, match=f"frame row {row} "):
        validate(frame)
    assert [(b.row, b.match_id) for b in problems(frame)] == [(row, rec["match_id"])]


@pytest.mark.parametrize(
    "damage, said",
    [
        (lambda t: t.drop_columns(["winner"]), "has no column 'winner'"),
        (lambda t: t.drop_columns(["score_a"]), "has no column 'score_a'"),
        (
            lambda t: t.set_column(
                t.schema.get_field_index("winner"),
                pa.field("winner", pa.float64()),
                t.column("winner").cast(pa.float64()),
            ),
            "column 'winner' holds double, not int64",
        ),
        (
            lambda t: t.set_column(
                t.schema.get_field_index("score_a"),
                pa.field("score_a", pa.string()),
                t.column("score_a").cast(pa.string()),
            ),
            "column 'score_a' holds string, not double",
        ),
    ],
    ids=["no winner column", "no score_a column", "winner as floats", "score_a as text"],
)
def test_a_shard_missing_a_column_or_of_another_type_is_refused(copy, capsys, damage, said):
    shard = sorted((copy / "records").glob("*.parquet"))[1]
    pq.write_table(damage(pq.read_table(shard)), shard)
    err = refused_line(capsys, copy)
    assert shard.name in err and said in err
    with pytest.raises(RecordError, match=said):
        analysis.load_records(copy)


def test_another_batchs_shard_is_refused(batch, copy, capsys, tmp_path):
    """A shard of another batch copied into records/: another name, or the same name with
    another config (its fingerprint) — the resume path refuses both; so does the report."""
    other = tmp_path / "other"
    run_tournament(load_config(tournament_config(other, name="u")), workers=1, progress=False)
    stray = sorted((other / "out" / "records").glob("*.parquet"))[0]
    shutil.copy(stray, copy / "records" / "shard-zz.parquet")
    err = refused_line(capsys, copy)
    assert "shard-zz.parquet holds games of batch 'u'" in err and "'t'" in err
    with pytest.raises(RecordError, match="holds games of batch 'u'"):
        analysis.load_records(copy / "records")

    renamed = tmp_path / "same-name"
    run_tournament(load_config(tournament_config(renamed, seed=6)), workers=1, progress=False)
    (copy / "records" / "shard-zz.parquet").unlink()
    stray = sorted((renamed / "out" / "records").glob("*.parquet"))[0]
    shutil.copy(stray, copy / "records" / "shard-zz.parquet")
    err = refused_line(capsys, copy)
    assert "shard-zz.parquet was written by another batch" in err and "batch.json" in err
    # without the batch's manifest beside them, the shards still disagree with each other
    alone = tmp_path / "alone"
    shutil.copytree(copy / "records", alone)
    with pytest.raises(RecordError, match="shard-zz.parquet was written by another batch"):
        read_records(alone)


def test_valid_records_read_as_before(batch):
    """The checks change nothing of valid records: the frame a plain read gives, in order."""
    plain = ds.dataset(batch / "records", format="parquet", schema=SCHEMA).to_table().to_pandas()
    pd.testing.assert_frame_equal(read_records(batch / "records"), plain)
    assert problems(read_records(batch / "records")) == []


@pytest.mark.slow
def test_checking_a_100000_game_batch_costs_a_small_part_of_reading_it(batch, tmp_path):
    """A batch of 100,000 records in shards of 20 (a tournament's default task): the checks'
    time beside the reading's, printed (``-s`` shows it)."""
    shards = sorted((batch / "records").glob("*.parquet"))
    rows = [r for shard in shards for r in pq.read_table(shard).to_pylist()]  # both games
    folder = tmp_path / "records"
    folder.mkdir()
    n, per_shard = 100_000, 20
    for k in range(n // per_shard):
        shard = [rows[i % len(rows)] | {"match_id": f"{k}/{i}"} for i in range(per_shard)]
        pq.write_table(to_table(shard), folder / f"shard-{k:05d}.parquet")
    start = time.perf_counter()
    df = read_records(folder)
    read = time.perf_counter() - start
    fragments = ds.dataset(folder, format="parquet", schema=SCHEMA).get_fragments()
    table = pa.concat_tables([f.to_table(schema=SCHEMA) for f in fragments])
    start = time.perf_counter()
    assert problems(table) == []
    check = time.perf_counter() - start
    print(
        f"\n{len(df)} records in {n // per_shard} shards: read_records {read:.2f} s, its "
        f"checks {check:.3f} s ({100 * check / read:.1f}%)"
    )
    assert len(df) == n and check < 0.25 * read


# --- skip-ai balance --report-to -------------------------------------------------------------

STUDY = """name = "tiny"
seed = 2
trace_deals = 2
games_per_task = 4
out = "{out}"
mirror = true

[measures]
evaluated_games = 2
evaluator = "ismcts(iterations=10)"

[precision]
target = 0.05
first = 4
growth = 2.0
cap_games = 16

[[games]]
game = "skip_columns(players=4)"

[[agents]]
name = "random"
spec = "random"
[[agents]]
name = "heuristic"
spec = "heuristic"
[[agents]]
name = "ismcts-8"
spec = "{top}"
cap_games = 8
"""


def study_config(folder: Path, top: str = "ismcts(iterations=8)") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"study-{len(top)}.toml"
    path.write_text(STUDY.format(out=folder / "out", top=top))
    return path


@pytest.fixture(scope="module")
def study(tmp_path_factory) -> tuple[Path, Path]:
    """A tiny sequential study with mirrors, played to its end: (its config, its folder)."""
    folder = tmp_path_factory.mktemp("study")
    path = study_config(folder)
    run_study(load_balance_config(path), workers=1, progress=False)
    return path, folder / "out"


def stage(study_out: Path, to: Path, keep, evaluations: bool = True, records: bool = True):
    """The study as it stood (or would, killed) when only the games ``keep`` (of the match
    id's parts: variant, kind, rung, deal, seating) were recorded: its manifest, those
    records (each shard cut down, its fingerprint kept), the evaluator's cache or not."""
    to.mkdir(parents=True)
    shutil.copy(study_out / "batch.json", to)
    if evaluations:
        shutil.copy(study_out / "evaluations.parquet", to)
    if not records:
        return to
    (to / "records").mkdir()
    for shard in sorted((study_out / "records").glob("*.parquet")):
        table = pq.read_table(shard)
        parts = [m.split("/") for m in table.column("match_id").to_pylist()]
        mask = [keep(int(v), kind, int(r), int(d), s) for v, kind, r, d, s in parts]
        if any(mask):
            pq.write_table(table.filter(pa.array(mask)), to / "records" / shard.name)
    return to


def fail_rung(folder: Path, rung: int) -> None:
    """Every self-play game of ``rung`` recorded as the worker records a game that raised."""
    for shard in sorted((folder / "records").glob("*.parquet")):
        table = pq.read_table(shard)
        rows = table.to_pylist()
        for r in rows:
            if r["match_id"].startswith(f"0/self/{rung}/"):
                r |= dict.fromkeys(RESULT, None) | {"status": "failed", "error": "boom"}
        pq.write_table(pa.Table.from_pylist(rows, schema=table.schema), shard)


STAGES = {
    # before the first shard: the manifest alone, with or without an empty records folder
    "nothing recorded": dict(keep=lambda v, k, r, d, s: False),
    "no records folder": dict(keep=None, records=False),
    "rung 0's first look in part": dict(
        keep=lambda v, k, r, d, s: k == "self" and r == 0 and d < 2
    ),
    "self-play, no trace game": dict(keep=lambda v, k, r, d, s: k == "self"),
    "the top rung's first game alone": dict(
        keep=lambda v, k, r, d, s: k == "self" and (r < 2 or (d == 0 and s == "0"))
    ),
    "each step on one deal": dict(keep=lambda v, k, r, d, s: k == "self" or d == 0),
    "the trace alone": dict(keep=lambda v, k, r, d, s: k == "step"),
    "the evaluator's cache missing": dict(
        keep=lambda v, k, r, d, s: k == "self", evaluations=False
    ),
    "a rung whose games all failed": dict(keep=lambda v, k, r, d, s: k == "self", fail=1),
}


@pytest.mark.parametrize("name", list(STAGES))
def test_report_to_works_on_a_partial_study_at_every_stage(study, tmp_path, capsys, name):
    config, out = study
    how = dict(STAGES[name])
    fail = how.pop("fail", None)
    folder = stage(out, tmp_path / "partial", **how)
    if fail is not None:
        fail_rung(folder, fail)
    shards = sorted((folder / "records").glob("*")) if (folder / "records").exists() else []
    to = tmp_path / "report"
    assert main(["balance", str(config), "--out", str(folder), "--report-to", str(to)]) == 0
    printed = capsys.readouterr().out
    assert "report (no game played)" in printed
    text = (to / "report.md").read_text()
    assert "**Partial study**" in text and "## Games recorded" in text
    findings = [line for line in text.splitlines() if line.startswith(("**", "- **"))]
    assert not [line for line in findings + [printed] if re.search(r"\bnan\b", line)]
    # nothing was played: the records are as they were
    after = sorted((folder / "records").glob("*")) if (folder / "records").exists() else []
    assert after == shards
    if not how.get("evaluations", True):  # the evaluator read the games the cache lacked
        assert "## Per-decision measures" in text


def test_report_to_refuses_a_folder_of_another_study_or_none(study, batch, tmp_path, capsys):
    config, out = study

    def refused(config_path: Path, folder: Path) -> str:
        to = tmp_path / "report"
        args = ["balance", str(config_path), "--out", str(folder), "--report-to", str(to)]
        assert main(args) == 2
        err = capsys.readouterr().err.strip()
        assert "\n" not in err and not (to / "report.md").exists()
        return err

    # the same study with a stronger top rung: its games would be reported as these
    stronger = study_config(tmp_path / "stronger", top="ismcts(iterations=2000)")
    err = refused(stronger, out)
    assert "holds another study ('tiny'" in err and "agents" in err
    assert "holds another study ('t'" in refused(config, batch)  # a tournament's folder
    records_alone = tmp_path / "no-manifest"
    shutil.copytree(out / "records", records_alone / "records")
    assert "batch.json is missing" in refused(config, records_alone)
    assert "batch.json is missing" in refused(config, tmp_path / "never-begun")


def test_report_to_refuses_a_lying_record_of_the_study(study, tmp_path, capsys):
    config, out = study
    folder = Path(shutil.copytree(out, tmp_path / "out"))
    shard, row, rec = locate(folder, "skip_columns(deck=52,players=4)", decided)
    rewrite_row(shard, row, {"winner": 1 - rec["winner"]})
    to = tmp_path / "report"
    assert main(["balance", str(config), "--out", str(folder), "--report-to", str(to)]) == 2
    err = capsys.readouterr().err
    assert f"{shard.name} row {row} (match {rec['match_id']}): winner is" in err
    assert not (to / "report.md").exists()
