"""skip_ai.analysis: metrics on hand-made records whose answers are known, the report and the
CLI on records played by real agents, the errors, and the balance notebook."""

from __future__ import annotations

import math
import os
from pathlib import Path

import matplotlib.image
import numpy as np
import pandas as pd
import pytest
from analysis_records import played_records, record, write_records

from skip_ai import analysis
from skip_ai.cli import main
from skip_ai.stats import score_interval

COLUMNS = "skip_columns(deck=52,players=4)"
PYATKI = "skip_pyatki(deck=36,max_exchanges=200,places=False,players=3)"
NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "balance.ipynb"


def team_game(deal: int, seating: int, team0_wins: bool, actions: int) -> dict:
    """A game of Columns between x (A) and y (B): A holds team 0 in seating 0, team 1 in 1."""
    a_team = seating
    won = 0 if team0_wins else 1
    ret = [1.0, 1.0, -1.0, -1.0] if team0_wins else [-1.0, -1.0, 1.0, 1.0]
    agents = ["x", "x", "y", "y"] if a_team == 0 else ["y", "y", "x", "x"]
    return record(
        match_id=f"0/0/{deal}/{seating}",
        game=COLUMNS,
        game_name="skip_columns",
        team_game=True,
        deal=deal,
        seating=seating,
        seed=deal,
        agent_a="x",
        agent_b="y",
        agents=agents,
        returns=ret,
        scores=[0.0, 0.0],
        score_a=float(won == a_team),
        winner=won,
        num_actions=actions,
        num_moves=actions // 2,
        seconds=0.0,
    )


@pytest.fixture
def hand_made() -> pd.DataFrame:
    """Two deals of Columns, team 0 winning 3 games of 4: deal 0 both seatings (x's deal score
    ½), deal 1 only seating 0 (x wins both games: deal score 1)."""
    rows = [
        team_game(0, 0, True, 10),
        team_game(0, 1, True, 20),
        team_game(1, 0, True, 30),
        team_game(1, 1, False, 40),
    ]
    return pd.DataFrame(rows)


def metric(table: pd.DataFrame, game: str, name: str) -> pd.Series:
    return table[(table.game == game) & (table.metric == name)].iloc[0]


def test_team_balance_metrics_known_answers(hand_made):
    table = analysis.balance_table(hand_made, n_boot=50)
    expected = {
        "team0_win_rate": 0.75,
        "draw_rate": 0.0,
        "outcome_uniformity": 1 - 0.75,  # each team's utility: ±1, mean ½, variance ¾
        "duration_actions": 25.0,
        "duration_moves": 12.5,
        "skill_gap": 0.5,
    }  # x's duplicate score ¾
    for name, value in expected.items():
        row = metric(table, COLUMNS, name)
        assert row.value == pytest.approx(value), name
        assert row.lo <= row.value + 1e-12 and row.value - 1e-12 <= row.hi, name
    assert math.isnan(metric(table, COLUMNS, "seat_advantage").value)
    assert math.isnan(metric(table, COLUMNS, "seat0_win_rate").value)
    assert metric(table, COLUMNS, "team0_win_rate").lo < 0.75  # deals vary: an interval


def test_individual_balance_metrics_known_answers():
    """One deal of Pyatki in its 3 seatings: seat 0 wins twice, seat 1 once."""
    rows = []
    for k, won in enumerate([0, 0, 1]):
        ret = [-0.5, -0.5, -0.5]
        ret[won] = 1.0
        rows.append(
            record(
                match_id=f"0/0/0/{k}",
                game=PYATKI,
                game_name="skip_pyatki",
                team_game=False,
                deal=0,
                seating=k,
                seed=1,
                agent_a="x",
                agent_b="y",
                agents=["x", "y", "x"],
                returns=ret,
                scores=[0.0] * 3,
                score_a=0.5,
                winner=won,
                num_actions=9,
                num_moves=6,
                seconds=0.0,
            )
        )
    table = analysis.balance_table(pd.DataFrame(rows), n_boot=20)
    assert metric(table, PYATKI, "seat0_win_rate").value == pytest.approx(2 / 3)
    # mean utilities per seat ½, 0, -½
    assert metric(table, PYATKI, "seat_advantage").value == pytest.approx(0.5)
    assert math.isnan(metric(table, PYATKI, "team0_win_rate").value)
    assert metric(table, PYATKI, "skill_gap").value == pytest.approx(0.0)


def test_pair_scores_are_duplicate_adjusted_with_the_one_score_interval(hand_made):
    scores = analysis.pair_scores(hand_made).set_index(["agent", "opponent"])
    x = scores.loc[("x", "y")]
    assert x.score == pytest.approx(0.75) and x.deals == 2
    assert (x.lo, x.hi) == pytest.approx(score_interval(np.array([0.5, 1.0]))[1:])
    y = scores.loc[("y", "x")]
    assert (y.score, y.lo, y.hi) == pytest.approx((0.25, 1 - x.hi, 1 - x.lo))
    m = analysis.winrate_matrix(hand_made, COLUMNS)
    assert m.loc["x", "y"] == pytest.approx(0.75) and m.loc["y", "x"] == pytest.approx(0.25)
    assert np.isnan(m.loc["x", "x"])


