"""Columns' levers (RULES §0.7): who places the first card, the seating, a komi — each through
pyspiel, each shown on a dealt position, the default game unchanged."""

import numpy as np
import pyspiel
import pytest

from agents import make_agent
from skip_ai import cards
from skip_ai.kernel.rng import make_rng
from skip_ai.play import play
from skip_ai.scenario import deal

RED = [c for c in cards.deck(52) if cards.colour(c) == cards.RED]
BLACK = [c for c in cards.deck(52) if cards.colour(c) == cards.BLACK]


def test_the_default_game_is_named_as_before():
    assert str(pyspiel.load_game("skip_columns")) == "skip_columns(deck=52,players=4)"
    assert str(pyspiel.load_game("skip_columns(komi=0,first_seat=0)")) == (
        "skip_columns(deck=52,players=4)"
    )
    assert str(pyspiel.load_game("skip_columns(komi=2)")) == (
        "skip_columns(deck=52,komi=2,players=4)"
    )


@pytest.mark.parametrize("first", [0, 1, 2, 3])
def test_first_seat_places_the_first_card_and_the_seat_before_it_the_last(first):
    game = pyspiel.load_game(f"skip_columns(first_seat={first})")
    state = game.new_initial_state()
    rng = np.random.default_rng(first)
    while state.is_chance_node():
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert state.current_player() == first
    movers = []
    while not state.is_terminal():
        movers.append(state.current_player())
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert movers[-1] == (first - 1) % 4
    assert movers[:4] == [(first + i) % 4 for i in range(4)]


def test_alternate_seating_puts_red_on_the_even_seats():
    assert pyspiel.load_game("skip_columns").teams().tolist() == [0, 0, 1, 1]
    game = pyspiel.load_game("skip_columns(seating=alternate)")
    assert game.teams().tolist() == [0, 1, 0, 1]
    assert pyspiel.load_game("skip_columns(players=6,seating=alternate)").teams().tolist() == [
        0,
        1,
        0,
        1,
        0,
        1,
    ]
    # seats 0 and 2 win or lose together, as Red's finish-line count says
    state = deal(game.new_initial_state(), {0: RED[:13], 2: RED[13:], 1: BLACK[:13], 3: BLACK[13:]})
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    red, black = state.scores()
    assert red != black
    win = 1.0 if red > black else -1.0
    assert state.returns() == [win, -win, win, -win]


def _finished(game_string: str) -> pyspiel.State:
    """A game played out with every seat playing its lowest card: Black ahead."""
    game = pyspiel.load_game(game_string)
    state = deal(game.new_initial_state(), {0: RED[:13], 1: RED[13:], 2: BLACK[:13], 3: BLACK[13:]})
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    return state


def test_komi_is_added_to_reds_count_and_can_turn_the_result():
    base = _finished("skip_columns")
    red, black = base.scores()
    assert red + black == 13 and red < black
    for komi, result in [(black - red - 1, -1.0), (black - red, 0.0)]:
        if not -6 <= komi <= 6:
            continue
        state = _finished(f"skip_columns(komi={komi})")
        assert state.scores() == [red + komi, black]
        assert state.returns()[0] == result
    minus = _finished("skip_columns(komi=-1)")
    assert minus.scores() == [red - 1, black] and minus.returns()[0] == -1.0


def test_komi_is_named_on_the_table():
    assert "with komi +3" in str(_finished("skip_columns(komi=3)"))
    assert "komi" not in str(_finished("skip_columns"))


@pytest.mark.parametrize("bad", ["first_seat=4", "first_seat=2,players=2", "komi=7", "seating=x"])
def test_bad_lever_values_are_refused(bad):
    with pytest.raises(ValueError, match="skip_columns"):
        pyspiel.load_game(f"skip_columns({bad})")


def _close_game(game_string: str) -> pyspiel.State:
    """Seed 0's random game: Black 1 to 6 finish-line cards ahead at the rules."""
    game = pyspiel.load_game(game_string)
    rng = np.random.default_rng(0)
    while True:
        state = game.new_initial_state()
        seed = int(rng.integers(1 << 30))
        play(state, [make_agent("random", game, seed=seed)] * 4, make_rng(seed))
        red, black = state.scores()
        komi = game.resolved["komi"]
        if 1 <= black - (red - komi) <= 6:
            return state


def test_the_tie_rule_decides_equal_counts_only():
    base = _close_game("skip_columns")
    red, black = base.scores()
    komi = int(black - red)
    history = base.history()
    for tie, result in [("draw", 0.0), ("first", 1.0), ("second", -1.0)]:
        for k, expected in [(komi, result), (komi - 1, -1.0)]:  # unequal counts: untouched
            game = pyspiel.load_game(f"skip_columns(komi={k},tie={tie})")
            state = game.new_initial_state()
            for a in history:
                state.apply_action(a)
            assert state.returns()[0] == expected
            note = game.spec.result_note(state._s)
            assert ("wins the tie" in note) == (k == komi and tie != "draw")
