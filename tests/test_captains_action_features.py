"""Two Captains' and Little Country's action features
(``skip_ai/games/captains/action_features.py``): the pile a move leaves is the kernel's, they
read only what the mover knows, the heuristic's preferences are one linear score of them, a
few chosen positions, and a model that reads them plays."""

import numpy as np
import pytest

from agents.heuristics import captains as heuristic
from skip_ai.games import captains as K
from skip_ai.games.captains import action_features as af
from skip_ai.games.captains.actions import CHILD0, LAY_PELICAN0, PELICAN_CHILD0
from skip_ai.games.captains.layout import CP_BEAT, PROTECTED
from skip_ai.games.captains.risk import pile_risk
from skip_ai.kernel.fields import F_FLAGS, F_PILES, F_SIZE, F_SUM, opponent_share, unseen, value
from skip_ai.kernel.state import DECK, H_PLAYERS, HAND, NOT_HOLD, PELICAN0, team_of
from skip_ai.pyspiel_wrapper import load
from skip_ai.scenario import deal, play
from tests.feature_helpers import (
    features,
    heuristic_rated_best,
    play_steered,
    positions,
    redeal_changes,
)

VARIANTS = [
    "skip_two_captains",
    "skip_two_captains(players=6,deck=36)",
    "skip_little_country",
    "skip_little_country(jokers=true)",
    "skip_little_country(players=4,jokers=true,pelicans=3)",
    "skip_little_country(players=6,deck=36,pelicans=2)",
]
KINDS = [af._LAY, af._ADD, af._BEAT, af._SURE]
BEAT_ONLY = [af._BEATEN, af._OVERKILL, af._CHEAPER, af._SPARE, af._ESCAPE]
PILE_ONLY = [af._VALUE, af._CARDS, af._RISK, af._RELIEF, af._LOCKED, af._THREAT, af._BACKUP]


def test_the_docstring_lists_every_feature():
    assert isinstance(af.VERSION, int) and isinstance(af.SIZE, int) and 12 <= af.SIZE <= 20
    for i in range(af.SIZE):
        assert f"\n{i}: " in af.__doc__
    assert f"\n{af.SIZE}: " not in af.__doc__
    for variant in ("skip_two_captains", "skip_little_country"):
        assert load(variant).spec.action_features is af


@pytest.mark.parametrize("variant", VARIANTS)
def test_values_are_finite_and_small_and_each_kind_has_its_own(variant):
    for state in positions(variant, 1, every=3):
        legal, f = features(state)
        assert np.isfinite(f).all() and (f >= 0).all() and (f <= 2).all()
        beat = (legal >= K.BEAT0) & (legal < K.PASS)
        assert (f[:, af._LAY] == (legal < K.ADD0)).all()
        assert (f[:, af._ADD] == ((legal >= K.ADD0) & (legal < K.BEAT0))).all()
        assert (f[:, af._BEAT] == beat).all()
        assert (f[:, af._SURE] == (legal > K.PASS)).all()
        assert (f[:, af._PELICAN] == ((legal >= LAY_PELICAN0) & (legal < PELICAN_CHILD0))).all()
        assert (f[legal == K.PASS] == 0).all()
        assert (f[beat][:, PILE_ONLY] == 0).all() and (f[~beat][:, BEAT_ONLY] == 0).all()
        assert (f[:, af._CHEAPER] <= (f[:, af._SPARE] > 0)).all()
        # a locked pile has no risk, no threat and wants no backup
        locked = f[:, af._LOCKED] == 1
        assert (f[locked][:, [af._RISK, af._THREAT, af._BACKUP]] == 0).all()


def test_every_feature_tells_some_moves_of_a_position_apart():
    """No feature is the same for every move of every position (a softmax could not use
    it)."""
    varies = np.zeros(af.SIZE, bool)
    for variant in VARIANTS:
        for state in positions(variant, 2, every=1):
            _, f = features(state)
            varies |= f.min(0) != f.max(0)
    assert varies.all(), np.flatnonzero(~varies)


@pytest.mark.parametrize("variant", VARIANTS)
def test_features_depend_only_on_what_the_mover_knows(variant):
    """Re-dealing every card hidden from the mover (consistently with what passes proved)
    changes no feature of any move."""
    assert any([redeal_changes(state, 2) for state in positions(variant, 7, every=6)])


