"""The factored policy head (``GameSpec.action_parts``): each game's parts, the model's
gradient through them, its file, and a training run that uses them."""

import numpy as np
import pytest
from test_optimiser import PARTS

from agents import make_agent
from agents.model import PolicyValueNet
from skip_ai.pyspiel_wrapper import REGISTRY, load, variants
from skip_ai.training import run_training
from skip_ai.training.config import load_train_config
from skip_ai.training.optimiser import Adam, fit_imitation, one_hot

WITH_PARTS = [spec for spec in REGISTRY.values() if spec.action_parts is not None]
CAPTAINS = "skip_two_captains"


def _variants():
    return [v for spec in WITH_PARTS for v in variants(spec)]


def test_the_games_with_thousands_of_actions_declare_parts():
    names = {spec.short_name for spec in WITH_PARTS}
    assert names == {"skip_two_captains", "skip_little_country", "skip_chains"}


@pytest.mark.parametrize("game_string", _variants())
def test_parts_tell_every_action_apart(game_string):
    """Parts are dense ids, one row per action id, and no two actions share all their parts
    (else no model could prefer one to the other); far fewer parts than actions."""
    game = load(game_string)
    parts = game.spec.action_parts(game.resolved)
    assert parts.dtype == np.int64 and parts.ndim == 2
    assert len(parts) == game.num_distinct_actions()
    assert parts.min() == 0 and parts.max() + 1 < len(parts) / 4
    assert len(np.unique(parts, axis=0)) == len(parts)


def test_two_captains_parts_name_the_card_and_the_pile():
    game = load(CAPTAINS)
    parts = game.spec.action_parts(game.resolved)
    # an ADD of card 5 on pile 7 shares its card part with ADD 5 on pile 8 ...
    assert parts[54 + 54 * 5 + 7, 1] == parts[54 + 54 * 5 + 8, 1]
    assert parts[54 + 54 * 5 + 7, 2] != parts[54 + 54 * 5 + 8, 2]
    # ... and not with BEAT 5 on pile 7: a card to add and a card to beat with differ
    assert parts[54 + 54 * 5 + 7, 1] != parts[2970 + 54 * 5 + 7, 1]


def _factored(hidden=(5,), seed=0):
    net = PolicyValueNet.initial("g", 4, 6, hidden, seed=seed, parts=PARTS)
    rng = np.random.default_rng(seed)
    net.set_trainable(rng.normal(0, 0.3, net.trainable_size))
    return net


def test_each_action_row_is_the_sum_of_its_parts():
    net = _factored()
    logits, _, acts = net.forward(np.random.default_rng(1).normal(size=(3, 4)))
    h = net.dims[-2]
    head = net.head[: net.num_parts * h].reshape(-1, h)
    bias = net.head[net.num_parts * h :]
    for a, (p, q) in enumerate(net.parts):
        expect = acts[-1] @ (head[p] + head[q]) + bias[p] + bias[q]
        assert np.allclose(logits[:, a], expect)
    assert net.trainable_size == len(net.params) - 6 * (h + 1) + 5 * (h + 1)


def test_a_factored_model_is_small_loads_and_plays_as_saved(tmp_path):
    game = load(CAPTAINS)
    parts = game.spec.action_parts(game.resolved)
    net = PolicyValueNet.initial(
        str(game), game.obs_size, game.num_distinct_actions(), (32,), parts=parts, parts_version=1
    )
    net.set_trainable(np.random.default_rng(4).normal(0, 0.2, net.trainable_size))
    path = tmp_path / "m.npz"
    net.save(path)
    full = PolicyValueNet.initial(str(game), game.obs_size, game.num_distinct_actions(), (32,))
    full.save(tmp_path / "full.npz")
    assert path.stat().st_size < (tmp_path / "full.npz").stat().st_size / 4
    back = PolicyValueNet.load(path, game)
    assert back.parts_version == 1 and np.array_equal(back.parts, parts)
    assert np.allclose(back.params, net.params, atol=1e-5)  # float32 in the file
    a = make_agent(f"learned(model={path})", game, seed=0)
    b = make_agent(f"ismcts(iterations=50,model={path})", game, seed=0)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    legal = state.legal_actions()
    logits, _, _ = back.forward(np.asarray(state.observation_tensor())[None])
    assert a.step(state) == legal[int(np.argmax(logits[0, legal]))]
    assert b.step(state) in legal


