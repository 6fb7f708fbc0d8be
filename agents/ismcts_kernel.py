"""Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012) inside Numba, on a game kernel.

One search grows a tree over what the *observer* (the seat to move at the root) can tell apart:

- every iteration starts from a fresh **determinization**: the root state with every card
  hidden from the observer re-dealt by the game's consistent resampler (``K.resample``);
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
  ``prior_c · prior / (1 + visits)`` (Chaslot et al. 2008) to the UCB score; rollouts may
  also sample the model's policy (``rollout = MODEL``). Without a model (``dims`` empty) the search is
  plain ISMCTS;
- after the expansion, a **rollout** plays the game out with the random or the heuristic kernel
  policy; the returns, mapped to [0, 1] from the game's utility range, are backed up, each node
  crediting the return of the seat that chose it. Partners share their team's return, so a
  seat also plays for its partner.

The tree lives in preallocated arrays (``TREE_COLS`` int64 columns + float64 value and prior
arrays)
owned by the caller, so a search can run in chunks (a time budget checks the clock between
chunks) and grow its arrays between them. Everything random comes from the kernel generator
passed in: the same seed and iteration budget give the same search.
"""

from types import SimpleNamespace

import numpy as np
from numba import njit

from agents.heuristics import heuristic_module
from agents.model import net_logits
from agents.policies import HEURISTIC, MODEL
from skip_ai.kernel.rng import below, uniform
from skip_ai.kernel.state import CHANCE, H_CUR, NUM_CARDS, TERMINAL

# tree columns
FIRST = 0    # first child (children sorted by key), -1 if none
NEXT = 1     # next sibling, -1 at the end
KEY = 2      # action * 8 + actor + 1 (actor -1 = chance)
VISITS = 3
AVAIL = 4
TREE_COLS = 5

# meta slots
M_NODES = 0       # nodes in use
M_ITERATIONS = 1  # iterations done so far
META_SIZE = 2

MAX_ACTIONS = 1 << 16
MAX_DEPTH = 4096
NODE_MARGIN = 512
"""A chunk stops when fewer free nodes remain, so the caller can grow the arrays."""

_SEARCHES: dict = {}


def search_kernel(K):
    """The ISMCTS kernel for game kernel module ``K`` (built once per process)."""
    if K.__name__ not in _SEARCHES:
        _SEARCHES[K.__name__] = _build(K)
    return _SEARCHES[K.__name__]


