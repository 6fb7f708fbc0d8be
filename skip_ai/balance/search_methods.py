"""Two ways to search a lever space for the fairest variant: successive halving and NTBEA.

Both are written as *ask–tell* generators over deals: a method yields a request — a list of
``(candidate, deals)`` — and is sent back, for each pair, the headline per deal (an array
deals × sides: team 0's score, or every seat's, averaged over a deal and its mirror), then
yields its next request, until it returns its ranking (candidate indices, best first, every
candidate it measured). A driver answers from games it plays (:mod:`skip_ai.balance.search`)
or from a table of games already played (the comparison of the two methods,
``experiments/balance/search_methods.py``); the methods never see how.

Every candidate is measured on the same deals: deal ``d`` of one candidate is dealt from the
same seed as deal ``d`` of any other, and both methods ask for deals from 0 upwards (halving:
each contender's first ``d_k`` deals; NTBEA: a candidate's ``j``-th evaluation is block ``j``
of ``block`` deals), so that two candidates compared on equal numbers of deals played the
same cards.

The objective is the distance from fair: the largest ``|mean − fair|`` over the sides (team
0's score against ½; in a game each for themselves, every seat's against 1/n). Smaller is
better.

- **Successive halving** (Karnin, Koren & Somekh 2013; Jamieson & Talwalkar 2016): ⌈log₂ n⌉
  rounds share the budget equally; in round k each contender gets ⌊B / (R·|S_k|)⌋ more deals,
  then the half farther from fair (on all its deals so far) is dropped.
- **NTBEA** (Lucas, Liu & Perez-Liebana 2018, the N-Tuple Bandit Evolutionary Algorithm of
  TAG's ``tuneGame``): a model of the fitness as the mean of 1-tuple, 2-tuple and N-tuple
  statistics over the levers' settings. Each generation evaluates the current point and its
  ``population − 1`` neighbours (one or more levers mutated) with the highest upper
  confidence bounds, on one block of deals each; then the current point steps to its
  neighbour with the highest bound under the updated model (with ``population = 1``, the
  algorithm of the paper). The ranking: every evaluated point by the model's estimate (no
  exploration bonus).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Generator, Sequence
from dataclasses import dataclass

import numpy as np

Request = list[tuple[int, range]]
Answer = list[np.ndarray]
Method = Generator[Request, Answer, list[int]]


def distance(units: np.ndarray, fair: float) -> float:
    """The objective: the largest distance from fair over the sides of the mean headline of
    ``units`` (deals × sides); nan for no deal."""
    if len(units) == 0:
        return math.nan
    return float(np.max(np.abs(units.mean(axis=0) - fair)))


def halving(n: int, budget: int, fair: float) -> Method:
    """Successive halving over ``n`` candidates with ``budget`` deals in all."""
    rounds = max(1, math.ceil(math.log2(n)))
    if budget < n * rounds:
        raise ValueError(
            f"a budget of {budget} deals cannot give each of {n} candidates a deal in each of "
            f"{rounds} rounds of halving (at least {n * rounds})"
        )
    contenders = list(range(n))
    seen: dict[int, list[np.ndarray]] = {c: [] for c in contenders}
    dropped: list[list[int]] = []  # per round, the dropped, best first
    start = 0
    for _ in range(rounds):
        end = start + budget // (rounds * len(contenders))
        answer = yield [(c, range(start, end)) for c in contenders]
        for c, units in zip(contenders, answer):
            seen[c].append(units)
        order = sorted(contenders, key=lambda c: (distance(np.vstack(seen[c]), fair), c))
        keep = math.ceil(len(order) / 2) if len(order) > 1 else 1
        contenders, out = order[:keep], order[keep:]
        dropped.append(out)
        start = end
    return contenders + [c for out in reversed(dropped) for c in out]


@dataclass(frozen=True)
class NtbeaSettings:
    block: int = 10  # deals per evaluation
    population: int = 4  # points evaluated per generation
    neighbours: int = 50  # mutated points whose bounds are compared
    exploration: float = 0.3  # k of the bound: mean + k·√(ln(1 + N) / (n + ε))


def ntbea(
    points: Sequence[tuple[int, ...]],
    budget: int,
    fair: float,
    rng: np.random.Generator,
    settings: NtbeaSettings = NtbeaSettings(),
) -> Method:
    """NTBEA over the candidates ``points`` (each a tuple of setting indices, one per lever;
    ``points[0]`` the start, the rules) with ``budget`` deals in all."""
    if budget < settings.block * settings.population:
        raise ValueError(
            f"a budget of {budget} deals is less than one generation of NTBEA "
            f"({settings.population} points × {settings.block} deals)"
        )
    index = {p: i for i, p in enumerate(points)}
    model = _TupleModel(len(points[0]))
    visits = [0] * len(points)
    current, spent = 0, 0
    while spent + settings.block * settings.population <= budget:
        batch = [current] + _best_bounds(
            model, points, index, current, settings.population - 1, settings, rng
        )
        request = [(c, _block(visits[c], settings.block)) for c in batch]
        answer = yield request
        for c, units in zip(batch, answer):
            visits[c] += 1
            model.add(points[c], -distance(units, fair))
        spent += settings.block * len(batch)
        # the step of NTBEA: to the neighbour with the highest bound under the new model
        current = (_best_bounds(model, points, index, current, 1, settings, rng) or [current])[0]
    measured = [c for c in range(len(points)) if visits[c]]
    return sorted(measured, key=lambda c: (-model.value(points[c]), c))


def _block(j: int, size: int) -> range:
    return range(j * size, (j + 1) * size)


def _best_bounds(
    model: _TupleModel,
    points: Sequence[tuple[int, ...]],
    index: dict[tuple[int, ...], int],
    current: int,
    count: int,
    settings: NtbeaSettings,
    rng: np.random.Generator,
) -> list[int]:
    """The ``count`` of ``settings.neighbours`` mutations of ``current`` with the highest
    bounds."""
    found: dict[int, float] = {}
    here = points[current]
    for _ in range(settings.neighbours * 4):  # mutations may land outside the space
        if len(found) >= settings.neighbours:
            break
        c = index.get(_mutate(here, model.sizes(points), rng))
        if c is not None and c != current:
            found[c] = model.bound(points[c], settings.exploration)
    ranked = sorted(found, key=lambda c: (-found[c], c))
    return ranked[:count]


def _mutate(point: tuple[int, ...], sizes: list[int], rng: np.random.Generator) -> tuple:
    """Each setting changed with chance 1/N, at least one (to another of its values)."""
    n = len(point)
    flip = rng.random(n) < 1 / n
    flip[rng.integers(n)] = True
    out = list(point)
    for i in np.flatnonzero(flip):
        if sizes[i] > 1:
            out[i] = int((point[i] + rng.integers(1, sizes[i])) % sizes[i])
    return tuple(out)


class _TupleModel:
    """The n-tuple statistics: for every 1-tuple, 2-tuple and the N-tuple of the levers, the
    sum and count of the fitness seen per setting of those levers."""

    def __init__(self, n: int):
        self.tuples = sorted(
            {(i,) for i in range(n)} | set(itertools.combinations(range(n), 2)) | {tuple(range(n))}
        )
        self.stats: dict[tuple, list[float]] = {}  # (tuple, setting) → [sum, count]
        self.total = 0
        self._sizes: list[int] | None = None

    def sizes(self, points: Sequence[tuple[int, ...]]) -> list[int]:
        if self._sizes is None:
            self._sizes = [max(p[i] for p in points) + 1 for i in range(len(points[0]))]
        return self._sizes

    def _keys(self, point: tuple[int, ...]):
        return [(t, tuple(point[i] for i in t)) for t in self.tuples]

    def add(self, point: tuple[int, ...], fitness: float) -> None:
        for key in self._keys(point):
            s = self.stats.setdefault(key, [0.0, 0])
            s[0] += fitness
            s[1] += 1
        self.total += 1

    def value(self, point: tuple[int, ...]) -> float:
        """The mean over the tuples seen of their mean fitness (−inf: nothing seen)."""
        means = [s[0] / s[1] for key in self._keys(point) if (s := self.stats.get(key))]
        return float(np.mean(means)) if means else -math.inf

    def bound(self, point: tuple[int, ...], k: float) -> float:
        """The mean over the tuples of mean + k·√(ln(1 + N) / (n + ε)); an unseen tuple
        contributes its bonus alone (as in Lucas et al.)."""
        eps = 1e-6
        terms = []
        for key in self._keys(point):
            s = self.stats.get(key)
            mean, n = (s[0] / s[1], s[1]) if s else (0.0, 0)
            terms.append(mean + k * math.sqrt(math.log(1 + self.total) / (n + eps)))
        return float(np.mean(terms))
