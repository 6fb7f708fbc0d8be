"""RULES.md §12.1–12.6 (Sixty-six for four, «Шуба вчетвером»), through the public API."""

import numpy as np
import pyspiel
import pytest

from skip_ai.games import sixty_six as K
from skip_ai.kernel.rng import make_rng
from skip_ai.kernel.state import DEAL_PLAN, KNOWN, NOT_HOLD
from skip_ai.scenario import play
from tests.sixty_six_helpers import (
    DECLARE,
    NAME,
    STD,
    C,
    dealt,
    first_round,
    game,
    hand,
    kernel,
    texts,
    total,
)

# --- §12.1 / §12.2: cards, dealer, deal, trump ---------------------------------------------


def test_game_facts():
    g = game()
    assert g.num_distinct_actions() == 82
    assert g.num_players() == 4
    assert g.max_game_length() == 750
    assert game(cut=True).max_game_length() == 1920
    assert game(mode="deal").max_game_length() == 50
    assert game(mode="deal", nines=True).max_game_length() == 128
    with pytest.raises(ValueError):
        pyspiel.load_game(f"{NAME}(players=2)")


def test_card_order_and_points():
    assert [K.STRENGTH[C(x) % 13] for x in ["9s", "Js", "Qs", "Ks", "Ts", "As"]] == [
        0,
        1,
        2,
        3,
        4,
        5,
    ]
    assert K.points_of(np.int64(K.FULL_DECK)) == 120


def test_first_round_in_packets_of_three_from_the_elder_hand():
    state = game().new_initial_state()
    plan = [int(kernel(state)[DEAL_PLAN + i]) for i in range(12)]
    assert plan == [0] * 3 + [1] * 3 + [2] * 3 + [3] * 3
    assert len(state.chance_outcomes()) == 24
    first_round(state, STD)
    assert state.current_player() == 0
    # the trump is named among the suits of E's three cards, or a card is revealed
    assert texts(state) == ["REVEAL", "TRUMP(s)"]


def test_revealed_card_fixes_trump_unless_a_nine():
    state = first_round(game().new_initial_state(), STD)
    play(state, ["REVEAL"])
    assert state.is_chance_node()
    state.apply_action(C("Qs"))  # not a nine: spades
    assert kernel(state)[K.SX_TRUMP] == 0
    # E gets only 2 more chance cards in the second round
    assert [int(kernel(state)[DEAL_PLAN + i]) for i in range(12, 23)].count(0) == 2
    assert "Qs" in state.information_state_string(1)  # public


def test_revealed_nine_gives_a_second_choice_and_the_second_reveal_is_trump():
    hands = dict(STD)
    state = first_round(game().new_initial_state(), hands)
    play(state, ["REVEAL"])
    state.apply_action(C("9s"))
    assert state.current_player() == 0
    assert texts(state) == ["REVEAL", "TRUMP(s)"]
    play(state, ["REVEAL"])
    state.apply_action(C("9c"))  # a nine again: still trump
    assert kernel(state)[K.SX_TRUMP] == 1
    assert state.is_chance_node()


def test_a_nine_shown_by_the_cut_is_not_a_revealed_card():
    # issue 17's reproduction: the cut showed 9s, E was dealt 9s, revealed 9c: only TRUMP(c)
    state = game(mode="deal", cut=True).new_initial_state()
    for a in [7, 12, 7, 51, 38, 21, 11, 33, 50, 46, 9, 48, 49, 34, 64, 20]:
        state.apply_action(a)
    assert C("9s") in hand(state, 0) and kernel(state)[KNOWN + C("9s")] == 15
    assert texts(state) == ["REVEAL", "TRUMP(c)"]


def test_revealed_cards_are_only_those_e_revealed():
    # a marriage half shown in play is public in E's hand but was never revealed: it must not
    # count among "E's revealed cards", which the resampler uses to judge an offer (§12.7.2)
    hands = {
        0: ("Ks Ah 9d", "Qs Jc Th"),
        1: ("As Ts Ac", "Tc Kc Qc"),
        2: ("Js 9s Td", "Kd Qd Jd"),
        3: ("9c Ad Kh", "Qh Jh 9h"),
    }
    state = dealt(hands)
    play(state, ["Ks+marriage"])  # shows Qs
    assert kernel(state)[KNOWN + C("Qs")] == 15
    assert K.revealed_mask(kernel(state), 0) == 0
    state = first_round(game().new_initial_state(), hands)
    play(state, ["REVEAL"])
    state.apply_action(C("Qs"))
    assert K.revealed_mask(kernel(state), 0) == 1 << C("Qs")


