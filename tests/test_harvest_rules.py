"""RULES.md §10 (Harvest), through the public API."""

import numpy as np
import pyspiel
import pytest

from skip_ai import cards
from skip_ai.games.harvest import harvest_scores
from skip_ai.kernel.state import LOC
from skip_ai.scenario import deal, play

PASS = 2970


def start(game_string, hands, fill=True):
    return deal(pyspiel.load_game(game_string).new_initial_state(), hands, fill=fill)


def legal_text(state):
    p = state.current_player()
    return [state.action_to_string(p, a) for a in state.legal_actions()]


def lay_or_pass(state):
    """A move that leaves every stack alone: lay a new stack if possible, else pass."""
    lays = [t for t in legal_text(state) if len(t) == 2]
    play(state, [lays[0] if lays else "PASS"])


def test_parameters_and_the_1v1_default_deck():
    assert str(pyspiel.load_game("skip_harvest(players=2)")) == "skip_harvest(deck=36,players=2)"
    assert str(pyspiel.load_game("skip_harvest")) == "skip_harvest(deck=52,players=4)"


@pytest.mark.parametrize(
    "game_string,sizes",
    [
        ("skip_harvest(players=2)", [18, 18]),
        ("skip_harvest", [13] * 4),
        ("skip_harvest(players=6)", [9, 9, 8, 9, 9, 8]),
    ],
)
def test_rule_1_deal_everything_and_seat_0_starts(game_string, sizes):
    state = pyspiel.load_game(game_string).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    line = [row for row in state.observation_string(0).splitlines() if "hand sizes" in row][0]
    assert [int(x) for x in line.split(":")[1].split()] == sizes
    assert state.current_player() == 0


def test_rule_2_lay_own_colour_and_cover_opponent_stacks_of_the_suit_with_any_rank():
    state = start("skip_harvest", {0: "Kh 2s 2h", 2: "3h Ks"})
    texts = legal_text(state)
    assert "Kh" in texts and "2h" in texts and "2s" not in texts  # LAY: own colour only
    play(state, ["Kh"])
    lay_or_pass(state)  # seat 1
    texts = legal_text(state)
    assert "3h on Kh" in texts  # any rank, the suit of the stack
    assert not any(t.endswith("on Kh") and t[1] != "h" for t in texts)
    play(state, ["3h on Kh"])
    assert "Kh/3h" in str(state)  # the stack stays, the new card on top
    play(state, [legal_text(state)[0]])  # seat 3 (it holds only red cards)
    assert state.current_player() == 0
    assert not any(" on " in t for t in legal_text(state))  # never on one's own stacks


def test_rule_2_pass_only_when_no_move_and_it_proves_the_hand():
    # seat 1 (Red) holds only black cards and the Black field is empty: it must pass
    spades_clubs = "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As"
    state = start("skip_harvest", {0: "2h", 1: spades_clubs})
    play(state, ["2h"])
    assert state.legal_actions() == [PASS]
    play(state, ["PASS"])
    for _ in range(20):
        r = state.resample_from_infostate(2, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        s = r.kernel_state()
        assert all(s[LOC + c] != 1 for c in range(26, 52))  # never a red card for seat 1


def test_rule_3_and_5_a_stack_counts_as_its_top_card():
    state = start("skip_harvest", {0: "7h Qd Kh", 1: "Qh 3d", 2: "7s 2c", 3: "Qs 5c"})
    play(state, ["7h", "Qh", "7s", "Qs", "Qd", "3d", "2c", "5c", "Kh"])
    # red tops 7, Q, Q, 3, K against black 7, Q, 2, 5: pairs 7-7 and Q-Q go
    assert state.scores() == [28.0, 7.0]


def test_rule_5_scoring_function():
    def tops(text):
        return np.int64(sum(1 << c for c in cards.cards_from_str(text)))

    out = np.zeros(2)
    harvest_scores(tops("7h Qh Qd 3d Kh"), tops("7s Qs 2c 5c"), out)
    assert out.tolist() == [28.0, 7.0]
    harvest_scores(tops("Ah Ad"), tops("As Ac"), out)
    assert out.tolist() == [0.0, 0.0]
    harvest_scores(tops("9h 9d"), tops("9s"), out)
    assert out.tolist() == [9.0, 0.0]
    harvest_scores(tops("2h 3d"), tops(""), out)
    assert out.tolist() == [5.0, 0.0]


def test_rule_4_the_game_ends_when_every_player_in_turn_passed():
    black = [c for c in cards.deck(52) if c < 26]
    red = [c for c in cards.deck(52) if c >= 26]
    # Red seats hold only black cards, Black seats only red ones: nobody can ever move
    state = start(
        "skip_harvest", {0: black[:13], 1: black[13:], 2: red[:13], 3: red[13:]}, fill=False
    )
    play(state, ["PASS"] * 3)
    assert not state.is_terminal()
    play(state, ["PASS"])
    assert state.is_terminal() and state.returns() == [0.0] * 4


def test_rule_4_the_game_ends_when_nobody_holds_a_card():
    state = pyspiel.load_game("skip_harvest(players=2)").new_initial_state()
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert "seat 0 (Red): -" in str(state) and "seat 1 (Black): -" in str(state)
    red, black = state.scores()
    assert state.returns() == [np.sign(red - black), -np.sign(red - black)]
