"""7th Sea: two armies (sides ``a`` and ``b``), heroes, no map (spec S3, S9.10–S9.12, S11).

Side commanders declare a strategy and free raises, heroes an engagement and
whether they lend their Leadership; the GM may override.  A heroic
opportunity is an exchange within the round: the GM offers, the hero's player
answers (:mod:`.seventh_sea_offers`).  The battle is won by three round
victories in a row (the engine's ``finished``); ``end-battle`` gives each
hero's Reputation and wounds, which go back to the roster.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from masscombat.battles.adapters import Adapter, ParticipantSpec, RosterUpdate
from masscombat.battles.adapters import seventh_sea_offers as offers

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
        # The fourteen heroic opportunities (S6.12).
        "medic": _("Medic!"),
        "save_the_banner": _("Save the banner!"),
        "hold_the_position": _("Hold this position!"),
        "take_the_position": _("Take this position!"),
        "easy_shot": _("An easy shot!"),
        "push_them_back": _("Push them back!"),
        "rescue_comrade": _("To the rescue!"),
        "capture_enemy_banner": _("Capture the enemy banner!"),
        "prepare_to_die": _("Prepare to die!"),
        "unhorsed_rider": _("Unhorsed rider"),
        "charge_their_ranks": _("Charge their ranks"),
        "commander_is_dead": _("The commander is dead"),
        "wounded_porte_mage": _("Wounded Porté mage (Montaigne)"),
        "carry_the_message": _("Carry this message"),
        # Round events (S9.11) and their fields.
        "opportunity_started": _("Heroic opportunity started"),
        "opportunity_declined": _("Heroic opportunity declined"),
        "opportunity_lapsed": _("Heroic opportunity lapsed"),
        "opportunity_offered": _("Heroic opportunity offered"),
        "opportunity_ended": _("Heroic opportunity ended"),
        "round_result": _("Result of the round"),
        "hero_taken_out": _("Hero taken out"),
        "modifier_queued": _("Modifier for the next general's roll"),
        "battle_won": _("Battle won"),
        "completed": _("completed"),
        "taken_out": _("taken out"),
        "delivered": _("delivered"),
        "fled": _("the unit fled"),
        "duel": _("in a duel"),
        "wounds": _("by wounds"),
        "volley": _("by a volley"),
        "gm": _("by the game master"),
        "full": _("in full (side won)"),
        "half": _("half (side lost, or no winner)"),
        "porte_mage_loot": _("Porté mage's reward (loot roll +3)"),
    }

    # -- declarations: the opportunity exchange (S5.3, S7.3) -------------------------------------------

    def option_label(self, option: dict) -> str:
        """The field's label, named after its hero or side in the GM's form (where every hero has some)."""
        key = option.get("label_as") or option["path"].rsplit(".", 1)[-1]
        label = self.option_labels.get(key)
        text = str(label) if label is not None else option.get("label", option["path"])
        if label is not None and option.get("label_params"):
            text %= option["label_params"]
        return f"{option['subject']} — {text}" if option.get("subject") else text

    def merge_declarations(self, rows) -> dict:
        """The offer and the answer that counts make one ``opportunity`` per hero; an unanswered one lapses."""
        return offers.drop_unanswered(super().merge_declarations(offers.exchange_rows(rows)))

    def declaration_form(self, viewer, key: str, kind: str, ref: str, answer: dict, declared: dict,
                         posted=None) -> tuple[dict, str]:
        """The GM's offer and the player's answer follow the round's draft; the forms say what is imposed."""
        battle, state = viewer.battle, viewer.battle.state
        if kind == "gm":
            names = {f"heroes.{hero['id']}": hero["name"] for hero in state.get("heroes", [])}
            names.update({f"sides.{side}": self.side_label(side, state) for side in self.sides})
            if any(hero.get("opportunity_pending") for hero in state.get("heroes", [])):
                answer = offers.ask(battle, kind, ref, offers.draft(state, declared, key=key, posted=posted)) or answer
            return {**answer, "options": offers.gm_options(answer.get("options", []), names)}, ""
        if kind == "side":  # S11.1: the commander sees whether his army attacks or defends this round
            role = "strategy_attacker" if state.get("attacker") == ref else "strategy_defender"
            return {**answer, "options": [{**option, "label_as": role} if option["path"].endswith(".strategy")
                                          else option for option in answer.get("options", [])]}, ""
        hero = next((h for h in state.get("heroes", []) if h["id"] == ref), None)
        if kind != "hero" or hero is None or hero.get("status") != "active":
            return answer, ""
        offer = None
        if hero.get("opportunity_pending"):
            gm_data = declared[offers.GM_KEY].data if offers.GM_KEY in declared else {}
            offer = offers.offers(gm_data).get(ref)
            if offer:
                answer = offers.ask(battle, kind, ref, offers.draft(state, declared, key=key, posted=posted)) or answer
        options = answer.get("options", [])
        level = offers.imposed(options)
        notes = [self._imposed_note(level)] if level is not None else []
        if hero.get("opportunity_pending"):
            notes.insert(0, self.offer_note(offer, viewer) if offer else gettext(
                "A heroic opportunity is yours this round: the game master will propose one here."))
        help_label = {"label_as": "help_general_n", "label_params": {"n": hero.get("leadership", 0)}}
        options = [{**option, **help_label} if option["path"].endswith(".help_general") else option
                   for option in offers.hero_options(options, offer)]
        return {**answer, "options": options}, " ".join(notes)

    def may_see(self, viewer, entry: dict) -> bool:
        """Not the other side's offers, nor their answers when nothing started: its hero's side's to know (S11.2)."""
        if viewer.is_gm or (entry.get("type") or entry.get("key", "")).replace("_", ".") not in SECRET_OFFERS:
            return True
        hero_id = entry.get("hero_id") or (entry.get("params") or {}).get("hero_id")
        return any(hero["id"] == hero_id and hero["side"] in viewer.sides
                   for hero in viewer.battle.state.get("heroes", []))

    def _imposed_note(self, level: str) -> str:
        if not level:
            return gettext("At the doctor's this round: no engagement, no Leadership help.")
        return gettext("Engagement imposed this round: %(level)s.") % {"level": self.value_label(level)}

    def offer_note(self, offer: dict, viewer) -> str:
        """The offer in words, with the terms the GM set (S11.1: "a short description of costs and gains")."""
        intro = gettext("The game master offers: %(name)s") if viewer.is_gm else gettext(
            "The game master offers you: %(name)s")
        return " — ".join([intro % {"name": self.value_label(offer["type"])}, self.terms(offer, viewer)])

    def terms(self, offer: dict, viewer) -> str:
        """What the opportunity costs and brings, in a sentence (the engine applies it; this only tells it)."""
        kind = offer["type"]
        if kind == "easy_shot":
            tn = offer.get("tn")
            if tn:
                return gettext("One shot now with your attack Trait and knack against TN %(tn)s: a hit gives +3 "
                               "Reputation and −3 to the enemy general's roll this round.") % {"tn": tn}
            return gettext("One shot now with your attack Trait and knack against the TN the game master sets "
                           "(20 by default): a hit gives +3 Reputation and −3 to the enemy general's roll this round.")
        if kind == "prepare_to_die":
            loss = offer.get("refusal_reputation_loss")
            opponent = next((h["name"] for h in viewer.battle.state.get("heroes", [])
                             if h["id"] == offer.get("opponent_id")), None)
            text = gettext("A duel before the round%(against)s: refusing costs %(loss)s Reputation; whoever loses "
                           "is taken out and his general takes −3 this round.") % {
                "against": gettext(" against %(name)s") % {"name": opponent} if opponent else "",
                "loss": loss if loss is not None else gettext("5 (unless the game master says otherwise)")}
            return text
        if kind == "capture_enemy_banner" and offer.get("captured") is False:
            return gettext("The standard-bearer held: the banner cannot be taken this time.")
        return str(TERMS[kind])

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


