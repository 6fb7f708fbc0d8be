"""Scenario tests of the Rummy heuristic (``agents/heuristics/rummy.py``)."""

import pyspiel

from agents import make_agent
from skip_ai.scenario import deal, play


def start(hands, up):
    game = pyspiel.load_game("classic_rummy(players=2)")
    return play(deal(game.new_initial_state(), hands), [up])


def bot_move(state: pyspiel.State) -> str:
    return state.action_to_string(
        state.current_player(), make_agent("heuristic", state.get_game()).step(state)
    )


QUIET1 = "3s 6s 9s Qs 4c 7c Tc Kc 5d 8d"


def test_takes_the_up_card_only_when_it_makes_a_meld():
    assert bot_move(start({0: "2s 5s 8s Js 3c 6c 9c Qc 7h 7d", 1: QUIET1}, "7s")) == "DRAW_DISCARD"
    assert bot_move(start({0: "2s 5s 8s Js 3c 6c 9c Qc 7h 4d", 1: QUIET1}, "7s")) == "DRAW_STOCK"


def test_melds_the_biggest_meld_first_then_discards_the_highest_deadwood():
    state = start({0: "As 2s 3s 4s 9h 9d 9c Kh 2d 5h", 1: "7s Js 4c 7c Tc Kc 5d 8d 3h Jh"}, "Jd")
    play(state, ["DRAW_STOCK", "Qd"])
    assert bot_move(state) == "meld As2s3s4s"
    play(state, ["meld As2s3s4s"])
    assert bot_move(state) == "meld 9c9d9h"
    play(state, ["meld 9c9d9h"])
    # Kh 2d 5h Qd left: the pictures are worth 10; Kh has no partner, Qd has none either
    assert bot_move(state) in ("Kh", "Qd")
    play(state, ["Qd"])
    play(state, ["DRAW_STOCK", "6s", "6s"])
    play(state, ["DRAW_STOCK", "4h"])  # 4h, 5h: partners now, so Kh is the deadwood
    assert bot_move(state) == "Kh"


def test_always_claims():
    state = start({0: "6h 7h 8h 9h 2c 3d 4s 5c Ts Jd", 1: QUIET1}, "Ad")
    play(state, ["DRAW_STOCK", "Kd", "meld 6h7h8h", "9h"])
    assert bot_move(state) == "RUMMY"
