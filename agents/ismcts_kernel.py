"""Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012) inside Numba, on a game kernel.

One search grows a tree over what the *observer* (the seat to move at the root) can tell apart:

- every iteration starts from a fresh **determinization**: the root state with every card
  hidden from the observer re-dealt by the game's consistent resampler (``K.resample``, as
  ``K.resample_planned`` from a plan made once per search);
- **decision nodes**: children are keyed by (action, actor). Selection takes, among the
  children whose action is legal in this determinization, the highest UCB score
  ``mean + c·sqrt(ln(availability) / visits)``, where *availability* counts the iterations in
  which that child could have been chosen (the ISMCTS correction for actions that exist in some
  worlds only). A legal action without a child is expanded first (one per iteration);
- **chance nodes** the observer sees (a card dealt to them, a card turned face up) branch on the
  outcome; those hidden from the observer do not branch, since the observer cannot tell them
  apart;
- with a **model** (:mod:`agents.model`), its prior (the softmax over the legal actions, from
  the mover's observation in this determinization) draws the untried legal action to expand,
  the child keeps that prior, and selection adds the progressive bias
  ``prior_c · prior / (1 + visits)`` (Chaslot et al. 2008) to the UCB score (with
  ``prior_depth`` K > 0 only at the tree's first K decisions: deeper expansions are uniform,
  and the network is not evaluated there, which is most of its cost). The root's prior is
  evaluated once per call of ``run``: the observer's observation and legal moves are the same
  in every determinization, so evaluating it again at each root expansion would only spend
  the time budget (one evaluation per legal move). Rollouts may
  also sample the model's policy (``rollout = MODEL``); without a model, a **heuristic
  prior** expands the heuristic player's move first and gives it prior 1 (Chaslot et al.'s
  progressive bias with domain knowledge); and with ``value_after`` ≥ 0 a
  rollout stops at its first decision after that many moves and backs up the model's value
  (AlphaZero-style leaf evaluation; the value is the mover's, the other side gets its
  negation). Without a model (``dims`` empty) the search is plain ISMCTS;
- after the expansion, a **rollout** plays the game out with the random or the heuristic
  kernel policy (each move uniformly random instead with probability ``eps``: a noisier,
  cheaper rollout can judge positions better than a sharper one); the returns, mapped to
  [0, 1] from the game's utility range, are backed up, each node crediting the return of the
  seat that chose it. Partners share their team's return, so a seat also plays for its
  partner.

The tree lives in preallocated arrays (``TREE_COLS`` int64 columns, ``STAT_COLS`` float64
columns) owned by the caller, so a search can run in chunks (a time budget checks the clock
between chunks) and grow its arrays between them. Everything random comes from the kernel
generator passed in: the same seed and iteration budget give the same search.

The search is built per game kernel module ``K`` and heuristic module ``H`` (the rollout policy
and the heuristic prior), both handed in as modules (:mod:`skip_ai.kernel.family`).
"""

from types import SimpleNamespace
from typing import NamedTuple

import numpy as np
from numba import njit

from agents.model import net_logits
from agents.policies import HEURISTIC, MODEL
from skip_ai.kernel.family import kernel_family
from skip_ai.kernel.resample import PLAN_SIZE
from skip_ai.kernel.rng import below, uniform
from skip_ai.kernel.state import CHANCE, H_CUR, H_PLAYERS, MAX_CARDS, TERMINAL, copy_into

# tree columns
FIRST = 0  # first child (children sorted by key), -1 if none
NEXT = 1  # next sibling, -1 at the end
KEY = 2  # action * 8 + actor + 1 (actor -1 = chance)
VISITS = 3
AVAIL = 4
TREE_COLS = 5

# float64 statistics per node
VALUE = 0  # sum of the returns credited to the node's actor, in [0, 1] each
ISQ = 1  # 1 / sqrt(VISITS): the backup pays the square root, not every UCB evaluation
PRIOR = 2  # the model's prior probability of the node's action (0 without a model)
STAT_COLS = 3

# meta slots
M_NODES = 0  # nodes in use
M_ITERATIONS = 1  # iterations done so far
M_EVALS = 2  # network evaluations so far (prior, rollout moves, leaf values)
META_SIZE = 3

MAX_ACTIONS = 1 << 16
MAX_DEPTH = 4096
NODE_MARGIN = 512
"""A chunk stops when fewer free nodes remain, so the caller can grow the arrays."""


