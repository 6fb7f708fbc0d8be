"""RULES.md §12.7 (Sixty-six for four: cut, offers, nines, redeal, contracts), through the API."""

import pytest

from skip_ai import IllegalActionError
from skip_ai.games import sixty_six as K
from skip_ai.kernel.rng import make_rng
from skip_ai.kernel.state import KNOWN
from skip_ai.scenario import play
from tests.sixty_six_helpers import (
    STD,
    C,
    dealt,
    first_round,
    game,
    hand,
    kernel,
    nines_state,
    second_round,
    texts,
)

# --- §12.7.1 cut ---------------------------------------------------------------------------


def test_cut_bottom_card_goes_to_the_dealer():
    state = game(cut=True).new_initial_state()
    assert len(state.chance_outcomes()) == 24
    state.apply_action(C("Ah"))  # not a nine nor a jack: it stays
    assert len(state.chance_outcomes()) == 23
    hands = {q: STD[q] for q in range(4)}
    hands[3] = ("Kh Th Qh", "Jh 9h")
    first_round(state, hands)
    play(state, ["TRUMP(s)"])
    second_round(state, hands)
    assert C("Ah") in hand(state, 3) and len(hand(state, 3)) == 6
    assert "Ah" in state.observation_string(0)


def test_three_cut_nines_score_3_for_the_dealer():
    state = game(cut=True).new_initial_state()
    for nine in ["9s", "9c"]:
        state.apply_action(C(nine))
        assert state.is_chance_node() and len(state.chance_outcomes()) == 23
    state.apply_action(C("9d"))
    assert state.scores() == [0.0, 3.0]  # the dealer is seat 3, team 1
    assert kernel(state)[K.SX_BOTTOM] == C("9d")
    assert kernel(state)[K.SX_PHASE] == K.PH_DEAL1


def test_cut_jack_the_dealer_cuts_once():
    state = game(cut=True).new_initial_state()
    state.apply_action(C("Js"))
    assert kernel(state)[K.SX_PHASE] == K.PH_CUT
    state.apply_action(C("9h"))  # the dealer's cut stays, even a nine, without award
    assert kernel(state)[K.SX_PHASE] == K.PH_DEAL1
    assert state.scores() == [0.0, 0.0]


# --- §12.7.2 offers ------------------------------------------------------------------------

NINES_HANDS = {
    0: ("9s 9c Ah", "Qs Jc Kc"),
    1: ("Ac Tc Ks", "Qc As Ad"),
    2: ("Js Td Kd", "Qd Jd 9d"),
    3: ("Th Kh Ts", "Qh Jh 9h"),
}


def test_every_seat_gets_an_offer_node_and_a_beaten_offer():
    state = first_round(game(nines=True).new_initial_state(), NINES_HANDS)
    play(state, ["TRUMP(s)"])
    assert state.current_player() == 0
    assert texts(state) == ["LEFT", "PASS", "RIGHT"]
    play(state, ["LEFT"])  # to seat 1, who holds Ks and Ac Tc: beaten
    assert state.scores() == [0.0, 2.0]
    s = kernel(state)
    assert s[KNOWN + C("9s")] == 15 and s[KNOWN + C("Ks")] == 15
    assert s[KNOWN + C("Tc")] == 15  # seat 1 shows his lowest club
    assert s[KNOWN + C("Ac")] != 15
    for q in (1, 2, 3):
        assert state.current_player() == q
        assert texts(state) == ["PASS"]
        play(state, ["PASS"])
    assert state.is_chance_node()


def test_offer_not_beaten_and_not_to_the_elder_hand():
    hands = {
        0: ("Ah Ac Ks", "Qs Jc Kc"),
        1: ("9s 9c Ad", "Qc As Tc"),
        2: ("Js Td Kd", "Qd Jd 9d"),
        3: ("Th Kh Ts", "Qh Jh 9h"),
    }
    state = first_round(game(nines=True, nines_declarer=False).new_initial_state(), hands)
    play(state, ["TRUMP(s)", "PASS"])
    assert texts(state) == ["LEFT", "PASS"]  # RIGHT is E (seat 0)
    play(state, ["LEFT"])  # seat 2 holds Js but no club: not beaten
    assert state.scores() == [0.0, 2.0]
    state = first_round(game(nines=True).new_initial_state(), hands)
    play(state, ["TRUMP(s)", "PASS"])
    assert texts(state) == ["LEFT", "PASS", "RIGHT"]


def test_a_team_that_offered_may_still_play_a_nines_game_but_not_redeal():
    hands = {
        0: ("9s 9c Jh", "Qs Jc Kc"),
        1: ("Ac Tc Ks", "Qc As Ad"),
        2: ("Js Td 9d", "9h Jd Qd"),
        3: ("Th Kh Ts", "Qh Ah Kd"),
    }
    state = first_round(game(nines=True, redeal=True).new_initial_state(), hands)
    play(state, ["TRUMP(s)", "LEFT", "PASS", "PASS", "PASS"])
    second_round(state, hands)
    play(state, ["PASS", "PASS"])
    assert texts(state) == ["NINES", "PASS"]  # seat 2: 9d 9h unused
    play(state, ["PASS", "PASS"])
    # seat 0 has 11 points, but his team played nines: no redeal
    assert state.current_player() == 0 and texts(state) == ["PASS"]


