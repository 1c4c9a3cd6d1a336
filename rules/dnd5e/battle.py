"""The battle state (S3.10) as the engine works on it.

:class:`Battle` wraps a plain, deep-copied state dict with the lookups and
derivations every stateful operation needs (footprints, sides, effective AC,
isolation, damage with overflow).  Operations copy the input state, change the
copy through a :class:`Battle` and return it: the input is never mutated.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from rules.dnd5e.entities import BattleState, Profile
from rules.dnd5e.geometry import Box, Terrain, dist
from rules.dnd5e.sheets import allowance, mod, swim_squares
from rules.dnd5e.tables import CONFIG_AC_BONUS, FOOTPRINT, HALF_SPEED_CONFIGS, MAY_BE_ELEVATED, SIZE_RANK, STAND_ALLOWED
from rules.errors import InvalidInput
from rules.explain import Log

IN_PLAY = ("active", "casualty")


def state_dict(state: BattleState) -> dict:
    """A plain copy of a validated state: defaults filled in, profiles exactly as given."""
    st = state.model_dump()
    if st["tie_break_round"] is None:  # only a state after a tie carries it (states before it read as they did)
        del st["tie_break_round"]
    st["profiles"] = {k: p.model_dump(exclude_unset=True) for k, p in state.profiles.items()}
    for sq in st["objective_squares"].values():
        if sq["hp"] is None:
            sq["hp"] = sq["hp_max"]
    for obj in st["objectives"].values():
        if obj["type"] == "custom":
            obj.setdefault("achieved_round", None)
    return st


class Battle:
    def __init__(self, st: dict, profiles: dict[str, Profile], log: Log | None = None):
        self.st = st
        self.profiles = profiles
        self.log = log if log is not None else Log()
        self.events: list[dict] = []
        self.terrain = Terrain(st["map"])
        self.overrides: dict[str, bool] = {}
        self.refresh_roads()

    @classmethod
    def from_input(cls, state: BattleState, log: Log, path: str = "state") -> "Battle":
        battle = cls(state_dict(state), dict(state.profiles), log)  # model_dump builds fresh objects
        check_state(battle, state_paths(path))
        return battle

    # -- plain lookups ----------------------------------------------------------
    @property
    def round(self) -> int:
        return self.st["round"]

    @property
    def stands(self) -> dict[str, dict]:
        return self.st["stands"]

    @property
    def solos(self) -> dict[str, dict]:
        return self.st["solos"]

    @property
    def units(self) -> dict[str, dict]:
        return self.st["units"]

    @property
    def squares(self) -> dict[str, dict]:
        return self.st["objective_squares"]

    def event(self, type_: str, **fields: Any) -> None:
        self.events.append({"type": type_, "round": self.round, **fields})

    def profile(self, cid: str) -> Profile:
        entity = self.stands.get(cid) or self.solos[cid]
        return self.profiles[entity["profile"]]

    def side(self, cid: str) -> str | None:
        if cid in self.stands:
            return self.units[self.stands[cid]["unit"]]["side"]
        if cid in self.solos:
            return self.solos[cid]["side"]
        if cid in self.units:
            return self.units[cid]["side"]
        return None

    def unit_of(self, sid: str) -> dict:
        return self.units[self.stands[sid]["unit"]]

    def in_play(self, sid: str) -> bool:
        return sid in self.stands and self.stands[sid]["status"] in IN_PLAY

    def solo_on_grid(self, hid: str) -> bool:
        return self.solos[hid]["position"] is not None

    def solo_can_act(self, hid: str) -> bool:
        h = self.solos[hid]
        return h["condition"] == "active" and (h["position"] is not None or h["attached_to"] is not None)

    def side_of_box(self, cid: str) -> int:
        return FOOTPRINT[self.profile(cid).size]

    def box(self, cid: str) -> Box | None:
        """The footprint of a creature (an attached solo: its stand's), or an objective square."""
        if cid in self.squares:
            return Box(self.squares[cid]["at"], 1)
        if cid in self.stands:
            s = self.stands[cid]
            return Box(s["position"], self.side_of_box(cid)) if s["position"] is not None else None
        h = self.solos[cid]
        if h["position"] is not None:
            return Box(h["position"], self.side_of_box(cid))
        if h["attached_to"] is not None:
            return self.box(h["attached_to"])
        return None

    def occupants(self) -> Iterator[tuple[str, Box]]:
        """Stands in play and solos with a position: what fills squares on the grid."""
        for sid, s in self.stands.items():
            if s["status"] in IN_PLAY and s["position"] is not None:
                yield sid, Box(s["position"], self.side_of_box(sid))
        for hid, h in self.solos.items():
            if h["position"] is not None:
                yield hid, Box(h["position"], self.side_of_box(hid))

    def stands_in_play(self, side: str | None = None) -> list[str]:
        return [sid for sid, s in self.stands.items()
                if s["status"] in IN_PLAY and (side is None or self.side(sid) == side)]

    def enemy_of(self, a: str, b: str) -> bool:
        sa, sb = self.side(a), self.side(b)
        return sa is not None and sb is not None and sa != sb

    def adjacent_enemy_stand(self, cid: str) -> bool:
        """A creature next to an enemy stand in play (blocks a stand's movement, S5.7.2)."""
        box, side = self.box(cid), self.side(cid)
        if box is None or side is None:
            return False
        units = self.units
        return any(dist(box, Box(s["position"], self.side_of_box(t))) == 1 for t, s in self.stands.items()
                   if s["status"] in IN_PLAY and units[s["unit"]]["side"] != side)

    def adjacent_enemy_fighter(self, cid: str) -> bool:
        """S5.9.2 ``adjacent_enemy``: an enemy stand in play or an enemy solo that can act (H16)."""
        if self.adjacent_enemy_stand(cid):
            return True
        box = self.box(cid)
        return box is not None and any(
            self.solo_can_act(h) and self.solos[h]["position"] is not None and self.enemy_of(cid, h)
            and dist(box, self.box(h)) == 1 for h in self.solos)

    # -- derived values ------------------------------------------------------------
    def config(self, sid: str) -> str | None:
        return self.unit_of(sid)["configuration"]

    def half_speed(self, cid: str) -> bool:
        return cid in self.stands and self.unit_of(cid)["type"] == "regiment" and self.config(cid) in HALF_SPEED_CONFIGS

    def allowance(self, cid: str, dashing: bool) -> int:
        return allowance(self.profile(cid), dashing, self.half_speed(cid))

    def forest_cover(self, cid: str) -> bool:
        box = self.box(cid)
        return cid in self.stands and box is not None and self.terrain.any_terrain(box, "forest")

    def elevation(self, cid: str) -> int:
        box = self.box(cid)
        return self.terrain.box_elevation(box) if box is not None else 0

    def ac_effective(self, cid: str) -> int:
        """S4.9."""
        if cid in self.squares:
            return self.squares[cid]["ac"]
        ac = self.profile(cid).ac
        if cid in self.stands and self.unit_of(cid)["type"] == "regiment":
            ac += CONFIG_AC_BONUS[self.config(cid)]
        return ac + (2 if self.forest_cover(cid) else 0)

    def can_swim(self, cid: str) -> bool:
        return swim_squares(self.profile(cid)) > 0

    def size_rule(self, hid: str, sid: str) -> bool:
        """Join size rule (S5.8.6)."""
        return SIZE_RANK[self.profile(hid).size] <= SIZE_RANK[self.profile(sid).size] + 1

    def prepared(self, unit_id: str) -> bool:
        return self.units[unit_id]["prepare_until_round"] is not None

    def motivated(self, unit_id: str) -> bool:
        return self.units[unit_id]["motivate_until_round"] is not None

    def isolated(self, cid: str) -> bool:
        if cid in self.stands:
            return self.stands[cid]["isolated"]
        if cid in self.solos:
            return self.solos[cid]["isolated"]
        return False

    def wis_mod(self, cid: str) -> int:
        return mod(self.profile(cid).abilities.wis)

    def refresh_roads(self) -> None:
        self.terrain.destroyed = {
            tuple(o["at"]) for o in self.squares.values()
            if o["hp"] == 0 and self.terrain.terrain(tuple(o["at"])) == "road"
        }

    # -- isolation (S4.13) -------------------------------------------------------
    def evaluate_isolation(self) -> None:
        boxes = {sid: self.box(sid) for sid in self.stands_in_play()}
        for sid, s in self.stands.items():
            if sid not in boxes:
                s["isolated"] = False
                continue
            unit = self.unit_of(sid)
            reach = 1 if unit["type"] == "regiment" else 2
            others = [t for t in unit["stands"] if t != sid and t in boxes]
            s["isolated"] = not any(dist(boxes[sid], boxes[t]) <= reach for t in others)
        # the squares each side's stands cover: a solo looks only at the squares within 2 of its own
        covered: dict[str, set] = {}
        for t, box in boxes.items():
            covered.setdefault(self.units[self.stands[t]["unit"]]["side"], set()).update(box.squares())
        for hid, h in self.solos.items():
            if h["position"] is None:
                h["isolated"] = False
                continue
            mine = Box(h["position"], self.side_of_box(hid))
            near = ((x, y) for x in range(mine.x - 2, mine.x1 + 3) for y in range(mine.y - 2, mine.y1 + 3)
                    if dist(mine, Box((x, y))) <= 2)
            h["isolated"] = covered.get(h["side"], set()).isdisjoint(near)
        for cid, flag in self.overrides.items():
            entity = self.stands.get(cid) or self.solos.get(cid)
            if entity is not None:
                entity["isolated"] = flag

    # -- damage (S5.11) --------------------------------------------------------------
    def damage(self, target: str, amount: int, critical: bool = False) -> tuple[list[dict], int]:
        """Apply final damage; returns (``applied`` entries, wasted overflow)."""
        applied: list[dict] = []
        wasted = 0
        if target in self.stands:
            wasted = self._damage_stand(target, amount, applied, chain={target})
        elif target in self.solos:
            self._damage_solo(target, amount, critical, applied)
        else:
            self._damage_objective(target, amount, applied)
        return applied, wasted

    def _damage_stand(self, sid: str, amount: int, applied: list[dict], chain: set[str]) -> int:
        if amount == 0:
            return 0
        s = self.stands[sid]
        before = s["hp"]
        s["hp"] = max(0, before - amount)
        s["status"] = "casualty" if s["hp"] == 0 else s["status"]
        applied.append({"id": sid, "kind": "stand", "hp_before": before, "hp_after": s["hp"],
                        "damage": before - s["hp"], "status": s["status"]})
        self.event("damage", target=sid, amount=amount, hp_before=before, hp_after=s["hp"], status=s["status"])
        self.log.add("S5.11.1", "damage.stand", "{stand} takes {amount} damage: {before} -> {after} hp.",
                     stand=sid, amount=amount, before=before, after=s["hp"])
        if s["hp"] > 0:
            return 0
        if before > 0:
            self.log.add("S5.11.1", "damage.casualty", "{stand} is a casualty; it stays until the end of the round.",
                         stand=sid)
        excess = amount - before
        if excess <= 0:
            return 0
        box = self.box(sid)
        for t in self.unit_of(sid)["stands"]:
            ts = self.stands[t]
            if (t not in chain and ts["status"] == "active" and ts["profile"] == s["profile"]
                    and ts["position"] is not None and dist(box, self.box(t)) == 1):
                self.event("overflow", **{"from": sid, "to": t, "amount": excess})
                self.log.add("S5.11.2", "damage.overflow", "{excess} excess damage flows from {stand} to {to}.",
                             excess=excess, stand=sid, to=t)
                return self._damage_stand(t, excess, applied, chain | {t})
        self.event("overflow_wasted", **{"from": sid, "amount": excess})
        self.log.add("S5.11.2", "damage.wasted", "{excess} excess damage from {stand} is lost.", excess=excess, stand=sid)
        return excess

    def _damage_solo(self, hid: str, amount: int, critical: bool, applied: list[dict]) -> None:
        if amount == 0:
            return
        h = self.solos[hid]
        p = self.profile(hid)
        before = h["hp"]
        if h["condition"] == "active":
            if amount < h["hp"]:
                h["hp"] -= amount
                self.log.add("S5.11.3", "damage.solo", "{solo} takes {amount} damage: {before} -> {after} hp.",
                             solo=hid, amount=amount, before=before, after=h["hp"])
            else:
                remaining = amount - h["hp"]
                h["hp"] = 0
                if not h["uses_death_saves"] or remaining >= p.hp_max:
                    self.kill(hid)
                else:
                    h["condition"] = "dying"
                    h["death_save_successes"] = h["death_save_failures"] = 0
                    self.log.add("S5.11.3", "damage.dying", "{solo} drops to 0 hp and is dying.", solo=hid)
                self.end_command(hid, "cannot_act")
        elif h["condition"] in ("dying", "stable"):
            if amount >= p.hp_max:
                self.kill(hid)
            else:
                h["death_save_failures"] += 2 if critical else 1
                h["condition"] = "dying"
                if h["death_save_failures"] >= 3:
                    self.kill(hid)
                else:
                    self.log.add("S5.11.3", "damage.failure", "{solo} is hit at 0 hp: {failures} death-save failures.",
                                 solo=hid, failures=h["death_save_failures"])
        applied.append({"id": hid, "kind": "solo", "hp_before": before, "hp_after": h["hp"],
                        "damage": before - h["hp"], "status": h["condition"]})
        self.event("damage", target=hid, amount=amount, hp_before=before, hp_after=h["hp"], status=h["condition"])

    def kill(self, hid: str) -> None:
        """A dead solo leaves the grid (S5.11.3) at 0 hp (the GM's ``set_condition`` may kill a solo that had
        some); its death-save counters go back to 0 so that the state keeps them within 0..2 (S3.5)."""
        h = self.solos[hid]
        h.update(condition="dead", hp=0, position=None, attached_to=None, isolated=False, hidden=False,
                 death_save_successes=0, death_save_failures=0)
        self.log.add("S5.11.3", "damage.dead", "{solo} is dead.", solo=hid)

    def _damage_objective(self, oid: str, amount: int, applied: list[dict]) -> None:
        o = self.squares[oid]
        before = o["hp"]
        o["hp"] = max(0, before - amount)
        if before > 0 and o["hp"] == 0:
            o["destroyed_round"] = self.round
            self.refresh_roads()
        applied.append({"id": oid, "kind": "objective", "hp_before": before, "hp_after": o["hp"],
                        "damage": before - o["hp"], "status": "destroyed" if o["hp"] == 0 else "intact"})
        if amount:
            self.event("damage", target=oid, amount=amount, hp_before=before, hp_after=o["hp"],
                       status="destroyed" if o["hp"] == 0 else "intact")
        self.log.add("S5.11.4", "damage.objective", "Objective square {square}: {before} -> {after} hp.",
                     square=oid, before=before, after=o["hp"])

    def end_command(self, hid: str, reason: str) -> None:
        """S3.6 / H12: the role ends when the solo detaches, falls or cannot act."""
        for uid, u in self.units.items():
            if u["commander"] == hid:
                u["commander"] = None
                self.event("commander_change", unit=uid, commander=None, reason=reason)
                self.log.add("S3.6", "command.lost", "{solo} stops commanding {unit} ({reason}).",
                             solo=hid, unit=uid, reason=reason)

    def flee(self, cid: str) -> None:
        """S7.2 / H25: off the grid, at once; attached solos leave with their stand."""
        if cid in self.stands:
            self.stands[cid].update(status="fled", position=None, isolated=False, hidden=False)
            for hid in sorted(self.solos):
                if self.solos[hid]["attached_to"] == cid:
                    self.flee(hid)
        else:
            self.solos[cid].update(condition="fled", position=None, attached_to=None, isolated=False, hidden=False)
            self.end_command(cid, "fled")
        self.event("fled", actor=cid)
        self.log.add("S7.2", "move.fled", "{actor} leaves the battlefield.", actor=cid)


# -- state consistency (S3.10) -------------------------------------------------------

PathFn = Callable[[str, str, str], str]


def state_paths(prefix: str) -> PathFn:
    tables = {"stand": "stands", "solo": "solos", "unit": "units", "objective_square": "objective_squares",
              "objective": "objectives", "side": "sides", "cell": "map.cells", "initiative": "initiative_order"}

    def where(kind: str, key: str, field: str) -> str:
        base = f"{prefix}.{tables[kind]}"
        base = f"{base}[{key}]" if kind in ("cell", "initiative") else f"{base}.{key}"
        return f"{base}.{field}" if field else base

    return where


def _bad(path: str, problem: str) -> InvalidInput:
    return InvalidInput(f"Inconsistent battle state at {path}: {problem}.", {path: problem})


def check_state(b: Battle, where: PathFn) -> None:
    """Everything S3.10 requires of a state (and new-battle of a setup)."""
    st = b.st
    names: dict[str, str] = {}
    for kind, table in (("side", "sides"), ("unit", "units"), ("stand", "stands"), ("solo", "solos"),
                        ("objective_square", "objective_squares"), ("objective", "objectives")):
        for key in st[table]:
            if key in names:
                raise _bad(where(kind, key, ""), f"id already used by a {names[key]}")
            names[key] = kind
    width, height = st["map"]["width"], st["map"]["height"]
    seen_cells: set[tuple] = set()
    for i, c in enumerate(st["map"]["cells"]):
        at = tuple(c["at"])
        if not b.terrain.on_grid(at):
            raise _bad(where("cell", str(i), "at"), "outside the grid")
        if at in seen_cells:
            raise _bad(where("cell", str(i), "at"), "square listed twice")
        seen_cells.add(at)
        if c["difficult"] and c["terrain"] != "open":
            raise _bad(where("cell", str(i), "difficult"), "only open terrain can be marked difficult")
        if c["elevation"] and c["terrain"] not in MAY_BE_ELEVATED:
            raise _bad(where("cell", str(i), "elevation"), "water cannot be elevated")
    owner: dict[str, str] = {}
    for uid, u in st["units"].items():
        if u["side"] not in st["sides"]:
            raise _bad(where("unit", uid, "side"), "unknown side")
        if (u["type"] == "regiment") != (u["configuration"] is not None):
            raise _bad(where("unit", uid, "configuration"),
                       "a regiment needs a configuration, skirmishers have none")
        for i, sid in enumerate(u["stands"]):
            if sid not in st["stands"] or sid in owner:
                raise _bad(where("unit", uid, f"stands[{i}]"), "unknown stand or stand listed twice")
            owner[sid] = uid
    for sid, s in st["stands"].items():
        if s["unit"] not in st["units"] or owner.get(sid) != s["unit"]:
            raise _bad(where("stand", sid, "unit"), "the stand is not listed by this unit")
        if s["profile"] not in b.profiles:
            raise _bad(where("stand", sid, "profile"), "unknown profile")
        p = b.profiles[s["profile"]]
        if not STAND_ALLOWED[p.size]:
            raise _bad(where("stand", sid, "profile"), "a Gargantuan creature cannot form a stand")
        if s["hp"] > p.hp_max:
            raise _bad(where("stand", sid, "hp"), "above the profile's hp_max")
        if (s["status"] in IN_PLAY) != (s["position"] is not None):
            raise _bad(where("stand", sid, "position"), "a stand in play has a position, others have none")
        if s["status"] == "active" and s["hp"] == 0 or s["status"] == "casualty" and s["hp"] > 0:
            raise _bad(where("stand", sid, "hp"), "an active stand has hp above 0, a casualty has 0")
        _check_uses(p, s["spell_uses"], where("stand", sid, "spell_uses"))
    for uid, u in st["units"].items():
        for field in ("starting_stands",):
            if u[field] < len(u["stands"]):
                raise _bad(where("unit", uid, field), "fewer than the stands listed")
    commanders: dict[str, str] = {}
    for hid, h in st["solos"].items():
        if h["side"] not in st["sides"]:
            raise _bad(where("solo", hid, "side"), "unknown side")
        if h["profile"] not in b.profiles:
            raise _bad(where("solo", hid, "profile"), "unknown profile")
        p = b.profiles[h["profile"]]
        if h["hp"] > p.hp_max:
            raise _bad(where("solo", hid, "hp"), "above the profile's hp_max")
        if h["position"] is not None and h["attached_to"] is not None:
            raise _bad(where("solo", hid, "attached_to"), "a solo is either on the grid or attached")
        if h["condition"] in ("dead", "fled") and (h["position"] is not None or h["attached_to"] is not None):
            raise _bad(where("solo", hid, "condition"), "a dead or fled solo is off the grid")
        if h["condition"] != "fled" and (h["condition"] == "active") != (h["hp"] > 0):  # a fled solo keeps its hp (S7.2)
            raise _bad(where("solo", hid, "hp"), "an active solo has hp above 0, others have 0")
        if h["attached_to"] is not None:
            t = h["attached_to"]
            if t not in st["stands"] or not b.in_play(t) or b.side(t) != h["side"]:
                raise _bad(where("solo", hid, "attached_to"), "must be a stand in play of the same side")
        _check_uses(p, h["spell_uses"], where("solo", hid, "spell_uses"))
    for uid, u in st["units"].items():
        c = u["commander"]
        if c is None:
            continue
        if c not in st["solos"] or c in commanders:
            raise _bad(where("unit", uid, "commander"), "unknown solo, or a solo commanding two units")
        commanders[c] = uid
        h = st["solos"][c]
        if h["attached_to"] not in u["stands"] or not b.solo_can_act(c):
            raise _bad(where("unit", uid, "commander"), "the commander must be attached to a stand of the unit and able to act")
    placed: list[tuple[str, str, Box]] = [
        ("stand", sid, box) for sid, box in b.occupants() if sid in st["stands"]
    ] + [("solo", hid, box) for hid, box in b.occupants() if hid in st["solos"]]
    taken: dict[tuple[int, int], str] = {}
    for kind, cid, box in placed:
        if not box.on_grid(width, height):
            raise _bad(where(kind, cid, "position"), "the footprint leaves the grid")
        if b.terrain.deep_water_in(box) and not b.can_swim(cid):
            raise _bad(where(kind, cid, "position"), "in deep water without a swim speed")
        for sq in box.squares():
            if sq in taken:
                raise _bad(where(kind, cid, "position"), f"overlaps {taken[sq]}")
            taken[sq] = cid
    cells: dict[tuple, str] = {}
    for oid, o in st["objective_squares"].items():
        at = tuple(o["at"])
        if not b.terrain.on_grid(at) or at in cells:
            raise _bad(where("objective_square", oid, "at"), "outside the grid or on another objective square")
        cells[at] = oid
        if o["hp"] > o["hp_max"]:
            raise _bad(where("objective_square", oid, "hp"), "above hp_max")
    for oid, o in st["objectives"].items():
        if o["side"] not in st["sides"]:
            raise _bad(where("objective", oid, "side"), "unknown side")
        for i, q in enumerate(o.get("squares", [])):
            if q not in st["objective_squares"]:
                raise _bad(where("objective", oid, f"squares[{i}]"), "unknown objective square")
        if o["type"] == "protection":
            for i, q in enumerate(o["squares"]):
                if not any(d["type"] == "destruction" and d["side"] != o["side"] and q in d["squares"]
                           for d in st["objectives"].values()):
                    raise _bad(where("objective", oid, f"squares[{i}]"),
                               "a protected square must be a destruction target of the other side")
    for i, e in enumerate(st.get("initiative_order", [])):
        table = st["units"] if e["kind"] == "unit" else st["solos"]
        if e["id"] not in table:
            raise _bad(where("initiative", str(i), "id"), "unknown unit or solo")


def _check_uses(p: Profile, uses: dict[str, int], path: str) -> None:
    for name, left in uses.items():
        spell = p.spell(name)
        if spell is None or spell.uses is None or left > spell.uses:
            raise _bad(f"{path}.{name}", "not a limited spell of the profile, or above its uses")
