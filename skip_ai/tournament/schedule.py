"""The games of a batch: every game × every unordered pair of agents × deals × seatings.

Each scheduled game carries everything needed to play it (plain data, so a task can be
pickled to a process or a Ray worker). Its deal seed comes from the batch seed through
``numpy.random.SeedSequence`` keyed by the match identity (game index, pair index, deal), so a
game's cards never depend on how the batch is split up, on the worker count or on the order
in which games are played; every seating of a deal shares the seed, hence the cards.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from skip_ai.duplicate import seatings
from skip_ai.pyspiel_wrapper import load
from skip_ai.tournament.config import Agent, TournamentConfig


@dataclass(frozen=True)
class ScheduledGame:
    match_id: str  # "game index/pair index/deal/seating", unique within the batch
    game: str
    deal: int
    seating: int
    seed: int
    agent_a: Agent
    agent_b: Agent
    mirrored: bool = False  # dealt the mirror of the seed's deal (skip_ai.mirror)


def deal_seed(batch_seed: int, game_index: int, pair_index: int, deal: int) -> int:
    """The seed of one deal: independent streams per match identity."""
    seq = np.random.SeedSequence(batch_seed, spawn_key=(game_index, pair_index, deal))
    return int(seq.generate_state(1, np.uint64)[0])


def schedule(config: TournamentConfig, interleaved: bool = False) -> Iterator[ScheduledGame]:
    """Every game of the batch, in a fixed order: (game, pair, deal, seating), or with
    ``interleaved`` (deal, game, pair, seating), the order the runner plays them in, so that
    the games played at any moment are a fair sample of the batch, slow pairs and fast alike
    (the time left it shows is then honest from the first deals on). The games are the same
    either way, and so are their records."""
    blocks = [
        (gi, game, len(seatings(load(game))), pi, a, b)
        for gi, game in enumerate(config.games)
        for pi, (a, b) in enumerate(itertools.combinations(config.agents, 2))
    ]
    if interleaved:
        for deal in range(config.deals):
            for block in blocks:
                yield from _seatings(config.seed, deal, *block)
    else:
        for block in blocks:
            for deal in range(config.deals):
                yield from _seatings(config.seed, deal, *block)


def _seatings(
    batch_seed: int, deal: int, gi: int, game: str, n_seatings: int, pi: int, a: Agent, b: Agent
) -> Iterator[ScheduledGame]:
    """The games of one deal of one (game, pair): every seating, on the same cards."""
    seed = deal_seed(batch_seed, gi, pi, deal)
    for k in range(n_seatings):
        yield ScheduledGame(f"{gi}/{pi}/{deal}/{k}", game, deal, k, seed, a, b)


def schedule_size(config: TournamentConfig) -> int:
    """How many games :func:`schedule` yields, without listing them."""
    pairs = len(config.agents) * (len(config.agents) - 1) // 2
    return sum(len(seatings(load(g))) for g in config.games) * pairs * config.deals
