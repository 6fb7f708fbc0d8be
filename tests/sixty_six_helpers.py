"""Helpers of the Sixty-six rule tests (RULES.md §12): a game, hands dealt, the state read."""

import pyspiel

from skip_ai import cards
from skip_ai.games import sixty_six as K
from skip_ai.kernel.state import LOC, NUM_CARDS
from skip_ai.scenario import deal, play

C = cards.from_str
PASS, DECLARE, REVEAL = 66, 65, 64
NAME = "classic_sixty_six_4p"

# seat -> (first three cards, second three cards); the dealer is seat 3, E is seat 0
STD = {
    0: ("As Ts Ks", "Qs Jc 9c"),
    1: ("Ac Tc Kc", "Qc 9s Ad"),
    2: ("Js Td Kd", "Qd Jd 9d"),
    3: ("Ah Th Kh", "Qh Jh 9h"),
}


def game(**params):
    body = ",".join(f"{k}={str(v).lower()}" for k, v in params.items())
    return pyspiel.load_game(f"{NAME}({body})" if body else NAME)


def first_round(state, hands):
    return deal(state, {q: hands[q][0] for q in range(4)})


def second_round(state, hands):
    return deal(state, {q: hands[q][1] for q in range(4)})


def dealt(hands=STD, trump="TRUMP(s)", **params):
    state = first_round(game(**params).new_initial_state(), hands)
    play(state, [trump])
    while state.is_player_node():  # the offers of nines, if on: everybody passes
        play(state, ["PASS"])
    return second_round(state, hands)


def kernel(state):
    return state.kernel_state()


def total(state, t):
    return int(K.total(kernel(state), t))


def texts(state):
    p = state.current_player()
    return sorted(state.action_to_string(p, a) for a in state.legal_actions())


def hand(state, seat):
    return [c for c in range(NUM_CARDS) if kernel(state)[LOC + c] == seat]


# the hands of the nines-game tests (§12.7.3): seat 0 holds two nines, seat 2 two
GAME_HANDS = {
    0: ("9s Ah Kd", "9c Jc Kc"),
    1: ("Ac Tc Ks", "Qc As Ad"),
    2: ("Js Td 9d", "Qd Jd 9h"),
    3: ("Th Kh Ts", "Qh Jh Qs"),
}


def nines_state(hands=GAME_HANDS, **extra):
    return dealt(hands, nines=True, **extra)
