"""Mirrored deals: a deal played again with the teams' hands swapped.

What a mirror is for: a balance study asks whether a team game is fair between equal players
(team 0's win rate in self-play), and most of one game's result is the luck of the cards.
Playing each deal together with its **mirror** cancels much of that luck, as duplicate bridge
does: the mirror gives each seat's hand to the seat with the same role in the other team
(captain to captain), so a deal that favours team 0 favours team 1 as much once mirrored. In
colour games, where team 0 is Red and plays red cards, every card also becomes the card of the
same rank in the suit of the other colour (♠↔♦, ♣↔♥, black joker ↔ red joker; pelicans stay),
so that Red still holds red. A game declares its mirror, or why it has none, in its spec
(``GameSpec.mirror``, ``GameSpec.no_mirror``).

The construction is generic, with no deal code per game. A deal is the chance nodes before the
first decision, one card each. The wrapper records who saw each card
(:meth:`~skip_ai.pyspiel_wrapper.KernelState.seen_by`): the seat it is dealt to; nobody for a
card put away unseen (``remove4``); the drawer and the drawn-from seat for a Chains blind draw.
A node's **key** is that mask together with where the card went (a seat, or out of play): the
mask alone cannot tell Chains' seat 1 drawing from seat 2 from seat 2 drawing from seat 1.
Which key comes at which node does not depend on the cards, so the mirror deals, at its k-th
node with key K, σ(c) for c the card of the original's k-th node with key π(K) — π the seat
map (its own inverse), σ the colour swap or nothing. Every card of the mirror is checked
against the legal outcomes of its node, and every node's key against the original's. A variant
whose deal treats the two teams unalike has no mirror (Little Country with 3 pelicans: an odd
number of cards).
"""

from __future__ import annotations

from collections import Counter, defaultdict, deque
from collections.abc import Sequence

import numpy as np
import pyspiel

from skip_ai.kernel.rng import below, make_rng
from skip_ai.pyspiel_wrapper import IllegalActionError, KernelGame, KernelState

Key = tuple[int, int]
"""A deal node's key: (the bitmask of the seats that saw its card, where the card went: a seat
or one of the kernel's ``LOC_*`` places)."""


def colour_swap(card: int) -> int:
    """σ of the colour games: the card of the same rank in the suit of the other colour, the
    other joker; a pelican has no colour and stays."""
    if card < 52:
        return (card + 26) % 52  # suit s -> s ^ 2: ♠ 0 <-> ♦ 2, ♣ 1 <-> ♥ 3
    if card < 54:
        return card ^ 1  # black joker 52 <-> red joker 53
    return card


def seat_map(game: KernelGame) -> list[int]:
    """π: each seat to the seat with the same role in the other team (the same place among its
    team's seats): captain to captain, seat i to i + n/2 where partners sit side by side."""
    teams = game.teams()
    pi = list(range(game.num_players()))
    for a, b in zip(np.flatnonzero(teams == 0), np.flatnonzero(teams == 1), strict=True):
        pi[a], pi[b] = int(b), int(a)
    return pi


def deal(state: pyspiel.State, rng: np.ndarray) -> list[int]:
    """Deal ``state`` in place: apply its chance nodes up to the first decision, each outcome
    drawn as :func:`skip_ai.play.play` draws it (``below(rng, n)`` of the ``n`` listed), and
    return them. So this is the deal ``play`` would make from ``rng``, and ``play`` going on
    with ``rng`` draws what it would have drawn after it."""
    actions = []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        actions.append(outcomes[below(rng, len(outcomes))][0])
        state.apply_action(actions[-1])
    return actions


def no_mirror_reason(game: KernelGame) -> str | None:
    """Why the variant ``game`` has no mirror, or None when it has one."""
    if game.spec.mirror is None:
        return game.spec.no_mirror
    keys = _replay(game, deal(game.new_initial_state(), make_rng(0)))[1]
    return _unalike(keys, seat_map(game))


def mirror_deal(game: KernelGame, actions: Sequence[int]) -> list[int]:
    """The mirror of the deal ``actions`` (a deal's chance outcomes, as :func:`deal` returns
    them): again a deal of ``game``, and its mirror is ``actions``. A ``ValueError`` naming the
    game when it has no mirror or ``actions`` is not a whole deal."""
    return _mirrored(game, actions).history()


def mirrored_state(game: KernelGame, rng: np.ndarray) -> KernelState:
    """A new state of ``game`` dealt with the mirror of the deal :func:`deal` makes from
    ``rng``, at its first decision. ``rng`` has made the original deal's draws, so that
    :func:`skip_ai.play.play` goes on with it as after the original deal."""
    _check_declared(game)  # before drawing anything
    return _mirrored(game, deal(game.new_initial_state(), rng))


def _check_declared(game: KernelGame) -> None:
    if game.spec.mirror is None:
        raise ValueError(f"{game}: no mirror: {game.spec.no_mirror}")


def _mirrored(game: KernelGame, actions: Sequence[int]) -> KernelState:
    """A new state dealt with the mirror of the deal ``actions``."""
    _check_declared(game)
    keys = _replay(game, actions)[1]
    pi = seat_map(game)
    unalike = _unalike(keys, pi)
    if unalike is not None:
        raise ValueError(f"{game}: no mirror in this variant: {unalike}")
    by_key: defaultdict[Key, deque[int]] = defaultdict(deque)
    for key, card in zip(keys, actions, strict=True):
        by_key[key].append(card)
    cards = [by_key[_image(key, pi)].popleft() for key in keys]
    if game.spec.mirror.swap_colours:
        cards = [colour_swap(card) for card in cards]
    try:  # the wrapper refuses a card that is not an outcome of its node
        state, mirrored = _replay(game, cards)
    except IllegalActionError as e:
        raise ValueError(f"{game}: the mirror of this deal is no deal: {e}") from None
    if mirrored != keys:
        raise ValueError(
            f"{game}: the mirror's chance nodes are not the original's: who gets a card "
            "depends on the cards dealt"
        )
    return state


def _replay(game: KernelGame, actions: Sequence[int]) -> tuple[KernelState, list[Key]]:
    """A new state dealt ``actions`` (a whole deal) and the key of each of its nodes: who saw
    the card (the wrapper's log) and where it went, read as it was applied (a Chains blind
    draw moves a card dealt before)."""
    state = game.new_initial_state()
    places = []
    for card in actions:
        if not state.is_chance_node():
            raise ValueError(f"{game}: a deal has {len(places)} cards, not {len(actions)}")
        state.apply_action(card)
        places.append(state.location(card))
    if state.is_chance_node():
        raise ValueError(f"{game}: the deal goes on after {len(actions)} cards")
    return state, list(zip(state.seen_by(), places, strict=True))


def _image(key: Key, pi: list[int]) -> Key:
    """``key`` with every seat moved by the seat map ``pi`` (places that are not seats stay)."""
    seen, where = key
    moved = sum(1 << pi[q] for q in range(len(pi)) if seen >> q & 1)
    return moved, pi[where] if 0 <= where < len(pi) else where


def _unalike(keys: list[Key], pi: list[int]) -> str | None:
    """Where a deal with the node keys ``keys`` treats a seat and its mirror seat unalike (so
    the mirror cannot deal their cards), or None."""
    counts = Counter(keys)
    for key, n in counts.items():
        image = counts[_image(key, pi)]
        if image != n:
            seat = key[1]
            return f"the deal gives seat {seat} {n} cards and seat {pi[seat]} {image}"
    return None
