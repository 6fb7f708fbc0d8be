"""RULES.md §13 (Rummy), rule by rule, through the public API: the deal, the up-card and every
draw from the face-down stock are applied as the chance actions they are."""

import numpy as np
import pyspiel
import pytest

from skip_ai import IllegalActionError, cards
from skip_ai.games.rummy import (
    CLAIM,
    DECLINE,
    DRAW_DISCARD,
    DRAW_STOCK,
    OBS_KNOWN,
    OBS_STOCK,
    meld_cards,
)
from skip_ai.kernel.rng import make_rng
from skip_ai.kernel.state import KNOWN, LOC
from skip_ai.scenario import deal, play

C = cards.from_str


def layoff(card: str, target: int) -> int:
    return 52 + 3 * C(card) + target


SET, BELOW, ABOVE = 0, 1, 2


def start(hands, up, players=2, max_turns=200):
    """Deal ``hands`` (seat → cards), then turn ``up`` as the up-card."""
    game = pyspiel.load_game(f"classic_rummy(players={players},max_turns={max_turns})")
    state = deal(game.new_initial_state(), hands)
    return play(state, [up])


def legal_text(state):
    p = state.current_player()
    return [state.action_to_string(p, a) for a in state.legal_actions()]


def hand(state, seat):
    line = state.observation_string(seat).split("hand: ")[1].splitlines()[0]
    return line if line != "-" else ""


def line(state, start_text):
    return [x.strip() for x in str(state).splitlines() if x.strip().startswith(start_text)][0]


def outcomes(state):
    return [a for a, _ in state.chance_outcomes()]


# Two hands with no meld and no near-meld among them; the other cards make the stock.
QUIET0 = "2s 5s 8s Js 3c 6c 9c Qc 4d 7d"
QUIET1 = "3s 6s 9s Qs 4c 7c Tc Kc 5d 8d"


# ----- rules 1–2: deal, up-card, stock -----------------------------------------------------


@pytest.mark.parametrize("players, size", [(2, 10), (3, 7), (4, 7), (5, 6), (6, 6)])
def test_deal_sizes_and_order(players, size):
    game = pyspiel.load_game(f"classic_rummy(players={players})")
    state = game.new_initial_state()
    order = []
    for i in range(players * size):
        assert state.is_chance_node() and len(outcomes(state)) == 52 - i
        c = outcomes(state)[0]
        state.apply_action(c)
        order.append(c)
    for q in range(players):  # round robin from seat 0, the dealer (n-1) last in each round
        assert hand(state, q) == cards.cards_to_str(sorted(order[q::players]))
    # the up-card: one more chance node over the undealt cards, then seat 0 draws
    assert state.is_chance_node() and len(outcomes(state)) == 52 - players * size
    up = outcomes(state)[-1]
    state.apply_action(up)
    assert state.current_player() == 0
    assert line(state, "pile") == f"pile (bottom first): {cards.to_str(up)}"
    assert line(state, "stock") == f"stock: {51 - players * size} cards face down"


def test_first_player_may_take_the_up_card_and_throw_it_back():
    state = start({0: QUIET0, 1: QUIET1}, "Ah")
    assert state.legal_actions() == [DRAW_STOCK, DRAW_DISCARD]
    assert legal_text(state) == ["DRAW_STOCK", "DRAW_DISCARD"]
    play(state, ["DRAW_DISCARD"])
    assert "Ah" in hand(state, 0) and line(state, "pile") == "pile (bottom first): -"
    assert C("Ah") in state.legal_actions()  # no restriction on the card just taken
    play(state, ["Ah"])
    assert state.current_player() == 1 and line(state, "pile") == "pile (bottom first): Ah"


# ----- rules 3–4: turns and draws --------------------------------------------------------


