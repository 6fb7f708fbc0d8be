"""RULES.md §3 (Two Captains) and §4 (Little Country), through the public API."""

import numpy as np
import pyspiel
import pytest

from skip_ai import cards
from skip_ai.kernel.state import LOC
from skip_ai.scenario import deal, play

PASS = 5886


def start(game_string, hands, fill=False):
    game = pyspiel.load_game(game_string)
    return deal(game.new_initial_state(), hands, fill=fill)


def legal_text(state):
    p = state.current_player()
    return [state.action_to_string(p, a) for a in state.legal_actions()]


def quiet(state, n=1, avoid=""):
    """Play n moves one after another, each the first legal move that lays a new pile (else
    any move not naming ``avoid``, else PASS): moves that keep a scenario's piles alone."""
    for _ in range(n):
        texts = legal_text(state)
        lays = [t for t in texts if len(t) == 2]
        others = [t for t in texts if not avoid or avoid not in t]
        play(state, [(lays or others or texts)[0]])


def field_line(state, team):
    name = ("Red", "Black")[team]
    return [row for row in str(state).splitlines() if row.strip().startswith(f"{name} field")][0]


# --- §3.1 the deal, seat 0 first ------------------------------------------------------------


@pytest.mark.parametrize(
    "game_string,sizes",
    [
        ("skip_two_captains", [13] * 4),
        ("skip_two_captains(players=6,deck=52)", [9, 9, 8, 9, 9, 8]),
        ("skip_two_captains(players=6,deck=36)", [6] * 6),
        ("skip_little_country(jokers=true)", [14, 13, 14, 13]),
        ("skip_little_country(players=6,deck=36,jokers=true)", [7, 6, 6, 7, 6, 6]),
    ],
)
def test_deal_and_first_player(game_string, sizes):
    state = pyspiel.load_game(game_string).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    line = [row for row in state.observation_string(0).splitlines() if "hand sizes" in row][0]
    assert [int(x) for x in line.split(":")[1].split()] == sizes
    assert state.current_player() == 0


# --- §3.2 the moves -------------------------------------------------------------------------


def test_lay_add_beat_and_pile_values():
    """2 + J = 13 is not beaten by a King (13) but by an Ace (14)."""
    state = start("skip_two_captains", {0: "2h", 1: "Jh", 2: "Kh", 3: "Ah"}, fill=True)
    assert "2h" in legal_text(state)  # LAY a card of one's colour
    assert not any(t.startswith("2s") for t in legal_text(state))  # never a black card
    play(state, ["2h", "Jh on 2h"])
    assert "2h+Jh=13" in field_line(state, 0)
    assert "Kh beats 2h" not in legal_text(state)
    quiet(state)  # seat 2 lays one of its black cards
    assert "Ah beats 2h" in legal_text(state)
    play(state, ["Ah beats 2h"])
    assert field_line(state, 0).strip().startswith("Red field (0 piles")
    assert state.scores() == [0.0, 1.0]
    s = state.kernel_state()
    assert s[LOC + cards.from_str("Ah")] == s[LOC + cards.from_str("2h")] == 10  # out


def test_a_pile_holds_at_most_three_cards():
    state = start("skip_two_captains", {0: "2h 4h", 1: "3h 5h", 3: "2s"}, fill=True)
    play(state, ["2h", "3h on 2h"])
    quiet(state, 2, avoid="2h")  # seats 2, 3
    play(state, ["4h on 2h"])
    assert "2h+3h+4h=9" in field_line(state, 0)
    assert "5h on 2h" not in legal_text(state)
    assert "5h" in legal_text(state)


def test_add_only_to_own_piles_of_the_same_suit():
    state = start("skip_two_captains", {0: "2h 3d", 1: "4h 5d"}, fill=True)
    play(state, ["2h"])
    assert "4h on 2h" in legal_text(state) and "5d on 2h" not in legal_text(state)


# --- §3.3 compulsory moves, forced passes, the end ------------------------------------------


def test_pass_only_when_no_move_and_it_proves_the_hand():
    clubs = "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac"
    state = start("skip_two_captains", {0: "2h", 1: clubs}, fill=True)
    assert PASS not in state.legal_actions()
    quiet(state)
    assert state.legal_actions() == [PASS]  # seat 1: no red card, no black pile to beat
    play(state, ["PASS"])
    # from seat 0's point of view, seat 1 can never be dealt a red card any more
    for _ in range(20):
        r = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        s = r.kernel_state()
        assert all(s[LOC + c] != 1 for c in range(26, 52))


def test_the_game_ends_when_every_player_in_turn_passed():
    # Red seats hold only black cards, Black seats only red ones: nobody can move
    black = [c for c in cards.deck(36) if c < 26]
    red = [c for c in cards.deck(36) if c >= 26]
    state = start(
        "skip_two_captains(players=6,deck=36)",
        {0: black[:6], 1: black[6:12], 2: black[12:], 3: red[:6], 4: red[6:12], 5: red[12:]},
    )
    for _ in range(5):
        play(state, ["PASS"])
        assert not state.is_terminal()
    play(state, ["PASS"])
    assert state.is_terminal()
    assert state.returns() == [0.0] * 6 and state.scores() == [0.0, 0.0]


