"""Scenario tests of the Chains heuristic (``agents/heuristics/chains.py``)."""

import pyspiel

from agents import make_agent
from skip_ai.scenario import deal, play

DIAMONDS, HEARTS = "6d 7d 8d 9d Td Jd Qd Kd Ad", "6h 7h 8h 9h Th Jh Qh Kh Ah"
SPADES, CLUBS = "6s 7s 8s 9s Ts Js Qs Ks As", "6c 7c 8c 9c Tc Jc Qc Kc Ac"


def table():
    """Four players, 36 cards, one suit each; after the draws and a round: 6d at (0, 0),
    Ah right of it, As left of it, Ac below it; seat 0 (Red) to move holding 7d..Qd, 6c 7c."""
    game = pyspiel.load_game("skip_chains(players=4,deck=36)")
    state = deal(game.new_initial_state(), {0: DIAMONDS, 1: HEARTS, 2: SPADES, 3: CLUBS})
    play(state, ["6c", "7c", "6s", "7s", "6h", "7h", "Ad", "Kd"])  # the blind draws
    return play(state, ["6d@0,0", "Ah@0,1", "As@0,-1", "Ac@1,0"])


def test_links_a_card_to_its_rank_neighbour():
    state = table()
    bot = make_agent("heuristic", state.get_game())
    assert state.action_to_string(0, bot.step(state)) == "7d@-1,0"


def test_grows_its_chain_rather_than_start_elsewhere():
    state = table()
    play(state, ["7d@-1,0", "Kh@-1,1", "Ks@-1,-1", "Kc@2,0"])
    bot = make_agent("heuristic", state.get_game())
    assert state.action_to_string(0, bot.step(state)) == "8d@-2,0"  # 6d-7d-8d: 9 points