def test_a_turn_is_draw_then_melds_then_one_discard():
    state = start({0: QUIET0, 1: QUIET1}, "Ah")
    # before the draw nothing but a draw
    assert all(a >= DRAW_STOCK for a in state.legal_actions())
    play(state, ["DRAW_STOCK"])
    assert state.is_chance_node() and len(outcomes(state)) == 31
    assert C("Ah") not in outcomes(state)
    play(state, ["Kh"])
    assert state.current_player() == 0
    # the quiet hand has no meld: only the 11 discards
    assert state.legal_actions() == sorted(C(c) for c in (QUIET0 + " Kh").split())
    play(state, ["Kh"])
    assert state.current_player() == 1 and state.legal_actions() == [DRAW_STOCK, DRAW_DISCARD]
    assert line(state, "pile") == "pile (bottom first): Ah Kh"
    assert line(state, "turn") == "turn 2 of at most 200, seat 1's"


def test_a_stock_draw_is_seen_by_the_drawer_alone_a_pile_draw_by_everyone():
    state = start({0: QUIET0, 1: QUIET1}, "Ah")
    play(state, ["DRAW_STOCK", "Kh", "Kh", "DRAW_STOCK", "Jh"])
    assert state.information_state_string(1).split()[-1] == "c:Jh"
    assert state.information_state_string(0).split()[-1] == "c:?1"
    assert line(state, "known in hands") == "known in hands: -"
    play(state, ["Jh", "DRAW_DISCARD"])  # seat 0 takes the Jack seat 1 threw
    assert line(state, "known in hands") == "known in hands: seat 0: Jh"
    s = state.kernel_state()
    assert s[LOC + C("Jh")] == 0 and s[KNOWN + C("Jh")] == 0b11
    obs = np.array(state.observation_tensor(1))
    assert obs[OBS_KNOWN + 52 * 1 + C("Jh")] == 1.0  # relative seat 1 of seat 1 is seat 0


# ----- rule 5: melds -----------------------------------------------------------------------


def test_meld_action_ids_of_rules():
    assert meld_cards(273) == sum(1 << C(c) for c in ("As", "2s", "3s"))
    assert meld_cards(283) == sum(
        1 << C(c) for c in "As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks".split()
    )
    assert meld_cards(492) == sum(1 << C(c) for c in ("3h", "4h", "5h"))
    assert meld_cards(536) == sum(1 << C(c) for c in ("Jh", "Qh", "Kh"))
    # MELD_SET: k = the suit left out, 4 = all four
    assert meld_cards(208 + 5 * (7 - 2) + 1) == sum(1 << C(c) for c in ("7s", "7d", "7h"))
    assert meld_cards(208 + 5 * (14 - 2) + 4) == sum(1 << C(c) for c in ("As", "Ac", "Ad", "Ah"))


def test_sets_and_ace_low_sequences():
    state = start({0: "As 2s 3s 4s 7c 7d 7h 7s Qh Kh", 1: "5s 9s Js 2c 5c 9c Jc 2d 5d Td"}, "5h")
    play(state, ["DRAW_STOCK", "Ah"])
    melds = [t for t in legal_text(state) if t.startswith("meld")]
    # Q-K-A and K-A-2 are no sequences; A-2-3 and A-2-3-4 are
    assert melds == [
        "meld 7c7d7h",
        "meld 7s7d7h",
        "meld 7s7c7h",
        "meld 7s7c7d",
        "meld 7s7c7d7h",
        "meld As2s3s",
        "meld As2s3s4s",
        "meld 2s3s4s",
    ]
    ids = [a for a in state.legal_actions() if a >= 208]
    assert ids == [233, 234, 235, 236, 237, 273, 274, 273 + 11]
    play(state, ["meld 7s7c7d7h", "meld As2s3s4s"])
    assert line(state, "melds") == "melds: 7s7c7d7h As2s3s4s"
    assert hand(state, 0) == "Qh Kh Ah"
    assert [t for t in legal_text(state) if not t.startswith("lay")] == ["Qh", "Kh", "Ah"]
    # the table is public
    assert "melds: 7s7c7d7h As2s3s4s" in state.observation_string(1)