def test_a_model_fitted_to_other_parts_is_refused(tmp_path):
    game = load(CAPTAINS)
    net = PolicyValueNet.initial(
        str(game),
        game.obs_size,
        game.num_distinct_actions(),
        (8,),
        parts=game.spec.action_parts(game.resolved),
        parts_version=1,
    )
    path = tmp_path / "m.npz"
    net.save(path)
    with np.load(path) as z:
        data = dict(z)
    data["action_parts"] = np.int64(7)
    np.savez(tmp_path / "v7.npz", **data)
    with pytest.raises(ValueError, match="action parts version 7.*now has 1"):
        PolicyValueNet.load(tmp_path / "v7.npz", game)
    data["action_parts"] = np.int64(1)
    data["params"] = data["params"][:-3]
    np.savez(tmp_path / "short.npz", **data)
    with pytest.raises(ValueError, match="expected .* floats"):
        PolicyValueNet.load(tmp_path / "short.npz", game)


def test_imitation_through_the_parts_learns_the_moves():
    """With fewer parts than actions the head can still put each sample's move first, when
    the move is a function of the observation."""
    rng = np.random.default_rng(5)
    net = _factored(hidden=(16,), seed=5)
    obs = rng.normal(size=(300, 4))
    moves = np.argmax(obs @ rng.normal(size=(4, 6)), axis=1)
    adam = Adam(net.trainable_size)
    first = None
    for _ in range(200):
        loss = fit_imitation(net, obs, one_hot(moves, 6), np.zeros(300), adam, 0.01, 64, rng)
        first = loss if first is None else first
    logits, _, _ = net.forward(obs)
    assert loss < first / 3 and (logits.argmax(axis=1) == moves).mean() > 0.9


def test_a_run_with_action_parts_trains_resumes_and_writes_a_small_model(tmp_path):
    text = f"""name = "parts"
game = "{CAPTAINS}"
decisions = 6_000
hidden = [16]
chunk = 2_000
eval_every = 4_000
eval_deals = 2
references = ["random"]
imitation = 2_000
batch = 128
action_parts = true
actors = 0
out = "{tmp_path / "o"}"
"""
    path = tmp_path / "t.toml"
    path.write_text(text)
    run_training(load_train_config(path), progress=False)
    game = load(CAPTAINS)
    model = PolicyValueNet.load(tmp_path / "o" / "model.npz", game)
    assert model.parts is not None and model.kind == "q"
    assert (tmp_path / "o" / "model.npz").stat().st_size < 100_000
    # a finished run resumes to itself; the config without parts is another run
    run_training(load_train_config(path), progress=False)
    path.write_text(text.replace("action_parts = true", "action_parts = false"))
    with pytest.raises(ValueError, match="different config"):
        run_training(load_train_config(path), progress=False)


def test_chains_parts_are_the_card_the_cell_and_the_suit_there():
    game = load("skip_chains")
    parts = game.spec.action_parts(game.resolved)
    cells = game.num_distinct_actions() // 54
    seven, eight, spade = 5, 6, 13 + 5  # 7 and 8 of the first suit, a 7 of the second
    at = lambda card, cell: parts[card * cells + cell]  # noqa: E731
    assert at(seven, 3)[0] == at(seven, 9)[0] and at(seven, 3)[1] != at(seven, 9)[1]
    assert at(seven, 3)[1] == at(spade, 3)[1]
    assert at(seven, 3)[2] == at(eight, 3)[2] != at(spade, 3)[2]
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    assert state.action_to_string(0, seven * cells + 3).startswith("7")
