"""Cards as RULES.md §0.1 defines them: ids, suits, ranks, colours, values, decks, text.

A card id is ``13 * suit + (rank - 2)`` (0..51); 52 is the black joker, 53 the red joker;
54, 55, 56 are Little Country's pelicans (RULES §4.6: value 15, no suit, no colour).
Suits: 0 spades, 1 clubs, 2 diamonds, 3 hearts; black = {spades, clubs}, red = the rest.
Ranks 2..14 (11 J, 12 Q, 13 K, 14 A). A card id means the same card in every deck size.

Everything here is plain Python/NumPy for the wrapper, the CLI and the tests; kernels use
the same arithmetic inline (``c // 13``, ``c % 13 + 2``) or the ``@njit`` helpers of
``skip_ai.kernel.cardops``.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

NUM_CARDS = 54
"""The standard cards: 52 and the two jokers (the width of per-card observation parts)."""
PELICANS = (54, 55, 56)
PELICAN_VALUE = 15

SPADES, CLUBS, DIAMONDS, HEARTS = 0, 1, 2, 3
BLACK, RED = 1, 0
"""Colour codes; they equal the team that owns the colour in colour games (Red = team 0)."""
BLACK_JOKER, RED_JOKER = 52, 53
JOKER_VALUE = 11

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "scdh"
SUIT_SYMBOLS = "♠♣♦♥"
LOWEST_RANK = {52: 2, 36: 6, 24: 9}
"""The lowest rank of each plain deck size (54 and 38 are 52 and 36 with both jokers)."""


def card_id(suit: int, rank: int) -> int:
    """Id of the card of ``suit`` (0..3) and ``rank`` (2..14)."""
    if not (0 <= suit <= 3 and 2 <= rank <= 14):
        raise ValueError(f"no card with suit {suit} and rank {rank}")
    return 13 * suit + rank - 2


def is_joker(card: int) -> bool:
    return card in (BLACK_JOKER, RED_JOKER)


def is_pelican(card: int) -> bool:
    return card in PELICANS


def suit(card: int) -> int:
    """Suit of a plain card (jokers have none)."""
    _check_plain(card)
    return card // 13


def rank(card: int) -> int:
    """Rank 2..14 of a plain card."""
    _check_plain(card)
    return card % 13 + 2


def colour(card: int) -> int:
    """``RED`` (0) or ``BLACK`` (1); jokers have their own colour, pelicans none."""
    _check_coloured(card)
    if card == BLACK_JOKER:
        return BLACK
    if card == RED_JOKER:
        return RED
    return BLACK if card // 13 <= CLUBS else RED


def value(card: int) -> int:
    """Points of a card: its rank, 11 for a joker, 15 for a pelican."""
    _check(card)
    if is_pelican(card):
        return PELICAN_VALUE
    return JOKER_VALUE if is_joker(card) else card % 13 + 2


def deck(size: int, jokers: bool = False) -> np.ndarray:
    """Sorted card ids of a deck of 24, 36 or 52 plain cards, plus both jokers if asked.

    ``deck(52, jokers=True)`` is the 54-card deck; ``deck(36, jokers=True)`` the 38-card one.
    """
    if size not in LOWEST_RANK:
        raise ValueError(f"deck size must be one of 24, 36, 52 (got {size})")
    low = LOWEST_RANK[size]
    ids = [card_id(s, r) for s in range(4) for r in range(low, 15)]
    if jokers:
        ids += [BLACK_JOKER, RED_JOKER]
    return np.array(ids, dtype=np.int64)


def to_str(card: int) -> str:
    """Text form: rank char + suit char (``Ts``, ``Qh``, ``2c``); jokers ``BJ`` and ``RJ``;
    pelicans ``Pe1``, ``Pe2``, ``Pe3``."""
    _check(card)
    if is_pelican(card):
        return f"Pe{card - PELICANS[0] + 1}"
    if card == BLACK_JOKER:
        return "BJ"
    if card == RED_JOKER:
        return "RJ"
    return RANK_CHARS[card % 13] + SUIT_CHARS[card // 13]


def from_str(text: str) -> int:
    """Parse the text form of one card; the inverse of :func:`to_str`."""
    t = text.strip()
    if t == "BJ":
        return BLACK_JOKER
    if t == "RJ":
        return RED_JOKER
    if t in ("Pe1", "Pe2", "Pe3"):
        return PELICANS[int(t[2]) - 1]
    if len(t) != 2 or t[0] not in RANK_CHARS or t[1] not in SUIT_CHARS:
        raise ValueError(
            f"not a card: {text!r} (expected e.g. 'Ts', 'Qh', '2c', 'BJ', 'RJ', 'Pe1')"
        )
    return 13 * SUIT_CHARS.index(t[1]) + RANK_CHARS.index(t[0])


def cards_to_str(cards: Iterable[int]) -> str:
    """Space-separated text of several cards, in the order given."""
    return " ".join(to_str(int(c)) for c in cards)


def cards_from_str(text: str) -> list[int]:
    """Parse space-separated cards (the inverse of :func:`cards_to_str`)."""
    return [from_str(t) for t in text.split()]


def _check(card: int) -> None:
    if not 0 <= card <= PELICANS[-1]:
        raise ValueError(f"card id must be 0..{PELICANS[-1]} (got {card})")


def _check_coloured(card: int) -> None:
    _check(card)
    if is_pelican(card):
        raise ValueError(f"card {card} is a pelican: it has no colour")


def _check_plain(card: int) -> None:
    _check(card)
    if card >= 52:
        kind = "pelican" if is_pelican(card) else "joker"
        raise ValueError(f"card {card} is a {kind}: it has no suit or rank")
