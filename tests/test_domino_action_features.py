"""Domino's action features (``skip_ai/games/domino_action_features.py``): the answers they
count are the kernel's, they read only what the mover knows, the heuristic's preferences are
one linear score of them, a few chosen positions, and a model that reads them plays."""

import numpy as np
import pytest

from agents.heuristics import domino as heuristic
from skip_ai import cards
from skip_ai.games import domino as K
from skip_ai.games.domino import action_features as af
from skip_ai.games.domino.grid import answers
from skip_ai.kernel.tricks import hidden_cards, opponents_may_hold
from skip_ai.pyspiel_wrapper import load
from skip_ai.scenario import UNSEEN, deal, play
from tests.feature_helpers import (
    features,
    heuristic_rated_best,
    play_steered,
    positions,
    redeal_changes,
)

VARIANTS = [
    "skip_domino(players=2)",  # 36 cards, 4 removed unseen
    "skip_domino(players=2,deck=52,remove4=false,voluntary_pass=true)",
    "skip_domino(players=4)",
    "skip_domino(players=4,deck=36,voluntary_pass=true)",
    "skip_domino(players=6)",
    "skip_domino(players=6,deck=36,voluntary_pass=true)",
]


def test_the_docstring_lists_every_feature():
    assert isinstance(af.VERSION, int) and isinstance(af.SIZE, int) and 8 <= af.SIZE <= 16
    assert load("skip_domino").spec.action_features is af
    for i in range(af.SIZE):
        assert f"\n{i}: " in af.__doc__
    assert f"\n{af.SIZE}: " not in af.__doc__


@pytest.mark.parametrize("variant", VARIANTS)
def test_values_are_finite_and_small_and_pass_rows_hold_pass_features_only(variant):
    card_only = [af._DANGER, af._SAFE, af._RANK, af._OWN_ANSWERS, af._OPENS_ROW]
    for seed in (1, 2):
        for state in positions(variant, seed):
            legal, f = features(state)
            assert np.isfinite(f).all() and (f >= 0).all() and (f <= 4).all()
            passing = legal == K.PASS
            assert (f[:, af._PASS] == passing).all()
            assert (f[passing][:, card_only] == 0).all()
            assert (f[~passing][:, [af._PASS_OURS, af._PASS_STAKE, af._PASS_DANGER]] == 0).all()
            assert (f[:, af._LEAD_DANGER] <= f[:, af._DANGER]).all()
            assert (f[:, af._SAFE] == ((f[:, af._DANGER] == 0) & ~passing)).all()


@pytest.mark.parametrize("variant", VARIANTS)
def test_answers_are_what_the_kernel_allows_next_to_the_card(variant):
    """``domino_grid.answers`` (the cards that may follow a card) is the kernel's ``DM_NEXT``
    once the move is played, and ``danger`` counts those an opponent may hold, as the
    heuristic does."""
    for state in positions(variant, 3, every=1):
        s = state.kernel_state()
        cur = state.current_player()
        opp = opponents_may_hold(s, cur, hidden_cards(s, cur))
        legal, f = features(state)
        for a, row in zip(legal, f, strict=True):
            if a == K.PASS:
                continue
            t = s.copy()
            K.apply_action(t, a)
            follow = t[K.DM_NEXT] | t[K.DM_NEXT + 1] | t[K.DM_NEXT + 2]
            assert answers(s, a) == follow
            assert row[af._DANGER] * 5 == pytest.approx(bin(follow & opp).count("1"))


@pytest.mark.parametrize("variant", VARIANTS)
def test_features_depend_only_on_what_the_mover_knows(variant):
    """Re-dealing every card hidden from the mover (consistently with what passes proved)
    changes no feature of any move."""
    changed = [redeal_changes(state) for state in positions(variant, 7, every=3)]
    # 1 v 1 without unseen cards: whatever is hidden from one seat is in the other's hand
    assert any(changed) or "players=2,deck=52,remove4=false" in variant


def heuristic_score(f, w):
    """The heuristic's preference as a linear score of the features (module docstring)."""
    return (
        -5 * w[0] * (f[:, af._DANGER] - f[:, af._LEAD_DANGER])
        - 5 * w[1] * f[:, af._LEAD_DANGER]
        - 16 * w[0] * w[2] * f[:, af._PASS_STAKE]
        + 1000 * f[:, af._PASS_OURS]
    )


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_heuristic_plays_a_move_its_linear_score_rates_best(variant):
    rng = np.random.default_rng(5)
    weights = [heuristic.WEIGHTS] + [
        np.array([rng.uniform(0.1, 3), rng.uniform(-3, 3), rng.uniform(0, 3)]) for _ in range(3)
    ]
    assert heuristic_rated_best(variant, heuristic, heuristic_score, weights, 1e-9) > 10


# --- chosen positions ---------------------------------------------------------------------


