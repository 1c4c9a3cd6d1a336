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
plays the hero.  The engine merges their answers into its declarations
object (``merge-declarations``: groups, actions order, the C-in-C's extra PA)
and offers the GM's arrivals, departures and modifiers as options.
"""

from __future__ import annotations

import re

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from masscombat.battles.adapters import Adapter, ParticipantSpec, RosterUpdate
from masscombat.core import engines, explain

# Which edge each army deploys along: its rows, nearest the enemy first, and the facing towards the enemy (S3.1).
EDGES = {"north": 3, "south": 0}
BAND_DEPTH = 3
# Unit statuses a unit may start a battle with (S9.12); the others were lost before it.
STARTING = ("active", "pool", "reserve")
NO_RIDERS = ("Gd", "Lu")  # no character stands on a god or a lurker (S5.5.4)
# An option path without its side and without the id that ends it: the key of its label.
ID_TAIL = re.compile(r"\.(paths|facings|hexes|stars|escapes|adventurers_follow|moves|departures)\.[A-Za-z0-9_-]+$")
ARRIVAL_ID = re.compile(r"^\.arrivals\.[A-Za-z0-9_-]+\.")
# A combat the GM's or a spell's modifier names: a melee or shooting the room merges, or an engagement.
COMBAT_ID = re.compile(r"^(m|s)-([A-Za-z0-9_-]+)$")
ENGAGEMENT_ID = re.compile(r"^e[0-9]+-")
LABELLED_ID = re.compile(r"^Path of ([A-Za-z0-9_-]+)")
FATE_STATUS = {"dead": "dead", "captured": "captured", "fit": "active"}
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
        "immediate_rallies[]": gettext_lazy("Rally if the general is captured"),
        "rallies[].moves": gettext_lazy("Rally move"),
        "spells[].cost": gettext_lazy("Power points spent on the spell"),
        "spells[].effect.kind": gettext_lazy("Effect of the spell"),
        "spells[].effect.target_id": gettext_lazy("Target of the attack spell"),
        "spells[].effect.factor": gettext_lazy("Combat factor of the attack spell"),
        "spells[].effect.range": gettext_lazy("Range of the spell (hexes)"),
        "spells[].effect.combat_id": gettext_lazy("Combat the spell modifies"),
        "spells[].effect.combatant_id": gettext_lazy("Combatant the spell modifies"),
        "spells[].effect.value": gettext_lazy("Modifier the spell gives"),
        "spells[].effect.character_id": gettext_lazy("Character the spell heals"),
        "spells[].effect.text": gettext_lazy("What the spell does"),
        "counter_spells[].against_caster_id": gettext_lazy("Counter the spell of"),
        "counter_spells[].cost": gettext_lazy("Power points spent on the counter-spell"),
        "arrivals.hex": gettext_lazy("Arrival hex"),
        "arrivals.facing": gettext_lazy("Facing on arrival"),
        "modifiers[].combat_id": gettext_lazy("Combat of the modifier"),
        "modifiers[].combatant_id": gettext_lazy("Combatant of the modifier"),
        "modifiers[].value": gettext_lazy("Value of the modifier"),
        "modifiers[].label": gettext_lazy("Why the modifier is given"),
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

    # -- labels -----------------------------------------------------------------

    def option_label(self, option: dict, names: dict[str, str] | None = None) -> str:
        label = self.option_labels.get(label_key(option["path"]))
        if label is None:
            return explain.option_label(self.slug, option, names)
        if option.get("pa_cost"):
            return _("%(label)s (%(cost)s PA)") % {"label": label, "cost": option["pa_cost"]}
        return str(label)

    def value_label(self, value, names=None) -> str:
        """Units, corps and characters by their names in ``names`` (the engine's for the reader: a hidden
        enemy has none, so its id is never turned into its name), else by their ids."""
        names = names or {}
        if value is None:
            return _("None")
        if isinstance(value, dict) and "general_id" in value:
            general, corps = value["general_id"], value.get("corps_id", "")
            return _("%(general)s rallies corps %(corps)s") % {"general": names.get(general, general),
                                                                 "corps": names.get(corps, corps)}
        if isinstance(value, dict) and "col" in value:
            return f"{value['col']},{value['row']}"
        if isinstance(value, dict):  # by unit or character (adventurers_follow, stars, escapes): empty, the rules' way
            return ", ".join(f"{names.get(key, key)}: {self.value_label(item, names)}"
                             for key, item in value.items()) or _("(no change)")
        if isinstance(value, list):
            return " → ".join(self.value_label(item, names) for item in value) or _("stay")
        if isinstance(value, str) and value not in self.value_labels and value not in names:
            combat = COMBAT_ID.match(value)
            if combat and not ENGAGEMENT_ID.match(value):
                unit = names.get(combat.group(2), combat.group(2))
                return (_("melee of %(unit)s") if combat.group(1) == "m" else _("shooting of %(unit)s")) % {"unit": unit}
            if ENGAGEMENT_ID.match(value):
                return _("engagement %(id)s") % {"id": value}
        return super().value_label(value, names)

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

    def side_label(self, side: str, state: dict | None = None) -> str:
        for entry in (state or {}).get("sides") or []:
            if isinstance(entry, dict) and entry.get("id") == side and entry.get("name"):
                return entry["name"]
        return super().side_label(side)

    def map_source(self, battle):
        from masscombat.maps.selectors import battle_source

        return battle_source(battle.state) if battle.state.get("map") else None

    def map_pieces(self, battle, state: dict, viewer, names: dict[str, str]) -> list[dict]:
        from masscombat.maps.selectors import pieces_of

        return pieces_of(state, self.slug, None if viewer.is_gm else viewer.side, names)

    def end_input(self, state: dict, winner: str | None) -> dict:
        """S9.14 wants the reason of an end the rules did not make: the GM's decision when naming a winner,
        else the length reached (the engine then weighs the losses, S5.15)."""
        if engines.outcome(state).over:  # the rules ended it (army broken, turn limit): their reason stands
            reason = (state.get("result") or {}).get("reason")
            return {"state": state, "reason": reason} if reason else {"state": state}
        if winner is not None:
            return {"state": state, "reason": "gm_decision", "winner": winner}
        return {"state": state, "reason": "turn_limit"}

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


def label_key(path: str) -> str:
    """An option path without its side and the id that ends it: ``active.actions[kind=move].paths.a-u1`` gives
    ``actions[kind=move].paths``, the key of its label."""
    return ARRIVAL_ID.sub(".arrivals.", ID_TAIL.sub(r".\1", "." + path.partition(".")[2]))[1:]


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
