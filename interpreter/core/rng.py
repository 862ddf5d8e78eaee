"""A tiny seeded random generator whose whole state is one integer.

The game state must hold its randomness as plain data (docs/architecture.md, principle 2) and be
cheap to copy; Python's `random.Random` keeps 625 words of state, so this is
SplitMix64 (Steele, Lea & Flood 2014): one 64-bit counter, a few multiplications.
"""

from __future__ import annotations

MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    """Spread a small seed over the 64-bit state."""
    return (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & MASK


def next_below(state: int, n: int) -> tuple[int, int]:
    """Return (new state, a number in 0..n-1)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    z ^= z >> 31
    return state, z % n


def shuffled(state: int, items: tuple) -> tuple[int, tuple]:
    """Return (new state, `items` shuffled): Fisher-Yates drawing `next_below(i + 1)` for
    i from the last position down, the same draws written out in one loop (a deck is
    shuffled at the start of every game: a call per card is most of the work)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        j = (z ^ (z >> 31)) % (i + 1)
        out[i], out[j] = out[j], out[i]
    return state, tuple(out)
