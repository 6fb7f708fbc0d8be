"""Chains' action features (``skip_ai/games/chains/action_features.py``): exact chain gains,
only what the mover knows, the heuristic's preferences as one linear score, and a few chosen
positions."""

import numpy as np
import pytest

from agents.heuristics import chains as heuristic
from skip_ai.games.chains import action_features as af
from skip_ai.games.chains import apply_action, legal_actions, scores
from skip_ai.kernel.rng import make_rng
from skip_ai.kernel.state import H_CUR, team_of
from skip_ai.pyspiel_wrapper import load
from skip_ai.scenario import deal, play
from tests.feature_helpers import SENTINEL, positions, redeal_changes

VARIANTS = [
    "skip_chains(players=4,deck=52)",
    "skip_chains(players=4,deck=36)",
    "skip_chains(players=6,deck=52)",
    "skip_chains(players=6,deck=36)",
]


def features(s):
    """(legal actions, their features) of the seat to move; also checks the rows and columns
    past them are left alone."""
    legal = np.empty(4096, np.int64)
    n = legal_actions(s, legal)
    out = np.full((n + 2, af.SIZE + 3), SENTINEL)
    af.write(s, int(s[H_CUR]), legal, n, out)
    assert (out[n:] == SENTINEL).all() and (out[:, af.SIZE :] == SENTINEL).all()
    return legal[:n], out[:n, : af.SIZE]


def test_the_docstring_lists_every_feature():
    assert isinstance(af.VERSION, int) and isinstance(af.SIZE, int) and 12 <= af.SIZE <= 20
    for i in range(af.SIZE):
        assert f"\n{i}: " in af.__doc__
    assert f"\n{af.SIZE}: " not in af.__doc__


@pytest.mark.parametrize("variant", VARIANTS)
def test_values_are_finite_and_small(variant):
    for state in positions(variant, 1, every=5):
        _, f = features(state.kernel_state())
        assert np.isfinite(f).all()
        assert (f >= 0).all() and (f <= 2).all()


@pytest.mark.parametrize("variant", VARIANTS)
def test_gain_and_gift_are_exactly_what_the_move_scores(variant):
    """``gain`` is what our team's score grows by with a card of our colour, ``gift`` what
    theirs grows by with one of theirs (in 1/16 points); the other colour's score stays."""
    before, after = np.zeros(2, np.int64), np.zeros(2, np.int64)
    seen = {"gain": 0, "gift": 0}
    for seed in (2, 3, 4):
        for state in positions(variant, seed, every=1):
            s = state.kernel_state()
            team = team_of(s, s[H_CUR])
            scores(s, before)
            legal, f = features(s)
            for a, row in zip(legal, f, strict=True):
                t = s.copy()
                apply_action(t, a)
                scores(t, after)
                ours, theirs = after[team] - before[team], after[1 - team] - before[1 - team]
                assert row[af._GAIN] * 16 == (ours if row[af._OWN] else 0)
                assert row[af._GIFT] * 16 == (0 if row[af._OWN] else theirs)
                assert (ours if row[af._OWN] else theirs) >= 0
                assert (theirs if row[af._OWN] else ours) == 0
                assert (row[af._LINKS] > 0) == (ours + theirs > 0)
                seen["gain"] += row[af._GAIN] > 0
                seen["gift"] += row[af._GIFT] > 0
    assert seen["gain"] > 20 and seen["gift"] > 0, seen


