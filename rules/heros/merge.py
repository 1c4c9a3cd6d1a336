"""From what each participant answered to the one S9.13 declarations object.

The battle room collects one answer per participant, ``{option path: value}``
with the paths ``declaration-options`` offered.  Turning them into the
engine's declarations is rule work (S5.5.4, S5.4, S5.9): units of one corps
that do the same kind of action and stand next to each other go as one group,
one action (one PA for the group, not one per unit); actions run holds first,
then spontaneous advances, moves and the rest; the C-in-C's extra PA pays part
of the first action a corps pays for; shooters aiming at one target shoot
together.  Every piece of the result remembers which participant and which
answer path it came from, so that ``check-declaration`` can tell whose part a
refusal of ``resolve-round`` concerns.
"""

from __future__ import annotations

from typing import Any

from rules.contract import ANSWERS, declarations_shape, is_flat
from rules.errors import InvalidInput
from rules.explain import Log
from rules.heros import hexgrid
from rules.heros.participants import roster

ACTION_ORDER = ("hold", "advance", "move", "climb", "land", "character", "god", "lurker")
SIDES = ("active", "passive")
RAW_LISTS = ("executions", "captive_transfers", "actions", "shootings", "melees", "spells", "counter_spells",
             "rallies", "immediate_rallies", "adventurer_flee", "decline_pursuit", "arrivals", "departures", "modifiers")
RAW_DICTS = ("stars", "adventurers_follow", "escapes")
ID_LIMIT = 40


def split_key(key: str) -> tuple[str, str | None]:
    """``"unit:a-u1"`` gives ``("unit", "a-u1")``; ``"gm"`` gives ``("gm", None)``."""
    kind, sep, ref = key.partition(":")
    return kind, (ref if sep else None)


def is_answers(declarations: dict) -> bool:
    """Whether ``declarations`` is ``{participant key: answer}`` rather than the engine's object or one answer
    (the contract's one reading of the shapes: :func:`rules.contract.declarations_shape`)."""
    return declarations_shape(declarations) == ANSWERS


def at(key: str, path: str) -> str:
    """Where a problem of an answer is reported: under its participant's key, when it has one."""
    return f"declarations.{key}.{path}" if key else f"declarations.{path}"


def first_path(value: Any) -> Any:
    """A path as the engine takes it: a list of paths picked from checkboxes gives its first."""
    if isinstance(value, list) and value and isinstance(value[0], list):
        return value[0]
    return value


