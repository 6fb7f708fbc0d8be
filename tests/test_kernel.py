"""The shared kernel pieces: generator, deal plan, knowledge, resampler."""

import numpy as np
import pyspiel

from skip_ai.kernel import rng as krng
from skip_ai.kernel.bits import bit
from skip_ai.kernel.resample import resample_hidden
from skip_ai.kernel.state import (
    DEAL_PLAN,
    GAME,
    H_DEAL_LEN,
    HAND,
    KNOWN,
    LOC,
    MAX_CARDS,
    captain,
    hidden_from,
    init_common,
    partner_of,
    prove_absent_mask,
    standard_deck,
    team_of,
    team_seats,
)
from skip_ai.scenario import deal


def test_generator_is_deterministic_and_uniform_enough():
    a, b = krng.make_rng(5), krng.make_rng(5)
    xs = [krng.below(a, 10) for _ in range(20000)]
    assert xs == [krng.below(b, 10) for _ in range(20000)]
    counts = np.bincount(xs, minlength=10)
    assert counts.min() > 1800 and counts.max() < 2200
    u = [krng.uniform(a) for _ in range(1000)]
    assert 0 <= min(u) and max(u) < 1


def test_below_split_is_below_of_the_product_split():
    for n, m in [(1, 1), (13, 47), (9, 1), (1, 30), (54, 625)]:
        a, b = krng.make_rng(n * 1000 + m), krng.make_rng(n * 1000 + m)
        for _ in range(2000):
            assert krng.below_split(a, n, m) == divmod(krng.below(b, n * m), m)


def test_derived_seeds_do_not_depend_on_the_split():
    base = np.uint64(krng.base_seed(42))
    whole = krng.derive_range(base, 100)
    assert [krng.derive(base, i) for i in range(50, 60)] == whole[50:60].tolist()
    assert len(set(whole.tolist())) == 100


def test_3v3_deal_plan_gives_extras_to_first_and_second_of_each_team():
    game = pyspiel.load_game("skip_columns(players=6,deck=52)")
    s = game.new_initial_state().kernel_state()
    plan = s[DEAL_PLAN : DEAL_PLAN + s[H_DEAL_LEN]]
    assert plan[:48].tolist() == list(range(6)) * 8
    assert plan[48:].tolist() == [0, 1, 3, 4]


def dealt_4p():
    game = pyspiel.load_game("skip_columns(players=4,deck=36)")
    deck = list(range(4, 13)) + list(range(17, 26)) + list(range(30, 39)) + list(range(43, 52))
    hands = {p: deck[9 * p : 9 * p + 9] for p in range(4)}  # seat p holds suit p
    return deal(game.new_initial_state(), hands)


