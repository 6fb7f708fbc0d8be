"""Sixty-six for four (RULES.md §12): what a resampled world may show a player — the catchers'
secret suits of a nines game (§12.7.3, §12.10) and worlds that fit every public fact."""

import numpy as np
import pyspiel
import pytest
from conftest import random_states

from agents import make_agent
from skip_ai.games import sixty_six as K
from skip_ai.kernel.rng import make_rng
from skip_ai.kernel.state import LOC, MAX_CARDS, NUM_CARDS
from skip_ai.scenario import play
from tests.sixty_six_helpers import GAME_HANDS, dealt, nines_state

SUITS = "scdh"
THREE_HANDS = {
    0: ("9s Ah Kd", "9c Jc Kc"),
    1: ("Ac Tc Ks", "Qc As Ad"),
    2: ("Js Td 9d", "Qd Jd Jh"),
    3: ("Th Kh Ts", "Qh 9h Qs"),
}
"""Seat 0 and his partner hold 9s 9c 9d: three nines, catches among s, c, d."""


def at_target(c1, c2, hands=GAME_HANDS, game_name="TWO_DARK"):
    """Seat 0 asked, chose the game; seat 1 caught ``c1``, seat 3 ``c2``: seat 0 lays the
    target."""
    state = nines_state(hands)
    play(state, ["NINES", game_name, f"CATCH({c1})", f"CATCH({c2})"])
    assert kernel_phase(state) == K.PH_NG_TARGET and state.current_player() == 0
    return state


def kernel_phase(state):
    return int(state.kernel_state()[K.SX_PHASE])


def catches(s):
    return SUITS[int(s[K.SX_NG_CATCH])] + SUITS[int(s[K.SX_NG_CATCH + 1])]


def kernel_resample(state, p, seed):
    world = state.kernel_state()
    K.resample(world, p, make_rng(seed), np.empty(MAX_CARDS, np.int64))
    return world


def same_view(a, b, p):
    assert a.information_state_string(p) == b.information_state_string(p)
    assert a.observation_string(p) == b.observation_string(p)
    assert a.observation_tensor(p) == b.observation_tensor(p)
    assert a.current_player() == b.current_player()


@pytest.mark.parametrize(
    "game_name,hands,legal", [("TWO_DARK", GAME_HANDS, "scdh"), ("THREE_NINES", THREE_HANDS, "scd")]
)
def test_the_initiator_sees_every_legal_catch_in_his_worlds(game_name, hands, legal):
    state = at_target(legal[0], legal[-1], hands, game_name)
    seen_kernel, seen_replay = set(), set()
    for seed in range(60):
        world = kernel_resample(state, 0, seed)
        seen_kernel.add(catches(world))
        r = state.resample_from_infostate(0, rng=make_rng(seed))
        # the replayed history holds the redrawn catches: it is that very world
        np.testing.assert_array_equal(r.kernel_state(), world)
        seen_replay.add(catches(r.kernel_state()))
        same_view(r, state, 0)
        assert r.legal_actions() == state.legal_actions()
    assert seen_kernel == seen_replay
    assert {c[0] for c in seen_kernel} == set(legal) == {c[1] for c in seen_kernel}
    assert len(seen_kernel) > len(legal)  # the two catches are drawn independently


def test_each_catcher_keeps_his_own_catch_and_redraws_the_other():
    state = at_target("c", "d")
    for p, own, other in ((1, 0, 1), (3, 1, 0)):
        seen = set()
        for seed in range(40):
            r = state.resample_from_infostate(p, rng=make_rng(seed))
            s = r.kernel_state()
            assert catches(s)[own] == "cd"[own]
            seen.add(catches(s)[other])
            same_view(r, state, p)
        assert seen == set("scdh")


def test_the_second_catcher_does_not_see_the_first_catch():
    state = nines_state()
    play(state, ["NINES", "TWO_DARK", "CATCH(h)"])
    assert state.current_player() == 3
    seen = {catches(kernel_resample(state, 3, seed))[0] for seed in range(40)}
    assert seen == set("scdh")
    assert {catches(kernel_resample(state, 1, seed))[0] for seed in range(10)} == {"h"}


BOTH_HANDS = {
    0: ("9s Ah Kd", "9c Jc Kc"),
    1: ("Ac Tc 9d", "Qc 9h Ad"),
    2: ("Js Td Ks", "Qd Jd As"),
    3: ("Th Kh Ts", "Qh Jh Qs"),
}
"""Seat 0 and seat 1 hold two nines each: both teams play two dark."""


def test_a_resolved_catch_is_public_and_stays():
    state = at_target("s", "h", BOTH_HANDS)
    play(state, ["9c"])  # not caught; the catches are shown with the result
    for p in range(4):
        for seed in range(10):
            r = state.resample_from_infostate(p, rng=make_rng(seed))
            assert catches(r.kernel_state()) == "sh"
            same_view(r, state, p)
    # the other team's game: the first game's catches stay public (and true in every world),
    # the new ones are hidden from those who did not make them
    play(state, ["NINES", "TWO_DARK", "CATCH(c)", "CATCH(d)"])
    assert state.current_player() == 1
    for p in range(4):
        assert "catch0=sh" in state.information_state_string(p)
        assert "catch1" not in state.information_state_string(p)
    seen = set()
    for seed in range(100):
        r = state.resample_from_infostate(1, rng=make_rng(seed))
        s = r.kernel_state()
        assert s[K.SX_TEAM_CATCH] == 1 + 4 * SUITS.index("s") + SUITS.index("h")
        seen.add(catches(s))
        same_view(r, state, 1)
    assert len(seen) == 16
    play(state, ["9d"])  # caught by seat 0's diamond
    assert "catch0=sh" in state.information_state_string(3)
    assert "catch1=cd" in state.information_state_string(3)


