"""What a seat's page receives (``skip_ai.serve.views``): every game's state renders, the
moves round-trip, and no card hidden from a seat is ever in the data sent to it."""

from __future__ import annotations

import json

import numpy as np
import pyspiel
import pytest
from conftest import ALL_VARIANTS, first_variants_fast

from skip_ai import words
from skip_ai.kernel.state import CHANCE, hidden_from
from skip_ai.serve.views import search_view, table_view


def shown_cards(view) -> list[int]:
    """Every card id in a view: a card is shown only as a dict with ``c``."""
    found = []

    def walk(obj):
        if isinstance(obj, dict):
            if "c" in obj:
                found.append(obj["c"])
            for v in obj.values():
                walk(v)
        elif isinstance(obj, list):
            for v in obj:
                walk(v)

    walk(view)
    return found


def random_decisions(game, seed: int, every: int):
    """Every ``every``-th decision state of one random game, and its final state."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    k = 0
    while not state.is_terminal():
        if state.is_player_node():
            if k % every == 0:
                yield state
            k += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    yield state


FEATURES = [
    "skip_little_country(players=4,deck=52,jokers=true,pelicans=3)",
    "skip_guess(players=4,deck=52,jokers=true)",
    "skip_domino(players=2)",
    "skip_chains(players=6,deck=52)",
    "classic_sixty_six_4p(cut=true,nines=true,redeal=true,contracts=true)",
]
"""Variants whose hidden cards live in places the first variants lack (pelicans, jokers,
cards removed unseen, blind draws of 3-vs-3, Sixty-six's extras)."""


@pytest.mark.parametrize("variant", first_variants_fast() + FEATURES)
def test_a_seat_is_never_sent_a_card_hidden_from_it(variant):
    game = pyspiel.load_game(variant)
    every = max(1, game.max_game_length() // 100)  # some 50 to 100 positions of a game
    for state in random_decisions(game, seed=5, every=every):
        s = state.kernel_state()
        for p in range(game.num_players()):
            view = table_view(state, p, moves=True)
            json.dumps(view)  # what is sent is plain JSON
            leaked = [c for c in shown_cards(view) if hidden_from(s, c, p)]
            assert not leaked, (variant, p, leaked, state.history())
            for seat in view["seats"]:
                assert len(seat["cards"]) + seat["hidden"] == seat["count"]


@pytest.mark.parametrize("name", sorted({v.split("(")[0] for v in ALL_VARIANTS}))
def test_the_moves_round_trip_and_every_state_renders(name):
    game = pyspiel.load_game(name)
    for state in random_decisions(game, seed=2, every=3):
        if state.is_terminal():
            view = table_view(state, 0)
            assert view["result"] and view["terminal"] and not view["moves"]
            assert table_view(state, None)["result"]
            break
        p = state.current_player()
        view = table_view(state, p, moves=True)
        assert sorted(m["a"] for m in view["moves"]) == sorted(state.legal_actions())
        assert view["turn"] == "your move"
        assert view["seats"][p]["role"] == "you" and view["seats"][p]["to_move"]
        # a move's cards are from the mover's hand
        hand = {c["c"] for c in view["seats"][p]["cards"]}
        assert all(c["c"] in hand for m in view["moves"] for c in m["cards"])
        other = (p + 1) % game.num_players()
        assert table_view(state, other, moves=True)["moves"] == []  # not his turn
        assert view["zones"] or view["seats"]


def test_with_every_card_open_all_hands_show():
    game = pyspiel.load_game("skip_columns(players=4,deck=36)")
    state = next(random_decisions(game, seed=1, every=1))
    view = table_view(state, None)
    assert all(seat["hidden"] == 0 and len(seat["cards"]) == 9 for seat in view["seats"])
    assert len(shown_cards(view)) == 36


def test_pelicans_and_jokers_are_drawn_as_cards_on_the_fields():
    game = pyspiel.load_game("skip_little_country(players=4,jokers=true,pelicans=3)")
    texts = set()
    for state in random_decisions(game, seed=4, every=1):
        view = table_view(state, None)
        texts |= {
            c["t"]
            for z in view["zones"]
            if z["kind"] == "piles"
            for pile in z["piles"]
            for c in pile["cards"]
        }
    assert {"Pe1", "Pe2", "Pe3"} & texts and {"BJ", "RJ"} & texts


def test_the_log_is_what_the_seat_saw():
    game = pyspiel.load_game("classic_rummy(players=2)")
    states = list(random_decisions(game, seed=3, every=1))
    state = states[len(states) // 2]
    view = table_view(state, 1)
    seen = dict(enumerate(state.history_seen_by(1)))
    for entry in view["log"]:
        if entry["seat"] != CHANCE:
            assert entry["text"] == seen[entry["i"]][1]
    # the other seat's stock draws are not named
    assert any(e["text"].startswith("a card seen by seat 0") for e in view["log"])


class Stats:
    """A searching bot's statistics, as ``agents.ismcts.SearchStats`` holds them."""

    iterations, seconds = 100, 0.01

    def __init__(self, actions):
        self.actions = np.array(actions)
        self.visits = np.arange(len(actions), 0, -1)
        self.values = np.linspace(0.6, 0.4, len(actions))


def test_a_bots_search_shows_only_its_chosen_move_to_a_seat_that_cannot_see_its_hand():
    game = pyspiel.load_game("skip_columns(players=4)")
    state = next(random_decisions(game, seed=1, every=1))
    legal = state.legal_actions()
    stats = Stats(legal)
    full = search_view(state, 0, stats, legal[1], "", full=True)
    assert [r["label"] for r in full["rows"]] == [state.action_to_string(0, a) for a in legal]
    assert sum(r["chosen"] for r in full["rows"]) == 1
    seen = state.action_to_string(0, legal[1])
    cut = search_view(state, 0, stats, legal[1], seen, full=False)
    assert [r["label"] for r in cut["rows"]] == [seen] and cut["rows"][0]["chosen"]
    hidden = search_view(state, 0, stats, legal[1], "?0", full=False)
    assert [r["label"] for r in hidden["rows"]] == ["?0"]  # a move the viewer did not see


def test_the_result_is_said_from_the_seat():
    game = pyspiel.load_game("skip_columns(players=4,deck=36)")
    *_, final = random_decisions(game, seed=1, every=1)
    won = 0 if final.returns()[0] > 0 else 1
    a, b = final.scores()[won], final.scores()[1 - won]
    name = game.spec.team_names[won]
    assert words.result_text(final, None) == f"{name} wins {a:g}–{b:g}"
    winner_seat = 0 if won == 0 else 2
    assert words.result_text(final, winner_seat) == f"your team ({name}) wins {a:g}–{b:g}"
    assert words.result_text(final, 2 - winner_seat).endswith(": your team lost")
    assert words.seat_label(final, 1, 0) == "seat 1 (your partner, Red)"
    duel = pyspiel.load_game("skip_columns(players=2,deck=36)")
    *_, end = random_decisions(duel, seed=1, every=1)
    winner = 0 if end.returns()[0] > 0 else 1
    assert words.result_text(end, winner).startswith("You win ")
