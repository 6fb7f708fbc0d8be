"""Duplicate matches between any two agents (``skip-ai match``).

Each deal is played in every seating of :func:`skip_ai.duplicate.seatings` (teams swapped; every
other seat rotated in games played each for themselves). Chance draws come from the deal's own
generator, separate from the players', so every game of a deal starts from the same cards. Each
side's bot is built once per match from its spec (or bot factory), its files read once, and set
up for each game with a seed derived from the deal (:class:`agents.PreparedAgent`: it then plays
as a bot built fresh with that seed), so a game's record depends only on (seed, deal, seating).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyspiel
from tqdm import tqdm

from agents import Agent, PreparedAgent, agent_name
from skip_ai.duplicate import score_a, seatings
from skip_ai.kernel.rng import base_seed, derive, make_rng
from skip_ai.mirror import mirrored_state
from skip_ai.play import Decision, play
from skip_ai.pyspiel_wrapper import KernelGame, load
from skip_ai.stats import score_interval

MAX_SEATS = 8
"""More seats than any game has: the mirror's bot seeds start past every seating's."""


@dataclass
class MatchResult:
    """A's mean score over the deals with a 95% interval, and one row per game."""

    game: str
    spec_a: str
    spec_b: str
    deals: int
    score: float
    lo: float
    hi: float
    games: pd.DataFrame

    def ms_per_move(self, side: str, choices: bool = False) -> float:
        """Side ``side``'s ("a" or "b") mean thinking time per move in ms; with ``choices``,
        over its moves with more than one legal action only. That is the number to compare
        at equal time: a forced move takes no thought, and the sides' shares of forced moves
        differ with their play (in Brook 0.29 against 0.34 in one four-deal check), which
        moves the mean over every move by 10 ms or more at 0.1 s a search."""
        g = self.games
        moves, seconds = ("choices", "choice_seconds") if choices else ("moves", "seconds")
        return 1e3 * g[f"{seconds}_{side}"].sum() / max(g[f"{moves}_{side}"].sum(), 1)

    def __str__(self) -> str:
        g = self.games
        return (
            f"{self.game}: A = {self.spec_a}  vs  B = {self.spec_b}\n"
            f"A's score {self.score:.3f}  95% interval [{self.lo:.3f}, {self.hi:.3f}] (Wilson, "
            "effective n)  "
            f"over {self.deals} deals ({len(self.games)} games; 1 = A always wins)\n"
            f"thinking time per move with a choice: A {self.ms_per_move('a', True):.1f} ms "
            f"({g.choices_a.sum()} moves), B {self.ms_per_move('b', True):.1f} ms "
            f"({g.choices_b.sum()}); per move, forced ones included: "
            f"A {self.ms_per_move('a'):.1f} ms, B {self.ms_per_move('b'):.1f} ms"
        )


def play_seating(
    game: KernelGame,
    deal_seed: int,
    a_seats: np.ndarray,
    agent_a: Agent | PreparedAgent,
    agent_b: Agent | PreparedAgent,
    *,
    mirror: bool = False,
) -> dict:
    """Play one game of a deal: agent A (a spec, a bot factory, or a
    :class:`~agents.PreparedAgent` for ``game`` that plays many games, each side its own) at
    ``a_seats``, B elsewhere. Returns the final state, the returns, the length, each side's
    thinking time and moves, the same over its moves with a choice (more than one legal
    action), and per decision the mover and its search's estimates
    (:func:`search_estimates`). With ``mirror``, the game starts from the mirror of the deal
    (:mod:`skip_ai.mirror`), its bots seeded apart from the plain deal's; a ``ValueError`` for
    a game with no mirror."""
    rng = make_rng(deal_seed)
    state = mirrored_state(game, rng) if mirror else game.new_initial_state()
    k = 2 * int(np.flatnonzero(a_seats)[0])  # bots' seeds differ by seating
    if mirror:
        # ... and from the plain deal's: bots drawing the same random stream in a deal and its
        # mirror play alike, which ties the two games' results (random self-play of Columns:
        # a mirrored pair was worth 0.74 independent deals with shared seeds)
        k += 2 * MAX_SEATS
    side_a, side_b = (_prepared(agent, game) for agent in (agent_a, agent_b))
    if side_a is side_b:
        raise ValueError("the two sides of a game need a prepared agent each")
    bot_a = side_a.bot(int(derive(np.uint64(deal_seed), k + 1)))
    bot_b = side_b.bot(int(derive(np.uint64(deal_seed), k + 2)))
    bots = [bot_a if a else bot_b for a in a_seats]
    spent = [0.0, 0.0]
    moves = [0, 0]
    choice_spent = [0.0, 0.0]
    choices = [0, 0]
    movers, values, spreads = [], [], []

    def count(d: Decision) -> None:
        side = 0 if a_seats[d.player] else 1
        spent[side] += d.seconds
        moves[side] += 1
        if len(d.state.legal_actions()) > 1:
            choice_spent[side] += d.seconds
            choices[side] += 1
        value, spread = search_estimates(bots[d.player], d.action)
        movers.append(d.player)
        values.append(value)
        spreads.append(spread)

    state = play(state, bots, rng, on_decision=count)
    return {
        "state": state,
        "returns": np.array(state.returns()),
        "num_actions": len(state.history()),
        "seconds_a": spent[0],
        "seconds_b": spent[1],
        "moves_a": moves[0],
        "moves_b": moves[1],
        "choice_seconds_a": choice_spent[0],
        "choice_seconds_b": choice_spent[1],
        "choices_a": choices[0],
        "choices_b": choices[1],
        "movers": movers,
        "mover_values": values,
        "value_spreads": spreads,
    }


