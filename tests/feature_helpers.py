"""What the tests of each game's action features share: positions from play that is mostly the
game's heuristic, and a position's features read through the pyspiel state."""

import numpy as np

from agents.heuristics import heuristic_module
from skip_ai.kernel.rng import make_rng
from skip_ai.pyspiel_wrapper import load

SENTINEL = -7.0


def positions(variant, seed, every=2, share=0.8):
    """Decision states of one game of ``variant`` whose moves are the heuristic's with
    probability ``share`` (so the positions look like real play), else random; every
    ``every``-th decision is kept."""
    game = load(variant)
    heuristic = heuristic_module(game.spec.kernel)
    rng = np.random.default_rng(seed)
    krng = make_rng(seed)
    state = game.new_initial_state()
    out, k = [], 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.integers(len(outcomes))][0])
            continue
        if k % every == 0:
            out.append(state.clone())
        k += 1
        if rng.random() < share:
            a = heuristic.act(state.kernel_state(), krng, heuristic.WEIGHTS)
        else:
            a = rng.choice(state.legal_actions())
        state.apply_action(int(a))
    return out


def features(state):
    """(legal actions, their features) of the seat to move, through the state; also checks
    that the rows and columns past them are left alone."""
    size = state.spec.action_features.SIZE
    legal = np.asarray(state.legal_actions(), np.int64)
    n = len(legal)
    out = np.full((n + 2, size + 3), SENTINEL)
    state.write_action_features(legal, out)
    assert (out[n:] == SENTINEL).all() and (out[:, size:] == SENTINEL).all()
    return legal, out[:n, :size]


def redeal_changes(state, redeals=3):
    """Re-deal ``redeals`` times every card hidden from the mover: its legal moves and their
    features must stay the same. Returns whether any re-deal changed the state (else the test
    saw nothing hidden)."""
    cur = state.current_player()
    legal, f = features(state)
    changed = False
    for i in range(redeals):
        world = state.resample_from_infostate(cur, rng=make_rng(100 + i))
        changed |= not np.array_equal(world.kernel_state(), state.kernel_state())
        legal2, f2 = features(world)
        assert np.array_equal(legal, legal2) and np.array_equal(f, f2)
    return changed
