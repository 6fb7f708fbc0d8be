"""Build chosen positions through the public API: deal chosen cards, then play.

Rule tests and examples need positions with known hands. :func:`deal` applies the deal's
chance actions so that each seat receives exactly the cards asked for, in the game's own deal
order (read from the kernel's deal plan), so the position is reached the way a real game
reaches it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pyspiel

from skip_ai import cards
from skip_ai.kernel.state import DEAL_PLAN, H_DEAL_LEN, H_DEALT, LOC_UNSEEN

UNSEEN = "unseen"
"""Key of :func:`deal`'s ``hands`` for cards dealt face down out of play (``remove4``)."""


def _card_list(value: Sequence[int] | str) -> list[int]:
    return cards.cards_from_str(value) if isinstance(value, str) else [int(c) for c in value]


def deal(
    state: pyspiel.State, hands: Mapping[int | str, Sequence[int] | str], fill: bool = False
) -> pyspiel.State:
    """Apply the deal so that seat ``s`` gets ``hands[s]`` (ids or text like ``"Ts Qh"``).

    Every seat the deal plan serves must be given exactly its number of cards — or, with
    ``fill``, at most that many: the rest of each hand is then made up with the lowest
    remaining cards, seat by seat. The state must be at the start of its deal; it is
    returned after the last deal step.
    """
    queues = {
        (LOC_UNSEEN if k == UNSEEN else int(k)): list(_card_list(v)) for k, v in hands.items()
    }
    s = state.kernel_state()
    plan = [int(s[DEAL_PLAN + i]) for i in range(int(s[H_DEALT]), int(s[H_DEAL_LEN]))]
    if fill:
        given = {c for q in queues.values() for c in q}
        spare = iter(sorted(a for a, _ in state.chance_outcomes() if a not in given))
        for target in sorted(set(plan), key=lambda t: (t == LOC_UNSEEN, t)):
            queue = queues.setdefault(target, [])
            queue += [next(spare) for _ in range(plan.count(target) - len(queue))]
    for target in set(plan) | set(queues):
        want, have = plan.count(target), len(queues.get(target, []))
        if want != have:
            who = "the unseen pile" if target == LOC_UNSEEN else f"seat {target}"
            raise ValueError(f"{who} is dealt {want} cards here, but {have} were given")
    for target in plan:
        state.apply_action(queues[target].pop(0))
    return state


def play(state: pyspiel.State, moves: Sequence[int | str]) -> pyspiel.State:
    """Apply moves given as action ids or as action strings (e.g. card text ``"7h"``)."""
    for move in moves:
        if isinstance(move, str):
            player = state.current_player()
            by_text = {state.action_to_string(player, a): a for a in state.legal_actions()}
            if move not in by_text:
                raise ValueError(f"{move!r} is not a legal move here; legal: {sorted(by_text)}")
            move = by_text[move]
        state.apply_action(int(move))
    return state
