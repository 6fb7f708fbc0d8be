"""Per-decision measures of a game read by one fixed evaluator, not by each player's search.

The measures a study used to read from the players' own search estimates (the records'
``mover_values`` and ``value_spreads``) measured the *bot*: its
"meaningful choices" fell as its search grew stronger (they counted its noise), a loser's
over-hopeful estimates inflated "decided after" and "winner was behind", and the rungs that do
not search got none. Here a recorded game is replayed from its ``actions`` and every position
in which the mover had a real choice is evaluated by **one fixed evaluator**, the same for
every rung and variant (:data:`DEFAULT_EVALUATOR`, ``ismcts(iterations=400)``; any ISMCTS spec,
but a time budget, ``seconds=S``, makes the evaluations depend on the machine's load).
The measures then describe the game *as that evaluator sees it*: it has its own strength and
its own noise, so a report built on them names the evaluator (every row carries it in
``evaluator``) and compares variants read by the same one. (Two evaluations of a position with
different seeds at 400 iterations differed by 0.02–0.04 in value on average, 0.05–0.11 at
the 90th percentile, and disagreed on whether the choice was meaningful at 1–13% of the
positions, in 5 heuristic games each of Brook, Columns, Two Captains and Chains.)

**Evaluating a record** (:func:`evaluate`): per (game string, ``agent_a``) group up to ``games``
finished records, those with the lowest deal numbers (then seating, match id), so the sample is
the same whoever draws it. Pass a study's self-play records (:func:`~skip_ai.balance.metrics.split`)
to measure its rungs: its steps share ``agent_a`` with the self-play of the higher rung. Each
record is replayed on ``load(game).new_initial_state()``; its replay must end the game with the
recorded returns. At each **choice point** (a player node with two legal actions or more;
forced moves are not evaluated) the evaluator searches the position for the player to move,
seeded by :func:`position_seed` — from the record's deal ``seed``, the decision's number and
the evaluation's ``seed`` — so a position of a record always gets the same evaluation,
whichever process evaluates it and in whatever order. One row per choice point:

- ``move``: the decision's number in the game (forced moves counted, as in the record's
  ``movers``); ``mover``; ``legal``: the number of legal moves; ``action``: the move played;
- ``best_action``, ``value``: the evaluator's best root move and its value, the mover's chance
  of winning (0 loss, ½ draw, 1 win) if the evaluator played on;
- ``team0_value``: that chance as team 0's (``1 − value`` when a team-1 seat moves; NaN in
  games played each for themselves);
- ``played_value``: the value of the move actually played (NaN if the search never tried it);
- ``spread``: ``value`` minus the value of the k-th best root move (``k = 2``): how much the
  choice matters. **Counted moves**: those the search visited at least ``min_visits`` (10)
  times, and always the most visited. A move visited a few times has a value resting on a few
  rollouts: one lucky rollout would make it the "best". UCT (c = 0.7) visits a move trailing
  the best by Δ about c²·ln(N)/Δ² times in N iterations, so at 400 iterations a move under 10
  visits trails by more than about ½ — the search found it clearly worse. The best move is the
  counted one of highest value. The k-th best is the k-th of the visited moves ranked counted
  ones first, each group by value (so when fewer than k are counted it comes from the others;
  when fewer than k moves were visited, the last of them); a spread below 0 (an uncounted move
  valued above the best) is 0.

**Per game** (:func:`game_measures`), over its choice points in order. The *winner's chance*
is team 0's chance (or 1 − it) for the winning team; in games played each for themselves
(Pyatki) it is read at the winning seat's own choice points, from its own view.

- ``meaningful_choice_rate`` (CardStock's *meaningful moves*: Bell & Goadrich 2016): the share
  of the choice points whose ``spread`` ≥ ``meaningful_spread`` (0.1). Forced moves are not
  choice points: this differs from the players' measure, which counts them as not meaningful.
- ``lead_changes`` (CardStock; Browne 2008, *lead change*): how often the side ahead changes,
  with a dead band of width ``band`` (0.1) around ½. Team 0 is ahead once its chance exceeds
  ½ + band/2, team 1 once it falls below ½ − band/2, and the lead stays with the side that
  last held it while the chance is inside the band; a lead change is counted each time the
  lead passes to the other side. So a chance wandering 0.48, 0.53, 0.49 changes nothing (the
  players' own count, of crossings of ½, counted such oscillations). Team games only (NaN else).
- ``decided_at`` (Browne & Maire 2010, *decisiveness*): when the game was settled, as a share
  of its choice points: the number of choice points played before the one from which the
  winner's chance stays above ``decided_threshold`` (0.8) to the end, over the number of
  choice points; 0 when it is above from the start (in Pyatki, where the winner's chance is
  read at its own choice points only: the number before its first), 1 when it ends at or below
  the threshold. Small = settled early.
- ``comeback``: 1 if the winner's chance fell below ½ − band/2 at some choice point, else 0.
- ``drama`` (Browne & Maire 2010, *drama*, as in Ludii's DramaAverage): over the choice points
  at which the winner's chance p < ½, the mean of √(½ − p); 0 if none.
- ``uncertainty`` (Browne 2008; CardStock): the mean over the choice points of 1 − |2v − 1|,
  v the mover's chance (``value``): 1 = every position a coin flip, 0 = always certain.

``decided_at``, ``comeback`` and ``drama`` are NaN for games without a winner (and for a
Pyatki game whose winner never had a choice). A game without any choice point has no rows
and no measures.

References: C. Browne, *Automatic generation and evaluation of recombination games*, PhD
thesis, QUT, 2008; C. Browne and F. Maire, *Evolutionary game design*, IEEE TCIAIG 2(1),
2010; C. Bell and M. Goadrich, *Automated playtesting with RECYCLEd CardStock*, Game & Puzzle
Design 2(1), 2016.
"""

