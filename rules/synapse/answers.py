"""Answers (``{option path: value}``, as the room's forms collect them) into the engine's declarations.

Formation ids hold a dot (``A.melee``), so an option path is cut knowing
where they sit: ``sides.<side>.orders.<formation>.<field>`` and
``gm.<rally_modifiers|formation_modifiers>.<formation>[.<field>]``.  Each
participant may only write its own part of the declarations (S5.3): a side
its ``sides.<side>``, a formation its own order, the GM its ``gm``.
"""

from __future__ import annotations

import copy
from typing import Annotated, Any

from pydantic import Field

from rules.contract import ANSWERS, GM, Answer, declarations_shape, expand, is_flat, merge_into
from rules.errors import InvalidInput
from rules.model import Input
from rules.registry import Context
from rules.synapse import ruleset
from rules.synapse.declarations import SIDES
from rules.synapse.state import StateIn, load_state

Declared = Annotated[dict[Annotated[str, Field(max_length=200)], Any], Field(max_length=1000)]
"""The engine's declarations object, answers by participant key, or one answer (a top-level key holds a dot)."""

FORMATION_GROUPS = ("rally_modifiers", "formation_modifiers")


def split_path(path: str) -> list[str]:
    """``sides.A.orders.A.melee.action`` -> ``["sides", "A", "orders", "A.melee", "action"]``."""
    parts = path.split(".")
    if parts[0] == "sides" and len(parts) > 4 and parts[2] == "orders":
        return parts[:3] + [f"{parts[3]}.{parts[4]}"] + parts[5:]
    if parts[0] == "gm" and len(parts) > 3 and parts[1] in FORMATION_GROUPS:
        return parts[:2] + [f"{parts[2]}.{parts[3]}"] + parts[4:]
    return parts


def nested(declarations: dict | None) -> dict:
    """The engine's object, whichever shape came (a private copy)."""
    declarations = copy.deepcopy(declarations or {})
    return expand(declarations, split_path) if is_flat(declarations) else declarations


def part_of(key: str) -> list[str]:
    """The keys of the declarations a participant writes: ``["gm"]``, ``["sides", "A"]``,
    ``["sides", "A", "orders", "A.melee"]``."""
    if key == GM:
        return ["gm"]
    kind, _, ident = key.partition(":")
    if kind in ("side", "commander") and ident in SIDES:
        return ["sides", ident]
    if kind == "formation" and ident[:1] in SIDES and ident[1:2] == ".":
        return ["sides", ident[0], "orders", ident]
    raise InvalidInput.field(f"declarations.{key}", 'not a participant who declares ("gm", "side:A", "side:B" '
                                                    'or "formation:<id>")')


def scoped(key: str, answer: dict, where: str) -> dict:
    """``answer`` nested, after checking that every path lies in the part ``key`` writes."""
    prefix = part_of(key)
    tree = nested(answer)
    for path in sorted(answer) if is_flat(answer) else []:
        if split_path(path)[:len(prefix)] != prefix:
            raise InvalidInput.field(f"{where}.{path}", f"{key} does not declare this")
    node = tree
    for name in prefix:
        if set(node) - {name}:
            extra = sorted(set(node) - {name})[0]
            raise InvalidInput.field(f"{where}.{extra}", f"{key} does not declare this")
        node = node.get(name, {})
        if not isinstance(node, dict):
            raise InvalidInput.field(f"{where}.{name}", "must be an object")
    return tree


def merge(answers: dict[str, dict]) -> dict:
    """Every participant's answer into one declarations object, in key order."""
    merged: dict = {}
    for key in sorted(answers):
        if not isinstance(answers[key], dict):
            raise InvalidInput.field(f"declarations.{key}", "must be an object")
        # An empty answer is still a declaration (every formation holds): its part is there, empty.
        node = merged
        for name in part_of(key)[:2]:
            node = node.setdefault(name, {})
        merge_into(merged, scoped(key, answers[key], f"declarations.{key}"))
    return merged


def known(declarations: dict | None) -> dict:
    """The engine's object from any shape of "the declarations known so far"
    (:func:`rules.contract.declarations_shape`): answers by participant key go through :func:`merge`."""
    if declarations_shape(declarations) == ANSWERS:
        return merge(declarations)
    return nested(declarations)


def own_commitment(declarations: dict | None, side: str | None) -> bool:
    """Whether ``side``'s own draft commits its reserve (its orders may then reach the reserve)."""
    if side is None:
        return False
    part = known(declarations).get("sides", {})
    part = part.get(side) if isinstance(part, dict) else None
    return isinstance(part, dict) and part.get("commit_reserve") is True


class MergeInput(Input):
    state: StateIn
    declarations: Annotated[dict[Annotated[str, Field(max_length=120)], Answer], Field(max_length=50)]


@ruleset.operation("merge-declarations", MergeInput, summary="Each participant's answer into one declarations object (S9.13).")
def merge_declarations(data: MergeInput, ctx: Context) -> dict:
    load_state(data.state)
    merged = merge(data.declarations)
    ctx.log.add("S5.3", "declarations.merged", "{count} declaration(s) merged: {keys}.", count=len(data.declarations),
                keys=sorted(data.declarations))
    return {"declarations": merged}
