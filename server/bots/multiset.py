"""Ingredient multisets packed in one int, so the bots' inner loops stay fast.

Each of the 8 ingredients gets a 6-bit field: 5 bits of count (the supply never holds
more than 18 of one kind) and a guard bit, which makes "is a sub-multiset of" and
"element-wise minimum" a couple of integer operations (SWAR, "SIMD within a register").
"""

from __future__ import annotations

from collections.abc import Iterable

FIELD = 6
FIELDS = 8
_ONES = sum(1 << (FIELD * i) for i in range(FIELDS))
GUARD = _ONES << (FIELD - 1)
VALUE_MASK = _ONES * ((1 << (FIELD - 1)) - 1)
_COUNT_MASK = (1 << (FIELD - 1)) - 1
EMPTY = 0


def pack(counts: Iterable[int]) -> int:
    out = 0
    for i, c in enumerate(counts):
        out |= c << (FIELD * i)
    return out


def of_items(ings: Iterable[int]) -> int:
    """The multiset of a list of ingredient indexes."""
    out = 0
    for i in ings:
        out += 1 << (FIELD * i)
    return out


def unpack(m: int) -> tuple[int, ...]:
    return tuple((m >> (FIELD * i)) & _COUNT_MASK for i in range(FIELDS))


def single(ing: int, count: int = 1) -> int:
    return count << (FIELD * ing)


def count(m: int, ing: int) -> int:
    return (m >> (FIELD * ing)) & _COUNT_MASK


def fits(small: int, big: int) -> bool:
    """small is a sub-multiset of big: no field of big - small borrows its guard bit."""
    return ((big | GUARD) - small) & GUARD == GUARD


def meet(a: int, b: int) -> int:
    """Element-wise minimum."""
    a_ge_b = (((a | GUARD) - b) & GUARD) >> (FIELD - 1)
    mask = a_ge_b * _COUNT_MASK
    return (b & mask) | (a & ~mask & VALUE_MASK)


def size(m: int) -> int:
    """Number of tokens (for multisets of at most 63 tokens in all)."""
    return ((m * _ONES) >> (FIELD * (FIELDS - 1))) & ((1 << FIELD) - 1)
