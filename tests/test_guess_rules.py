"""RULES.md §9 (Guess), through the public API with chosen deals."""

import numpy as np
import pyspiel
import pytest
from trick_helpers import hand_sizes, suit_hands

from skip_ai import IllegalActionError, cards
from skip_ai.kernel.bits import bit
from skip_ai.kernel.rng import make_rng
from skip_ai.kernel.state import LOC, NOT_HOLD
from skip_ai.scenario import deal, play

PASS = 162
OBS_COLUMN, OBS_ORIENT, OBS_FIRST, OBS_EMPTY_PASS = 300, 462, 464, 465

# 4 players, 52 cards, interleaved: rank index i of suit su goes to seat (i + su) % 4, so
# every seat holds 3 or 4 cards of every suit.
I0 = "2s 6s Ts As 5c 9c Kc 4d 8d Qd 3h 7h Jh"
I1 = "3s 7s Js 2c 6c Tc Ac 5d 9d Kd 4h 8h Qh"
I2 = "4s 8s Qs 3c 7c Jc 2d 6d Td Ad 5h 9h Kh"
I3 = "5s 9s Ks 4c 8c Qc 3d 7d Jd 2h 6h Th Ah"
INTERLEAVED = {0: I0, 1: I1, 2: I2, 3: I3}

# 6 players, 36 cards.
THREES = {
    0: "Ks 8s 6c 7c 6d 7d",
    1: "6s Ts 8c 9c 8d 9d",
    2: "7s 9s Qs As Tc Td",
    3: "Qh 9h Jc Qc Jd Qd",
    4: "7h Ah Kc Ac Kd Ad",
    5: "Kh 6h Js 8h Th Jh",
}


def without(hand: str, card: str) -> str:
    return " ".join(c for c in hand.split() if c != card)


def start(game_string: str, hands: dict) -> pyspiel.State:
    game = pyspiel.load_game(game_string)
    return deal(game.new_initial_state(), hands)


def legal(state) -> list[str]:
    """The legal actions as text, in action-id order (row-major: top row first)."""
    p = state.current_player()
    return [state.action_to_string(p, a) for a in state.legal_actions()]


def every_cell(hand: str, rows=("top", "bottom")) -> list[str]:
    ids = sorted(cards.cards_from_str(hand))
    return [f"{cards.to_str(c)} {row}" for row in rows for c in ids]


def stream_lines(state) -> list[str]:
    lines = str(state).splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith("  stream"))
    return lines[i:]


def obs(state, player=0) -> np.ndarray:
    return np.array(state.observation_tensor(player))


def singles(state, first: str, second: str) -> None:
    """Two one-card streams: each captain plays a card its partner cannot follow."""
    play(state, [f"{first} top", "PASS", f"{second} top", "PASS"])


# --- parameters ---------------------------------------------------------------------------


def test_defaults_and_the_dependent_tiebreak():
    assert (
        str(pyspiel.load_game("skip_guess"))
        == "skip_guess(deck=52,jokers=False,players=4,tiebreak=values)"
    )
    assert (
        str(pyspiel.load_game("skip_guess(jokers=true)"))
        == "skip_guess(deck=52,jokers=True,players=4,tiebreak=draw)"
    )
    assert (
        str(pyspiel.load_game("skip_guess(jokers=true,tiebreak=values)"))
        == "skip_guess(deck=52,jokers=True,players=4,tiebreak=values)"
    )
    game = pyspiel.load_game("skip_guess(players=6)")
    assert game.num_distinct_actions() == 163
    assert game.observation_tensor_size() == 466


def test_jokers_need_four_players():
    with pytest.raises((ValueError, pyspiel.SpielError), match="jokers=true needs players=4"):
        pyspiel.load_game("skip_guess(players=6,jokers=true)")
    with pytest.raises((ValueError, pyspiel.SpielError), match="tiebreak=coin"):
        pyspiel.load_game("skip_guess(tiebreak=coin)")


