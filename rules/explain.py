"""The explanation log: why every number is what it is.

Each step is ``{"rule", "key", "params", "text"}`` (README of the specs):
``rule`` is the spec section that applied, ``key`` a stable message key the web
layer translates with ``params``, and ``text`` the English sentence the CLI
prints.  Engines pass ``text`` as a :meth:`str.format` template over ``params``
so the English wording and the parameters can never disagree.
"""

from typing import Any


class Listed(list):
    """A list parameter (ids, most often) whose English text reads ``a1, b1`` where a list would read
    ``['a1', 'b1']``; it stays a list in ``params``, so the web renders each item by its name."""

    def __format__(self, spec: str) -> str:
        return format(", ".join(map(str, self)), spec)


class Log:
    """An append-only list of explanation steps.

    >>> log = Log()
    >>> log.add("S6.4", "numbers.band", "Ratio {ratio} gives {modifier:+d}.", ratio="2:1", modifier=2)
    >>> log.steps[0]["text"]
    'Ratio 2:1 gives +2.'
    """

    def __init__(self) -> None:
        self.steps: list[dict[str, Any]] = []

    def add(self, rule: str, key: str, text: str, **params: Any) -> None:
        self.steps.append(
            {"rule": rule, "key": key, "params": params, "text": text.format(**params)}
        )

    def extend(self, steps: list[dict[str, Any]]) -> None:
        """Append steps produced elsewhere (a sub-operation's log)."""
        self.steps.extend(steps)

    def __len__(self) -> int:
        return len(self.steps)
