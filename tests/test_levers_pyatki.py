"""Pyatki's levers (RULES §0.7): the hand size and who attacks first (Pyatki), which dealt card
shows the trump and who attacks first (Pyatki for pairs) — each through pyspiel, each shown on
a dealt position, the default games unchanged."""

import pyspiel
import pytest

from skip_ai import cards
from skip_ai.kernel.rng import make_rng
from skip_ai.kernel.state import HAND, LOC, hidden_from
from skip_ai.scenario import deal, play

THREE = {0: "6s 7s 8s 9s Ts", 1: "7c 8c 9c Tc 6d", 2: "7d 8d 9d Td Jd"}
"""Three hands of five; with the trump card Qd, seat 1 holds the lowest trump (6d)."""

# The seed's example of the pairs rules (tests/test_pyatki_rules.py): hearts are trumps (seat
# 3's last card Th), seat 2 holds the 6 of hearts; seat 0's first card, 6s, is the first dealt.
SEED = {
    0: "6s 7s 6c 7c 8d Jh Qh Kh Ah",
    1: "9s Ts Js Qs Ks As 6d 7d 8c",
    2: "6h 8s 9c Tc Jc Qc Kc Ac 9d",
    3: "Td Jd Qd Kd Ad 7h 8h 9h Th",
}


def attacking(state: pyspiel.State) -> tuple[int, int]:
    """(attacker, defender) of the current exchange, read from the text."""
    row = [r.strip() for r in str(state).splitlines() if r.strip().startswith("exchange")][0]
    words = row.split(":")[1].split()
    return int(words[1]), int(words[-1])


def three(game_string: str, hands: dict = THREE, trump: str = "Qd") -> pyspiel.State:
    state = deal(pyspiel.load_game(game_string).new_initial_state(), hands)
    return play(state, [trump])


def sizes(state: pyspiel.State) -> list[int]:
    s = state.kernel_state()
    return [bin(int(s[HAND + q])).count("1") for q in range(state.get_game().num_players())]


def test_the_default_games_are_named_as_before():
    names = {
        "skip_pyatki": "skip_pyatki(deck=36,max_exchanges=200,places=False,players=3)",
        "skip_pyatki_pairs": "skip_pyatki_pairs(deck=52,max_exchanges=200)",
    }
    for short, name in names.items():
        assert str(pyspiel.load_game(short)) == name
    explicit = "skip_pyatki(hand_size=5,opener=lowest_trump)"
    assert str(pyspiel.load_game(explicit)) == names["skip_pyatki"]
    explicit = "skip_pyatki_pairs(trump_card=last,opener=lowest_trump)"
    assert str(pyspiel.load_game(explicit)) == names["skip_pyatki_pairs"]
    assert "hand_size=4" in str(pyspiel.load_game("skip_pyatki(hand_size=4)"))
    assert "trump_card=first" in str(pyspiel.load_game("skip_pyatki_pairs(trump_card=first)"))


# --- Pyatki: who attacks first ------------------------------------------------------------------


def test_pyatki_by_the_rules_the_lowest_trump_attacks_first():
    state = three("skip_pyatki")
    assert attacking(state) == (1, 2)


@pytest.mark.parametrize("opener", [0, 1, 2])
def test_pyatki_the_opener_lever_names_the_seat_that_attacks_the_next(opener):
    state = three(f"skip_pyatki(opener=seat_{opener})")
    assert state.current_player() == opener
    assert attacking(state) == (opener, (opener + 1) % 3)
    assert state.information_state_string(2).endswith(f"opener: seat {opener}")
    assert f"seat {opener} attacks first" in str(state)


def _lowest_trump_holders(game_string: str) -> set[int]:
    """Where seat 0's resampled worlds put the lowest hidden trump (diamonds, Qd turned)."""
    state = three(game_string)
    diamonds = range(13 * 2, 13 * 3)
    holders = set()
    for seed in range(40):
        s = state.resample_from_infostate(0, rng=make_rng(seed)).kernel_state()
        held = [c for c in diamonds if s[LOC + c] in (1, 2)]
        if held:  # else every hidden trump is in the stock
            holders.add(int(s[LOC + min(held)]))
    return holders


def test_pyatki_a_named_opener_reveals_no_trump_to_the_resampler():
    # by the rules, attacking first proves seat 1 held the lowest trump of the hands
    assert _lowest_trump_holders("skip_pyatki") == {1}
    # a seat named by the lever proves nothing: the lowest trump may be with either other seat
    assert _lowest_trump_holders("skip_pyatki(opener=seat_1)") == {1, 2}


