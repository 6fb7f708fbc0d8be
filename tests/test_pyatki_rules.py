"""RULES.md §1 (Pyatki) and §2 (Pyatki for pairs), rule by rule, through the public API: the
deal, the trump card and every stock draw are applied as the chance actions they are."""

import numpy as np
import pyspiel
import pytest

from skip_ai import cards
from skip_ai.kernel.rng import make_rng
from skip_ai.kernel.state import LOC, NUM_CARDS, hidden_from
from skip_ai.scenario import deal, play

ATTACK, TAKE = 54, 109


def start(game_string, hands, trump=None):
    """Deal ``hands`` (seat → cards) and, for Pyatki, turn ``trump`` as the trump card."""
    state = deal(pyspiel.load_game(game_string).new_initial_state(), hands)
    if trump is not None:
        play(state, [trump])
    return state


def legal_text(state):
    p = state.current_player()
    return [state.action_to_string(p, a) for a in state.legal_actions()]


def hand(state, seat):
    line = state.observation_string(seat).split("hand: ")[1].splitlines()[0]
    return line if line != "-" else ""


def seen(state, p):
    """The actions of ``p``'s information state string (without the public record)."""
    return state.information_state_string(p).split(" opener:")[0].split()


def line(state, start_text):
    return [row.strip() for row in str(state).splitlines() if row.strip().startswith(start_text)][0]


def attacking(state):
    """(attacker, defender) of the current exchange, read from the text."""
    words = line(state, "exchange").split(":")[1].split()
    return int(words[1]), int(words[-1])


# --- §1.1 the deal and the trump card ---------------------------------------------------------


def test_five_cards_each_then_the_trump_card_is_turned_never_an_ace():
    state = deal(
        pyspiel.load_game("skip_pyatki").new_initial_state(),
        {0: "6s 7s 8s 9s Ts", 1: "6c 7c 8c 9c Tc", 2: "6d 7d 8d 9d Td"},
    )
    assert state.is_chance_node()
    outcomes = [a for a, _ in state.chance_outcomes()]
    rest = [
        c
        for c in cards.deck(36)
        if c not in cards.cards_from_str("6s 7s 8s 9s Ts 6c 7c 8c 9c Tc 6d 7d 8d 9d Td")
    ]
    assert outcomes == sorted(c for c in rest if c % 13 != 12)  # every undealt card but Aces
    play(state, ["Qh"])
    assert state.current_player() == 0  # nobody holds a heart: seat 0 attacks seat 1
    assert attacking(state) == (0, 1)
    # the trump card is public, face up under the stock
    s = state.kernel_state()
    qh = cards.from_str("Qh")
    for p in range(3):
        assert not hidden_from(s, qh, p)
        assert "trump: ♥ (Qh, under the stock); stock: 21 cards" in state.observation_string(p)
        assert seen(state, p)[-1] == "c:Qh"


# --- §1.2 and §1.7 the stock and the refills --------------------------------------------------

SIX = {
    0: "6d 7s 7c 7h As",
    1: "8s 8c 8h Js Jc",
    2: "Qs Qc Jd 9s 9c",
    3: "6s 6c 6h Ts Tc",
    4: "7d 8d 9h Th Jh",
    5: "Kc Ac Qh Kh Ah",
}
"""Six players, 36 cards: the trump card Td leaves a stock of Ks 9d Qd Kd Ad (and Td)."""


def six(game_string="skip_pyatki(players=6)"):
    return start(game_string, SIX, "Td")


def test_refills_attacker_first_then_defender_and_the_trump_card_last_without_chance():
    state = six()
    play(state, ["7s", "7c", "7h", "ATTACK", "cover with 8s", "cover with 8c", "cover with 8h"])
    # the attacker (2 cards left) draws first, one chance node per card, over the stock
    # without the trump card
    assert state.is_chance_node() and "seat 0 draws" in str(state)
    assert [cards.to_str(a) for a, _ in state.chance_outcomes()] == ["Ks", "9d", "Qd", "Kd", "Ad"]
    play(state, ["Ks"])
    info = [seen(state, p)[-1] for p in range(6)]
    assert info == ["c:Ks", "c:?0", "c:?0", "c:?0", "c:?0", "c:?0"]  # seen by the drawer only
    play(state, ["Kd", "9d"])
    assert hand(state, 0) == "Ks As 6d 9d Kd"
    # then the defender, who has 2: two chance nodes, then the trump card comes by itself
    assert "seat 1 draws" in str(state)
    play(state, ["Qd"])
    assert [cards.to_str(a) for a, _ in state.chance_outcomes()] == ["Ad"]
    play(state, ["Ad"])
    assert not state.is_chance_node()
    assert hand(state, 1) == "Js Jc Td Qd Ad"
    assert "trump: ♦ (Td, drawn); stock: 0 cards" in str(state)
    assert "known in hands: seat 1: Td" in state.observation_string(3)  # taken in plain sight
    # §1.8: he covered everything, so he attacks next, the next seat
    assert state.current_player() == 1 and attacking(state) == (1, 2)