def may_hold(s, cur):
    """The cards hidden from ``cur`` that an opponent still holding cards may hold, from
    the state's slots."""
    players = int(s[H_PLAYERS])
    hidden = int(s[DECK])
    for q in range(players):
        hidden |= int(s[HAND + q])
    hidden &= ~int(s[HAND + cur])
    may = 0
    for q in range(players):
        if team_of(s, q) != team_of(s, cur) and s[HAND + q]:
            may |= hidden & ~int(s[NOT_HOLD + q])
    return may


def pile_of(a):
    """The pile a move other than BEAT and PASS starts or goes on."""
    if a < K.ADD0:
        return a
    if a < K.BEAT0:
        return (a - K.ADD0) % 54
    if a < LAY_PELICAN0:
        return a - CHILD0
    if a < PELICAN_CHILD0:
        return PELICAN0 + a - LAY_PELICAN0
    return a - PELICAN_CHILD0


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_pile_a_move_leaves_is_the_kernels(variant):
    """Against the move applied to a copy: the pile's value and cards; its risk (as the
    heuristic reckons it of the pile then lying, with the mover's view before the move), the
    risk it took off a pile; locked piles are beaten by nothing, the others (unless a
    protected Queen) by the kernel's cards, ``threat`` of them an opponent may hold; BEAT
    removes the pile, ``spare`` and ``cheaper`` count the mover's other BEATs of it."""
    seen = dict.fromkeys(("add", "marries", "locked", "cheaper", "sure"), 0)
    for seed in (5, 7):
        for state in positions(variant, seed, every=1):
            s = state.kernel_state()
            cur = state.current_player()
            team = team_of(s, cur)
            mine = K.RED_MASK if team == 0 else K.BLACK_MASK
            spoilers = unseen(s, cur) & mine
            share = opponent_share(s, cur)
            may = may_hold(s, cur)
            legal, f = features(state)
            for a, row in zip(legal, f, strict=True):
                if a == K.PASS:
                    continue
                t = s.copy()
                K.apply_action(t, a)
                if K.BEAT0 <= a < K.PASS:
                    c, b = divmod(int(a) - K.BEAT0, 54)
                    assert not (t[F_PILES + 1 - team] >> b) & 1
                    assert row[af._BEATEN] * 15 == pytest.approx(s[F_SUM + b])
                    assert row[af._OVERKILL] * 13 == pytest.approx(value(c) - s[F_SUM + b])
                    others = [
                        (x - K.BEAT0) // 54
                        for x in legal
                        if K.BEAT0 <= x < K.PASS and (x - K.BEAT0) % 54 == b and x != a
                    ]
                    assert row[af._SPARE] == min(len(others), 2) / 2
                    assert row[af._CHEAPER] == any(value(x) < value(c) for x in others)
                    seen["cheaper"] += row[af._CHEAPER]
                    continue
                b = pile_of(int(a))
                assert (t[F_PILES + team] >> b) & 1
                assert row[af._VALUE] * 15 == pytest.approx(min(t[F_SUM + b], 30))
                assert row[af._CARDS] * 3 == pytest.approx(t[F_SIZE + b])
                expected = 0.0 if b >= PELICAN0 else pile_risk(t, b, spoilers, share)
                assert row[af._RISK] == pytest.approx(expected, abs=1e-12)
                if K.ADD0 <= a < K.BEAT0:
                    assert row[af._RELIEF] == pytest.approx(pile_risk(s, b, spoilers, share))
                    seen["add"] += 1
                married = a < K.ADD0 and t[F_FLAGS + b] & K.MARRIED
                assert row[af._MARRIES] == (1 if married else 0)
                if married:
                    spouse = b + 1 if K.rank_of(b) == K.QUEEN else b - 1
                    assert t[F_FLAGS + spouse] & K.MARRIED
                    assert row[af._RELIEF] == pytest.approx(pile_risk(s, spouse, spoilers, share))
                    seen["marries"] += 1
                elif a < K.ADD0:
                    assert row[af._RELIEF] == 0
                if row[af._LOCKED]:
                    assert t[CP_BEAT + b] == 0
                    seen["locked"] += 1
                    seen["sure"] += row[af._SURE]
                elif not t[F_FLAGS + b] & PROTECTED:
                    beaters = int(t[CP_BEAT + b])
                    assert beaters != 0
                    assert row[af._THREAT] * 13 == pytest.approx(bin(beaters & may).count("1"))
    assert seen["add"] and seen["locked"] and seen["cheaper"], seen
    if "little" in variant:
        assert seen["marries"], seen
    if "pelicans" in variant:
        assert seen["sure"], seen


