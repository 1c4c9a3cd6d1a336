"""A battle being worked on: the normalised state plus the round's context.

:class:`Battle` owns a private copy of the state (inputs are never mutated)
and everything a round needs to compute effective skills (S4.13) and damage
(S4.15): this round's allocations, hero bonuses, GM modifiers, counters.
Reading a state rebuilds every derived value (S3.7); :meth:`Battle.export`
writes the normalised state back, derived fields included, keys sorted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.dice import Dice
from rules.errors import InvalidInput
from rules.explain import Log
from rules.jdrwiki import sheets, tables, terrain
from rules.jdrwiki.standing import stamp


def sorted_keys(value: Any) -> Any:
    """S3.7: every state the engine outputs has its object keys sorted."""
    if isinstance(value, dict):
        return {k: sorted_keys(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [sorted_keys(v) for v in value]
    return value


def plain_copy(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, scalars), several times faster than ``copy.deepcopy``
    on a state at the size caps."""
    if isinstance(value, dict):
        return {k: plain_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain_copy(v) for v in value]
    return value


def dump_state(model) -> dict:
    """A validated :class:`~rules.jdrwiki.entities.State` as plain data, absent effect fields dropped."""
    state = model.model_dump(by_alias=True)
    for corps in state["corps"].values():
        corps["effects"] = [{k: v for k, v in e.items() if v is not None} for e in corps["effects"]]
    return state


@dataclass
class RoundContext:
    """What the round-start application (S5.7) decided, for the rest of the round."""

    declarations: dict = field(default_factory=dict)
    allocation: dict[str, dict] = field(default_factory=dict)
    hero_bonus: dict[str, dict[str, int]] = field(default_factory=dict)
    manual: dict[str, dict[str, int]] = field(default_factory=dict)
    interventions: dict[str, dict] = field(default_factory=dict)  # hero id -> S4.10 result (+ corps)
    transfers: dict[str, str] = field(default_factory=dict)  # hero id -> destination corps
    active_defence: set[tuple[str, str]] = field(default_factory=set)  # (defender, attacker)
    heroic: set[tuple[str, int]] = field(default_factory=set)  # (corps, slot) succeeding with a 20
    save_from_fatal: dict[str, str] = field(default_factory=dict)  # army -> pool
    save_used: set[str] = field(default_factory=set)
    opportune_used: set[str] = field(default_factory=set)
    commander_down: set[str] = field(default_factory=set)  # armies whose commander-hero fell
    defaults_applied: list[str] = field(default_factory=list)  # participants given their default orders


