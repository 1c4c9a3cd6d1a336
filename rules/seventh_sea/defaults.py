"""The orders a participant gets when it declares nothing (battle room contract, ``docs/rules/seventh_sea.md``).

The spec names no default (H35 even asks every fighting hero to declare), so
the contract's fallback applies, logged and listed in ``defaults_applied``
rather than silent: a side without a strategy holds *in ranks* (``in_ranks``,
"En rangs": the army keeps its formation and spends no free raise); a hero
without an engagement holds where he fought last round, or stays in support
(the rear, the least exposed level) if he did not fight.
"""

from __future__ import annotations

from rules.seventh_sea import tables

DEFAULT_STRATEGY = "in_ranks"
assert DEFAULT_STRATEGY in tables.STRATEGIES


def default_engagement(hero: dict) -> str:
    return hero["last_engagement"] or tables.ENGAGEMENTS[0]