# --- §12.7.3 nines games -------------------------------------------------------------------


def test_two_dark_caught_or_not():
    state = nines_state()
    assert state.current_player() == 0
    assert texts(state) == ["NINES", "PASS"]
    play(state, ["NINES"])
    assert kernel(state)[K.SX_COUNT + 2] == 2  # the partner announces two
    assert texts(state) == ["FOUR_NINES", "TWO_DARK"]
    play(state, ["TWO_DARK"])
    assert state.current_player() == 1 and len(state.legal_actions()) == 4
    play(state, ["CATCH(s)"])
    assert "CATCH" not in state.information_state_string(3)  # secret
    assert state.current_player() == 3
    play(state, ["CATCH(h)"])
    assert texts(state) == ["9c", "9s"]
    play(state, ["9c"])  # not caught
    assert state.scores() == [2.0, 0.0]
    assert "catch0=sh" in state.information_state_string(2)
    assert state.current_player() == 1  # the phase goes on


def test_two_dark_caught_scores_for_the_catchers():
    state = nines_state()
    play(state, ["NINES", "TWO_DARK", "CATCH(c)", "CATCH(d)", "9c"])
    assert state.scores() == [0.0, 2.0]


def test_three_nines_are_laid_face_up():
    hands = {
        0: ("9s Ah Kd", "9c Jc Kc"),
        1: ("Ac Tc Ks", "Qc As Ad"),
        2: ("Js Td 9d", "Qd Jd Jh"),
        3: ("Th Kh Ts", "Qh 9h Qs"),
    }
    state = nines_state(hands)
    play(state, ["NINES"])
    assert texts(state) == ["THREE_NINES", "TWO_DARK"]
    play(state, ["THREE_NINES"])
    s = kernel(state)
    assert all(s[KNOWN + C(x)] == 15 for x in ["9s", "9c", "9d"])
    assert texts(state) == ["CATCH(c)", "CATCH(d)", "CATCH(s)"]
    play(state, ["CATCH(s)", "CATCH(c)", "9d"])
    assert state.scores() == [3.0, 0.0]


def test_four_nines():
    state = nines_state()
    play(state, ["NINES", "FOUR_NINES"])
    assert texts(state) == ["LEFT", "RIGHT"]
    play(state, ["LEFT"])  # seat 1: clubs, spades, diamonds, no heart
    assert state.scores() == [4.0, 0.0]
    state = nines_state()
    play(state, ["NINES", "FOUR_NINES", "RIGHT"])  # seat 3: no club
    assert state.scores() == [4.0, 0.0]


def test_nines_only_once_per_team():
    state = nines_state()
    play(state, ["NINES", "FOUR_NINES", "LEFT"])
    assert texts(state) == ["PASS"]
    play(state, ["PASS"])
    assert texts(state) == ["PASS"]  # seat 2 has two nines but the team played nines


def test_resample_keeps_the_announced_count():
    state = nines_state()
    play(state, ["NINES", "TWO_DARK"])
    for seed in range(10):
        r = state.resample_from_infostate(1, rng=make_rng(seed))
        assert sum(1 for c in hand(r, 2) if c % 13 == 7) == 2
        assert sum(1 for c in hand(r, 0) if c % 13 == 7) >= 2


# --- §12.7.4 redeal ------------------------------------------------------------------------


def test_redeal_for_a_weak_hand_then_no_redeal_in_the_redealt_deal():
    hands = {
        0: ("9s Js Qs", "9c Jc Qc"),
        1: ("Ac Tc Ks", "Kc As Ad"),
        2: ("Ts Td Kd", "Qd Jd 9d"),
        3: ("Th Kh Ah", "Qh Jh 9h"),
    }
    state = dealt(hands, redeal=True)
    assert texts(state) == ["PASS", "REDEAL"]  # 2+3+2+3 = 10 points
    play(state, ["PASS"])
    assert texts(state) == ["PASS"]  # seat 1: strong, 4 suits
    play(state, ["PASS", "PASS"])
    assert texts(state) == ["PASS", "REDEAL"]  # seat 3: five hearts
    play(state, ["REDEAL"])
    s = kernel(state)
    assert state.is_chance_node() and s[K.SX_DEALER] == 3 and s[K.SX_REDEALT] == 1
    state2 = dealt(hands, redeal=True)
    play(state2, ["REDEAL"])
    first_round(state2, hands)
    play(state2, ["TRUMP(s)"])
    second_round(state2, hands)
    assert kernel(state2)[K.SX_PHASE] == K.PH_PLAY  # no redeal phase in a redeal


# --- §12.7.5 contracts ---------------------------------------------------------------------

PIC_HANDS = {
    0: ("Ks Qs Js", "Kc Qc Ah"),
    1: ("As Ts 9s", "Ac Tc Jc"),
    2: ("Kd Qd Jd", "9c Ad Td"),
    3: ("Kh Qh Jh", "9d Th 9h"),
}


