"""D&D 5e: two sides (``A`` and ``B``) of regiments, skirmishers and solos on a square map (spec S3, S5.1, S9).

Setup: the GM picks one of the campaign's square maps, the edge along which
each side deploys, who attacks the map's objective squares and the victory
points of attrition.  Every stand and solo is then placed in its side's band
(front line first, a unit's stands side by side, never on a square the
engine's ``new-battle`` would refuse for lack of room or of a swim speed);
the GM may move them before round 1 (the engine's ``place-piece``).

Engine ids are made from the rosters' names with the side as prefix (two
armies may both have a ``u1``), so that a value shown in a form reads as a
name (``B-hobgoblin_line-2`` → "Hobgoblin line 2").  The roster ids ride along
in the setup input (the engine ignores unknown fields): the aftermath goes
back to the right stands.  Declarations are stored as the forms give them
and merged into exactly the structure of S9.13.2 (stand orders in a list).
"""

from __future__ import annotations

import copy
import re

from django import forms
from django.core.exceptions import ValidationError
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from masscombat.battles.adapters import Adapter, ParticipantSpec, RosterUpdate

STAND_ITEM = re.compile(r"^stands\[(\d+)\]$")
ENGINE_ID = re.compile(r"^[AB]-(?P<name>[A-Za-z0-9_]+?)(?:-(?P<n>\d+))?$")
EDGES = (("north", gettext_lazy("North edge")), ("south", gettext_lazy("South edge")),
         ("west", gettext_lazy("West edge")), ("east", gettext_lazy("East edge")))
# Depth of a deployment band in squares: the front line is filled first, then the lines behind it;
# a band too narrow for its army grows towards the middle of the map.
BAND_DEPTH = 3
# Options the generic declaration form cannot build: written as JSON in the GM's forms (an example
# each, from S9.13.2's field names), left out of a player's.
UNBUILT = ("solo_fallbacks", "adjustments")


def _unbuilt_example(name: str):
    """The JSON example of an ``UNBUILT`` option: the rules' field names, the ids to write in the reader's words."""
    solo, stand = "<%s>" % _("id of the solo"), "<%s>" % _("id of the stand")
    return {"solo_fallbacks": {solo: {"reattach_to": stand}},
            "adjustments": [{"type": "set_hp", "id": stand, "hp": 4}, {"type": "remove", "id": solo}]}.get(name)


def _square_maps(campaign):
    from masscombat.maps.models import BattleMap

    return BattleMap.objects.filter(campaign=campaign, kind="square").order_by("name", "pk")


def _username(user) -> str | None:
    return user.get_username()[:100] if user is not None else None


class _Ids:
    """Engine ids from names: ``A-orc_band``, unique in the battle's one namespace (S3.1)."""

    def __init__(self):
        self.taken: set[str] = set()

    def make(self, side: str, name: str, fallback: str, number: int | None = None) -> str:
        stem = (slugify(name).replace("-", "_") or slugify(fallback).replace("-", "_") or "x")[:28].strip("_") or "x"
        suffix = f"-{number}" if number is not None else ""
        found, extra = f"{side}-{stem}{suffix}", 2
        while found in self.taken:
            found, extra = f"{side}-{stem}_{extra}{suffix}", extra + 1
        self.taken.add(found)
        return found