# --- rule 1: the deal, the first stream, turn order and columns in turn --------------------


@pytest.mark.parametrize(
    "game_string,sizes",
    [
        ("skip_guess", [13] * 4),
        ("skip_guess(deck=36)", [9] * 4),
        ("skip_guess(players=6)", [9, 9, 8, 9, 9, 8]),
        ("skip_guess(players=6,deck=36)", [6] * 6),
        ("skip_guess(jokers=true)", [14, 13, 14, 13]),  # the captains hold 14
        ("skip_guess(jokers=true,deck=36)", [10, 9, 10, 9]),
    ],
)
def test_deal_sizes(game_string, sizes):
    state = pyspiel.load_game(game_string).new_initial_state()
    deck = [a for a, _ in state.chance_outcomes()]
    rng = np.random.default_rng(2)
    while state.is_chance_node():
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert hand_sizes(state) == sizes
    assert len(deck) == sum(sizes)
    assert ({52, 53} <= set(deck)) == ("jokers=true" in game_string)
    assert state.current_player() == 0


def test_the_54_card_deal_gives_the_jokers_to_whoever_the_chance_says():
    hands = {0: I0 + " BJ", 1: I1, 2: I2 + " RJ", 3: I3}
    state = start("skip_guess(jokers=true)", hands)
    assert hand_sizes(state) == [14, 13, 14, 13]
    assert "seat 0 (team 0): 2s 6s Ts As 5c 9c Kc 4d 8d Qd 3h 7h Jh BJ" in str(state)


def test_teams_fill_columns_in_turn_in_plain_clockwise_order_4p():
    state = start("skip_guess", INTERLEAVED)
    order = []
    for move in ["Ts top", "7s bottom", "9h bottom", "Ah top", "Qd bottom", "Kd top"]:
        order.append(state.current_player())
        play(state, [move])
    assert order == [0, 1, 2, 3, 0, 1]
    assert stream_lines(state)[1:3] == ["    column     1    2    3", "    team      t0   t1   t0"]


def test_teams_fill_columns_in_turn_3v3():
    state = start("skip_guess(players=6,deck=36)", THREES)
    order = []
    for move in ["Ks top", "6s bottom", "9s middle", "Qh middle", "7h bottom", "Kh top"]:
        order.append(state.current_player())
        play(state, [move])
    assert order == [0, 1, 2, 3, 4, 5]
    assert state.current_player() == 0
    assert stream_lines(state) == [
        "  stream: started by team 0; orientation: top higher than bottom",
        "    column     1    2",
        "    team      t0   t1",
        "    top       Ks   Kh",
        "    middle    9s   Qh",
        "    bottom    6s   7h",
        "  taken: team 0 0 cards (value 0), team 1 0 cards (value 0)",
    ]


# --- rule 2: a move puts a card into an empty cell of the current column -------------------


def test_action_ids_and_texts():
    state = start("skip_guess", INTERLEAVED)
    ids = sorted(cards.cards_from_str(I0))
    assert state.legal_actions() == ids + [54 + c for c in ids]
    assert legal(state) == every_cell(I0)
    assert state.action_to_string(0, 54 + cards.from_str("Ts")) == "Ts bottom"
    assert state.action_to_string(0, PASS) == "PASS"
    state6 = start("skip_guess(players=6,deck=36)", THREES)
    assert legal(state6) == every_cell(THREES[0], ("top", "middle", "bottom"))
    assert state6.action_to_string(0, 108 + cards.from_str("Ks")) == "Ks bottom"


def test_the_card_goes_into_the_chosen_cell():
    state = start("skip_guess(players=6,deck=36)", THREES)
    play(state, ["Ks middle"])
    t = obs(state, 3)
    assert t[OBS_COLUMN + 54 + cards.from_str("Ks")] == 1
    assert t[OBS_COLUMN : OBS_COLUMN + 162].sum() == 1
    # the filled cell is taken; the other rows stay open
    assert legal(state) == ["6s top", "Ts top", "6s bottom", "Ts bottom"]
    with pytest.raises(IllegalActionError):
        state.apply_action(54 + cards.from_str("6s"))