from __future__ import annotations

import contextlib
import functools
import math
from collections.abc import Mapping

import numpy as np
import pandas as pd
from tqdm import tqdm

from agents import make_agent, parse_spec
from agents.ismcts import ISMCTSBot, SearchStats
from skip_ai.balance.metrics import sides
from skip_ai.kernel.rng import derive
from skip_ai.pyspiel_wrapper import KernelGame, load
from skip_ai.tournament.runner import new_pool

DEFAULT_EVALUATOR = "ismcts(iterations=400)"
EVALUATOR_STREAM = 1 << 20
"""The evaluator's seeds are derived from the deal seed at indices from here on: the players
of a game use indices up to twice its seats (:func:`skip_ai.match.play_seating`), so the
evaluator never repeats a player's search."""

ID_COLUMNS = ["match_id", "game", "agent_a", "agent_b", "deal", "seating"]
DECISION_COLUMNS = [
    *ID_COLUMNS,
    "evaluator",
    "move",
    "mover",
    "legal",
    "action",
    "best_action",
    "value",
    "team0_value",
    "played_value",
    "spread",
]
MEASURES = [
    "meaningful_choice_rate",
    "lead_changes",
    "decided_at",
    "comeback",
    "drama",
    "uncertainty",
]
GAME_COLUMNS = [*ID_COLUMNS, "evaluator", "winner", "choices", *MEASURES]


def check_evaluator(spec: str) -> None:
    """Refuse, in one line, a spec that is not an ISMCTS agent's."""
    name, _ = parse_spec(spec)
    if name != "ismcts":
        raise ValueError(
            f"the evaluator must be an ismcts agent spec such as {DEFAULT_EVALUATOR!r} "
            f"(got {spec!r})"
        )


def position_seed(deal_seed: int, move: int, seed: int = 0) -> int:
    """The seed of the evaluator's search at decision ``move`` of a deal (evaluation ``seed``
    ≥ 0: another seed, an independent second opinion of every position)."""
    evaluation = derive(np.uint64(deal_seed), EVALUATOR_STREAM + seed)
    return int(derive(np.uint64(evaluation), move))


