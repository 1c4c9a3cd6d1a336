"""D&D 5e: two sides (``A`` and ``B``) of regiments, skirmishers and solos on a square map (spec S3, S5.1, S9).

Setup: the GM picks one of the campaign's square maps, the edge along which
each side deploys, who attacks the map's objective squares and the victory
points of attrition.  Every stand and solo is then placed in its side's band
(front line first, a unit's stands side by side, never on a square the
engine's ``new-battle`` would refuse for lack of room or of a swim speed);
the GM may move them before round 1 (:meth:`DnD5e.placement`).

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
UNBUILT = {
    "solo_fallbacks": {"<solo id>": {"reattach_to": "<stand id>"}},
    "adjustments": [{"type": "set_hp", "id": "<stand id>", "hp": 4}, {"type": "remove", "id": "<solo id>"}],
}
# Fields of a stand's or a solo's orders and the actions that use them (S9.13.2).
ACTION_FIELDS = {"spell": ("cast_spell",), "attacks": ("attack",), "support": ("attack",), "hide": ("hide",),
                 "join": ("join",)}


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
    # Players read the round's events, log and dice, less what names an enemy hidden from them
    # (S11.3, :meth:`DnD5e.report`).
    round_log_public = True
    # Enemy hit points are a coarse indicator for players (S11.3): each side charts its own.
    strength_public = False
    # ``end-battle`` takes the points, not a winner (S9.14).
    gm_names_winner = False
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
    value_labels = {
        # Actions (S6.5) and a stand's own action under Cast a Spell.
        "attack": gettext_lazy("Attack"),
        "cast_spell": gettext_lazy("Cast a spell"),
        "configure": gettext_lazy("Configure"),
        "dash": gettext_lazy("Dash"),
        "hide": gettext_lazy("Hide"),
        "disengage": gettext_lazy("Disengage"),
        "join": gettext_lazy("Join a stand"),
        "none": gettext_lazy("Nothing"),
        # Configurations (S6.4) and unit types (S6.3).
        "support": gettext_lazy("Support"),
        "defense": gettext_lazy("Defense"),
        "march": gettext_lazy("March"),
        "regiment": gettext_lazy("regiment"),
        "skirmishers": gettext_lazy("skirmishers"),
        # Timings of a solo.
        "before_action": gettext_lazy("before its action"),
        "after_action": gettext_lazy("after its action"),
        "before_stands": gettext_lazy("before the unit's stands"),
        "after_stands": gettext_lazy("after the unit's stands"),
        # Bonus actions of commanders (S6.6).
        "prepare": gettext_lazy("Prepare"),
        "motivate": gettext_lazy("Motivate"),
        "rally": gettext_lazy("Rally"),
        "become_commander": gettext_lazy("Take command of the unit"),
        "cease_commander": gettext_lazy("Give up the command"),
        # Directions of a road step or a spell.
        "north": gettext_lazy("north"),
        "east": gettext_lazy("east"),
        "south": gettext_lazy("south"),
        "west": gettext_lazy("west"),
        # States of stands and solos (S3.3, S3.5, S11.3).
        "active": gettext_lazy("active"),
        "casualty": gettext_lazy("casualty"),
        "eliminated": gettext_lazy("eliminated"),
        "fled": gettext_lazy("fled"),
        "dying": gettext_lazy("dying"),
        "stable": gettext_lazy("stable"),
        "dead": gettext_lazy("dead"),
        "unhurt": gettext_lazy("unhurt"),
        "wounded": gettext_lazy("wounded"),
        # Outcomes of the battle (S6.12).
        "total_victory": gettext_lazy("total victory"),
        "tactical_victory": gettext_lazy("tactical victory"),
        "draw": gettext_lazy("draw"),
        "extra_round": gettext_lazy("one more round"),
        # Events of a round (S9.13.4).
        "adjustment": gettext_lazy("Adjustment"),
        "turn": gettext_lazy("Turn"),
        "turn_skipped": gettext_lazy("Turn skipped"),
        "bonus_action": gettext_lazy("Bonus action"),
        "commander_change": gettext_lazy("Change of commander"),
        "move": gettext_lazy("Move"),
        "attack_skipped": gettext_lazy("Attack lost"),
        "spell": gettext_lazy("Spell"),
        "spell_effect": gettext_lazy("Effect of a spell"),
        "damage": gettext_lazy("Damage"),
        "overflow": gettext_lazy("Excess damage"),
        "overflow_wasted": gettext_lazy("Excess damage lost"),
        "detach": gettext_lazy("Leaves its stand"),
        "switch": gettext_lazy("Changes stand"),
        "stand_eliminated": gettext_lazy("Stand eliminated"),
        "shift": gettext_lazy("Takes the fallen stand's place"),
        "solo_placed": gettext_lazy("Solo placed"),
        "solo_unplaced": gettext_lazy("Solo awaiting a place"),
        "unit_eliminated": gettext_lazy("Unit eliminated"),
        "death_saves": gettext_lazy("Death saves"),
        "morale": gettext_lazy("Morale"),
        "vp": gettext_lazy("Victory points"),
        "battle_over": gettext_lazy("End of the battle"),
        "unit": gettext_lazy("unit"),
        "solo": gettext_lazy("solo"),
        # Why a turn is skipped, a move stops, a dying solo's saves end (S9.13.4).
        "surprised": gettext_lazy("surprised"),
        "attached": gettext_lazy("acts with its stand"),
        "acted": gettext_lazy("has already acted"),
        "cannot_act": gettext_lazy("cannot act"),
        "unplaced": gettext_lazy("awaits a place"),
        "path_broken": gettext_lazy("the path is broken"),
        "enemy_adjacent": gettext_lazy("next to an enemy"),
        "insufficient_movement": gettext_lazy("not enough movement"),
        "impassable_terrain": gettext_lazy("impassable terrain"),
        "occupied": gettext_lazy("the square is taken"),
        "revived": gettext_lazy("back on its feet"),
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

    def placement(self, setup_input: dict, piece_id: str, cell) -> dict:
        """A new ``new-battle`` input with one stand or detached solo anchored at ``cell``; the engine judges it."""
        target = [int(v) for v in cell]
        changed = copy.deepcopy(setup_input)
        for unit in changed.get("units", {}).values():
            for stand in unit.get("stands", []):
                if stand.get("id") == piece_id:
                    stand["position"] = target
                    return changed
        solo = changed.get("solos", {}).get(piece_id)
        if solo is None:
            raise ValidationError(_("No stand or solo of this battle is called %(id)s.") % {"id": piece_id})
        if solo.get("attached_to"):
            raise ValidationError(_("%(name)s is with a stand and moves with it.") % {"name": solo.get("name", piece_id)})
        solo["position"] = target
        return changed

    # -- declarations -----------------------------------------------------------

    def merge_declarations(self, rows) -> dict:
        """The S9.13.2 object: ``stands[i]`` paths go to index ``i`` of the unit's list of stand orders."""
        merged: dict = {}
        for row in rows:
            for path, value in sorted(row.data.items()):
                value = _engine_value(path, value)
                node = merged
                *parents, last = path.split(".")
                for name in parents:
                    item = STAND_ITEM.match(name)
                    if item is None:
                        node = node.setdefault(name, {})
                        continue
                    orders = node.setdefault("stands", [])
                    orders.extend({} for _missing in range(int(item.group(1)) + 1 - len(orders)))
                    node = orders[int(item.group(1))]
                node[last] = value
        for unit in merged.get("units", {}).values():
            if "stands" in unit:  # an order that names no stand is not one (the form always sends it)
                unit["stands"] = [order for order in unit["stands"] if order.get("stand")]
            _unit_orders_for_its_action(unit)
        for solo in merged.get("solos", {}).values():
            _drop_unused(solo, solo.get("action", "none"))
        return merged

    def declaration_form(self, viewer, key: str, kind: str, ref: str, answer: dict, declared: dict,
                         posted=None) -> tuple[dict, str]:
        """The form's options as :meth:`form_options` leaves them; a broken unit's orders are the GM's (S11.1)."""
        state = viewer.battle.state
        if kind == "unit" and not viewer.is_gm and state.get("units", {}).get(ref, {}).get("broken"):
            return {**answer, "options": []}, ""
        side = None if viewer.is_gm else viewer.side
        return {**answer, "options": self.form_options(answer.get("options", []), state, side)}, ""

    def participant_public(self, state: dict, participant) -> bool:
        """A unit all of whose stands are hidden, or a hidden solo, is unknown to the enemy (S11.3)."""
        if participant.kind == "solo":
            return not state.get("solos", {}).get(participant.ref, {}).get("hidden")
        if participant.kind == "unit":
            stands = [state.get("stands", {}).get(sid, {})
                      for sid in state.get("units", {}).get(participant.ref, {}).get("stands", [])]
            return not stands or not all(stand.get("hidden") for stand in stands)
        return True

    def orders_secret(self, state: dict, participant) -> bool:
        """The GM's orders for a broken unit are not shown to its side before resolution (S11.3)."""
        return participant.kind == "unit" and bool(state.get("units", {}).get(participant.ref, {}).get("broken"))

    def may_see(self, viewer, entry: dict) -> bool:
        """A player reads no event naming an enemy hidden from their side now (S11.3): its moves stay secret.

        Once revealed (it attacked, or the GM showed it), its past events show again, squares never.
        """
        return viewer.is_gm or not _names_any(entry, _hidden_from(viewer.battle.state, viewer.side))

    def report(self, viewer, events: list, log: list, dice: dict, before: dict) -> tuple[list, list, dict]:
        """A player reads the round as S11.3 allows: an attack by a stand hidden when the round began is
        shown, but no square of that stand's events, and no log step nor die naming it (they give its
        squares and its modifiers); the same for one hidden now.  The GM reads everything."""
        if viewer.is_gm:
            return events, log, dice
        was_hidden = _hidden_from(before, viewer.side)
        hidden = was_hidden | _hidden_from(viewer.battle.state, viewer.side)
        events = [_without_squares(event) if _names_any(event, was_hidden) else event
                  for event in events if self.may_see(viewer, event)]
        return (events, [step for step in log if not _names_any(step, hidden)],
                {name: value for name, value in dice.items() if not _names_any(name, hidden)})

    def form_options(self, options: list[dict], state: dict, side: str | None) -> list[dict]:
        """The options a declaration form offers ``side`` (None: the GM).

        Left out: a null choice the form's own empty one repeats; for a side, what the generic
        form cannot build (the solos' fallbacks, objects with several fields: the GM writes
        them, and the GM's adjustments, as JSON, ``UNBUILT``); an area spell's origin becomes the squares any of the caster's area spells
        may start from); a stand's own action when its unit cannot cast a spell now (it is
        used only then); and, for a side, every enemy hidden from it (S11.3):
        ``declaration-options`` answers for the whole state, so an attack list would name a
        hidden stand and give its distance.
        """
        casting = {o["path"].rsplit(".", 1)[0] for o in options
                   if o["path"].endswith(".action") and "cast_spell" in (o.get("allowed") or [])}
        options = [_without_null_choice(_origin_squares(o)) for o in options if not _idle_own_action(o, casting)]
        if side is None:
            return [_as_json(o) for o in options]
        options = [o for o in options if o["path"].rsplit(".", 1)[-1] not in UNBUILT]
        hidden = _hidden_from(state, side)
        if not hidden:
            return options
        out = []
        for option in options:
            option = dict(option)
            if isinstance(option.get("allowed"), list):
                option["allowed"] = [v for v in option["allowed"] if not _names_any(v, hidden)]
            option["forbidden"] = [f for f in option.get("forbidden") or [] if not _names_any(f, hidden)]
            out.append(option)
        return out

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

    def option_label(self, option: dict) -> str:
        parts = option["path"].split(".")
        stand = next((STAND_ITEM.match(p) for p in parts if STAND_ITEM.match(p)), None)
        if stand is None:
            return super().option_label(option)
        label = _("Own action while the unit casts") if parts[-1] == "action" else super().option_label(option)
        return _("Stand %(n)s — %(what)s") % {"n": int(stand.group(1)) + 1, "what": label}

    # Reports name units, solos and stands from the state the reader may see (forms keep their own labels).
    reports_use_state = True

    def value_label(self, value, state=None) -> str:
        if value is None:
            return _("None")
        if isinstance(value, dict):
            return _dict_label(self, value)
        if isinstance(value, list):
            if not value:
                return _("None")
            if _is_square(value):
                return self.cell_label(value)
            if all(_is_square(item) for item in value):
                return self.path_label(value)
            return ", ".join(self.value_label(item) for item in value)
        if isinstance(value, str) and value not in self.value_labels:
            named = _named(state, value)
            if named:
                return named
            found = ENGINE_ID.match(value)
            if found:
                words = found["name"].replace("_", " ").strip().capitalize()
                return f"{words} {found['n']}" if found["n"] else words
        return super().value_label(value)

    # -- state, map, end -------------------------------------------------------------

    def finished(self, state: dict) -> bool:
        return bool(state.get("battle_over"))

    def winner(self, state: dict) -> str | None:
        """The side with more victory points (``end-battle`` says by how much, S6.12)."""
        points = {side: entry.get("victory_points", 0) for side, entry in state.get("sides", {}).items()}
        if len(set(points.values())) < 2:
            return None
        return max(points, key=points.get)

    def strength(self, state: dict) -> dict[str, float]:
        out = {side: 0 for side in self.sides}
        units = state.get("units", {})
        for stand in state.get("stands", {}).values():
            side = units.get(stand.get("unit"), {}).get("side")
            if side in out and stand.get("status") in ("active", "casualty"):
                out[side] += stand.get("hp") or 0
        for solo in state.get("solos", {}).values():
            if solo.get("side") in out and solo.get("condition") not in ("dead", "fled"):
                out[solo["side"]] += solo.get("hp") or 0
        return out

    def map_source(self, battle):
        from masscombat.maps.selectors import battle_source

        return battle_source(battle.state) if battle.state.get("map") else None

    def map_pieces(self, battle, state: dict, viewer) -> list[dict]:
        """The pieces of the state this viewer may see (the room passes the side's ``visible-state``)."""
        from masscombat.maps.selectors import pieces_of

        return pieces_of(state, self.slug, None if viewer.is_gm else viewer.side)

    def tie(self, state: dict) -> bool:
        """The round ended the battle (S5.13.5) with equal victory points: draw or one more round (S7.7)."""
        return self.finished(state) and self.winner(state) is None

    def end_input(self, state: dict, winner: str | None, on_tie: str = "draw") -> tuple[str, dict]:
        """S9.14 from the final state: victory points and units not eliminated.

        S9.14 takes no winner: the victory points decide (S6.12).  The one choice it leaves the GM
        is ``on_tie``; ending the battle on equal points is the GM's draw.  A winner the points
        do not make is refused rather than silently dropped.
        """
        if winner is not None and winner != self.winner(state):
            raise ValidationError({"winner": _("The victory points decide who wins: end the battle without "
                                               "naming a winner.")})
        sides = {side: {"victory_points": entry.get("victory_points", 0),
                        "surviving_units": sorted(uid for uid, unit in state.get("units", {}).items()
                                                  if unit.get("side") == side and unit.get("eliminated_round") is None)}
                 for side, entry in state.get("sides", {}).items()}
        return "end-battle", {"sides": sides, "on_tie": on_tie,
                              "victory_threshold": state.get("victory_threshold", 10)}

    def one_more_round(self, state: dict) -> tuple[str, dict, dict]:
        """S7.7: ``end-battle`` with ``on_tie: extra_round``, and ``battle_over`` back to false for ``resolve-round``."""
        op, payload = self.end_input(state, None, on_tie="extra_round")
        return op, payload, {**state, "battle_over": False}

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


