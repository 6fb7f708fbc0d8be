"""Scenario tests of the Two Captains / Little Country heuristic
(``agents/heuristics/captains.py``)."""

import pyspiel

from agents import make_agent
from skip_ai.scenario import deal, play


def bot_move(state: pyspiel.State) -> str:
    return state.action_to_string(
        state.current_player(), make_agent("heuristic", state.get_game()).step(state)
    )


def first_legal(state: pyspiel.State) -> pyspiel.State:
    return play(state, [state.legal_actions()[0]])


def test_beats_with_the_lowest_card_that_does_it():
    # Red's hearts are all exposed to the higher hearts out; 7s and Ks both beat Black's 5s
    game = pyspiel.load_game("skip_two_captains")
    state = deal(
        game.new_initial_state(), {0: "2d 2h 3h 4h 5h 6h 7s Ks 2c 3c 4c 5c 6c", 2: "5s"}, fill=True
    )
    play(state, ["2d", "PASS", "5s"])  # seat 1 holds black cards only and nothing to beat
    first_legal(state)
    assert bot_move(state) == "7s beats 5s"


def test_marries_the_king_to_its_lone_queen():
    game = pyspiel.load_game("skip_little_country")
    state = deal(game.new_initial_state(), {0: "Qh Kh"}, fill=True)  # Ah is out
    play(state, ["Qh"])
    for _ in range(3):
        first_legal(state)
    assert bot_move(state) == "Kh"
