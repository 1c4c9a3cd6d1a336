"""HÉROS: two armies on a hex map, one bound per round (spec S5.2, S9.12-S9.14, S11.2).

Set-up: the GM picks a hex map of the campaign, the side that plays first and
the edge each army deploys along.  Every unit of an army is put, in the
army's order, on the free hexes of a band of rows along its edge (the row
nearest the enemy first, from the middle outwards), facing the enemy; each
general stands on the first unit of its corps, heroes on the first unit of
the C-in-C's corps.  The engine's ``new-battle`` judges the result.

Ids: the engine wants every id unique in the battle, while two armies of a
campaign may both call a unit ``u1``; every id of an army is prefixed with its
side (``a-u1``), which also says where each one goes back after the battle.

Who declares (S11.2): the side commander plays the side (rallies, captives,
the C-in-C's extra PA), each unit (move, facing, shooting, melee, hold or
advance of the impetuous) and each general of the army; each hero's player
plays the hero.  :meth:`Heros.merge_declarations` turns their per-option
rows into the one ``resolve-round`` declarations object, grouping the
units of one corps that move together as the engine's groups.
"""

from __future__ import annotations

import re

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from masscombat.battles.adapters import Adapter, ParticipantSpec, RosterUpdate
from rules.heros import hexgrid

# Which edge each army deploys along: its rows, nearest the enemy first, and the facing towards the enemy (S3.1).
EDGES = {"north": 3, "south": 0}
BAND_DEPTH = 3
# Unit statuses a unit may start a battle with (S9.12); the others were lost before it.
STARTING = ("active", "pool", "reserve")
NO_RIDERS = ("Gd", "Lu")  # no character stands on a god or a lurker (S5.5.4)
ACTION_ORDER = ("hold", "advance", "move", "climb", "land", "character", "god", "lurker")
# An option path without its side and without the id that ends it: the key of its label.
ID_TAIL = re.compile(r"\.(paths|facings|hexes|stars)\.[A-Za-z0-9_-]+$")
LABELLED_ID = re.compile(r"^Path of ([A-Za-z0-9_-]+)")
FATE_STATUS = {"dead": "dead", "captured": "captured", "fit": "active"}
# The GM's declarations (S9.13, S11.4): lists of objects the engine's declaration-options does not offer
# (it knows no GM participant), written as JSON in the GM's own form, an example each from the spec's fields.
GM_OPTIONS = {
    "arrivals": [{"unit_id": "<unit id>", "hex": {"col": 3, "row": 0}, "facing": 3}],
    "departures": [{"unit_id": "<unit id>", "reason": "other"}],
    "modifiers": [{"combat_id": "<melee id>", "combatant_id": "<unit id>", "value": 1, "label": "<why>"}],
}


def prefixed(side: str, identifier) -> str | None:
    return f"{side}-{identifier}"[:40] if identifier else None


def _hex_maps(campaign) -> list[tuple[str, str]]:
    from masscombat.maps.models import BattleMap

    return [(str(m.pk), f"{m.name} ({m.width} × {m.height})")
            for m in BattleMap.objects.filter(campaign=campaign, kind="hex").order_by("name", "pk")]