def test_a_meld_must_leave_a_card_in_hand():
    state = start({0: "As 2s 3s 4s 5s 6s 7s 8s 9s Ts", 1: "2c 5c 8c Jc 3d 6d 9d Qd 4h 7h"}, "5h")
    play(state, ["DRAW_STOCK", "Js"])
    melds = [t for t in legal_text(state) if t.startswith("meld")]
    assert "meld As2s3s4s5s6s7s8s9sTs" in melds  # 10 of 11 cards
    assert "meld As2s3s4s5s6s7s8s9sTsJs" not in melds  # all 11: no
    play(state, ["meld 2s3s4s5s6s7s8s9sTsJs"])
    assert hand(state, 0) == "As"
    # one card left: no lay-off (As fits below 2s), only the discard
    assert legal_text(state) == ["As"]


# ----- rule 6: lay-offs ----------------------------------------------------------------------

HEARTS = "2h 3h 4h 6h 7h 8h 5s 5c 5d 5h"
QUIET_H = "3s 6s 9s Qs 4c 7c Tc Kc 4d 8d"


def test_one_card_with_three_targets():
    state = start({0: HEARTS, 1: QUIET_H}, "Kd")
    play(state, ["DRAW_STOCK", "Qd", "meld 2h3h4h", "meld 6h7h8h", "meld 5s5c5d"])
    assert line(state, "melds") == "melds: 2h3h4h 6h7h8h 5s5c5d"
    lays = [a for a in state.legal_actions() if 52 <= a < 208]
    assert lays == [layoff("5h", SET), layoff("5h", BELOW), layoff("5h", ABOVE)]
    assert [state.action_to_string(0, a) for a in lays] == [
        "lay 5h set",
        "lay 5h below",
        "lay 5h above",
    ]
    play(state, ["lay 5h above"])
    assert line(state, "melds") == "melds: 2h3h4h5h 6h7h8h 5s5c5d"
    assert legal_text(state) == ["Qd"]  # one card left


def test_lay_off_on_another_players_melds_ace_only_below_a_two_nothing_above_a_king():
    state = start({0: "2h 3h 4h Jc Qc Kc 9s 9d Ts Td", 1: "Ah 5h Ac 9h 9c Tc 3s 6d 8d Qs"}, "Kd")
    play(state, ["DRAW_STOCK", "7s", "meld 2h3h4h", "meld JcQcKc", "7s"])
    play(state, ["DRAW_STOCK", "4c"])
    lays = [state.action_to_string(1, a) for a in state.legal_actions() if 52 <= a < 208]
    # Tc below Jc; 5h above 4h; Ah below 2h; Ac fits nowhere (no Q-K-A, no K-A-2)
    assert lays == ["lay Tc below", "lay 5h above", "lay Ah below"]
    play(state, ["lay Ah below", "lay 5h above", "lay Tc below"])
    assert line(state, "melds") == "melds: Ah2h3h4h5h TcJcQcKc"
    # each lay-off moves the target: 9c now fits below Tc, nothing fits above Kc
    assert [state.action_to_string(1, a) for a in state.legal_actions() if 52 <= a < 208] == [
        "lay 9c below"
    ]


def test_the_fourth_card_of_a_set():
    state = start({0: "9s 9d 9h 2c 5c 8c Jc 3d 6d Kd", 1: "9c 2s 5s 8s Js 4d 7d Qd 3h 6h"}, "Kh")
    play(state, ["DRAW_STOCK", "Ah", "meld 9s9d9h", "Ah"])
    play(state, ["DRAW_STOCK", "Th"])
    assert "lay 9c set" in legal_text(state)
    play(state, ["lay 9c set"])
    assert line(state, "melds") == "melds: 9s9c9d9h"


# ----- rules 7–8: the last card, claims ----------------------------------------------------


