"""Imitation of a search (``teacher = SPEC``): the samples are the teacher's own self-play,
reproducible on any number of processes, and a run fitted to them copies the teacher."""

import numpy as np
import pytest

from agents import make_agent
from agents.model import PolicyValueNet
from skip_ai.kernel.rng import base_seed, derive, make_rng
from skip_ai.play import play
from skip_ai.pyspiel_wrapper import load
from skip_ai.training.config import load_train_config
from skip_ai.training.run import run_training
from skip_ai.training.teacher_data import TeacherSamples, teacher_games, teacher_samples

GAME = "skip_columns(players=2,deck=36)"
TEACHER = "ismcts(iterations=30)"


@pytest.mark.parametrize("teacher", [TEACHER, "ismcts(iterations=2)"])
def test_samples_are_the_teachers_decisions_replayed_through_pyspiel(teacher):
    """Each row is a decision with a choice of the teacher's self-play of game i, dealt and
    seeded as documented: its observation, its root visit shares (over every legal move,
    summing to 1: the fit's legal mask; a 2-iteration search tries at most two, the others
    are listed with 0) and the mover's final return in [-1, 1]."""
    game = load(GAME)
    s = teacher_games(GAME, teacher, 5, 3, 2)
    assert len(s) > 10 and s.cpu > 0
    lo, span = game.min_utility(), game.max_utility() - game.min_utility()
    row = 0
    for i in (3, 4):
        deal = int(derive(np.uint64(base_seed(5)), i))
        bots = [
            make_agent(teacher, game, seed=int(derive(np.uint64(deal), p + 1)))
            for p in range(game.num_players())
        ]
        rows = []

        def check(d):
            if len(d.state.legal_actions()) == 1:
                return
            a, b = s.offsets[row + len(rows)], s.offsets[row + len(rows) + 1]
            assert np.array_equal(s.obs[row + len(rows)], d.state.observation_tensor(d.player))
            assert sorted(s.actions[a:b]) == sorted(d.state.legal_actions())  # every one
            c = s.choices(np.array([row + len(rows)]))
            assert (c.row == 0).all() and np.isclose(c.target.sum(), 1.0)
            assert sorted(c.action) == sorted(d.state.legal_actions())
            assert np.isclose(s.probs[a:b].sum(), 1.0)
            assert d.action in s.actions[a:b]
            rows.append(d.player)

        state = play(
            game.new_initial_state(), bots, make_rng(deal), on_decision=check, policies=True
        )
        returns = 2 * (np.asarray(state.returns()) - lo) / span - 1
        assert np.allclose(s.value[row : row + len(rows)], returns[rows])
        row += len(rows)
    assert row == len(s)


def _dense(c, rows, num_actions):
    """Choices as a dense ``(rows, num_actions)`` array of targets."""
    out = np.zeros((rows, num_actions))
    out[c.row, c.action] = c.target
    return out


def test_samples_do_not_depend_on_the_number_of_processes():
    game = load(GAME)
    one = teacher_samples(game, TEACHER, 150, 2, 0, workers=1, progress=False)
    two = teacher_samples(game, TEACHER, 150, 2, 0, workers=2, progress=False)
    assert len(one) == len(two) == 150
    for f in ("obs", "offsets", "actions", "probs", "value"):
        assert np.array_equal(getattr(one, f), getattr(two, f)), f
    dense = _dense(one.choices(np.arange(150)), 150, game.num_distinct_actions())
    assert np.allclose(dense.sum(axis=1), 1.0)
    sharp = _dense(one.choices(np.arange(150), power=3.0), 150, game.num_distinct_actions())
    assert (
        np.allclose(sharp.sum(axis=1), 1.0)
        and (sharp.max(axis=1) >= dense.max(axis=1) - 1e-12).all()
    )
    assert (sharp.argmax(axis=1) == dense.argmax(axis=1)).all()


def test_a_run_imitates_the_search_it_is_given(tmp_path):
    """The imitated model's policy over the legal moves is closer to the teacher's (KL
    divergence from its visit shares) than the untrained model's, on the teacher's decisions
    of games the run never saw (a 30-iteration search's shares are flat, so its most visited
    move is too noisy a test, and the cross-entropy is mostly their entropy)."""
    path = tmp_path / "t.toml"
    path.write_text(
        f'name = "t"\ngame = "{GAME}"\ncpu_minutes = 0.001\nhidden = [32]\n'
        f"imitation = 4000\nimitation_epochs = 6\nimitation_lr = 0.01\nbatch = 64\n"
        f'teacher = "{TEACHER}"\neval_deals = 2\nreferences = ["random"]\nactors = 0\n'
        f'out = "{tmp_path / "o"}"\n'
    )
    config = load_train_config(path)
    assert config.identity()["teacher"] == TEACHER
    run_training(config, progress=False)
    assert len(TeacherSamples.load(tmp_path / "o" / "teacher.npz", 288, 54)) == 4000  # kept
    game = load(GAME)
    fresh = teacher_games(GAME, TEACHER, 77, 0, 6)
    rows = np.arange(len(fresh))
    choices = fresh.choices(rows)
    target = _dense(choices, len(rows), game.num_distinct_actions())
    legal = np.zeros_like(target, bool)
    legal[choices.row, choices.action] = True

    def divergence(net):  # KL from the shares to the softmax over the legal moves, as played
        q, _, _ = net.forward(fresh.obs.astype(np.float64))
        q = np.where(legal, q, -np.inf)
        q -= q.max(axis=1, keepdims=True)
        log_p = np.where(legal, q - np.log(np.exp(q).sum(axis=1, keepdims=True)), 0.0)
        log_t = np.log(np.where(target > 0, target, 1.0))
        return (target * (log_t - log_p)).sum(axis=1).mean()

    untrained = PolicyValueNet.initial(
        GAME, game.obs_size, game.num_distinct_actions(), (32,), kind="q"
    )
    imitated = PolicyValueNet.load(tmp_path / "o" / "model.npz", game)
    assert divergence(imitated) < 0.75 * divergence(untrained)


def test_the_samples_file_round_trips_and_a_bad_one_is_refused(tmp_path):
    game = load(GAME)
    s = teacher_games(GAME, TEACHER, 1, 0, 1)
    s.save(tmp_path / "t.npz")
    back = TeacherSamples.load(tmp_path / "t.npz", game.obs_size, game.num_distinct_actions())
    for f in ("obs", "offsets", "actions", "probs", "value"):
        assert np.array_equal(getattr(back, f), getattr(s, f)), f
    with pytest.raises(ValueError, match="do not fit"):
        TeacherSamples.load(tmp_path / "t.npz", game.obs_size + 1, game.num_distinct_actions())
    s.actions[0] = 10**6
    s.save(tmp_path / "bad.npz")
    with pytest.raises(ValueError, match="do not fit"):
        TeacherSamples.load(tmp_path / "bad.npz", game.obs_size, game.num_distinct_actions())
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="not a teacher-samples file"):
        TeacherSamples.load(tmp_path / "junk.npz", game.obs_size, game.num_distinct_actions())
