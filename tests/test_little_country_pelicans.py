"""RULES.md §4.6 (Little Country with pelicans), through the public API."""

from pathlib import Path

import pyspiel
import pytest

from skip_ai import cards
from skip_ai.games import captains as K
from skip_ai.kernel.state import LOC
from skip_ai.scenario import deal, play

PE1, PE2, PE3 = cards.PELICANS


def start(game_string, hands, fill=True):
    return deal(pyspiel.load_game(game_string).new_initial_state(), hands, fill=fill)


def legal_text(state):
    p = state.current_player()
    return [state.action_to_string(p, a) for a in state.legal_actions()]


def field_line(state, team):
    name = ("Red", "Black")[team]
    return [row for row in str(state).splitlines() if row.strip().startswith(f"{name} field")][0]


def quiet(state, n=1):
    """Play n moves, each the first legal LAY of a plain card, else the first legal move."""
    for _ in range(n):
        texts = legal_text(state)
        lays = [t for t in texts if len(t) == 2]
        play(state, [(lays or texts)[0]])


def test_card_text_and_values():
    assert [cards.to_str(c) for c in cards.PELICANS] == ["Pe1", "Pe2", "Pe3"]
    assert [cards.from_str(t) for t in ("Pe1", "Pe2", "Pe3")] == [54, 55, 56]
    assert cards.value(PE2) == 15
    with pytest.raises(ValueError, match="pelican"):
        cards.suit(PE1)
    with pytest.raises(ValueError, match="pelican"):
        cards.colour(PE1)


@pytest.mark.parametrize("pelicans,actions", [(0, 5941), (2, 5996), (3, 5996)])
def test_action_count_and_outcomes(pelicans, actions):
    game = pyspiel.load_game(f"skip_little_country(pelicans={pelicans})")
    assert game.num_distinct_actions() == actions
    outcomes = [c for c, _ in game.new_initial_state().chance_outcomes()]
    assert outcomes[-pelicans or len(outcomes) :] == list(cards.PELICANS[:pelicans])
    assert "pelicans" not in pyspiel.load_game("skip_two_captains").get_parameters()


@pytest.mark.parametrize(
    "game_string,sizes",
    [
        ("skip_little_country(pelicans=3)", [14, 14, 14, 13]),  # 55: seats 0, k, 1
        ("skip_little_country(deck=36,pelicans=2)", [10, 9, 10, 9]),  # 38: seats 0, k
        ("skip_little_country(players=6,jokers=true,pelicans=3)", [10, 10, 9, 10, 9, 9]),
        ("skip_little_country(players=6,deck=36,pelicans=2)", [7, 6, 6, 7, 6, 6]),
    ],
)
def test_the_extra_cards_go_to_seats_0_k_1_k1(game_string, sizes):
    state = pyspiel.load_game(game_string).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    line = [row for row in state.observation_string(0).splitlines() if "hand sizes" in row][0]
    assert [int(x) for x in line.split(":")[1].split()] == sizes


def test_a_pelican_pile_counts_15_and_nobody_beats_it_or_adds_to_it():
    state = start("skip_little_country(pelicans=2)", {0: "Pe1 2h", 1: "Ah Kh", 2: "Pe2 As Ad"})
    assert {"Pe1", "2h"} <= set(legal_text(state))
    play(state, ["Pe1"])
    assert "Pe1" in field_line(state, 0) and "(1 piles, value 15)" in field_line(state, 0)
    assert not any(t.endswith("on Pe1") for t in legal_text(state))  # seat 1, own team
    quiet(state)
    assert "Pe2" in legal_text(state)  # Black lays pelicans too
    assert not any("beats Pe1" in t for t in legal_text(state))
    play(state, ["Pe2"])
    assert "Pe2" in field_line(state, 1)
    s = state.kernel_state()
    assert s[LOC + PE1] != s[LOC + PE2]  # each on its own field


def test_two_pelicans_open_one_child_per_team():
    state = start(
        "skip_little_country(pelicans=3)", {0: "Pe1 Pe2 Pe3 2h", 1: "Qd Jd 3d Td", 2: "Ad Kd"}
    )
    play(state, ["Pe1", "Qd"])
    quiet(state, 2)
    assert not any(t.startswith("pelican child") for t in legal_text(state))  # one pelican
    play(state, ["Pe2"])  # two pelican piles on Red's field
    children = [t for t in legal_text(state) if t.startswith("pelican child")]
    assert children == ["pelican child 3d", "pelican child Td"]  # 2..10 of his colour
    play(state, ["pelican child 3d"])
    assert "3d(pelican child)" in field_line(state, 0)
    assert not any("beats 3d" in t for t in legal_text(state))  # seat 2 holds Ad, Kd
    quiet(state, 2)
    play(state, ["Pe3"])  # a third pelican opens no second child
    assert not any(t.startswith("pelican child") for t in legal_text(state))
    assert not any(t.endswith("on 3d") for t in legal_text(state))


def test_the_other_team_may_not_lay_the_child():
    state = start("skip_little_country(pelicans=2)", {0: "Pe1 Pe2", 2: "3s 4s"})
    play(state, ["Pe1"])
    quiet(state, 3)
    play(state, ["Pe2"])
    quiet(state)
    assert not any(t.startswith("pelican child") for t in legal_text(state))  # seat 2, Black


def test_a_pass_proves_the_passer_holds_no_pelican():
    clubs = "6c 7c 8c 9c Tc Jc Qc Kc Ac"
    state = start("skip_little_country(deck=36,pelicans=2)", {0: "6h", 1: clubs, 2: "Pe1 Pe2"})
    play(state, ["6h"])
    assert state.legal_actions() == [K.PASS]  # seat 1: no red card, no pile to beat, no pelican
    play(state, ["PASS"])
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(30):
        s = state.resample_from_infostate(3, sampler).kernel_state()
        assert s[LOC + PE1] != 1 and s[LOC + PE2] != 1


def test_the_observation_shows_where_the_pelicans_are():
    state = start("skip_little_country(pelicans=2)", {0: "Pe1 Pe2"})
    game = state.get_game()
    assert game.observation_tensor_size() == K.OBS_SIZE + K.OBS_PELICANS
    assert state.observation_tensor(0)[K.OBS_SIZE : K.OBS_SIZE + 2] == [1.0, 1.0]  # own hand
    play(state, ["Pe1"])
    assert state.observation_tensor(1)[K.OBS_SIZE + 3] == 1.0  # on the own field
    assert state.observation_tensor(2)[K.OBS_SIZE + 6] == 1.0  # on the other field
    assert state.observation_tensor(2)[K.OBS_SIZE + 1] == 0.0  # Pe2 is not seat 2's
    plain = pyspiel.load_game("skip_little_country")
    assert plain.observation_tensor_size() == K.OBS_SIZE


def test_title_names_the_pelicans():
    state = pyspiel.load_game("skip_little_country(deck=36,pelicans=3)").new_initial_state()
    assert str(state).startswith("Little Country, 4 players, 36 cards and 3 pelicans")


def test_files_written_before_pelicans_still_name_their_game():
    # a tuned file committed before the parameter existed spells the game without it
    from agents.search_config import load_search_config
    from skip_ai.pyspiel_wrapper import load, same_game

    game = load("skip_little_country")
    assert same_game("skip_little_country(deck=52,jokers=False,players=4)", game)
    assert not same_game("skip_little_country(deck=52,jokers=False,players=6)", game)
    assert not same_game("skip_little_country(pelicans=2)", game)
    committed = Path(__file__).parents[1] / "results/training/little_country-balanced.json"
    assert load_search_config(committed, game)
