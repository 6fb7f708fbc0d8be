"""Pyatki (RULES.md §1) and Pyatki for pairs (§2) against a plain-Python reading of the rules,
node by node: chance outcomes, player to move, legal actions, scores and returns.

The reference is written straight from the RULES text with lists and sets: the attack rule by
brute force over the subsets of the attacker's higher cards, the refills card by card.
"""

from itertools import combinations

import numpy as np
import pyspiel
import pytest

from skip_ai import cards
from skip_ai.kernel import attack
from skip_ai.kernel.bits import bit

ATTACK, COVER0, TAKE = 54, 55, 109
CHANCE, TERMINAL = -1, -4


def rank(c: int) -> int:
    return c % 13 + 2


def is_attack(picked: list[int], limit: int) -> bool:
    """Rule 4: 1 card; 3 with two of equal rank; 5 with two disjoint pairs; ≤ limit."""
    if len(picked) not in (1, 3, 5) or len(picked) > limit:
        return False
    counts = [sum(1 for c in picked if rank(c) == r) for r in range(2, 15)]
    return sum(k // 2 for k in counts) >= (len(picked) - 1) // 2


def can_complete(picked: list[int], higher: list[int], limit: int) -> bool:
    return any(
        is_attack(picked + list(extra), limit)
        for k in range(0, 5 - len(picked) + 1)
        for extra in combinations(higher, k)
    )


class Reference:
    def __init__(self, players: int, deck: int, places: bool, cap: int, pairs: bool):
        self.n, self.places, self.cap, self.pairs = players, places, cap, pairs
        self.undealt = set(cards.deck(deck).tolist())
        dealt = len(self.undealt) if pairs else 5 * players
        self.plan = [i % players for i in range(dealt)]
        self.hands: list[set[int]] = [set() for _ in range(players)]
        self.stage = "deal"
        self.trump_card = None
        self.place: list[int | None] = [None] * players
        self.exchanges = 0
        self.winner = None
        self.over = False

    # --- who and what ------------------------------------------------------------------
    def trump(self) -> int:
        return self.trump_card // 13

    def still_in(self, seat: int) -> bool:
        return self.place[seat] is None

    def next_in(self, seat: int) -> int:
        for k in range(1, self.n + 1):
            q = (seat + k) % self.n
            if self.still_in(q):
                return q
        raise AssertionError("nobody in")

    def current(self) -> int:
        if self.over:
            return TERMINAL
        if self.stage in ("deal", "trump", "draw"):
            return CHANCE
        return self.attacker if self.stage == "build" else self.defender

    def chance_outcomes(self) -> list[int]:
        if self.stage == "deal":
            return sorted(self.undealt)
        if self.stage == "trump":
            return sorted(c for c in self.undealt if rank(c) != 14)
        return sorted(self.undealt - {self.trump_card})

    def limit(self) -> int:
        return min(5, len(self.hands[self.defender]))

    def legal(self) -> list[int]:
        if self.stage == "build":
            hand = self.hands[self.attacker]
            top = max(self.picked, default=-1)
            adds = [
                c
                for c in sorted(hand)
                if c > top
                and c not in self.picked
                and can_complete(self.picked + [c], [h for h in hand if h > c], self.limit())
            ]
            return adds + ([ATTACK] if is_attack(self.picked, self.limit()) else [])
        a = self.attack[len(self.answers)]
        covers = [
            COVER0 + d
            for d in sorted(self.hands[self.defender])
            if (d // 13 == a // 13 and rank(d) > rank(a))
            or (d // 13 == self.trump() and a // 13 != self.trump())
        ]
        return covers + [TAKE]

    # --- applying ----------------------------------------------------------------------
    def apply(self, a: int) -> None:
        getattr(self, "_" + self.stage)(a)

    def _deal(self, c: int) -> None:
        self.undealt.remove(c)
        self.hands[self.plan.pop(0)].add(c)
        if self.plan:
            return
        if self.pairs:
            self.trump_card = c  # the last dealt card
            self.begin()
        else:
            self.stage = "trump"

    def _trump(self, c: int) -> None:
        self.trump_card = c  # stays in the stock, drawn last
        self.begin()

    def begin(self) -> None:
        trumps = [(c, q) for q in range(self.n) for c in self.hands[q] if c // 13 == self.trump()]
        opener = min(trumps)[1] if trumps else 0
        defender = self.n - 1 - opener if self.pairs else self.next_in(opener)
        self.start(opener, defender)

    def start(self, attacker: int, defender: int) -> None:
        self.attacker, self.defender = attacker, defender
        self.picked: list[int] = []
        self.stage = "build"

    def _build(self, a: int) -> None:
        if a != ATTACK:
            self.picked.append(a)
            return
        att = self.attacker
        for c in self.picked:
            self.hands[att].remove(c)
        self.attack = sorted(self.picked)
        self.answers: list[int | None] = []
        self.stage = "defend"
        if self.hands[att]:
            return
        if self.pairs:
            partner = att ^ 1
            if not self.hands[partner]:
                self.finish(winner=att // 2)
        elif not self.undealt:
            self.go_out(att)
            self.check_end()

    def _defend(self, a: int) -> None:
        if a == TAKE:
            self.answers.append(None)
        else:
            self.hands[self.defender].remove(a - COVER0)
            self.answers.append(a - COVER0)
        if len(self.answers) < len(self.attack):
            return
        taken = [c for c, ans in zip(self.attack, self.answers) if ans is None]
        self.hands[self.defender] |= set(taken)
        self.covered_all = not taken
        if self.pairs:
            self.pairs_next()
        else:
            self.drawers = [self.attacker, self.defender]
            self.refill()

    def refill(self) -> None:
        while self.drawers:
            seat = self.drawers[0]
            if self.undealt and len(self.hands[seat]) < 5:
                if self.undealt != {self.trump_card}:
                    self.stage = "draw"
                    return
                self.undealt.clear()
                self.hands[seat].add(self.trump_card)
            else:
                self.drawers.pop(0)
        self.end_exchange()

    def _draw(self, c: int) -> None:
        self.undealt.remove(c)
        self.hands[self.drawers[0]].add(c)
        self.refill()

    def go_out(self, seat: int) -> None:
        self.place[seat] = sum(p is not None for p in self.place)

    def check_end(self) -> bool:
        out = sum(p is not None for p in self.place)
        if not self.places and out >= 1:
            self.over = True
        elif self.places and self.n - out <= 1:
            for q in range(self.n):
                if self.still_in(q):
                    self.go_out(q)  # the last place
            self.over = True
        return self.over

    def end_exchange(self) -> None:
        self.stage = "build"
        if not self.undealt:
            for seat in (self.attacker, self.defender):
                if self.still_in(seat) and not self.hands[seat]:
                    self.go_out(seat)
        self.exchanges += 1
        if self.check_end():
            return
        if self.exchanges >= self.cap:
            self.over = True
            return
        if self.covered_all and self.still_in(self.defender):
            nxt = self.defender
        else:
            nxt = self.next_in(self.defender)
        self.start(nxt, self.next_in(nxt))

    def pairs_next(self) -> None:
        dfd, att = self.defender, self.attacker
        if not self.hands[dfd] and not self.hands[dfd ^ 1]:
            self.finish(winner=dfd // 2)
            return
        self.exchanges += 1
        if self.exchanges >= self.cap:
            self.over = True
            return
        team = dfd // 2 if self.covered_all else att // 2

        def pick(t: int) -> int:
            fresh = next(q for q in (2 * t, 2 * t + 1) if q not in (att, dfd))
            return fresh if self.hands[fresh] else fresh ^ 1

        self.start(pick(team), pick(1 - team))

    def finish(self, winner: int) -> None:
        self.winner = winner
        self.over = True

    # --- outcome -----------------------------------------------------------------------
    def returns(self) -> list[float]:
        n = self.n
        if self.pairs:
            sign = 0 if self.winner is None else (1 if self.winner == 0 else -1)
            return [float(sign if q < 2 else -sign) for q in range(n)]
        out = [p for p in self.place if p is not None]
        left = list(range(len(out), n))
        value = [1 - 2 * p / (n - 1) for p in range(n)]
        share = sum(value[p] for p in left) / len(left) if left else 0.0
        return [value[p] if p is not None else share for p in self.place]

    def scores(self) -> list[float]:
        if self.pairs:
            return [-float(len(self.hands[2 * t]) + len(self.hands[2 * t + 1])) for t in range(2)]
        return [float(self.n - 1 - p) if p is not None else 0.0 for p in self.place]


GAMES = [
    "skip_pyatki",
    "skip_pyatki(players=2)",
    "skip_pyatki(players=2,places=true)",
    "skip_pyatki(players=4,deck=52,places=true)",
    "skip_pyatki(players=5,places=true)",
    "skip_pyatki(players=6)",
    "skip_pyatki(players=6,deck=52,places=true)",
    "skip_pyatki(players=3,max_exchanges=10,places=true)",
    "skip_pyatki_pairs",
    "skip_pyatki_pairs(deck=36)",
    "skip_pyatki_pairs(max_exchanges=20)",
]


@pytest.mark.parametrize("game_string", GAMES)
def test_kernel_agrees_with_the_reference(game_string):
    game = pyspiel.load_game(game_string)
    p = game.get_parameters()
    pairs = game.get_type().short_name == "skip_pyatki_pairs"
    rng = np.random.default_rng(3)
    sizes, ends = set(), set()
    for _ in range(25):
        state = game.new_initial_state()
        ref = Reference(
            game.num_players(), p["deck"], p.get("places", False), p["max_exchanges"], pairs
        )
        while not state.is_terminal():
            assert state.current_player() == ref.current()
            if state.is_chance_node():
                assert [a for a, _ in state.chance_outcomes()] == ref.chance_outcomes()
            else:
                assert state.legal_actions() == ref.legal()
            legal = state.legal_actions()
            # lean towards ATTACK and covers, so that games also end by going out
            a = int(rng.choice(legal))
            if not state.is_chance_node() and ATTACK in legal and rng.random() < 0.5:
                a = ATTACK
            if a == ATTACK and not state.is_chance_node():
                sizes.add(len(ref.picked))
            state.apply_action(a)
            ref.apply(a)
            assert state.scores() == ref.scores()
        assert ref.over
        assert state.returns() == pytest.approx(ref.returns())
        ends.add("cap" if ref.exchanges >= ref.cap else ref.stage)
    assert {1, 3} <= sizes  # attacks of several sizes were played
    assert ("cap" in ends) if p["max_exchanges"] <= 20 else ("defend" in ends)  # at an ATTACK


def test_completability_agrees_with_brute_force():
    """``attack.completable`` on random picked sets, higher cards and limits."""
    rng = np.random.default_rng(0)
    deck = cards.deck(52).tolist()
    for _ in range(4000):
        hand = sorted(rng.choice(deck, size=int(rng.integers(1, 14)), replace=False).tolist())
        k = int(rng.integers(1, min(5, len(hand)) + 1))
        picked = sorted(rng.choice(hand, size=k, replace=False).tolist())
        higher = [c for c in hand if c > picked[-1]]
        limit = int(rng.integers(1, 6))
        q = sum(bit(c) for c in picked)
        h = sum(bit(c) for c in higher)
        assert attack.completable(q, h, limit) == can_complete(picked, higher, limit), (
            cards.cards_to_str(picked),
            cards.cards_to_str(higher),
            limit,
        )
        assert attack.valid_attack(q, limit) == is_attack(picked, limit)