def test_discarding_the_last_card_goes_out_and_opens_no_window():
    # seat 1 lays its last but one card off, then throws a card that fits: out, no claim
    state = start({0: "2h 3h 4h Jc Qc Kc 5s 8s Ts Td", 1: "As 2s 3s 4s 5d 6d 7d 8d 9d 5h"}, "Kd")
    play(state, ["DRAW_STOCK", "7c", "meld 2h3h4h", "meld JcQcKc", "7c"])
    play(state, ["DRAW_STOCK", "6h", "meld As2s3s4s", "meld 5d6d7d8d9d"])
    assert hand(state, 1) == "5h 6h"
    play(state, ["lay 5h above"])
    assert legal_text(state) == ["6h"]
    play(state, ["6h"])  # 6h fits above 2h..5h, but it was the last card
    assert state.is_terminal()
    # seat 1 had put nothing down before this turn: a tablecloth, against 5s 8s Ts Td = 33
    assert line(state, "seat 1 went out") == "seat 1 went out with a tablecloth (double): -66 +66"
    assert state.returns() == [-66, 66]


def claim_table():
    """Seat 0 melds 6h7h8h and throws 9h (it fits above): a claim window for seats 1, 2."""
    state = start(
        {0: "6h 7h 8h 9h 2c 3d 4s", 1: "Qs Qc 2d 5c 8d Jh Ks", 2: "5h 9s 3c 6d Td Ac Kc"},
        "Ad",
        players=3,
    )
    play(state, ["DRAW_STOCK", "Kd", "meld 6h7h8h", "9h"])
    return state


def test_a_fitting_discard_opens_a_window_all_decline():
    state = claim_table()
    assert state.current_player() == 1 and legal_text(state) == ["RUMMY", "DECLINE"]
    assert state.legal_actions() == [CLAIM, DECLINE]
    assert line(state, "claim window") == "claim window: seat 0's discard 9h fits a meld"
    play(state, ["DECLINE"])
    assert state.current_player() == 2 and legal_text(state) == ["RUMMY", "DECLINE"]
    play(state, ["DECLINE"])  # the discarder is not asked: the next turn starts
    assert state.current_player() == 1 and legal_text(state) == ["DRAW_STOCK", "DRAW_DISCARD"]


def test_a_claim_with_a_chained_counter_claim():
    state = claim_table()
    play(state, ["DECLINE", "RUMMY"])
    # one target: laid off at once; the claimer must discard
    assert line(state, "melds") == "melds: 6h7h8h9h"
    assert state.current_player() == 2
    assert (
        legal_text(state)
        == cards.cards_to_str(sorted(C(c) for c in "5h 9s 3c 6d Td Ac Kc".split())).split()
    )
    play(state, ["5h"])  # fits below 6h: a new window, from the claimer's left
    assert state.current_player() == 0 and legal_text(state) == ["RUMMY", "DECLINE"]
    assert line(state, "claim window") == "claim window: seat 2's discard 5h fits a meld"
    play(state, ["RUMMY"])  # the counter-claim
    assert line(state, "melds") == "melds: 5h6h7h8h9h"
    assert state.current_player() == 0
    play(state, ["Kd"])  # fits nothing: the chain ends
    # turn order unchanged: seat 1 plays after seat 0's turn; claims are no turns
    assert state.current_player() == 1 and legal_text(state) == ["DRAW_STOCK", "DRAW_DISCARD"]
    assert line(state, "turn") == "turn 2 of at most 200, seat 1's"
    assert line(state, "pile") == "pile (bottom first): Ad Kd"
    assert hand(state, 0) == "4s 2c 3d" and hand(state, 2) == "9s 3c Kc Ac 6d Td"


def test_in_a_chained_window_everyone_but_the_claimer_is_asked():
    state = claim_table()
    play(state, ["DECLINE", "RUMMY", "5h"])
    play(state, ["DECLINE"])
    assert state.current_player() == 1 and legal_text(state) == ["RUMMY", "DECLINE"]
    play(state, ["DECLINE"])
    assert state.current_player() == 1 and legal_text(state) == ["DRAW_STOCK", "DRAW_DISCARD"]


