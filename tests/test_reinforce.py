"""Policy gradient against the heuristic (``method = "reinforce"``): the kernel's games replay
through pyspiel with the moves drawn from the model's policy; the gradient is REINFORCE's with
the value as baseline; a run starts from its model, extends to the same end as a longer run,
and refuses what it does not use (another method's fields, and options since removed)."""

from types import SimpleNamespace

import numpy as np
import pytest

from agents.learned import LearnedBot
from agents.model import PolicyValueNet
from skip_ai.kernel.rng import base_seed, derive, make_rng, uniform
from skip_ai.pyspiel_wrapper import load
from skip_ai.training import run_training
from skip_ai.training.actor_kernel import SELF_PLAY_FAMILY
from skip_ai.training.chunks import model_sides, play_reinforce_chunk
from skip_ai.training.config import TrainConfigError, load_train_config, load_train_configs
from skip_ai.training.optimiser import Adam, Choices, _choice_gradient, fit_reinforce
from tests.test_dmc import replay, targets_are_returns

GAME = "skip_columns(players=2,deck=36)"


def model(game, seed=0, spread=1.0):
    """A small model whose outputs differ from move to move (a fresh head is all zeros)."""
    net = PolicyValueNet.initial(
        str(game), game.obs_size, game.num_distinct_actions(), (16,), seed=seed
    )
    rng = np.random.default_rng(seed)
    net.set_trainable(net.trainable() + rng.normal(0, spread, net.trainable_size))
    return net


@pytest.mark.parametrize("first", [3, 4])
def test_the_models_side_draws_its_moves_from_its_policy(first):
    """Game ``first``: its model side is side ``first mod 2``, the other seat plays the
    heuristic; at a low temperature the move drawn is the learned bot's; each row lists the
    state's legal moves and its mover's return."""
    game = load(GAME)
    net = model(game)
    c = play_reinforce_chunk(GAME, 7, first, 2000, net.dims, net.params, 0.01)
    assert c.games >= 1
    side = model_sides(game)[first % 2]
    bot = LearnedBot(game, net)

    def check(state, k):
        assert np.array_equal(c.obs[k], np.asarray(state.observation_tensor(), np.float32))
        legal = c.moves.actions[c.moves.offsets[k] : c.moves.offsets[k + 1]]
        assert legal.tolist() == state.legal_actions()
        assert c.moves.probs[c.moves.offsets[k] + legal.tolist().index(c.actions[k])] == 1.0
        assert c.actions[k] == bot.step(state)

    rng = make_rng(int(derive(np.uint64(base_seed(7)), first)))
    state, movers = replay(game, c, rng, check, lambda seat: side >> seat & 1, whole=False)
    assert movers and all(side >> m & 1 for m in movers)
    n = len(movers)
    assert targets_are_returns(game, SimpleNamespace(target=c.target[:n]), state, movers)
    assert c.moves.probs.sum() == len(c.actions)  # one move played per row


@pytest.mark.parametrize("first", [3, 4])
def test_a_self_play_game_puts_the_model_in_every_seat(first):
    """With ``self_play = 1`` every seat draws its moves from the policy (at a low
    temperature, the learned bot's move), and every seat's decisions are rows with their
    mover's return."""
    game = load(GAME)
    net = model(game)
    c = play_reinforce_chunk(GAME, 7, first, 2000, net.dims, net.params, 0.01, self_play=1.0)
    bot = LearnedBot(game, net)

    def check(state, k):
        assert np.array_equal(c.obs[k], np.asarray(state.observation_tensor(), np.float32))
        assert c.actions[k] == bot.step(state)

    rng = make_rng(int(derive(np.uint64(base_seed(7)), first)))
    state, movers = replay(game, c, rng, check, lambda seat: True, whole=False)
    assert set(movers) == set(range(game.num_players()))
    n = len(movers)
    assert targets_are_returns(game, SimpleNamespace(target=c.target[:n]), state, movers)