def test_no_refill_beyond_five_and_none_once_the_stock_is_empty():
    state = after_the_stock(six())
    # seat 2 covered everything with three of five and the stock is empty: no chance node
    assert hand(state, 2) == "9s 9c"
    assert state.current_player() == 2 and attacking(state) == (2, 3)


def after_the_stock(state):
    """Exchanges 1 and 2 of the six-player deal: the stock runs out in the first."""
    play(
        state,
        [
            "7s",
            "7c",
            "7h",
            "ATTACK",
            "cover with 8s",
            "cover with 8c",
            "cover with 8h",
            "Ks",
            "Kd",
            "9d",
            "Qd",
            "Ad",
        ],
    )
    play(state, ["Js", "Jc", "Td", "ATTACK", "cover with Qs", "cover with Qc", "cover with Jd"])
    return state


# --- §1.3 who attacks first -------------------------------------------------------------------


def test_the_lowest_trump_attacks_first_and_the_trump_card_does_not_count():
    state = start(
        "skip_pyatki(players=4)",
        {0: "6s 7s 8s 9s Ts", 1: "9h 7c 8c 9c Tc", 2: "7h 7d 8d 9d Td", 3: "Kh 6c Js Qs Ks"},
        "6h",
    )
    assert state.current_player() == 2 and attacking(state) == (2, 3)
    # only who attacks is public: the others cannot tell which trump he holds
    s = state.kernel_state()
    assert hidden_from(s, cards.from_str("7h"), 0)
    assert state.information_state_string(0).endswith("opener: seat 2")


# --- §1.4 building an attack ------------------------------------------------------------------


def test_a_three_card_attack_is_built_in_id_order_only_if_it_can_be_completed():
    hands = {0: "6s 6c 8d 9d Th", 1: "7c 8c 9c Tc Jc", 2: "7d Td Jd Qd Kd"}
    state = start("skip_pyatki", hands, "Ks")  # spades: seat 0 holds 6s
    assert legal_text(state) == ["6s", "6c", "8d", "9d", "Th"]
    play(state, ["6s"])
    # 8d, 9d or Th could never make a pair with the higher cards left: not addable
    assert legal_text(state) == ["6c", "ATTACK"]
    play(state, ["6c"])
    assert legal_text(state) == ["8d", "9d", "Th"]  # two cards are no attack
    play(state, ["8d"])
    assert legal_text(state) == ["ATTACK"]  # no second pair for five
    other = start("skip_pyatki", hands, "Ks")
    play(other, ["6c"])
    assert legal_text(other) == ["ATTACK"]  # 6s is lower: too late for it
    play(state, ["ATTACK"])
    assert state.current_player() == 1
    assert line(state, "exchange").endswith("seat 0 attacks seat 1: 6s, 6c, 8d")
    assert hand(state, 0) == "9d Th"


def test_a_five_card_attack_needs_two_disjoint_pairs():
    hands = {0: "7s 7c 9c 9d Qh", 1: "6s 8s Ts Js 8c", 2: "6c Tc Jc 6d 8d"}
    state = start("skip_pyatki", hands, "Kh")
    play(state, ["7s"])
    assert legal_text(state) == ["7c", "9c", "ATTACK"]  # 9c still pairs with 9d
    play(state, ["7c"])
    assert legal_text(state) == ["9c", "9d", "Qh"]
    play(state, ["9c"])
    assert legal_text(state) == ["9d", "ATTACK"]  # Qh: no fifth card above it
    play(state, ["9d"])
    assert legal_text(state) == ["Qh"]  # four cards are no attack
    play(state, ["Qh"])
    assert legal_text(state) == ["ATTACK"]
    play(state, ["ATTACK"])
    assert hand(state, 0) == ""
    # a pair and three of a kind's third card: 7s 9c 9d is a three-card attack only
    state = start("skip_pyatki", hands, "Kh")
    play(state, ["7s", "9c"])
    assert legal_text(state) == ["9d"]
    play(state, ["9d"])
    assert legal_text(state) == ["ATTACK"]


