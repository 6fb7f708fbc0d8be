"""Mirrored deals (``skip_ai.mirror``): what each game declares, every variant with a mirror
over several deals (through the pyspiel API), the games and variants without one, and
``play_seating``'s ``mirror`` option."""

import hashlib
import re

import numpy as np
import pyspiel
import pytest

from skip_ai import cards
from skip_ai.duplicate import seatings
from skip_ai.kernel.rng import make_rng
from skip_ai.match import play_seating
from skip_ai.mirror import (
    colour_swap,
    deal,
    mirror_deal,
    mirrored_state,
    no_mirror_reason,
    seat_map,
)
from skip_ai.play import play
from skip_ai.pyspiel_wrapper import REGISTRY, variants
from skip_ai.spec import Mirror

COLOUR_GAMES = {
    "skip_two_captains",
    "skip_little_country",
    "skip_columns",
    "skip_harvest",
    "skip_chains",
}
"""Games where each team owns a colour: the mirror swaps hands and colours."""
HAND_GAMES = {"skip_domino", "skip_fours", "skip_brook", "skip_guess"}
"""Games whose mirror swaps the hands only."""
OTHER_COLOUR = {
    cards.SPADES: cards.DIAMONDS,
    cards.CLUBS: cards.HEARTS,
    cards.DIAMONDS: cards.SPADES,
    cards.HEARTS: cards.CLUBS,
}
SEEDS = (1, 2, 3)


def _unalike(variant: str) -> bool:
    """The variants whose deal gives a seat and its mirror seat different numbers of cards: an
    odd number of cards (3 pelicans), or 32 cards for six (4 of 36 removed)."""
    p = pyspiel.game_parameters_from_string(variant)
    return p.get("pelicans") == 3 or (
        p.get("players") == 6 and p["deck"] == 36 and p.get("remove4")
    )


MIRROR_GAME_VARIANTS = [v for g in sorted(COLOUR_GAMES | HAND_GAMES) for v in variants(REGISTRY[g])]
MIRRORED = [v for v in MIRROR_GAME_VARIANTS if not _unalike(v)]
UNALIKE = [v for v in MIRROR_GAME_VARIANTS if _unalike(v)]


def _sigma(game: pyspiel.Game, card: int) -> int:
    """The card the mirror puts in place of ``card``, from the cards' definitions."""
    if game.get_type().short_name not in COLOUR_GAMES or cards.is_pelican(card):
        return card
    if cards.is_joker(card):
        return cards.RED_JOKER if card == cards.BLACK_JOKER else cards.BLACK_JOKER
    return cards.card_id(OTHER_COLOUR[cards.suit(card)], cards.rank(card))


def _hands(state: pyspiel.State) -> list[list[int]]:
    """Each seat's hand, sorted, as its observation string shows it."""
    out = []
    for p in range(state.num_players()):
        lines = state.observation_string(p).splitlines()
        text = next(t for t in lines if t.startswith("  hand: ")).removeprefix("  hand: ")
        out.append(sorted(cards.cards_from_str(text)) if text != "-" else [])
    return out


def _dealt(game: pyspiel.Game, actions: list[int]) -> pyspiel.State:
    state = game.new_initial_state()
    for a in actions:
        state.apply_action(a)
    return state


def test_every_game_declares_its_mirror_or_why_it_has_none():
    for name, spec in REGISTRY.items():
        if name in COLOUR_GAMES:
            assert spec.mirror == Mirror(swap_colours=True), name
        elif name in HAND_GAMES:
            assert spec.mirror == Mirror(swap_colours=False), name
        else:
            assert spec.mirror is None and spec.no_mirror, name
            assert no_mirror_reason(pyspiel.load_game(name)) == spec.no_mirror


def test_colour_swap_turns_each_card_into_the_same_rank_of_the_other_colour():
    for c in range(57):
        assert colour_swap(colour_swap(c)) == c
        if cards.is_pelican(c):
            assert colour_swap(c) == c
            continue
        assert cards.colour(colour_swap(c)) != cards.colour(c)
        if c < 52:
            assert cards.rank(colour_swap(c)) == cards.rank(c)
    assert [colour_swap(c) for c in (0, 13, 26, 39, 12, 52, 53)] == [26, 39, 0, 13, 38, 53, 52]


