"""The battle room contract as the simulator asks it: one engine, through ``Ruleset.run`` only.

The simulator never reaches into an engine's modules: every question goes
through the operations every engine answers (``docs/battle-contract.md``), so
that it plays every ruleset the same way and sees exactly what the battle room
sees.  This module names those questions once and derives the seeds that make
each simulated battle reproducible on its own.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from typing import Any

from rules import registry
from rules.contract import GM
from rules.validate import check_depth

SEED_BITS = 63


def derive_seed(base: int, *parts: Any) -> int:
    """A seed for one piece of a simulation (a battle, a round, a look-ahead) from the base seed.

    A hash rather than a running generator: battle 417's seed is the same
    whether it is played first, last or in another process, which is what
    makes results independent of the number of workers.
    """
    text = ":".join(str(part) for part in (base, *parts)).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> (64 - SEED_BITS)


@cache
def _input_fields(slug: str, operation: str) -> frozenset[str]:
    """The top-level fields of an operation's published input schema (built once: it is not cheap)."""
    schema = registry.get(slug).operations[operation].input_schema()
    return frozenset(schema.get("properties", {}))


@dataclass(frozen=True)
class Engine:
    """One ruleset's contract operations, with the simulator's habits (the GM's full view)."""

    slug: str

    def _run(self, operation: str, payload: dict, seed: int | None = None) -> dict:
        """One operation; the nesting of what it is given was checked once, where it came in (``check_input``)."""
        return registry.get(self.slug).run(operation, payload, seed, nested_checked=True)

    @staticmethod
    def check_input(value) -> None:
        """The nesting check ``Ruleset.run`` makes on outside input, made once on a setup or state given to the
        simulator: everything it passes on afterwards is built from it and from the engine's own outputs."""
        check_depth(value)

    def takes(self, operation: str, field: str) -> bool:
        """Whether an operation's published input has ``field`` (not every engine takes every optional one)."""
        return field in _input_fields(self.slug, operation)

    def new_battle(self, setup: dict, seed: int) -> dict:
        return self._run("new-battle", setup, seed)["state"]

    def round_participants(self, state: dict) -> dict:
        return self._run("round-participants", {"state": state})

    def participants(self, state: dict) -> list[dict]:
        return self.round_participants(state)["participants"]

    def options(self, state: dict, participant: dict, answers: dict[str, dict]) -> list[dict]:
        """What ``participant`` may declare, the others' ``answers`` so far as its draft when the engine takes one."""
        payload = {"state": state, "participant": participant}
        if answers and self.takes("declaration-options", "declarations"):
            payload["declarations"] = answers
        return self._run("declaration-options", payload)["options"]

    def check(self, state: dict, participant: dict, answer: dict, answers: dict[str, dict]) -> dict:
        """``check-declaration`` as the GM sees the battle, the others' ``answers`` known so far:
        ``{path: why}`` for every refused path."""
        payload = {"state": state, "viewer": GM, "participant": participant, "declaration": answer}
        if answers:
            payload["declarations"] = answers
        return self._run("check-declaration", payload)["fields"]

    def merge(self, state: dict, answers: dict[str, dict]) -> dict:
        if not answers:
            return {}
        return self._run("merge-declarations", {"state": state, "declarations": answers})["declarations"]

    def resolve(self, state: dict, declarations: dict, seed: int) -> dict:
        return self._run("resolve-round", {"state": state, "declarations": declarations}, seed)

    def visible_names(self, state: dict) -> dict[str, str]:
        """The ``names`` of the GM's ``visible-state``: every id the full state still names."""
        return self.names(state)["names"]

    def names(self, state: dict) -> dict:
        """The GM's ``visible-state`` ``names`` and ``name_keys`` (a name the engine composes, as a message)."""
        seen = self._run("visible-state", {"state": state, "viewer": GM})
        return {"names": seen["names"], "name_keys": seen.get("name_keys") or {}}
