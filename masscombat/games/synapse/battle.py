"""SYNAPSE: two armies (sides ``A`` and ``B``) in formations, characters in units, no map.

Side commanders give each formation its order (spec S5.3, S11.1); the GM
sets the circumstances.  Formation ids hold a dot (``A.melee``): the engine
merges the answers knowing where; labels cut paths the same way.  After the
battle, ``end-battle`` gives each unit's headcount and each character's
damage; the rosters get the new headcounts and the wounded characters.
The other side's log is not public (S11.2): players see the round's events.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from masscombat.battles.adapters import Adapter, ParticipantSpec, RosterUpdate


class Synapse(Adapter):
    slug = "synapse"
    sides = ("A", "B")
    strength_label = _("Strength left (formations)")
    option_labels = {
        "retreat": _("Withdraw the whole army"),
        "commit_reserve": _("Commit the reserve"),
        "rally": _("Formations that try to rally"),
        "action": _("Order"),
        "target": _("Target (when it attacks)"),
        # The GM's circumstances of the round (S5.3).
        "new_command_test": _("Call a new command test"),
        "end_battle": _("End the battle"),
        "visibility": _("Visibility"),
        "strong_wind": _("Strong wind"),
        "extreme_temperature": _("Extreme temperature"),
        "gruelling_climate": _("Gruelling climate"),
        "engagement_distance": _("Engagement distance"),
        "mobility_edge": _("Side with the more mobile troops"),
        "numbers_advantage_allowed": _("Numerical advantage allowed"),
        "surprise_allowed": _("Surprise allowed"),
        "encircled": _("Encircled formations"),
        "command_modifiers": _("Command test modifier"),
        "rally_modifiers": _("Rally modifier"),
        "attack": _("Attack modifier"),
        "defence": _("Defence modifier"),
        "ranged_cover": _("Cover against shots modifier"),
        "distance": _("Distance of its shots"),
        "attack_power_factor": _("Firepower against its target"),
    }
    # GM paths whose third segment names the side or formation concerned (``gm.rally_modifiers.A.melee``).
    GM_GROUPS = ("command_modifiers", "rally_modifiers", "formation_modifiers")

    def option_label(self, option: dict, names: dict[str, str] | None = None) -> str:
        """Named after the formation or side it concerns, where the path holds one."""
        names = names or {}
        parts = _label_parts(option["path"])
        if len(parts) > 4 and parts[2] == "orders":  # sides.A.orders.<formation>.action
            return f"{names.get(parts[3], parts[3])} — {super().option_label(option, names)}"
        label = self.option_labels.get(parts[3] if len(parts) > 3 else parts[1]) if len(parts) > 2 else None
        if label is not None and parts[0] == "gm" and parts[1] in self.GM_GROUPS:
            subject = self.side_label(parts[2]) if parts[1] == "command_modifiers" else names.get(parts[2], parts[2])
            return f"{subject} — {label}"
        return super().option_label(option, names)

    def side_label(self, side: str, state: dict | None = None) -> str:
        name = ((state or {}).get("armies") or {}).get(side, {}).get("name")
        return name or super().side_label(side)

    def new_battle_input(self, *, name: str, armies: dict, heroes: list, options: dict) -> tuple[dict, list]:
        payload_armies, participants = {}, []
        for side, army in armies.items():
            payload_armies[side] = {**army.data, "name": army.name[:80], "characters": []}
            participants.append(ParticipantSpec("side", side, side, army.name, army.commander, army_id=army.pk))
        for hero, side in heroes:
            ref = str(hero.data.get("id") or f"c{hero.pk}")
            payload_armies[side]["characters"].append({**hero.data, "id": ref, "name": hero.name[:200]})
            participants.append(ParticipantSpec("character", ref, side, hero.name, hero.owner, hero_id=hero.pk))
        return {"armies": payload_armies}, participants

    def roster_updates(self, aftermath: dict, participants: list) -> list[RosterUpdate]:
        """New headcounts of each army's units; characters who took damage come back wounded."""
        from masscombat.rosters.models import Army

        updates = []
        for participant in participants:
            side = aftermath.get("sides", {}).get(participant.side, {})
            if participant.kind == "side" and participant.army_id is not None:
                army = Army.objects.filter(pk=participant.army_id).first()
                if army is None:
                    continue
                after = side.get("units", {})
                units = [
                    {**unit, "headcount": after.get(unit.get("id"), {}).get("headcount_after", unit.get("headcount"))}
                    for unit in army.data.get("units", [])
                ]
                # A unit with nobody left is gone from the roster; an army with no unit left stays as it
                # was, for the GM to decide (the aftermath shows its losses).
                units = [unit for unit in units if unit.get("headcount", 1) >= 1]
                if not units:
                    continue
                updates.append(RosterUpdate("army", army.pk, {"units": units}, summary={
                    "headcount": sum(unit.get("headcount") or 0 for unit in units),
                    "result": side.get("result")}))
            elif participant.kind == "character" and participant.hero_id is not None:
                result = side.get("characters", {}).get(participant.ref)
                if result is not None:
                    updates.append(RosterUpdate("hero", participant.hero_id, {},
                                                status="wounded" if result.get("damage") else "active",
                                                summary={"damage": result.get("damage", 0)}))
        return updates


def _label_parts(path: str) -> list[str]:
    """An option path cut where a label finds its formation (``A.melee``: ids hold a dot), for labels only."""
    parts = path.split(".")
    if parts[0] == "sides" and len(parts) > 4 and parts[2] == "orders":
        return parts[:3] + [f"{parts[3]}.{parts[4]}"] + parts[5:]
    if parts[0] == "gm" and len(parts) > 3 and parts[1] in ("formation_modifiers", "rally_modifiers"):
        return parts[:2] + [f"{parts[2]}.{parts[3]}"] + parts[4:]
    return parts


adapter = Synapse()