def own_colour_deal():
    d = cards.deck(36)
    return {
        0: [c for c in d if c // 13 == 2],
        1: [c for c in d if c // 13 == 3],
        2: [c for c in d if c // 13 == 0],
        3: [c for c in d if c // 13 == 1],
    }


def test_the_game_ends_when_nobody_holds_a_card_and_equal_fields_draw():
    state = start("skip_two_captains(deck=36)", own_colour_deal())
    while not state.is_terminal():
        quiet(state)  # every card laid as a pile of its own
    assert state.scores() == [18.0, 18.0]
    assert state.returns() == [0.0] * 4  # equal piles, equal values: a draw


def test_more_piles_wins():
    state = start("skip_two_captains(deck=36)", own_colour_deal())
    play(state, ["6d", "6h", "6s", "7c", "7d", "7h", "7s", "6c on 7c"])
    while not state.is_terminal():
        play(state, [[t for t in legal_text(state) if " on " not in t][0]])
    assert state.scores() == [18.0, 17.0]
    assert state.returns() == [1.0, 1.0, -1.0, -1.0]


def test_equal_piles_are_decided_by_value():
    """Over many random games: the winner has more piles, or as many and more value."""
    game = pyspiel.load_game("skip_two_captains(players=4,deck=36)")
    by_value = 0
    for seed in range(150):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(int(rng.choice(state.legal_actions())))
        lines = [field_line(state, t) for t in (0, 1)]
        piles = [int(row.split("(")[1].split()[0]) for row in lines]
        values = [int(row.split("value ")[1].split(")")[0]) for row in lines]
        expected = np.sign(piles[0] - piles[1]) or np.sign(values[0] - values[1])
        assert state.returns()[0] == expected
        by_value += piles[0] == piles[1] and values[0] != values[1]
    assert by_value > 0


# --- §4 Little Country ----------------------------------------------------------------------


def test_two_captains_has_none_of_little_countrys_rules():
    state = start("skip_two_captains", {0: "Qh", 1: "Kh", 2: "Ah"}, fill=True)
    play(state, ["Qh", "Kh"])
    assert "married" not in str(state)
    assert "Ah beats Qh" in legal_text(state)  # no marriage, no protection


def test_king_never_beats_a_queen_and_a_just_laid_queen_is_protected():
    state = start("skip_little_country", {0: "Qh", 2: "Kh", 3: "Ah"}, fill=True)
    play(state, ["Qh"])
    assert "protected" in field_line(state, 0)
    quiet(state)  # seat 1
    assert not any("beats Qh" in t for t in legal_text(state))  # seat 2: protected
    quiet(state)
    assert "Ah beats Qh" not in legal_text(state)  # seat 3: still protected
    quiet(state, 3)
    assert "protected" not in field_line(state, 0)  # seat 0 has played again
    assert "Kh beats Qh" not in legal_text(state)  # seat 2: the King loves her
    quiet(state)
    assert "Ah beats Qh" in legal_text(state)  # seat 3: an Ace may


def test_the_pass_count_restarts_when_a_protection_ends():
    hands = {
        0: "6d Qd 6s 7s 8s 9s",
        1: "Ts Js Qs Ks As 6c",
        2: "7c 8c 9c Tc Jc Qc",
        3: "Kc 7d 8d 9d Td Jd",
        4: "Kd Ad 6h 7h 8h 9h",
        5: "Th Jh Qh Kh Ah Ac",
    }
    state = start("skip_little_country(players=6,deck=36)", hands)
    play(state, ["6d", "PASS", "PASS", "Kc", "Kd beats 6d", "Ac"])
    play(state, ["Qd"])  # protected until seat 0 plays again
    play(state, ["PASS"] * 5)  # seats 1..5 cannot touch it
    play(state, ["PASS"])  # seat 0: the 6th pass in a row ...
    assert not state.is_terminal()  # ... but the count started again
    assert "consecutive passes: 1" in str(state)
    play(state, ["PASS", "PASS", "PASS"])  # seats 1, 2, 3
    assert legal_text(state) == ["Ad beats Qd"]  # seat 4: Kd may not, Ad must
    play(state, ["Ad beats Qd"])
    play(state, ["PASS"] * 5)
    assert not state.is_terminal()
    play(state, ["PASS"])
    assert state.is_terminal() and state.scores() == [0.0, 2.0]


def test_the_pass_count_restarts_also_for_a_queen_married_at_once():
    hands = {
        0: "Kd Qd 6s 7s 8s 9s",
        1: "Ts Js Qs Ks 6c 7c",
        2: "8c 9c Tc Jc Qc Kc",
        3: "As Ad 6d 7d 8d 9d",
        4: "Ac Td Jd 6h 7h 8h",
        5: "9h Th Jh Qh Kh Ah",
    }
    state = start("skip_little_country(players=6,deck=36)", hands)
    play(state, ["Kd", "PASS", "PASS", "As", "Ac", "PASS"])
    play(state, ["Qd"])  # married at once: no protection needed
    assert "Qd(married)" in field_line(state, 0)
    play(state, ["PASS"] * 5)
    play(state, ["PASS"])  # seat 0's turn: the count restarts
    assert not state.is_terminal() and "consecutive passes: 1" in str(state)


LITTLE_COUNTRY_6 = [  # issue 17's history: seat 4 lays Qs, married at once to Ks
    8,
    20,
    50,
    25,
    16,
    29,
    48,
    43,
    46,
    40,
    4,
    2,
    14,
    18,
    5,
    11,
    19,
    9,
    23,
    7,
    45,
    1,
    17,
    44,
    42,
    30,
    31,
    33,
    24,
    6,
    51,
    27,
    32,
    49,
    38,
    41,
    37,
    15,
    35,
    39,
    21,
    28,
    0,
    26,
    3,
    22,
    10,
    36,
    12,
    47,
    34,
    13,
    37,
    1495,
    1819,
    25,
    4,
    544,
    42,
    30,
    31,
    5658,
    19,
    4945,
    48,
    47,
    2586,
    1267,
    5052,
    166,
    4231,
    2424,
    45,
    1,
    1213,
    6,
    3624,
    27,
    3133,
    4779,
    24,
    5886,
    51,
    5886,
    2801,
    11,
    16,
    5886,
    5886,
    4066,
    35,
    5886,
    17,
    5886,
    5886,
    3959,
    5886,
    5886,
    780,
    5886,
    5886,
    5886,
    5886,
    5886,
    10,
    5886,
    5886,
    5886,
    5886,
    5886,
    5886,
]


def test_a_married_queens_layer_passing_does_not_end_the_game():
    state = pyspiel.load_game("skip_little_country(players=6)").new_initial_state()
    for a in LITTLE_COUNTRY_6:
        assert not state.is_terminal()
        state.apply_action(a)
    assert not state.is_terminal() and "consecutive passes: 1" in str(state)


def test_marriage_makes_king_and_queen_unbeatable_and_closed():
    state = start("skip_little_country", {0: "Kh 2h", 1: "Qh 3h", 3: "Ah"}, fill=True)
    play(state, ["Kh", "Qh"])
    assert field_line(state, 0).count("married") == 2
    quiet(state)
    assert not any("beats" in t and ("Kh" in t or "Qh" in t) for t in legal_text(state))
    quiet(state)
    assert not any(t.endswith("on Kh") or t.endswith("on Qh") for t in legal_text(state))


def test_a_marriage_has_one_child_which_is_a_pile_nobody_beats():
    state = start("skip_little_country", {0: "Kh 2h 3h", 1: "Qh 4h", 3: "Ah"}, fill=True)
    assert "child 2h" not in legal_text(state)
    play(state, ["Kh", "Qh"])
    assert "child 4h" not in legal_text(state)  # not on the marrying move
    quiet(state, 2)  # seats 2, 3
    assert {"child 2h", "child 3h"} <= set(legal_text(state))  # seat 0, a later turn
    play(state, ["child 2h"])
    assert "2h(child)" in field_line(state, 0) and state.scores()[0] == 3.0
    assert "child 4h" not in legal_text(state)  # once per marriage
    quiet(state, 2)
    assert not any("beats 2h" in t for t in legal_text(state))  # seat 3
    quiet(state)
    assert "3h on 2h" not in legal_text(state)


def test_jokers_lay_and_add_and_a_joker_pile_takes_any_card_of_its_colour_first():
    state = start("skip_little_country(jokers=true)", {0: "RJ 5h", 1: "3d 4h", 3: "Qd"}, fill=True)
    assert "RJ" in legal_text(state)  # LAY a joker of one's colour
    play(state, ["RJ"])
    assert {"3d on RJ", "4h on RJ"} <= set(legal_text(state))  # any red card first
    play(state, ["3d on RJ"])
    assert "RJ+3d=14" in field_line(state, 0)
    quiet(state)  # seat 2
    assert "Qd beats RJ" not in legal_text(state)  # 12 < 14: no joker-only pile now
    quiet(state)  # seat 3
    play(state, ["5h"])
    assert "4h on RJ" not in legal_text(state)  # the pile is a diamond pile now
    assert "4h on 5h" in legal_text(state)


def test_a_joker_only_pile_falls_to_q_k_a_of_its_colour():
    state = start("skip_little_country(jokers=true)", {0: "RJ", 2: "Qd Jd Kh"}, fill=True)
    play(state, ["RJ"])
    quiet(state)
    texts = legal_text(state)
    assert {"Qd beats RJ", "Kh beats RJ"} <= set(texts)  # a Queen included
    assert "Jd beats RJ" not in texts  # 11 is not more than 11


def test_a_joker_beats_an_opponent_pile_of_its_colour_under_11():
    state = start("skip_little_country(jokers=true)", {0: "5h", 1: "Jh", 2: "RJ"}, fill=True)
    play(state, ["5h", "Jh"])
    texts = legal_text(state)
    assert "RJ beats 5h" in texts
    assert "RJ beats Jh" not in texts  # 11 is not less than 11
    assert "RJ" not in texts  # not its colour: no LAY