# --- §12.3: follow suit, must trump, no duty to beat ----------------------------------------


def test_follow_suit_then_trump_then_anything():
    state = dealt()
    play(state, ["Jc"])
    assert texts(state) == ["Ac", "Kc", "Qc", "Tc"]  # follow, no duty to win
    play(state, ["Qc"])
    assert texts(state) == ["Js"]  # void in clubs: must trump
    play(state, ["Js"])
    assert texts(state) == sorted(STD[3][0].split() + STD[3][1].split())  # neither: anything
    play(state, ["9h"])
    assert state.current_player() == 2  # the trump won
    s = kernel(state)
    assert s[NOT_HOLD + 3] & K.suit_mask(1) and s[NOT_HOLD + 3] & K.suit_mask(0)
    assert not s[NOT_HOLD + 2] & K.suit_mask(0)  # seat 2 trumped: void in clubs only
    assert s[NOT_HOLD + 2] & K.suit_mask(1)


def test_no_duty_to_overtrump():
    state = dealt()
    play(state, ["Jc", "Qc", "Js", "9h"])  # seat 2 leads next
    play(state, ["Td"])
    play(state, ["Jh"])  # seat 3: hearts only
    play(state, ["As"])  # seat 0 void in diamonds: must trump
    assert texts(state) == ["Ad"]  # seat 1 follows diamonds
    play(state, ["Ad"])
    assert state.current_player() == 0