# --- Pyatki: the hand size ----------------------------------------------------------------------


@pytest.mark.parametrize("size", [3, 4, 6, 7])
def test_pyatki_hand_size_is_dealt_and_refilled(size):
    game = pyspiel.load_game(f"skip_pyatki(hand_size={size})")
    ranks = "6789TJQKA"
    hands = {q: " ".join(r + "scd"[q] for r in ranks[:size]) for q in range(3)}
    state = play(deal(game.new_initial_state(), hands), ["6h"])  # hearts: nobody holds one
    assert sizes(state) == [size] * 3
    assert attacking(state) == (0, 1)
    play(state, ["6s", "ATTACK", "TAKE"])
    # the attacker draws one card back to ``size``; the defender holds more and draws none
    assert state.is_chance_node() and "seat 0 draws" in str(state)
    play(state, [int(state.chance_outcomes()[0][0])])
    assert not state.is_chance_node()
    assert sizes(state) == [size, size + 1, size]
    assert f"{size} cards in hand" in str(state)


# --- Pyatki for pairs: which dealt card shows the trump ----------------------------------------


def test_pairs_trump_card_first_the_first_dealt_card_is_shown_and_gives_trump():
    game = pyspiel.load_game("skip_pyatki_pairs(deck=36,trump_card=first)")
    state = deal(game.new_initial_state(), SEED)
    six_s = cards.from_str("6s")
    assert state.history()[0] == six_s  # seat 0's first card
    for p in range(4):
        assert not hidden_from(state.kernel_state(), six_s, p)
        assert state.information_state_string(p).split()[1] == "c:6s"  # after "p<seat>"
    # the last dealt card (Th) is seat 3's secret now
    assert hidden_from(state.kernel_state(), cards.from_str("Th"), 0)
    assert "trump: ♠ (the first dealt card, 6s)" in str(state)
    # spades are trump: seat 0 holds the lowest, 6s, and attacks the seat opposite
    assert attacking(state) == (0, 3)


def test_pairs_by_the_rules_the_last_dealt_card_gives_trump():
    state = deal(pyspiel.load_game("skip_pyatki_pairs(deck=36)").new_initial_state(), SEED)
    assert "trump: ♥ (the last dealt card, Th)" in str(state)
    assert hidden_from(state.kernel_state(), cards.from_str("6s"), 1)
    assert attacking(state) == (2, 1)


# --- Pyatki for pairs: who attacks first ------------------------------------------------------


@pytest.mark.parametrize("opener", [0, 1, 2, 3])
def test_pairs_the_opener_lever_names_the_seat_that_attacks_the_opposite(opener):
    game = pyspiel.load_game(f"skip_pyatki_pairs(deck=36,opener=seat_{opener})")
    state = deal(game.new_initial_state(), SEED)
    assert state.current_player() == opener
    assert attacking(state) == (opener, 3 - opener)
    # nobody learns where the lowest trump (6h, seat 2's) is
    for p in (0, 1, 3):
        assert hidden_from(state.kernel_state(), cards.from_str("6h"), p)
    assert "known in hands: seat 3: Th" in state.observation_string(0)


# --- refusals and the agents --------------------------------------------------------------------


@pytest.mark.parametrize(
    "bad",
    [
        "skip_pyatki(opener=seat_3)",
        "skip_pyatki(players=2,opener=seat_2)",
        "skip_pyatki(hand_size=8)",
        "skip_pyatki(players=6,hand_size=6)",
        "skip_pyatki(players=5,hand_size=7)",
        "skip_pyatki(opener=seat)",
        "skip_pyatki_pairs(opener=seat_4)",
        "skip_pyatki_pairs(trump_card=middle)",
    ],
)
def test_bad_lever_values_are_refused(bad):
    with pytest.raises(ValueError, match=bad.split("(")[0]):
        pyspiel.load_game(bad)


def test_pyatki_has_no_trump_card_lever():
    # its trump card is turned from the stock, not dealt
    with pytest.raises(pyspiel.SpielError, match="trump_card"):
        pyspiel.load_game("skip_pyatki(trump_card=first)")


def test_a_hand_size_is_allowed_while_the_stock_can_turn_a_trump_card():
    # 6 players × 5 of 36 leaves 6 cards, at least two of them not Aces
    assert pyspiel.load_game("skip_pyatki(players=6,hand_size=5)").num_players() == 6
    assert pyspiel.load_game("skip_pyatki(players=6,deck=52,hand_size=7)").num_players() == 6