@pytest.mark.parametrize("variant", VARIANTS)
def test_features_depend_only_on_what_the_mover_knows(variant):
    """Re-dealing every card hidden from the mover changes no feature of any move."""
    assert any([redeal_changes(state, 4) for state in positions(variant, 7, every=4)])


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_heuristic_value_is_a_linear_score_of_the_features(variant):
    """With any of its weights, the heuristic plays a move its value rates best, and that
    value is a weighted sum of the features (see the module docstring)."""
    rng = np.random.default_rng(5)
    weights = [heuristic.WEIGHTS] + [rng.uniform(0.1, 3.0, 8) for _ in range(3)]
    for state in positions(variant, 8, every=1) + positions(variant, 9, every=1):
        s = state.kernel_state()
        legal, f = features(s)
        for k, w in enumerate(weights):
            value = (
                w[heuristic.FOREIGN] * (1 - f[:, af._OWN])
                + 2 * w[heuristic.SEED_MINE] * f[:, af._HELD_NB]
                + 2 * w[heuristic.SEED_OTHER] * f[:, af._PARTNER_NB]
                + 16 * w[heuristic.LINK] * f[:, af._GAIN]
                - 16 * w[heuristic.GIFT] * f[:, af._GIFT]
                + w[heuristic.BLOCK] * f[:, af._BLOCK]
                - w[heuristic.SPOIL] * f[:, af._SPOIL]
                - w[heuristic.KEEP] * f[:, af._KEEP]
            )
            a = heuristic.act(s.copy(), make_rng(k), w)
            i = int(np.flatnonzero(legal == a)[0])
            assert value[i] >= value.max() - 1e-9


def chosen_table():
    """Four players, 36 cards, one suit each; after the draws and a round: 6d at (0, 0), Ah
    right of it, As left of it, Ac below it; seat 0 (Red) to move holding 7d..Qd, 6c 7c."""
    suits = ("6d 7d 8d 9d Td Jd Qd Kd Ad", "6h 7h 8h 9h Th Jh Qh Kh Ah")
    suits += ("6s 7s 8s 9s Ts Js Qs Ks As", "6c 7c 8c 9c Tc Jc Qc Kc Ac")
    state = deal(load("skip_chains(players=4,deck=36)").new_initial_state(), dict(enumerate(suits)))
    play(state, ["6c", "7c", "6s", "7s", "6h", "7h", "Ad", "Kd"])  # the blind draws
    return play(state, ["6d@0,0", "Ah@0,1", "As@0,-1", "Ac@1,0"])


def features_of(state, move):
    legal, f = features(state.kernel_state())
    names = [state.action_to_string(0, a) for a in legal]
    return f[names.index(move)]


def test_a_link_next_to_the_first_card():
    f = features_of(chosen_table(), "7d@-1,0")  # 6d-7d: 4 points
    assert f[af._OWN] == 1 and f[af._GAIN] == 4 / 16 and f[af._GIFT] == 0
    assert f[af._LINKS] == 0.5 and f[af._PLACED_NB] == 0.5 and f[af._HELD_NB] == 0.5
    assert f[af._KEEP] == f[af._LAST] == f[af._BLOCK] == 0
    assert f[af._OCCUPIED] == 0.25 and f[af._RANK] == 5 / 12 and f[af._FACE] == 0


def test_filling_the_last_cell_next_to_my_card_spoils_it():
    """Above 6d is its only open cell, where I could play 7d: another card there keeps
    nothing."""
    f = features_of(chosen_table(), "8d@-1,0")
    assert f[af._GAIN] == 0 and f[af._LINKS] == 0
    assert f[af._KEEP] == 1 and f[af._LAST] == 1 and f[af._SPOIL] == 0
    assert f[af._HELD_NB] == 1  # 7d and 9d
    f = features_of(chosen_table(), "Qd@-1,1")  # next to Ah, whose Kh a partner may hold
    assert f[af._SPOIL] == 1 and f[af._KEEP] == 0 and f[af._LAST] == 0
    assert f[af._FACE] == 3 / 5 and f[af._HELD_NB] == 0.5 and f[af._PARTNER_NB] == 0


def test_a_foreign_card_blocks_their_cells():
    """Below As and left of Ac: both their Ks and Kc are still in play (not mine)."""
    f = features_of(chosen_table(), "6c@1,-1")
    assert f[af._OWN] == 0 and f[af._BLOCK] == 1 and f[af._SEAL] == 0
    assert f[af._OCCUPIED] == 0.5 and f[af._THEIR_NB] == 0  # 7c is mine
    assert f[af._HELD_NB] == f[af._PARTNER_NB] == 0
    f = features_of(chosen_table(), "7c@1,1")
    assert f[af._BLOCK] == 1 and f[af._SPOIL] == 1 and f[af._THEIR_NB] == 0.5  # 8c
