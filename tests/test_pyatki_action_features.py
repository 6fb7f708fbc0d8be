"""Pyatki's action features (``skip_ai/games/pyatki/action_features.py``), both games: only
what the mover knows, each lookahead feature exactly what the game then does, the heuristic's
preferences as one linear score, a few chosen positions, and a model reading them playing."""

import itertools
from math import comb

import numpy as np
import pytest

from agents import make_agent
from agents.heuristics import pyatki as heuristic
from agents.model import PolicyValueNet
from skip_ai.games.pyatki import action_features as af
from skip_ai.games.pyatki.layout import PY_PLACE
from skip_ai.kernel.attack import (
    AT_ATTACKER,
    AT_CARDS,
    AT_DEFENDER,
    AT_DEFENDING,
    AT_NEXT,
    AT_PICKED,
    AT_SIZE,
    AT_TAKEN,
    ATTACK,
    COVER0,
    TAKE,
    limit,
)
from skip_ai.kernel.rng import make_rng
from skip_ai.kernel.state import DECK, H_CUR, HAND, team_of
from skip_ai.pyspiel_wrapper import load
from skip_ai.scenario import deal, play
from tests.feature_helpers import features, positions, redeal_changes

VARIANTS = [
    "skip_pyatki(players=2,deck=36)",
    "skip_pyatki(players=3,deck=52,places=true)",
    "skip_pyatki(players=5,deck=36)",
    "skip_pyatki_pairs(deck=36)",
    "skip_pyatki_pairs(deck=52)",
]


def settle(state, rng):
    """Resolve chance nodes (refills) at random until a decision or the end."""
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.integers(len(outcomes))][0])
    return state


def went_out(before, after, seat):
    """Did ``seat`` go out (Pyatki: take a place; pairs: be left with no cards, done with the
    exchange) between the two states?"""
    s, t = before.kernel_state(), after.kernel_state()
    if before.get_game().spec.short_name == "skip_pyatki":
        return s[PY_PLACE + seat] < 0 <= t[PY_PLACE + seat]
    done = after.is_terminal() or after.current_player() != seat
    return t[HAND + seat] == 0 and done


def most_covers(state):
    """The most attacking cards the defender can still cover from here (every line of
    covers and takes of the exchange tried)."""
    s = state.kernel_state()
    if state.is_terminal() or not s[AT_DEFENDING] or state.current_player() != s[AT_DEFENDER]:
        return 0
    best = 0
    for a in state.legal_actions():
        if a != TAKE:
            child = state.clone()
            child.apply_action(a)
            # the exchange may end here: then nothing is left to cover
            more = most_covers(child) if child.kernel_state()[AT_NEXT] > s[AT_NEXT] else 0
            best = max(best, 1 + more)
        else:
            child = state.clone()
            child.apply_action(a)
            best = max(best, most_covers(child))
    return best


