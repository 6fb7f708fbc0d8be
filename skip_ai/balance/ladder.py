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
    for v, game in enumerate(config.games):
        for r, agent in enumerate(config.agents):
            for deal in range(config.deals):
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
            for deal in range(config.trace_deals):
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


def study_size(config: BalanceConfig) -> int:
    """How many games :func:`study_schedule` yields."""
    steps = len(config.agents) - 1
    return sum(
        len(config.agents) * config.deals + steps * config.trace_deals * len(seatings(load(g)))
        for g in config.games
    )
