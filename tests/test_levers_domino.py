"""Domino's levers (RULES §0.7): who leads the first trick, the seating, a komi — each through
pyspiel, each shown on a dealt position, the default game unchanged."""

import numpy as np
import pyspiel
import pytest
from trick_helpers import suit_hands

from skip_ai.scenario import deal, play

PASS = 162


def test_the_default_game_is_named_as_before():
    default = "skip_domino(deck=52,players=4,remove4=False,voluntary_pass=False)"
    assert str(pyspiel.load_game("skip_domino")) == default
    assert str(pyspiel.load_game("skip_domino(first_seat=0,seating=side_by_side,komi=0)")) == (
        default
    )
    assert str(pyspiel.load_game("skip_domino(seating=alternate,komi=3)")) == (
        "skip_domino(deck=52,komi=3,players=4,remove4=False,seating=alternate,voluntary_pass=False)"
    )


@pytest.mark.parametrize("first", [0, 1, 2, 3])
def test_first_seat_leads_the_first_trick(first):
    game = pyspiel.load_game(f"skip_domino(deck=36,first_seat={first})")
    state = deal(game.new_initial_state(), suit_hands(4, 36))
    assert state.current_player() == first
    assert PASS not in state.legal_actions()  # the leader of an empty table places a card


def test_alternate_seating_makes_the_next_seat_an_opponent():
    assert pyspiel.load_game("skip_domino").teams().tolist() == [0, 0, 1, 1]
    game = pyspiel.load_game("skip_domino(deck=36,voluntary_pass=true,seating=alternate)")
    assert game.teams().tolist() == [0, 1, 0, 1]
    state = deal(game.new_initial_state(), suit_hands(4, 36))
    play(state, ["9s", "PASS", "PASS"])  # seat 1 (team 1) and seat 2, seat 0's partner
    assert state.scores() == [0.0, 0.0]  # seat 3 still to pass
    play(state, ["PASS"])  # seat 3: team 1 all passed since 9s
    assert state.scores() == [1.0, 0.0]
    assert state.current_player() == 0  # team 0's captain leads


def finished(levers: str) -> pyspiel.State:
    """A seeded deal (the same whatever the levers); every seat takes its first legal action,
    to the end: team 0 takes 26 cards, team 1 25."""
    game = pyspiel.load_game(f"skip_domino({levers})")
    rng = np.random.default_rng(18)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.choice(state.legal_actions())))
        else:
            state.apply_action(state.legal_actions()[0])
    return state


def test_komi_is_added_to_team_0s_count_and_can_turn_the_result():
    base = finished("")
    zero, one = base.scores()
    assert (zero, one) == (26, 25)  # team 0 wins by a card: a komi for team 1 cancels it
    results = set()
    for k in (-4, -2, -1, 0, 1, 3, 4):
        state = finished(f"komi={k}")
        assert state.scores() == [zero + k, one]
        expected = float((zero + k > one) - (zero + k < one))
        assert state.returns() == [expected, expected, -expected, -expected]
        results.add(expected)
    assert results == {-1.0, 0.0, 1.0}  # a komi can turn a win into a draw or a loss
    assert "komi -2 to team 0" in str(finished("komi=-2"))
    assert "komi" not in str(base)


@pytest.mark.parametrize("bad", ["first_seat=4", "first_seat=2,players=2", "komi=5", "seating=x"])
def test_bad_lever_values_are_refused(bad):
    with pytest.raises(Exception, match="skip_domino"):
        pyspiel.load_game(f"skip_domino({bad})")
