"""skip_ai.analysis: metrics on hand-made records whose answers are known, the report and the
CLI on records played by real agents, and the errors (the notebooks: test_notebooks.py)."""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib.image
import numpy as np
import pandas as pd
import pytest
from analysis_records import played_records, record, study_selfplay, write_records

from skip_ai import analysis
from skip_ai.analysis.balance import BOOTSTRAP, OVER_PAIRS, OVER_SEATS
from skip_ai.balance.metrics import STUDENT, selfplay_table, split
from skip_ai.cli import main
from skip_ai.stats import BETTING, betting_interval, mean_interval, score_interval

COLUMNS = "skip_columns(deck=52,players=4)"
PYATKI = "skip_pyatki(deck=36,max_exchanges=200,places=False,players=3)"


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


def ends(row: pd.Series) -> tuple[float, float, float]:
    return row.value, row.lo, row.hi


def test_team_balance_metrics_known_answers(hand_made):
    """Per deal unit (deal 0, deal 1): team 0 won all and half of the games, x's duplicate
    score is ½ and 1, the games last 15 and 35 actions (7.5 and 17.5 moves)."""
    table = analysis.balance_table(hand_made, n_boot=50)
    expected = {
        "team0_win_rate": (betting_interval([1.0, 0.5]), BETTING),
        "draw_rate": (betting_interval([0.0, 0.0]), BETTING),
        "duration_actions": (mean_interval([15.0, 35.0]), STUDENT),
        "duration_moves": (mean_interval([7.5, 17.5]), STUDENT),
    }
    for name, (interval, method) in expected.items():
        row = metric(table, COLUMNS, name)
        assert ends(row) == pytest.approx(interval), name
        assert row.method == method, name
    # x's duplicate score ¾ in [0, 1]: a gap of ½, from 0 (the score may be ½) to 1
    gap = metric(table, COLUMNS, "skill_gap")
    assert ends(gap) == pytest.approx((0.5, 0.0, 1.0)) and gap.method == OVER_PAIRS
    uniformity = metric(table, COLUMNS, "outcome_uniformity")
    assert uniformity.value == pytest.approx(1 - 0.75)  # each team's utility ±1: variance ¾
    assert uniformity.lo <= uniformity.value <= uniformity.hi and uniformity.method == BOOTSTRAP
    for absent in ["seat_advantage", "seat0_win_rate"]:
        row = metric(table, COLUMNS, absent)
        assert math.isnan(row.value) and row.method == "", absent


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
    # one deal unit; seat 0's interval simultaneous over the 3 seats, as the study's
    seat0 = metric(table, PYATKI, "seat0_win_rate")
    assert ends(seat0) == pytest.approx(betting_interval([2 / 3], alpha=0.05 / 3))
    assert seat0.method == OVER_SEATS
    # mean utilities per seat ½, 0, -½
    assert metric(table, PYATKI, "seat_advantage").value == pytest.approx(0.5)
    assert math.isnan(metric(table, PYATKI, "team0_win_rate").value)
    assert metric(table, PYATKI, "skill_gap").value == pytest.approx(0.0)


def test_advantage_and_gap_intervals_reach_zero_only_when_the_means_may_be_fair():
    """Seat advantage and skill gap are absolute values of means: their intervals, from the
    means' betting intervals, start at 0 while those hold fairness (a percentile bootstrap of
    the absolute value would not) and leave 0 when the data show an advantage."""
    # seat 0 wins 6 games of 12, seats 1 and 2 three each: utilities ¼, -⅛, -⅛
    close = study_selfplay(PYATKI, [(0,), (1,), (2,), (0,)] * 3)
    advantage = metric(
        analysis.balance_table(pd.DataFrame(close), n_boot=0), PYATKI, "seat_advantage"
    )
    assert advantage.value == pytest.approx(3 / 16) and advantage.lo == 0.0
    clear = study_selfplay(PYATKI, [(0,)] * 30)  # utilities 1, -½, -½
    advantage = metric(
        analysis.balance_table(pd.DataFrame(clear), n_boot=0), PYATKI, "seat_advantage"
    )
    assert advantage.value == pytest.approx(0.75) and advantage.lo > 0.25
    # x beats y on 6 deals of 11 (both seatings), loses 5: a duplicate score of 6/11
    close = [team_game(d, k, (k == 0) == (d % 2 == 0), 10) for d in range(11) for k in (0, 1)]
    gap = metric(analysis.balance_table(pd.DataFrame(close), n_boot=0), COLUMNS, "skill_gap")
    assert gap.value == pytest.approx(1 / 11) and gap.lo == 0.0
    clear = [team_game(d, k, k == 0, 10) for d in range(30) for k in (0, 1)]
    gap = metric(analysis.balance_table(pd.DataFrame(clear), n_boot=0), COLUMNS, "skill_gap")
    assert gap.value == 1.0 and gap.lo > 0.5


@pytest.mark.parametrize(
    ("game", "winners", "rates"),
    [
        # mirrored deals; the last deal's mirror is missing: both leave that deal out
        (
            COLUMNS,
            [(0, 1), (0, 0), (1, -1), (0, 1), (-1, -1), (0, 0), (1, 1), (0, 1), (0, -1), (0,)],
            {"team0_win_rate": "team0_win_rate", "draw_rate": "draw_rate"},
        ),
        (
            PYATKI,
            [(0,), (1,), (0,), (2,), (-1,), (0,), (0,), (1,), (0,), (2,), (0,), (-1,)],
            {"seat0_win_rate": "seat0_win_rate", "draw_rate": "undecided_rate"},
        ),
    ],
)
def test_the_report_prints_the_balance_studys_rates(game, winners, rates, tmp_path):
    """The same self-play records read by ``skip-ai report`` and by the balance study: team 0's
    (seat 0's) win rate and the draw rate, with their intervals, are the study's numbers."""
    rows = study_selfplay(game, winners)
    study = selfplay_table(split(pd.DataFrame(rows))[0]).set_index("measure")
    table = analysis.balance_table(pd.DataFrame(rows))
    for ours, theirs in rates.items():
        assert ends(metric(table, game, ours)) == ends(study.loc[theirs]), ours
    text = analysis.write_report(
        write_records(rows, tmp_path), n_boot=10, structure_games=1
    ).read_text()
    section = text[text.index("## Self-play") :]
    for theirs in rates.values():
        value, lo, hi = ends(study.loc[theirs])
        assert f"{value:.3f} [{lo:.3f}, {hi:.3f}]" in section, theirs
    assert "skip_ai.balance.metrics.outcome_rates" in section and BETTING in section


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
    assert f"`duration_moves`: {STUDENT}; `skill_gap`: {OVER_PAIRS}" in text
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
    # as the worker records a game that raised: no result (a result would contradict the
    # status, and the records would be refused: test_records_hostile.py)
    result = ["returns", "scores", "score_a", "winner", "num_actions", "num_moves"]
    failed = team_game(2, 0, True, 99) | dict.fromkeys(result, None)
    failed |= {"status": "failed", "error": "boom"}
    out = write_records(hand_made.to_dict("records") + [failed], tmp_path, shards=1)
    df = analysis.load_records(out)
    assert len(df) == 4 and set(df.status) == {"ok"}


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
    assert f"`team0_win_rate`, `draw_rate`: {BETTING}" in section
    assert f"`outcome_uniformity`: {BOOTSTRAP}" in section
