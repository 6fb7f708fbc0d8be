"""What the tests of each game's action features share: positions from play that is mostly the
game's heuristic, and a position's features read through the pyspiel state."""

import numpy as np

from agents import make_agent
from agents.heuristics import heuristic_module
from agents.model import PolicyValueNet
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


def feature_model(game, path, spread, feature_bias=None):
    """A small learned bot of ``game`` reading its action features, saved at ``path``: weights
    drawn with ``spread``, or, given ``feature_bias``, only the features' own weights ``c`` (a
    fixed linear score of the features)."""
    module = game.spec.action_features
    net = PolicyValueNet.initial(
        str(game), game.obs_size, game.num_distinct_actions(), (8,)
    ).with_action_features(module.VERSION, module.SIZE)
    net.params[:] = np.random.default_rng(3).normal(0, spread, len(net.params))
    if feature_bias is not None:
        net.params[:] = 0
        net.params[net.feature_span][-module.SIZE :] = feature_bias
    net.save(path)
    return make_agent(f"learned(model={path})", game)


def play_steered(game, tmp_path, feature, games=1, seed=0):
    """``games`` whole games played by a model with random weights, each decision checked to be
    legal, while a model whose only weight is -1 on action feature ``feature`` is asked at every
    decision and must pick a move of least ``feature``. Returns the decisions seen."""
    bot = feature_model(game, tmp_path / "random.npz", 0.3)
    assert bot.model.feature_size == game.spec.action_features.SIZE
    bias = np.zeros(game.spec.action_features.SIZE)
    bias[feature] = -1.0
    careful = feature_model(game, tmp_path / "careful.npz", 0.0, bias)
    rng = np.random.default_rng(seed)
    moves = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.integers(len(outcomes))][0])
                continue
            legal, f = features(state)
            a = careful.step(state)
            assert f[legal == a][0, feature] == f[:, feature].min()
            a = bot.step(state)
            assert a in legal
            state.apply_action(a)
            moves += 1
    return moves


def heuristic_rated_best(variant, heuristic, score, weights, tol):
    """In the positions of four games of ``variant`` (seeds 8..11, every decision), the game's
    heuristic with each of ``weights`` plays a move that ``score(features, w)`` rates best,
    within ``tol``. Returns how many of the positions had a choice."""
    choices = 0
    for state in [p for seed in (8, 9, 10, 11) for p in positions(variant, seed, every=1)]:
        legal, f = features(state)
        choices += len(legal) > 1
        for k, w in enumerate(weights):
            value = score(f, w)
            a = heuristic.act(state.kernel_state().copy(), make_rng(k), w)
            i = int(np.flatnonzero(legal == a)[0])
            assert value[i] >= value.max() - tol, (str(state), legal, a, f)
    return choices