def root_estimates(
    stats: SearchStats, played: int, k: int = 2, min_visits: int = 10
) -> tuple[int, float, float, float]:
    """The best root move, its value, the value of the ``played`` move and the spread, as
    the module docstring defines them."""
    visits, values = stats.visits, stats.values
    counted = visits >= min_visits
    counted[np.argmax(visits)] = True  # a tiny budget may leave every move below min_visits
    order = np.lexsort((-values, ~counted))  # counted moves first, each group best first
    order = order[visits[order] > 0]
    best, kth = order[0], order[min(k, len(order)) - 1]
    chosen = values[stats.actions == played]
    return (
        int(stats.actions[best]),
        float(values[best]),
        float(chosen[0]) if len(chosen) else math.nan,
        max(0.0, float(values[best] - values[kth])),
    )


@functools.cache
def _evaluator(spec: str, game_string: str) -> tuple[KernelGame, ISMCTSBot]:
    """The game and the evaluator's bot, built once per process (a bot may load a model)."""
    game = load(game_string)
    return game, make_agent(spec, game)


def history(record: Mapping) -> list[int] | np.ndarray:
    """A record's ``actions``, or a clear error when it has none to replay."""
    actions = record.get("actions")
    if not isinstance(actions, list | np.ndarray):
        raise ValueError(
            f"record {record['match_id']} has no action history (null 'actions': written "
            "before records kept it), so it cannot be replayed"
        )
    return actions


def evaluate_record(
    record: Mapping, spec: str, seed: int = 0, k: int = 2, min_visits: int = 10
) -> list[dict]:
    """One row per choice point of a record (a mapping with the record's columns), in order
    (the columns of :data:`DECISION_COLUMNS`)."""
    actions = history(record)
    game, bot = _evaluator(spec, record["game"])
    s = sides(record["game"])
    ids = {c: record[c] for c in ID_COLUMNS}
    state = game.new_initial_state()
    rows, move = [], 0
    for action in (int(a) for a in actions):
        if state.is_player_node():
            legal = state.legal_actions()
            if len(legal) >= 2:
                # the search draws from (bot.seed, actions so far): seeding the one bot per
                # position makes the evaluation a function of the position alone
                bot.seed = position_seed(int(record["seed"]), move, seed)
                best, value, played, spread = root_estimates(
                    bot.search(state), action, k, min_visits
                )
                mover = state.current_player()
                team0 = math.nan
                if s.team_game:
                    team0 = value if s.teams[mover] == 0 else 1 - value
                rows.append(
                    {
                        **ids,
                        "evaluator": spec,
                        "move": move,
                        "mover": mover,
                        "legal": len(legal),
                        "action": action,
                        "best_action": best,
                        "value": value,
                        "team0_value": team0,
                        "played_value": played,
                        "spread": spread,
                    }
                )
            move += 1
        state.apply_action(action)
    if not state.is_terminal() or not np.allclose(state.returns(), record["returns"]):
        raise ValueError(
            f"record {record['match_id']}: replaying its actions does not give the recorded "
            "game (were the rules changed since it was played?)"
        )
    return rows


def sample(records: pd.DataFrame, games: int) -> pd.DataFrame:
    """Up to ``games`` finished records per (game, ``agent_a``): the lowest deal numbers."""
    ok = records[records.status == "ok"]
    ordered = ok.sort_values(["game", "agent_a", "deal", "seating", "match_id"], kind="stable")
    return ordered.groupby(["game", "agent_a"], sort=False).head(games).reset_index(drop=True)


def evaluate(
    records: pd.DataFrame,
    spec: str = DEFAULT_EVALUATOR,
    games: int = 20,
    seed: int = 0,
    workers: int = 1,
    progress: bool = False,
    k: int = 2,
    min_visits: int = 10,
) -> pd.DataFrame:
    """The evaluator ``spec``'s reading of every choice point of a sample of ``records``
    (:func:`sample`): one row per choice point (:data:`DECISION_COLUMNS`), records in sample
    order. The result depends on the records, spec, seed, k and min_visits only (not on
    ``workers``); cache it to Parquet to evaluate once."""
    check_evaluator(spec)
    if seed < 0:
        raise ValueError(f"the evaluation seed must be ≥ 0 (got {seed})")
    chosen = sample(records, games)
    todo = chosen.to_dict("records")
    for record in todo:  # an unplayable record would end the run: refuse it before any search
        history(record)
    for game in chosen.game.unique():
        _evaluator(spec, game)  # a bad option fails here, once, not in every worker
    task = functools.partial(evaluate_record, spec=spec, seed=seed, k=k, min_visits=min_visits)
    rows: list[dict] = []
    with new_pool(workers) if workers > 1 else contextlib.nullcontext() as pool:
        parts = pool.map(task, todo) if pool else map(task, todo)
        for part in tqdm(
            parts, total=len(todo), unit="game", desc="evaluate", disable=not progress
        ):
            rows += part
    return pd.DataFrame(rows, columns=DECISION_COLUMNS)


