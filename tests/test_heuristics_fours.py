"""Fours' heuristic (``agents.heuristics.fours``): its rules of thumb in chosen positions."""

import pyspiel

from agents import make_agent
from skip_ai import cards
from skip_ai.scenario import deal

# seat 0: three twos (a sure win), a pair of threes (never lost) and singles
SEAT0 = "2s 2c 2d 3s 3c 4s 5s 6s 7s 8s 9s Ts Js"


def test_opens_with_a_pair_and_keeps_the_sure_win_for_a_pot():
    game = pyspiel.load_game("skip_fours")
    rest = [c for c in cards.deck(52) if c not in cards.cards_from_str(SEAT0)]
    state = deal(game.new_initial_state(), {0: SEAT0, 1: rest[:13], 2: rest[13:26], 3: rest[26:]})
    action = make_agent("heuristic", game).step(state)
    assert action == 1  # rank 3
