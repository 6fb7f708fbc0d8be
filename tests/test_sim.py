"""Batch simulation: deterministic by seed, identical to playing through the pyspiel API."""

import numpy as np
import pandas as pd
import pyspiel
import pytest

from skip_ai import sim
from skip_ai.pyspiel_wrapper import REGISTRY, variants


@pytest.mark.parametrize(
    "game", ["skip_columns(players=2,deck=36)", "skip_columns", "skip_columns(players=6,deck=52)"]
)
def test_simulate_is_deterministic_by_seed(game):
    a = sim.simulate(game, 300, seed=4)
    b = sim.simulate(game, 300, seed=4)
    pd.testing.assert_frame_equal(a, b)
    c = sim.simulate(game, 300, seed=5)
    assert not a.seed.equals(c.seed)
    assert not a[["score_0", "score_1"]].equals(c[["score_0", "score_1"]])


def test_simulate_output_shape_and_consistency():
    df = sim.simulate("skip_columns(players=6,deck=36)", 200, seed=1)
    assert len(df) == 200 and df.index.tolist() == list(range(200))
    assert df.game.unique().tolist() == ["skip_columns(deck=36,players=6)"]
    returns = df[[f"return_{p}" for p in range(6)]].to_numpy()
    assert np.allclose(returns.sum(axis=1), 0)
    assert set(np.unique(returns)) <= {-1.0, 1.0}
    assert (df.score_0 + df.score_1 == 9).all()
    assert ((df.score_0 > df.score_1) == (df.winner == 0)).all()
    assert (df.num_actions == 72).all()  # 36 deal nodes + 36 plays
    assert (df.num_moves == 36).all()


def test_a_batch_does_not_depend_on_chunking(monkeypatch):
    whole = sim.simulate("skip_columns", 50, seed=9)
    monkeypatch.setattr(sim, "CHUNK", 7)
    pd.testing.assert_frame_equal(whole, sim.simulate("skip_columns", 50, seed=9))
    # a longer batch starts with the same games
    pd.testing.assert_frame_equal(whole, sim.simulate("skip_columns", 80, seed=9).head(50))


@pytest.mark.parametrize(
    "game",
    [
        "skip_columns(players=2,deck=36)",
        "skip_columns(players=4)",
        "skip_columns(players=6,deck=52)",
    ],
)
def test_simulate_agrees_with_the_pyspiel_api(game):
    df = sim.simulate(game, 20, seed=3)
    g = pyspiel.load_game(game)
    for row in df.itertuples():
        state = sim.play_game(g, int(row.seed))
        assert state.returns() == [getattr(row, f"return_{p}") for p in range(g.num_players())]
        assert state.scores() == [row.score_0, row.score_1]
        assert len(state.history()) == row.num_actions
        assert sum(1 for h in state.full_history() if h.player >= 0) == row.num_moves


def test_simulate_errors():
    with pytest.raises(ValueError, match="unknown policy"):
        sim.simulate("skip_columns", 2, policy="genius")
    with pytest.raises(ValueError, match="unknown game 'skip_nope'"):
        sim.simulate("skip_nope", 2)
    with pytest.raises(pyspiel.SpielError):
        sim.simulate("skip_columns(nope=1)", 2)


def test_summary_intervals():
    df = sim.simulate("skip_columns", 400, seed=0)
    s = sim.summary(df)
    rate, lo, hi = s["team0"]
    assert lo < rate < hi and 0.3 < rate < 0.7
    assert s["draw"][0] == 0.0
    assert s["length"][0] == 104 and s["moves"][0] == 52


PYATKI_VARIANTS = [
    v for name in ("skip_pyatki", "skip_pyatki_pairs") for v in variants(REGISTRY[name])
]


@pytest.mark.parametrize("game", PYATKI_VARIANTS)
def test_simulate_pyatki_every_variant(game):
    """Per-seat scores and the first out as winner (Pyatki), per-team ones (pairs); the batch
    agrees with the pyspiel API game by game."""
    g = pyspiel.load_game(game)
    n = g.num_players()
    df = sim.simulate(game, 40, seed=2)
    returns = df[[f"return_{p}" for p in range(n)]].to_numpy()
    assert np.allclose(returns.sum(axis=1), 0)
    teams = g.get_type().short_name == "skip_pyatki_pairs"
    score_cols = [c for c in df.columns if c.startswith("score_")]
    assert score_cols == [f"score_{i}" for i in range(2 if teams else n)]
    if not teams:
        scores = df[score_cols].to_numpy()
        first = df.winner.to_numpy()
        for row, w in zip(scores, first):  # the winner is the seat that went out first
            assert (w == -1 and row.max() == 0) or row[w] == n - 1
    for row in df.head(5).itertuples():
        state = sim.play_game(g, int(row.seed))
        assert state.returns() == pytest.approx([getattr(row, f"return_{p}") for p in range(n)])
        assert state.scores() == [getattr(row, c) for c in score_cols]
        assert len(state.history()) == row.num_actions


def test_summary_per_seat_for_games_each_for_themselves():
    s = sim.summary(sim.simulate("skip_pyatki(players=3)", 600, seed=0))
    assert {"seat0", "seat1", "seat2", "draw"} <= set(s) and "team0" not in s
    assert sum(s[f"seat{q}"][0] for q in range(3)) + s["draw"][0] == pytest.approx(1.0)
    assert all(s[f"seat{q}"][1] < s[f"seat{q}"][0] < s[f"seat{q}"][2] for q in range(3))