def lead_changes(team0: np.ndarray, band: float = 0.1) -> int:
    """How often the lead passes between the teams along team 0's chances ``team0``, with a
    dead band of width ``band`` around ½ in which the lead stays where it was."""
    ahead = np.where(team0 > 0.5 + band / 2, 0, np.where(team0 < 0.5 - band / 2, 1, -1))
    held = ahead[ahead >= 0]
    return int(np.sum(held[1:] != held[:-1]))


def winner_measures(
    chance: np.ndarray, at: np.ndarray, choices: int, band: float, decided_threshold: float
) -> dict[str, float]:
    """``decided_at``, ``comeback`` and ``drama`` from the winner's chances ``chance`` read at
    choice points ``at`` (indices among the game's ``choices`` choice points)."""
    if len(chance) == 0:
        return {"decided_at": math.nan, "comeback": math.nan, "drama": math.nan}
    open_ = np.flatnonzero(chance <= decided_threshold)
    if len(open_) == 0:
        decided = at[0] / choices
    elif open_[-1] == len(chance) - 1:
        decided = 1.0
    else:
        decided = at[open_[-1] + 1] / choices
    behind = chance < 0.5
    return {
        "decided_at": float(decided),
        "comeback": float(np.any(chance < 0.5 - band / 2)),
        "drama": float(np.sqrt(0.5 - chance[behind]).mean()) if behind.any() else 0.0,
    }


def one_game(
    d: pd.DataFrame,
    winner: int,
    band: float = 0.1,
    decided_threshold: float = 0.8,
    meaningful_spread: float = 0.1,
) -> dict[str, float]:
    """The measures (:data:`MEASURES`) of one game from its choice points ``d`` (in order)
    and its ``winner`` (team, or seat in games played each for themselves; < 0: none)."""
    s = sides(d.game.iloc[0])
    value = d.value.to_numpy(float)
    out = {
        "meaningful_choice_rate": float(np.mean(d.spread.to_numpy(float) >= meaningful_spread)),
        "uncertainty": float(np.mean(1 - np.abs(2 * value - 1))),
        "lead_changes": math.nan,
    }
    at = np.arange(len(d))
    if s.team_game:
        team0 = d.team0_value.to_numpy(float)
        out["lead_changes"] = float(lead_changes(team0, band))
        chance = team0 if winner == 0 else 1 - team0
    else:
        mine = d.mover.to_numpy() == winner
        at, chance = at[mine], value[mine]
    if winner < 0:
        at, chance = at[:0], chance[:0]
    return out | winner_measures(chance, at, len(d), band, decided_threshold)


def game_measures(
    decisions: pd.DataFrame,
    records: pd.DataFrame,
    band: float = 0.1,
    decided_threshold: float = 0.8,
    meaningful_spread: float = 0.1,
) -> pd.DataFrame:
    """One row per game of ``decisions`` (:func:`evaluate`'s output) with its measures
    (:data:`GAME_COLUMNS`); ``records`` (one batch: match ids unique) give the winners."""
    if records.match_id.duplicated().any():
        raise ValueError("the records hold a match id twice: pass one batch's records")
    winners = records.set_index("match_id").winner
    rows = []
    for match_id, d in decisions.groupby("match_id", sort=False):
        if match_id not in winners.index:
            raise ValueError(f"game {match_id} was evaluated but is not among the records")
        d = d.sort_values("move")
        winner = int(winners[match_id])
        first = d.iloc[0]
        rows.append(
            {
                **{c: first[c] for c in ID_COLUMNS},
                "evaluator": first.evaluator,
                "winner": winner,
                "choices": len(d),
                **one_game(d, winner, band, decided_threshold, meaningful_spread),
            }
        )
    return pd.DataFrame(rows, columns=GAME_COLUMNS)