def one_v_one(voluntary):
    """1 v 1, 36 cards, 6s 6c 6d 6h unseen; seat 0 has led 9h. Seat 1 may place 8h or Th."""
    game = load(f"skip_domino(players=2,voluntary_pass={str(voluntary).lower()})")
    mine = "7s 8s Ts Js 7c 8c Tc Jc 7d 8d 8h Th Jh Qh Kh Ah"
    rest = [c for c in cards.deck(36) if c not in cards.cards_from_str(mine + " 6s 6c 6d 6h")]
    state = deal(game.new_initial_state(), {UNSEEN: "6s 6c 6d 6h", 0: rest, 1: mine})
    return play(state, ["9h"])


def features_of(state, move):
    legal, f = features(state)
    names = [state.action_to_string(state.current_player(), a) for a in legal]
    return f[names.index(move)]


def test_answers_to_a_card_split_by_who_may_hold_them():
    """Th: 9h lies, Jh Ts Tc are mine, Td is seat 0's (hidden: it may be). 8h: 7h hidden,
    8s 8c 8d mine. Seat 0 holds 15 of the 19 hidden cards."""
    f = features_of(one_v_one(False), "Th")
    assert f[af._DANGER] == pytest.approx(1 / 5) and f[af._OWN_ANSWERS] == pytest.approx(3 / 5)
    assert f[af._ANSWER_CHANCE] == pytest.approx(15 / 19)
    assert f[af._LEAD_DANGER] == f[af._SAFE] == f[af._OPENS_ROW] == f[af._PASS] == 0
    assert f[af._HIDDEN_SAFE] == f[af._PARTNER_ANSWERS] == 0
    assert f[af._RANK] == pytest.approx(8 / 12)
    assert f[af._SUIT_HIDDEN] == pytest.approx(2 / 12)  # 6h (unseen) and 7h
    assert f[af._RANK_HIDDEN] == pytest.approx(1 / 3)  # Td
    f = features_of(one_v_one(False), "8h")
    assert f[af._DANGER] == pytest.approx(1 / 5) and f[af._OWN_ANSWERS] == pytest.approx(3 / 5)
    assert f[af._RANK_HIDDEN] == 0
    f = features_of(one_v_one(True), "PASS")  # passing by choice on the opponent's card
    assert f[af._PASS] == 1 and f[af._PASS_STAKE] == 1 / 16 and f[af._PASS_OURS] == 0


def suit_hands(voluntary):
    """4 players, 36 cards, seat s holds suit s (spades, clubs, diamonds, hearts)."""
    game = load(f"skip_domino(players=4,deck=36,voluntary_pass={str(voluntary).lower()})")
    d = cards.deck(36).tolist()
    return deal(game.new_initial_state(), {p: d[9 * p : 9 * p + 9] for p in range(4)})


def test_passing_on_the_partners_card_and_opening_a_row():
    """Seat 0 led 7s; seat 1 (its partner) may pass, or open clubs above or below it."""
    state = play(suit_hands(True), ["7s"])
    f = features_of(state, "PASS")
    assert f[af._PASS] == f[af._PASS_OURS] == 1 and f[af._PASS_STAKE] == 0
    assert f[af._PASS_DANGER] == pytest.approx(4 / 5)  # 6s 8s 7d 7h: the opponents may hold them
    for move in ("7c-above", "7c-below"):
        f = features_of(state, move)
        assert f[af._OPENS_ROW] == 1 and f[af._DANGER] == pytest.approx(2 / 5)  # 7d 7h
        assert f[af._OWN_ANSWERS] == pytest.approx(2 / 5)  # 6c 8c
        assert f[af._PARTNER_ANSWERS] == pytest.approx(2 / 5)  # seat 0 may hold 7d 7h too


def test_forced_passes_make_answers_safe():
    """9s, 9c-below, 9d-below, 9h-below: seats 0 and 1 must pass (nothing goes next to 9h),
    which proves they lack 8h and Th; team 1 takes and seat 2 leads. Leading Td, its answer
    Th can only be the partner's; Ts Tc the opponents' may be."""
    state = play(suit_hands(False), ["9s", "9c-below", "9d-below", "9h-below", "PASS", "PASS"])
    assert state.current_player() == 2
    f = features_of(state, "Td")
    assert f[af._HIDDEN_SAFE] == pytest.approx(1 / 5)  # Th
    assert f[af._DANGER] == f[af._LEAD_DANGER] == pytest.approx(2 / 5)  # Ts Tc
    assert f[af._PARTNER_ANSWERS] == pytest.approx(3 / 5)  # seat 3 may hold all three
    assert f[af._OWN_ANSWERS] == pytest.approx(1 / 5)  # Jd (9d is taken)
    f = features_of(state, "Ad")
    assert f[af._HIDDEN_SAFE] == 0 and f[af._DANGER] == pytest.approx(3 / 5)  # As Ac Ah
    assert f[af._OWN_ANSWERS] == pytest.approx(1 / 5) and f[af._RANK] == 1  # Kd


# --- a model that reads them ----------------------------------------------------------------


@pytest.mark.parametrize("variant", [VARIANTS[1], VARIANTS[3]])
def test_a_model_reading_the_features_plays_legal_moves_they_steer(variant, tmp_path):
    """A model with random weights plays whole games with legal moves; one whose only weights
    are the features' biases (-1 on danger) plays a move of least danger."""
    assert play_steered(load(variant), tmp_path, af._DANGER, games=2) > 20
