"""Chains' levers (RULES §0.7): who places the first card, the seating (the deal by colour and
the blind draws from the opposite seat under it), a komi in chain points — each through
pyspiel, each shown on a dealt position, the default game unchanged."""

import pyspiel
import pytest

from skip_ai import cards
from skip_ai.kernel.state import LOC


def _dealt(game_string: str, stop_before_draws: bool = False) -> pyspiel.State:
    """The deal (and the blind draws unless ``stop_before_draws``), lowest cards first."""
    game = pyspiel.load_game(game_string)
    state = game.new_initial_state()
    deck = game.get_parameters()["deck"]
    while state.is_chance_node() and not (stop_before_draws and len(state.history()) == deck):
        state.apply_action(state.legal_actions()[0])
    return state


def _hands(state: pyspiel.State) -> list[list[int]]:
    s = state.kernel_state()
    return [[c for c in range(52) if s[LOC + c] == p] for p in range(state.num_players())]


def test_the_default_game_is_named_as_before():
    assert str(pyspiel.load_game("skip_chains")) == "skip_chains(deck=52,players=4)"
    assert str(pyspiel.load_game("skip_chains(komi=0,seating=side_by_side)")) == (
        "skip_chains(deck=52,players=4)"
    )
    assert str(pyspiel.load_game("skip_chains(komi=-8)")) == (
        "skip_chains(deck=52,komi=-8,players=4)"
    )


@pytest.mark.parametrize("first", [1, 2, 3])
def test_first_seat_places_the_first_card(first):
    state = _dealt(f"skip_chains(first_seat={first})")
    assert state.current_player() == first
    state.apply_action(state.legal_actions()[0])
    assert state.current_player() == (first + 1) % 4


@pytest.mark.parametrize(
    "players,deck,sizes", [(4, 52, [13] * 4), (6, 52, [9, 9, 9, 9, 8, 8]), (6, 36, [6] * 6)]
)
def test_alternately_each_team_is_dealt_its_colour_on_its_own_seats(players, deck, sizes):
    game_string = f"skip_chains(players={players},deck={deck},seating=alternate)"
    assert pyspiel.load_game(game_string).teams().tolist() == [0, 1] * (players // 2)
    hands = _hands(_dealt(game_string, stop_before_draws=True))
    assert [len(h) for h in hands] == sizes  # the extras: each team's first two seats
    for seat, hand in enumerate(hands):
        colour = cards.RED if seat % 2 == 0 else cards.BLACK
        assert all(cards.colour(c) == colour for c in hand), seat


def test_alternately_the_blind_draws_still_come_from_the_opposite_seat_an_opponent():
    before = _hands(_dealt("skip_chains(seating=alternate)", stop_before_draws=True))
    state = _dealt("skip_chains(seating=alternate)")
    after = _hands(state)
    for seat in range(4):
        drawn = set(after[seat]) - set(before[seat])
        assert len(drawn) == 3 and drawn <= set(before[3 - seat]), seat
        assert seat % 2 != (3 - seat) % 2  # the opposite seat sits in the other team
    assert "drawn from seat 3" in state.observation_string(0)


def _finished(game_string: str) -> pyspiel.State:
    """The lowest deal, every seat placing its lowest move: alternately, no chain at all."""
    state = _dealt(game_string)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    return state


def test_komi_is_added_to_reds_chains_and_turns_a_draw():
    base = _finished("skip_chains(seating=alternate)")
    assert base.scores() == [0, 0] and base.returns()[0] == 0.0
    for komi, result in [(4, 1.0), (-12, -1.0)]:
        state = _finished(f"skip_chains(seating=alternate,komi={komi})")
        assert state.scores() == [komi, 0]
        assert state.returns() == [result, -result, result, -result]
    assert "komi: +4 to Red: 4 against 0" in str(_finished("skip_chains(seating=alternate,komi=4)"))
    assert "komi" not in str(base)
    red, black = _finished("skip_chains").scores()
    assert _finished("skip_chains(komi=-8)").scores() == [red - 8, black]


@pytest.mark.parametrize("bad", ["first_seat=4", "first_seat=6,players=6", "komi=2", "seating=x"])
def test_bad_lever_values_are_refused(bad):
    with pytest.raises(ValueError, match="skip_chains"):
        pyspiel.load_game(f"skip_chains({bad})")