def test_four_of_a_kind_counts_as_two_pairs_three_of_a_kind_as_one():
    hands = {0: "8s 8c 8d 8h Kh", 1: "6s 7s 9s Ts Js", 2: "6c 7c 9c Tc Jc"}
    state = start("skip_pyatki", hands, "Qd")
    play(state, ["8s", "8c", "8d"])
    assert legal_text(state) == ["8h", "ATTACK"]  # not Kh: 8 8 8 K and one more is no pair
    play(state, ["8h", "Kh", "ATTACK"])
    assert line(state, "exchange").endswith("8s, 8c, 8d, 8h, Kh")


def test_the_attack_never_exceeds_the_defenders_hand():
    state = after_the_stock(six())
    play(
        state,
        [
            "9s",
            "ATTACK",
            "TAKE",  # seat 2 on 3, who takes
            "7d",
            "ATTACK",
            "TAKE",
        ],
    )  # seat 4 on 5, who takes
    assert attacking(state) == (0, 1)
    assert hand(state, 1) == "Qd Ad"  # two cards: single cards only
    assert legal_text(state) == ["Ks", "As", "6d", "9d", "Kd"]
    play(state, ["Ks"])
    assert legal_text(state) == ["ATTACK"]  # Kd would make a pair, but three > 2


# --- §1.5 and §1.6 the defence ----------------------------------------------------------------


def partial():
    hands = {0: "6s 7s 7d 9d Qc", 1: "8c 8d Td Jh Qh", 2: "6c 7c 9c Tc Jc"}
    state = start("skip_pyatki", hands, "Ks")  # spades are trumps
    play(state, ["7s", "7d", "9d", "ATTACK"])
    return state


def test_partial_cover_the_accepted_cards_join_after_the_defence():
    state = partial()
    assert legal_text(state) == ["TAKE"]  # 7s is a trump: only a higher trump covers
    play(state, ["TAKE"])
    # 7s is not in his hand yet, so it cannot cover 7d (it would, as a trump)
    assert legal_text(state) == ["cover with 8d", "cover with Td", "TAKE"]
    play(state, ["cover with 8d"])
    assert legal_text(state) == ["cover with Td", "TAKE"]
    play(state, ["TAKE"])
    assert hand(state, 1) == "7s 8c 9d Td Jh Qh"
    s = state.kernel_state()
    assert [s[LOC + cards.from_str(c)] for c in ("7d", "8d")] == [10, 10]  # the discard
    assert line(state, "discard") == "discard: 2 cards"
    # the attacker refills (3 draws); the defender holds 6 and draws nothing
    assert "seat 0 draws" in str(state)
    play(state, ["6d", "7h", "8h"])
    # §1.8: he did not cover everything: the next seat after him attacks, on seat 0
    assert state.current_player() == 2 and attacking(state) == (2, 0)


def test_accepted_cards_are_known_to_everyone_and_resampling_keeps_them():
    state = partial()
    play(state, ["TAKE", "cover with 8d", "TAKE", "6d", "7h", "8h"])
    taken = [cards.from_str("7s"), cards.from_str("9d")]
    for p in (0, 2):
        assert "known in hands: seat 1: 7s 9d" in state.observation_string(p)
        assert not any(hidden_from(state.kernel_state(), c, p) for c in taken)
    for seed in range(30):
        for p in range(3):
            world = state.resample_from_infostate(p, rng=make_rng(seed))
            s = world.kernel_state()
            assert [s[LOC + c] for c in taken] == [1, 1]
            assert all("seat 1: 7s 9d" in world.observation_string(q) for q in (0, 2))


def test_a_cover_is_higher_of_the_suit_or_a_trump_on_a_plain_card():
    state = six()
    play(state, ["7s", "7c", "7h", "ATTACK"])
    assert legal_text(state) == ["cover with 8s", "cover with Js", "TAKE"]
    play(state, ["TAKE"])
    assert legal_text(state) == ["cover with 8c", "cover with Jc", "TAKE"]
    state = after_the_stock(six())
    play(state, ["9s", "ATTACK", "TAKE", "7d", "ATTACK", "TAKE", "Ks", "ATTACK"])
    assert legal_text(state) == ["cover with Qd", "cover with Ad", "TAKE"]  # trumps on Ks


