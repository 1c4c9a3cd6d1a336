"""From the room's answers to the declarations of S9.13.2 (``merge-declarations``).

A form answers ``{option path: value}`` with the paths ``declaration-options``
offered (``units.u1.stands[0].move``).  Merging nests them, puts ``stands[i]``
at index ``i`` of the unit's stand orders, writes values as S9.13.2 does (an
attack option carries its distance; the order only the attack and target) and
leaves out what the chosen action does not use, so that a form's untouched
fields never void the orders.  Each participant may only write its own part.
"""

from __future__ import annotations

import re

from rules.contract import ANSWER, ANSWERS, GM, declarations_shape, is_flat
from rules.dnd5e.orders import Declarations
from rules.errors import InvalidInput
from rules.validate import parse

STAND_ITEM = re.compile(r"^stands\[(\d+)\]$")
# Fields of a stand's or a solo's orders and the actions that use them (S9.13.2).
STAND_REQUIRED = "each stand order names the stand it is for (S9.13.2)"
EMPTY = (None, "", [], {}, False, "none")  # what an untouched form field holds: no order given
ACTION_FIELDS = {"spell": ("cast_spell",), "attacks": ("attack",), "support": ("attack",), "hide": ("hide",),
                 "join": ("join",)}


def own_prefixes(key: str) -> tuple[str, ...] | None:
    """The paths a participant may write (None: any, the GM's)."""
    if key == GM:
        return None
    kind, _sep, ident = key.partition(":")
    if kind == "unit":
        return (f"units.{ident}.",)
    if kind == "solo":
        return (f"solos.{ident}.", f"solo_fallbacks.{ident}.")
    if kind == "side":
        return ("casualty_shifts", "solo_fallbacks.")
    raise InvalidInput.field(f"declarations.{key}", "unknown participant key")


def engine_value(path: str, value):
    """A form's value as S9.13.2 writes it."""
    last = path.rsplit(".", 1)[-1]
    if last == "attacks" and isinstance(value, list):
        return [{k: a[k] for k in a if k not in ("distance", "reach_bonus_possible")} if isinstance(a, dict) else a
                for a in value]
    if last == "targets" and ".spell." in f".{path}" and isinstance(value, list):
        return [t["target"] if isinstance(t, dict) and "target" in t else t for t in value]
    if last == "if_rallied" and isinstance(value, str):
        return {"action": value}
    if last == "award_vp" and isinstance(value, list):
        return [v if isinstance(v, dict) else {"side": v, "vp": 1, "reason": "GM"} for v in value]
    if last == "isolation_overrides" and isinstance(value, str):
        return {value: False}
    return value


