"""The statistics of the balance report: stratified tests, corrections for many tests,
paired differences.

A balance report tests a hundred cards at once. Read one by one at 95%, five of them
would look strong or weak by chance in every run, and a card a strong seat plays more
often would take on that seat's win rate. So each figure here is computed within strata
(a seat at a player count) and the cards' p-values are corrected together:

* `cmh`: the Cochran–Mantel–Haenszel test of a 2×2×K table (exposed or not × won or not,
  in K strata), without continuity correction, its p-value from the normal distribution
  of its signed root; `mh_difference`: the Mantel–Haenszel weighted difference of the two
  rates across the strata (weights n1·n0/N), with a normal interval from the strata's
  binomial variances (each rate taken with one success and one failure added).
* `holm` (family-wise error) and `benjamini_hochberg` (false discovery rate): adjusted
  p-values, each compared with the level as it is.
* `paired`: the mean of per-game differences (the same seed under two sets of rules) with
  its normal interval; `sign_test`: the exact sign test of the same differences, which
  holds when only a few games differ (a mean of four wins gained and none lost looks sure
  to a normal interval, but four coin tosses give it one time in eight).

Only the standard library: `statistics.NormalDist` gives the normal quantiles and tails,
so the report works with the base install.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

ALPHA = 0.05  # the level a corrected p-value is read at
_NORMAL = statistics.NormalDist()
Z_95 = _NORMAL.inv_cdf(0.975)
Z_80 = _NORMAL.inv_cdf(0.80)  # with Z_95: the difference a two-sided 5% test finds 4 times in 5
CORRECTIONS = ("holm", "bh")


def two_sided_p(z: float) -> float:
    """The two-sided p-value of a standard normal statistic."""
    return 2.0 * (1.0 - _NORMAL.cdf(abs(z))) if math.isfinite(z) else 0.0


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given: the i-th smallest p times
    (m - i + 1), kept non-decreasing along that order and at most 1. Rejecting the
    hypotheses whose adjusted p-value is below α keeps the chance of any false rejection
    below α, whatever the dependence between the tests."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    out = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        out[i] = running
    return out


def benjamini_hochberg(pvalues: Sequence[float]) -> list[float]:
    """Benjamini–Hochberg step-up adjusted p-values, in the order given: the i-th smallest
    p times m / i, made non-increasing from the largest down, at most 1. Rejecting those
    below α keeps the expected share of false rejections below α (independent or
    positively dependent tests)."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    out = [0.0] * m
    running = 1.0
    for rank in range(m - 1, -1, -1):
        i = order[rank]
        running = min(running, m * pvalues[i] / (rank + 1))
        out[i] = running
    return out


def adjust(pvalues: Sequence[float], correction: str) -> list[float]:
    """`holm` or `bh` by name."""
    if correction == "holm":
        return holm(pvalues)
    if correction == "bh":
        return benjamini_hochberg(pvalues)
    raise ValueError(f"unknown correction {correction!r}")


@dataclass(frozen=True)
class Stratum:
    """One stratum's 2×2 table: `n1` units exposed with `w1` successes, `n0` not exposed
    with `w0`. Successes may be fractional (a win shared by k seats counts 1/k)."""

    n1: int
    w1: float
    n0: int
    w0: float

    @property
    def n(self) -> int:
        return self.n1 + self.n0


def _informative(strata: Sequence[Stratum]) -> list[Stratum]:
    """The strata that say something: units on both sides."""
    return [s for s in strata if s.n1 > 0 and s.n0 > 0]


def cmh(strata: Sequence[Stratum]) -> tuple[float, float]:
    """(chi-square, p): the Cochran–Mantel–Haenszel statistic without continuity correction,
    sum(a - E[a])^2 / sum(Var[a]) with E[a] = n1·m1/N and Var[a] = n1·n0·m1·m0 / (N²(N-1))
    (m1, m0: successes and failures in the stratum), and its p-value on one degree of
    freedom. A stratum with one side empty, or no variance, adds nothing. With no variance
    at all, no evidence: (0, 1)."""
    num = var = 0.0
    for s in _informative(strata):
        n = s.n
        m1 = s.w1 + s.w0
        if n < 2:
            continue
        num += s.w1 - s.n1 * m1 / n
        var += s.n1 * s.n0 * m1 * (n - m1) / (n * n * (n - 1))
    if var <= 0:
        return 0.0, 1.0
    z = num / math.sqrt(var)
    return z * z, two_sided_p(z)


@dataclass(frozen=True)
class EstimatedDifference:
    """A difference with its standard error and 95% interval."""

    value: float
    se: float

    @property
    def low(self) -> float:
        return self.value - Z_95 * self.se

    @property
    def high(self) -> float:
        return self.value + Z_95 * self.se


def mh_difference(strata: Sequence[Stratum]) -> EstimatedDifference | None:
    """The Mantel–Haenszel difference of rates (exposed minus not), weighted n1·n0/N per
    stratum, with its standard error from each stratum's binomial variance
    p(1-p)/n per side, each p taken as (successes + 1) / (n + 2) (Agresti–Caffo's one
    success and one failure added): a side of 2 games won both would otherwise have no
    variance, and a card played in a handful of games an interval far narrower than its
    evidence. None when no stratum has units on both sides."""
    used = _informative(strata)
    if not used:
        return None
    total = value = var = 0.0
    for s in used:
        weight = s.n1 * s.n0 / s.n
        p1, p0 = s.w1 / s.n1, s.w0 / s.n0
        total += weight
        value += weight * (p1 - p0)
        q1, q0 = (s.w1 + 1) / (s.n1 + 2), (s.w0 + 1) / (s.n0 + 2)
        var += weight * weight * (q1 * (1 - q1) / s.n1 + q0 * (1 - q0) / s.n0)
    return EstimatedDifference(value / total, math.sqrt(var) / total)


def paired(differences: Sequence[float]) -> EstimatedDifference:
    """The mean of paired differences with its standard error (sample deviation / sqrt n);
    a single pair has no spread to tell: an infinite error."""
    n = len(differences)
    if n == 0:
        return EstimatedDifference(0.0, math.inf)
    mean = statistics.fmean(differences)
    if n == 1:
        return EstimatedDifference(mean, math.inf)
    return EstimatedDifference(mean, statistics.stdev(differences) / math.sqrt(n))


def sign_test(differences: Sequence[float]) -> float:
    """The two-sided p-value of the exact sign test of paired differences: under no change,
    a game that differs is as likely to differ either way, so the number of positive
    differences among the k non-zero ones is binomial(k, 1/2). For wins (differences of
    -1, 0 and 1) this is McNemar's exact test. It needs no normal approximation, which
    fails when few games differ: 1.0 when none does."""
    up = sum(1 for d in differences if d > 0)
    down = sum(1 for d in differences if d < 0)
    k = up + down
    if k == 0:
        return 1.0
    tail = sum(math.comb(k, i) for i in range(min(up, down) + 1))
    return min(1.0, 2.0 * tail / 2**k)


def detectable(se: float) -> float:
    """The smallest true difference a two-sided 5% test of an estimate with standard error
    `se` finds in 4 runs out of 5 (power 80%): what a "no change shown" can rule out."""
    return (Z_95 + Z_80) * se