class Merged:
    """The declarations being built, and where each of their pieces came from."""

    def __init__(self, state: dict[str, Any]):
        self.units = {u["id"]: u for u in state["units"]}
        self.chars = {c["id"]: c for c in state["characters"]}
        self.out: dict[str, dict[str, Any]] = {"active": {}, "passive": {}, "gm": {}}
        self.acts: dict[str, dict[str, dict]] = {kind: {} for kind in ACTION_ORDER}
        self.raw_actions: list[tuple[dict, dict]] = []
        self.shots: dict[str, list[tuple[str, str, str]]] = {}
        self.spells: dict[tuple[str, str], dict] = {}
        self.rally_moves: dict[tuple[str, str], dict] = {}
        self.arrivals: dict[str, dict] = {}
        self.modifier: dict[str, dict] = {}
        self.extra_pa: dict[str, str] = {}
        self.origins: dict[str, dict[str, str]] = {}

    # -- reading the answers ------------------------------------------------------
    def add(self, key: str, answer: dict[str, Any]) -> None:
        """One participant's answer: flat (option paths) or nested (a piece of the engine's object)."""
        if not isinstance(answer, dict):
            raise InvalidInput.field(at(key, "").rstrip("."), "must be an object")
        if is_flat(answer):
            _kind, ref = split_key(key)
            for path, value in sorted(answer.items()):
                self.row(key, ref, path, value)
        else:
            self.nested(key, answer)

    def origin(self, where: str, key: str, path: str) -> None:
        self.origins.setdefault(where, {})[key] = path

    def nested(self, key: str, answer: dict[str, Any]) -> None:
        for part, body in answer.items():
            if part not in self.out or not isinstance(body, dict):
                raise InvalidInput.field(at(key, part), "not a part of the declarations")
            for name, value in body.items():
                self.raw(key, f"{part}.{name}", part, name, value)

    def raw(self, key: str, path: str, part: str, name: str, value: Any) -> None:
        """A whole list or object of the engine's shape, added to what others declared."""
        where = at(key, path)
        if name in RAW_LISTS:
            if not isinstance(value, list):
                raise InvalidInput.field(where, "must be a list")
            if name == "actions" and part == "active":
                self.raw_actions += [(item, {key: path}) for item in value]
                return
            items = self.out[part].setdefault(name, [])
            for item in value:
                self.origin(f"{part}.{name}[{len(items)}]", key, path)
                items.append(item)
        elif name in RAW_DICTS:
            if not isinstance(value, dict):
                raise InvalidInput.field(where, "must be an object")
            for k, v in value.items():
                self.origin(f"{part}.{name}.{k}", key, path)
                self.out[part].setdefault(name, {})[k] = v
        else:
            raise InvalidInput.field(where, "not a declaration option")

    def row(self, key: str, ref: str | None, path: str, value: Any) -> None:
        part, _sep, rest = path.partition(".")
        if part not in self.out or not rest:
            raise InvalidInput.field(at(key, path), "not a declaration option")
        if "." not in rest and "[" not in rest:
            self.raw(key, path, part, rest, value)
            return
        last = rest.rsplit(".", 1)[-1]
        if part == "gm":
            self.gm_row(key, path, rest, last, value)
            return
        handled = self.action_row(key, ref, path, rest, last, value) or self.side_row(key, ref, path, part, rest, last, value)
        if not handled:
            raise InvalidInput.field(at(key, path), "not a declaration option")

    def ident(self, value: Any, key: str, path: str) -> str:
        """A value that names a unit, a character, a combat or a choice: a string."""
        if not isinstance(value, str):
            raise InvalidInput.field(at(key, path), "must be an id")
        return value

    def need(self, ref: str | None, key: str, path: str) -> str:
        if ref is None:
            raise InvalidInput.field(at(key, path), "name the participant: send {participant key: answer}")
        return ref

    def act(self, kind: str, who: str, key: str, path: str) -> dict:
        entry = self.acts[kind].setdefault(who, {"fields": {}, "from": {}})
        entry["from"][key] = path
        return entry["fields"]

    def action_row(self, key: str, ref: str | None, path: str, rest: str, last: str, value: Any) -> bool:
        if rest.startswith("actions[kind=move].paths."):
            self.act("move", last, key, path)["path"] = first_path(value)
        elif rest.startswith("actions[kind=move].facings."):
            if self.units.get(last, {}).get("facing") != value:
                self.act("move", last, key, path)["facing"] = value
        elif rest == "actions[].kind":
            if value in ("hold", "advance"):
                self.act(value, self.need(ref, key, path), key, path)
        elif rest == "actions[kind=hold].hold_exception":
            if value is not None:
                self.ident(value, key, path)
            self.act("hold", self.need(ref, key, path), key, path)["exception"] = value
        elif rest.startswith("actions[kind=advance].paths."):
            self.act("advance", last, key, path)["path"] = first_path(value)
        elif rest == "actions[kind=climb].units":
            if value:
                self.act("climb", self.ident(value, key, path), key, path)
        elif rest.startswith("actions[kind=land].hexes."):
            self.act("land", last, key, path)["hex"] = value
        elif rest.startswith("actions[kind=character]."):
            self.act("character", self.need(ref, key, path), key, path)[last] = first_path(value) if last == "path" else value
        elif rest.startswith("actions[kind=god]."):
            self.act("god", self.need(ref, key, path), key, path)[last] = first_path(value) if last == "path" else value
        elif rest == "actions[kind=lurker].target_id":
            if value:
                self.act("lurker", self.need(ref, key, path), key, path)["target_id"] = value
        elif rest == "actions[].use_cinc_extra_pa":
            if value:
                self.extra_pa[key] = path
        elif rest == "actions[].corps_id":
            pass  # the corps is known from its units; this option only shows what the corps has left
        else:
            return False
        return True

    def side_row(self, key: str, ref: str | None, path: str, part: str, rest: str, last: str, value: Any) -> bool:
        out = self.out[part]
        if rest == "shootings[].target_id":
            if value:
                self.shots.setdefault(self.ident(value, key, path), []).append((self.need(ref, key, path), key, path))
        elif rest == "melees[].defender_id":
            if value:
                attacker = self.need(ref, key, path)
                melees = out.setdefault("melees", [])
                self.origin(f"{part}.melees[{len(melees)}]", key, path)
                melees.append({"id": f"m-{attacker}"[:ID_LIMIT], "attacker_id": attacker, "defender_id": value,
                               "contact": "front"})
        elif rest.startswith(("stars.", "adventurers_follow.", "escapes.")):
            name = rest.partition(".")[0]
            if value is not None:
                self.origin(f"{part}.{rest}", key, path)
                out.setdefault(name, {})[last] = value
        elif rest in ("adventurer_flee", "decline_pursuit"):
            if value:
                self.origin(f"{part}.{rest}[{len(out.get(rest, []))}]", key, path)
                out.setdefault(rest, []).append(self.need(ref, key, path))
        elif rest in ("executions[]", "rallies[]", "immediate_rallies[]"):
            name = rest[:-2]
            for item in (value if isinstance(value, list) else [value] if value else []):
                self.origin(f"{part}.{name}[{len(out.get(name, []))}]", key, path)
                out.setdefault(name, []).append({**item, "moves": []} if isinstance(item, dict) else item)
        elif rest.startswith("rallies[].moves."):
            if value:
                self.rally_moves[(part, last)] = {"unit_id": last, "path": first_path(value), "from": (key, path)}
        elif rest.startswith(("spells[].", "counter_spells[].")):
            name, _sep, field = rest.partition("[].")
            spell = self.spells.setdefault((part, name, self.need(ref, key, path)), {"from": {}, "fields": {}})
            spell["from"][key] = path
            node = spell["fields"]
            *parents, leaf = field.split(".")
            for parent in parents:
                node = node.setdefault(parent, {})
            node[leaf] = value
        else:
            return False
        return True

    def gm_row(self, key: str, path: str, rest: str, last: str, value: Any) -> None:
        name, _sep, tail = rest.partition(".")
        if name == "arrivals" and tail.count(".") == 1:
            unit_id, field = tail.split(".")
            if field in ("hex", "facing") and value is not None:
                self.arrivals.setdefault(unit_id, {"unit_id": unit_id, "from": (key, path)})[field] = value
                return
        elif name == "departures" and "." not in tail and tail:
            if value:
                departures = self.out["gm"].setdefault("departures", [])
                self.origin(f"gm.departures[{len(departures)}]", key, path)
                departures.append({"unit_id": tail, "reason": value})
            return
        elif rest.startswith("modifiers[]."):
            self.modifier[last] = value
            self.origin("gm.modifier", key, path)
            return
        raise InvalidInput.field(at(key, path), "not a declaration option")

    # -- building the declarations ----------------------------------------------
    def declarations(self) -> dict[str, Any]:
        self.build_actions()
        self.build_shootings()
        self.build_spells()
        self.build_rally_moves()
        self.build_gm()
        return {part: body for part, body in self.out.items() if body}

    def groups(self, ids: list[str]) -> list[list[str]]:
        """The ids split into the engine's groups: one corps, each unit next to another of the group (S5.5.4)."""
        found: list[list[str]] = []
        order = {uid: n for n, uid in enumerate(self.units)}
        for uid in sorted(ids, key=lambda i: (order.get(i, len(order)), i)):
            unit = self.units.get(uid, {})
            home = next((g for g in found if self.units.get(g[0], {}).get("corps_id") == unit.get("corps_id")
                         and unit.get("position") and any(
                             self.units.get(o, {}).get("position")
                             and hexgrid.distance(self.units[o]["position"], unit["position"]) == 1 for o in g)), None)
            if home is None:
                found.append([uid])
            else:
                home.append(uid)
        return found

    def push(self, kind: str, members: list[str], fields: dict, per_unit: dict[str, str]) -> None:
        """Append one action; ``per_unit`` names the per-unit keys of its fields (``paths``, ``hexes``...)."""
        actions = self.out["active"].setdefault("actions", [])
        where = f"active.actions[{len(actions)}]"
        entries = [self.acts[kind][m] for m in members]
        for entry in entries:
            for key, path in entry["from"].items():
                self.origin(where, key, path)
        for j, member in enumerate(members):
            for key, path in self.acts[kind][member]["from"].items():
                self.origin(f"{where}.units[{j}]", key, path)
                for field in per_unit:
                    self.origin(f"{where}.{field}.{member}", key, path)
        actions.append({"id": f"a{len(actions) + 1}", "kind": kind, **fields})

    def corps_of(self, uid: str) -> str | None:
        return self.units.get(uid, {}).get("corps_id")

    def build_actions(self) -> None:
        acts = self.acts
        by_reason: dict[Any, list[str]] = {}
        for uid, entry in acts["hold"].items():
            by_reason.setdefault(entry["fields"].get("exception"), []).append(uid)
        for reason, held in by_reason.items():
            for group in self.groups(held):
                self.push("hold", group, {"corps_id": self.corps_of(group[0]), "units": group, "hold_exception": reason}, {})
        for group in self.groups(list(acts["advance"])):
            self.push("advance", group, {"corps_id": self.corps_of(group[0]), "units": group,
                                         "paths": {u: acts["advance"][u]["fields"].get("path") or [] for u in group}},
                      {"paths": ""})
        moving = [u for u, e in acts["move"].items() if e["fields"].get("path") or e["fields"].get("facing") is not None]
        for group in self.groups(moving):
            fields = {"corps_id": self.corps_of(group[0]), "units": group,
                      "paths": {u: acts["move"][u]["fields"].get("path") or [] for u in group}}
            facings = {u: acts["move"][u]["fields"]["facing"] for u in group if acts["move"][u]["fields"].get("facing") is not None}
            if facings:
                fields["facings"] = facings
            self.push("move", group, fields, {"paths": "", "facings": ""})
        for group in self.groups(list(acts["climb"])):
            self.push("climb", group, {"corps_id": self.corps_of(group[0]), "units": group}, {})
        for group in self.groups(list(acts["land"])):
            self.push("land", group, {"corps_id": self.corps_of(group[0]), "units": group,
                                      "hexes": {u: acts["land"][u]["fields"].get("hex") for u in group}}, {"hexes": ""})
        for cid, entry in acts["character"].items():
            f = entry["fields"]
            path = f.get("path") or []
            engaged = f.get("engaged")
            if engaged == self.chars.get(cid, {}).get("engaged"):
                engaged = None
            if not path and engaged is None:
                continue
            action = {"character_id": cid, "path": path}
            if engaged is not None:
                action["engaged"] = engaged
            if path and f.get("pa_source") not in (None, "free"):
                action["pa_source"] = f["pa_source"]
            self.push("character", [cid], action, {})
        for gid, entry in acts["god"].items():
            f = entry["fields"]
            if f.get("swap_with"):
                self.push("god", [gid], {"god_id": gid, "action": "swap", "swap_with": f["swap_with"]}, {})
            elif f.get("path"):
                self.push("god", [gid], {"god_id": gid, "action": "move", "path": f["path"]}, {})
        for lid, entry in acts["lurker"].items():
            self.push("lurker", [lid], {"unit_id": lid, "target_id": entry["fields"]["target_id"]}, {})
        actions = self.out["active"].get("actions", [])
        if self.extra_pa:  # the C-in-C's extra point pays part of the first action the corps pays for (S5.4)
            paying = next((n for n, a in enumerate(actions) if a["kind"] in ("move", "climb", "land") or (
                a["kind"] == "character" and a["path"] and a.get("pa_source", "corps") == "corps")), None)
            if paying is not None:
                actions[paying]["use_cinc_extra_pa"] = True
                for key, path in self.extra_pa.items():
                    self.origin(f"active.actions[{paying}].use_cinc_extra_pa", key, path)
        for item, origin in self.raw_actions:
            actions = self.out["active"].setdefault("actions", [])
            for key, path in origin.items():
                self.origin(f"active.actions[{len(actions)}]", key, path)
            actions.append(item)

    def build_shootings(self) -> None:
        shootings = self.out["active"].setdefault("shootings", [])
        for target, shooters in self.shots.items():
            where = f"active.shootings[{len(shootings)}]"
            for j, (ref, key, path) in enumerate(shooters):
                self.origin(where, key, path)
                self.origin(f"{where}.shooters[{j}]", key, path)
            shootings.append({"id": f"s-{shooters[0][0]}"[:ID_LIMIT], "shooters": [s[0] for s in shooters],
                              "target_id": target})
        if not shootings:
            del self.out["active"]["shootings"]

    def build_spells(self) -> None:
        for (part, name, caster), spell in self.spells.items():
            fields = spell["fields"]
            if name == "spells" and not (fields.get("caster_id") or fields.get("effect")):
                continue
            if name == "counter_spells" and not fields.get("against_caster_id"):
                continue
            items = self.out[part].setdefault(name, [])
            for key, path in spell["from"].items():
                self.origin(f"{part}.{name}[{len(items)}]", key, path)
            prefix = "sp" if name == "spells" else "cs"
            item = {"id": f"{prefix}-{caster}"[:ID_LIMIT], "caster_id": fields.get("caster_id") or caster,
                    "cost": fields.get("cost", 0)}
            if name == "spells":
                item["effect"] = {"kind": "other", **fields.get("effect", {})}
            else:
                item["against_caster_id"] = fields["against_caster_id"]
            items.append(item)

    def build_rally_moves(self) -> None:
        for (part, uid), move in self.rally_moves.items():
            corps = self.corps_of(uid)
            for key in ("rallies", "immediate_rallies"):
                for n, rally in enumerate(self.out[part].get(key, [])):
                    if isinstance(rally, dict) and rally.get("corps_id") == corps:
                        moves = rally.setdefault("moves", [])
                        self.origin(f"{part}.{key}[{n}].moves[{len(moves)}]", *move["from"])
                        moves.append({"unit_id": uid, "path": move["path"]})

    def build_gm(self) -> None:
        gm = self.out["gm"]
        for uid, arrival in self.arrivals.items():
            if "hex" not in arrival:
                continue
            items = gm.setdefault("arrivals", [])
            self.origin(f"gm.arrivals[{len(items)}]", *arrival["from"])
            items.append({"unit_id": uid, "hex": arrival["hex"], "facing": arrival.get("facing", 0)})
        if self.modifier.get("combat_id") and self.modifier.get("combatant_id"):
            items = gm.setdefault("modifiers", [])
            self.origins[f"gm.modifiers[{len(items)}]"] = self.origins.pop("gm.modifier")
            items.append({"label": "", "value": 0, **self.modifier})


def merge(state: dict[str, Any], answers: dict[str, dict]) -> Merged:
    """Merge ``{participant key: answer}`` the engine's way; the result keeps each piece's origin."""
    merged = Merged(state)
    for key in sorted(answers):
        merged.add(key, answers[key])
    merged.result = merged.declarations()
    return merged


def with_defaults(state: dict[str, Any], answers: dict[str, dict], log: Log) -> tuple[dict[str, dict], list[str]]:
    """``answers`` with the default answer of every participant the round waits for that said nothing
    (no answer, or an empty one), and their keys, each logged (``participants.py`` says what they get)."""
    answers = dict(answers)
    applied = []
    for p in roster(state):
        if p["must_declare"] and not answers.get(p["key"]):
            answers[p["key"]] = p["default"]
            applied.append(p["key"])
            log.add("S11.2", "defaults.applied", "{participant} declared nothing and gets its default orders.",
                    participant=p["key"])
    return answers, applied
