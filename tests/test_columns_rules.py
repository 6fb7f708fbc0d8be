"""RULES.md §5 (Columns), every rule through the public API, deals chosen by chance actions."""

import numpy as np
import pyspiel
import pytest

from skip_ai import IllegalActionError, cards
from skip_ai.scenario import deal, play

RED, BLACK = (
    [c for c in cards.deck(36) if cards.colour(c) == cards.RED],
    [c for c in cards.deck(36) if cards.colour(c) == cards.BLACK],
)


def one_v_one_red_black():
    """1v1, 36 cards: seat 0 (Red) holds every red card, seat 1 every black card."""
    game = pyspiel.load_game("skip_columns(players=2,deck=36)")
    return game, deal(game.new_initial_state(), {0: RED, 1: BLACK})


def table_rows(state, player=0):
    """Row planes of the observation tensor: rows[row] = set of cards in that row."""
    t = np.array(state.observation_tensor(player))
    return [set(np.flatnonzero(t[72 + 54 * r : 126 + 54 * r]).tolist()) for r in range(4)]


# --- rule 1: the deal, the first player, every card legal, empty hands skipped -----------


@pytest.mark.parametrize(
    "players,deck,sizes",
    [
        (2, 36, [18, 18]),
        (2, 52, [26, 26]),
        (4, 36, [9] * 4),
        (4, 52, [13] * 4),
        (6, 36, [6] * 6),
        (6, 52, [9, 9, 8, 9, 9, 8]),
    ],
)
def test_deal_sizes_and_seat_0_starts(players, deck, sizes):
    game = pyspiel.load_game(f"skip_columns(players={players},deck={deck})")
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert [a for a, _ in state.chance_outcomes()] == sorted(cards.deck(deck).tolist())
    rng = np.random.default_rng(1)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert all(abs(p - 1 / len(outcomes)) < 1e-12 for _, p in outcomes)
        state.apply_action(int(rng.choice([a for a, _ in outcomes])))
    assert state.current_player() == 0
    seen = [
        len(state.observation_string(p).split("hand: ")[1].split("\n")[0].split())
        for p in range(players)
    ]
    assert seen == sizes
    assert len(state.history()) == deck


def test_every_card_in_hand_is_legal_and_nothing_else():
    game, state = one_v_one_red_black()
    assert state.legal_actions() == sorted(RED)
    play(state, ["6d"])
    assert state.current_player() == 1
    assert state.legal_actions() == sorted(BLACK)
    assert state.legal_actions(0) == []


def test_playing_a_card_not_in_hand_is_an_error_and_changes_nothing():
    game, state = one_v_one_red_black()
    before, history = str(state), state.history()
    with pytest.raises(IllegalActionError, match="not legal"):
        state.apply_action(cards.from_str("6s"))  # a black card, held by seat 1
    assert str(state) == before and state.history() == history
    assert state.current_player() == 0


def test_a_player_without_cards_is_skipped_3v3_52():
    game = pyspiel.load_game("skip_columns(players=6,deck=52)")
    state = game.new_initial_state()
    rng = np.random.default_rng(7)
    while state.is_chance_node():
        state.apply_action(int(rng.choice(state.legal_actions())))
    order = []
    while not state.is_terminal():
        order.append(state.current_player())
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert order[:48] == list(range(6)) * 8
    assert order[48:] == [0, 1, 3, 4]  # seats 2 and 5 are out of cards and skipped


# --- rule 2: a card goes on top of its rank's column -------------------------------------


def test_cards_stack_from_row_1_upwards_in_their_rank_column():
    game, state = one_v_one_red_black()
    play(state, ["7d", "7s", "Ah", "7c", "7h"])
    rows = table_rows(state)
    f = cards.from_str
    assert rows[0] == {f("7d"), f("Ah")}
    assert rows[1] == {f("7s")}
    assert rows[2] == {f("7c")}
    assert rows[3] == {f("7h")}  # the finish line
    assert "row 4 finish |" in str(state)


# --- rule 3: scoring the finish line ------------------------------------------------------


def test_finish_line_scores_and_winner():
    game, state = one_v_one_red_black()
    # column by column, Red plays first each time: Black's card always ends on top
    for rank in range(6, 15):
        play(state, [cards.to_str(cards.card_id(s, rank)) for s in (2, 0, 3, 1)])
    assert state.is_terminal()
    assert state.scores() == [0.0, 9.0]
    assert state.returns() == [-1.0, 1.0]


def test_the_fourth_card_of_a_column_takes_the_finish_line_for_its_colour():
    game, state = one_v_one_red_black()
    play(state, ["6d", "6s", "7d", "6c", "6h"])  # Red completes column 6
    assert state.scores() == [1.0, 0.0]
    play(state, ["7s", "7h", "7c"])  # Black completes column 7
    assert state.scores() == [1.0, 1.0]
    assert not state.is_terminal() and state.returns() == [0.0, 0.0]


def test_scores_match_the_table_after_any_game_and_no_draw():
    for players, deck in [(2, 36), (4, 52), (6, 52), (6, 36)]:
        game = pyspiel.load_game(f"skip_columns(players={players},deck={deck})")
        for seed in range(3):
            rng = np.random.default_rng(seed)
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(int(rng.choice(state.legal_actions())))
            finish = table_rows(state)[3]
            red = sum(1 for c in finish if cards.colour(c) == cards.RED)
            assert len(finish) == deck // 4
            assert state.scores() == [red, len(finish) - red]
            sign = 1.0 if red > len(finish) - red else -1.0
            k = players // 2
            assert state.returns() == [sign] * k + [-sign] * k


def test_observation_tensor_layout():
    game, state = one_v_one_red_black()
    play(state, ["7d"])
    t = np.array(state.observation_tensor(1))
    assert len(t) == game.observation_tensor_size() == 288
    assert set(np.flatnonzero(t[:54])) == set(BLACK)  # own hand
    assert t[54:56].tolist() == pytest.approx([18 / 13, 17 / 13])  # sizes: self, then seat 0
    assert t[60] == 1 and t[61:66].sum() == 0  # seat 1 (self) to move
    assert t[67] == 1 and t[66] == 0  # own seat number 1
    assert set(np.flatnonzero(t[72:126])) == {cards.from_str("7d")}  # row 1
    assert not t[126:288].any()  # rows 2..4 empty