def test_teams_sit_side_by_side_unless_a_game_seats_them_otherwise():
    """RULES §0.2: team 1 is the seats s with 2s >= n, a captain is his team's first seat;
    Sixty-six (§12): partners alternate. Every game's teams come from ``H_TEAMS``."""
    for n in range(2, 7):
        s = np.zeros(GAME, np.int64)
        init_common(s, n, standard_deck(24, False))
        teams = [int(team_of(s, q)) for q in range(n)]
        assert teams == [int(2 * q >= n) for q in range(n)]
        for t in (0, 1):
            assert team_seats(s, t) == sum(1 << q for q in range(n) if teams[q] == t)
        if n % 2 == 0:
            assert [captain(s, t) for t in (0, 1)] == [0, n // 2]
    four = pyspiel.load_game("skip_fours")
    assert four.teams().tolist() == [0, 0, 1, 1]
    assert [partner_of(four.initial, q) for q in range(4)] == [1, 0, 3, 2]
    sixty_six = pyspiel.load_game("classic_sixty_six_4p")
    assert sixty_six.teams().tolist() == [0, 1, 0, 1]
    assert [partner_of(sixty_six.initial, q) for q in range(4)] == [2, 3, 0, 1]
    assert [captain(sixty_six.initial, t) for t in (0, 1)] == [0, 1]


def test_hidden_cards_are_other_hands_only():
    state = dealt_4p()
    s = state.kernel_state()
    for p in range(4):
        hidden = {c for c in range(MAX_CARDS) if hidden_from(s, c, p)}
        assert hidden == {c for c in range(MAX_CARDS) if s[LOC + c] not in (p, -1)}
    state.apply_action(4)  # seat 0 plays 6s: public now
    s = state.kernel_state()
    assert not any(hidden_from(s, 4, p) for p in range(4))
    assert s[KNOWN + 4] == 0b1111


def test_resample_moves_hidden_cards_and_keeps_hand_sizes():
    state = dealt_4p()
    base = state.kernel_state()
    changed = 0
    for seed in range(20):
        s = base.copy()
        sigma = np.empty(MAX_CARDS, np.int64)
        resample_hidden(s, 0, krng.make_rng(seed), sigma)
        assert [bin(x).count("1") for x in s[HAND : HAND + 4]] == [9, 9, 9, 9]
        for c in range(MAX_CARDS):
            assert (s[LOC + c] == 0) == (base[LOC + c] == 0)  # own hand untouched
        assert sorted(sigma.tolist()) == list(range(MAX_CARDS))
        for c in range(MAX_CARDS):
            assert s[LOC + sigma[c]] == base[LOC + c]  # sigma[c] took c's place
        changed += int((s != base).any())
    assert changed >= 18


def test_resample_respects_cards_proved_absent():
    """Seat 1 proved to hold no club and seat 3 no diamond: every world agrees."""
    state = dealt_4p()
    base = state.kernel_state()
    clubs, diamonds = range(17, 26), range(30, 39)
    for c in clubs:
        prove_absent_mask(base, 1, bit(c))
    for c in diamonds:
        prove_absent_mask(base, 3, bit(c))
    worlds = set()
    for seed in range(30):
        s = base.copy()
        resample_hidden(s, 0, krng.make_rng(seed), np.empty(MAX_CARDS, np.int64))
        assert all(s[LOC + c] != 1 for c in clubs)
        assert all(s[LOC + c] != 3 for c in diamonds)
        assert [bin(x).count("1") for x in s[HAND + 1 : HAND + 4]] == [9, 9, 9]
        worlds.add(tuple(s[LOC : LOC + MAX_CARDS]))
    assert len(worlds) > 1


def test_resample_finds_the_only_consistent_world():
    """Constraints that leave exactly one world (the true one): uniform shuffles almost never
    hit it, so this exercises the matching fallback."""
    state = dealt_4p()
    base = state.kernel_state()
    clubs, diamonds, hearts = range(17, 26), range(30, 39), range(43, 52)
    for c in [*diamonds, *hearts]:
        prove_absent_mask(base, 1, bit(c))
    for c in [*clubs, *hearts]:
        prove_absent_mask(base, 2, bit(c))
    for seed in range(10):
        s = base.copy()
        sigma = np.empty(MAX_CARDS, np.int64)
        resample_hidden(s, 0, krng.make_rng(seed), sigma)
        np.testing.assert_array_equal(s, base)


def test_kernel_decks_match_the_cards_module():
    from skip_ai import cards
    from skip_ai.kernel.state import standard_deck

    for size in (24, 36, 52):
        for jokers in (False, True):
            assert standard_deck(size, jokers).tolist() == cards.deck(size, jokers).tolist()


def test_segments_list_and_sample_agree():
    from skip_ai.kernel.bits import list_segments, sample_segments

    masks = (np.int64(0b1011), np.int64(0), np.int64(1 << 53))
    out = np.empty(200, np.int64)
    n = list_segments(masks, 162, out)
    assert out[:n].tolist() == [0, 1, 3, 108 + 53, 162]
    for seed in range(50):
        a, b = krng.make_rng(seed), krng.make_rng(seed)
        assert sample_segments(masks, 162, a) == out[krng.below(b, n)]
