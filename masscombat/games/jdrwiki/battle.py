"""JdRWiki: two armies (sides ``a`` and ``b``), one corps each, deployed on a zone map (spec S3, S5.2, S9.9).

The GM picks a zone map of the campaign and the zone where each army
deploys; the side commander declares the corps' actions, its advantage
allocation and which heroes intervene; each hero's player declares that
hero's own choices, which the engine reads inside the corps' list of
interventions (``corps.<id>.heroes[].<hero>.<field>``).  After the battle,
``end-battle`` gives each hero's fate and each army's losses: heroes'
fates and heroism points go back to the roster, and each army's history
records its losses.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from masscombat.battles.adapters import Adapter, ParticipantSpec, RosterUpdate, answers_with
from masscombat.core import engines, explain
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

    def declaration_form(self, viewer, key: str, kind: str, ref: str, answer: dict, declared: dict,
                         posted=None) -> tuple[dict, str]:
        """A hero's bonuses to give up follow the moderation he chooses (S4.10): with one chosen (posted, or
        stored), the engine is asked again with the answers of his side (his own as posted), which it reads as
        ``merge-declarations`` will (his choices count once his side sends him in), and offers exactly that many."""
        path = next((o["path"] for o in answer.get("options", []) if o["path"].endswith(".moderation")), None)
        played = viewer.participant(key)
        if kind != "hero" or path is None or played is None:
            return answer, ""
        own_side = {p.key for p in viewer.participants if p.side == played.side}
        answers = answers_with(declared, key, posted, own_side)
        if not answers.get(key, {}).get(path):
            return answer, ""
        try:
            return engines.declaration_options(self.slug, viewer.battle.state, {"kind": kind, "id": ref},
                                               viewer.engine_viewer(key), answers), ""
        except engines.Refused:
            return answer, ""

    def option_label(self, option: dict, names: dict[str, str] | None = None) -> str:
        if option["path"].startswith(REROLL):
            corps = option["path"].removeprefix(REROLL)
            return _("Re-roll the initiative of %(corps)s") % {"corps": (names or {}).get(corps, corps)}
        if HERO_ITEM in option["path"]:
            field = option["path"].rsplit(".", 1)[-1]
            label = self.option_labels.get(field)
            if field == "heroism":
                return _("Spend a heroism point")
            return str(label) if label is not None else explain.option_label(self.slug, option, names)
        return super().option_label(option, names)

    def value_label(self, value, names=None) -> str:
        if value is None:
            return _("None")
        if isinstance(value, dict):
            if "hero_id" in value and len(value) == 1:
                return (names or {}).get(value["hero_id"], value["hero_id"])
            if "action" in value:
                rest = [str(self.value_label(v, names)) for k, v in value.items() if k != "action"]
                return " · ".join([str(self.value_label(value["action"], names)), *rest])
            if "pool" in value:  # a heroism point: its pool, and its use when it has one (a refused pool has none)
                pool = self.value_label(value["pool"], names)
                return f"{pool} → {self.value_label(value['use'], names)}" if value.get("use") else str(pool)
            return " ".join(str(self.value_label(v, names)) for v in value.values())
        if isinstance(value, list):
            return " → ".join(str(self.value_label(item, names)) for item in value)
        if isinstance(value, str) and value not in self.value_labels and value in CHOICES:
            return str(CHOICES[value])  # a skill, damage or protection: a hero's bonus given up
        return super().value_label(value, names)

    # -- state, map, end -------------------------------------------------------------

    def side_label(self, side: str, state: dict | None = None) -> str:
        for army in ((state or {}).get("armies") or {}).values():
            if army.get("side") == side and army.get("name"):
                return army["name"]
        return super().side_label(side)

    def map_source(self, battle):
        return self.stored_map(battle.setup.get("options", {})) or battle.state.get("map")

    def map_pieces(self, battle, state: dict, viewer, names: dict[str, str]) -> list[dict]:
        """Each corps in its zone: titled by its engine name, labelled by its army's initials and its rank
        in that army (two corps of one army stay apart without showing an id)."""
        from masscombat.maps.selectors import initials

        armies = state.get("armies", {})
        pieces, ranks = [], {}
        for corps_id, corps in sorted(state.get("corps", {}).items()):
            army_id = corps.get("army_id")
            side = armies.get(army_id, {}).get("side")
            ranks[army_id] = ranks.get(army_id, 0) + 1
            badges = [] if corps.get("status", "active") == "active" else ["routed"]
            pieces.append({"id": corps_id, "at": corps.get("zone"),
                           "label": f"{initials(names.get(army_id), corps_id)}{ranks[army_id]}",
                           "title": names.get(corps_id, corps_id),
                           "side_index": self.sides.index(side) if side in self.sides else 0,
                           "kind": "corps", "badges": badges, "mine": side in viewer.sides})
        return pieces

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
