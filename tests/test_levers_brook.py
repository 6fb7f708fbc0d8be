"""Brook's levers (RULES §0.7): who starts the first stream, the seating, who starts the next
stream, when the game ends, a komi — each through pyspiel, each shown on a dealt position, the
default game unchanged."""

import numpy as np
import pyspiel
import pytest
from trick_helpers import suit_hands

from skip_ai.scenario import deal, play


def suits_game(levers: str = "") -> pyspiel.State:
    """Four players, seat p holding suit p (spades, clubs, diamonds, hearts)."""
    game = pyspiel.load_game(f"skip_brook(players=4,deck=52,remove4=false{levers})")
    return deal(game.new_initial_state(), suit_hands(4))


def test_the_default_game_is_named_as_before():
    assert str(pyspiel.load_game("skip_brook")) == "skip_brook(deck=52,players=4,remove4=False)"
    assert str(
        pyspiel.load_game(
            "skip_brook(first_seat=0,seating=side_by_side,trick_lead=winner,end=taker_out,komi=0)"
        )
    ) == ("skip_brook(deck=52,players=4,remove4=False)")
    assert str(pyspiel.load_game("skip_brook(trick_lead=loser,komi=-2)")) == (
        "skip_brook(deck=52,komi=-2,players=4,remove4=False,trick_lead=loser)"
    )


@pytest.mark.parametrize("first", [0, 1, 2, 3])
def test_first_seat_starts_the_first_stream(first):
    state = suits_game(f",first_seat={first}")
    assert state.current_player() == first
    assert 54 not in state.legal_actions()  # no pass on an empty stream while holding cards


def test_alternate_seating_makes_the_next_seat_an_opponent():
    assert pyspiel.load_game("skip_brook").teams().tolist() == [0, 0, 1, 1]
    assert pyspiel.load_game("skip_brook(seating=alternate)").teams().tolist() == [0, 1, 0, 1]
    state = suits_game(",seating=alternate")
    play(state, ["5s", "PASS"])  # seat 1 (team 1) passes: seat 3 still to pass
    assert state.scores() == [0.0, 0.0]
    play(state, ["PASS"])  # seat 2, seat 0's partner, does not count
    assert state.scores() == [0.0, 0.0]
    play(state, ["PASS"])  # seat 3: team 1 all passed since 5s
    assert state.scores() == [1.0, 0.0]
    assert state.current_player() == 0  # team 0's captain


def team_1_takes_a_stream(state: pyspiel.State) -> None:
    """The starter plays its lowest card; team 1 answers team 0's card with its first legal
    card when it has one; everyone else passes, until a team takes the stream."""
    before = state.scores()
    last_team = None
    while state.scores() == before:
        team = state.get_game().teams()[state.current_player()]
        held = [a for a in state.legal_actions() if a != 54]
        if held and (last_team is None or (team == 1 and last_team == 0)):
            state.apply_action(held[0])
            last_team = team
        else:
            play(state, ["PASS"])


@pytest.mark.parametrize(
    "lever,starters",
    [
        ("", [2, 2]),  # the rules: the taking team (team 1 takes both streams here)
        (",trick_lead=loser", [0, 0]),  # the team that did not take it
        (",trick_lead=alternate", [2, 0]),  # stream t to team t mod 2: team 1, then team 0
    ],
)
def test_trick_lead_says_who_starts_the_next_stream(lever, starters):
    state = suits_game(lever)
    seen = []
    for _ in starters:
        team_1_takes_a_stream(state)
        seen.append(state.current_player())
    assert state.scores()[0] == 0 and state.scores()[1] > 0
    assert seen == starters


@pytest.mark.parametrize("end,result", [("taker_out", [18.0, 0.0]), ("hands_out", [18.0, 18.0])])
def test_end_says_whether_the_other_team_plays_its_cards_on(end, result):
    game = pyspiel.load_game(f"skip_brook(players=2,deck=36,remove4=false,end={end})")
    state = deal(game.new_initial_state(), suit_hands(2, 36))
    # each stream: its starter plays a card, the other passes (a player without cards must)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(54 if 54 in legal else legal[0])
    # seat 0 starts and takes his 18 cards one by one; the rules end the game there, with
    # seat 1's 18 cards still in hand; with hands_out seat 1 then takes his own 18
    assert state.scores() == result


def finished(levers: str) -> pyspiel.State:
    """A seeded deal (the same whatever the levers); every seat plays its first legal card
    whenever it holds one, to the end: team 0 takes 25 cards, team 1 26."""
    game = pyspiel.load_game(f"skip_brook({levers.lstrip(',')})")
    rng = np.random.default_rng(21)
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
    assert (zero, one) == (25, 26)  # team 1 wins by a margin some komi cancels
    results = set()
    for k in (-4, -2, -1, 0, 1, 2, 3, 4):
        state = finished(f",komi={k}")
        assert state.scores() == [zero + k, one]
        expected = float((zero + k > one) - (zero + k < one))
        assert state.returns() == [expected, expected, -expected, -expected]
        results.add(expected)
    assert results == {-1.0, 0.0, 1.0}  # a komi can turn a loss into a draw or a win
    assert "komi +2 to team 0" in str(finished(",komi=2"))
    assert "komi" not in str(base)


@pytest.mark.parametrize(
    "bad",
    ["first_seat=4", "first_seat=2,players=2", "komi=5", "trick_lead=x", "seating=x", "end=x"],
)
def test_bad_lever_values_are_refused(bad):
    with pytest.raises(Exception, match="skip_brook"):
        pyspiel.load_game(f"skip_brook({bad})")
