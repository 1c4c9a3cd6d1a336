"""Pure-Python rules engines for five mass-combat systems.

No Django, no I/O, no clock: an operation is a function of its JSON input
(dice and seed included).  Use :func:`rules.registry.run`, or the CLI
``python -m rules``.  The contract is ``docs/battle-contract.md``.
"""

from rules.errors import InvalidInput, UnknownOperation

__all__ = ["InvalidInput", "UnknownOperation"]