# Events (``opportunity_offered``) and log steps (``opportunity.offered``) that tell of an offer: an
# offer, and an answer that started nothing, stay with the hero's side (a started one shows in the state).
SECRET_OFFERS = frozenset({"opportunity.offered", "opportunity.declined", "opportunity.lapsed"})
TERMS = {
    "medic": _("You spend the round tending the wounded: no fighting, no roll, no Leadership help; then your "
               "flesh wounds are healed and one dramatic wound closes."),
    "save_the_banner": _("You carry the banner until the end or until you fall: +1 Reputation a round, but your "
                         "personal die is not rolled and your wound checks and attacks roll one die fewer."),
    "hold_the_position": _("Two rounds at last round's engagement: +1 Reputation a round when engaged, +2 in the "
                           "front line, then +3 to your general's next roll if you still stand."),
    "take_the_position": _("−2 to your personal roll this round: +2 Reputation, and +1 to your general's next "
                           "roll if you stay conscious."),
    "push_them_back": _("The front line this round: +2 Reputation, and +1 to your general's next roll if you "
                        "stay conscious."),
    "rescue_comrade": _("Two rounds in the front line to bring a comrade back: +2 Reputation a round."),
    "capture_enemy_banner": _("You carry the enemy banner back one level a round, −4 to all your rolls: +3 "
                              "Reputation a round; once at the support lines, +5 Reputation and +5 to your "
                              "general."),
    "unhorsed_rider": _("−2 to your personal roll for two rounds, then +1 until the end of the battle."),
    "charge_their_ranks": _("The front line, and a volley of 18 dice against the TN to be hit you give: +5 "
                            "Reputation if you are still standing at the end of the round."),
    "commander_is_dead": _("You lead 18 soldiers; in each round you spend in the front line they fire, and half "
                           "their hits come off the enemy general's next roll (and add to your Reputation). They "
                           "flee after 6 losses."),
    "wounded_porte_mage": _("You carry a wounded Porté mage: −2 to your personal roll until the end, and a reward "
                            "if you are still conscious then."),
    "carry_the_message": _("You cross the lines one level for each round your personal total reaches 10: "
                           "delivered quickly, up to +6 to your general and as much Reputation (one less per "
                           "round it takes)."),
}

adapter = SeventhSea()