def test_a_claimed_card_with_three_targets_is_laid_off_where_the_claimer_chooses():
    state = start({0: HEARTS, 1: QUIET_H}, "Kd")
    play(state, ["DRAW_STOCK", "Qd", "meld 2h3h4h", "meld 6h7h8h", "meld 5s5c5d", "5h"])
    assert state.current_player() == 1  # with two players the one opponent is asked
    play(state, ["RUMMY"])
    assert state.current_player() == 1
    assert legal_text(state) == ["lay 5h set", "lay 5h below", "lay 5h above"]
    play(state, ["lay 5h set"])
    assert line(state, "melds") == "melds: 2h3h4h 6h7h8h 5s5c5d5h"
    assert len(state.legal_actions()) == 10 and all(a < 52 for a in state.legal_actions())
    play(state, ["Kc"])
    # the claimer's own normal turn follows (two players)
    assert state.current_player() == 1 and legal_text(state) == ["DRAW_STOCK", "DRAW_DISCARD"]
    assert line(state, "pile") == "pile (bottom first): Kd Kc"


def test_a_claimer_who_discards_his_last_card_goes_out_never_a_tablecloth():
    state = start({0: "Ts Qd 2c 5c 8c Jc 3d 6d 9d Kh", 1: "As 2s 3s 4s 5s 6s 7s 8s 9s Kc"}, "4h")
    play(state, ["DRAW_STOCK", "Jh", "Jh"])
    play(state, ["DRAW_STOCK", "Qc", "meld As2s3s4s5s6s7s8s9s", "Qc"])
    assert hand(state, 1) == "Kc"
    play(state, ["DRAW_STOCK", "7h", "Ts"])  # fits above 9s
    play(state, ["RUMMY"])
    assert legal_text(state) == ["Kc"]
    play(state, ["Kc"])
    assert state.is_terminal()
    count0 = 10 + 2 + 5 + 8 + 10 + 3 + 6 + 9 + 10 + 7  # Qd 2c 5c 8c Jc 3d 6d 9d Kh 7h
    assert state.returns() == [-count0, count0]
    assert state.scores() == [0, count0]


# ----- rule 9: the turn-over --------------------------------------------------------------


def test_turn_over_without_shuffling_gives_the_exact_stock_order():
    game = pyspiel.load_game("classic_rummy(players=6)")
    state = deal(game.new_initial_state(), {}, fill=True)  # 36 cards dealt
    up = outcomes(state)[0]
    state.apply_action(up)
    pile = [up]
    for _ in range(15):  # every turn draws from the stock and throws the drawn card
        play(state, ["DRAW_STOCK"])
        c = outcomes(state)[-1]
        play(state, [c, c])
        pile.append(c)
    # the stock is empty: the next turn starts with the turn-over, the bottom card stays as the
    # new pile, the rest becomes the stock in the same order (oldest first)
    assert state.current_player() == 15 % 6
    assert line(state, "pile") == f"pile (bottom first): {cards.to_str(pile[0])}"
    assert line(state, "stock") == (
        "stock (turned over 1×, next first): " + cards.cards_to_str(pile[1:])
    )
    obs = np.array(state.observation_tensor(0))
    assert obs[OBS_STOCK + pile[1]] == pytest.approx(1 / 52)
    assert obs[OBS_STOCK + pile[15]] == pytest.approx(15 / 52)
    # draws are automatic now: no chance node, the card is public
    for i in range(1, 4):
        p = state.current_player()
        play(state, ["DRAW_STOCK"])
        assert not state.is_chance_node() and state.current_player() == p
        assert cards.to_str(pile[i]) in line(state, "known in hands")
        assert state.information_state_string((p + 1) % 6).split()[-1] == f"{p}:DRAW_STOCK"
        play(state, [pile[i]])
    assert line(state, "stock") == (
        "stock (turned over 1×, next first): " + cards.cards_to_str(pile[4:])
    )


# ----- rules 10–11: tablecloth, score and returns -----------------------------------------

LOSER = "As 2s 4s 6s 8s Qs 3d 5d 7d 9d"  # 1+2+4+6+8+10+3+5+7+9 = 55


def test_tablecloth_doubles():
    state = start({0: "2h 3h 4h 5h 7c 8c 9c Ts Tc Td", 1: LOSER}, "6c")
    play(state, ["DRAW_STOCK", "Kd", "meld 2h3h4h5h", "meld 7c8c9c", "meld TsTcTd", "Kd"])
    assert state.is_terminal()
    assert state.returns() == [110, -110] and state.scores() == [110, 0]
    assert "with a tablecloth (double)" in line(state, "seat 0 went out")