def _engine_value(path: str, value):
    """A form's value as S9.13.2 writes it (targets by id, attacks without the option's extra facts)."""
    last = path.rsplit(".", 1)[-1]
    if last in ("move", "move_after") and value and isinstance(value[0], list) and value[0] \
            and isinstance(value[0][0], list):
        return value[0]  # several paths ticked (a form without the map picker): the first one
    if last == "attacks":
        return [{"attack": a["attack"], "target": a["target"]} for a in value if isinstance(a, dict)]
    if last == "targets" and ".spell." in f".{path}":
        return [t["target"] if isinstance(t, dict) else t for t in value]
    if last == "if_rallied" and isinstance(value, str):
        return {"action": value}
    if last == "award_vp":
        return [v if isinstance(v, dict) else {"side": v, "vp": 1, "reason": "GM"} for v in value]
    if last == "isolation_overrides" and isinstance(value, str):
        return {value: False}
    return value


def _unit_orders_for_its_action(unit: dict) -> None:
    """A form shows every field whatever the action chosen (defaults included): the fields another
    action would use are left out, as S9.13.2 writes them ("configure only", a stand's own action
    "only under cast_spell"), so that an untouched box does not void the unit's orders."""
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


def _named(state: dict | None, value: str) -> str | None:
    """A unit, solo or stand id by its name in ``state`` (the one the reader may see: a hidden stand is
    not in it, so it is never named); a stand is its unit's name and its number."""
    if not state:
        return None
    for key in ("units", "solos"):
        found = (state.get(key) or {}).get(value)
        if found and found.get("name") and found.get("stands", True):  # a side's view empties a hidden unit's stands
            return found["name"]
    stand = (state.get("stands") or {}).get(value)
    unit = (state.get("units") or {}).get(stand["unit"], {}) if stand else {}
    if not unit.get("name"):
        return None
    number = ENGINE_ID.match(value)
    return f"{unit['name']} {number['n']}" if number and number["n"] else unit["name"]


