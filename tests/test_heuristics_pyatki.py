"""Scenario tests of the Pyatki heuristic (``agents/heuristics/pyatki.py``)."""

import pyspiel

from agents import make_agent
from skip_ai import cards
from skip_ai.scenario import deal, play

ATTACK, TAKE = 54, 109


def start(hands, trump):
    state = deal(pyspiel.load_game("skip_pyatki(players=2)").new_initial_state(), hands)
    return play(state, [trump])


def test_attacks_early_with_a_low_pair_and_a_low_extra_card():
    # hearts are trump; seat 0 holds the lowest trump (Kh) and attacks
    state = start({0: "6s 6c 7d Ah Kh", 1: "8s 9s Tc Jd Qs"}, "Qh")
    bot = make_agent("heuristic", state.get_game())
    picked = []
    while (a := bot.step(state)) != ATTACK:
        picked.append(a)
        state.apply_action(a)
    assert picked == cards.cards_from_str("6s 6c 7d")


def test_defends_with_the_cheapest_cover_and_takes_rather_than_spend_a_high_trump():
    state = start({0: "6s 6c 7d Ah 7h", 1: "7s As 9h Jc Qd"}, "Qh")
    bot = make_agent("heuristic", state.get_game())
    play(state, ["6s", ATTACK])
    assert bot.step(state) == 55 + cards.from_str("7s")  # not As, not the trump 9h
    state = start({0: "6s 6c 7d Ah 7h", 1: "Jh Td Qd 8s 9s"}, "Qh")
    play(state, ["6c", ATTACK])
    assert bot.step(state) == TAKE  # only the trump Jh covers it, and the stock is full