# --- §1.9 and §1.10 going out, places, returns ------------------------------------------------


def test_going_out_at_an_attack_ends_the_game_with_no_defence():
    state = after_the_stock(six())
    play(state, ["9s", "ATTACK", "TAKE", "7d", "ATTACK", "TAKE", "Ks", "ATTACK", "TAKE"])
    assert attacking(state) == (2, 3) and hand(state, 2) == "9c"
    play(state, ["9c", "ATTACK"])
    assert state.is_terminal()
    assert state.returns() == pytest.approx([-0.2, -0.2, 1.0, -0.2, -0.2, -0.2])
    assert state.scores() == [0.0, 0.0, 5.0, 0.0, 0.0, 0.0]


def test_with_places_play_goes_on_and_the_attacker_skips_players_who_are_out():
    state = after_the_stock(six("skip_pyatki(players=6,places=true)"))
    play(
        state,
        ["9s", "ATTACK", "TAKE", "7d", "ATTACK", "TAKE", "Ks", "ATTACK", "TAKE", "9c", "ATTACK"],
    )
    assert not state.is_terminal() and state.scores() == [0, 0, 5, 0, 0, 0]
    assert state.current_player() == 3  # the defence still happens
    play(state, ["cover with Tc"])
    assert attacking(state) == (3, 4)
    play(state, ["6s", "ATTACK", "TAKE"])  # 3 on 4; 4 takes
    assert attacking(state) == (5, 0)
    play(state, ["Kc", "ATTACK", "TAKE"])  # 5 on 0; 0 takes
    assert attacking(state) == (1, 3)  # seat 2 is out: seat 1 attacks seat 3


SIX_B = {
    0: "6d 7s 7c 7h 6s",
    1: "8s 8c 8h Js Jc",
    2: "Qs As Qc Jd Ad",
    3: "9s Ts 6c 9c Tc",
    4: "Kc Ac 7d 8d 9d",
    5: "6h 9h Th Jh Qh",
}
"""Stock Ks Kd Qd Kh Ah under the trump card Td: seat 1 will attack with five, his last."""


def two_out(game_string):
    state = start(game_string, SIX_B, "Td")
    play(
        state,
        [
            "7s",
            "7c",
            "7h",
            "ATTACK",
            "cover with 8s",
            "cover with 8c",
            "cover with 8h",
            "Qd",
            "Kh",
            "Ah",
            "Ks",
            "Kd",
        ],
    )
    assert hand(state, 1) == "Js Ks Jc Td Kd"
    play(state, ["Js", "Ks", "Jc", "Td", "Kd", "ATTACK"])
    return state


def test_two_players_out_in_one_exchange_take_places_in_order():
    state = two_out("skip_pyatki(players=6,places=true)")
    assert state.scores() == [0, 5, 0, 0, 0, 0] and state.current_player() == 2
    play(
        state, ["cover with Qs", "cover with As", "cover with Qc", "cover with Jd", "cover with Ad"]
    )
    assert state.scores() == [0, 5, 4, 0, 0, 0]
    # seat 2 covered everything but is out: the next seat still in attacks
    assert attacking(state) == (3, 4)
    assert "[out: place 1]" in line(state, "seat 1:") and "[out: place 2]" in line(state, "seat 2:")


def test_without_places_the_first_out_wins_at_once():
    state = two_out("skip_pyatki(players=6)")
    assert state.is_terminal()
    assert state.returns() == pytest.approx([-0.2, 1.0, -0.2, -0.2, -0.2, -0.2])


@pytest.mark.parametrize("places", [False, True])
def test_two_players_the_first_out_ends_the_game(places):
    game = pyspiel.load_game(f"skip_pyatki(players=2,places={str(places).lower()})")
    rng = np.random.default_rng(1)
    for _ in range(40):
        state = game.new_initial_state()
        while not state.is_terminal():
            assert state.scores() == [0.0, 0.0]  # nobody out before the end
            if state.is_player_node():
                a, d = attacking(state)
                assert d == 1 - a  # always the other player
            state.apply_action(int(rng.choice(state.legal_actions())))
        winner = state.scores().index(1.0)
        assert state.scores() == [1.0 if q == winner else 0.0 for q in range(2)]
        assert state.returns() == [1.0 if q == winner else -1.0 for q in range(2)]


