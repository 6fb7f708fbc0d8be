"""Scenario tests of the Harvest heuristic (``agents/heuristics/harvest.py``)."""

import pyspiel

from agents import make_agent
from skip_ai.scenario import deal, play

GAME = "skip_harvest(players=2,deck=36)"


def bot_move(state: pyspiel.State) -> str:
    return state.action_to_string(
        state.current_player(), make_agent("heuristic", state.get_game()).step(state)
    )


def test_lays_the_safe_low_card_and_keeps_the_exposed_ace():
    # Red's only red cards are 6h and Ah; Black holds every heart between them
    game = pyspiel.load_game(GAME)
    state = deal(game.new_initial_state(), {0: "6h Ah"}, fill=True)
    assert bot_move(state) == "6h"


def test_covers_with_its_lowest_card_of_the_suit():
    game = pyspiel.load_game(GAME)
    state = deal(game.new_initial_state(), {0: "Ah 6s Ks"}, fill=True)  # clubs 6c..Kc too
    play(state, ["Ah", "Ac"])
    assert bot_move(state) == "6c on Ac"
