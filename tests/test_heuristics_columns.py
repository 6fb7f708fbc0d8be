"""Scenario tests of the Columns heuristic (``agents/heuristics/columns.py``)."""

import pyspiel

from agents import make_agent
from skip_ai.cards import from_str
from skip_ai.scenario import deal, play


def last_two_sixes(red_six: str, black_six: str) -> pyspiel.State:
    """1v1, 36 cards: Black has played 6c and 6d; Red (seat 0) holds ``red_six``, Black
    ``black_six``, and Red is to move."""
    game = pyspiel.load_game("skip_columns(players=2,deck=36)")
    state = deal(
        game.new_initial_state(), {0: f"{red_six} 7h 8h", 1: f"6c 6d {black_six}"}, fill=True
    )
    return play(state, ["7h", "6c", "8h", "6d"])


def test_plays_the_third_card_when_the_last_one_is_its_colour():
    # after 6s the last Six is Black's 6h, a red card: the column is Red's
    state = last_two_sixes("6s", "6h")
    assert make_agent("heuristic", state.get_game()).step(state) == from_str("6s")


def test_never_plays_the_third_card_when_the_last_one_is_the_other_colour():
    # after 6h the last Six would be Black's 6s
    state = last_two_sixes("6h", "6s")
    for seed in range(10):
        assert make_agent("heuristic", state.get_game(), seed=seed).step(state) != from_str("6h")