def test_places_returns_spread_from_one_to_minus_one():
    game = pyspiel.load_game("skip_pyatki(players=5,places=true)")
    rng = np.random.default_rng(2)
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(int(rng.choice(state.legal_actions())))
        places = [4 - int(x) for x in state.scores()]
        assert sorted(places) == [0, 1, 2, 3, 4]
        assert state.returns() == pytest.approx([1 - 2 * p / 4 for p in places])


# --- §1.11 the cap ----------------------------------------------------------------------------


def test_the_cap_stops_the_game_and_nobody_out_gets_zero():
    state = after_the_stock(six("skip_pyatki(players=6,max_exchanges=2)"))
    assert state.is_terminal()
    assert state.returns() == [0.0] * 6 and state.scores() == [0.0] * 6
    assert "stopped at the cap of 2 exchanges" in str(state)
    state = after_the_stock(six("skip_pyatki(players=6,max_exchanges=3)"))
    assert not state.is_terminal()


def test_at_the_cap_the_players_still_in_share_the_places_left():
    state = two_out("skip_pyatki(players=6,places=true,max_exchanges=2)")
    play(
        state, ["cover with Qs", "cover with As", "cover with Qc", "cover with Jd", "cover with Ad"]
    )
    assert state.is_terminal()
    # places 2..5 are worth 0.2, -0.2, -0.6, -1: each of the four still in gets -0.4
    assert state.returns() == pytest.approx([-0.4, 1.0, 0.6, -0.4, -0.4, -0.4])
    assert sum(state.returns()) == pytest.approx(0.0)


def test_max_game_length_bounds_every_game():
    for game_string in [
        "skip_pyatki(players=6,max_exchanges=5)",
        "skip_pyatki_pairs(max_exchanges=5)",
    ]:
        game = pyspiel.load_game(game_string)
        rng = np.random.default_rng(0)
        for _ in range(30):
            state = game.new_initial_state()
            decisions = 0
            while not state.is_terminal():
                decisions += state.is_player_node()
                legal = state.legal_actions()
                # the longest exchanges: build five-card attacks, take everything
                adds = [a for a in legal if a < ATTACK]
                state.apply_action(adds[0] if adds else int(rng.choice(legal)))
            assert decisions <= game.max_game_length() == 55


# --- §2 Pyatki for pairs ----------------------------------------------------------------------


@pytest.mark.parametrize("deck,size", [(52, 13), (36, 9)])
def test_pairs_the_whole_deck_is_dealt_and_the_last_card_shown_gives_trump(deck, size):
    game = pyspiel.load_game(f"skip_pyatki_pairs(deck={deck})")
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    while state.is_chance_node():
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert [len(hand(state, q).split()) for q in range(4)] == [size] * 4
    last = state.history()[-1]
    for p in range(4):
        assert seen(state, p)[-1] == f"c:{cards.to_str(last)}"
        assert not hidden_from(state.kernel_state(), last, p)
    assert f"trump: {cards.SUIT_SYMBOLS[last // 13]} (the last dealt card" in str(state)


# The seed's example: А, Б, В, Г = seats 0, 1, 2, 3; А–Б and В–Г are partners; А sits
# opposite Г, Б opposite В. Hearts are trumps (Г's last card Th); В holds the 6 of hearts.
SEED = {
    0: "6s 7s 6c 7c 8d Jh Qh Kh Ah",
    1: "9s Ts Js Qs Ks As 6d 7d 8c",
    2: "6h 8s 9c Tc Jc Qc Kc Ac 9d",
    3: "Td Jd Qd Kd Ad 7h 8h 9h Th",
}


def test_pairs_the_lowest_trump_attacks_the_opposite_seat_and_is_known():
    state = start("skip_pyatki_pairs(deck=36)", SEED)
    assert state.current_player() == 2 and attacking(state) == (2, 1)  # В attacks Б
    assert "known in hands: seat 2: 6h" in state.observation_string(0)
    assert legal_text(state)[:3] == ["8s", "9c", "Tc"]


