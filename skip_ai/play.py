"""The one play loop: a game through the pyspiel API, bots moving and chance drawn from a seed.

Every driver that plays games at the Python level (matches, tournaments, self-play, expert
positions, the CLI, structure estimates, the replay of a batch game) plays them here, so they
all draw chance the same way: outcome ``below(rng, n)`` of the ``n`` listed, from the kernel
generator ``rng`` — the draw the batch kernels make — and differ only in what they do at each
event (the callbacks).

A decision with exactly one legal action is *forced* (:func:`forced_action`, the one place
that says so): the seats named in ``play(..., auto_forced=...)`` (a person at the terminal)
and a person at the browser's table (:mod:`skip_ai.serve.tables`) have such moves played for
them, with a line that says so.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

import numpy as np
import pyspiel

from skip_ai.kernel.rng import below


@dataclass(frozen=True)
class Decision:
    """A player's move, shown to ``on_decision`` before it is applied."""

    state: pyspiel.State  # the state the move is made in (not yet applied)
    player: int
    action: int
    seconds: float  # the bot's thinking time
    policy: list[tuple[int, float]] | None  # the bot's policy, when asked for
    forced: bool = False  # played without asking the bot: its seat's only legal action


def forced_action(state: pyspiel.State) -> int | None:
    """The only legal action of the player to move, or None when there is a choice (or no
    player to move: chance, or the game over)."""
    if state.is_terminal() or state.is_chance_node():
        return None
    legal = state.legal_actions()
    return int(legal[0]) if len(legal) == 1 else None


def play(
    state: pyspiel.State,
    bots: Sequence[pyspiel.Bot],
    rng: np.ndarray,
    on_turn: Callable[[pyspiel.State, int], None] | None = None,
    on_decision: Callable[[Decision], None] | None = None,
    on_chance: Callable[[pyspiel.State, int], None] | None = None,
    policies: bool = False,
    auto_forced: Collection[int] = (),
) -> pyspiel.State:
    """Play ``state`` to the end in place and return it: seat ``p`` moves by ``bots[p]``
    (``step``, or ``step_with_policy`` with ``policies``), chance outcomes are drawn from the
    kernel generator ``rng``.

    The callbacks see each event before it is applied: ``on_turn(state, player)`` when a seat
    is to move, before its bot thinks; ``on_decision(decision)`` once it has chosen;
    ``on_chance(state, outcome)`` for a chance outcome.

    A forced decision (:func:`forced_action`) of a seat in ``auto_forced`` is played without
    asking its bot: ``on_turn`` is not called, ``on_decision`` sees it with ``forced=True``."""
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            outcome = outcomes[below(rng, len(outcomes))][0]
            if on_chance is not None:
                on_chance(state, outcome)
            state.apply_action(outcome)
            continue
        player = state.current_player()
        only = forced_action(state) if player in auto_forced else None
        if only is not None:
            if on_decision is not None:
                on_decision(Decision(state, player, only, 0.0, None, forced=True))
            state.apply_action(only)
            continue
        if on_turn is not None:
            on_turn(state, player)
        bot = bots[player]
        t0 = time.perf_counter()
        if policies:
            policy, action = bot.step_with_policy(state)
        else:
            policy, action = None, bot.step(state)
        seconds = time.perf_counter() - t0
        if on_decision is not None:
            on_decision(Decision(state, player, action, seconds, policy))
        state.apply_action(action)
    return state
