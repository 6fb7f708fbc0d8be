"""Property tests (hypothesis) for the building blocks."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from skip_ai import cards
from skip_ai.kernel import bits
from skip_ai.sim import simulate

card_lists = st.lists(st.integers(0, 53), max_size=60)


@settings(deadline=None)  # the first examples may wait for a kernel to compile
@given(card_lists)
def test_card_text_round_trips(ids):
    assert cards.cards_from_str(cards.cards_to_str(ids)) == ids


@settings(deadline=None)  # the first example compiles the helpers when the cache is cold
@given(st.sets(st.integers(0, 53), min_size=1), st.data())
def test_masks_list_count_and_select(members, data):
    m = np.int64(sum(1 << c for c in members))
    out = np.empty(64, np.int64)
    n = bits.to_list(m, out)
    assert out[:n].tolist() == sorted(members)
    assert bits.popcount(m) == len(members)
    k = data.draw(st.integers(0, len(members) - 1))
    assert bits.kth(m, k) == sorted(members)[k]
    assert bits.lowest(m) == min(members)


@settings(max_examples=10, deadline=None)
@given(
    st.sampled_from(["skip_columns(players=2,deck=36)", "skip_columns(players=6,deck=52)"]),
    st.integers(0, 2**63),
)
def test_every_simulated_game_is_zero_sum_and_complete(game, seed):
    df = simulate(game, 20, seed=seed)
    returns = df.filter(like="return_").to_numpy()
    assert np.allclose(returns.sum(axis=1), 0)
    deck = 36 if "36" in game else 52
    assert (df.num_actions == 2 * deck).all()
    assert (df.score_0 + df.score_1 == deck // 4).all()