def test_pairs_the_seed_example_sequence():
    state = start("skip_pyatki_pairs(deck=36)", SEED)
    play(state, ["8s", "ATTACK"])
    took = state.clone()
    play(took, ["TAKE"])
    assert attacking(took) == (3, 0)  # Б accepted: Г attacks А
    play(state, ["cover with 9s"])
    assert attacking(state) == (0, 3)  # Б covered everything: А attacks Г
    play(state, ["6s", "7s", "6c", "7c", "8d", "ATTACK", "TAKE", "TAKE", "TAKE", "TAKE", "TAKE"])
    assert attacking(state) == (1, 2)  # Г accepted: Б attacks В
    play(state, ["6d", "ATTACK", "cover with 9d"])
    assert attacking(state) == (3, 0)  # В covered everything: Г attacks А
    play(state, ["6s", "7s", "6c", "ATTACK", "cover with Jh", "cover with Qh", "cover with Kh"])
    assert attacking(state) == (1, 2)
    play(state, ["7d", "ATTACK", "cover with 6h"])
    assert attacking(state) == (3, 0)
    assert state.scores() == [-7.0, -17.0]
    # Г attacks А, who covers and is out of cards
    play(state, ["7c", "ATTACK", "cover with Ah"])
    assert hand(state, 0) == "" and not state.is_terminal()
    assert attacking(state) == (1, 2)  # then Б attacks В (who sat out)
    play(state, ["8c", "ATTACK"])
    covered = state.clone()
    play(covered, ["cover with 9c"])
    assert attacking(covered) == (3, 1)  # В covers: Г attacks Б (А has no cards)
    play(state, ["TAKE"])
    assert attacking(state) == (1, 3)  # В accepts: Б attacks Г


def test_pairs_attack_rules_and_limits_are_those_of_pyatki():
    state = start("skip_pyatki_pairs(deck=36)", SEED)
    other = state.clone()
    play(state, ["9c"])  # 9c pairs with 9d above it: anything between may join
    assert legal_text(state) == ["Tc", "Jc", "Qc", "Kc", "Ac", "9d", "ATTACK"]
    play(other, ["Kc"])  # no pair for Kc among Ac 9d 6h
    assert legal_text(other) == ["ATTACK"]


def test_pairs_a_team_wins_when_both_partners_are_out_of_cards():
    game = pyspiel.load_game("skip_pyatki_pairs(deck=36)")
    rng = np.random.default_rng(4)
    endings = set()
    for _ in range(40):
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(int(rng.choice(state.legal_actions())))
        while not state.is_terminal():
            action = int(rng.choice(state.legal_actions()))
            state.apply_action(action)
            empty = [t for t in range(2) if state.scores()[t] == 0]  # minus cards held
            assert bool(empty) == state.is_terminal()
        team = empty[0]
        assert state.returns() == [1.0 if q // 2 == team else -1.0 for q in range(4)]
        endings.add("attack" if action == ATTACK else "defence")
    assert endings == {"attack", "defence"}  # a win at an ATTACK, and one after a cover


def test_pairs_the_cap_is_a_draw():
    state = start("skip_pyatki_pairs(deck=36,max_exchanges=2)", SEED)
    play(state, ["8s", "ATTACK", "cover with 9s", "6s", "ATTACK", "TAKE"])
    assert state.is_terminal()
    assert state.returns() == [0.0] * 4
    assert state.scores() == [-16.0, -18.0]


def test_pairs_resampling_keeps_known_cards():
    state = start("skip_pyatki_pairs(deck=36)", SEED)
    play(state, ["8s", "ATTACK", "TAKE"])
    known = [cards.from_str(c) for c in ("6h", "Th", "8s")]
    for seed in range(20):
        s = state.resample_from_infostate(0, rng=make_rng(seed)).kernel_state()
        assert [s[LOC + c] for c in known] == [2, 3, 1]
    assert sum(hidden_from(state.kernel_state(), c, 0) for c in range(NUM_CARDS)) == 24


def test_picks_prove_the_attacker_can_complete_them_and_resampling_keeps_that():
    """7s 9s 7c Jc needs a fifth card above Jc that pairs 9s or Jc: with 9d 9h Jd in the
    defender's hand, only Jh can do it, so every world the defender imagines gives it to the
    attacker (one hidden card among 42: many draws are redrawn, some worlds keep the attacker's
    hidden cards as they are)."""
    state = start(
        "skip_pyatki(players=2,deck=52)", {0: "7s 9s 7c Jc Jh", 1: "9d 9h Jd 2c 3c"}, "Ks"
    )
    play(state, ["7s", "9s", "7c", "Jc"])
    assert legal_text(state) == ["Jh"]
    jh = cards.from_str("Jh")
    assert hidden_from(state.kernel_state(), jh, 1)
    for seed in range(60):
        world = state.resample_from_infostate(1, rng=make_rng(seed))  # replays legally
        assert world.kernel_state()[LOC + jh] == 0
        assert world.legal_actions() == state.legal_actions()