def test_bids_and_five_pictures():
    state = dealt(PIC_HANDS, contracts=True)
    assert texts(state) == ["BID(five pictures)", "BID(pyatak)", "BID(six)", "PASS"]
    play(state, ["BID(five pictures)"])
    # seat 1: no pictures: pyatak (catchable cards) or six
    assert texts(state) == ["BID(pyatak)", "BID(six)", "PASS"]
    play(state, ["PASS"])
    # seat 2, E's team: may bid the same contract only against the other team's bid
    assert "BID(five pictures)" not in texts(state)
    play(state, ["PASS"])
    assert "BID(five pictures)" not in texts(state)  # seat 3: three pictures
    play(state, ["PASS"])
    # the declarer discards keeping five pictures: only Ah
    assert state.current_player() == 0 and texts(state) == ["Ah"]
    play(state, ["Ah"])
    assert "Ah" not in state.information_state_string(1)  # face down
    assert state.current_player() == 1
    play(state, ["9s"])
    assert state.current_player() == 3
    play(state, ["9h"])
    assert state.current_player() == 0
    # X leads every trick, X+1 then X+3; the opponents follow suit if they can
    play(state, ["Ks"])
    assert texts(state) == ["As", "Ts"]
    for x, a, b in [("Ks", "Ts", "Th"), ("Qs", "As", "9d"), ("Js", "Ac", "Kh"), ("Kc", "Tc", "Qh")]:
        if x != "Ks":
            play(state, [x])
        play(state, [a, b])
    assert state.scores() == [0.0, 0.0]
    play(state, ["Qc", "Jc", "Jh"])  # the last card covered with its suit
    assert state.scores() == [0.0, 5.0]
    assert kernel(state)[K.SX_DEALER] == 3  # the same dealer deals again


def test_same_contract_overbid_by_the_elder_team():
    hands = {
        0: ("As Ts 9s", "Ac Tc Jc"),
        1: ("Ks Qs Js", "Kc Qc Ah"),
        2: ("Kd Qd Jd", "9c Ad Td"),
        3: ("Kh Qh Jh", "9d Th 9h"),
    }
    state = dealt(hands, contracts=True)
    play(state, ["PASS", "BID(five pictures)"])
    assert "BID(five pictures)" not in texts(state)  # seat 2: only four pictures... Kd Qd Jd
    play(state, ["PASS"])
    assert "BID(five pictures)" not in texts(state)  # seat 3 is in team 1 too


def test_six_pictures_needs_six_and_pyatak_lost_on_the_first_trick_taken():
    hands = {
        0: ("Ks Qs Js", "Kc Qc Jc"),
        1: ("As Ts 9s", "Ac Tc 9c"),
        2: ("Kd Qd Jd", "Kh Qh Jh"),
        3: ("Ad Td 9d", "Ah Th 9h"),
    }
    state = dealt(hands, contracts=True)
    assert "BID(six pictures)" in texts(state)
    play(state, ["BID(pyatak)", "PASS", "PASS", "PASS"])
    assert state.current_player() == 0  # pyatak: discards, X keeping a catchable card
    play(state, ["Jc", "9c", "9h"])
    play(state, ["Ks", "As", "Ah"])  # X+1 takes a trick: the contract is lost
    assert state.scores() == [0.0, 5.0]


def test_six_without_catchable_card_scores_at_once():
    hands = {
        0: ("As Ts Ks", "Qs Js 9s"),
        1: ("Ac Tc Kc", "Qc Jc 9c"),
        2: ("Ad Td Kd", "Qd Jd 9d"),
        3: ("Ah Th Kh", "Qh Jh 9h"),
    }
    state = dealt(hands, contracts=True)
    play(state, ["BID(six)", "PASS", "PASS", "PASS"])
    assert state.scores() == [6.0, 0.0]
    assert kernel(state)[K.SX_DEALER] == 3


def test_six_played_won_by_taking_every_trick():
    hands = {
        0: ("As Ts Ks", "Ac Tc Qc"),
        1: ("Qs Js 9s", "Jc 9c Qh"),
        2: ("Ad Td Kd", "Kc Jd 9d"),
        3: ("Ah Th Kh", "Qd Jh 9h"),
    }
    state = dealt(hands, contracts=True)
    play(state, ["BID(six)", "PASS", "PASS", "PASS"])
    assert state.current_player() == 0  # six: no discards
    for x in ["As", "Ts", "Ks", "Ac", "Tc", "Qc"]:
        assert state.scores() == [0.0, 0.0]
        if x == "Ts":  # X leads any card
            assert texts(state) == ["Ac", "Ks", "Qc", "Tc", "Ts"]
        play(state, [x])
        assert state.current_player() == 1
        play(state, [texts(state)[0]])
        assert state.current_player() == 3
        play(state, [texts(state)[0]])
    assert state.scores() == [6.0, 0.0]


def test_illegal_action_is_refused():
    state = dealt()
    with pytest.raises(IllegalActionError):
        state.apply_action(C("9h"))
