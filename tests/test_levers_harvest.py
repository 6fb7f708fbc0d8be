"""Harvest's levers (RULES §0.7): who moves first, the seating, a komi and the end condition —
each through pyspiel, each shown on a dealt position, the default game unchanged."""

import numpy as np
import pyspiel
import pytest

from agents import make_agent
from skip_ai import cards
from skip_ai.games import harvest
from skip_ai.kernel.rng import make_rng
from skip_ai.play import play
from skip_ai.scenario import deal

RED = [c for c in cards.deck(52) if cards.colour(c) == cards.RED]  # diamonds, then hearts
BLACK = [c for c in cards.deck(52) if cards.colour(c) == cards.BLACK]  # spades, then clubs
KOMI = (-12, -9, -6, -3, 0, 3, 6, 9, 12)
LEVER_END = "skip_harvest(end=team_out)"


def _lays_only(
    game_string: str, teams: list[int], sizes: tuple[int, ...] = (13, 13, 13, 13)
) -> pyspiel.State:
    """Each seat dealt ``sizes[seat]`` cards of its team's colour (``teams``: the team of each
    seat), lowest first, seat by seat: nobody can ever cover or pass, every move lays."""
    pools = {0: iter(RED), 1: iter(BLACK)}
    hands = {
        seat: [next(pools[team]) for _ in range(n)]
        for seat, (team, n) in enumerate(zip(teams, sizes, strict=True))
    }
    return deal(pyspiel.load_game(game_string).new_initial_state(), hands)


def _play_lowest(state: pyspiel.State) -> list[int]:
    """Play on with every seat taking its lowest legal action; the seats that moved."""
    movers = []
    while not state.is_terminal():
        movers.append(state.current_player())
        state.apply_action(state.legal_actions()[0])
    return movers


def test_the_default_game_is_named_as_before():
    assert str(pyspiel.load_game("skip_harvest")) == "skip_harvest(deck=52,players=4)"
    defaults = "skip_harvest(first_seat=0,seating=side_by_side,komi=0,end=hands_out)"
    assert str(pyspiel.load_game(defaults)) == "skip_harvest(deck=52,players=4)"
    assert str(pyspiel.load_game("skip_harvest(komi=3,end=team_out)")) == (
        "skip_harvest(deck=52,end=team_out,komi=3,players=4)"
    )


@pytest.mark.parametrize("first", [0, 1, 2, 3])
def test_first_seat_moves_first_and_the_seat_before_it_last(first):
    state = _lays_only(f"skip_harvest(first_seat={first})", [0, 0, 1, 1])
    assert state.current_player() == first
    movers = _play_lowest(state)
    assert len(movers) == 52 and movers[-1] == (first - 1) % 4
    assert movers[:4] == [(first + i) % 4 for i in range(4)]


def test_alternate_seating_puts_red_on_the_even_seats():
    assert pyspiel.load_game("skip_harvest").teams().tolist() == [0, 0, 1, 1]
    game_string = "skip_harvest(seating=alternate)"
    assert pyspiel.load_game(game_string).teams().tolist() == [0, 1, 0, 1]
    six = pyspiel.load_game("skip_harvest(players=6,seating=alternate)")
    assert six.teams().tolist() == [0, 1, 0, 1, 0, 1]
    state = _lays_only("skip_harvest(seating=alternate,end=team_out)", [0, 1, 0, 1])
    assert state.legal_actions() == RED[:13]  # seat 0 lays red (diamonds) ...
    state.apply_action(RED[0])
    assert state.legal_actions() == BLACK[:13]  # ... seat 1, Black, black (spades)
    # Red (seats 0 and 2) is out after 51 moves: seat 3 keeps Ac, so a red Ace is not paired
    assert len(_play_lowest(state)) == 50
    assert "seat 3 (Black): Ac" in str(state)
    assert state.scores() == [14.0, 0.0] and state.returns() == [1.0, -1.0, 1.0, -1.0]