def band(edge: str, width: int, height: int, hexes: dict) -> list[dict]:
    """The hexes of an edge's band, in the order units take them: front row first, middle outwards.

    Impassable hexes (the engine refuses units there) and river hexes
    (nobody lines up in a river) are left out.
    """
    depth = max(1, min(BAND_DEPTH, height // 4))
    rows = range(depth - 1, -1, -1) if edge == "north" else range(height - depth, height)
    middle = (width - 1) / 2
    columns = sorted(range(width), key=lambda col: (abs(col - middle), col))
    out = []
    for row in rows:
        for col in columns:
            ground = hexes.get((col, row), {})
            if ground.get("terrain") != "impassable" and not ground.get("river"):
                out.append({"col": col, "row": row})
    return out


class Heros(Adapter):
    slug = "heros"
    uses_map = True
    map_kind = "hex"
    places = True
    # S11.3: events about hidden units are marked for their side; the log may name them.
    round_log_public = False
    strength_label = gettext_lazy("Morale points (EP) left")
    option_labels = {
        "actions[kind=move].paths": gettext_lazy("Move along"),
        "actions[kind=move].facings": gettext_lazy("Final facing (0 north, then clockwise)"),
        "actions[].kind": gettext_lazy("Impetuous: hold back or advance"),
        "actions[kind=hold].hold_exception": gettext_lazy("Why the hold is allowed"),
        "actions[kind=advance].paths": gettext_lazy("Path of the spontaneous advance"),
        "actions[kind=climb].units": gettext_lazy("Climb to high altitude"),
        "actions[kind=land].hexes": gettext_lazy("Landing hex"),
        "actions[kind=god].path": gettext_lazy("Path of the god"),
        "actions[kind=god].swap_with": gettext_lazy("Swap places with the unit in front"),
        "actions[kind=god].god_id": gettext_lazy("Actions of the god"),
        "actions[kind=lurker].target_id": gettext_lazy("Lurker springs out against"),
        "actions[kind=character].pa_source": gettext_lazy("Who pays for the move"),
        "actions[kind=character].path": gettext_lazy("Walk along"),
        "actions[kind=character].engaged": gettext_lazy("Fight at the front of the unit"),
        "actions[].use_cinc_extra_pa": gettext_lazy("Spend the C-in-C's extra action point"),
        "actions[].corps_id": gettext_lazy("Actions of the corps"),
        "shootings[].target_id": gettext_lazy("Shoot at"),
        "melees[].defender_id": gettext_lazy("Charge into melee against"),
        "stars": gettext_lazy("Star of the stack"),
        "spells[].caster_id": gettext_lazy("Cast a spell"),
        "executions[]": gettext_lazy("Execute a captive"),
        "rallies[]": gettext_lazy("Rally attempt"),
        "adventurer_flee": gettext_lazy("Flee instead of recoiling"),
        "decline_pursuit": gettext_lazy("Do not pursue psiloi or lurkers"),
        "executions": gettext_lazy("Executions"),
        "captive_transfers": gettext_lazy("Captive transfers"),
        "actions": gettext_lazy("Actions"),
        "shootings": gettext_lazy("Shootings"),
        "melees": gettext_lazy("Melees"),
        "spells": gettext_lazy("Spells"),
        "counter_spells": gettext_lazy("Counter-spells"),
        "rallies": gettext_lazy("Rallies"),
        "immediate_rallies": gettext_lazy("Immediate rallies"),
        "adventurers_follow": gettext_lazy("Adventurers follow"),
        "escapes": gettext_lazy("Escapes"),
        "arrivals": gettext_lazy("Arrivals (reinforcements, gods, spirits)"),
        "departures": gettext_lazy("Departures"),
        "modifiers": gettext_lazy("Game master's modifiers (M15)"),
    }
    value_labels = {
        "hold": gettext_lazy("Hold back"),
        "advance": gettext_lazy("Advance"),
        "sub_general_unmoved": gettext_lazy("its general has not moved yet"),
        "cinc_extra_pa": gettext_lazy("the C-in-C's extra action point pays"),
        "strong_position": gettext_lazy("strong position"),
        "free": gettext_lazy("nobody (no move, or a carry)"),
        "corps": gettext_lazy("the corps"),
        "personal": gettext_lazy("the champion's own points"),
        "north": gettext_lazy("the north edge"),
        "south": gettext_lazy("the south edge"),
        # What the aftermath says.
        "army_broken": gettext_lazy("Army broken"),
        "turn_limit": gettext_lazy("turn limit"),
        "concession": gettext_lazy("concession"),
        "gm_decision": gettext_lazy("decision of the game master"),
        "fit": gettext_lazy("fit"),
        "malus": gettext_lazy("scratched"),
        "light": gettext_lazy("lightly wounded"),
        "serious": gettext_lazy("seriously wounded"),
        "unconscious": gettext_lazy("unconscious"),
        "dead": gettext_lazy("dead"),
        "captured": gettext_lazy("captured"),
        # Combat results (S6.8), risk tests (S6.10).
        "none": gettext_lazy("no effect"),
        "continue": gettext_lazy("fights on"),
        "recoil": gettext_lazy("recoils"),
        "flee": gettext_lazy("flees"),
        "destroyed": gettext_lazy("destroyed"),
        "spirit": gettext_lazy("the spirit rule applies"),
        "unharmed": gettext_lazy("unharmed"),
        "wound": gettext_lazy("wounded"),
        "critical_wound": gettext_lazy("critically wounded"),
        "wound_and_captured": gettext_lazy("wounded and captured"),
        "critical_and_captured": gettext_lazy("critically wounded and captured"),
        # Events of a bound (S9.13).
        "bound_started": gettext_lazy("Bound begins"),
        "pa_rolled": gettext_lazy("Action points rolled"),
        "god_pa_rolled": gettext_lazy("God's action points rolled"),
        "wound_evolved": gettext_lazy("Wound evolves"),
        "captive_executed": gettext_lazy("Captive executed"),
        "captive_transferred": gettext_lazy("Captive transferred"),
        "unit_arrived": gettext_lazy("Unit arrives"),
        "unit_departed": gettext_lazy("Unit leaves"),
        "projection_tested": gettext_lazy("Power projection test"),
        "group_held": gettext_lazy("Group held back"),
        "unit_moved": gettext_lazy("Unit moves"),
        "flyer_climbed": gettext_lazy("Flyer climbs"),
        "flyer_landed": gettext_lazy("Flyer lands"),
        "character_moved": gettext_lazy("Character moves"),
        "god_moved": gettext_lazy("God moves"),
        "god_swapped": gettext_lazy("God swaps places"),
        "lurker_generated": gettext_lazy("Lurker springs out"),
        "unit_revealed": gettext_lazy("Ambush revealed"),
        "rally_attempted": gettext_lazy("Rally attempt"),
        "spell_cast": gettext_lazy("Spell cast"),
        "duel_fought": gettext_lazy("Duel"),
        "combat_resolved": gettext_lazy("Combat"),
        "unit_recoiled": gettext_lazy("Unit recoils"),
        "unit_fled": gettext_lazy("Unit flees"),
        "unit_fled_off": gettext_lazy("Unit flees the field"),
        "unit_destroyed": gettext_lazy("Unit destroyed"),
        "unit_dispersed": gettext_lazy("Unit dispersed"),
        "unit_pursued": gettext_lazy("Unit pursues"),
        "risk_tested": gettext_lazy("Risk test"),
        "character_wounded": gettext_lazy("Character wounded"),
        "character_captured": gettext_lazy("Character captured"),
        "character_escaped": gettext_lazy("Character escapes"),
        "captive_recovered": gettext_lazy("Captive recovery"),
        "lurker_removed": gettext_lazy("Lurker vanishes"),
        "corps_demoralised": gettext_lazy("Corps demoralised"),
        "corps_recovered": gettext_lazy("Corps recovers"),
        "battle_ended": gettext_lazy("End of the battle"),
    }

    # -- setup ------------------------------------------------------------------

    def setup_fields(self, campaign) -> dict:
        sides = [(side, _("Side %(side)s") % {"side": side.upper()}) for side in self.sides]
        edges = [(edge, self.value_labels[edge]) for edge in EDGES]
        return {
            "map": forms.ChoiceField(label=gettext_lazy("Hex map"), choices=_hex_maps(campaign)),
            "first_side": forms.ChoiceField(label=gettext_lazy("Side that plays the first bound"), choices=sides),
            "deploy_a": forms.ChoiceField(label=gettext_lazy("Side A deploys along"), choices=edges, initial="north"),
            "deploy_b": forms.ChoiceField(label=gettext_lazy("Side B deploys along"), choices=edges, initial="south"),
            "max_turns": forms.IntegerField(label=gettext_lazy("Turn limit"), required=False, min_value=1, max_value=99,
                                            help_text=gettext_lazy("Leave empty to play until an army breaks.")),
        }

    def clean_setup(self, options: dict) -> dict[str, str]:
        if options.get("deploy_a") and options.get("deploy_a") == options.get("deploy_b"):
            return {"deploy_b": _("The two armies deploy along opposite edges.")}
        return {}

    def new_battle_input(self, *, name: str, armies: dict, heroes: list, options: dict) -> tuple[dict, list]:
        from masscombat.maps.engine import engine_map

        battle_map = self.stored_map(options)
        if battle_map is None:
            raise ValidationError({"map": _("Choose a hex map of the campaign.")})
        grid = engine_map(battle_map)
        ground = {(h["col"], h["row"]): h for h in grid["hexes"]}
        payload = {"battle_id": name[:120], "map": grid, "sides": [], "corps": [], "units": [], "characters": [],
                   "first_side": options.get("first_side") or self.sides[0], "max_turns": options.get("max_turns")}
        participants, hero_carriers = [], {}
        for side, army in armies.items():
            edge = options.get(f"deploy_{side}") or ("north" if side == self.sides[0] else "south")
            taken = [(u["position"]["col"], u["position"]["row"]) for u in payload["units"] if u["position"]]
            free = [h for h in band(edge, grid["width"], grid["height"], ground) if (h["col"], h["row"]) not in taken]
            hero_carriers[side] = self._deploy(payload, participants, side, army, edge, free)
        used = {c["id"] for c in payload["characters"]}
        for hero, side in heroes:
            ref = prefixed(side, (hero.data or {}).get("id") or f"h{hero.pk}")
            if ref in used:
                ref = prefixed(side, f"h{hero.pk}")
            used.add(ref)
            cinc_corps = next((c["id"] for c in payload["corps"]
                               if c["side"] == side and c.get("kind") == "cinc"), None)
            payload["characters"].append({
                **(hero.data or {}), "id": ref, "name": hero.name[:200], "corps_id": cinc_corps,
                "player_id": f"user-{hero.owner_id}" if hero.owner_id else None,
                "stacked_on": hero_carriers.get(side), "position": None, "engaged": False})
            participants.append(ParticipantSpec("hero", ref, side, hero.name, hero.owner, hero_id=hero.pk))
        return payload, participants

    def _deploy(self, payload: dict, participants: list, side: str, army, edge: str, free: list) -> str | None:
        """One army into the set-up: its corps, its units on the ``free`` hexes of its band, its generals on their
        corps' first unit; the commander plays the side, each unit and each general.  Returns the unit heroes join."""
        data = army.data or {}
        corps = [{**c, "id": prefixed(side, c.get("id")), "side": side,
                  "general_id": prefixed(side, c.get("general_id"))} for c in data.get("corps", [])]
        cinc = next((c for c in corps if c.get("kind") == "cinc"), {})
        payload["sides"].append({"id": side, "name": army.name[:200],
                                 "cinc_id": cinc.get("general_id") or prefixed(side, "cinc")})
        payload["corps"] += corps
        participants.append(ParticipantSpec("side", side, side, army.name, army.commander, army_id=army.pk))
        carriers: dict[str, str] = {}
        for unit in data.get("units", []):
            if unit.get("status", "active") not in STARTING:
                continue
            placed = {**unit, "id": prefixed(side, unit.get("id")),
                      "corps_id": prefixed(side, unit.get("corps_id")),
                      "position": None, "facing": EDGES[edge], "rank": "front"}
            if placed.get("status", "active") == "active":
                if not free:
                    raise ValidationError({f"deploy_{side}": _(
                        "%(army)s has more units than free hexes along its edge: choose a larger map.")
                        % {"army": army.name}})
                placed["position"] = free.pop(0)
                if unit.get("troop_type") not in NO_RIDERS and not unit.get("character_unit"):
                    carriers.setdefault(placed["corps_id"], placed["id"])
            payload["units"].append(placed)
            participants.append(ParticipantSpec("unit", placed["id"], side, unit.get("name") or placed["id"],
                                                army.commander, army_id=army.pk))
        for character in data.get("characters", []):
            placed = {**character, "id": prefixed(side, character.get("id")),
                      "corps_id": prefixed(side, character.get("corps_id")),
                      "stacked_on": prefixed(side, character.get("stacked_on")), "position": None}
            if placed.get("status", "active") == "active" and not placed["stacked_on"]:
                placed["stacked_on"] = carriers.get(placed["corps_id"])
            payload["characters"].append(placed)
            participants.append(ParticipantSpec("character", placed["id"], side,
                                                character.get("name") or placed["id"], army.commander))
        return carriers.get(cinc.get("id"))

    def placement(self, setup_input: dict, piece_id: str, cell) -> dict:
        """The set-up with one unit or character moved to ``cell`` (characters on a unit go with it)."""
        cell = {"col": cell["col"], "row": cell["row"]} if isinstance(cell, dict) else {"col": cell[0], "row": cell[1]}
        grid = setup_input["map"]
        if not (0 <= cell["col"] < grid["width"] and 0 <= cell["row"] < grid["height"]):
            raise ValidationError({"cell": _("This hex is outside the map.")})
        moved = {**setup_input, "units": [dict(u) for u in setup_input["units"]],
                 "characters": [dict(c) for c in setup_input["characters"]]}
        unit = next((u for u in moved["units"] if u["id"] == piece_id), None)
        if unit is not None:
            if unit.get("position") is None:
                raise ValidationError({"piece": _("This unit is not on the map yet.")})
            if unit["position"] != cell:  # onto a friendly unit: behind it, as a move would end (S5.5.4)
                side = piece_id.split("-", 1)[0]
                friends = [u for u in moved["units"] if u is not unit and u.get("position") == cell
                           and u["id"].startswith(f"{side}-")]
                unit["position"], unit["rank"] = cell, "rear" if friends else "front"
            return moved
        character = next((c for c in moved["characters"] if c["id"] == piece_id), None)
        if character is None:
            raise ValidationError({"piece": _("No unit or character of this battle has this name.")})
        side = piece_id.split("-", 1)[0]
        here = next((u for u in moved["units"] if u.get("position") == cell and u["id"].startswith(f"{side}-")), None)
        character["stacked_on"] = here["id"] if here else None
        character["position"] = None if here else cell
        return moved

    # -- declarations -----------------------------------------------------------

    def merge_declarations(self, rows) -> dict:
        """The S9.13 declarations object from each participant's ``{option path: value}``.

        Units of one corps that move (or hold, advance, climb, land) in the
        same way and stand next to each other go as one group, one action
        (S5.5.4); actions run holds first, then advances, moves and the rest.
        Several shooters at one target shoot together (S5.9).
        """
        rows = list(rows)
        if not rows:
            return {}
        state = rows[0].battle.state
        units = {u["id"]: u for u in state.get("units", [])}
        acts: dict[str, dict] = {kind: {} for kind in ACTION_ORDER}  # kind -> unit/character id -> fields
        shots: dict[str, list] = {}
        sides: dict[str, dict] = {"active": {}, "passive": {}, "gm": {}}
        extra_pa = False
        for row in sorted(rows, key=lambda r: r.participant):
            ref = row.participant.split(":", 1)[-1]
            for path, value in sorted(row.data.items()):
                key, _sep, rest = path.partition(".")
                if key not in sides:
                    continue
                out = sides[key]
                last = rest.rsplit(".", 1)[-1]
                if key == "gm":
                    if rest in GM_OPTIONS and isinstance(value, list):
                        out.setdefault(rest, []).extend(value)
                elif rest.startswith("actions[kind=move].paths."):
                    acts["move"].setdefault(last, {})["path"] = _path(value)
                elif rest.startswith("actions[kind=move].facings."):
                    if units.get(last, {}).get("facing") != value:
                        acts["move"].setdefault(last, {})["facing"] = value
                elif rest == "actions[].kind" and value in ("hold", "advance"):
                    acts[value].setdefault(ref, {})
                elif rest == "actions[kind=hold].hold_exception":
                    acts["hold"].setdefault(ref, {})["exception"] = value
                elif rest.startswith("actions[kind=advance].paths."):
                    acts["advance"].setdefault(last, {})["path"] = _path(value)
                elif rest == "actions[kind=climb].units":
                    acts["climb"].setdefault(value, {})
                elif rest.startswith("actions[kind=land].hexes."):
                    acts["land"].setdefault(last, {})["hex"] = value
                elif rest.startswith("actions[kind=character]."):
                    acts["character"].setdefault(ref, {})[last] = _path(value) if last == "path" else value
                elif rest.startswith("actions[kind=god]."):
                    acts["god"].setdefault(ref, {})[last] = _path(value) if last == "path" else value
                elif rest == "actions[kind=lurker].target_id":
                    acts["lurker"][ref] = {"target_id": value}
                elif rest == "actions[].use_cinc_extra_pa":
                    extra_pa = extra_pa or bool(value)
                elif rest == "shootings[].target_id":
                    shots.setdefault(value, []).append(ref)
                elif rest == "melees[].defender_id":
                    out.setdefault("melees", []).append({"id": prefixed("m", ref), "attacker_id": ref,
                                                         "defender_id": value, "contact": "front"})
                elif rest.startswith("stars."):
                    out.setdefault("stars", {})[last] = value
                elif rest in ("adventurer_flee", "decline_pursuit") and value:
                    out.setdefault(rest, []).append(ref)
                elif rest == "executions[]":
                    out.setdefault("executions", []).append(value)
                elif rest == "rallies[]" and isinstance(value, dict):
                    out.setdefault("rallies", []).append({**value, "moves": []})
        actions = _actions(acts, units)
        if extra_pa:  # the C-in-C's extra point pays part of the first action the corps pays for (S5.4)
            paying = next((a for a in actions if a["kind"] in ("move", "climb", "land") or (
                a["kind"] == "character" and a["path"] and a.get("pa_source", "corps") == "corps")), None)
            if paying is not None:
                paying["use_cinc_extra_pa"] = True
        if actions:
            sides["active"]["actions"] = actions
        if shots:
            sides["active"]["shootings"] = [{"id": f"s{n}", "shooters": shooters, "target_id": target}
                                            for n, (target, shooters) in enumerate(shots.items(), start=1)]
        return {key: value for key, value in sides.items() if value}

    def declaration_form(self, viewer, key: str, kind: str, ref: str, answer: dict, declared: dict,
                         posted=None) -> tuple[dict, str]:
        """The GM's own form offers the GM's declarations (S9.13, S11.4) as JSON boxes; nobody else gets them."""
        if kind != "gm":
            return answer, ""
        if not viewer.is_gm:
            return {**answer, "options": []}, ""
        options = [{"path": f"gm.{name}", "label": name, "type": "list", "required": False, "default": [],
                    "json": True, "example": example} for name, example in GM_OPTIONS.items()]
        return {**answer, "options": [*answer.get("options", []), *options]}, ""

    # -- labels -----------------------------------------------------------------

    labels_use_state = True

    def option_label(self, option: dict) -> str:
        label = self.option_labels.get(label_key(option["path"]))
        if label is None:
            return option.get("label", option["path"])
        if option.get("pa_cost"):
            return _("%(label)s (%(cost)s PA)") % {"label": label, "cost": option["pa_cost"]}
        return str(label)

    def value_label(self, value, state=None) -> str:
        """Units, corps and characters by their names in ``state`` (the one the reader may see: a
        hidden enemy is not in it, so its id is never turned into its name), else by their ids."""
        if value is None:
            return _("None")
        if isinstance(value, dict) and "general_id" in value:
            names = _names(state)
            general, corps = value["general_id"], value.get("corps_id", "")
            return _("%(general)s rallies corps %(corps)s") % {"general": names.get(general, general),
                                                                 "corps": names.get(corps, corps)}
        if isinstance(value, dict) and "col" in value:
            return f"{value['col']},{value['row']}"
        if isinstance(value, list):
            return " → ".join(self.value_label(item, state) for item in value) or _("stay")
        if isinstance(value, str) and value not in self.value_labels:
            name = _names(state).get(value)
            if name:
                return name
        return super().value_label(value)

    def option_piece(self, option: dict, state: dict | None = None) -> str | None:
        """The unit or character a path or landing-hex option moves, for the map picker."""
        path = option["path"]
        if ".paths." in path or ".hexes." in path:
            return path.rsplit(".", 1)[-1]
        if path.endswith((".actions[kind=character].path", ".actions[kind=god].path")):
            found = LABELLED_ID.match(option.get("label", ""))
            return found.group(1) if found else None
        return None

    # -- state, map, end ----------------------------------------------------------

    def participant_public(self, state: dict, participant) -> bool:
        """An ambushing unit, a lurker still in the pool, and a character on either are unknown to the enemy (S11.3)."""
        units = {unit.get("id"): unit for unit in state.get("units", [])}
        ref = participant.ref
        if participant.kind == "character":
            character = next((c for c in state.get("characters", []) if c.get("id") == ref), {})
            ref = character.get("stacked_on")
        elif participant.kind != "unit":
            return True
        unit = units.get(ref) or {}
        return not ((unit.get("hidden") and unit.get("status") == "active") or unit.get("status") == "pool")

    def finished(self, state: dict) -> bool:
        return state.get("status") == "ended"

    def winner(self, state: dict) -> str | None:
        return (state.get("result") or {}).get("winner")

    def strength(self, state: dict) -> dict[str, float]:
        """Each side's EP not yet lost, summed over its corps (S4.6), as the engine keeps them."""
        out = {side: 0 for side in self.sides}
        for corps in state.get("corps", []):
            if corps.get("side") in out:
                out[corps["side"]] += corps.get("ep_total", 0) - corps.get("ep_lost", 0)
        return out

    def side_label(self, side: str, state: dict | None = None) -> str:
        for entry in (state or {}).get("sides") or []:
            if isinstance(entry, dict) and entry.get("id") == side and entry.get("name"):
                return entry["name"]
        return super().side_label(side)

    def map_source(self, battle):
        from masscombat.maps.selectors import battle_source

        return battle_source(battle.state) if battle.state.get("map") else None

    def map_pieces(self, battle, state: dict, viewer) -> list[dict]:
        from masscombat.maps.selectors import pieces_of

        return pieces_of(state, self.slug, None if viewer.is_gm else viewer.side)

    def end_input(self, state: dict, winner: str | None) -> tuple[str, dict]:
        """The engine's own end (army broken, turn limit) as it said; else the GM's: a winner named, or the
        length reached, and the engine weighs the losses (S5.15)."""
        if state.get("status") == "ended" and state.get("result"):
            return "end-battle", {"state": state, "reason": state["result"]["reason"],
                                  "winner": state["result"]["winner"]}
        if winner is not None:
            return "end-battle", {"state": state, "reason": "gm_decision", "winner": winner}
        return "end-battle", {"state": state, "reason": "turn_limit"}

    def roster_updates(self, aftermath: dict, participants: list) -> list[RosterUpdate]:
        """Heroes: wounds, capture, death.  Armies: lost units, generals' fates and prisoners in the data,
        the losses in the history."""
        from masscombat.rosters.models import Army

        state = aftermath.get("state", {})
        lines = {line["id"]: line for line in aftermath.get("result", {}).get("sides", [])}
        fates = {c["id"]: c["fate"] for line in lines.values() for c in line["characters"]}
        characters = {c["id"]: c for c in state.get("characters", [])}
        units = {u["id"]: u for u in state.get("units", [])}
        updates = []
        for participant in participants:
            if participant.kind == "hero" and participant.hero_id is not None and participant.ref in characters:
                final = characters[participant.ref]
                fate = fates.get(participant.ref, "fit")
                updates.append(RosterUpdate("hero", participant.hero_id, {
                    "wound_state": final["wound_state"], "wound_malus": final["wound_malus"]},
                    status=FATE_STATUS.get(fate, "wounded"), summary={"fate": fate}))
            elif participant.kind == "side" and participant.army_id is not None and participant.ref in lines:
                army = Army.objects.filter(pk=participant.army_id).first()
                if army is None:
                    continue
                line, side = lines[participant.ref], participant.ref
                data = _army_after(army.data or {}, side, units, characters, line)
                updates.append(RosterUpdate("army", army.pk, data, summary={
                    "winner": aftermath["result"]["winner"] == side, "ep_total": line["ep_total"],
                    "ep_lost": line["ep_lost_effective"], "loss_ratio": line["loss_ratio"],
                    "units_lost": [u.split("-", 1)[1] for u in line["units_lost"]]}))
        return updates


_last_names: tuple = (None, {})  # the last state named and its names: a page labels hundreds of values from one state


def _names(state: dict | None) -> dict[str, str]:
    """The names of the units, corps and characters of ``state`` by their ids (empty without a state).

    The cache is one tuple read and replaced whole, so a thread never reads another state's names."""
    global _last_names
    if not state:
        return {}
    cached_state, names = _last_names
    if cached_state is not state:
        names = {item["id"]: item["name"] for key in ("units", "corps", "characters")
                 for item in state.get(key) or [] if item.get("name")}
        _last_names = (state, names)
    return names


def label_key(path: str) -> str:
    """An option path without its side and the id that ends it: ``active.actions[kind=move].paths.a-u1`` gives
    ``actions[kind=move].paths``, the key of its label."""
    return ID_TAIL.sub(r".\1", "." + path.partition(".")[2])[1:]


def _path(value):
    """A path as the engine takes it: a list of hexes (a list of paths picked from checkboxes gives its first)."""
    if isinstance(value, list) and value and isinstance(value[0], list):
        return value[0]
    return value


def _groups(ids: list[str], units: dict) -> list[list[str]]:
    """The ids split into the engine's groups: one corps, each unit next to another of the group (S5.5.4)."""
    groups: list[list[str]] = []
    order = {uid: n for n, uid in enumerate(units)}
    for uid in sorted(ids, key=lambda i: order.get(i, len(order))):
        unit = units.get(uid, {})
        home = None
        for group in groups:
            first = units.get(group[0], {})
            if first.get("corps_id") == unit.get("corps_id") and unit.get("position") and any(
                    units[other].get("position") and hexgrid.distance(units[other]["position"], unit["position"]) == 1
                    for other in group if other in units):
                home = group
                break
        if home is None:
            groups.append([uid])
        else:
            home.append(uid)
    return groups


def _actions(acts: dict, units: dict) -> list[dict]:
    """The ordered ``actions`` list (S9.13) from each unit's and character's chosen action."""
    actions: list[dict] = []

    def add(kind: str, **fields) -> None:
        actions.append({"id": f"a{len(actions) + 1}", "kind": kind, **fields})

    held_by_reason: dict = {}
    for uid, fields in acts["hold"].items():
        held_by_reason.setdefault(fields.get("exception"), []).append(uid)
    for reason, held in held_by_reason.items():
        for group in _groups(held, units):
            add("hold", corps_id=units.get(group[0], {}).get("corps_id"), units=group, hold_exception=reason)
    for group in _groups(list(acts["advance"]), units):
        add("advance", corps_id=units.get(group[0], {}).get("corps_id"), units=group,
            paths={uid: acts["advance"][uid].get("path") or [] for uid in group})
    moving = [uid for uid, f in acts["move"].items() if f.get("path") or f.get("facing") is not None]
    for group in _groups(moving, units):
        fields = {"paths": {uid: acts["move"][uid].get("path") or [] for uid in group}}
        facings = {uid: acts["move"][uid]["facing"] for uid in group if acts["move"][uid].get("facing") is not None}
        if facings:
            fields["facings"] = facings
        add("move", corps_id=units.get(group[0], {}).get("corps_id"), units=group, **fields)
    for group in _groups(list(acts["climb"]), units):
        add("climb", corps_id=units.get(group[0], {}).get("corps_id"), units=group)
    for group in _groups(list(acts["land"]), units):
        add("land", corps_id=units.get(group[0], {}).get("corps_id"), units=group,
            hexes={uid: acts["land"][uid]["hex"] for uid in group})
    for cid, fields in acts["character"].items():
        path = fields.get("path") or []
        if not path and fields.get("engaged") is None:
            continue
        action = {"character_id": cid, "path": path}
        if fields.get("engaged") is not None:
            action["engaged"] = fields["engaged"]
        if path and fields.get("pa_source") not in (None, "free"):
            action["pa_source"] = fields["pa_source"]
        add("character", **action)
    for gid, fields in acts["god"].items():
        if fields.get("swap_with"):
            add("god", god_id=gid, action="swap", swap_with=fields["swap_with"])
        elif fields.get("path"):
            add("god", god_id=gid, action="move", path=fields["path"])
    for lid, fields in acts["lurker"].items():
        add("lurker", unit_id=lid, target_id=fields["target_id"])
    return actions


def _army_after(data: dict, side: str, units: dict, characters: dict, line: dict) -> dict:
    """The army's data after the battle: units lost, its characters' wounds and fates, the prisoners it holds."""
    lost = set(line["units_lost"])
    new_units = []
    for unit in data.get("units", []):
        final = units.get(prefixed(side, unit.get("id")))
        if final is not None and final["id"] in lost:
            unit = {**unit, "status": final["status"]}
        new_units.append(unit)
    new_characters = []
    for character in data.get("characters", []):
        final = characters.get(prefixed(side, character.get("id")))
        if final is not None:
            character = {**character, "wound_state": final["wound_state"], "status": final["status"]}
        new_characters.append(character)
    held = [{"character_id": cid, "role": characters[cid]["role"]}
            for cid in line["prisoners_held"] if cid in characters]
    out = {**data, "units": new_units, "characters": new_characters}
    if held or "captives_held" in data:
        out["captives_held"] = held
    return out


adapter = Heros()
