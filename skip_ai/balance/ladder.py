"""The games of a balance study: per variant, the self-play rungs and the steps of the ladder.

- **Self-play** (match id ``V/self/R/DEAL/0``): rung ``R`` of variant ``V``'s ladder in every
  seat. With ``mirror = true``, a variant whose game declares a mirror (:mod:`skip_ai.mirror`)
  also plays the deal's mirror (``V/self/R/DEAL/m``): the two games are one *unit* of the
  headline, analysed as a pair.
- **Steps** (``V/step/R/DEAL/SEATING``): rung ``R`` (A) against rung ``R − 1`` (B) on duplicate
  deals, every seating of :func:`skip_ai.duplicate.seatings`.

Deal ``d`` has the same seed in every variant, rung and step (the tournament's
:func:`~skip_ai.tournament.schedule.deal_seed` of the batch seed and ``d``): every rung plays
the same cards, and variants that deal alike (same players and deck) do too, so comparisons
between rungs and between variants are paired by deal.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from skip_ai.balance.config import BalanceConfig
from skip_ai.duplicate import seatings
from skip_ai.mirror import no_mirror_reason
from skip_ai.pyspiel_wrapper import load
from skip_ai.tournament.schedule import ScheduledGame, deal_seed

MIRROR = "m"
"""The last part of a mirrored self-play game's match id (``V/self/R/DEAL/m``)."""


def study_schedule(config: BalanceConfig) -> Iterator[ScheduledGame]:
    """Every game of a study of fixed deal counts, in a fixed order: variant, self-play
    rungs, then steps."""
    for v in range(len(config.games)):
        yield from variant_games(config, v, range(config.deals), range(config.trace_deals))


def mirrored(config: BalanceConfig, v: int) -> bool:
    """Does variant ``v``'s self-play play each deal with its mirror (``mirror = true`` and a
    variant that has one: not Pyatki, nor a variant whose deal treats the teams unalike)?"""
    return config.mirror and has_mirror(config.games[v])


@cache
def has_mirror(game: str) -> bool:
    """Does the variant have a mirror? (Found by dealing it once: asked at every look.)"""
    return no_mirror_reason(load(game)) is None


def selfplay_games(config: BalanceConfig, v: int, r: int, deals: range) -> Iterator[ScheduledGame]:
    """Rung ``r`` of variant ``v`` in self-play on ``deals`` (each with its mirror if any)."""
    game, agent = config.games[v], config.rungs(v)[r]
    pair = mirrored(config, v)
    for deal in deals:
        seed = deal_seed(config.seed, 0, 0, deal)
        yield ScheduledGame(f"{v}/self/{r}/{deal}/0", game, deal, 0, seed, agent, agent)
        if pair:
            yield ScheduledGame(
                f"{v}/self/{r}/{deal}/{MIRROR}", game, deal, 0, seed, agent, agent, True
            )


def step_games(config: BalanceConfig, v: int, r: int, deals: range) -> Iterator[ScheduledGame]:
    """Step ``r`` of variant ``v``'s ladder (rung ``r`` against ``r − 1``) on ``deals``."""
    game, rungs = config.games[v], config.rungs(v)
    n_seatings = len(seatings(load(game)))
    for deal in deals:
        seed = deal_seed(config.seed, 0, 0, deal)
        for k in range(n_seatings):
            yield ScheduledGame(
                f"{v}/step/{r}/{deal}/{k}", game, deal, k, seed, rungs[r], rungs[r - 1]
            )


def variant_games(
    config: BalanceConfig, v: int, deals: range, trace_deals: range
) -> Iterator[ScheduledGame]:
    """Variant ``v``'s games on ``deals`` (self-play, rung by rung) and ``trace_deals`` (the
    steps), in that order."""
    rungs = len(config.rungs(v))
    for r in range(rungs):
        yield from selfplay_games(config, v, r, deals)
    for r in range(1, rungs):
        yield from step_games(config, v, r, trace_deals)


def games_per_deal(config: BalanceConfig, v: int) -> int:
    """Self-play games per deal and rung of variant ``v``: 2 with its mirror, else 1."""
    return 2 if mirrored(config, v) else 1


def variant_size(config: BalanceConfig, v: int, deals: int, trace_deals: int) -> int:
    """How many games :func:`variant_games` yields for ``deals`` and ``trace_deals`` deals."""
    seats = len(seatings(load(config.games[v])))
    rungs = len(config.rungs(v))
    return rungs * deals * games_per_deal(config, v) + (rungs - 1) * trace_deals * seats


def study_size(config: BalanceConfig) -> int:
    """How many games :func:`study_schedule` yields."""
    return sum(
        variant_size(config, v, config.deals, config.trace_deals) for v in range(len(config.games))
    )
