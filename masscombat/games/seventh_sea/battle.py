"""7th Sea: two armies (sides ``a`` and ``b``), heroes, no map (spec S3, S9.10–S9.12, S11).

Side commanders declare a strategy and free raises, heroes an engagement and
whether they lend their Leadership; the GM may override.  A heroic
opportunity is an exchange within the round: the GM offers, the hero's player
answers (:mod:`.offers`).  The battle is won by three round
victories in a row (the state's ``outcome``); ``end-battle`` gives each
hero's Reputation and wounds, which go back to the roster.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from masscombat.battles.adapters import Adapter, ParticipantSpec, RosterUpdate, answers_with
from masscombat.games.seventh_sea import offers
from masscombat.core import engines, explain

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
        "strategy_attacker": _("Military strategy, secret until the round resolves (you attack this round)"),
        "strategy_defender": _("Military strategy, secret until the round resolves (you defend this round)"),
        "help_general_n": _("Lend my Leadership to the general (+%(n)s to the general, −2 to my own roll)"),
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
        "adjustments": _("Adjustments of heroes (wounds, status, effects)"),
        # The heroic opportunity (S6.10, S9.8): the GM's offer, then the player's answer.
        "opportunity": _("Heroic opportunity and its answer"),
        "offer": _("Heroic opportunity to offer"),
        "offered": _("The game master offers you"),
        "type": _("Heroic opportunity"),
        "accept": _("Accept the opportunity"),
        "tn": _("TN of the easy shot"),
        "captured": _("Standard-bearer beaten?"),
        "duel_won": _("Duel won by the hero?"),
        "opponent_id": _("Duel opponent (a hero of the other side)"),
        "refusal_reputation_loss": _("Reputation lost if the duel is refused"),
        "attack_trait": _("Attack Trait"),
        "attack_knack": _("Attack knack"),
        "tn_to_be_hit": _("My TN to be hit"),
    }

    # -- declarations: the opportunity exchange (S5.3, S7.3) -------------------------------------------

    def option_label(self, option: dict, names: dict[str, str] | None = None) -> str:
        """The field's label, named after its hero or side in the GM's form (where every hero has some)."""
        key = option.get("label_as") or option["path"].rsplit(".", 1)[-1]
        label = self.option_labels.get(key)
        text = str(label) if label is not None else explain.option_label(self.slug, option, names)
        if label is not None and option.get("label_params"):
            text %= option["label_params"]
        return f"{option['subject']} — {text}" if option.get("subject") else text

    def declaration_form(self, viewer, key: str, kind: str, ref: str, answer: dict, declared: dict,
                         posted=None) -> tuple[dict, str]:
        """The GM's offer and the player's answer follow the round's answers; the forms say what is imposed."""
        state = viewer.battle.state
        if kind == "gm":
            names = {f"{group}.{hero['id']}": hero["name"] for hero in state.get("heroes", [])
                     for group in ("heroes", "adjustments")}
            names.update({f"sides.{side}": self.side_label(side, state) for side in self.sides})
            if any(hero.get("opportunity_pending") for hero in state.get("heroes", [])):
                answer = self._ask(viewer, key, kind, ref, declared, posted) or answer
            return {**answer, "options": offers.gm_options(answer.get("options", []), names)}, ""
        if kind == "side":  # S11.1: the commander reads whether his army attacks or defends this round
            return {**answer, "options": [_strategy_role(option) for option in answer.get("options", [])]}, ""
        hero = next((h for h in state.get("heroes", []) if h["id"] == ref), None)
        if kind != "hero" or hero is None or hero.get("status") != "active":
            return answer, ""
        if hero.get("opportunity_pending"):
            answer = self._ask(viewer, key, kind, ref, declared, posted) or answer
        options = answer.get("options", [])
        level = offers.imposed(options)
        notes = [self._imposed_note(level)] if level is not None else []
        if hero.get("opportunity_pending"):
            accept = offers.answered(options)
            notes.insert(0, self.offer_note(accept, viewer) if accept else gettext(
                "A heroic opportunity is yours this round: the game master will propose one here."))
        return {**answer, "options": [_help_label(option) for option in offers.hero_options(options)]}, " ".join(notes)

    @staticmethod
    def _ask(viewer, key: str, kind: str, ref: str, declared: dict, posted):
        """The options of ``key`` with the round's answers (this form's as posted), as this viewer knows the
        battle: the engine keeps of them what the viewer may know (its own heroes' offers and answers)."""
        return offers.ask(viewer.battle, kind, ref, answers_with(declared, key, posted), viewer.engine_viewer(key))

    def _imposed_note(self, level: str) -> str:
        if not level:
            return gettext("At the doctor's this round: no engagement, no Leadership help.")
        return gettext("Engagement imposed this round: %(level)s.") % {"level": self.value_label(level)}

    def offer_note(self, accept: dict, viewer) -> str:
        """The offer in words: its name, and what it costs and brings with the terms the GM set, as the engine
        words them in the help of the answer's option (S11.1: "a short description of costs and gains")."""
        intro = gettext("The game master offers: %(name)s") if viewer.is_gm else gettext(
            "The game master offers you: %(name)s")
        kind = (accept.get("label_params") or {}).get("type")
        return " — ".join([intro % {"name": self.value_label(kind)}, explain.option_help(self.slug, accept)])

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

    def end_input(self, state: dict, winner: str | None) -> dict:
        """S9.12 wants the GM's word on a battle still running: ``none`` when the GM names nobody."""
        if winner is None and not engines.outcome(state).over:
            winner = "none"
        return super().end_input(state, winner)

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


def _strategy_role(option: dict) -> dict:
    """The strategy's label for the commander's role this round, as the engine's label names it (attacker or
    defender, S11.1)."""
    role = (option.get("label_key") or "").rpartition(".")[2]
    if option["path"].endswith(".strategy") and role in ("attacker", "defender"):
        return {**option, "label_as": f"strategy_{role}"}
    return option


def _help_label(option: dict) -> dict:
    """The Leadership help labelled with what it lends the general: the engine's figure (its label's parameter)."""
    leadership = (option.get("label_params") or {}).get("leadership")
    if option["path"].endswith(".help_general") and leadership is not None:
        return {**option, "label_as": "help_general_n", "label_params": {"n": leadership}}
    return option


adapter = SeventhSea()