def _hidden_from(state: dict, side: str | None) -> set[str]:
    """Ids of the stands and solos of the other side that are hidden (S5.8.5)."""
    units = state.get("units", {})
    hidden = {sid for sid, stand in state.get("stands", {}).items()
              if stand.get("hidden") and units.get(stand.get("unit"), {}).get("side") != side}
    return hidden | {hid for hid, solo in state.get("solos", {}).items() if solo.get("hidden") and solo.get("side") != side}


def _as_json(option: dict) -> dict:
    """A GM's option the generic form cannot build, marked to be written as JSON, with its example."""
    example = UNBUILT.get(option["path"].rsplit(".", 1)[-1])
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


def _idle_own_action(option: dict, casting: set[str]) -> bool:
    """A stand's own action (``units.u.stands[i].action``) when its unit may not cast a spell now."""
    head, _sep, last = option["path"].rpartition(".")
    return last == "action" and ".stands[" in head and head.split(".stands[")[0] not in casting


def _names_any(value, ids: set[str]) -> bool:
    """Whether an option value (or a forbidden entry, reason included) names one of ``ids``."""
    if isinstance(value, str):
        return value in ids or any(re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", value) for i in ids)
    if isinstance(value, dict):
        return any(_names_any(v, ids) for v in value.values())
    if isinstance(value, list):
        return any(_names_any(v, ids) for v in value)
    return False


def _without_squares(event: dict) -> dict:
    """An event without its squares (a move's start and end, a path): where a hidden stand was stays secret."""
    return {key: value for key, value in event.items()
            if not (_is_square(value) or isinstance(value, list) and value and all(_is_square(v) for v in value))}


def _is_square(value) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool)
                                                               for v in value)


def _dict_label(adapter: DnD5e, value: dict) -> str:
    if "attack" in value and "target" in value:
        label = f"{value['attack']} → {adapter.value_label(value['target'])}"
        if isinstance(value.get("distance"), int):
            label += " (%s)" % (ngettext("%(n)s square", "%(n)s squares", value["distance"]) % {"n": value["distance"]})
        return label
    if "spell" in value and "target" in value:
        return f"{value['spell']} → {adapter.value_label(value['target'])}"
    if "if_eliminated" in value:
        return _("if %(fallen)s falls: %(shift)s") % {"fallen": adapter.value_label(value["if_eliminated"]),
                                                      "shift": adapter.value_label(value.get("shift"))}
    return " · ".join(adapter.value_label(v) for v in value.values())


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
