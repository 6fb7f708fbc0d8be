"""The designer's levers of Fours (RULES §0.7, issue 45; skip_ai/rules/skip_fours.md):
``first_seat``, ``seating`` and ``komi``, through the public API with chosen deals (written
rank by rank as in test_fours_rules: ``"0112"`` for the 6s means 6s to seat 0, 6c and 6d to
seat 1, 6h to seat 2)."""

import pyspiel
import pytest
from test_fours_rules import layout
from trick_helpers import suit_hands

from skip_ai.games.fours import SPEC
from skip_ai.pyspiel_wrapper import variants
from skip_ai.scenario import deal, play

DEFAULT = "skip_fours(deck=52,lead_order=clockwise,trick_lead=winner)"
LEVER_VARIANTS = [v for v in variants(SPEC) if any(p.name in v for p in SPEC.levers)]

# Team 1 (side by side: seats 2 and 3) holds all four 6s; the 7s are seats 0 and 1's.
DEAL_L = layout(
    {
        "6": "2233",
        "7": "0011",
        "8": "0123",
        "9": "0123",
        "T": "0123",
        "J": "0123",
        "Q": "0123",
        "K": "0123",
        "A": "0123",
    }
)


def start(hands, levers: str = "", deck: int = 36) -> pyspiel.State:
    game = pyspiel.load_game(f"skip_fours(deck={deck}{',' if levers else ''}{levers})")
    return deal(game.new_initial_state(), hands)


def test_the_levers_at_their_defaults_leave_the_game_string_as_it_was():
    assert str(pyspiel.load_game("skip_fours")) == DEFAULT
    explicit = "skip_fours(first_seat=0,seating=side_by_side,komi=0)"
    assert str(pyspiel.load_game(explicit)) == DEFAULT
    assert [p.name for p in SPEC.levers] == ["first_seat", "seating", "komi"]
    komi = "skip_fours(deck=52,komi=2,lead_order=clockwise,trick_lead=winner)"
    assert str(pyspiel.load_game("skip_fours(komi=2)")) == komi


def test_every_lever_setting_is_a_variant():
    assert sorted(LEVER_VARIANTS) == sorted(
        [f"skip_fours(first_seat={s})" for s in (1, 2, 3)]
        + ["skip_fours(seating=alternate)"]
        + ["skip_fours(komi=-8)", "skip_fours(komi=8)"]  # the extremes
    )


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_first_seat_leads_the_first_trick(seat):
    state = start(DEAL_L, f"first_seat={seat}")
    assert state.current_player() == seat


@pytest.mark.parametrize("bad", [4, 5])
def test_first_seat_must_be_a_seat(bad):
    with pytest.raises(ValueError, match=f"skip_fours: first_seat={bad} is not a seat of 4"):
        pyspiel.load_game(f"skip_fours(first_seat={bad})")


def test_with_alternate_trick_leads_the_tricks_alternate_from_the_first_leaders_team():
    # seat 2 leads the 6s and team 1 takes them; the next trick is team 0's (trick 1 of a
    # game that team 1 began), where the rules' first_seat=0 would give it to team 1
    state = start(DEAL_L, "first_seat=2,trick_lead=alternate")
    play(state, ["6"])
    assert state.scores() == [0.0, 4.0]
    assert state.current_player() == 0
    state = start(DEAL_L, "first_seat=2")  # trick_lead=winner: the taker's captain
    play(state, ["6"])
    assert state.current_player() == 2


def test_alternate_seating_counts_the_ranks_by_the_new_teams():
    side = pyspiel.load_game("skip_fours")
    alternate = pyspiel.load_game("skip_fours(seating=alternate)")
    assert side.teams().tolist() == [0, 0, 1, 1]
    assert alternate.teams().tolist() == [0, 1, 0, 1]
    # the 7s lie with seats 0 and 1: 4:0 side by side, 2:2 alternately
    state = start(DEAL_L)
    play(state, ["7"])
    assert state.scores() == [4.0, 0.0] and state.current_player() == 0
    state = start(DEAL_L, "seating=alternate")
    play(state, ["7"])
    assert state.scores() == [0.0, 0.0]
    assert state.current_player() == 1  # clockwise: the next leader is an opponent now
    # lead_order=team hands the lead of a 2:2 to the partner, seat 2 now
    state = start(DEAL_L, "seating=alternate,lead_order=team")
    play(state, ["7"])
    assert state.current_player() == 2


def test_alternate_seating_gives_a_taken_trick_to_the_new_captain():
    # alternately, team 1 is seats 1 and 3 (captain 1): they hold the 6s
    hands = layout(
        {
            "6": "1133",
            "7": "0022",
            "8": "0123",
            "9": "0123",
            "T": "0123",
            "J": "0123",
            "Q": "0123",
            "K": "0123",
            "A": "0123",
        }
    )
    state = start(hands, "seating=alternate")
    play(state, ["8", "9", "T"])  # three 2:2s: the lead passes clockwise to seat 3
    assert state.current_player() == 3
    play(state, ["6"])  # seats 1 and 3 hold the 6s: team 1 takes all 16 cards
    assert state.scores() == [0.0, 16.0]
    assert state.current_player() == 1  # its captain leads (side by side it would be 2)


@pytest.mark.parametrize("komi, expected", [(0, 0.0), (2, 1.0), (-2, -1.0), (-8, -1.0)])
def test_komi_decides_a_drawn_game(komi, expected):
    # seat p holds suit p: every rank is a 2:2, and the last one splits the table 18:18
    state = start(suit_hands(4, 36), f"komi={komi}")
    while not state.is_terminal():
        play(state, [state.legal_actions()[0]])
    assert state.scores() == [18.0 + komi, 18.0]
    assert state.returns() == [expected, expected, -expected, -expected]
    assert (f"komi {komi:+d} to team 0" in str(state)) == (komi != 0)