@pytest.mark.parametrize("p", [0, 2])
def test_worlds_do_not_depend_on_the_secret_catches(p):
    """States that differ only in the catchers' suits give the initiator (and his partner)
    the same worlds for the same generator."""
    states = [at_target(a, b) for a, b in ("ss", "ch", "dd", "hc")]
    for seed in range(5):
        worlds = [kernel_resample(state, p, seed) for state in states]
        for world in worlds[1:]:
            np.testing.assert_array_equal(world, worlds[0])
        replays = [state.resample_from_infostate(p, rng=make_rng(seed)) for state in states]
        for r in replays[1:]:
            assert r.history() == replays[0].history()
    # the second catcher, before his choice, sees the same worlds whatever the first chose
    second = []
    for c in "scdh":
        state = nines_state()
        play(state, ["NINES", "TWO_DARK", f"CATCH({c})"])
        second.append(kernel_resample(state, 3, 7))
    for world in second[1:]:
        np.testing.assert_array_equal(world, second[0])


def test_ismcts_target_choice_ignores_the_true_catches():
    """The leak's regression test: the initiator's search gives the same statistics whatever
    the catchers really chose (before the fix it laid the nine nobody caught)."""
    results = set()
    for a, b in ("ss", "cc", "sh", "cd"):
        state = at_target(a, b)
        bot = make_agent("ismcts(iterations=2000)", state.get_game(), seed=0)
        action = bot.step(state)
        stats = bot.last_search
        results.add((action, tuple(stats.actions.tolist()), tuple(stats.visits.tolist())))
    assert len(results) == 1


# --- worlds that fit every public fact -------------------------------------------------------

PICTURE_HANDS = {
    0: ("9s 9c 9d", "9h Td Th"),
    1: ("Kd Qd Jd", "Kh Qh As"),
    2: ("Ks Qs Js", "Kc Qc Jc"),
    3: ("Jh Ac Ad", "Ah Ts Tc"),
}
"""Seat 1 bids five pictures, seat 2 six: 11 of the 12 pictures in those two hands."""


def two_picture_bids():
    state = dealt(PICTURE_HANDS, contracts=True)
    play(state, ["PASS", "BID(five pictures)", "BID(six pictures)", "PASS"])
    assert kernel_phase(state) == K.PH_CPLAY and state.current_player() == 2
    return state


def test_a_world_that_uniform_draws_rarely_hit_still_fits_every_fact():
    """For seat 3 about one uniform world in 5,000 fits both bids: the search finds one."""
    state = two_picture_bids()
    for seed in range(10):
        r = state.resample_from_infostate(3, rng=make_rng(seed))
        s = r.kernel_state()
        assert K.facts_hold(s)
        assert sum(1 for c in range(NUM_CARDS) if s[LOC + c] == 2 and (K.PICTURES >> c) & 1) == 6
        same_view(r, state, 3)


@pytest.mark.parametrize(
    "params",
    ["mode=deal,nines=true,contracts=true,cut=true,redeal=true", "nines=true,contracts=true"],
)
def test_the_search_alone_gives_consistent_canonical_worlds(params):
    """``resample_tries(..., 0)`` (no uniform draw, the search alone) on random positions:
    every fact holds, the history replays to that world, and the world depends only on the
    player's information."""
    g = pyspiel.load_game(f"classic_sixty_six_4p({params})")
    sigma = np.empty(MAX_CARDS, np.int64)
    for seed in range(3):
        states, _ = random_states(g, seed=seed, count=10)
        for state in [*states, two_picture_bids()]:
            for p in range(4):
                world = state.kernel_state()
                K.resample_tries(world, p, make_rng(seed), sigma, 0)
                assert K.facts_hold(world)
                r = state.replay(sigma, world)
                np.testing.assert_array_equal(r.kernel_state(), world)
                same_view(r, state, p)
                # from another world of p's: the same search result
                other = state.kernel_state()
                K.resample(other, p, make_rng(seed + 100), sigma)
                again = other.copy()
                K.resample_tries(again, p, make_rng(seed), sigma, 0)
                mine = state.kernel_state()
                K.resample_tries(mine, p, make_rng(seed), sigma, 0)
                np.testing.assert_array_equal(again, mine)


def test_other_games_replay_as_before():
    """Sixty-six's ``remap`` is its own: another game replays players' actions as played."""
    states, _ = random_states(pyspiel.load_game("skip_brook"), seed=1, count=3)
    for state in states:
        r = state.resample_from_infostate(state.current_player(), rng=make_rng(3))
        players = [(i.player, i.action) for i in state.full_history() if i.player >= 0]
        assert players == [(i.player, i.action) for i in r.full_history() if i.player >= 0]
