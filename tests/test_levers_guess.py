"""The designer's levers of Guess (RULES §0.7, issue 45; skip_ai/rules/skip_guess.md):
``first_seat``, ``seating`` and ``komi``, through the public API with chosen deals."""

import numpy as np
import pyspiel
import pytest
from test_guess_rules import EMPTY_TWICE, INTERLEAVED, THREES, singles, start, stream_lines
from trick_helpers import hand_sizes, suit_hands

from skip_ai.games import guess as K
from skip_ai.kernel.tricks import TK_TAKEN, TK_VALUE
from skip_ai.pyspiel_wrapper import variants
from skip_ai.scenario import play

DEFAULT = "skip_guess(deck=52,jokers=False,players=4,tiebreak=values)"
LEVER_VARIANTS = [v for v in variants(K.SPEC) if any(p.name in v for p in K.SPEC.levers)]


def order_of(state, moves: list[str]) -> list[int]:
    """The seats that make ``moves``, in turn."""
    seats = []
    for move in moves:
        seats.append(state.current_player())
        play(state, [move])
    return seats


def test_the_levers_at_their_defaults_leave_the_game_string_as_it_was():
    assert str(pyspiel.load_game("skip_guess")) == DEFAULT
    explicit = "skip_guess(first_seat=0,seating=side_by_side,komi=0)"
    assert str(pyspiel.load_game(explicit)) == DEFAULT
    assert [p.name for p in K.SPEC.levers] == ["first_seat", "seating", "komi"]


def test_every_lever_setting_is_a_variant():
    assert sorted(LEVER_VARIANTS) == sorted(
        [
            "skip_guess(first_seat=2)",  # seats 1, 3, 4, 5 are nobody's captain at the defaults
            "skip_guess(seating=alternate)",
            "skip_guess(komi=-8)",
            "skip_guess(komi=8)",
        ]
    )


@pytest.mark.parametrize(
    "game_string, bad, captains",
    [
        ("skip_guess", 1, "0 or 2"),
        ("skip_guess", 4, "0 or 2"),
        ("skip_guess(players=6,deck=36)", 1, "0 or 3"),
        ("skip_guess(seating=alternate)", 2, "0 or 1"),
    ],
)
def test_first_seat_must_be_a_captains_seat(game_string, bad, captains):
    sep = "," if "(" in game_string else "("
    bad_string = game_string.rstrip(")") + f"{sep}first_seat={bad})"
    with pytest.raises(ValueError, match=f"skip_guess: first_seat={bad} is not a captain's seat"):
        pyspiel.load_game(bad_string)
    with pytest.raises(ValueError, match=f": {captains} here"):
        pyspiel.load_game(bad_string)


def test_first_seat_2_gives_the_first_stream_to_team_1():
    state = start("skip_guess(first_seat=2)", INTERLEAVED)
    moves = ["Qs top", "5s bottom", "Ts top", "7s bottom", "Ad top", "7d bottom"]
    assert order_of(state, moves) == [2, 3, 0, 1, 2, 3]
    assert stream_lines(state)[0] == (
        "  stream: started by team 1; orientation: top higher than bottom"
    )


def test_first_seat_3_of_six_starts_with_the_second_captain():
    state = start("skip_guess(players=6,deck=36,first_seat=3)", THREES)
    moves = ["Qh top", "7h bottom", "8h middle", "Ks top", "Ts middle", "7s bottom"]
    assert order_of(state, moves) == [3, 4, 5, 0, 1, 2]


def test_alternate_seating_fills_each_column_by_a_team_from_its_captain():
    game = pyspiel.load_game("skip_guess(seating=alternate)")
    assert game.teams().tolist() == [0, 1, 0, 1]
    state = start("skip_guess(seating=alternate)", INTERLEAVED)
    moves = ["Ts top", "8s bottom", "Kd top", "3d bottom", "Qd top", "6d bottom"]
    assert order_of(state, moves) == [0, 2, 1, 3, 0, 2]
    assert stream_lines(state)[1:3] == [
        "    column     1    2    3",
        "    team      t0   t1   t0",
    ]


def test_alternate_seating_of_six():
    state = start("skip_guess(players=6,deck=36,seating=alternate)", THREES)
    # team 0 is seats 0, 2, 4 and team 1 seats 1, 3, 5
    assert order_of(state, ["6d bottom", "Td middle", "Kd top"]) == [0, 2, 4]
    assert state.current_player() == 1  # the other team's captain


def test_next_member_reads_the_seating():
    seatings = {
        "skip_guess": [1, -1, 3, -1],
        "skip_guess(seating=alternate)": [2, 3, -1, -1],
        "skip_guess(players=6,deck=36,seating=alternate)": [2, 3, 4, 5, -1, -1],
    }
    for game_string, expected in seatings.items():
        s = pyspiel.load_game(game_string).new_initial_state().kernel_state()
        assert [K.next_member(s, seat) for seat in range(len(expected))] == expected


def test_a_pass_under_alternate_seating_gives_the_stream_to_the_other_captain():
    state = start("skip_guess(seating=alternate)", suit_hands(4))  # seat p holds suit p
    play(state, ["2s top"])
    assert state.current_player() == 2  # the partner, who holds no spade
    play(state, ["PASS"])
    assert state.scores() == [0.0, 1.0]
    assert state.current_player() == 1  # team 1's captain


@pytest.mark.parametrize("seating, big", [("side_by_side", [0, 2]), ("alternate", [0, 1])])
def test_the_extra_cards_go_to_the_captains(seating, big):
    game = pyspiel.load_game(f"skip_guess(jokers=true,seating={seating})")
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    while state.is_chance_node():
        state.apply_action(int(rng.choice(state.legal_actions())))
    sizes = hand_sizes(state)
    assert [p for p in range(4) if sizes[p] == 14] == big


@pytest.mark.parametrize("komi, expected", [(0, 0.0), (2, 1.0), (-2, -1.0)])
def test_komi_decides_a_drawn_game(komi, expected):
    state = start(f"skip_guess(jokers=true,deck=36,komi={komi})", EMPTY_TWICE)
    for rank in "6789TJQKA":
        singles(state, rank + "s", rank + "d")
    play(state, ["PASS", "PASS"])  # two passes on the empty table: the end, 9 : 9 cards
    assert state.is_terminal()
    assert state.scores() == [9.0 + komi, 9.0]
    assert state.returns() == [expected, expected, -expected, -expected]
    assert (f"komi {komi:+d} to team 0" in str(state)) == (komi != 0)


@pytest.mark.parametrize("komi, expected", [(0, -1.0), (2, 1.0), (4, 1.0), (-2, -1.0)])
def test_a_komi_that_evens_the_cards_leaves_it_to_the_tiebreak(komi, expected):
    # team 0 took 10 cards worth 100, team 1 12 worth 80: komi 2 evens the counts and the
    # values decide
    game = pyspiel.load_game(f"skip_guess(komi={komi})")
    s = game.new_initial_state().kernel_state()
    s[TK_TAKEN], s[TK_TAKEN + 1] = 10, 12
    s[TK_VALUE], s[TK_VALUE + 1] = 100, 80
    out = np.zeros(4)
    K.returns(s, out)
    assert out.tolist() == [expected, expected, -expected, -expected]
