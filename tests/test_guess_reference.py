"""Guess (RULES.md §9) against a plain-Python reading of the rules, action by action.

The reference below is written straight from the RULES text, card by card, with no masks: for
random games of every variant it must give the same legal actions, the same player to move,
the same scores and the same returns as the kernel.
"""

import numpy as np
import pyspiel
import pytest

from skip_ai import cards

PASS = 162


def colour(c: int) -> int:
    return cards.colour(c)


class Reference:
    """RULES §9 after the deal: hands are given, seat 0 starts."""

    def __init__(self, hands: list[set[int]], tiebreak_values: bool):
        self.hands = hands
        self.n = len(hands)
        self.k = self.n // 2
        self.tiebreak_values = tiebreak_values
        self.table: list[int] = []
        self.column: list[int | None] = [None] * self.k
        self.first = True  # the current column is the stream's first
        self.top_higher: bool | None = None
        self.taken = [0, 0]
        self.value = [0, 0]
        self.cur = 0
        self.empty_pass = False
        self.over = False

    def team(self, seat: int) -> int:
        return seat // self.k

    def fits(self, c: int, row: int) -> bool:
        col = self.column
        if col[row] is not None:
            return False
        others = [x for x in col if x is not None]
        if cards.is_joker(c):
            if self.first or any(cards.is_joker(x) for x in others):
                return False
            return all(colour(x) == colour(c) for x in others)
        for x in others:
            if cards.is_joker(x) and colour(x) != colour(c):
                return False
            if not cards.is_joker(x) and cards.suit(x) != cards.suit(c):
                return False
        if self.first:
            if len(others) < self.k - 1:
                return True  # only the last card of the first column is checked
            full = list(col)
            full[row] = c
            ranks = [cards.rank(x) for x in full]
            return all(a > b for a, b in zip(ranks, ranks[1:])) or all(
                a < b for a, b in zip(ranks, ranks[1:])
            )
        for q, x in enumerate(col):
            if x is None or cards.is_joker(x):
                continue
            upper, lower = (c, x) if row < q else (x, c)
            if (cards.rank(upper) > cards.rank(lower)) != self.top_higher:
                return False
        return True

    def legal(self) -> list[int]:
        acts = sorted(
            row * 54 + c for c in self.hands[self.cur] for row in range(self.k) if self.fits(c, row)
        )
        return acts or [PASS]

    def to_move(self, seat: int) -> None:
        self.cur = seat
        self.over = not self.hands[seat]

    def apply(self, a: int) -> None:
        cur = self.cur
        other = 1 - self.team(cur)
        if a == PASS:
            if not self.table:
                if self.empty_pass:
                    self.over = True
                    return
                self.empty_pass = True
            else:
                for c in self.table:
                    self.taken[other] += 1
                    self.value[other] += cards.value(c)
                self.table = []
                self.column = [None] * self.k
                self.first = True
                self.top_higher = None
            self.to_move(other * self.k)
            return
        self.empty_pass = False
        row, c = divmod(a, 54)
        self.hands[cur].remove(c)
        self.table.append(c)
        self.column[row] = c
        if all(x is not None for x in self.column):
            if self.first:
                self.top_higher = cards.rank(self.column[0]) > cards.rank(self.column[-1])
            self.first = False
            self.column = [None] * self.k
        self.to_move((cur + 1) % self.n)

    def returns(self) -> list[float]:
        d = self.taken[0] - self.taken[1]
        if d == 0 and self.tiebreak_values:
            d = self.value[0] - self.value[1]
        sign = float(np.sign(d))
        return [sign if self.team(p) == 0 else -sign for p in range(self.n)]


GAMES = [
    "skip_guess",
    "skip_guess(players=6)",
    "skip_guess(players=6,deck=36)",
    "skip_guess(deck=36,tiebreak=draw)",
    "skip_guess(jokers=true)",
    "skip_guess(jokers=true,deck=36,tiebreak=values)",
]


@pytest.mark.parametrize("game_string", GAMES)
def test_kernel_agrees_with_the_reference(game_string):
    game = pyspiel.load_game(game_string)
    n = game.num_players()
    values = game.get_parameters()["tiebreak"] == "values"
    rng = np.random.default_rng(7)
    passes = 0
    for _ in range(60):
        state = game.new_initial_state()
        hands: list[set[int]] = [set() for _ in range(n)]
        while state.is_chance_node():
            c = int(rng.choice(state.legal_actions()))
            state.apply_action(c)
        for p in range(n):
            line = state.observation_string(p).split("hand: ")[1].splitlines()[0]
            hands[p] = set(cards.cards_from_str(line))
        ref = Reference(hands, values)
        while not state.is_terminal():
            assert not ref.over
            assert state.current_player() == ref.cur
            legal = state.legal_actions()
            assert legal == ref.legal()
            # prefer cards, so that games reach the later columns
            cards_only = [a for a in legal if a != PASS]
            a = int(rng.choice(cards_only or legal))
            passes += a == PASS
            state.apply_action(a)
            ref.apply(a)
            assert state.scores() == [float(t) for t in ref.taken]
        assert ref.over
        assert state.returns() == ref.returns()
    assert passes > 0