def test_komi_is_added_to_reds_harvest_and_turns_the_result():
    # nobody can ever move: four passes end the game at 0 to 0, a draw
    stuck = {0: BLACK[:13], 1: BLACK[13:], 2: RED[:13], 3: RED[13:]}
    for komi in KOMI:
        state = deal(pyspiel.load_game(f"skip_harvest(komi={komi})").new_initial_state(), stuck)
        _play_lowest(state)
        assert state.scores() == [float(komi), 0.0]
        assert state.returns() == [np.sign(komi)] * 2 + [-np.sign(komi)] * 2


def test_komi_is_named_on_the_table():
    state = _lays_only("skip_harvest(komi=-3)", [0, 0, 1, 1])
    state.apply_action(RED[12])  # Ad
    assert "Red field (score 14, with komi -3: 11)" in str(state)
    assert state.scores() == [11.0, 0.0]
    assert "komi" not in str(_lays_only("skip_harvest", [0, 0, 1, 1]))


def test_end_team_out_stops_the_game_when_one_team_holds_no_card():
    rules, state = (_lays_only(g, [0, 0, 1, 1]) for g in ("skip_harvest", LEVER_END))
    for s in (rules, state):
        for _ in range(49):
            s.apply_action(s.legal_actions()[0])
    # seat 1 holds Red's last card: under the lever his move ends the game, under the rules not
    assert harvest.ends_the_game(state.kernel_state())
    assert not harvest.ends_the_game(rules.kernel_state())
    assert len(_play_lowest(rules)) == 3 and rules.scores() == [0.0, 0.0]  # every rank pairs
    state.apply_action(state.legal_actions()[0])
    # Red is out after 50 moves; Black's last cards, As and Ac, stay in hand, so the red Aces
    # are not paired off
    assert state.is_terminal()
    assert "seat 2 (Black): As" in str(state) and "seat 3 (Black): Ac" in str(state)
    assert state.scores() == [28.0, 0.0] and state.returns() == [1.0, 1.0, -1.0, -1.0]


def test_end_team_out_waits_for_the_whole_team():
    # six players, 9, 9 and 8 cards a team: seat 2 runs out after 45 moves, the game goes on
    state = _lays_only("skip_harvest(players=6,end=team_out)", [0, 0, 0, 1, 1, 1], (9, 9, 8) * 2)
    for _ in range(45):
        state.apply_action(state.legal_actions()[0])
    assert "seat 2 (Red): -" in str(state) and not state.is_terminal()
    # ... until seats 0 and 1 are out too, after 50: seats 3 and 4 keep Ts and 6c
    assert len(_play_lowest(state)) == 5
    assert "seat 3 (Black): Ts" in str(state) and "seat 4 (Black): 6c" in str(state)
    assert state.scores() == [16.0, 0.0]


@pytest.mark.parametrize(
    "bad",
    ["first_seat=4", "first_seat=2,players=2", "komi=7", "komi=15", "seating=x", "end=x"],
)
def test_bad_lever_values_are_refused(bad):
    with pytest.raises(ValueError, match="skip_harvest"):
        pyspiel.load_game(f"skip_harvest({bad})")


EVERY_SETTING = (
    [f"skip_harvest(first_seat={f})" for f in (1, 2, 3)]
    + [f"skip_harvest(players=6,first_seat={f})" for f in (4, 5)]
    + ["skip_harvest(seating=alternate)", "skip_harvest(end=team_out)"]
    + [f"skip_harvest(komi={k})" for k in KOMI if k]
)


@pytest.mark.parametrize("variant", EVERY_SETTING)
def test_the_heuristic_plays_every_lever_setting(variant):
    game = pyspiel.load_game(variant)
    bots = [make_agent("heuristic", game, seed=p) for p in range(game.num_players())]
    state = play(game.new_initial_state(), bots, make_rng(3))
    assert state.is_terminal() and sum(state.returns()) == 0
