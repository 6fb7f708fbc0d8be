"""The games of a balance study: per variant, the self-play rungs and the steps of the ladder.

- **Self-play** (match id ``V/self/R/DEAL/0``): rung ``R`` in every seat, ``deals`` deals.
- **Steps** (``V/step/R/DEAL/SEATING``): rung ``R`` (A) against rung ``R − 1`` (B) on
  ``trace_deals`` duplicate deals, every seating of :func:`skip_ai.duplicate.seatings`.

Deal ``d`` has the same seed in every variant, rung and step (the tournament's
:func:`~skip_ai.tournament.schedule.deal_seed` of the batch seed and ``d``): every rung plays
the same cards, and variants that deal alike (same players and deck) do too, so comparisons
between rungs and between variants are paired by deal.
"""

from __future__ import annotations

from collections.abc import Iterator

from skip_ai.balance.config import BalanceConfig
from skip_ai.duplicate import seatings
from skip_ai.pyspiel_wrapper import load
from skip_ai.tournament.schedule import ScheduledGame, deal_seed


def study_schedule(config: BalanceConfig) -> Iterator[ScheduledGame]:
    """Every game of the study in a fixed order: variant, self-play rungs, then steps."""
    for v in range(len(config.games)):
        yield from variant_games(config, v, range(config.deals), range(config.trace_deals))


def variant_games(
    config: BalanceConfig, v: int, deals: range, trace_deals: range
) -> Iterator[ScheduledGame]:
    """Variant ``v``'s games on ``deals`` (self-play, rung by rung) and ``trace_deals`` (the
    steps), in that order."""
    game = config.games[v]
    for r, agent in enumerate(config.agents):
        for deal in deals:
            yield ScheduledGame(
                f"{v}/self/{r}/{deal}/0",
                game,
                deal,
                0,
                deal_seed(config.seed, 0, 0, deal),
                agent,
                agent,
            )
    n_seatings = len(seatings(load(game)))
    for r in range(1, len(config.agents)):
        for deal in trace_deals:
            seed = deal_seed(config.seed, 0, 0, deal)
            for k in range(n_seatings):
                yield ScheduledGame(
                    f"{v}/step/{r}/{deal}/{k}",
                    game,
                    deal,
                    k,
                    seed,
                    config.agents[r],
                    config.agents[r - 1],
                )


def variant_size(config: BalanceConfig, v: int, deals: int, trace_deals: int) -> int:
    """How many games :func:`variant_games` yields for ``deals`` and ``trace_deals`` deals."""
    seats = len(seatings(load(config.games[v])))
    return len(config.agents) * deals + (len(config.agents) - 1) * trace_deals * seats


def study_size(config: BalanceConfig) -> int:
    """How many games :func:`study_schedule` yields."""
    return sum(
        variant_size(config, v, config.deals, config.trace_deals) for v in range(len(config.games))
    )
