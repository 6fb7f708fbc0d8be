"""Hostile and careless inputs to the library (issue 47), part one: threads sharing the
wrapper, crafted or damaged serialised states. Each is refused with one line, before any work,
or (threads) gives what one thread alone gives (part two: ``test_hostile_bounds.py``)."""

from __future__ import annotations

import base64
import pickle
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pyspiel
import pytest

from skip_ai.kernel.state import H_CUR, H_MOVES, H_PLAYERS, LOC
from skip_ai.pyspiel_wrapper import load
from skip_ai.state_text import STATE_FORMAT, deserialize_state, serialize_state

G2 = "skip_columns(players=2,deck=36)"
THREAD_GAMES = ["skip_columns", "skip_domino", "skip_chains"]
BIG = 99999999999999999999  # beyond int64


def one_line(error: BaseException) -> str:
    text = str(error)
    assert text.strip() and "\n" not in text.strip(), text
    return text


def random_histories(game, seed: int, count: int) -> list[list[int]]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        state, history = game.new_initial_state(), []
        while not state.is_terminal():
            action = int(rng.choice(state.legal_actions()))
            history.append(action)
            state.apply_action(action)
        out.append(history)
    return out


def legal_lists(game, histories: list[list[int]], rounds: int = 1) -> list[list[int]]:
    """Every legal-move list along ``histories`` (the server's pattern: a state per table,
    legal_actions at every step), ``rounds`` times over."""
    seen = []
    for _ in range(rounds):
        for history in histories:
            state = game.new_initial_state()
            for action in history:
                seen.append(state.legal_actions())
                state.apply_action(action)
            seen.append(state.legal_actions())
    return seen


def in_threads(work, threads: int = 8) -> list:
    results = [None] * threads
    errors = []

    def run(t):
        try:
            results[t] = work(t)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads trade the GIL as often as the interpreter allows
    try:
        pool = [threading.Thread(target=run, args=(t,)) for t in range(threads)]
        for th in pool:
            th.start()
        for th in pool:
            th.join()
    finally:
        sys.setswitchinterval(old)
    assert not errors, errors
    return results


# ----- 6. legal_actions under threads -------------------------------------------------------


@pytest.mark.parametrize("name", THREAD_GAMES)
def test_legal_actions_in_eight_threads_match_one_thread(name):
    game = pyspiel.load_game(name)
    histories = [random_histories(game, seed=t, count=2) for t in range(8)]
    expected = [legal_lists(game, h) for h in histories]
    rounds = 6
    got = in_threads(lambda t: legal_lists(game, histories[t], rounds))
    for t in range(8):
        assert got[t] == expected[t] * rounds, f"thread {t} saw another thread's moves"


@pytest.mark.parametrize("name", THREAD_GAMES)
def test_legal_actions_stay_right_when_a_thread_is_preempted_inside_the_call(name, monkeypatch):
    """The kernel's write and the copy out of the buffer, with a thread switch forced between
    them (``sleep(0)`` gives the GIL away): a buffer shared by threads hands this thread's
    caller the moves another thread wrote there meanwhile."""
    game = pyspiel.load_game(name)
    real = game.new_initial_state().ops

    def actions(s, out):
        n = real.actions(s, out)
        time.sleep(0)
        return n

    def checked_apply(s, a, out):
        vis = real.checked_apply(s, a, out)
        time.sleep(0)
        return vis

    monkeypatch.setattr(
        game.state_cls,
        "ops",
        SimpleNamespace(actions=actions, checked_apply=checked_apply, playouts=real.playouts),
    )
    histories = [random_histories(game, seed=10 + t, count=1) for t in range(8)]
    expected = [legal_lists(game, h) for h in histories]
    got = in_threads(lambda t: legal_lists(game, histories[t], 2))
    for t in range(8):
        assert got[t] == expected[t] * 2, f"thread {t} saw another thread's moves"


def test_the_cost_of_a_buffer_per_thread_is_printed(capsys):
    """legal_actions with this thread's buffer against one buffer shared by all threads (the
    old way), on random playouts; printed, not asserted (timings depend on the machine)."""
    from skip_ai.pyspiel_wrapper import KernelState

    game = pyspiel.load_game("skip_columns")
    histories = random_histories(game, seed=7, count=20)
    shared = np.empty(1 << 16, np.int64)

    def old(self, player=None):
        if player is not None and player != self._cur:
            return []
        n = self.ops.actions(self._s, shared)
        return shared[:n].tolist()

    def per_call(fn) -> float:
        states = []
        for history in histories:
            state = game.new_initial_state()
            for action in history:
                states.append(state.clone())
                state.apply_action(action)
        start = time.perf_counter()
        for state in states:
            fn(state)
        return (time.perf_counter() - start) / len(states)

    new = KernelState.legal_actions
    best = {"shared": float("inf"), "per thread": float("inf")}
    for _ in range(5):
        best["shared"] = min(best["shared"], per_call(old))
        best["per thread"] = min(best["per thread"], per_call(new))
    with capsys.disabled():
        print(
            f"\nlegal_actions on skip_columns playouts: shared buffer {1e9 * best['shared']:.0f} "
            f"ns, per-thread buffer {1e9 * best['per thread']:.0f} ns a call"
        )


# ----- 7. serialised states ------------------------------------------------------------------


class _Canary:
    """Unpickling this creates the canary file: proof that a string ran code."""

    def __init__(self, path: Path):
        self.path = str(path)

    def __reduce__(self):
        return open, (self.path, "w")


def _pickled_dict(canary: Path) -> str:
    return base64.b64encode(pickle.dumps({"_s": _Canary(canary)})).decode()