def test_a_self_play_share_decides_each_game_by_its_own_draw():
    """With ``self_play = 0.5`` game ``i`` is the game a share of 0 or of 1 plays from it, as
    the draw from the self-play family says, whatever the chunk's other games are."""
    game = load(GAME)
    net = model(game)
    kinds = set()
    for first in range(8):
        mixed = play_reinforce_chunk(GAME, 7, first, 2000, net.dims, net.params, 0.5, self_play=0.5)
        pick = make_rng(int(derive(np.uint64(base_seed(7)) ^ SELF_PLAY_FAMILY, first)))
        selfplay = bool(uniform(pick) < 0.5)
        kinds.add(selfplay)
        share = 1.0 if selfplay else 0.0
        same = play_reinforce_chunk(
            GAME, 7, first, 2000, net.dims, net.params, 0.5, self_play=share
        )
        side = model_sides(game)[first % 2]
        rng = make_rng(int(derive(np.uint64(base_seed(7)), first)))
        seat = (lambda s: True) if selfplay else (lambda s: bool(side >> s & 1))
        _, movers = replay(game, same, rng, lambda state, k: None, seat, whole=False)
        n = len(movers)
        assert np.array_equal(mixed.actions[:n], same.actions[:n])
        assert np.array_equal(mixed.obs[:n], same.obs[:n])
        assert np.array_equal(mixed.target[:n], same.target[:n])
    assert kinds == {False, True}


def test_a_hot_policy_plays_other_moves_than_its_best():
    game = load(GAME)
    net = model(game)
    cold = play_reinforce_chunk(GAME, 7, 0, 3000, net.dims, net.params, 0.01)
    hot = play_reinforce_chunk(GAME, 7, 0, 3000, net.dims, net.params, 10.0)
    assert not np.array_equal(cold.actions[:50], hot.actions[:50])


def test_chunks_are_reproducible_and_never_hold_half_a_game():
    game = load(GAME)
    net = model(game)
    a = play_reinforce_chunk(GAME, 1, 0, 3000, net.dims, net.params, 0.5)
    b = play_reinforce_chunk(GAME, 1, 0, 3000, net.dims, net.params, 0.5)
    assert np.array_equal(a.obs, b.obs) and np.array_equal(a.actions, b.actions)
    rest = play_reinforce_chunk(GAME, 1, a.games, 3000, net.dims, net.params, 0.5)
    both = play_reinforce_chunk(GAME, 1, 0, 6000, net.dims, net.params, 0.5)
    n = len(a.actions)
    assert np.array_equal(both.actions[:n], a.actions)  # game by game: the next chunk goes on
    assert np.array_equal(both.actions[n : n + len(rest.actions)], rest.actions)
    with pytest.raises(ValueError, match="cannot hold one game"):
        play_reinforce_chunk(GAME, 1, 0, 2, net.dims, net.params, 0.5)


def test_the_policy_gradient_is_reinforces_with_the_value_as_baseline():
    """Each row's cross-entropy to the move played, at the temperature, weighted by its return
    minus the value (held fixed), plus the value's squared error: by finite differences."""
    rng = np.random.default_rng(3)
    net = PolicyValueNet.initial("g", 6, 6, (5,), seed=4)
    net.set_trainable(net.trainable() + rng.normal(0, 0.3, net.trainable_size))
    obs, ret = rng.normal(size=(4, 6)), rng.choice([-1.0, 1.0], 4)
    row = np.array([0, 0, 1, 1, 1, 2, 2, 3, 3, 3])
    action = np.array([1, 4, 0, 2, 5, 3, 4, 0, 1, 5])
    played = np.array([0, 1, 0, 0, 1, 1, 0, 0, 1, 0], float)
    temperature = 0.5
    c = Choices(row, action, played)
    grad, _ = _choice_gradient(net, obs, c, ret, temperature, advantage=True)
    theta = net.trainable().copy()
    weight = (ret - net.forward(obs)[1])[row]

    def objective(t):
        net.set_trainable(t)
        logits, val, _ = net.forward(obs)
        z = logits[row, action] / temperature
        log_norm = np.log(np.bincount(row, np.exp(z)))[row]
        return -(weight * played * (z - log_norm)).sum() / 4 + ((val - ret) ** 2).mean()

    eps = 1e-6
    for i in range(len(theta)):
        step = np.zeros_like(theta)
        step[i] = eps
        fd = (objective(theta + step) - objective(theta - step)) / (2 * eps)
        assert abs(fd - grad[i]) < 1e-6