class _Bands:
    """Free squares along each side's edge, filled in order (footprints never overlap)."""

    def __init__(self, grid: dict):
        self.width, self.height = grid["width"], grid["height"]
        self.deep = {tuple(cell["at"]) for cell in grid.get("cells", []) if cell.get("terrain") == "deep_water"}
        self.used: set[tuple[int, int]] = set()

    def _anchors(self, edge: str, size: int):
        across = self.height if edge in ("north", "south") else self.width
        along = self.width if edge in ("north", "south") else self.height
        lines = [*range(BAND_DEPTH - 1, -1, -1), *range(BAND_DEPTH, max(across // 2, BAND_DEPTH))]
        for line in lines:
            for step in range(0, along - size + 1):
                if edge == "north":
                    yield step, line
                elif edge == "south":
                    yield step, self.height - line - size
                elif edge == "west":
                    yield line, step
                else:
                    yield self.width - line - size, step

    def place(self, edge: str, size: int, swims: bool) -> list[int] | None:
        for x, y in self._anchors(edge, size):
            squares = {(x + i, y + j) for i in range(size) for j in range(size)}
            if x < 0 or y < 0 or x + size > self.width or y + size > self.height:
                continue
            if squares & self.used or (not swims and squares & self.deep):
                continue
            self.used |= squares
            return [x, y]
        return None


class DnD5e(Adapter):
    slug = "dnd5e"
    sides = ("A", "B")
    uses_map = True
    map_kind = "square"
    places = True
    # Enemy hit points are a coarse indicator for players (S11.3): each side charts its own.
    strength_label = gettext_lazy("Hit points in play (stands and solos)")
    option_labels = {
        "action": gettext_lazy("Action"),
        "configuration": gettext_lazy("New configuration"),
        "stand": gettext_lazy("Stand"),
        "move": gettext_lazy("Move before acting"),
        "move_after": gettext_lazy("Move after acting"),
        "road_step": gettext_lazy("Road step at the end of the move"),
        "attacks": gettext_lazy("Attacks (weapon and target)"),
        "support": gettext_lazy("Support a stand instead of attacking"),
        "name": gettext_lazy("Spell"),
        "targets": gettext_lazy("Targets of the spell"),
        "origin": gettext_lazy("Origin square of the spell"),
        "direction": gettext_lazy("Direction of the spell"),
        "hide": gettext_lazy("Tries to hide"),
        "if_rallied": gettext_lazy("Action if the commander rallies the unit"),
        "detach_to": gettext_lazy("Leave the stand for the square"),
        "switch_to": gettext_lazy("Move to the stand"),
        "detach_when": gettext_lazy("Leave or move"),
        "timing": gettext_lazy("Acts"),
        "join": gettext_lazy("Stand to join"),
        "bonus_action": gettext_lazy("Bonus action"),
        "casualty_shifts": gettext_lazy("If a stand falls, this one takes its place"),
        "solo_fallbacks": gettext_lazy("Where attached solos go if their stand falls"),
        "adjustments": gettext_lazy("Adjustments"),
        "isolation_overrides": gettext_lazy("Not isolated this round (ruling)"),
        "hide_dc": gettext_lazy("Hide DC (empty: the rules' own)"),
        "custom_achieved": gettext_lazy("Custom objectives achieved"),
        "award_vp": gettext_lazy("Award 1 victory point to"),
    }

    # -- setup ------------------------------------------------------------------

    def setup_fields(self, campaign) -> dict:
        maps = [(str(m.pk), m.name) for m in _square_maps(campaign).only("pk", "name")]
        sides = [("none", gettext_lazy("Nobody scores them (they are only targets)")),
                 ("A", gettext_lazy("Side A destroys them, side B protects them")),
                 ("B", gettext_lazy("Side B destroys them, side A protects them"))]
        return {
            "map": forms.ChoiceField(label=gettext_lazy("Map (square grid)"), choices=maps,
                                     help_text=gettext_lazy("The campaign's square maps.")),
            "deploy_a": forms.ChoiceField(label=gettext_lazy("Side A deploys along"), choices=EDGES, initial="north"),
            "deploy_b": forms.ChoiceField(label=gettext_lazy("Side B deploys along"), choices=EDGES, initial="south"),
            "objective_squares": forms.ChoiceField(label=gettext_lazy("Objective squares of the map"), choices=sides,
                                                   initial="none"),
            "vp_per_unit": forms.IntegerField(
                label=gettext_lazy("Victory points per enemy unit eliminated"), min_value=0, max_value=10, initial=3,
                help_text=gettext_lazy("0: units eliminated score nothing.")),
            "victory_threshold": forms.IntegerField(label=gettext_lazy("Victory points that end the battle"),
                                                    min_value=1, max_value=100, initial=10),
        }

    def clean_setup(self, options: dict) -> dict[str, str]:
        errors = {}
        if options.get("deploy_a") and options.get("deploy_a") == options.get("deploy_b"):
            errors["deploy_b"] = _("Each side deploys along its own edge.")
        battle_map = self.stored_map(options)
        if options.get("objective_squares") in self.sides and battle_map is not None \
                and not (battle_map.data or {}).get("objective_squares"):
            errors["objective_squares"] = _("This map has no objective square.")
        return errors

    def new_battle_input(self, *, name: str, armies: dict, heroes: list, options: dict) -> tuple[dict, list]:
        """The ``new-battle`` input (S9.5): the map's grid and objective squares, both armies placed in their bands."""
        from masscombat.maps.engine import new_battle_fields

        battle_map = self.stored_map(options)
        if battle_map is None:
            raise ValidationError({"map": _("Choose a square map of the campaign.")})
        payload = {"name": name[:80], **new_battle_fields(battle_map), "profiles": {}, "sides": {}, "units": {},
                   "solos": {}, "objectives": self._objectives(options, battle_map),
                   "victory_threshold": options.get("victory_threshold") or 10}
        ids, bands, participants = _Ids(), _Bands(payload["map"]), []
        for side, army in armies.items():
            edge = options.get(f"deploy_{side.lower()}") or ("north" if side == self.sides[0] else "south")
            payload["sides"][side] = {"name": army.name[:80], "controller": _username(army.commander)}
            participants += self._army(payload, ids, bands, side, edge, army)
        for hero, side in heroes:
            edge = options.get(f"deploy_{side.lower()}") or "north"
            owner = hero.owner or armies[side].commander
            profile_id = f"{side}-hero{hero.pk}"
            payload["profiles"][profile_id] = copy.deepcopy(hero.data)
            solo_id = ids.make(side, hero.name, f"hero{hero.pk}")
            payload["solos"][solo_id] = {"side": side, "name": hero.name[:80], "controller": _username(owner),
                                         "profile": profile_id,
                                         "position": self._place(bands, edge, hero.data, hero.name)}
            participants.append(ParticipantSpec("solo", solo_id, side, hero.name, owner, hero_id=hero.pk))
        return payload, participants

    def _objectives(self, options: dict, battle_map) -> dict:
        """Attrition for both sides (S3.8) and, if the GM says so, the map's squares to destroy and protect."""
        objectives = {}
        vp = options.get("vp_per_unit")
        if vp:
            for side in self.sides:
                objectives[f"{side}-attrition"] = {"side": side, "type": "attrition", "vp_per_unit": vp}
        attacker = options.get("objective_squares")
        squares = sorted((battle_map.data or {}).get("objective_squares", {}))
        if attacker in self.sides and squares:
            defender = self.sides[1 - self.sides.index(attacker)]
            objectives[f"{attacker}-destroy"] = {"side": attacker, "type": "destruction", "squares": squares}
            objectives[f"{defender}-protect"] = {"side": defender, "type": "protection", "squares": squares}
        return objectives

    def _place(self, bands: _Bands, edge: str, profile: dict, name: str) -> list[int]:
        from masscombat.maps.selectors import footprint_of_size

        size = footprint_of_size(profile.get("size", "medium"))
        spot = bands.place(edge, size, bool(profile.get("swim_speed_m")))
        if spot is None:
            raise ValidationError({"__all__": _("No room left along the edge for %(name)s: choose a larger map "
                                                "or another edge.") % {"name": name}})
        return spot

    def _army(self, payload: dict, ids: _Ids, bands: _Bands, side: str, edge: str, army) -> list[ParticipantSpec]:
        """One army's profiles, units (stands still fighting) and attached solos, in the engine's terms."""
        data, commander = army.data or {}, army.commander
        profiles = {pid: f"{side}-{pid}"[:40] for pid in data.get("profiles", {})}
        for pid, engine_pid in profiles.items():
            payload["profiles"][engine_pid] = copy.deepcopy(data["profiles"][pid])
        participants = []
        for uid, unit in data.get("units", {}).items():
            fighting = [s for s in unit.get("stands", [])
                        if s.get("status", "active") in ("active", "casualty") and s.get("hp") != 0]
            if not fighting:
                continue
            unit_name = unit.get("name") or uid
            engine_uid = ids.make(side, unit_name, uid)
            stands = []
            for number, stand in enumerate(fighting, start=1):
                profile = data["profiles"].get(stand["profile"], {})
                entry = {"id": ids.make(side, unit_name, uid, number), "profile": profiles.get(stand["profile"]),
                         "position": self._place(bands, edge, profile, unit_name), "roster_id": stand["id"]}
                if stand.get("hp") is not None:
                    entry["hp"] = stand["hp"]
                stands.append(entry)
            payload["units"][engine_uid] = {
                "side": side, "name": unit_name[:80], "controller": _username(commander), "type": unit.get("type"),
                "configuration": unit.get("configuration"), "surprised": bool(unit.get("surprised")),
                "stands": stands, "roster_id": uid}
            participants.append(ParticipantSpec("unit", engine_uid, side, unit_name, commander, army_id=army.pk))
            for solo in unit.get("attached_solos", []):
                profile = data["profiles"].get(solo["profile"], {})
                solo_name = profile.get("name") or solo["id"]
                solo_id = ids.make(side, solo_name, solo["id"])
                # An army's own solos are its officers, not player characters: they die at 0 hp (S3.5).
                entry = {"side": side, "name": solo_name[:80], "controller": _username(commander),
                         "profile": profiles.get(solo["profile"]), "attached_to": stands[0]["id"],
                         "uses_death_saves": False, "roster_id": solo["id"], "roster_unit": uid}
                if unit.get("commander") == solo["id"]:
                    entry["commander_of"] = engine_uid
                if solo.get("hp") is not None:
                    entry["hp"] = solo["hp"]
                payload["solos"][solo_id] = entry
                participants.append(ParticipantSpec("solo", solo_id, side, solo_name, commander, army_id=army.pk))
        participants.append(ParticipantSpec("side", side, side, army.name, commander, army_id=army.pk))
        return participants

    # -- declarations -----------------------------------------------------------

    def declaration_form(self, viewer, key: str, kind: str, ref: str, answer: dict, declared: dict,
                         posted=None) -> tuple[dict, str]:
        """The form's options as :meth:`form_options` leaves them (the engine's, asked as the viewer knows the battle)."""
        return {**answer, "options": self.form_options(answer.get("options", []), viewer.is_gm)}, ""

    def form_options(self, options: list[dict], gm: bool) -> list[dict]:
        """The engine's options (already those the viewer may know of, S11.3) as the generic form builds them.

        A null choice the form's own empty one repeats is left out; an area spell's origin
        becomes the squares any of the caster's area spells may start from; what the generic
        form cannot build (the solos' fallbacks, the GM's adjustments: objects with several
        fields, ``UNBUILT``) is written as JSON by the GM and left out of a player's form.
        """
        options = [_without_null_choice(_origin_squares(o)) for o in options]
        if gm:
            return [_as_json(o) for o in options]
        return [o for o in options if o["path"].rsplit(".", 1)[-1] not in UNBUILT]

    def option_piece(self, option: dict, state: dict | None = None) -> str | None:
        """The piece a path or square option moves: a stand (``units.u.stands[i].move``) or a solo."""
        parts = option["path"].split(".")
        if parts[0] == "solos" and len(parts) > 2 and parts[-1] in ("move", "move_after", "detach_to"):
            return parts[1]
        if parts[0] == "units" and len(parts) == 4 and parts[-1] in ("move", "move_after"):
            item = STAND_ITEM.match(parts[2])
            unit = ((state or {}).get("units") or {}).get(parts[1])
            if item is None or unit is None:
                return None
            in_play = [sid for sid in unit.get("stands", [])
                       if (state.get("stands") or {}).get(sid, {}).get("status") in ("active", "casualty")]
            index = int(item.group(1))
            return in_play[index] if index < len(in_play) else None
        return None

    def option_label(self, option: dict, names: dict[str, str] | None = None) -> str:
        parts = option["path"].split(".")
        stand = next((STAND_ITEM.match(p) for p in parts if STAND_ITEM.match(p)), None)
        if stand is None:
            return super().option_label(option, names)
        label = _("Own action while the unit casts") if parts[-1] == "action" else super().option_label(option, names)
        return _("Stand %(n)s — %(what)s") % {"n": int(stand.group(1)) + 1, "what": label}

    def value_label(self, value, names=None) -> str:
        if value is None:
            return _("None")
        if isinstance(value, dict):
            return _dict_label(self, value, names)
        if isinstance(value, list):
            if not value:
                return _("None")
            if _is_square(value):
                return self.cell_label(value)
            if all(_is_square(item) for item in value):
                return self.path_label(value)
            return ", ".join(self.value_label(item, names) for item in value)
        if isinstance(value, str) and value not in self.value_labels and value not in (names or {}):
            found = ENGINE_ID.match(value)
            if found:
                words = found["name"].replace("_", " ").strip().capitalize()
                return f"{words} {found['n']}" if found["n"] else words
        return super().value_label(value, names)

    # -- state, map, end -------------------------------------------------------------

    def map_source(self, battle):
        from masscombat.maps.selectors import battle_source

        return battle_source(battle.state) if battle.state.get("map") else None

    def map_pieces(self, battle, state: dict, viewer, names: dict[str, str]) -> list[dict]:
        """The pieces of the state this viewer may see (the room passes the side's ``visible-state``)."""
        from masscombat.maps.selectors import pieces_of

        return pieces_of(state, self.slug, None if viewer.is_gm else viewer.side, names)

    def end_input(self, state: dict, winner: str | None) -> dict:
        """S9.14 from the final state: the victory points decide (S6.12), ending on equal points is the GM's draw;
        a winner named is passed on, for the engine to refuse one the points do not make."""
        return {**super().end_input(state, winner), "on_tie": "draw"}

    def one_more_round_input(self, state: dict) -> dict:
        """S7.7: the GM fights one more round after a tie."""
        return {"state": state, "on_tie": "extra_round"}

    def roster_updates(self, aftermath: dict, participants: list) -> list[RosterUpdate]:
        """Heroes keep their hit points and condition (S5.14); each army's stands their losses.

        A hero's hit points go in the history (a profile has no current hit points); dead heroes
        are dead in the roster, hurt or dying ones wounded.  An army's stands get their final hit
        points and status, those of a routed unit fled.
        """
        if not participants:
            return []
        battle = participants[0].battle
        state, setup = battle.state, battle.setup.get("input", {})
        updates = []
        for participant in participants:
            if participant.kind == "solo" and participant.hero_id is not None:
                update = _hero_update(participant, state)
            elif participant.kind == "side" and participant.army_id is not None:
                update = _army_update(participant, state, setup, aftermath)
            else:
                update = None
            if update is not None:
                updates.append(update)
        return updates


def _as_json(option: dict) -> dict:
    """A GM's option the generic form cannot build, marked to be written as JSON, with its example."""
    example = _unbuilt_example(option["path"].rsplit(".", 1)[-1])
    return option if example is None else {**option, "json": True, "example": example}


def _without_null_choice(option: dict) -> dict:
    """A choice whose default is null loses its null value: the form's own empty choice says the same."""
    allowed = option.get("allowed")
    if option.get("type") == "list" or option.get("default") is not None or not isinstance(allowed, list) \
            or None not in allowed:
        return option
    return {**option, "allowed": [value for value in allowed if value is not None]}


def _origin_squares(option: dict) -> dict:
    """An area spell's origin offered as squares (picked on the map), not as one list per spell."""
    if not option["path"].endswith(".spell.origin"):
        return option
    squares = {tuple(sq) for entry in option.get("allowed") or [] if isinstance(entry, dict)
               for sq in entry.get("squares", [])}
    return {**option, "allowed": [list(sq) for sq in sorted(squares, key=lambda sq: (sq[1], sq[0]))]}


def _is_square(value) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool)
                                                               for v in value)


def _dict_label(adapter: DnD5e, value: dict, names: dict | None) -> str:
    if "attack" in value and "target" in value:
        label = f"{adapter.value_label(value['attack'], names)} → {adapter.value_label(value['target'], names)}"
        if isinstance(value.get("distance"), int):
            label += " (%s)" % (ngettext("%(n)s square", "%(n)s squares", value["distance"]) % {"n": value["distance"]})
        return label
    if "spell" in value and "target" in value:
        return f"{adapter.value_label(value['spell'], names)} → {adapter.value_label(value['target'], names)}"
    if "if_eliminated" in value:
        return _("if %(fallen)s falls: %(shift)s") % {"fallen": adapter.value_label(value["if_eliminated"], names),
                                                      "shift": adapter.value_label(value.get("shift"), names)}
    return " · ".join(adapter.value_label(v, names) for v in value.values())


def _hero_update(participant, state: dict) -> RosterUpdate | None:
    solo = state.get("solos", {}).get(participant.ref)
    if solo is None:
        return None
    hp_max = state.get("profiles", {}).get(solo.get("profile"), {}).get("hp_max")
    condition, hp = solo.get("condition", "active"), solo.get("hp")
    if condition == "dead":
        status = "dead"
    elif condition in ("dying", "stable") or (hp is not None and hp_max and hp < hp_max):
        status = "wounded"
    else:
        status = "active"
    return RosterUpdate("hero", participant.hero_id, {}, status=status,
                        summary={"hp": hp, "hp_max": hp_max, "condition": condition})


def _army_update(participant, state: dict, setup: dict, aftermath: dict) -> RosterUpdate | None:
    from masscombat.rosters import adapters as roster_adapters
    from masscombat.rosters.models import Army

    army = Army.objects.filter(pk=participant.army_id).first()
    if army is None:
        return None
    data = copy.deepcopy(army.data or {})
    routed = set(aftermath.get("routed_units") or [])
    lost = 0
    for engine_uid, unit in setup.get("units", {}).items():
        roster_unit = data.get("units", {}).get(unit.get("roster_id"))
        if unit.get("side") != participant.side or roster_unit is None:
            continue
        by_roster_id = {s.get("id"): s for s in roster_unit.get("stands", [])}
        for stand in unit.get("stands", []):
            final = state.get("stands", {}).get(stand["id"], {})
            entry = by_roster_id.get(stand.get("roster_id"))
            if entry is None or not final:
                continue
            status = final.get("status", "active")
            if status in ("active", "casualty") and engine_uid in routed:
                status = "fled"
            lost += status not in ("active", "casualty")
            entry["hp"], entry["status"] = final.get("hp", entry.get("hp")), status
    for solo_id, solo in setup.get("solos", {}).items():
        final = state.get("solos", {}).get(solo_id, {})
        roster_unit = data.get("units", {}).get(solo.get("roster_unit"))
        if solo.get("side") != participant.side or roster_unit is None or final.get("hp") is None:
            continue
        for entry in roster_unit.get("attached_solos", []):
            if entry.get("id") == solo.get("roster_id"):
                entry["hp"] = final["hp"]
    summary = {**roster_adapters.get("dnd5e").army_summary(data), "stands_lost": lost,
               "outcome": aftermath.get("outcome"), "winner": aftermath.get("winner")}
    return RosterUpdate("army", army.pk, data, summary=summary)


adapter = DnD5e()