def heuristic_score(f, w):
    """The heuristic's value of each move as a linear score of the features (module
    docstring)."""
    return (
        f[:, af._LAY]
        + f[:, af._SURE]
        + f[:, af._RELIEF]
        - f[:, af._RISK]
        + w[heuristic.BEAT] * f[:, af._BEAT]
        - 13 * w[heuristic.OVERKILL] * f[:, af._OVERKILL]
    )


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_heuristic_plays_a_move_its_linear_score_rates_best(variant):
    rng = np.random.default_rng(5)
    weights = [heuristic.WEIGHTS] + [
        np.array([rng.uniform(0.1, 2), rng.uniform(0, 0.5)]) for _ in range(3)
    ]
    tol = 2 * heuristic.JITTER  # its JITTER aside
    assert heuristic_rated_best(variant, heuristic, heuristic_score, weights, tol) > 20


# --- chosen positions ---------------------------------------------------------------------


def features_of(state, move):
    legal, f = features(state)
    names = [state.action_to_string(state.current_player(), a) for a in legal]
    return f[names.index(move)]


def test_beating_with_the_lowest_card_and_laying_into_many_threats():
    """Two Captains: seat 1 (Red) passed; Black laid 5s; seat 0 (Red) holds 7s and Ks, which
    both beat it, and hearts below 7h, whose higher hearts all are hidden from him."""
    game = load("skip_two_captains")
    state = deal(
        game.new_initial_state(), {0: "2d 2h 3h 4h 5h 6h 7s Ks 2c 3c 4c 5c 6c", 2: "5s"}, fill=True
    )
    play(state, ["2d", "PASS", "5s"])
    play(state, [state.legal_actions()[0]])
    assert state.current_player() == 0
    f = features_of(state, "7s beats 5s")
    assert f[af._BEAT] == 1 and f[af._CARD] == pytest.approx(7 / 15)
    assert f[af._BEATEN] == pytest.approx(5 / 15) and f[af._OVERKILL] == pytest.approx(2 / 13)
    assert f[af._CHEAPER] == 0 and f[af._SPARE] == 0.5
    assert f[af._ESCAPE] == 1  # Black may hold spades that lift 5s past Ks
    g = features_of(state, "Ks beats 5s")
    assert g[af._CHEAPER] == 1 and g[af._OVERKILL] == pytest.approx(8 / 13)
    f = features_of(state, "2h")
    assert f[af._LAY] == 1 and f[af._VALUE] == pytest.approx(2 / 15) and f[af._CARDS] == 1 / 3
    assert f[af._THREAT] == pytest.approx(8 / 13)  # 7h..Ah, all with seat 3
    assert f[af._BACKUP] == 1 and f[af._LOCKED] == 0 and f[af._PROSPECT] == 0
    assert f[af._RISK] > 0.99 and f[af._RELIEF] == 0


def test_a_queen_laid_and_married():
    """Little Country: seat 0 holds Qh and Kh (Ah is with seat 3, an opponent)."""
    game = load("skip_little_country")
    state = deal(game.new_initial_state(), {0: "Qh Kh"}, fill=True)
    f = features_of(state, "Qh")
    assert f[af._PROSPECT] == 1 and f[af._MARRIES] == 0 and f[af._LOCKED] == 0
    assert f[af._THREAT] == pytest.approx(1 / 13)  # only Ah beats a lone Queen
    assert f[af._RISK] == pytest.approx(opponent_share(state.kernel_state(), 0))
    play(state, ["Qh"])
    for _ in range(3):
        play(state, [state.legal_actions()[0]])
    assert state.current_player() == 0
    s = state.kernel_state()
    f = features_of(state, "Kh")
    assert f[af._MARRIES] == f[af._LOCKED] == 1 and f[af._RISK] == f[af._THREAT] == 0
    assert f[af._RELIEF] == pytest.approx(opponent_share(s, 0))  # what Qh was exposed to
    assert f[af._PROSPECT] == f[af._BACKUP] == 0
    f = features_of(state, "Kh on Qh")
    assert f[af._ADD] == 1 and f[af._LOCKED] == 1 and f[af._VALUE] == pytest.approx(25 / 15)
    assert f[af._CARDS] == pytest.approx(2 / 3) and f[af._RELIEF] == pytest.approx(
        opponent_share(s, 0)
    )


# --- a model that reads them ----------------------------------------------------------------


@pytest.mark.parametrize("variant", [VARIANTS[1], VARIANTS[4]])
def test_a_model_reading_the_features_plays_legal_moves_they_steer(variant, tmp_path):
    """A model with random weights plays a whole game with legal moves; one whose only
    weights are the features' biases (-1 on risk) plays a move of least risk."""
    assert play_steered(load(variant), tmp_path, af._RISK, games=1) > 20
