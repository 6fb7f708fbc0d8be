"""Card sets as 64-bit masks (bit ``c`` = card ``c``), with LLVM's bit-count instructions.

Hands, the undealt deck and "proved absent" sets are masks, so listing a hand is a loop over
its set bits and "the k-th card in id order" (what uniform sampling over a sorted action list
needs) costs no list at all.
"""

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

from .rng import below


# The helpers here are a few instructions each; ``inline="always"`` merges them into their
# callers, which halves the cost of a kernel step compared with real calls (Numba passes
# arrays to a call with reference counting).
@intrinsic
def _ctpop(typingctx, src):
    if not isinstance(src, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return src(src), codegen


@njit(cache=True, inline="always")
def bit(c):
    """The mask of the single card ``c``."""
    return np.int64(1) << np.int64(c)


@njit(cache=True, inline="always")
def popcount(m):
    """Number of cards in mask ``m``."""
    return np.int64(_ctpop(np.int64(m)))


@njit(cache=True, inline="always")
def lowest(m):
    """The smallest card of a non-empty mask."""
    return np.int64(trailing_zeros(np.int64(m)))


def _kth_portable(m, k):
    # halve the search to 32, 16 then 8 bits by counting the low half, then clear bits
    off = np.int64(0)
    for width in (32, 16, 8):
        low = np.int64(_ctpop(m & ((np.int64(1) << width) - 1)))
        if k >= low:
            k -= low
            m = m >> width
            off += width
    for _ in range(k):
        m &= m - 1
    return off + np.int64(trailing_zeros(m))


def _has_bmi2(context) -> bool:
    features = getattr(context.codegen(), "_tm_features", "") or ""
    return "+bmi2" in features.split(",")


@intrinsic
def _kth_bit(typingctx, m, k):
    """Position of the k-th set bit of ``m``: BMI2's ``pdep`` deposits ``1 << k`` on the k-th
    set bit in a few cycles where the target CPU has it, else the portable halving search
    (the same result; Numba's cache is per CPU model and features)."""
    if not (isinstance(m, types.Integer) and isinstance(k, types.Integer)):
        return None
    sig = types.int64(types.int64, types.int64)

    def codegen(context, builder, signature, args):
        args = [context.cast(builder, v, ty, types.int64) for v, ty in zip(args, signature.args)]
        if not _has_bmi2(context):
            return context.compile_internal(builder, _kth_portable, sig, args)
        i64 = ir.IntType(64)
        pdep = builder.module.declare_intrinsic(
            "llvm.x86.bmi.pdep.64", fnty=ir.FunctionType(i64, [i64, i64])
        )
        deposited = builder.call(pdep, [builder.shl(ir.Constant(i64, 1), args[1]), args[0]])
        return builder.cttz(deposited, ir.Constant(ir.IntType(1), 1))

    return sig, codegen


@njit(cache=True, inline="always")
def kth(m, k):
    """The k-th smallest card (k from 0) of mask ``m``, which holds more than k cards."""
    return _kth_bit(np.int64(m), np.int64(k))


@njit(cache=True, inline="always")
def sample_mask(m, rng):
    """A card of non-empty mask ``m`` uniformly: exactly ``to_list(m)[below(rng, n)]``."""
    return kth(m, below(rng, popcount(m)))


@njit(cache=True, inline="always")
def to_list(m, out):
    """Write the cards of ``m`` ascending into ``out``; returns their number."""
    n = 0
    while m:
        out[n] = trailing_zeros(np.int64(m))
        n += 1
        m &= m - 1
    return n


SEGMENT = 54
"""Action ids of card-choice games come in segments of 54 (a card id plus 54 × segment)."""


@njit(cache=True, inline="always")
def list_segments(masks, extra, out):
    """Legal actions as a sorted list: ``54*i + c`` for every card ``c`` of ``masks[i]``, then
    ``extra`` if it is ≥ 0 (it must exceed them all). Returns their number."""
    n = 0
    for i in range(len(masks)):
        m = masks[i]
        while m:
            out[n] = SEGMENT * i + trailing_zeros(np.int64(m))
            n += 1
            m &= m - 1
    if extra >= 0:
        out[n] = extra
        n += 1
    return n


@njit(cache=True, inline="always")
def sample_segments(masks, extra, rng):
    """Exactly ``list_segments(...)[below(rng, n)]``, without the list."""
    total = 0
    for i in range(len(masks)):
        total += popcount(masks[i])
    k = below(rng, total + (1 if extra >= 0 else 0))
    for i in range(len(masks)):
        c = popcount(masks[i])
        if k < c:
            return SEGMENT * i + kth(masks[i], k)
        k -= c
    return extra
