"""The ``engage`` policy's answer: close on the nearest enemy, then attack, read from the offered options alone.

Why it exists: the spec default orders of four rulesets out of five never
fight (D&D 5e and SYNAPSE hold, HÉROS and JdRWiki declare nothing), so a
battle played on them never ends, and random orders spend most rounds
wandering or withdrawing.  A balance needs battles that end; this policy is
the simulator's, never an engine's default (``docs/simulation.md``).

It reads nothing but what ``declaration-options`` offers:

* a path option (its values are paths: lists of squares, ``[x, y]`` or
  ``{"col", "row"}``) takes the path ending nearest the nearest enemy, the
  shortest of those, when that is nearer than where the participant stands;
  where a side stands is learnt from its own path options, whose paths start
  on or next to its square, and remembered for ``MEMORY`` rounds (HÉROS offers
  moves to the active side only);
* a choice offering ``attack`` takes it; a choice of a target (its path ends
  in ``target``, ``target_id`` or ``defender_id``) takes the first one offered;
* a list whose offered items name a ``target`` takes the first of them (an
  attack, an assault);
* everything else keeps its default.

Distances are in squares, the larger of the two coordinate differences: on
a hex map that is a rough measure, enough to say which way the enemy is.
"""

from __future__ import annotations

from collections.abc import Iterable

MEMORY = 2
"""Rounds for which a side's last known squares still count (a side the engine offers no move this round)."""
TARGET_ENDINGS = ("target", "target_id", "defender_id")

Square = tuple[int, int]


def square(value) -> Square | None:
    """A square as ``(x, y)`` from either shape the engines use, else ``None``."""
    if isinstance(value, dict) and set(value) == {"col", "row"}:
        value = [value["col"], value["row"]]
    if (isinstance(value, list) and len(value) == 2
            and all(isinstance(part, int) and not isinstance(part, bool) for part in value)):
        return value[0], value[1]
    return None


def paths_of(values: Iterable) -> list[list[Square]]:
    """The offered values that are paths (non-empty lists of squares)."""
    found = []
    for value in values:
        if isinstance(value, list) and value:
            squares = [square(step) for step in value]
            if all(step is not None for step in squares):
                found.append(squares)
    return found


def distance(a: Square, b: Square) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def whereabouts(options: list[dict]) -> list[Square]:
    """Where a participant stands, as far as its options tell: the first square of each of its path options."""
    found = []
    for option in options:
        allowed = option.get("allowed") if option.get("type") == "list" else None
        first = next((paths[0] for value in allowed or [] if (paths := paths_of([value]))), None)
        if first:
            found.append(first[0])
    return found


class Sightings:
    """The squares each side was last seen on, by round: what the engage policy aims at."""

    def __init__(self):
        self.round = 0
        self._seen: dict[str, tuple[int, list[Square]]] = {}

    def new_round(self) -> None:
        self.round += 1
        self._seen = {key: seen for key, seen in self._seen.items() if self.round - seen[0] <= MEMORY}

    def saw(self, key: str, squares: list[Square]) -> None:
        if squares:
            self._seen[key] = (self.round, squares)

    def forget(self, key: str) -> None:
        self._seen.pop(key, None)

    def enemies_of(self, side: str, sides: dict[str, str]) -> list[Square]:
        return [spot for key, (_, squares) in self._seen.items() if sides.get(key, side) != side for spot in squares]


def engaging_value(option: dict, values, enemies: list[Square]):
    """The offered value that closes on or strikes the enemy (see the module), ``None`` to keep the default."""
    kind, path = option.get("type"), option.get("path") or ""
    if kind == "list":
        closing = _closing(values, enemies)
        if closing is not None:
            return closing
        targets = [value for value in values if isinstance(value, list) and len(value) == 1
                   and isinstance(value[0], dict) and "target" in value[0]]
        return targets[0] if targets else None
    if kind == "choice" and "attack" in values:
        return "attack"
    if kind == "choice" and path.rsplit(".", 1)[-1].endswith(TARGET_ENDINGS):
        return next((value for value in values if value is not None), None)
    return None


def _closing(values, enemies: list[Square]) -> list | None:
    """The offered path ending nearest an enemy, when it brings the participant nearer (else ``None``)."""
    pairs = [(value, steps) for value in values for steps in paths_of([value])]
    if not pairs or not enemies:
        return None

    def reach(steps: list[Square]) -> int:
        return min(distance(steps[-1], spot) for spot in enemies)

    value, steps = min(pairs, key=lambda pair: (reach(pair[1]), len(pair[1])))
    here = min(distance(pairs[0][1][0], spot) for spot in enemies)
    return value if reach(steps) < here else None