class Settings(NamedTuple):
    """A search's fixed inputs, as the kernel reads them (built from a
    :class:`agents.search_config.SearchConfig` and the game by the bot)."""

    uct_c: float
    rollout: int  # HEURISTIC, RANDOM or MODEL
    eps: float  # the share of uniformly random rollout moves
    weights: np.ndarray  # the heuristic's, for the rollouts and the prior
    lo: float  # the game's minimum utility
    span: float  # its utility range: returns map to [0, 1]
    dims: np.ndarray  # the model's layer sizes (:mod:`agents.model`); empty: none
    params: np.ndarray  # the model's parameters
    prior_c: float  # the weight of the prior in selection; 0: none
    value_after: int  # ≥ 0: rollouts stop there and back up the model's value; -1
    side: np.ndarray  # each seat's side (for the model's value)
    heuristic_prior: bool  # without a model: the heuristic's move is expanded first
    prior_depth: int  # with a model: its prior at the first this many tree decisions; 0: all


@kernel_family
def search_kernel(K, H, A) -> SimpleNamespace:
    """The ISMCTS kernel for game kernel module ``K``, with heuristic module ``H`` and the
    action-features module ``A`` the model reads (``skip_ai.kernel.no_action_features`` for
    none)."""

    # nogil: a search releases the GIL, so the process's other threads (a server answering
    # pages while its bots think, skip_ai.serve) run meanwhile; it touches only its arguments
    @njit(cache=True, nogil=True)
    def run(root, rng, iterations, tree, stats, meta, settings):
        """Run up to ``iterations`` more iterations from ``root`` (the observer is the seat
        to move); returns how many ran (fewer only when the tree arrays are nearly full).
        ``settings``: :class:`Settings`. With ``value_after`` ≥ 0 the rollout stops at the
        first decision after that many of its moves and the model's value is backed up instead
        (``side``: each seat's side of a two-sided zero-sum game); -1: rollouts play to the
        end. ``heuristic_prior`` (without a model): the heuristic's move (weights ``w``) is
        expanded first and has prior 1."""
        (
            uct_c,
            rollout,
            eps,
            w,
            lo,
            span,
            dims,
            params,
            prior_c,
            value_after,
            side,
            heuristic_prior,
            prior_depth,
        ) = settings
        obs = root[H_CUR]
        legal = np.empty(MAX_ACTIONS, np.int64)
        path = np.empty(MAX_DEPTH, np.int64)
        untried = np.empty(MAX_ACTIONS, np.int64)
        sigma = np.empty(MAX_CARDS, np.int64)
        ret = np.empty(root[H_PLAYERS], np.float64)
        use_model = dims.shape[0] > 0
        x = np.zeros(dims[0] if use_model else 0, np.float64)
        logits = np.empty(MAX_ACTIONS if use_model else 0, np.float64)
        scratch = np.empty(2 * (dims.max() if use_model else 0), np.float64)
        root_probs = np.empty(MAX_ACTIONS if use_model else 0, np.float64)
        # uninitialised: written for the moves scored before it is read (a timed search runs
        # in many short chunks, and zeroing its 8 MB in each would eat into the budget)
        feats = np.empty((MAX_ACTIONS if use_model and A.SIZE else 0, A.SIZE))
        root_n = -1  # the root's legal moves, once its prior is in root_probs
        plan = np.empty(PLAN_SIZE, np.int64)
        K.resample_plan(root, obs, plan)
        cap = tree.shape[0]
        if meta[M_NODES] == 0:
            _new_node(tree, stats, meta, -1)
        s = root.copy()
        done = 0
        while done < iterations and meta[M_NODES] + NODE_MARGIN < cap:
            copy_into(s, root)
            K.resample_planned(s, plan, rng, sigma)
            node = 0
            depth = 0
            path[depth] = node
            depth += 1
            in_tree = True
            plies = 0
            level = 0  # decisions passed in the tree
            valued = False
            while s[H_CUR] != TERMINAL:
                cur = s[H_CUR]
                if cur == CHANCE:
                    a = K.sample_chance(s, rng)
                    vis = K.apply_action(s, a)
                    if in_tree and (vis >> obs) & 1 and depth < MAX_DEPTH:
                        node = _child(tree, stats, meta, node, a * 8)
                        path[depth] = node
                        depth += 1
                    continue
                if not in_tree:
                    if plies == value_after:
                        x[:] = 0.0
                        K.observation(s, cur, x)
                        meta[M_EVALS] += 1
                        _value_returns(
                            net_logits(dims, params, x, legal, 0, logits, scratch, feats),
                            cur,
                            side,
                            lo,
                            span,
                            ret,
                        )
                        valued = True
                        break
                    plies += 1
                    if eps > 0.0 and uniform(rng) < eps:
                        a = K.random_legal(s, rng)
                    elif rollout == HEURISTIC:
                        a = H.act(s, rng, w)
                    elif rollout == MODEL:
                        n = K.legal_actions(s, legal)
                        x[:] = 0.0
                        K.observation(s, cur, x)
                        meta[M_EVALS] += 1
                        A.write(s, cur, legal, n, feats)
                        _model_probs(dims, params, x, legal, n, logits, scratch, feats)
                        a = legal[_sample(logits, n, rng)]
                    else:
                        a = K.random_legal(s, rng)
                    K.apply_action(s, a)
                    continue
                n = K.legal_actions(s, legal)
                child = _select(tree, stats, node, legal, n, cur, uct_c, prior_c, rng, untried)
                guided = use_model and (prior_depth == 0 or level < prior_depth)
                level += 1
                if child < 0:  # expand: a legal action without a child
                    p = 0.0
                    if guided:  # one drawn from the model's policy
                        if node != 0 or root_n < 0:
                            x[:] = 0.0
                            K.observation(s, cur, x)
                            meta[M_EVALS] += 1
                            A.write(s, cur, legal, n, feats)
                            _model_probs(dims, params, x, legal, n, logits, scratch, feats)
                            if node == 0:
                                root_probs[:n] = logits[:n]
                                root_n = n
                        else:
                            logits[:n] = root_probs[:n]
                        i = _sample_untried(tree, node, legal, n, cur, logits, rng)
                        p = logits[i]
                    else:  # the heuristic's move first, else one chosen uniformly
                        i = -1
                        if heuristic_prior:
                            i = _untried_index(tree, node, legal, n, cur, H.act(s, rng, w))
                            p = 1.0
                        if i < 0:
                            i, p = -child - 1, 0.0
                    a = legal[i]
                    child = _child(tree, stats, meta, node, a * 8 + cur + 1)
                    stats[child, PRIOR] = p
                    tree[child, AVAIL] += 1
                    in_tree = False
                else:
                    a = tree[child, KEY] // 8
                K.apply_action(s, a)
                node = child
                if depth < MAX_DEPTH:
                    path[depth] = node
                    depth += 1
                else:
                    in_tree = False
            if not valued:
                K.returns(s, ret)
            for i in range(1, depth):
                nd = path[i]
                visits = tree[nd, VISITS] + 1
                tree[nd, VISITS] = visits
                stats[nd, ISQ] = 1.0 / np.sqrt(visits)
                actor = (tree[nd, KEY] & 7) - 1
                if actor >= 0:
                    stats[nd, VALUE] += (ret[actor] - lo) / span
            tree[0, VISITS] += 1
            done += 1
        meta[M_ITERATIONS] += done
        return done

    return SimpleNamespace(run=run)


