"""The figures a simulation reports: rates with their 95% interval, and spreads of numbers.

Kept apart from the playing so that every figure of ``rules.simulate`` is
computed one way, from plain lists, in a fixed order (the same battles give
the same figures, whatever the number of worker processes).

>>> wilson(95, 100)["low"] > 0.88
True
>>> spread([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
{'median': 5.5, 'p10': 1.9, 'p90': 9.1}
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


def wilson(successes: int, trials: int, z: float = Z95) -> dict:
    """A rate with its Wilson score interval (``rate``, ``low``, ``high``).

    Wilson rather than the textbook ``p ± z·sqrt(p(1-p)/n)``: it stays inside
    [0, 1] and stays honest when the rate is near 0 or 1, which is where a
    lopsided battle's figures sit.  With no trials every figure is ``None``.
    """
    if trials <= 0:
        return {"rate": None, "low": None, "high": None}
    p = successes / trials
    z2n = z * z / trials
    centre = (p + z2n / 2) / (1 + z2n)
    half = z / (1 + z2n) * math.sqrt(p * (1 - p) / trials + z2n / (4 * trials))
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exact at the ends, where floats would wobble
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return {"rate": p, "low": low, "high": high}


def quantile(values: Sequence[float], q: float) -> float | None:
    """The ``q`` quantile by linear interpolation between the closest ranks (numpy's default)."""
    if not values:
        return None
    ordered = sorted(values)
    position = (len(ordered) - 1) * q
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    value = ordered[below] + (ordered[above] - ordered[below]) * (position - below)
    return _tidy(value)


def spread(values: Sequence[float]) -> dict:
    """Median, 10th and 90th percentiles (``None`` each when there are no values)."""
    return {"median": quantile(values, 0.5), "p10": quantile(values, 0.1), "p90": quantile(values, 0.9)}


def distribution(values: Sequence[float]) -> dict:
    """A fuller picture of a number that can go either way (a strength change in a preview)."""
    if not values:
        return {"mean": None, "min": None, "p10": None, "p25": None, "median": None, "p75": None, "p90": None,
                "max": None}
    return {"mean": _tidy(sum(values) / len(values)), "min": _tidy(min(values)),
            "p10": quantile(values, 0.1), "p25": quantile(values, 0.25), "median": quantile(values, 0.5),
            "p75": quantile(values, 0.75), "p90": quantile(values, 0.9), "max": _tidy(max(values))}


def histogram(values: Sequence[int]) -> dict[str, int]:
    """``{value: count}`` in increasing order, keys as strings (JSON objects have string keys)."""
    return {str(value): count for value, count in sorted(Counter(values).items())}


def _tidy(value: float) -> float:
    """Round away float noise (``1.9000000000000001``) so that figures read and compare cleanly."""
    return round(value, 9) if isinstance(value, float) else value