class Battle:
    def __init__(self, state: dict, dice: Dice, log: Log, path: str = "state."):
        self.state = plain_copy(state)
        self.dice = dice
        self.log = log
        self.path = path
        self.events: list[dict] = []
        self.outcomes: dict[str, dict] = {}
        self.ctx = RoundContext()
        self._distances: dict[str, dict[str, int]] = {}
        self.state["map"] = terrain.normalise_map(self.state["map"]["zones"], f"{path}map.")
        self._check_references()
        self.sheets: dict[str, dict] = {}
        for army_id, army in self.state["armies"].items():
            self.refresh_sheet(army_id, f"{path}armies.{army_id}.")
        self.hero_info = {h: sheets.validate_hero_bonuses(hero, f"{path}heroes.{h}.")
                          for h, hero in self.state["heroes"].items()}
        participants = sum(s["units_total"] for s in self.sheets.values())
        minutes = tables.round_minutes(participants)
        if minutes is not None:
            self.state["clock"]["round_minutes"] = minutes

    # ------------------------------------------------------------ reading
    def _check_references(self) -> None:
        st, p = self.state, self.path
        for army_id, army in st["armies"].items():
            if army["id"] != army_id:
                raise InvalidInput.field(f"{p}armies.{army_id}.id", "must equal the army's key")
        for corps_id, corps in st["corps"].items():
            if corps["id"] != corps_id:
                raise InvalidInput.field(f"{p}corps.{corps_id}.id", "must equal the corps' key")
            if corps["army_id"] not in st["armies"]:
                raise InvalidInput.field(f"{p}corps.{corps_id}.army_id", "unknown army")
            if corps["zone"] not in st["map"]["zones"]:
                raise InvalidInput.field(f"{p}corps.{corps_id}.zone", "unknown zone")
            partner = corps["total_melee_with"]
            if partner is not None and partner not in st["corps"]:
                raise InvalidInput.field(f"{p}corps.{corps_id}.total_melee_with", "unknown corps")
        for hero_id, hero in st["heroes"].items():
            if hero["id"] != hero_id:
                raise InvalidInput.field(f"{p}heroes.{hero_id}.id", "must equal the hero's key")
            if hero["army_id"] not in st["armies"]:
                raise InvalidInput.field(f"{p}heroes.{hero_id}.army_id", "unknown army")
            corps = st["corps"].get(hero["corps_id"])
            if corps is None or corps["army_id"] != hero["army_id"]:
                raise InvalidInput.field(f"{p}heroes.{hero_id}.corps_id", "must be a corps of the hero's army")

    def refresh_sheet(self, army_id: str, path: str) -> None:
        army = self.state["armies"][army_id]
        sheets.validate_army(army, path)
        self.sheets[army_id] = sheets.army_sheet(army)
        if army["army_heroism_points"] is None:
            army["army_heroism_points"] = self.sheets[army_id]["army_heroism_points"]

    def export(self) -> dict:
        """S3.7: the normalised state, derived sheets and hero classes included."""
        st = plain_copy(self.state)
        for army_id, army in st["armies"].items():
            army["sheet"] = plain_copy(self.sheets[army_id])
        for hero_id, hero in st["heroes"].items():
            info = self.hero_info[hero_id]
            hero.update({k: info[k] for k in ("class", "class_level", "points", "cooldown")})
        return stamp(sorted_keys(st))

    # ------------------------------------------------------------ lookups
    @property
    def round(self) -> int:
        return self.state["round"]

    def corps(self, cid: str) -> dict:
        return self.state["corps"][cid]

    def army_of(self, cid: str) -> dict:
        return self.state["armies"][self.corps(cid)["army_id"]]

    def sheet_of(self, cid: str) -> dict:
        return self.sheets[self.corps(cid)["army_id"]]

    def side_of(self, cid: str) -> str:
        return self.army_of(cid)["side"]

    def talents_of(self, cid: str) -> list[str]:
        return self.army_of(cid)["talents"]

    def active(self, cid: str) -> bool:
        return self.corps(cid)["status"] == "active"

    def active_corps(self) -> list[str]:
        return [c for c, corps in sorted(self.state["corps"].items()) if corps["status"] == "active"]

    def enemies(self, cid: str) -> list[str]:
        side = self.side_of(cid)
        return [c for c in self.active_corps() if self.side_of(c) != side]

    def zone_terrain(self, cid: str) -> dict:
        return self.state["map"]["zones"][self.corps(cid)["zone"]]["terrain"]

    def occupants(self, zone: str) -> list[str]:
        return [c for c, corps in sorted(self.state["corps"].items())
                if corps["status"] == "active" and corps["zone"] == zone]

    def distance(self, a: str, b: str) -> float:
        """S4.18 steps between two corps; each zone's breadth-first search is done once (zone adjacency
        never changes during a battle: terrain modification changes levels only, S7.3)."""
        start = self.corps(a)["zone"]
        if start not in self._distances:
            self._distances[start] = terrain.distances_from(self.state["map"], start)
        return self._distances[start].get(self.corps(b)["zone"], float("inf"))

    # ------------------------------------------------------------ S4.13 effective skill
    def allocation(self, cid: str) -> dict:
        return self.ctx.allocation.get(cid) or {k: 0 for k in tables.ATTENTION + tables.SPENT}

    def manual(self, cid: str, target: str) -> int:
        return self.ctx.manual.get(cid, {}).get(target, 0)

    def hero_bonus(self, cid: str, target: str) -> int:
        return self.ctx.hero_bonus.get(cid, {}).get(target, 0)

    def confusion(self, cid: str) -> int:
        army = self.army_of(cid)
        return army["confusion_penalty"] if army["confusion_round"] == self.round else 0

    def determination_malus(self, cid: str) -> int:
        """S7.7.7: −1 on defences when the other side has *Détermination* and this army has not."""
        army = self.army_of(cid)
        if "determination" in army["talents"]:
            return 0
        other = any("determination" in a["talents"] for a in self.state["armies"].values() if a["side"] != army["side"])
        return 1 if other else 0

    def eff(self, cid: str, skill: str, opponent: str | None = None, actor: bool = False) -> int:
        corps, army = self.corps(cid), self.army_of(cid)
        own = self.zone_terrain(cid)
        value = self.sheet_of(cid)["skills"][skill] + terrain.occupant(own, skill)
        if opponent is not None:
            other = self.zone_terrain(opponent)
            value += terrain.relation(own, other, skill)
            if actor:
                value += terrain.cover_attacked(other, skill)
        allocation = self.allocation(cid)
        value += sum(allocation[c] for c in tables.ATTENTION if skill in tables.ADVANTAGE_CRITERIA[c]["skills"])
        value += self.hero_bonus(cid, skill)
        value += sum(e["value"] for e in corps["effects"] if e["kind"] == "skill" and skill in e["skills"])
        if skill in tables.DEFENSIVE_SKILLS:
            value -= (1 if army["ruthless"] else 0) + self.determination_malus(cid)
        value -= self.confusion(cid)
        return value + self.manual(cid, skill) + self.manual(cid, "all_skills")

    def eff_init(self, cid: str) -> int:
        """S4.16: allocation and heroes do not count (they come after the roll)."""
        corps = self.corps(cid)
        return (self.sheet_of(cid)["skills"]["initiative"] + terrain.occupant(self.zone_terrain(cid), "initiative")
                + sum(e["value"] for e in corps["effects"] if e["kind"] == "skill" and "initiative" in e["skills"])
                + self.manual(cid, "initiative") + self.manual(cid, "all_skills") - self.confusion(cid))

    # ------------------------------------------------------------ orders
    def resolution_order(self) -> list[str]:
        """S5.4.4: pool descending, then effective initiative descending, then id."""
        return sorted(self.active_corps(), key=lambda c: (-self.corps(c)["initiative"], -self.eff_init(c), c))

    # ------------------------------------------------------------ changes
    def event(self, type_: str, visible_to: str = "all", **fields: Any) -> None:
        self.events.append({"seq": len(self.events) + 1, "type": type_, "visible_to": visible_to, **fields})

    def change_advantage(self, cid: str, delta: int, rule: str, reason: str, deltas: dict | None = None) -> None:
        if delta == 0:
            return
        corps = self.corps(cid)
        corps["advantage"] += delta
        if deltas is not None:
            deltas[cid] = deltas.get(cid, 0) + delta
        self.log.add(rule, "advantage.change", "{corps} {delta:+d} advantage ({reason}): now {advantage}.",
                     corps=cid, delta=delta, reason=reason, advantage=corps["advantage"])

    def add_effect(self, cid: str, effect: dict, rule: str) -> None:
        self.corps(cid)["effects"].append(effect)
        self.log.add(rule, "effect.added", "{corps} gets a {kind} effect for {rounds} round(s).",
                     corps=cid, kind=effect["kind"], rounds=effect["rounds_left"])

    def end_melee(self, cid: str) -> None:
        partner = self.corps(cid)["total_melee_with"]
        self.corps(cid)["total_melee_with"] = None
        if partner is not None and self.corps(partner)["total_melee_with"] == cid:
            self.corps(partner)["total_melee_with"] = None

    def heroism_pool(self, army_id: str, pool: str) -> int:
        army = self.state["armies"][army_id]
        return army["commander"]["heroism_points"] if pool == "commander" else army["army_heroism_points"]

    def spend_heroism(self, army_id: str, pool: str) -> None:
        army = self.state["armies"][army_id]
        if pool == "commander":
            army["commander"]["heroism_points"] -= 1
        else:
            army["army_heroism_points"] -= 1

    def hero_death(self, hero_id: str, cause: str) -> None:
        """S7.4.6: *Soutien du héros* may avoid it once (not a sacrifice nor a destroyed corps)."""
        hero = self.state["heroes"][hero_id]
        if hero["status"] != "active":
            return
        army = self.state["armies"][hero["army_id"]]
        if cause == "critical" and "hero_support" in army["talents"] and not hero["death_avoided"]:
            hero["death_avoided"] = True
            self.log.add("S7.7.13", "hero.death", "Hero support saves {hero} from a hero death.", hero=hero_id,
                         fate="avoided", cause=cause)
            self.event("hero_death", hero=hero_id, avoided=True)
            return
        hero["status"] = "out"
        pool = "commander" if hero["is_commander"] else None
        points = army["commander"]["heroism_points"] if pool else hero["heroism_points"]
        if points >= 1:
            if pool:
                army["commander"]["heroism_points"] -= 1
            else:
                hero["heroism_points"] -= 1
            hero["fate"] = "wounded"
        else:
            hero["fate"] = "dead"
        if hero["is_commander"]:
            self.ctx.commander_down.add(hero["army_id"])
        self.log.add("S7.4.6", "hero.death", "{hero} suffers a hero death ({cause}): {fate}.",
                     hero=hero_id, cause=cause, fate=hero["fate"])
        self.event("hero_death", hero=hero_id, cause=cause, avoided=False)

    def destroy(self, cid: str) -> None:
        """S5.13 step 4: the corps leaves the battle; its heroes fall with it (H38)."""
        corps = self.corps(cid)
        corps["status"] = "destroyed"
        self.end_melee(cid)
        self.log.add("S5.13", "corps.destroyed", "{corps} is destroyed.", corps=cid)
        self.event("corps_destroyed", corps=cid)
        for hero_id, hero in sorted(self.state["heroes"].items()):
            if hero["corps_id"] == cid:
                self.hero_death(hero_id, "corps destroyed")
        self.update_army_status(corps["army_id"])

    def update_army_status(self, army_id: str) -> None:
        own = [c for c in self.state["corps"].values() if c["army_id"] == army_id and c["status"] != "merged"]
        army = self.state["armies"][army_id]
        if any(c["status"] == "active" for c in own):
            army["status"] = "active"
        elif all(c["status"] == "destroyed" for c in own):
            army["status"] = "annihilated"
        else:
            army["status"] = "fled"
