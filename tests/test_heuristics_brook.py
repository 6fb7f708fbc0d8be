"""Brook's heuristic (``agents.heuristics.brook``): its rules of thumb in chosen positions."""

import pyspiel
from trick_helpers import suit_hands

from agents import make_agent
from skip_ai import cards
from skip_ai.scenario import deal, play

PASS = 54


def choice(state: pyspiel.State) -> str:
    bot = make_agent("heuristic", state.get_game())
    return state.action_to_string(state.current_player(), bot.step(state))


def four_suits() -> pyspiel.State:
    game = pyspiel.load_game("skip_brook(players=4,deck=36,remove4=false)")
    return deal(game.new_initial_state(), suit_hands(4, 36))


def test_opens_with_the_cheapest_card_keeping_the_lowest_rank():
    assert choice(four_suits()) == "7s"


def test_passes_on_the_partners_card():
    state = play(four_suits(), ["7s"])
    assert "6c" in [state.action_to_string(1, a) for a in state.legal_actions()]
    assert choice(state) == "PASS"


def test_answers_the_opponents_card_with_the_safest_card():
    game = pyspiel.load_game("skip_brook(players=2,deck=36,remove4=false)")
    mine = "6s 7s 8s 9s Ts Js Qs Ks As 8c 9c Tc Jc Qc Kc Ac 7h Ah"
    rest = [c for c in cards.deck(36) if c not in cards.cards_from_str(mine)]
    state = play(deal(game.new_initial_state(), {0: mine, 1: rest}), ["8c", "6h"])
    # 7h is answered by six hearts and two sixes; Ah and 6s by the two sixes alone, and the
    # six is kept for later
    assert choice(state) == "Ah"