# --- rule 3: one suit per column; the first column sets the orientation --------------------


def test_top_higher_set_by_the_first_column_and_kept_k2():
    state = start("skip_guess", INTERLEAVED)
    play(state, ["Ts top"])
    assert legal(state) == ["3s bottom", "7s bottom", "Js bottom"]  # any spade: both ways
    play(state, ["7s bottom"])
    assert "orientation: top higher than bottom" in str(state)
    t = obs(state)
    assert (t[OBS_ORIENT], t[OBS_ORIENT + 1], t[OBS_FIRST]) == (1, 0, 0)
    assert legal(state) == every_cell(I2)  # a new column: any card, any row
    play(state, ["9h bottom"])
    assert legal(state) == ["Th top", "Ah top"]
    play(state, ["Ah top", "Qd bottom"])
    assert legal(state) == ["Kd top"]


def test_top_lower_set_by_the_first_column_and_kept_k2():
    state = start("skip_guess", INTERLEAVED)
    play(state, ["6s top", "Js bottom"])
    assert "orientation: top lower than bottom" in str(state)
    assert obs(state)[OBS_ORIENT + 1] == 1
    play(state, ["Td top"])
    assert legal(state) == ["Jd bottom"]
    play(state, ["Jd bottom", "Kc bottom"])
    assert legal(state) == ["2c top", "6c top", "Tc top"]


def test_top_higher_set_by_the_first_column_and_kept_k3():
    state = start("skip_guess(players=6,deck=36)", THREES)
    play(state, ["Ks top"])
    assert legal(state) == ["6s middle", "Ts middle", "6s bottom", "Ts bottom"]
    play(state, ["6s bottom"])
    assert legal(state) == ["7s middle", "9s middle", "Qs middle"]  # strictly between
    play(state, ["9s middle", "Qh middle"])
    assert legal(state) == ["Ah top", "7h bottom"]
    play(state, ["7h bottom"])
    assert legal(state) == ["Kh top"]


def test_top_lower_set_by_the_first_column_and_kept_k3():
    state = start("skip_guess(players=6,deck=36)", THREES)
    play(state, ["8s top", "Ts middle"])
    # the third card must make the first column monotone: here increasing downwards
    assert legal(state) == ["Qs bottom", "As bottom"]
    play(state, ["Qs bottom"])
    assert "orientation: top lower than bottom" in str(state)
    play(state, ["Qh middle"])
    assert legal(state) == ["7h top", "Ah bottom"]
    play(state, ["Ah bottom"])
    assert legal(state) == ["6h top", "8h top", "Th top", "Jh top"]


def test_the_first_columns_last_card_may_complete_it_either_way_k3():
    state = start("skip_guess(players=6,deck=36)", THREES)
    play(state, ["8s middle", "Ts top"])
    assert legal(state) == ["7s bottom"]
    assert "orientation: not fixed yet" in str(state)
    assert obs(state)[OBS_FIRST] == 1


def test_the_first_columns_last_card_must_make_it_monotone_or_pass_k3():
    state = start("skip_guess(players=6,deck=36)", THREES)
    # 6s under 8s is legal (no look-ahead) though no card of a 36-card deck lies below 6
    play(state, ["8s top", "6s middle"])
    assert legal(state) == ["PASS"]  # seat 2 holds 7s 9s Qs As
    play(state, ["PASS"])
    assert state.scores() == [0.0, 2.0]
    assert state.current_player() == 3


def test_one_suit_per_column():
    state = start("skip_guess", INTERLEAVED)
    play(state, ["Ts top"])
    assert legal(state) == ["3s bottom", "7s bottom", "Js bottom"]  # seat 1's only spades
    play(state, ["7s bottom", "Kh top"])
    assert legal(state) == ["2h bottom", "6h bottom", "Th bottom"]  # seat 3's lower hearts


