"""RULES.md §8 (Brook), through the public API with chosen deals."""

import pyspiel
import pytest
from trick_helpers import check_trick_takers_lead, hand_sizes, suit_hands

from skip_ai import IllegalActionError, cards
from skip_ai.scenario import UNSEEN, deal, play

PASS = 54
C = cards.from_str


def suits_game(players=4, deck=52):
    game = pyspiel.load_game(f"skip_brook(players={players},deck={deck},remove4=false)")
    return deal(game.new_initial_state(), suit_hands(players, deck))


# --- parameters and rule 1: the deal ------------------------------------------------------


def test_defaults_depend_on_players():
    assert str(pyspiel.load_game("skip_brook")) == "skip_brook(deck=52,players=4,remove4=False)"
    assert (
        str(pyspiel.load_game("skip_brook(players=2)"))
        == "skip_brook(deck=36,players=2,remove4=True)"
    )
    assert (
        str(pyspiel.load_game("skip_brook(players=2,remove4=false,deck=52)"))
        == "skip_brook(deck=52,players=2,remove4=False)"
    )


@pytest.mark.parametrize(
    "game_string,sizes",
    [
        ("skip_brook(players=2)", [16, 16]),
        ("skip_brook(players=4,deck=36)", [9] * 4),
        ("skip_brook(players=6,deck=52)", [9, 9, 8, 9, 9, 8]),
        ("skip_brook(players=6,deck=36,remove4=true)", [6, 6, 5, 5, 5, 5]),
    ],
)
def test_deal_sizes(game_string, sizes):
    game = pyspiel.load_game(game_string)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    assert hand_sizes(state) == sizes
    assert state.current_player() == 0


def test_removed_cards_are_seen_by_nobody():
    game = pyspiel.load_game("skip_brook(players=2)")
    hidden = "6s 7s 8s 9s"
    rest = [c for c in cards.deck(36) if c not in cards.cards_from_str(hidden)]
    state = deal(game.new_initial_state(), {UNSEEN: hidden, 0: rest[:16], 1: rest[16:]})
    for p in range(2):
        info = state.information_state_string(p)
        assert info.split()[1:5] == ["c:?"] * 4  # the four unseen cards
        assert "6s" not in info and "6s" not in state.observation_string(p)
    assert "4 removed unseen" in str(state)


# --- rule 2: playing is never compulsory, except on an empty stream ------------------------


def test_no_pass_on_an_empty_stream_while_holding_cards():
    state = suits_game()
    assert PASS not in state.legal_actions()
    assert state.legal_actions() == sorted(suit_hands(4)[0])


def test_pass_is_always_allowed_on_a_running_stream():
    state = suits_game()
    play(state, ["5s"])
    assert state.legal_actions() == [C("2c"), PASS]  # clubs only: the lowest rank, or pass


def test_a_player_without_cards_can_only_pass():
    game = pyspiel.load_game("skip_brook(players=2,deck=36,remove4=false)")
    d = cards.deck(36).tolist()
    state = deal(game.new_initial_state(), {0: d[:18], 1: d[18:]})
    # seat 0 plays every spade upwards; seat 1 (clubs and up) passes; each spade is a trick
    for c in d[:9]:
        play(state, [cards.to_str(c), "PASS"])
    assert hand_sizes(state) == [9, 18]
    assert state.scores() == [9.0, 0.0]


# --- rule 3: what may follow ----------------------------------------------------------------


def test_follow_with_a_higher_card_of_the_suit_or_the_lowest_rank():
    game = pyspiel.load_game("skip_brook(players=2,deck=36,remove4=false)")
    hands = {
        0: "6s 7s 8s 9s Ts 6c 7c 8c 9c Tc 6d 7d 8d 9d Td 6h 7h 8h",
        1: "Js Qs Ks As Jc Qc Kc Ac Jd Qd Kd Ad 9h Th Jh Qh Kh Ah",
    }
    state = deal(game.new_initial_state(), hands)
    play(state, ["8h"])
    assert state.legal_actions() == cards.cards_from_str("9h Th Jh Qh Kh Ah") + [PASS]
    play(state, ["Jh"])
    # seat 0: no heart above J, but every 6 (the deck's lowest rank) fits
    assert state.legal_actions() == cards.cards_from_str("6s 6c 6d 6h") + [PASS]
    play(state, ["6c"])
    assert state.legal_actions() == cards.cards_from_str("Jc Qc Kc Ac") + [PASS]
    with pytest.raises(IllegalActionError):
        state.apply_action(C("Js"))