class Merged:
    """The declarations object built so far, and where each of its stand orders came from."""

    def __init__(self):
        self.declarations: dict = {}
        # (unit id, if_rallied?) -> answer index of each kept stand order, in order
        self.stand_rows: dict[tuple[str, bool], list[int]] = {}
        # answer paths (``units.u1.stands[2]``) of the stand orders that give orders but name no stand
        self.unnamed: list[str] = []

    def add(self, key: str, answer: dict) -> None:
        if not isinstance(answer, dict):
            raise InvalidInput.field(f"declarations.{key}", "an answer is an object of option paths")
        prefixes = own_prefixes(key)
        flat = answer if is_flat(answer) else _flatten(answer)
        for path, value in sorted(flat.items()):
            if prefixes is not None and not any(path.startswith(p) or path == p.rstrip(".") for p in prefixes):
                raise InvalidInput.field(f"declarations.{key}.{path}", "not this participant's to declare")
            self._put(path, engine_value(path, value))

    def _put(self, path: str, value) -> None:
        node = self.declarations
        *parents, last = path.split(".")
        for name in parents:
            item = STAND_ITEM.match(name)
            if item is None:
                child = node.get(name)
                if not isinstance(child, dict):
                    child = node[name] = {}
                node = child
                continue
            orders = node.setdefault("stands", [])
            if not isinstance(orders, list):
                raise InvalidInput.field(path, "stand orders are a list")
            index = int(item.group(1))
            orders.extend({} for _missing in range(index + 1 - len(orders)))
            node = orders[index]
        node[last] = value

    def finish(self) -> dict:
        """Drop stand orders that name no stand and the fields the chosen actions do not use.

        A stand order is for the stand it names: one that gives orders without naming it is remembered in
        ``unnamed`` (:meth:`refuse_unnamed`), since its stand would neither move nor act (S5.5 T5)."""
        for uid, unit in (self.declarations.get("units") or {}).items():
            if not isinstance(unit, dict):
                continue
            for rallied, orders in ((False, unit), (True, unit.get("if_rallied"))):
                if not isinstance(orders, dict) or not isinstance(orders.get("stands"), list):
                    continue
                kept = [i for i, o in enumerate(orders["stands"]) if isinstance(o, dict) and o.get("stand")]
                self.unnamed += [f"units.{uid}.{'if_rallied.' if rallied else ''}stands[{i}]"
                                 for i, o in enumerate(orders["stands"])
                                 if i not in kept and isinstance(o, dict) and any(v not in EMPTY for v in o.values())]
                self.stand_rows[(uid, rallied)] = kept
                orders["stands"] = [orders["stands"][i] for i in kept]
                _for_its_action(orders)
        for solo in (self.declarations.get("solos") or {}).values():
            if isinstance(solo, dict):
                _drop_unused(solo, solo.get("action", "none"))
        return self.declarations

    def refuse_unnamed(self) -> None:
        """Refuse, on its ``stand`` field, a stand order that gives orders but names no stand (S9.13.2)."""
        if self.unnamed:
            raise InvalidInput("invalid declarations", {f"{row}.stand": STAND_REQUIRED for row in self.unnamed})

    def answer_path(self, engine_path: str) -> str:
        """An engine path (``units.u1.stands[0].move[2]``) as the answer wrote it (its ``stands[i]`` index)."""
        match = re.match(r"^units\.([^.]+)\.(if_rallied\.)?stands\[(\d+)\](.*)$", engine_path)
        if match is None:
            return engine_path
        rows = self.stand_rows.get((match.group(1), bool(match.group(2))), [])
        index = int(match.group(3))
        if index >= len(rows):
            return engine_path
        return f"units.{match.group(1)}.{match.group(2) or ''}stands[{rows[index]}]{match.group(4)}"


def _flatten(nested: dict) -> dict:
    """An engine-shaped part (``{"units": {"u1": {...}}, "gm": {...}}``) as paths of each participant's fields."""
    out = {}
    for key, value in nested.items():
        if key in ("units", "solos", "solo_fallbacks") and isinstance(value, dict):
            for ident, orders in value.items():
                items = orders.items() if isinstance(orders, dict) else [("", orders)]
                out.update({f"{key}.{ident}.{field}".rstrip("."): inner for field, inner in items})
        elif key == "gm" and isinstance(value, dict):
            out.update({f"gm.{field}": inner for field, inner in value.items()})
        else:
            out[key] = value
    return out


def _for_its_action(unit: dict) -> None:
    """Leave out what another action would use (``configuration`` only with Configure, a stand's own action
    only under Cast a Spell), as S9.13.2 writes orders."""
    action = unit.get("action", "none")
    if action != "configure":
        unit.pop("configuration", None)
    for order in unit.get("stands", []):
        own = order.get("action") if action == "cast_spell" else order.pop("action", None)
        _drop_unused(order, own if action == "cast_spell" and own else action)


def _drop_unused(orders: dict, action: str) -> None:
    for field, used_by in ACTION_FIELDS.items():
        if action not in used_by:
            orders.pop(field, None)


def merge(answers: dict[str, dict]) -> Merged:
    merged = Merged()
    for key in sorted(answers):
        merged.add(key, answers[key])
    merged.finish()
    return merged


def as_declarations(merged: dict) -> dict:
    """``merged`` once it parses as S9.13.2's declarations; a refusal names its field under ``declarations``."""
    try:
        parse(Declarations, merged)
    except InvalidInput as exc:
        raise InvalidInput(exc.error, {_under_declarations(k): v for k, v in exc.fields.items()}) from None
    return merged


def known(value: dict | None) -> dict:
    """The declarations object from any shape of "the declarations known so far"
    (:func:`rules.contract.declarations_shape`): answers by participant key are merged, one answer is merged
    as the GM's (who may write any path), the object is kept; what does not parse is refused on its field."""
    shape = declarations_shape(value)
    try:
        if shape == ANSWERS:
            merged = merge(value).declarations
        else:
            merged = merge({GM: value}).declarations if shape == ANSWER else dict(value or {})
    except InvalidInput as exc:
        raise InvalidInput(exc.error, {_under_declarations(k): v for k, v in exc.fields.items()}) from None
    return as_declarations(merged)


def _under_declarations(path: str) -> str:
    return path if path.startswith("declarations.") else f"declarations.{path}"