# --- rule 4: jokers -------------------------------------------------------------------------

J1 = {0: I0 + " Js", 1: without(I1, "Js") + " BJ", 2: I2 + " RJ", 3: I3}


def test_jokers_never_in_a_first_column_and_a_column_begun_with_a_joker():
    state = start("skip_guess(jokers=true)", J1)
    play(state, ["Ts top"])
    assert legal(state) == ["3s bottom", "7s bottom"]  # not the black joker
    play(state, ["7s bottom"])
    assert "RJ top" in legal(state) and "RJ bottom" in legal(state)
    play(state, ["RJ top"])
    # any red card of seat 3, any rank: the joker is exempt from the order
    assert legal(state) == [
        "3d bottom",
        "7d bottom",
        "Jd bottom",
        "2h bottom",
        "6h bottom",
        "Th bottom",
        "Ah bottom",
    ]
    play(state, ["Ah bottom"])
    assert stream_lines(state)[3:5] == ["    top       Ts   RJ", "    bottom    7s   Ah"]


def test_a_joker_joins_a_column_of_its_colour_only_exempt_from_the_order():
    state = start("skip_guess(jokers=true)", J1)
    play(state, ["Ts top", "7s bottom", "RJ top", "Ah bottom", "6s top"])
    # below the 6 only the 3 of spades, or the black joker (exempt from the order)
    assert legal(state) == ["3s bottom", "BJ bottom"]
    play(state, ["3s bottom", "4s bottom"])
    assert legal(state) == ["5s top", "9s top", "Ks top"]
    play(state, ["Ks top", "4d top"])
    # a black joker never joins a red column: seat 1 must pass while holding it
    assert legal(state) == ["PASS"]
    play(state, ["PASS"])
    assert state.current_player() == 2
    # the stream had a joker: it counts 11
    assert "taken: team 0 0 cards (value 0), team 1 9 cards (value 72)" in str(state)


J2 = {0: I0 + " Ah", 1: I1, 2: I2 + " RJ", 3: without(I3, "Ah") + " BJ"}


def test_two_jokers_never_share_a_column():
    state = start("skip_guess(jokers=true)", J2)
    play(state, ["Ts top", "7s bottom"])
    other = state.clone()
    play(state, ["RJ top"])
    assert legal(state) == [
        "3d bottom",
        "7d bottom",
        "Jd bottom",
        "2h bottom",
        "6h bottom",
        "Th bottom",
    ]
    # with a black card in the column the black joker may join, top or bottom
    play(other, ["8s top"])
    assert legal(other) == ["5s bottom", "BJ bottom"]
    state = start("skip_guess(jokers=true)", J2)
    play(state, ["Ts top", "7s bottom", "8s bottom"])
    assert legal(state) == ["9s top", "Ks top", "BJ top"]


# --- rules 5 and 6: the guess, the forced pass, the empty table ----------------------------


def test_the_first_card_of_a_column_may_make_it_impossible_to_finish():
    state = start("skip_guess", INTERLEAVED)
    play(state, ["Ts top", "7s bottom"])
    assert "2d top" in legal(state)  # nothing lies below a 2 in its suit: still legal


def test_a_forced_pass_gives_the_stream_to_the_other_team_whose_captain_starts():
    state = start("skip_guess", INTERLEAVED)
    play(state, ["Ts top", "7s bottom", "2d top", "PASS"])  # seat 3 (team 1) passes
    assert state.scores() == [3.0, 0.0]
    assert state.current_player() == 0
    assert stream_lines(state)[0] == "  stream: (empty)"
    # a new stream: a new first column, the orientation is open again
    play(state, ["As bottom"])
    assert legal(state) == ["3s top", "Js top"]
    play(state, ["3s top", "Ad bottom", "3d top", "2s bottom"])
    assert legal(state) == ["PASS"]  # seat 1: no spade below the 2
    play(state, ["PASS"])
    assert state.scores() == [3.0, 5.0]
    assert state.current_player() == 2  # team 1's captain
    assert "taken: team 0 3 cards (value 19), team 1 5 cards (value 36)" in str(state)