def test_lowest_rank_is_2_with_52_cards():
    state = suits_game()
    play(state, ["As"])
    assert state.legal_actions() == [C("2c"), PASS]
    play(state, ["2c"])
    # seat 2 holds diamonds: any 2 fits, and higher clubs (none held)
    assert state.legal_actions() == [C("2d"), PASS]


# --- rule 4: the trick -------------------------------------------------------------------


def test_the_stream_goes_to_the_team_that_played_last_once_the_others_all_passed():
    state = suits_game()
    play(state, ["5s", "PASS", "2d"])  # seat 0, seat 1 passes, seat 2 plays
    play(state, ["PASS", "PASS"])  # seats 3 and 0 pass: seat 1 still to pass
    assert state.scores() == [0.0, 0.0]
    play(state, ["PASS"])  # seat 1: every member of team 0 passed since 2d
    assert state.scores() == [0.0, 2.0]
    assert state.current_player() == 2  # team 1's captain starts the next stream
    assert "stream: (empty)" in str(state)


def test_passes_of_the_playing_team_do_not_count_and_a_card_restarts_the_count():
    state = suits_game()
    play(state, ["9s", "PASS", "PASS"])  # seat 1 (own team) and seat 2 pass
    play(state, ["2h"])  # seat 3 plays: the count starts again
    play(state, ["PASS"])  # seat 0
    assert state.scores() == [0.0, 0.0]
    play(state, ["PASS"])  # seat 1: team 0 all passed since 2h
    assert state.scores() == [0.0, 2.0]
    assert state.current_player() == 2


def test_3v3_trick_needs_all_three_opponents():
    game = pyspiel.load_game("skip_brook(players=6,deck=36,remove4=false)")
    d = cards.deck(36).tolist()
    state = deal(game.new_initial_state(), {p: d[6 * p : 6 * p + 6] for p in range(6)})
    play(state, ["Ts", "PASS", "PASS", "PASS", "PASS"])  # seats 1..4 pass
    assert state.scores() == [0.0, 0.0]
    play(state, ["PASS"])  # seat 5: team 1 all passed
    assert state.scores() == [1.0, 0.0]
    assert state.current_player() == 0


# --- rule 5 and the leader rule over many games --------------------------------------------


@pytest.mark.parametrize(
    "game_string",
    ["skip_brook(players=4,deck=36)", "skip_brook(players=6,deck=52)", "skip_brook(players=2)"],
)
def test_trick_taker_leads_and_game_ends_when_it_has_no_cards(game_string):
    skipped = check_trick_takers_lead(game_string)
    if "players=2" not in game_string:
        assert skipped > 0  # the captain-without-cards case did occur


def test_more_cards_taken_wins_and_equal_is_a_draw():
    game = pyspiel.load_game("skip_brook(players=2,deck=36,remove4=false)")
    d = cards.deck(36).tolist()
    state = deal(game.new_initial_state(), {0: d[:18], 1: d[18:]})
    # each player in turn plays one card that the other passes on
    spades, clubs = d[:9], d[9:18]
    for c in spades:
        play(state, [cards.to_str(c), "PASS"])
    assert state.current_player() == 0
    for c in clubs[:-1]:
        play(state, [cards.to_str(c), "PASS"])
    play(state, [cards.to_str(clubs[-1]), "PASS"])
    assert state.is_terminal()  # seat 0's team took the trick and holds no card
    assert state.scores() == [18.0, 0.0]
    assert state.returns() == [1.0, -1.0]