# The helpers below are module functions, not closures inside ``search_kernel``: Numba does not
# cache a closure that calls another closure on disk, and ``run`` would compile in every process.


@njit(cache=True)
def _model_probs(dims, params, x, legal, n, out, scratch, feats):
    """The model's policy over ``legal[:n]`` for observation ``x`` (and the moves' action
    features ``feats``), into ``out[:n]``."""
    net_logits(dims, params, x, legal, n, out, scratch, feats)
    top = out[:n].max()
    total = 0.0
    for i in range(n):
        out[i] = np.exp(out[i] - top)
        total += out[i]
    for i in range(n):
        out[i] /= total


@njit(cache=True)
def _value_returns(v, mover, side, lo, span, ret):
    """The model's value ``v`` for ``mover`` as every seat's return: the mover's side gets it,
    the other side its negation (zero-sum, utilities symmetric about 0)."""
    for q in range(ret.shape[0]):
        mine = v if side[q] == side[mover] else -v
        ret[q] = lo + 0.5 * (mine + 1.0) * span


@njit(cache=True, inline="always")
def _sample(probs, n, rng):
    """An index drawn from ``probs[:n]`` (summing to 1)."""
    u = uniform(rng)
    for i in range(n - 1):
        u -= probs[i]
        if u < 0.0:
            return i
    return n - 1