def attack_sizes(picked, held, c, lim):
    """Brute force: the fewest and the most cards of a valid attack made of ``picked``,
    ``c`` and cards of ``held`` above ``c``."""
    base = [x for x in range(54) if picked >> x & 1] + [c]
    higher = [x for x in range(c + 1, 54) if held >> x & 1 and not picked >> x & 1]
    sizes = []
    for extra in range(0, 5 - len(base) + 1):
        for more in itertools.combinations(higher, extra):
            attack = base + list(more)
            ranks = [x % 13 for x in attack]
            pairs = sum(ranks.count(r) // 2 for r in set(ranks))
            n = len(attack)
            if n in (1, 3, 5) and n <= lim and pairs >= (n - 1) // 2:
                sizes.append(n)
    return min(sizes), max(sizes)


def test_the_docstring_lists_every_feature():
    assert isinstance(af.VERSION, int) and isinstance(af.SIZE, int) and 8 <= af.SIZE <= 20
    for i in range(af.SIZE):
        assert f"\n{i}: " in af.__doc__
    assert f"\n{af.SIZE}: " not in af.__doc__
    assert np.array_equal(af.PLAN_WEIGHTS, heuristic.WEIGHTS)  # else raise VERSION
    for variant in ("skip_pyatki", "skip_pyatki_pairs"):
        assert load(variant).spec.action_features is af


@pytest.mark.parametrize("variant", VARIANTS)
def test_values_are_finite_and_small(variant):
    for state in positions(variant, 1, every=3):
        _, f = features(state)
        assert np.isfinite(f).all()
        assert (f >= 0).all() and (f <= 1).all()


def test_every_feature_tells_some_moves_of_a_position_apart():
    """No feature is the same for every move of every position (a softmax could not use
    it)."""
    varies = np.zeros(af.SIZE, bool)
    for variant in VARIANTS:
        for seed in (1, 2):
            for state in positions(variant, seed, every=1):
                _, f = features(state)
                varies |= f.min(0) != f.max(0)
    assert varies.all(), np.flatnonzero(~varies)


@pytest.mark.parametrize("variant", VARIANTS)
def test_features_depend_only_on_what_the_mover_knows(variant):
    """Re-dealing every card hidden from the mover changes no feature of any move."""
    assert any([redeal_changes(state) for state in positions(variant, 7, every=5)])


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_lookahead_features_are_what_the_game_then_does(variant):
    """``out``, ``exposes``, ``initiative``, ``uncovered``, ``size``, ``pair`` and the move
    kinds, against the game played on from a copy with the move applied."""
    rng = np.random.default_rng(0)
    pairs = "pairs" in variant
    keys = ("out", "exposes", "pick_exposes", "initiative", "uncovered", "full_cover")
    seen = dict.fromkeys(keys, 0)
    for seed in (3, 4):
        for state in positions(variant, seed, every=1):
            s = state.kernel_state()
            cur = int(s[H_CUR])
            legal, f = features(state)
            for a, row in zip(legal, f, strict=True):
                assert row[af._TAKE] == (a == TAKE) and row[af._LAUNCH] == (a == ATTACK)
                card = a - COVER0 if a >= COVER0 else a
                puts = a < ATTACK or COVER0 <= a < TAKE
                assert row[af._SHED_STOCK] + row[af._SHED_END] == puts
                assert row[af._SHED_STOCK] == (puts and s[DECK] != 0)
                after = state.clone()
                after.apply_action(int(a))
                settle(after, rng)
                if not puts or s[AT_DEFENDING]:  # a pick takes nobody out yet
                    assert row[af._OUT] == went_out(state, after, cur)
                    seen["out"] += row[af._OUT]
                t = after.kernel_state()
                if s[AT_DEFENDING]:
                    rest = int(s[AT_SIZE] - s[AT_NEXT] - 1)
                    # TAKE and covers alike leave ``rest`` cards, answered by the hand left
                    left = after if after.kernel_state()[AT_NEXT] > s[AT_NEXT] else None
                    covered = most_covers(left) if left is not None and rest else 0
                    assert row[af._UNCOVERED] * 4 == rest - covered
                    seen["uncovered"] += row[af._UNCOVERED] > 0
                    ends = rest == 0
                    if ends and not after.is_terminal() and after.current_player() >= 0:
                        nxt = int(t[AT_ATTACKER])
                        if pairs:
                            mine = team_of(t, nxt) == team_of(s, cur)
                        else:
                            mine = nxt == cur
                        # the defender who covered everything attacks (his team, in pairs),
                        # unless he went out
                        assert row[af._INITIATIVE] == (mine or row[af._OUT] == 1)
                        seen["initiative"] += row[af._INITIATIVE]
                    assert row[af._INITIATIVE] <= (a != TAKE and ends and s[AT_TAKEN] == 0)
                elif a == ATTACK:
                    assert row[af._SIZE] * 5 == bin(int(s[AT_PICKED])).count("1")
                    dfd = int(s[AT_DEFENDER])
                    line, covered = after.clone(), 0
                    while covered < s[AT_SIZE]:
                        covers = [x for x in line.legal_actions() if x != TAKE]
                        if not covers:
                            break
                        line.apply_action(covers[0])
                        covered += 1
                    settle(line, rng)
                    if covered == s[AT_SIZE]:
                        seen["full_cover"] += 1
                        assert row[af._EXPOSES] == went_out(after, line, dfd)
                        seen["exposes"] += row[af._EXPOSES]
                else:
                    held = int(s[HAND + cur])
                    fewest, most = attack_sizes(int(s[AT_PICKED]), held, card, limit(s))
                    assert row[af._SIZE] * 5 == most
                    assert row[af._OUT] == (s[DECK] == 0 and most == bin(held).count("1"))
                    dfd_n = bin(int(s[HAND + s[AT_DEFENDER]])).count("1")
                    if s[DECK] == 0:
                        assert row[af._EXPOSES] == (fewest == dfd_n)
                    seen["pick_exposes"] += row[af._EXPOSES]
                    ranks = [int(s[AT_CARDS + i]) % 13 for i in range(int(s[AT_SIZE]))]
                    assert row[af._PAIR] == ranks.count(card % 13) % 2
    assert seen["uncovered"] > 0 and seen["initiative"] > 0 and seen["full_cover"] > 0, seen
    assert seen["out"] > 0, seen


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_heuristic_plays_a_move_the_linear_score_rates_best(variant):
    """Defending, with any of its weights, the heuristic's value is the linear score of the
    module docstring; building, ``plan`` marks its move."""
    rng = np.random.default_rng(5)
    weights = [heuristic.WEIGHTS] + [rng.uniform(0.1, 3.0, 5) for _ in range(3)]
    for state in positions(variant, 8, every=1) + positions(variant, 9, every=1):
        s = state.kernel_state()
        legal, f = features(state)
        for k, w in enumerate(weights):
            a = heuristic.act(s.copy(), make_rng(k), w)
            i = int(np.flatnonzero(legal == a)[0])
            if not s[AT_DEFENDING]:
                if k == 0:
                    assert f[:, af._PLAN].sum() == 1 and f[i, af._PLAN] == 1
                continue
            value = (
                2 * w[heuristic.SHED_STOCK] * f[:, af._SHED_STOCK]
                + 2 * w[heuristic.SHED_END] * f[:, af._SHED_END]
                - f[:, af._RANK]
                - w[heuristic.TRUMP] * f[:, af._TRUMP]
                + f[:, af._TAKEN_RANK]
                + w[heuristic.TRUMP] * f[:, af._TAKEN_TRUMP]
                + w[heuristic.INITIATIVE] * f[:, af._INITIATIVE]
            )
            assert value[i] >= value.max() - 1e-9
            assert (f[:, af._PLAN] == 0).all()


def start(hands, trump):
    """Two players, 36 cards: the hands, then the trump card turned."""
    state = deal(load("skip_pyatki(players=2)").new_initial_state(), hands)
    return play(state, [trump])


def features_of(state, move):
    legal, f = features(state)
    names = [state.action_to_string(state.current_player(), a) for a in legal]
    return f[names.index(move)]


def test_the_first_pick_of_an_attack():
    """Hearts are trump; seat 0 holds the lowest trump (Kh) and attacks with 6s 6c 7d."""
    state = start({0: "6s 6c 7d Ah Kh", 1: "8s 9s Tc Jd Qs"}, "Qh")
    f = features_of(state, "6s")
    assert f[af._PLAN] == 1 and f[af._SHED_STOCK] == 1 and f[af._SHED_END] == 0
    assert f[af._RANK] == 0 and f[af._TRUMP] == 0 and f[af._PAIR] == 0
    assert f[af._SIZE] == 3 / 5  # one pair: no five
    # 14 of the 30 cards hidden from seat 0 cover 6s (7s..As, 6h..Jh), he holds 5 of them
    assert np.isclose(f[af._COVER_ODDS], 1 - comb(16, 5) / comb(30, 5))
    f = features_of(state, "Ah")
    assert f[af._RANK] == 1 and f[af._TRUMP] == 1 and f[af._COVER_ODDS] == 0
    assert f[af._SIZE] == 1 / 5 and f[af._PLAN] == 0
    play(state, ["6s"])
    f = features_of(state, "6c")
    assert f[af._PAIR] == 1 and f[af._SIZE] == 3 / 5 and f[af._PLAN] == 1
    f = features_of(state, "ATTACK")
    assert f[af._LAUNCH] == 1 and f[af._SIZE] == 1 / 5 and f[af._SHED_STOCK] == 0
    assert f[af._OUT] == f[af._EXPOSES] == 0


def test_a_card_the_defender_is_known_to_hold_covers_for_sure():
    """Seat 1 took 7s (seen by all); seat 0, who drew 9d, attacks again: 7s covers 6s."""
    state = start({0: "7s 6s 8d Ah Kh", 1: "9c Tc Jd Qs Qc"}, "Qh")
    play(state, ["7s", "ATTACK", "TAKE", "9d"])
    assert state.current_player() == 0
    assert features_of(state, "6s")[af._COVER_ODDS] == 1
    assert features_of(state, "Ah")[af._COVER_ODDS] == 0
    # hidden from seat 0: 36 - its 5 - Qh - 7s = 29 cards, 11 of them cover 8d (Td..Ad,
    # 6h..Jh); seat 1's 5 other cards are among them
    f = features_of(state, "8d")
    assert np.isclose(f[af._COVER_ODDS], 1 - comb(18, 5) / comb(29, 5))


def test_covering_with_the_trump_a_later_card_needs_leaves_it_uncovered():
    """Hearts are trump; seat 0 (6h, the lowest trump) attacks with 9s 6c 6d; seat 1 can
    cover 6d only with 8h."""
    state = start({0: "6h 6c 6d 9s Ts", 1: "7c 8h Js Qs Ks"}, "Qh")
    play(state, ["9s", "6c", "6d", "ATTACK"])
    f = features_of(state, "cover with 8h")
    assert f[af._UNCOVERED] == 1 / 4 and f[af._TRUMP] == 1 and f[af._INITIATIVE] == 0
    assert f[af._RANK] == 2 / 8
    f = features_of(state, "cover with Js")
    assert f[af._UNCOVERED] == 0 and f[af._RANK] == 5 / 8 and f[af._SHED_STOCK] == 1
    f = features_of(state, "TAKE")
    assert f[af._TAKE] == 1 and f[af._TAKEN_RANK] == 3 / 8 and f[af._TAKEN_TRUMP] == 0
    assert f[af._UNCOVERED] == 0 and f[af._SHED_STOCK] == f[af._RANK] == 0
    play(state, ["cover with Js"])
    assert features_of(state, "cover with 8h")[af._UNCOVERED] == 1 / 4
    assert features_of(state, "cover with 7c")[af._UNCOVERED] == 0
    play(state, ["cover with 7c"])
    f = features_of(state, "cover with 8h")
    assert f[af._INITIATIVE] == 1 and f[af._OUT] == 0 and f[af._UNCOVERED] == 0


@pytest.mark.parametrize("variant", ["skip_pyatki(players=3)", "skip_pyatki_pairs"])
def test_a_model_reading_the_features_plays_legal_moves(tmp_path, variant):
    game = load(variant)
    module = game.spec.action_features
    net = PolicyValueNet.initial(
        str(game), game.obs_size, game.num_distinct_actions(), (8,)
    ).with_action_features(module.VERSION, module.SIZE)
    net.params[:] = np.random.default_rng(1).normal(0, 0.5, len(net.params))
    net.save(tmp_path / "m.npz")
    bot = make_agent(f"learned(model={tmp_path / 'm.npz'})", game)
    assert bot.model.feature_size == af.SIZE
    rng = np.random.default_rng(2)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal() and moves < 300:
        if state.is_chance_node():
            settle(state, rng)
            continue
        a = bot.step(state)
        assert a in state.legal_actions()
        state.apply_action(a)
        moves += 1
    assert moves > 20
