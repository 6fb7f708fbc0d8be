"""Batch simulation: deterministic by seed, identical to playing through the pyspiel API."""

import numpy as np
import pandas as pd
import pyspiel
import pytest

from skip_ai import sim


@pytest.mark.parametrize("game", ["skip_columns(players=2,deck=36)", "skip_columns",
                                  "skip_columns(players=6,deck=52)"])
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


@pytest.mark.parametrize("game", ["skip_columns(players=2,deck=36)", "skip_columns(players=4)",
                                  "skip_columns(players=6,deck=52)"])
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
