"""Domino's heuristic (``agents.heuristics.domino``): its rules of thumb in chosen positions."""

import pyspiel

from agents import make_agent
from skip_ai import cards
from skip_ai.scenario import deal, play


def choice(state: pyspiel.State) -> str:
    bot = make_agent("heuristic", state.get_game())
    return state.action_to_string(state.current_player(), bot.step(state))


def one_v_one(voluntary: bool, seat1: str) -> pyspiel.State:
    game = pyspiel.load_game(
        f"skip_domino(players=2,deck=36,remove4=false,voluntary_pass={str(voluntary).lower()})"
    )
    rest = [c for c in cards.deck(36) if c not in cards.cards_from_str(seat1)]
    return deal(game.new_initial_state(), {0: rest, 1: seat1})


# seat 0 leads 9h; seat 1 may place 8h or Th beside it (seat 0 holds the other nines). After
# 8h seat 0 may answer with 7h or 8d, after Th only with Td (seat 1 holds Jh and the other tens)
ANSWERER = "6s 7s 8s Ts Js Qs Ks As 6c 7c 8c Tc 6d 7d 8h Th Jh Qh"


def test_answers_the_opponents_card_with_the_least_answerable_card():
    for voluntary in (False, True):
        state = play(one_v_one(voluntary, ANSWERER), ["9h"])
        assert choice(state) == "Th"


def test_passes_on_the_partners_card_when_passing_is_free():
    game = pyspiel.load_game("skip_domino(players=4,deck=36,remove4=false,voluntary_pass=true)")
    d = cards.deck(36).tolist()
    state = deal(game.new_initial_state(), {p: d[9 * p : 9 * p + 9] for p in range(4)})
    state = play(state, ["7s"])  # seat 1 holds the clubs: 7c may go below or above
    assert len(state.legal_actions()) > 1
    assert choice(state) == "PASS"