@njit(cache=True, inline="always")
def _untried_index(tree, node, legal, n, cur, a):
    """The index of action ``a`` in ``legal[:n]`` if ``node`` has no child for it, else -1."""
    key = a * 8 + cur + 1
    c = tree[node, FIRST]
    while c >= 0 and tree[c, KEY] < key:
        c = tree[c, NEXT]
    if c >= 0 and tree[c, KEY] == key:
        return -1
    for i in range(n):
        if legal[i] == a:
            return i
    return -1


@njit(cache=True, inline="always")
def _sample_untried(tree, node, legal, n, cur, probs, rng):
    """The index in ``legal`` of an untried action, drawn in proportion to ``probs``."""
    c = tree[node, FIRST]
    total = 0.0
    for i in range(n):  # untried actions keep their probability, tried ones get -1
        key = legal[i] * 8 + cur + 1
        while c >= 0 and tree[c, KEY] < key:
            c = tree[c, NEXT]
        if c >= 0 and tree[c, KEY] == key:
            probs[i] = -1.0
        else:
            total += probs[i]
    u = uniform(rng) * total
    last = -1
    for i in range(n):
        if probs[i] >= 0.0:
            last = i
            u -= probs[i]
            if u < 0.0:
                return i
    return last


@njit(cache=True, inline="always")
def _new_node(tree, stats, meta, key):
    nd = meta[M_NODES]
    meta[M_NODES] = nd + 1
    tree[nd, FIRST] = -1
    tree[nd, NEXT] = -1
    tree[nd, KEY] = key
    tree[nd, VISITS] = 0
    tree[nd, AVAIL] = 0
    stats[nd, VALUE] = 0.0
    stats[nd, ISQ] = 0.0
    stats[nd, PRIOR] = 0.0
    return nd


@njit(cache=True, inline="always")
def _child(tree, stats, meta, node, key):
    """The child of ``node`` with ``key``, created (in key order) if missing."""
    prev = -1
    c = tree[node, FIRST]
    while c >= 0 and tree[c, KEY] < key:
        prev = c
        c = tree[c, NEXT]
    if c >= 0 and tree[c, KEY] == key:
        return c
    nd = _new_node(tree, stats, meta, key)
    tree[nd, NEXT] = c
    if prev < 0:
        tree[node, FIRST] = nd
    else:
        tree[prev, NEXT] = nd
    return nd


@njit(cache=True, inline="always")
def _select(tree, stats, node, legal, n, cur, uct_c, prior_c, rng, untried):
    """Count availability of the legal children of ``node`` and return the best by UCB, or
    ``-(i + 1)`` for a uniformly chosen legal action ``legal[i]`` that has no child yet
    (``untried`` is scratch for their indices).

    Children and ``legal`` are both in ascending order, so one merge pass matches them."""
    k = 0
    best = -1
    best_score = -1.0
    sqrt_log, last_avail = 0.0, -1
    c = tree[node, FIRST]
    for i in range(n):
        key = legal[i] * 8 + cur + 1
        while c >= 0 and tree[c, KEY] < key:
            c = tree[c, NEXT]
        if c >= 0 and tree[c, KEY] == key:
            avail = tree[c, AVAIL] + 1
            tree[c, AVAIL] = avail
            if avail != last_avail:  # siblings mostly share their availability: one log
                sqrt_log, last_avail = uct_c * np.sqrt(np.log(avail)), avail
            # mean + c·sqrt(ln(avail) / visits), with 1/sqrt(visits) kept by the backup
            isq = stats[c, ISQ]
            score = (stats[c, VALUE] * isq + sqrt_log) * isq
            if prior_c != 0.0:
                score += prior_c * stats[c, PRIOR] / (1 + tree[c, VISITS])
            if score > best_score:
                best_score = score
                best = c
        else:
            untried[k] = i
            k += 1
    if k > 0:
        # the chosen action's child does not exist; availability is counted at creation
        return -(untried[below(rng, k)] + 1)
    return best


@njit(cache=True)
def root_children(tree, stats, out_actions, out_visits, out_values):
    """The root's children: actions, visits, mean values; returns their number."""
    k = 0
    c = tree[0, FIRST]
    while c >= 0:
        out_actions[k] = tree[c, KEY] // 8
        out_visits[k] = tree[c, VISITS]
        out_values[k] = stats[c, VALUE] / max(tree[c, VISITS], 1)
        k += 1
        c = tree[c, NEXT]
    return k