def _prepared(agent: Agent | PreparedAgent, game: KernelGame) -> PreparedAgent:
    if not isinstance(agent, PreparedAgent):
        return PreparedAgent(agent, game)
    if agent.game is not game:
        raise ValueError(f"{agent} was prepared for {agent.game}, not for {game}")
    return agent


def search_estimates(bot: pyspiel.Bot, action: int) -> tuple[float, float]:
    """What a searching bot (one with ``last_search``: ISMCTS) thought of the move it just
    chose: the root value of that move — its estimate of its own result, 0 = loss, 1 = win —
    and the spread between its best and worst root moves (among those searched at least
    once). NaN for both when the bot does not search or did not (a forced move)."""
    stats = getattr(bot, "last_search", None)
    if stats is None or stats.iterations == 0:
        return math.nan, math.nan
    searched = stats.visits > 0
    chosen = stats.values[stats.actions == action]
    value = float(chosen[0]) if len(chosen) else math.nan
    return value, float(stats.values[searched].max() - stats.values[searched].min())


def match(
    game: str | KernelGame,
    agent_a: Agent,
    agent_b: Agent,
    n_deals: int,
    seed: int = 0,
    progress: bool = False,
) -> MatchResult:
    """Play ``n_deals`` duplicate deals of ``game`` between agents A and B (each a spec or a
    bot factory)."""
    g = load(game) if isinstance(game, str) else game
    if n_deals < 1:
        raise ValueError(f"a match needs at least one deal (got {n_deals})")
    # each side's bot built once (a bad spec fails before any game is played), reset per game
    sides = [PreparedAgent(agent, g) for agent in (agent_a, agent_b)]
    base = np.uint64(base_seed(seed))
    rows = []
    layouts = seatings(g)
    bar = tqdm(total=n_deals * len(layouts), unit="game", disable=not progress, desc="match")
    for deal in range(n_deals):
        deal_seed = int(derive(base, deal))
        for k, a_seats in enumerate(layouts):
            r = play_seating(g, deal_seed, a_seats, *sides)
            rows.append(
                {
                    "deal": deal,
                    "seating": k,
                    "seed": deal_seed,
                    "score_a": float(score_a(r["returns"][None, :], a_seats, g)[0]),
                    **{f"return_{p}": float(x) for p, x in enumerate(r["returns"])},
                    **{
                        key: r[key]
                        for key in (
                            "num_actions",
                            "seconds_a",
                            "seconds_b",
                            "moves_a",
                            "moves_b",
                            "choice_seconds_a",
                            "choice_seconds_b",
                            "choices_a",
                            "choices_b",
                        )
                    },
                }
            )
            bar.update(1)
    bar.close()
    df = pd.DataFrame(rows)
    mean, lo, hi = score_interval(df.groupby("deal").score_a.mean().to_numpy())
    return MatchResult(str(g), agent_name(agent_a), agent_name(agent_b), n_deals, mean, lo, hi, df)