def _build(K) -> SimpleNamespace:
    H = heuristic_module(K)

    @njit(cache=True)
    def model_probs(s, legal, n, x, dims, params, out, scratch):
        """The model's policy over ``legal[:n]`` for the seat to move, into ``out[:n]``."""
        x[:] = 0.0
        K.observation(s, s[H_CUR], x)
        net_logits(dims, params, x, legal, n, out, scratch)
        top = out[:n].max()
        total = 0.0
        for i in range(n):
            out[i] = np.exp(out[i] - top)
            total += out[i]
        for i in range(n):
            out[i] /= total

    @njit(cache=True)
    def run(root, rng, iterations, tree, value, prior, meta, uct_c, rollout, w, lo, span,
            dims, params, prior_c):
        """Run up to ``iterations`` more iterations from ``root`` (the observer is the seat
        to move); returns how many ran (fewer only when the tree arrays are nearly full).
        ``dims``/``params``: the model (:mod:`agents.model`; ``dims`` empty for none)."""
        obs = root[H_CUR]
        legal = np.empty(MAX_ACTIONS, np.int64)
        path = np.empty(MAX_DEPTH, np.int64)
        sigma = np.empty(NUM_CARDS, np.int64)
        ret = np.empty(root[0], np.float64)
        use_model = dims.shape[0] > 0
        x = np.zeros(dims[0] if use_model else 0, np.float64)
        logits = np.empty(MAX_ACTIONS if use_model else 0, np.float64)
        scratch = np.empty(2 * (dims.max() if use_model else 0), np.float64)
        cap = tree.shape[0]
        if meta[M_NODES] == 0:
            _new_node(tree, value, prior, meta, -1)
        s = root.copy()
        done = 0
        while done < iterations and meta[M_NODES] + NODE_MARGIN < cap:
            s[:] = root
            K.resample(s, obs, rng, sigma)
            node = 0
            depth = 0
            path[depth] = node
            depth += 1
            in_tree = True
            while s[H_CUR] != TERMINAL:
                cur = s[H_CUR]
                if cur == CHANCE:
                    a = K.sample_chance(s, rng)
                    vis = K.apply_action(s, a)
                    if in_tree and (vis >> obs) & 1 and depth < MAX_DEPTH:
                        node = _child(tree, value, prior, meta, node, a * 8)
                        path[depth] = node
                        depth += 1
                    continue
                if not in_tree:
                    if rollout == HEURISTIC:
                        a = H.act(s, rng, w)
                    elif rollout == MODEL:
                        n = K.legal_actions(s, legal)
                        model_probs(s, legal, n, x, dims, params, logits, scratch)
                        a = legal[_sample(logits, n, rng)]
                    else:
                        a = K.random_legal(s, rng)
                    K.apply_action(s, a)
                    continue
                n = K.legal_actions(s, legal)
                child = _select(tree, value, prior, node, legal, n, cur, uct_c, prior_c, rng)
                if child < 0:  # expand: a legal action without a child
                    p = 0.0
                    if use_model:  # one drawn from the model's policy
                        model_probs(s, legal, n, x, dims, params, logits, scratch)
                        i = _sample_untried(tree, node, legal, n, cur, logits, rng)
                        p = logits[i]
                    else:  # one chosen uniformly
                        i = -child - 1
                    a = legal[i]
                    child = _child(tree, value, prior, meta, node, a * 8 + cur + 1)
                    prior[child] = p
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
            K.returns(s, ret)
            for i in range(1, depth):
                nd = path[i]
                tree[nd, VISITS] += 1
                actor = (tree[nd, KEY] & 7) - 1
                if actor >= 0:
                    value[nd] += (ret[actor] - lo) / span
            tree[0, VISITS] += 1
            done += 1
        meta[M_ITERATIONS] += done
        return done

    return SimpleNamespace(run=run)


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
def _new_node(tree, value, prior, meta, key):
    nd = meta[M_NODES]
    meta[M_NODES] = nd + 1
    tree[nd, FIRST] = -1
    tree[nd, NEXT] = -1
    tree[nd, KEY] = key
    tree[nd, VISITS] = 0
    tree[nd, AVAIL] = 0
    value[nd] = 0.0
    prior[nd] = 0.0
    return nd


@njit(cache=True, inline="always")
def _child(tree, value, prior, meta, node, key):
    """The child of ``node`` with ``key``, created (in key order) if missing."""
    prev = -1
    c = tree[node, FIRST]
    while c >= 0 and tree[c, KEY] < key:
        prev = c
        c = tree[c, NEXT]
    if c >= 0 and tree[c, KEY] == key:
        return c
    nd = _new_node(tree, value, prior, meta, key)
    tree[nd, NEXT] = c
    if prev < 0:
        tree[node, FIRST] = nd
    else:
        tree[prev, NEXT] = nd
    return nd


@njit(cache=True, inline="always")
def _select(tree, value, prior, node, legal, n, cur, uct_c, prior_c, rng):
    """Count availability of the legal children of ``node`` and return the best by UCB, or
    ``-(i + 1)`` for a uniformly chosen legal action ``legal[i]`` that has no child yet.

    Children and ``legal`` are both in ascending order, so one merge pass matches them."""
    untried = 0
    pick = -1
    best = -1
    best_score = -1.0
    c = tree[node, FIRST]
    for i in range(n):
        key = legal[i] * 8 + cur + 1
        while c >= 0 and tree[c, KEY] < key:
            c = tree[c, NEXT]
        if c >= 0 and tree[c, KEY] == key:
            avail = tree[c, AVAIL] + 1
            tree[c, AVAIL] = avail
            visits = tree[c, VISITS]
            score = value[c] / visits + uct_c * np.sqrt(np.log(avail) / visits) \
                + prior_c * prior[c] / (1 + visits)
            if score > best_score:
                best_score = score
                best = c
        else:
            untried += 1
            if below(rng, untried) == 0:  # reservoir sampling: uniform over the untried
                pick = i
    if untried > 0:
        # the chosen action's child does not exist; availability is counted at creation
        return -(pick + 1)
    return best


@njit(cache=True)
def root_children(tree, value, out_actions, out_visits, out_values):
    """The root's children: actions, visits, mean values; returns their number."""
    k = 0
    c = tree[0, FIRST]
    while c >= 0:
        out_actions[k] = tree[c, KEY] // 8
        out_visits[k] = tree[c, VISITS]
        out_values[k] = value[c] / max(tree[c, VISITS], 1)
        k += 1
        c = tree[c, NEXT]
    return k