def _envelope(game_section: str, state_section: str) -> str:
    return (
        "# Automatically generated by OpenSpiel SerializeGameAndState\n[Meta]\nVersion: 1\n\n"
        f"[Game]\n{game_section}\n[State]\n{state_section}\n"
    )


def test_a_crafted_pickle_is_refused_by_every_reader_and_runs_nothing(tmp_path):
    game = load(G2)
    canary = tmp_path / "canary"
    payload = f"history=\nmove_number=0\n__dict__={_pickled_dict(canary)}"
    with pytest.raises(ValueError) as e:
        game.deserialize_state(payload)
    assert "pickled" in one_line(e.value)
    with pytest.raises(ValueError) as e:
        deserialize_state(game, payload)
    one_line(e.value)
    with pytest.raises(ValueError) as e:
        pyspiel.deserialize_game_and_state(_envelope(str(game), payload))
    one_line(e.value)
    # the game section as OpenSpiel's C++ splits it: a "[GameRNGState]" line does not hide it
    sneaky = _envelope("# note\nskip_columns\n[GameRNGState]\nx", payload)
    with pytest.raises(ValueError) as e:
        pyspiel.deserialize_game_and_state(sneaky)
    one_line(e.value)
    assert not canary.exists()


def test_states_round_trip_as_text_that_holds_no_pickle():
    game = load(G2)
    rng = np.random.default_rng(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        for text in (state.serialize(), serialize_state(state)):
            assert text.startswith(STATE_FORMAT + "\n") and "__dict__" not in text
            copy = game.deserialize_state(text)
            assert copy.history() == state.history() and str(copy) == str(state)
            np.testing.assert_array_equal(copy.kernel_state(), state.kernel_state())
        envelope = pyspiel.serialize_game_and_state(game, state)
        assert "__dict__" not in envelope
        g2, s2 = pyspiel.deserialize_game_and_state(envelope)
        assert str(g2) == str(game) and s2.history() == state.history()
        assert pickle.loads(pickle.dumps(state)).history() == state.history()
        state.apply_action(int(rng.choice(state.legal_actions())))
    # OpenSpiel's own games still go through pyspiel
    ttt = pyspiel.load_game("tic_tac_toe")
    s = ttt.new_initial_state()
    s.apply_action(4)
    g2, s2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(ttt, s))
    assert str(g2) == "tic_tac_toe()" and s2.history() == [4]


def _dealt_text(game) -> tuple[str, list[str], int]:
    """A state's text, its lines, and an action that is not legal where its last one was."""
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    for _ in range(59):
        state.apply_action(int(rng.choice(state.legal_actions())))
    legal = state.legal_actions()
    illegal = min(set(range(game.num_distinct_actions())) - set(legal))
    state.apply_action(int(rng.choice(legal)))
    text = serialize_state(state)
    return text, text.split("\n"), illegal


def _with_slot(lines: list[str], slot: int, value: int) -> str:
    values = lines[3].removeprefix("state=").split(",")
    values[slot] = str(value)
    return "\n".join([*lines[:3], "state=" + ",".join(values)])


def _damaged(kind: str, text: str, lines: list[str], illegal: int) -> str:
    game_slot = len(lines[3].split(",")) - 3  # a slot of the game's own part
    values = lines[3].removeprefix("state=").split(",")
    history = lines[2].removeprefix("history=").split(",")
    return {
        "empty": "",
        "garbage": "\x00\xff garbage \u2603",
        "truncated": text[: len(text) // 2],
        "truncated in the array": text[:-40],
        "oversized array": text + ",0,0,0",
        "undersized array": "\n".join([*lines[:3], "state=" + ",".join(values[:-1])]),
        "too long": text + "," + "0," * (1 << 20),
        "another version": text.replace(STATE_FORMAT, "skip_ai.state/9", 1),
        "another game": text.replace("players=2", "players=4", 1),
        "an extra line": text + "\nmore=1",
        "a value beyond int64": text.replace("state=", f"state={BIG}", 1),
        "a value that is not a number": text.replace("state=", "state=1e3,", 1),
        "an action outside the game": text.replace("history=", "history=1000000000,", 1),
        "an illegal history": "\n".join(
            [*lines[:2], "history=" + ",".join([*history[:-1], str(illegal)]), lines[3]]
        ),
        "a seat count": _with_slot(lines, H_PLAYERS, 7),
        "a player to move": _with_slot(lines, H_CUR, 9),
        "a negative move count": _with_slot(lines, H_MOVES, -1),
        "a card nowhere": _with_slot(lines, LOC + 3, 99),
        "an array its history does not reach": _with_slot(lines, game_slot, 12345),
    }[kind]


DAMAGES = [
    "empty",
    "garbage",
    "truncated",
    "truncated in the array",
    "oversized array",
    "undersized array",
    "too long",
    "another version",
    "another game",
    "an extra line",
    "a value beyond int64",
    "a value that is not a number",
    "an action outside the game",
    "an illegal history",
    "a seat count",
    "a player to move",
    "a negative move count",
    "a card nowhere",
    "an array its history does not reach",
]


@pytest.mark.parametrize("kind", DAMAGES)
def test_a_damaged_state_is_refused_in_one_line(kind):
    game = load(G2)
    text, lines, illegal = _dealt_text(game)
    assert game.deserialize_state(text).history()  # the undamaged text reads
    bad = _damaged(kind, text, lines, illegal)
    with pytest.raises(ValueError) as e:
        game.deserialize_state(bad)
    assert one_line(e.value).startswith(f"not a serialised state of {game}")
    with pytest.raises(ValueError) as e:
        pyspiel.deserialize_game_and_state(_envelope(str(game), bad))
    one_line(e.value)


def test_deserialize_refuses_what_is_not_text():
    game = load(G2)
    with pytest.raises(ValueError) as e:
        deserialize_state(game, b"skip_ai.state/1")
    one_line(e.value)