@pytest.mark.parametrize("result", [1.0, -1.0])
def test_a_won_game_makes_its_moves_likelier_and_a_lost_one_rarer(result):
    game = load(GAME)
    net = model(game, spread=0.1)
    c = play_reinforce_chunk(GAME, 2, 0, 500, net.dims, net.params, 1.0)
    played = c.moves.take(1)
    before = _probability_of_the_move(net, played)
    fit_reinforce(
        net,
        played.obs,
        lambda rows: played.choices(rows),
        np.array([result]),
        Adam(net.trainable_size),
        1e-3,
        1,
        np.random.default_rng(0),
        1.0,
    )
    after = _probability_of_the_move(net, played)
    assert (after - before) * result > 0


def _probability_of_the_move(net, played):
    logits, _, _ = net.forward(played.obs.astype(float))
    z = logits[0, played.actions]
    p = np.exp(z - z.max()) / np.exp(z - z.max()).sum()
    return p[played.probs == 1][0]


RUN = """name = "pg"
game = "{game}"
method = "reinforce"
start = "{start}"
decisions = {decisions}
chunk = 3_000
lr = 0.001
eval_every = 1_000_000
eval_deals = 2
references = ["heuristic"]
actors = {actors}
out = "{out}"
"""


def _config(tmp_path, name, decisions=6_000, actors=0, **changes):
    start = tmp_path / "start.npz"
    if not start.exists():
        model(load(GAME)).save(start)
    text = RUN.format(
        game=GAME, start=start, decisions=decisions, actors=actors, out=tmp_path / name
    )
    for key, line in changes.items():
        kept = [x for x in text.splitlines() if not x.startswith(key + " ")]
        text = "\n".join(kept + ([line] if line else [])) + "\n"
    path = tmp_path / f"{name}.toml"
    path.write_text(text)
    return path


def test_a_run_starts_from_its_model_and_extends_to_a_longer_runs_end(tmp_path):
    """A run of 6 000 samples extended to 12 000 (its checkpoint resumed) ends where a run of
    12 000 with its actor in a second process ends; the models are policy_value."""
    short = _config(tmp_path, "short")
    run_training(load_train_config(short), progress=False)
    start = PolicyValueNet.load(tmp_path / "start.npz")
    moved = PolicyValueNet.load(tmp_path / "short" / "model.npz")
    assert moved.kind == "policy_value" and not np.array_equal(moved.params, start.params)
    longer = short.read_text().replace("decisions = 6000", "decisions = 12000")
    short.write_text(longer)
    run_training(load_train_config(short), progress=False)
    whole = _config(tmp_path, "whole", decisions=12_000, actors=1)
    run_training(load_train_config(whole), progress=False)
    a = PolicyValueNet.load(tmp_path / "short" / "model.npz")
    b = PolicyValueNet.load(tmp_path / "whole" / "model.npz")
    assert np.array_equal(a.params, b.params)
    model(load(GAME), seed=5).save(tmp_path / "start.npz")  # another start under the same name
    with pytest.raises(ValueError, match="different config"):
        run_training(load_train_config(short), progress=False)


