"""JdRWiki: two armies (sides ``a`` and ``b``), one corps each, deployed on a zone map (spec S3, S5.2, S9.9).

The GM picks a zone map of the campaign and the zone where each army
deploys; the side commander declares the corps' actions, its advantage
allocation and which heroes intervene; each hero's player declares that
hero's own choices, which the engine reads inside the corps' list of
interventions (``corps.<id>.heroes[].<hero>.<field>``).  After the battle,
``battle-aftermath`` gives each hero's fate and each army's losses: heroes'
fates and heroism points go back to the roster, and each army's history
records its losses.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from masscombat.battles.adapters import Adapter, ParticipantSpec, RosterUpdate
from masscombat.rosters.labels import CHOICES

HERO_ITEM = "[]"
REROLL = "rerolls[]."


def _zone_choices(campaign) -> list[tuple[str, str]]:
    from masscombat.maps.models import BattleMap

    choices = []
    for battle_map in BattleMap.objects.filter(campaign=campaign, kind="zones").order_by("name", "pk"):
        for zone_id, zone in sorted((battle_map.data or {}).get("zones", {}).items()):
            choices.append((f"{battle_map.pk}:{zone_id}", f"{battle_map.name} — {zone.get('name') or zone_id}"))
    return choices


class JdRWiki(Adapter):
    slug = "jdrwiki"
    uses_map = True
    map_kind = "zones"
    # S11.3: the log tells the enemy's allocation and heroism; players get the events marked for them.
    round_log_public = False
    strength_label = gettext_lazy("Hit points of the corps")
    option_labels = {
        "ruthless": gettext_lazy("Ruthless mode"),
        "heroism": gettext_lazy("Heroism points to spend"),
        "save_from_fatal": gettext_lazy("Save from a fatal blow"),
        "withdraw": gettext_lazy("Withdraw the army from the battle"),
        "actions": gettext_lazy("Actions of the corps"),
        "environment": gettext_lazy("Advantage on environment"),
        "security": gettext_lazy("Advantage on security"),
        "focus": gettext_lazy("Advantage on focus"),
        "protection": gettext_lazy("Advantage on protection"),
        "fury": gettext_lazy("Advantage on fury"),
        "preparation": gettext_lazy("Advantage on preparation"),
        "defensive_counter": gettext_lazy("Defensive counter-attack against"),
        "heroes": gettext_lazy("Heroes who intervene"),
        "sacrifice": gettext_lazy("Accept a sacrifice"),
        "moderation": gettext_lazy("Moderate use (rounds of cooldown removed)"),
        "dropped_bonuses": gettext_lazy("Bonuses given up: exactly two per round of cooldown removed"),
    }
    value_labels = {
        "combined_assault": gettext_lazy("Combined assault"),
        "massive_assault": gettext_lazy("Massive assault"),
        "subtle_assault": gettext_lazy("Subtle assault"),
        "total_melee": gettext_lazy("Total melee"),
        "push_back": gettext_lazy("Push back"),
        "provoke": gettext_lazy("Provoke"),
        "barrage": gettext_lazy("Barrage"),
        "charge": gettext_lazy("Charge"),
        "move": gettext_lazy("Move"),
        "pincer": gettext_lazy("Pincer"),
        "divide": gettext_lazy("Divide the army"),
        "regroup": gettext_lazy("Regroup the army"),
        "withdraw": gettext_lazy("Withdraw"),
        "modify_terrain": gettext_lazy("Modify the terrain"),
        "weaken": gettext_lazy("Weaken"),
        "break_morale": gettext_lazy("Break morale"),
        "snare": gettext_lazy("Snare"),
        "espionage": gettext_lazy("Espionage"),
        "mining": gettext_lazy("Mining"),
        "active": gettext_lazy("active"),
        "fled": gettext_lazy("fled"),
        "annihilated": gettext_lazy("annihilated"),
        "out": gettext_lazy("out of the fight"),
        "unharmed": gettext_lazy("unharmed"),
        "wounded": gettext_lazy("wounded"),
        "dead": gettext_lazy("dead"),
        "victorious": gettext_lazy("victorious"),
        "standing": gettext_lazy("standing"),
        "commander": gettext_lazy("the commander"),
        # Events of a round (S11.3).
        "action": gettext_lazy("Action"),
        "allocation": gettext_lazy("Advantage allocated"),
        "battle_ended": gettext_lazy("End of the battle"),
        "corps_destroyed": gettext_lazy("Corps destroyed"),
        "damage": gettext_lazy("Damage"),
        "fatal_blow_cancelled": gettext_lazy("Fatal blow cancelled"),
        "hero_death": gettext_lazy("Death of a hero"),
        "hero_intervention": gettext_lazy("Hero intervention"),
        "initiative": gettext_lazy("Initiative"),
        "melee": gettext_lazy("Melee"),
    }

    # -- setup ------------------------------------------------------------------

    def setup_fields(self, campaign) -> dict:
        choices = _zone_choices(campaign)
        return {
            "deploy_a": forms.ChoiceField(label=gettext_lazy("Side A deploys in"), choices=choices),
            "deploy_b": forms.ChoiceField(label=gettext_lazy("Side B deploys in"), choices=choices),
        }

    def clean_setup(self, options: dict) -> dict[str, str]:
        a, b = options.get("deploy_a"), options.get("deploy_b")
        if a and b and a.split(":")[0] != b.split(":")[0]:
            return {"deploy_b": _("Both armies deploy on the same map.")}
        return {}

    def stored_map(self, options: dict):
        """The zone map both armies deploy on: its id leads each deployment choice (``"<map id>:<zone>"``)."""
        return super().stored_map({"map": str(options.get("deploy_a", "")).split(":")[0]})

    def new_battle_input(self, *, name: str, armies: dict, heroes: list, options: dict) -> tuple[dict, list]:
        from masscombat.maps.engine import engine_map

        battle_map = self.stored_map(options)
        payload_armies, participants = [], []
        for side, army in armies.items():
            zone = str(options.get(f"deploy_{side}", "")).split(":")[-1]
            payload_armies.append({**army.data, "id": side, "side": side, "name": army.name[:80],
                                   "corps": [{"id": f"{side}1", "zone": zone}]})
            participants.append(ParticipantSpec("side", side, side, army.name, army.commander, army_id=army.pk))
        hero_inputs, taken = [], set()
        for hero, side in heroes:
            ref = str(hero.data.get("id") or f"h{hero.pk}")
            if ref in taken:
                ref = f"h{hero.pk}"
            taken.add(ref)
            hero_inputs.append({**hero.data, "id": ref, "name": hero.name[:80], "army_id": side,
                                "corps_id": f"{side}1"})
            participants.append(ParticipantSpec("hero", ref, side, hero.name, hero.owner, hero_id=hero.pk))
        payload = {"name": name, "map": engine_map(battle_map) if battle_map else {"zones": {}},
                   "armies": payload_armies, "heroes": hero_inputs}
        return payload, participants

    # -- declarations -----------------------------------------------------------

    def merge_declarations(self, rows) -> dict:
        """Paths first, then each hero's choices into its entry of the corps' intervention list.

        A hero whose commander did not send him in has nothing to choose: his choices are left out.
        """
        rows = list(rows)
        plain = [(path, value) for row in rows for path, value in sorted(row.data.items()) if HERO_ITEM not in path]
        merged: dict = {}
        rerolls = sorted(path.removeprefix(REROLL) for row in rows for path, value in row.data.items()
                         if path.startswith(REROLL) and value is True)
        if rerolls:
            merged["rerolls"] = rerolls  # S5.4.1: one box per corps, ``rerolls[].<corps>``
        for path, value in plain:
            node = merged
            *parents, last = path.split(".")
            for name in parents:
                node = node.setdefault(name, {})
            node[last] = value
        for row in rows:
            for path, value in sorted(row.data.items()):
                if HERO_ITEM not in path or path.startswith(REROLL):
                    continue
                head, tail = path.split(HERO_ITEM + ".", 1)  # "corps.a1.heroes", "ildar.heroism"
                hero_id, field = tail.split(".", 1)
                node = merged
                for name in head.split("."):
                    node = node.get(name) if isinstance(node, dict) else None
                    if node is None:
                        break
                entry = next((item for item in node or [] if isinstance(item, dict)
                              and item.get("hero_id") == hero_id), None)
                if entry is not None:
                    entry[field] = value
        return merged

    def option_label(self, option: dict) -> str:
        if option["path"].startswith(REROLL):
            return _("Re-roll the initiative of %(corps)s") % {"corps": option["path"].removeprefix(REROLL)}
        if HERO_ITEM in option["path"]:
            field = option["path"].rsplit(".", 1)[-1]
            label = self.option_labels.get(field)
            if field == "heroism":
                return _("Spend a heroism point")
            return str(label) if label is not None else option.get("label", field)
        return super().option_label(option)

    def value_label(self, value, state=None) -> str:
        if value is None:
            return _("None")
        if isinstance(value, dict):
            if "hero_id" in value and len(value) == 1:
                return value["hero_id"]
            if "action" in value:
                rest = [str(self.value_label(v)) for k, v in value.items() if k != "action"]
                return " · ".join([str(self.value_label(value["action"])), *rest])
            if "pool" in value:
                return f"{self.value_label(value['pool'])} → {value.get('use', '')}"
            return " ".join(str(self.value_label(v)) for v in value.values())
        if isinstance(value, list):
            return " → ".join(str(self.value_label(item)) for item in value)
        if isinstance(value, str) and value not in self.value_labels and value in CHOICES:
            return str(CHOICES[value])  # a skill, damage or protection: a hero's bonus given up
        return super().value_label(value)

    # -- state, map, end -------------------------------------------------------------

    def finished(self, state: dict) -> bool:
        return bool(state.get("ended"))

    def winner(self, state: dict) -> str | None:
        return state.get("winner")

    def strength(self, state: dict) -> dict[str, float]:
        out = {side: 0 for side in self.sides}
        armies = state.get("armies", {})
        for corps in state.get("corps", {}).values():
            side = armies.get(corps.get("army_id"), {}).get("side")
            if side in out and corps.get("hp") is not None:
                out[side] += corps["hp"]
        return out

    def side_label(self, side: str, state: dict | None = None) -> str:
        for army in ((state or {}).get("armies") or {}).values():
            if army.get("side") == side and army.get("name"):
                return army["name"]
        return super().side_label(side)

    def map_source(self, battle):
        return self.stored_map(battle.setup.get("options", {})) or battle.state.get("map")

    def map_pieces(self, battle, state: dict, viewer) -> list[dict]:
        armies = state.get("armies", {})
        pieces = []
        for corps_id, corps in sorted(state.get("corps", {}).items()):
            army = armies.get(corps.get("army_id"), {})
            side = army.get("side")
            badges = [] if corps.get("status", "active") == "active" else ["routed"]
            pieces.append({"id": corps_id, "at": corps.get("zone"), "label": corps_id,
                           "title": f"{army.get('name', '')} — {corps_id}",
                           "side_index": self.sides.index(side) if side in self.sides else 0,
                           "kind": "corps", "badges": badges, "mine": side in viewer.sides})
        return pieces

    def end_input(self, state: dict, winner: str | None) -> tuple[str, dict]:
        """The aftermath of the state as it ends, with the GM's winner where the rules name none.

        ``battle-aftermath`` takes the winner from ``state.winner`` and, only
        when that is null, from the corps left standing (S9.11).  A winner the
        rules decided stays; otherwise the GM's choice (S5.15.1: "the GM may
        set the winner") goes into the state, with ``ended`` as after a GM's
        ``end_battle``, so the armies' status (victorious / standing) follows it.
        """
        if state.get("winner") is not None or winner is None:
            return "battle-aftermath", {"state": state}
        return "battle-aftermath", {"state": {**state, "ended": True, "winner": winner}}

    def roster_updates(self, aftermath: dict, participants: list) -> list[RosterUpdate]:
        """Heroes' fates and heroism points; each army's history gets its losses (its data is unchanged)."""
        from masscombat.rosters.models import Army

        updates = []
        for participant in participants:
            if participant.kind == "hero" and participant.hero_id is not None:
                result = aftermath.get("heroes", {}).get(participant.ref)
                if result is not None:
                    status = {"unharmed": "active"}.get(result["fate"], result["fate"])
                    updates.append(RosterUpdate("hero", participant.hero_id,
                                                {"heroism_points": result.get("heroism_points", 0)},
                                                status=status, summary={"fate": result["fate"]}))
            elif participant.kind == "side" and participant.army_id is not None:
                result = aftermath.get("armies", {}).get(participant.ref)
                army = Army.objects.filter(pk=participant.army_id).first()
                if result is not None and army is not None:
                    updates.append(RosterUpdate("army", army.pk, {}, summary={
                        "status": result["status"], "hp_final": result["hp_final"],
                        "hp_lost_percent": result["hp_lost_percent"]}))
        return updates


adapter = JdRWiki()