def test_a_forced_pass_proves_the_passer_holds_no_playable_card():
    state = start("skip_guess", suit_hands(4))  # seat p holds suit p
    play(state, ["2s top"])
    assert legal(state) == ["PASS"]  # seat 1 holds only clubs
    play(state, ["PASS"])
    spades = [cards.card_id(cards.SPADES, r) for r in range(2, 15)]
    assert state.kernel_state()[NOT_HOLD + 1] == sum(int(bit(c)) for c in spades)
    # seat 2's view: the 12 spades left, the clubs and the hearts are hidden
    spades_moved = 0
    for i in range(200):
        world = state.resample_from_infostate(2, rng=make_rng(i)).kernel_state()
        holders = [int(world[LOC + c]) for c in spades]
        assert 1 not in holders
        spades_moved += holders.count(3)
    assert spades_moved > 0  # the spades do move, only never to seat 1


def test_a_voluntary_move_proves_nothing():
    state = start("skip_guess", INTERLEAVED)
    play(state, ["Ts top", "7s bottom"])
    assert all(state.kernel_state()[NOT_HOLD + p] == 0 for p in range(4))


# 38 cards: seat 1 never holds a spade, seat 3 never a diamond, so each captain's card is a
# stream of its own, taken by the other team.
EMPTY_TWICE = {
    0: "6s 7s 8s 9s Ts Js Qs Ks As BJ",
    1: "6h 7h 8h 9h Th Jh Qh Kh Ah",
    2: "6d 7d 8d 9d Td Jd Qd Kd Ad RJ",
    3: "6c 7c 8c 9c Tc Jc Qc Kc Ac",
}


def test_two_passes_on_the_empty_table_end_the_game():
    state = start("skip_guess(jokers=true,deck=36)", EMPTY_TWICE)
    for rank in "6789TJQKA":
        singles(state, rank + "s", rank + "d")
    assert state.scores() == [9.0, 9.0]
    assert state.current_player() == 0
    assert legal(state) == ["PASS"]  # only the black joker: not a first column
    play(state, ["PASS"])
    assert state.scores() == [9.0, 9.0]  # an empty table gives nothing
    assert state.current_player() == 2
    assert obs(state)[OBS_EMPTY_PASS] == 1
    assert legal(state) == ["PASS"]
    play(state, ["PASS"])
    assert state.is_terminal()
    assert state.returns() == [0.0] * 4  # 9 : 9 cards, tiebreak draw


EMPTY_ONCE = {
    0: "6s 7s 8s 9s Ts Js Qs Ks As BJ",
    1: "6c 7h 8h 9h Th Jh Qh Kh Ah",
    2: "6d 7d 8d 9d Td Jd Qd Kd Ad 7c",
    3: "8c 9c Tc Jc Qc Kc Ac 6h RJ",
}


def test_a_pass_on_the_empty_table_gives_nothing_and_the_other_captain_starts():
    state = start("skip_guess(jokers=true,deck=36)", EMPTY_ONCE)
    for rank in "6789TJQKA":
        singles(state, rank + "s", rank + "d")
    play(state, ["PASS"])
    assert state.scores() == [9.0, 9.0]
    assert state.current_player() == 2
    assert "the last player passed on the empty table" in str(state)
    assert legal(state) == ["7c top", "7c bottom"]
    play(state, ["7c top", "Ac bottom"])
    assert obs(state)[OBS_EMPTY_PASS] == 0
    assert legal(state) == ["BJ top", "BJ bottom"]  # outside the first column a joker may start
    play(state, ["BJ top"])
    assert legal(state) == ["6c bottom"]  # any black card after a black joker
    play(state, ["6c bottom"])
    # rule 7: seat 2 is to move with no cards; the four cards on the table count for nobody
    assert state.is_terminal()
    assert state.scores() == [9.0, 9.0]
    assert "the cards on the table are discarded" in str(state)
    assert state.returns() == [0.0] * 4