@pytest.mark.parametrize(
    "key, line, message",
    [
        ("method", 'method = "ppo"', "method must be one of dmc, reinforce"),
        ("temperature", "temperature = 0", "temperature must be a finite number in"),
        ("start", "", "needs start"),
        ("start", 'start = "nowhere.npz"', "start: "),
        ("hidden", "hidden = [8]", 'hidden is for method = "dmc" only, not "reinforce"'),
        ("imitation", "imitation = 1000", 'imitation is for method = "dmc" only'),
        ("method", 'method = "dmc"', 'start is for method = "reinforce" only, not "dmc"'),
        ("self_play", "self_play = 1.5", "self_play must be a number in"),
        ("self_play", 'self_play = "half"', "self_play must be a number in"),
        ("baseline", 'baseline = "value"', "unknown field\\(s\\) baseline"),
    ],
)
def test_bad_policy_gradient_configs_are_refused(tmp_path, key, line, message):
    with pytest.raises(TrainConfigError, match=message):
        load_train_config(_config(tmp_path, "bad", **{key: line}))


@pytest.mark.parametrize(
    "key, value, line",
    [("self_play", 0.5, "self_play = 0.5"), ("temperature", 0.4, "temperature = 0.4")],
)
def test_an_option_of_the_policy_gradient_is_refused_with_dmc_and_is_in_the_runs_identity(
    tmp_path, key, value, line
):
    path = _config(tmp_path, "bad", start="", method='method = "dmc"')
    path.write_text(path.read_text() + line + "\n")
    with pytest.raises(TrainConfigError, match=f'{key} is for method = "reinforce" only'):
        load_train_config(path)
    plain = load_train_config(_config(tmp_path, "a"))
    given = load_train_config(_config(tmp_path, "b", **{key: line}))
    if key == "self_play":
        assert key not in plain.identity()  # runs from before it still resume
    assert given.identity()[key] == value


def test_a_start_model_of_another_game_is_refused(tmp_path):
    other = tmp_path / "fours.npz"
    model(load("skip_fours")).save(other)
    path = _config(tmp_path, "bad", start=f'start = "{other}"')
    with pytest.raises(TrainConfigError, match="start: .*skip_fours"):
        load_train_config(path)


def test_a_games_list_names_each_games_start_model(tmp_path):
    for name in ("skip_columns", "skip_fours"):
        model(load(name)).save(tmp_path / f"{name}.npz")
    path = tmp_path / "list.toml"
    text = RUN.format(game="", start=tmp_path / "{game}.npz", decisions=10, actors=0, out=tmp_path)
    path.write_text(text.replace('game = ""', 'games = ["skip_columns", "skip_fours"]'))
    configs = load_train_configs(path)
    assert [c.start for c in configs] == [
        str(tmp_path / f"{n}.npz") for n in ("skip_columns", "skip_fours")
    ]


def test_a_step_moves_the_policy_alike_at_any_temperature():
    """A model at temperature 0.2 and the same model with its head divided by 0.2, at
    temperature 1, are one policy; one step of the same samples keeps them one policy (the
    head's steps are scaled by the temperature; unscaled, the first would move 5x as far)."""
    game = load(GAME)
    net = model(game, spread=0.1)
    c = play_reinforce_chunk(GAME, 2, 0, 500, net.dims, net.params, 0.2)
    folded = model(game, spread=0.1)
    t = folded.trainable()
    t[folded.head_span] /= 0.2
    folded.set_trainable(t)
    for m, temperature in ((net, 0.2), (folded, 1.0)):
        fit_reinforce(
            m,
            c.obs,
            lambda rows: c.moves.choices(rows),
            c.target,
            Adam(m.trainable_size),
            1e-3,
            64,
            np.random.default_rng(0),
            temperature,
        )
    a = net.forward(c.obs.astype(float))[0] / 0.2
    b = folded.forward(c.obs.astype(float))[0]
    assert np.allclose(a, b, atol=1e-4)  # Adam's epsilon differs
    assert not np.allclose(a, model(game, spread=0.1).forward(c.obs.astype(float))[0] / 0.2)