def test_resampling_respects_a_proved_void():
    state = dealt()
    play(state, ["Jc", "Qc", "Js", "9h"])
    for seed in range(20):
        r = state.resample_from_infostate(2, rng=make_rng(seed))
        held = hand(r, 3)
        assert not any(c // 13 in (0, 1) for c in held)


# --- §12.4 marriages, §12.5 declaring ------------------------------------------------------


def test_marriage_announced_when_leading_and_counted_after_a_trick():
    hands = {
        0: ("Ks Qs Ah", "9c Jc Th"),
        1: ("As Ts Ac", "Tc Kc Qc"),
        2: ("Js 9s Td", "Kd Qd Jd"),
        3: ("9d Ad Kh", "Qh Jh 9h"),
    }
    state = dealt(hands)
    assert "Qs+marriage" in texts(state) and "Ks+marriage" in texts(state)
    assert "DECLARE" not in texts(state)  # no trick yet
    play(state, ["Qs+marriage"])
    s = kernel(state)
    assert s[K.SX_MARR] == 40  # in trumps
    assert s[KNOWN + C("Ks")] == 15  # the other half is shown
    assert total(state, 0) == 0  # no trick yet: the marriage does not count
    play(state, ["As", "Js", "Kh"])  # seat 1 takes with the trump ace
    assert total(state, 0) == 0
    assert total(state, 1) == 11 + 3 + 2 + 4
    # team 1 leads; team 0 takes a trick: now its 40 counts
    play(state, ["Ac", "9s", "9d", "9c"])  # seat 2 must trump
    s = kernel(state)
    assert s[K.SX_TRICKS] == 1
    assert total(state, 0) == 40 + 11


def test_plain_marriage_is_20_and_plain_lead_announces_nothing():
    hands = {
        0: ("Kh Qh Ac", "9c Jc Th"),
        1: ("As Ts Ah", "Tc Kc Qc"),
        2: ("Js 9s Td", "Kd Qd Jd"),
        3: ("9d Ad Ks", "Qs Jh 9h"),
    }
    state = dealt(hands, trump="TRUMP(h)")
    play(state, ["Qh"])
    assert kernel(state)[K.SX_MARR] == 0
    state = dealt(hands, trump="TRUMP(c)")
    play(state, ["Kh+marriage"])
    assert kernel(state)[K.SX_MARR] == 20


def random_deal_states(params, seeds, pick, declare):
    """Random deals; yields (before, action, after) for the actions ``pick`` selects. A
    player declares when his team has 66, or with probability ``declare``; else never."""
    for seed in seeds:
        rng = np.random.default_rng(seed)
        state = game(mode="deal", **params).new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            a = int(rng.choice([x for x in legal if x != DECLARE]))
            if (
                DECLARE in legal
                and declare
                and (total(state, state.current_player() % 2) >= 66 or rng.random() < declare)
            ):
                a = DECLARE
            before = state.clone()
            state.apply_action(a)
            if pick(before, a, state):
                yield before, a, state


def expected_66(before, t):
    o = 1 - t
    if kernel(before)[K.SX_TRICKS + o] == 0:
        return 3
    return 2 if total(before, o) < 33 else 1


def test_declaration_true_3_2_1_or_false_3():
    seen = set()
    for before, _a, after in random_deal_states(
        {}, range(300), lambda b, a, s: b.is_player_node() and a == DECLARE, 0.05
    ):
        t = before.current_player() % 2
        # the cards of the unfinished trick count for nobody: totals are of taken tricks
        if total(before, t) >= 66:
            pts = expected_66(before, t)
            gain = [0, 0]
            gain[t] = pts
            seen.add(pts)
        else:
            gain = [0, 0]
            gain[1 - t] = 3
            seen.add("false")
        assert after.scores() == gain
        assert after.is_terminal()
    assert seen == {1, 2, 3, "false"}


def test_last_trick_66_or_last_trick_point():
    seen = set()

    def last_trick(b, a, s):
        return b.is_player_node() and a != DECLARE and s.is_terminal()

    for _before, _a, after in random_deal_states({}, range(100), last_trick, 0):
        s = kernel(after)
        t = int(s[K.SX_LAST_A])
        assert s[K.SX_LAST_TEXT] == K.R_LAST_TRICK
        if total(after, t) >= 66:
            seen.add("66")
            assert after.scores()[t] in (1, 2, 3)
        else:
            seen.add("point")
            assert after.scores()[t] == 1
    assert seen == {"66", "point"}


def test_declare_needs_a_trick_and_is_judged_at_once():
    state = dealt()
    assert DECLARE not in state.legal_actions()
    play(state, ["Jc", "Qc", "Js", "9h"])  # team 0 (seat 2) took 2+3+2+0 = 7
    play(state, ["DECLARE"])
    assert state.is_terminal() is False  # match: the next deal starts
    assert state.scores() == [0.0, 3.0]  # false: the opponents score 3
    assert kernel(state)[K.SX_DEALER] == 0  # the deal passed on


# --- §12.6 match outcome -------------------------------------------------------------------


def play_match(seed, steer):
    """A random match; while ``steer``, a team may declare falsely to hand the opponents 3
    board points, so as to reach 7:7 (the cross klin)."""
    rng = np.random.default_rng(seed)
    state = game().new_initial_state()
    while not state.is_terminal():
        before = state.scores()
        legal = state.legal_actions()
        a = int(rng.choice([x for x in legal if x != DECLARE]))
        if DECLARE in legal and steer:
            t = state.current_player() % 2
            if total(state, t) < 66 and before[1 - t] <= 4 and before[t] >= before[1 - t]:
                a = DECLARE
        state.apply_action(a)
    return state, before


def test_match_outcomes_shuba_klin_cross_klin():
    seen = set()
    for seed in range(60):
        state, before = play_match(seed, steer=seed % 2 == 0)
        final = state.scores()
        w = 0 if final[0] >= 8 else 1
        if before == [7.0, 7.0]:
            kind = 3
        elif final[1 - w] == 0:
            kind = 2
        else:
            kind = 1
        seen.add(kind)
        r = state.returns()
        assert r[w] == kind and r[w + 2] == kind and r[1 - w] == -kind
    assert seen == {1, 2, 3}


def test_win_stakes_and_deal_mode_returns():
    for stakes, mode in [("win", "match"), ("win", "deal"), ("graded", "deal")]:
        g = game(stakes=stakes, mode=mode)
        rng = np.random.default_rng(1)
        state = g.new_initial_state()
        while not state.is_terminal():
            state.apply_action(int(rng.choice(state.legal_actions())))
        d = state.scores()[0] - state.scores()[1]
        expect = d if (stakes, mode) == ("graded", "deal") else float(np.sign(d))
        assert state.returns() == [expect, -expect, expect, -expect]


def test_seven_seven_allows_no_extra():
    g = game(cut=True, nines=True, redeal=True, contracts=True)
    state = g.new_initial_state()
    s = kernel(state)
    s[K.SX_BOARD] = 7
    s[K.SX_BOARD + 1] = 7
    K.start_deal(s, 0)
    assert s[K.SX_NOX] == 1 and s[K.SX_PHASE] == K.PH_DEAL1