# --- rule 7: the end and the outcome --------------------------------------------------------

# seat 1 holds only clubs and seat 3 only hearts: every card is a stream of its own
HIGH_LOW = {
    0: "8s 9s Ts Js Qs Ks As 9d Td Jd Qd Kd Ad",
    1: "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac",
    2: "2s 3s 4s 5s 6s 7s 2d 3d 4d 5d 6d 7d 8d",
    3: "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah",
}


def play_high_low(tiebreak: str) -> pyspiel.State:
    state = start(f"skip_guess(tiebreak={tiebreak})", HIGH_LOW)
    for high, low in zip(HIGH_LOW[0].split(), HIGH_LOW[2].split()):
        singles(state, high, low)
    return state


def test_a_captain_without_cards_ends_the_game_and_values_break_the_tie():
    state = play_high_low("values")
    assert state.is_terminal()  # seat 0 is to start, holding nothing
    assert state.scores() == [13.0, 13.0]
    assert "team 0 13 cards (value 62), team 1 13 cards (value 146)" in str(state)
    assert state.returns() == [-1.0, -1.0, 1.0, 1.0]


def test_tiebreak_draw_calls_equal_cards_a_draw():
    state = play_high_low("draw")
    assert state.is_terminal()
    assert state.returns() == [0.0] * 4


JOKER_VALUE = {
    0: "6h 6s 7s 8s 9s Ts Js Qs Ks As",
    1: "7h 8h 9h Th Jh Qh Kh Ah 6d",
    2: "RJ 7c 7d 8d 9d Td Jd Qd Kd Ad",
    3: "6c 8c 9c Tc Jc Qc Kc Ac BJ",
}


@pytest.mark.parametrize(
    "tiebreak,expected", [("values", [1.0, 1.0, -1.0, -1.0]), ("draw", [0.0] * 4)]
)
def test_a_joker_is_worth_11_in_the_tiebreak(tiebreak, expected):
    state = start(f"skip_guess(jokers=true,deck=36,tiebreak={tiebreak})", JOKER_VALUE)
    play(state, ["6h top", "7h bottom", "RJ top"])
    assert legal(state) == ["PASS"]  # seat 3: black cards and the black joker
    play(state, ["PASS"])  # team 0 takes 6h 7h RJ
    play(state, ["6s top", "PASS"])  # team 1 takes 6s
    play(state, ["7c top", "8c bottom", "7s top", "PASS"])  # team 1 takes 7c 8c 7s
    assert state.scores() == [3.0, 4.0]
    for diamond, spade in zip("789TJQK", "89TJQKA"):
        singles(state, diamond + "d", spade + "s")
    play(state, ["Ad top", "PASS"])
    assert state.is_terminal()  # seat 0 is to start, holding nothing
    # 11 : 11 cards; 24 + 84 = 108 against 28 + 77 = 105 (the joker counted 11)
    assert "team 0 11 cards (value 108), team 1 11 cards (value 105)" in str(state)
    assert state.returns() == expected


# As EMPTY_TWICE, but seat 2 holds the 7 of clubs and seat 3 the red joker.
MORE_CARDS = {**EMPTY_TWICE, 2: "6d 7d 8d 9d Td Jd Qd Kd Ad 7c", 3: "6c 8c 9c Tc Jc Qc Kc Ac RJ"}


def test_more_cards_taken_wins():
    state = start("skip_guess(jokers=true,deck=36)", MORE_CARDS)
    for rank in "6789TJQKA":
        singles(state, rank + "s", rank + "d")
    play(state, ["PASS", "7c top", "Ac bottom", "BJ top"])
    assert legal(state) == ["PASS"]  # seat 1 holds only hearts
    play(state, ["PASS"])
    assert state.is_terminal()  # seat 2, to start, holds nothing
    assert state.scores() == [9.0, 12.0]
    assert state.returns() == [-1.0, -1.0, 1.0, 1.0]
