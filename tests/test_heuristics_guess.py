"""Guess's heuristic (``agents.heuristics.guess``): its rules of thumb in chosen positions."""

import pyspiel

from agents import make_agent
from skip_ai import cards
from skip_ai.scenario import deal, play

C = cards.from_str


def four_players(hands: dict[int, str]) -> pyspiel.State:
    game = pyspiel.load_game("skip_guess(players=4,deck=52)")
    given = [c for h in hands.values() for c in cards.cards_from_str(h)]
    rest = [c for c in cards.deck(52) if c not in given]
    for p in range(4):
        if p not in hands:
            hands[p], rest = rest[:13], rest[13:]
    return deal(game.new_initial_state(), hands)


def chosen_card(state: pyspiel.State) -> int:
    return make_agent("heuristic", state.get_game()).step(state) % 54


def test_opens_a_column_in_a_suit_the_partner_may_hold():
    # seat 0 holds every spade but the ace: the partner cannot follow a spade
    state = four_players({0: "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks Ah"})
    assert chosen_card(state) == C("Ah")


def test_finishes_a_column_with_the_middle_card():
    state = four_players(
        {0: "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks 7h", 1: "2h 8h Ah 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc"}
    )
    state = play(state, [C("7h")])  # top cell of the first column
    assert chosen_card(state) == C("8h")