def test_no_tablecloth_after_an_earlier_meld():
    state = start({0: "2h 3h 4h 5h 7c 8c 9c Ts Tc Qd", 1: LOSER}, "6c")
    play(state, ["DRAW_STOCK", "Td", "meld 7c8c9c", "Qd"])
    assert state.returns() == [0, 0] and state.scores() == [0, 0]
    play(state, ["DRAW_STOCK", "Js", "Js"])
    play(state, ["DRAW_STOCK", "Kd", "meld 2h3h4h5h", "meld TsTcTd", "Kd"])
    assert state.is_terminal()
    assert state.returns() == [55, -55] and state.scores() == [55, 0]
    assert line(state, "seat 0 went out") == "seat 0 went out: +55 -55"


def test_returns_with_more_players_ace_one_pictures_ten():
    state = start(
        {0: "2h 3h 4h 5h 7c 8c 9c", 1: "Ah Kd Qs 2s 3s 4d 6s", 2: "Jc Jd Js Tc 2d 3c 4c"},
        "6c",
        players=3,
    )
    play(state, ["DRAW_STOCK", "9d", "meld 2h3h4h5h", "meld 7c8c9c", "9d"])
    c1 = 1 + 10 + 10 + 2 + 3 + 4 + 6
    c2 = 10 + 10 + 10 + 10 + 2 + 3 + 4
    assert state.returns() == [2 * (c1 + c2), -2 * c1, -2 * c2]
    assert state.scores() == [2 * (c1 + c2), 0, 0]


# ----- rule 12: the cap ---------------------------------------------------------------------


def test_dead_hand_after_max_turns():
    state = start({0: QUIET0, 1: QUIET1}, "Ah", max_turns=3)
    play(state, ["DRAW_STOCK", "Kh", "Kh", "DRAW_DISCARD", "Kh"])
    assert not state.is_terminal()
    play(state, ["DRAW_STOCK", "Jh", "Jh"])
    assert state.is_terminal()
    assert state.returns() == [0, 0] and state.scores() == [0, 0]
    assert "dead hand" in str(state)


def test_claims_are_not_turns():
    state = claim_table()
    game_cap = pyspiel.load_game("classic_rummy(players=3,max_turns=1)")
    capped = game_cap.new_initial_state()
    for a in state.history():
        capped.apply_action(a)
    play(capped, ["DECLINE", "RUMMY", "5h", "RUMMY", "Kd"])
    assert capped.is_terminal() and capped.returns() == [0, 0, 0]


# ----- information and resampling ---------------------------------------------------------


def test_resampling_keeps_cards_taken_from_the_pile_and_moves_stock_draws():
    state = start({0: QUIET0, 1: QUIET1}, "Ah")
    play(
        state,
        [
            "DRAW_STOCK",
            "Kh",
            "Kh",
            "DRAW_DISCARD",
            "Qs",
            "DRAW_STOCK",
            "Jh",
            "Jh",
            "DRAW_STOCK",
            "Th",
        ],
    )
    # seat 1 holds Kh (taken from the pile: public) and Th (from the stock: private)
    moved = set()
    for seed in range(40):
        r = state.resample_from_infostate(0, rng=make_rng(seed))
        s = r.kernel_state()
        assert s[LOC + C("Kh")] == 1
        assert r.information_state_string(0) == state.information_state_string(0)
        if s[LOC + C("Th")] != 1:
            moved.add(seed)
        assert hand(r, 0) == hand(state, 0)
    assert moved


def test_illegal_actions_are_refused():
    state = start({0: QUIET0, 1: QUIET1}, "Ah")
    with pytest.raises(IllegalActionError):
        state.apply_action(C("2s"))  # a discard before the draw
    play(state, ["DRAW_STOCK", "Kh"])
    with pytest.raises(IllegalActionError):
        state.apply_action(CLAIM)
    with pytest.raises(IllegalActionError):
        state.apply_action(DRAW_DISCARD)