def test_the_variants_with_a_mirror_are_those_whose_deal_treats_the_teams_alike():
    assert len(MIRRORED) == 147 and len(UNALIKE) == 11
    for v in MIRRORED:
        assert no_mirror_reason(pyspiel.load_game(v)) is None, v
    for v in UNALIKE:
        reason = no_mirror_reason(pyspiel.load_game(v))
        assert reason.startswith("the deal gives seat ") and " cards and seat " in reason, v
    game = pyspiel.load_game("skip_little_country(players=4,deck=52,pelicans=3)")
    assert no_mirror_reason(game) == "the deal gives seat 1 14 cards and seat 3 13"


@pytest.mark.parametrize("variant", MIRRORED)
def test_mirroring_twice_gives_the_deal_back(variant):
    game = pyspiel.load_game(variant)
    for seed in SEEDS:
        original = deal(game.new_initial_state(), make_rng(seed))
        mirrored = mirror_deal(game, original)
        assert mirrored != original and len(mirrored) == len(original)
        assert mirror_deal(game, mirrored) == original


@pytest.mark.parametrize("variant", MIRRORED)
def test_each_seat_gets_the_mirror_of_the_hand_of_the_seat_with_its_role(variant):
    game = pyspiel.load_game(variant)
    n = game.num_players()
    k = n // 2
    teams = game.teams().tolist()
    if "seating=alternate" in variant:
        assert teams == [i % 2 for i in range(n)]  # the seating lever: partners alternately
    else:
        assert teams == [0] * k + [1] * k  # partners side by side, captains 0 and k
    pi = seat_map(game)
    places = [[i for i in range(n) if teams[i] == t] for t in (0, 1)]
    for a, b in zip(*places, strict=True):  # the same place in the other team
        assert pi[a] == b and pi[b] == a
    for seed in SEEDS:
        original = game.new_initial_state()
        deal(original, make_rng(seed))
        mirror = _dealt(game, mirror_deal(game, original.history()))
        before, after = _hands(original), _hands(mirror)
        for i in range(n):
            assert after[pi[i]] == sorted(_sigma(game, c) for c in before[i]), (variant, seed, i)
        # cards put away unseen (remove4) stay where they are: seen by nobody, no colours
        unseen = [
            [a for a, m in zip(s.history(), s.seen_by()) if m == 0] for s in (original, mirror)
        ]
        assert sorted(unseen[0]) == sorted(unseen[1])


def test_seats_with_a_card_fewer_keep_it_fewer():
    game = pyspiel.load_game("skip_columns(players=6,deck=52)")
    original = game.new_initial_state()
    deal(original, make_rng(5))
    mirror = _dealt(game, mirror_deal(game, original.history()))
    for state in (original, mirror):
        assert [len(h) for h in _hands(state)] == [9, 9, 8, 9, 9, 8]


@pytest.mark.parametrize("variant", MIRRORED)
def test_the_mirror_is_a_legal_deal_that_round_trips(variant):
    game = pyspiel.load_game(variant)
    for seed in SEEDS:
        original = deal(game.new_initial_state(), make_rng(seed))
        mirror = _dealt(game, mirror_deal(game, original))
        first = game.resolved.get("first_seat", 0)
        assert mirror.is_player_node() and mirror.current_player() == first
        copy = game.deserialize_state(mirror.serialize())
        assert str(copy) == str(mirror) and copy.history() == mirror.history()
        assert copy.legal_actions() == mirror.legal_actions()
        rng = make_rng(seed)
        assert str(mirrored_state(game, rng)) == str(mirror)
        after_deal = make_rng(seed)
        deal(game.new_initial_state(), after_deal)
        assert rng == after_deal  # the original deal's draws, no more


@pytest.mark.parametrize("variant", MIRRORED)
def test_a_game_from_the_mirror_plays_to_the_end_without_more_chance(variant):
    game = pyspiel.load_game(variant)
    state = mirrored_state(game, make_rng(7))
    rng = np.random.default_rng(7)
    while not state.is_terminal():
        assert state.is_player_node()  # no chance after the deal: nothing left to mirror
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert sum(state.returns()) == pytest.approx(0.0)


