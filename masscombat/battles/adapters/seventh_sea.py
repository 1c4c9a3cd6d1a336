"""7th Sea: two armies (sides ``a`` and ``b``), heroes, no map (spec S3, S9.10–S9.12, S11).

Side commanders declare a strategy and free raises, heroes an engagement and
whether they lend their Leadership; the GM may override.  The battle is won
by three round victories in a row (the engine's ``finished``); ``end-battle``
gives each hero's Reputation and wounds, which go back to the roster.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from masscombat.battles.adapters import Adapter, ParticipantSpec, RosterUpdate


class OptionsForm(forms.Form):
    attacker = forms.ChoiceField(
        label=_("Army that attacks first"), choices=[("a", _("Side A")), ("b", _("Side B"))], initial="a"
    )
    wound_checks = forms.BooleanField(label=_("Wound checks"), required=False, initial=True)


class SeventhSea(Adapter):
    slug = "seventh_sea"
    strength_label = _("General's roll total")
    option_labels = {
        "strategy": _("Military strategy (secret until the round resolves)"),
        "free_raises_spent": _("Free raises to spend on the general's roll (+5 each)"),
        "engagement": _("Engagement level"),
        "help_general": _("Lend my Leadership to the general (−2 to my own roll)"),
        "gm_modifier": _("Manual modifier"),
        "wound_check_modifier": _("Manual modifier of the wound check"),
        "troops": _("Troops"),
        "fortification_level": _("Fortification level (5 = large castle)"),
        "high_ground": _("High ground"),
        "difficult_terrain": _("Difficult terrain"),
        "crossing_water": _("Crossing water"),
        "npc_heroes_front_line": _("Untracked heroes in the front line"),
        "npc_heroes_taken_out": _("Untracked heroes taken out"),
    }
    value_labels = {
        "march": _("Marche (MAR) — march"),
        "charge": _("Charge (CHA) — charge"),
        "envelopment": _("Enveloppement (ENV) — envelopment"),
        "flank_attack": _("Attaque de flanc (FLA) — flank attack"),
        "entrenchment": _("Retranchement (RET) — entrenchment"),
        "regroup": _("Regroupement (REG) — regroup"),
        "reconnaissance": _("Reconnaissance (REC) — reconnaissance"),
        "receive_charge": _("Recevoir la charge (REC-CHA) — receive the charge"),
        "in_ranks": _("En rangs (RAN) — in ranks"),
        "fall_back": _("Repli (REP) — fall back"),
        "support": _("Support"),
        "disengaged": _("Disengaged"),
        "engaged": _("Engaged"),
        "front_line": _("Front line"),
        "active": _("active"),
        "unconscious": _("unconscious"),
        "infantry": _("infantry"),
        "cavalry": _("cavalry"),
        "artillery": _("artillery"),
    }

    def new_battle_input(self, *, name: str, armies: dict, heroes: list, options: dict) -> tuple[dict, list]:
        """``armies`` = {side: Army}; ``heroes`` = [(Hero, side)]; roster data is the engine's own input."""
        sides, participants = {}, []
        for side, army in armies.items():
            sides[side] = {**army.data, "name": army.name[:80]}
            participants.append(ParticipantSpec("side", side, side, army.name, army.commander, army_id=army.pk))
        hero_inputs, taken = [], set()
        for hero, side in heroes:
            # The roster's own id reads better in the engine's log ("lucie: die 6..."); h<pk> if it clashes.
            ref = str(hero.data.get("id") or "")
            if not ref or ref in taken:
                ref = f"h{hero.pk}"
            taken.add(ref)
            hero_inputs.append({**hero.data, "id": ref, "name": hero.name[:80], "side": side,
                                "player": hero.owner.shown_name[:80] if hero.owner else None})
            participants.append(ParticipantSpec("hero", ref, side, hero.name, hero.owner, hero_id=hero.pk))
        payload = {
            "name": name,
            "attacker": options.get("attacker", "a"),
            "options": {"wound_checks": bool(options.get("wound_checks", True))},
            "sides": sides,
            "heroes": hero_inputs,
        }
        return payload, participants

    def setup_fields(self, campaign) -> dict:
        return dict(OptionsForm().fields)

    def finished(self, state: dict) -> bool:
        return bool(state.get("finished"))

    def winner(self, state: dict) -> str | None:
        return state.get("winner")

    def strength(self, state: dict) -> dict[str, float]:
        """The last round's general totals: the number that decides who wins it."""
        history = state.get("history") or []
        if not history:
            return {}
        return {side: history[-1]["totals"].get(side, 0) for side in self.sides}

    def end_input(self, state: dict, winner: str | None) -> tuple[str, dict]:
        if state.get("finished"):
            return "end-battle", {"state": state}
        return "end-battle", {"state": state, "winner": winner or "none"}

    def roster_updates(self, aftermath: dict, participants: list) -> list[RosterUpdate]:
        """Each hero's Reputation and wounds after the battle (S5.6); armies keep their troops."""
        updates = []
        for participant in participants:
            result = aftermath.get("heroes", {}).get(participant.ref)
            if participant.kind != "hero" or participant.hero_id is None or result is None:
                continue
            updates.append(RosterUpdate(
                "hero",
                participant.hero_id,
                {"reputation": result["reputation_after"], "flesh_wounds": result["flesh_wounds"],
                 "dramatic_wounds": result["dramatic_wounds"]},
                status="wounded" if result["status"] != "active" or result["dramatic_wounds"] else "active",
                summary={"reputation": result["reputation_after"],
                         "reputation_awarded": result["reputation_awarded"]},
            ))
        return updates


adapter = SeventhSea()
