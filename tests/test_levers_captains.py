"""The levers (RULES §0.7) of Two Captains and Little Country: who moves first, the seating, a
komi in piles — each through pyspiel, each shown on a dealt position, the default games
unchanged."""

import numpy as np
import pyspiel
import pytest

from agents import make_agent
from skip_ai import cards
from skip_ai.scenario import deal

GAMES = ("skip_two_captains", "skip_little_country")
RED = [c for c in cards.deck(52) if cards.colour(c) == cards.RED]
BLACK = [c for c in cards.deck(52) if cards.colour(c) == cards.BLACK]


def _dealt(game_string: str) -> pyspiel.State:
    state = pyspiel.load_game(game_string).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    return state


def _sizes(state: pyspiel.State) -> list[int]:
    line = next(r for r in state.observation_string(0).splitlines() if "hand sizes" in r)
    return [int(x) for x in line.split(":")[1].split()]


def test_the_default_games_are_named_as_before():
    assert str(pyspiel.load_game("skip_two_captains")) == "skip_two_captains(deck=52,players=4)"
    assert str(pyspiel.load_game("skip_little_country(first_seat=0,komi=0)")) == (
        "skip_little_country(deck=52,jokers=False,pelicans=0,players=4)"
    )
    assert str(pyspiel.load_game("skip_two_captains(seating=alternate)")) == (
        "skip_two_captains(deck=52,players=4,seating=alternate)"
    )


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("first", [1, 2, 3])
def test_first_seat_moves_first_and_the_turn_goes_on_clockwise(game, first):
    state = _dealt(f"{game}(first_seat={first})")
    assert state.current_player() == first
    state.apply_action(state.legal_actions()[0])
    assert state.current_player() == (first + 1) % 4


def test_alternate_seating_seats_the_teams_alternately_and_lays_on_the_own_field():
    assert pyspiel.load_game("skip_two_captains").teams().tolist() == [0, 0, 1, 1]
    game = pyspiel.load_game("skip_two_captains(seating=alternate)")
    assert game.teams().tolist() == [0, 1, 0, 1]
    six = pyspiel.load_game("skip_little_country(players=6,seating=alternate)")
    assert six.teams().tolist() == [0, 1, 0, 1, 0, 1]
    # seat 1 is Black now: it lays its black cards on Black's field, and beats Red's piles
    state = deal(game.new_initial_state(), {0: RED[:13], 1: BLACK[:13], 2: RED[13:], 3: BLACK[13:]})
    state.apply_action(RED[0])  # seat 0 lays 2d
    assert state.current_player() == 1
    assert cards.to_str(BLACK[0]) in [state.action_to_string(1, a) for a in state.legal_actions()]
    state.apply_action(BLACK[0])
    black_field = next(r for r in str(state).splitlines() if "Black field" in r)
    assert "(1 piles" in black_field and cards.to_str(BLACK[0]) in black_field


@pytest.mark.parametrize(
    "game_string,sizes",
    [
        # the extras go to the teams in turn, captains first: alternately, the seats in order
        ("skip_little_country(jokers=true,seating=alternate)", [14, 14, 13, 13]),
        ("skip_little_country(jokers=true)", [14, 13, 14, 13]),
        ("skip_two_captains(players=6,seating=alternate)", [9, 9, 9, 9, 8, 8]),
        ("skip_little_country(pelicans=3,seating=alternate)", [14, 14, 14, 13]),
    ],
)
def test_the_extra_cards_go_to_both_teams_alike_under_either_seating(game_string, sizes):
    state = _dealt(game_string)
    assert _sizes(state) == sizes
    teams = state.get_game().teams().tolist()
    per_team = [sum(n for n, t in zip(sizes, teams) if t == team) for team in (0, 1)]
    assert abs(per_team[0] - per_team[1]) <= 1


def _level(game_string: str) -> pyspiel.State:
    """A game played out with every seat's lowest move: 13 piles each, worth 104 each."""
    game = pyspiel.load_game(game_string)
    state = deal(game.new_initial_state(), {0: BLACK[:13], 1: RED[:13], 2: BLACK[13:], 3: RED[13:]})
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("game", GAMES)
def test_komi_is_added_to_reds_piles_and_turns_a_draw(game):
    base = _level(game)
    assert base.scores() == [13, 13] and base.returns()[0] == 0.0
    for komi, result in [(1, 1.0), (-1, -1.0)]:
        state = _level(f"{game}(komi={komi})")
        assert state.scores() == [13 + komi, 13]
        assert state.returns() == [result, result, -result, -result]
    note = pyspiel.load_game(f"{game}(komi=1)").spec.result_note
    with_komi = _level(f"{game}(komi=1)").kernel_state()
    assert note(with_komi) == "Red 13 piles with the komi +1: 14 against 13"
    assert "komi: +1 piles to Red" in str(_level(f"{game}(komi=1)"))
    assert "komi" not in str(base)


def test_komi_evening_the_piles_leaves_the_tiebreak_to_decide():
    """Red puts one card on a pile (25 piles against 26, both worth 208): with the komi of a
    pile the counts are level and the piles' value, level too, makes it a draw."""

    def played(game_string: str) -> pyspiel.State:
        game = pyspiel.load_game(game_string)
        hands = {0: RED[:13], 1: RED[13:], 2: BLACK[:13], 3: BLACK[13:]}
        state = deal(game.new_initial_state(), hands)
        state.apply_action(RED[0])  # 2d
        added = False
        while not state.is_terminal():
            legal = state.legal_actions()
            adds = [a for a in legal if 54 <= a < 2970]
            own = state.get_game().teams()[state.current_player()] == 0
            pick = adds[0] if own and adds and not added else legal[0]
            added = added or pick in adds
            state.apply_action(pick)
        return state

    base = played("skip_two_captains")
    assert base.scores() == [25, 26] and base.returns()[0] == -1.0
    state = played("skip_two_captains(komi=1)")
    assert state.scores() == [26, 26] and state.returns()[0] == 0.0


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    "bad", ["first_seat=4", "first_seat=6,players=6", "komi=2", "seating=across"]
)
def test_bad_lever_values_are_refused(game, bad):
    with pytest.raises(ValueError, match=game):
        pyspiel.load_game(f"{game}({bad})")


def test_the_heuristic_plays_for_its_own_team_under_alternate_seating():
    """Seat 1 is Black when partners sit alternately: its heuristic lays black cards."""
    game = pyspiel.load_game("skip_two_captains(seating=alternate)")
    state = deal(game.new_initial_state(), {0: RED[:13], 1: BLACK[:13], 2: RED[13:], 3: BLACK[13:]})
    state.apply_action(RED[0])
    action = make_agent("heuristic", game, seed=0).step(state)
    assert action in BLACK[:13]
    assert np.isin(action, state.legal_actions())