def test_deal_draws_the_cards_play_draws():
    for name in ("skip_chains(players=6,deck=36)", "skip_domino(players=2)", "skip_guess"):
        game = pyspiel.load_game(name)
        bots = [pyspiel.make_uniform_random_bot(p, 5) for p in range(game.num_players())]
        played = play(game.new_initial_state(), bots, make_rng(11)).full_history()
        first_move = next(i for i, item in enumerate(played) if item.player >= 0)
        dealt = deal(game.new_initial_state(), make_rng(11))
        assert dealt == [item.action for item in played[:first_move]]


@pytest.mark.parametrize("name", sorted(set(REGISTRY) - COLOUR_GAMES - HAND_GAMES))
def test_games_without_a_mirror_say_why_and_refuse(name):
    game = pyspiel.load_game(name)
    why = rf"^{name}\(.*\): no mirror: {re.escape(REGISTRY[name].no_mirror)}$"
    with pytest.raises(ValueError, match=why):
        mirror_deal(game, [])  # refused before the deal is read
    with pytest.raises(ValueError, match=why):
        play_seating(game, 1, seatings(game)[0], "random", "random", mirror=True)


@pytest.mark.parametrize(
    "variant",
    [
        "skip_little_country(players=6,deck=36,pelicans=3)",
        "skip_domino(players=6,deck=36,remove4=true)",
    ],
)
def test_variants_whose_deal_treats_the_teams_unalike_refuse(variant):
    game = pyspiel.load_game(variant)
    name = variant.split("(")[0]
    why = rf"^{name}\(.*\): no mirror in this variant: {re.escape(no_mirror_reason(game))}$"
    with pytest.raises(ValueError, match=why):
        mirror_deal(game, deal(game.new_initial_state(), make_rng(1)))
    with pytest.raises(ValueError, match=why):
        play_seating(game, 1, seatings(game)[0], "random", "random", mirror=True)


def test_what_is_not_a_whole_deal_is_refused():
    game = pyspiel.load_game("skip_columns(players=4,deck=36)")
    original = deal(game.new_initial_state(), make_rng(1))
    with pytest.raises(ValueError, match=r"skip_columns\(.*\): the deal goes on after 35 cards"):
        mirror_deal(game, original[:-1])
    with pytest.raises(ValueError, match=r"skip_columns\(.*\): a deal has 36 cards, not 37"):
        mirror_deal(game, [*original, 0])


# The digest of each game's history with seed 4242, both seatings, random against random, from
# play_seating as it was before it had the mirror option: without it, nothing may change.
UNCHANGED = {
    "skip_harvest(players=4,deck=36)": [
        (72, "6bca553e2467988d", [-1, -1, 1, 1]),
        (82, "5da3d30eff34f9f6", [1, 1, -1, -1]),
    ],
    "skip_domino(players=2)": [
        (75, "ba7d4bbea6b76f9f", [-1, 1]),
        (74, "f66740178f0f9839", [-1, 1]),
    ],
}


@pytest.mark.parametrize("name", sorted(UNCHANGED))
def test_play_seating_without_mirror_plays_as_before(name):
    game = pyspiel.load_game(name)
    for a_seats, (length, digest, returns) in zip(seatings(game), UNCHANGED[name], strict=True):
        r = play_seating(game, 4242, a_seats, "random", "random", mirror=False)
        history = r["state"].history()
        assert len(history) == r["num_actions"] == length
        assert hashlib.sha256(str(history).encode()).hexdigest()[:16] == digest
        assert r["returns"].tolist() == returns


def test_play_seating_with_mirror_starts_from_the_mirrored_deal():
    game = pyspiel.load_game("skip_chains(players=4,deck=36)")
    a_seats = seatings(game)[0]
    plain = play_seating(game, 4242, a_seats, "random", "random")["state"].history()
    r = play_seating(game, 4242, a_seats, "random", "random", mirror=True)
    history = r["state"].history()
    original = deal(game.new_initial_state(), make_rng(4242))
    mirrored = mirror_deal(game, original)
    assert plain[: len(original)] == original
    assert history[: len(mirrored)] == mirrored
    assert r["state"].is_terminal() and history != plain