def test_elo_from_openspiel_matches_the_odds(hand_made):
    """x won 3 games of 4: Bradley–Terry odds 3, an Elo gap of 400·log10 3."""
    r = analysis.elo_ratings(hand_made, n_boot=50).set_index("agent")
    gap = r.loc["x", "elo"] - r.loc["y", "elo"]
    assert gap == pytest.approx(400 * math.log10(3), abs=2.0)  # OpenSpiel smooths counts
    assert r.elo.sum() == pytest.approx(0.0, abs=1e-9)
    assert (r.lo <= r.elo + 1e-9).all() and (r.elo <= r.hi + 1e-9).all()
    assert r.loc["x", "lo"] < r.loc["x", "elo"]  # resampling deal 0 alone gives a tie


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """A tiny batch folder: random vs heuristic on Columns and Pyatki, 3 deals each."""
    return write_records(played_records(deals=3), tmp_path_factory.mktemp("batch"))


def test_report_writes_markdown_and_valid_pngs(played):
    path = analysis.write_report(played, n_boot=20, structure_games=3)
    text = path.read_text()
    for heading in [
        "## Cross-play",
        "### Ratings",
        "### Win rates",
        "## Self-play",
        "## Game length",
    ]:
        assert heading in text
    assert COLUMNS in text and PYATKI in text
    assert "2 variants" in text and "no self-play games" in text  # no balance from cross-play
    for pooled in ["first_team_advantage", "colour_advantage", "| balance"]:
        assert pooled not in text
    images = [
        line.split("](")[1].rstrip(")") for line in text.splitlines() if line.startswith("![")
    ]
    assert len(images) == 4  # ratings, 2 heat maps, lengths
    for image in images:
        png = played / image
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        pixels = matplotlib.image.imread(png)
        assert pixels.shape[0] > 200 and pixels.shape[1] > 200
        assert pixels.std() > 0  # not blank


def test_report_on_played_games_finds_the_stronger_agent(played):
    df = analysis.load_records(played)
    r = analysis.elo_ratings(df, n_boot=0)
    for scope in r.game.unique():
        ranks = r[r.game == scope].set_index("agent").elo
        assert ranks["heur"] > ranks["rnd"], scope


def test_cli_report(played, capsys, tmp_path):
    assert main(["report", str(played), "--bootstrap", "10"]) == 0
    assert "report.md" in capsys.readouterr().out
    elsewhere = tmp_path / "curated"
    assert main(["report", str(played), "--bootstrap", "10", "--to", str(elsewhere)]) == 0
    assert (elsewhere / "report.md").exists() and list((elsewhere / "figures").glob("*.png"))


def test_cli_report_errors(tmp_path, capsys):
    assert main(["report", str(tmp_path / "missing")]) == 2
    assert "no records at" in capsys.readouterr().err
    (tmp_path / "records").mkdir()
    (tmp_path / "records" / "shard-000.parquet").write_bytes(b"not parquet")
    assert main(["report", str(tmp_path)]) == 2
    assert "cannot read the records" in capsys.readouterr().err
    assert (tmp_path / "records" / "shard-000.parquet").read_bytes() == b"not parquet"
    assert not (tmp_path / "report.md").exists()


def test_failed_games_are_left_out(hand_made, tmp_path):
    failed = team_game(2, 0, True, 99) | {"status": "failed", "error": "boom"}
    out = write_records(hand_made.to_dict("records") + [failed], tmp_path, shards=1)
    df = analysis.load_records(out)
    assert len(df) == 4 and set(df.status) == {"ok"}


def test_notebook_runs(played):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    env = {"SKIP_AI_RECORDS": str(played), "SKIP_AI_BOOTSTRAP": "10"}
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)  # the kernel inherits the environment
    try:
        nbclient.NotebookClient(
            nb,
            timeout=300,
            kernel_name="python3",
            resources={"metadata": {"path": str(NOTEBOOK.parent)}},
        ).execute()
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k)
            else:
                os.environ[k] = v
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    assert any("image/png" in o.get("data", {}) for o in outputs)


def test_report_measures_balance_on_self_play_only_per_agent(hand_made, tmp_path):
    """The hand-made games as x's self-play, next to the x-vs-y games: the balance table
    holds x's self-play alone (team 0 won 3 of 4), never the pairing."""
    selfplay = hand_made.assign(
        agent_b="x",
        agents=[["x"] * 4] * len(hand_made),
        match_id=[f"1/0/{i}/0" for i in range(len(hand_made))],
    )
    rows = pd.concat([hand_made, selfplay]).to_dict("records")
    text = analysis.write_report(
        write_records(rows, tmp_path), n_boot=10, structure_games=1
    ).read_text()
    section = text[text.index("## Self-play") :]
    assert f"x self-play: {COLUMNS}" in section and "| 0.750 [" in section
    assert "y self-play" not in section
