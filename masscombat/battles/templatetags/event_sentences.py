"""Round report events as sentences in the reader's language.

Each engine reports a round as a list of typed events (``{"type": "damage", "attacker": "a1", ...}``,
``docs/battle-contract.md``).  A reader wants "L'Ost de Loreval inflige 91 dégâts à l'Armée jann"
rather than the event's fields, so each event type of each ruleset has a sentence here: a gettext
template and how each of its parameters is read from the event.  A parameter is one of

* ``name(field)``: an id, by the engine's name for this reader (a hidden enemy keeps no name, as the
  engine's ``names`` decide), in bold;
* ``side(field)``: a side, by its name;
* ``word(field)``: an engine word (a status, an outcome), by its label
  (:mod:`masscombat.core.engine_values`);
* ``cell(field)``: a map cell, written as the map's edges write it;
* ``number(field)``: a figure;
* ``mapping(field)``: figures by engine word (an allocation of points), each word by its label.

The wording is presentation only: what happened is the engine's (its log, with the rules it
applied, stays one tap away in the report).  An event type with no sentence here (a new one of an
engine) still reads as words: its label and the names of what it concerns, never a field dump.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django import template
from django.utils.formats import number_format
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext

from masscombat.battles import adapters
from masscombat.core import explain

register = template.Library()

Reader = Callable[[dict, "Context"], Any]


class Context:
    """What a sentence's parameters are read with: the ruleset's adapter and the reader's names."""

    def __init__(self, battle, names: dict[str, str] | None):
        self.slug, self.adapter = battle.ruleset, adapters.get(battle.ruleset)
        self.names = names or {}

    def name(self, value) -> SafeString:
        if isinstance(value, list):
            return mark_safe(", ".join(self.name(item) for item in value))
        if value is None or value == "":  # a field this reader's copy of the event leaves out
            return mark_safe("—")
        return format_html("<strong>{}</strong>", self.adapter.value_label(value, self.names))

    def side(self, value) -> str:
        return self.names.get(value) or self.adapter.side_label(str(value))


def name(field: str) -> Reader:
    return lambda event, ctx: ctx.name(_get(event, field))


def side(field: str) -> Reader:
    return lambda event, ctx: ctx.side(_get(event, field))


def word(field: str) -> Reader:
    return lambda event, ctx: ctx.adapter.value_label(_get(event, field), ctx.names)


def cell(field: str) -> Reader:
    def read(event, ctx):
        value = _get(event, field)
        return ctx.adapter.cell_label(value) if isinstance(value, (dict, list, tuple)) and value else "?"
    return read


def mapping(field: str) -> Reader:
    """``{word: figure}`` as "word figure, word figure", each word by its label."""
    return lambda event, ctx: explain.shown(ctx.slug, _get(event, field) or {}, ctx.names)


def number(field: str) -> Reader:
    def read(event, ctx):
        value = _get(event, field)
        return number_format(value, force_grouping=True) if isinstance(value, (int, float)) else value
    return read


def _get(event: dict, field: str) -> Any:
    """``event[field]``, a dotted field reading inside an object (``attacker.total``)."""
    value: Any = event
    for part in field.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return value


class Sentence:
    """One event type's sentence: its template (chosen by ``pick`` among ``templates`` when the
    outcome changes the wording; given the event's ``count`` field when its wording has a plural)
    and the readers of its parameters."""

    def __init__(self, *templates: Callable[..., str], pick: Callable[[dict], int] | None = None,
                 count: str | None = None, **params: Reader):
        self.templates, self.pick, self.count, self.params = templates, pick, count, params

    def render(self, event: dict, ctx: Context) -> SafeString:
        chosen = self.templates[self.pick(event) if self.pick else 0]
        if self.count is None:
            text = chosen()
        else:
            count = event.get(self.count)
            text = chosen(count if isinstance(count, int) else 0)
        values = {key: conditional_escape(read(event, ctx)) for key, read in self.params.items()}
        return mark_safe(conditional_escape(text) % values)


def success(event: dict) -> int:
    """0 when the event's ``success`` is true, else 1: the first template says it worked."""
    return 0 if event.get("success") else 1


def winner(field: str) -> Callable[[dict], int]:
    return lambda event: 0 if event.get(field) else 1


BATTLE_ENDED = (lambda: gettext("The battle is over: %(side)s wins."), lambda: gettext("The battle is over, with no winner."))

SENTENCES: dict[str, dict[str, Sentence]] = {
    "jdrwiki": {
        "initiative": Sentence(lambda: gettext("%(corps)s has %(pool)s initiative points"),
                               corps=name("corps"), pool=number("pool")),
        "hero_intervention": Sentence(lambda: gettext("%(hero)s steps in beside %(corps)s"),
                                      hero=name("hero"), corps=name("corps")),
        "allocation": Sentence(lambda: gettext("%(corps)s shares out its advantage: %(allocation)s"),
                               corps=name("corps"), allocation=mapping("allocation")),
        "action": Sentence(
            lambda: gettext("%(corps)s: %(action)s against %(target)s succeeds"),
            lambda: gettext("%(corps)s: %(action)s against %(target)s fails"),
            lambda: gettext("%(corps)s: %(action)s succeeds"),
            lambda: gettext("%(corps)s: %(action)s fails"),
            lambda: gettext("%(corps)s carries out %(action)s"),
            lambda: gettext("%(corps)s: %(action)s is cancelled"),
            pick=lambda e: (5 if e.get("status") == "cancelled" else 4 if e.get("status") == "automatic"
                            else (0 if e.get("target") else 2) + (0 if e.get("success") else 1)),
            corps=name("corps"), action=word("action"), target=name("target")),
        "damage": Sentence(lambda: gettext("%(attacker)s deals %(amount)s damage to %(defender)s, "
                                           "who has %(hp)s hit points left"),
                           attacker=name("attacker"), defender=name("defender"), amount=number("amount"),
                           hp=number("hp")),
        "melee": Sentence(lambda: gettext("Melee between %(first)s and %(second)s"),
                          first=lambda e, ctx: ctx.name((e.get("corps") or [None, None])[0]),
                          second=lambda e, ctx: ctx.name((e.get("corps") or [None, None])[-1])),
        "fled": Sentence(lambda: gettext("%(actor)s flees the field"), actor=name("corps")),
        "corps_destroyed": Sentence(lambda: gettext("%(unit)s is destroyed"), unit=name("corps")),
        "fatal_blow_cancelled": Sentence(lambda: gettext("The fatal blow against %(unit)s is cancelled"),
                                         unit=name("corps")),
        "hero_death": Sentence(lambda: gettext("%(hero)s escapes death"), lambda: gettext("%(hero)s dies (%(cause)s)"),
                               pick=lambda e: 0 if e.get("avoided") else 1, hero=name("hero"), cause=word("cause")),
        "battle_ended": Sentence(*BATTLE_ENDED, pick=winner("winner"), side=side("winner")),
    },
    "seventh_sea": {
        "round_result": Sentence(lambda: gettext("%(side)s wins round %(n)s"), lambda: gettext("Round %(n)s is a tie"),
                                 pick=winner("round_winner"), side=side("round_winner"), n=number("round")),
        "hero_taken_out": Sentence(lambda: gettext("%(hero)s is taken out of the fight (%(cause)s)"),
                                   hero=name("hero_id"), cause=word("cause")),
        "opportunity_offered": Sentence(lambda: gettext("A heroic opportunity comes to %(hero)s"), hero=name("hero_id")),
        "opportunity_started": Sentence(lambda: gettext("%(hero)s seizes the opportunity: %(opportunity)s"),
                                        hero=name("hero_id"), opportunity=word("opportunity")),
        "opportunity_declined": Sentence(lambda: gettext("%(hero)s turns down the opportunity: %(opportunity)s"),
                                         hero=name("hero_id"), opportunity=word("opportunity")),
        "opportunity_lapsed": Sentence(lambda: gettext("%(hero)s lets the opportunity pass"), hero=name("hero_id")),
        "opportunity_ended": Sentence(lambda: gettext("%(opportunity)s of %(hero)s ends (%(reason)s)"),
                                      hero=name("hero_id"), opportunity=word("opportunity"), reason=word("reason")),
        "modifier_queued": Sentence(lambda: gettext("%(side)s will have %(amount)s on its next roll (%(source)s)"),
                                    side=side("side"), amount=lambda e, ctx: f"{e.get('amount', 0):+d}",
                                    source=word("source")),
        "battle_won": Sentence(*BATTLE_ENDED, pick=winner("winner"), side=side("winner")),
    },
    "heros": {
        "bound_started": Sentence(lambda: gettext("Bound %(n)s (turn %(turn)s): %(side)s plays."),
                                  n=number("bound"), turn=number("turn"), side=side("active_side")),
        "pa_rolled": Sentence(lambda: gettext("%(corps)s rolls %(roll)s on the action die: %(n)s action points"),
                              corps=name("corps_id"), roll=number("roll"), n=number("available")),
        "god_pa_rolled": Sentence(lambda: gettext("%(corps)s rolls %(roll)s on the action die: %(n)s action points"),
                                  corps=name("unit_id"), roll=number("roll"), n=number("available")),
        "unit_moved": Sentence(lambda n: ngettext("%(unit)s moves to %(to)s (%(cost)s movement point)",
                                                  "%(unit)s moves to %(to)s (%(cost)s movement points)", n),
                               count="path_cost", unit=name("unit_id"), to=cell("to"), cost=number("path_cost")),
        "character_moved": Sentence(lambda: gettext("%(who)s goes to %(to)s"), who=name("character_id"), to=cell("to")),
        "god_moved": Sentence(lambda: gettext("%(who)s goes to %(to)s"), who=name("unit_id"), to=cell("to")),
        "group_held": Sentence(lambda: gettext("%(units)s hold their ground"), units=name("units")),
        "combat_resolved": Sentence(
            lambda: gettext("%(kind)s: %(attacker)s %(a_total)s against %(defender)s %(d_total)s; "
                            "%(attacker)s %(a_result)s, %(defender)s %(d_result)s"),
            kind=word("kind"), attacker=name("attacker.id"), defender=name("defender.id"),
            a_total=number("attacker.total"), d_total=number("defender.total"),
            a_result=word("attacker.result"), d_result=word("defender.result")),
        "unit_destroyed": Sentence(lambda: gettext("%(unit)s is destroyed"), unit=name("unit_id")),
        "unit_dispersed": Sentence(lambda: gettext("%(unit)s is dispersed"), unit=name("unit_id")),
        "unit_fled_off": Sentence(lambda: gettext("%(actor)s flees the field"), actor=name("unit_id")),
        "unit_fled": Sentence(lambda: gettext("%(unit)s flees to %(to)s"), unit=name("unit_id"), to=cell("to")),
        "unit_recoiled": Sentence(lambda: gettext("%(unit)s falls back to %(to)s"), unit=name("unit_id"), to=cell("to")),
        "unit_pursued": Sentence(lambda: gettext("%(unit)s pursues to %(to)s"), unit=name("unit_id"), to=cell("to")),
        "risk_tested": Sentence(lambda: gettext("%(who)s runs a risk: %(outcome)s"),
                                who=name("character_id"), outcome=word("outcome")),
        "character_wounded": Sentence(lambda: gettext("%(who)s is wounded: %(state)s"),
                                      who=name("character_id"), state=word("wound_state")),
        "wound_evolved": Sentence(lambda: gettext("The wound of %(who)s changes: %(before)s, now %(after)s"),
                                  who=name("character_id"), before=word("from"), after=word("to")),
        "character_captured": Sentence(lambda: gettext("%(who)s is captured by %(by)s"),
                                       who=name("character_id"), by=name("by_unit_id")),
        "character_escaped": Sentence(lambda: gettext("%(who)s escapes to %(to)s"), who=name("character_id"), to=cell("to")),
        "captive_recovered": Sentence(lambda: gettext("%(who)s is freed: %(outcome)s"),
                                      who=name("character_id"), outcome=word("outcome")),
        "captive_executed": Sentence(lambda: gettext("%(who)s is put to death by the enemy"), who=name("character_id")),
        "captive_transferred": Sentence(lambda: gettext("%(who)s is handed over to %(unit)s"),
                                        who=name("character_id"), unit=name("to_unit_id")),
        "duel_fought": Sentence(lambda: gettext("Duel between %(first)s and %(second)s: %(winner)s wins"),
                                lambda: gettext("Duel between %(first)s and %(second)s: no winner"),
                                pick=winner("winner"), first=name("attacker_star"), second=name("defender_star"),
                                winner=name("winner")),
        "flyer_climbed": Sentence(lambda: gettext("%(unit)s takes to the air"), unit=name("unit_id")),
        "flyer_landed": Sentence(lambda: gettext("%(unit)s lands at %(to)s"), unit=name("unit_id"), to=cell("hex")),
        "god_swapped": Sentence(lambda: gettext("%(unit)s swaps places with %(other)s"),
                                unit=name("unit_id"), other=name("with_unit_id")),
        "lurker_generated": Sentence(lambda: gettext("%(unit)s appears at %(to)s and attacks %(target)s"),
                                     unit=name("unit_id"), to=cell("hex"), target=name("target_id")),
        "lurker_removed": Sentence(lambda: gettext("%(unit)s vanishes"), unit=name("unit_id")),
        "unit_arrived": Sentence(lambda: gettext("%(unit)s arrives on the field at %(to)s"),
                                 unit=name("unit_id"), to=cell("hex")),
        "unit_departed": Sentence(lambda: gettext("%(unit)s leaves the field (%(reason)s)"),
                                  unit=name("unit_id"), reason=word("reason")),
        "unit_revealed": Sentence(lambda: gettext("%(unit)s is revealed"), unit=name("unit_id")),
        "projection_tested": Sentence(lambda: gettext("%(unit)s keeps its power within reach: %(roll)s against %(target)s"),
                                      lambda: gettext("%(unit)s loses its power's reach: %(roll)s against %(target)s"),
                                      pick=lambda e: 0 if e.get("passed") else 1,
                                      unit=name("unit_id"), roll=number("roll"), target=number("target")),
        "rally_attempted": Sentence(lambda: gettext("%(general)s rallies %(corps)s (%(total)s)"),
                                    lambda: gettext("%(general)s fails to rally %(corps)s (%(total)s)"),
                                    pick=success, general=name("general_id"), corps=name("corps_id"),
                                    total=number("modified")),
        "spell_cast": Sentence(lambda: gettext("%(caster)s casts %(spell)s"),
                               lambda: gettext("%(caster)s casts %(spell)s, but it is countered"),
                               pick=lambda e: 1 if e.get("countered") else 0,
                               caster=name("caster_id"), spell=name("spell_id")),
        "corps_demoralised": Sentence(lambda: gettext("%(corps)s is demoralised"), corps=name("corps_id")),
        "corps_recovered": Sentence(lambda: gettext("%(corps)s recovers its morale"), corps=name("corps_id")),
        "army_broken": Sentence(lambda: gettext("The army of %(side)s is broken"), side=side("side")),
        "battle_ended": Sentence(*BATTLE_ENDED, pick=winner("winner"), side=side("winner")),
    },
    "synapse": {
        "command_test": Sentence(lambda: gettext("Command test: %(side)s takes the initiative"),
                                 lambda: gettext("Command test: %(side)s takes the initiative, %(other)s is caught by surprise"),
                                 lambda: gettext("Command test: no side takes the initiative"),
                                 pick=lambda e: 2 if not e.get("initiative") else 1 if e.get("surprised") else 0,
                                 side=side("initiative"), other=side("surprised")),
        "attack": Sentence(lambda: gettext("%(unit)s attacks: %(n)s losses inflicted"), lambda: gettext("%(unit)s attacks"),
                           pick=lambda e: 0 if "losses" in e else 1,
                           unit=lambda e, ctx: ctx.name(str(e.get("key", "")).removeprefix("attack:")),
                           n=number("losses")),
        "friendly_fire": Sentence(lambda: gettext("The volley of %(unit)s falls on %(target)s, its own side: %(n)s losses"),
                                  lambda: gettext("The volley of %(unit)s falls on %(target)s, its own side"),
                                  pick=lambda e: 0 if "losses" in e else 1,
                                  unit=lambda e, ctx: ctx.name(str(e.get("key", "")).removeprefix("attack:")),
                                  target=name("formation"), n=number("losses")),
        "reserve_committed": Sentence(lambda: gettext("%(side)s commits its reserve: %(units)s"),
                                      side=side("side"), units=name("formations")),
        "retreat": Sentence(lambda: gettext("%(side)s retreats in good order"),
                            lambda: gettext("%(side)s fails to retreat"),
                            lambda: gettext("%(side)s routs while retreating"),
                            lambda: gettext("%(unit)s retreats: %(outcome)s"),
                            pick=lambda e: 3 if "formation" in e else 2 if e.get("routed") else 0 if e.get("success") else 1,
                            side=side("side"), unit=name("formation"), outcome=word("outcome")),
        "rally": Sentence(lambda: gettext("%(unit)s rallies"), lambda: gettext("%(unit)s fails to rally"),
                          pick=success, unit=name("formation")),
        "fled": Sentence(lambda: gettext("%(actor)s flees the field"), actor=name("formation")),
        "withdrawn": Sentence(lambda: gettext("%(unit)s leaves the field in good order"), unit=name("formation")),
        "routed": Sentence(lambda: gettext("%(unit)s is routed"), unit=name("formation")),
        "destroyed": Sentence(lambda: gettext("%(unit)s is destroyed"), unit=name("formation")),
        "battle_over": Sentence(lambda: gettext("The battle is over: %(side)s wins (%(reason)s)."),
                                lambda: gettext("The battle is over, with no winner (%(reason)s)."),
                                pick=winner("winner"), side=side("winner"), reason=word("end_reason")),
    },
    "dnd5e": {
        "turn": Sentence(lambda: gettext("Turn: %(actor)s"), actor=name("actor")),
        "turn_skipped": Sentence(lambda: gettext("%(actor)s does not act: %(reason)s"),
                                 actor=name("actor"), reason=word("reason")),
        "move": Sentence(lambda n: ngettext("%(actor)s moves %(n)s square", "%(actor)s moves %(n)s squares", n),
                         lambda n: ngettext("%(actor)s moves %(n)s square (%(reason)s)",
                                            "%(actor)s moves %(n)s squares (%(reason)s)", n),
                         pick=lambda e: 1 if e.get("stopped_reason") else 0, count="steps_taken",
                         actor=name("actor"), n=number("steps_taken"), reason=word("stopped_reason")),
        "attack": Sentence(
            lambda: gettext("%(attacker)s attacks %(target)s (%(attack)s): %(total)s against AC %(ac)s, hit: %(n)s damage"),
            lambda: gettext("%(attacker)s attacks %(target)s (%(attack)s): %(total)s against AC %(ac)s, "
                            "critical hit: %(n)s damage"),
            lambda: gettext("%(attacker)s attacks %(target)s (%(attack)s): %(total)s against AC %(ac)s, miss"),
            pick=lambda e: (1 if e.get("critical") else 0) if e.get("hit") else 2,
            attacker=name("attacker"), target=name("target"), attack=lambda e, ctx: e.get("attack", ""),
            total=number("total"), ac=number("ac"), n=number("damage")),
        "attack_skipped": Sentence(lambda: gettext("%(attacker)s does not attack %(target)s: %(reason)s"),
                                   attacker=name("attacker"), target=name("target"), reason=word("reason")),
        "damage": Sentence(lambda: gettext("%(target)s takes %(n)s damage (%(left)s hit points left)"),
                           lambda: gettext("%(target)s takes %(n)s damage (%(left)s hit points left): %(status)s"),
                           pick=lambda e: 0 if e.get("status") == "active" else 1,
                           target=name("target"), n=number("amount"), left=number("hp_after"), status=word("status")),
        "overflow": Sentence(lambda: gettext("%(n)s excess damage from %(fallen)s go to %(next)s"),
                             n=number("amount"), fallen=name("from"), next=name("to")),
        "overflow_wasted": Sentence(lambda: gettext("%(n)s excess damage from %(fallen)s are lost"),
                                    n=number("amount"), fallen=name("from")),
        "stand_eliminated": Sentence(lambda: gettext("%(stand)s is eliminated"), stand=name("stand")),
        "unit_eliminated": Sentence(lambda: gettext("The unit %(unit)s is eliminated"), unit=name("unit")),
        "morale": Sentence(lambda: gettext("%(unit)s holds firm (morale %(total)s)"),
                           lambda: gettext("%(unit)s breaks (morale %(total)s)"),
                           pick=success, unit=name("unit"), total=number("total")),
        "rally": Sentence(lambda: gettext("%(unit)s rallies (%(total)s)"), lambda: gettext("%(unit)s stays broken (%(total)s)"),
                          pick=success, unit=name("unit"), total=number("total")),
        "vp": Sentence(lambda: gettext("%(side)s scores %(n)s victory points"), side=side("side"), n=number("vp")),
        "configure": Sentence(lambda: gettext("%(unit)s takes the %(configuration)s configuration"),
                              unit=name("unit"), configuration=word("to")),
        "hide": Sentence(lambda: gettext("%(actor)s hides (%(total)s against DC %(dc)s)"),
                         lambda: gettext("%(actor)s fails to hide (%(total)s against DC %(dc)s)"),
                         pick=success, actor=name("actor"), total=number("total"), dc=number("dc")),
        "join": Sentence(lambda: gettext("%(solo)s joins %(stand)s"), lambda: gettext("%(solo)s does not reach %(stand)s"),
                         pick=success, solo=name("solo"), stand=name("stand")),
        "detach": Sentence(lambda: gettext("%(solo)s leaves %(stand)s for %(to)s"),
                           lambda: gettext("%(solo)s cannot leave %(stand)s"),
                           pick=success, solo=name("solo"), stand=name("stand"), to=cell("to")),
        "switch": Sentence(lambda: gettext("%(solo)s moves from %(stand)s to %(next)s"),
                           lambda: gettext("%(solo)s cannot move from %(stand)s to %(next)s"),
                           pick=success, solo=name("solo"), stand=name("from"), next=name("to")),
        "shift": Sentence(lambda: gettext("%(stand)s moves into the place of %(other)s"),
                          lambda: gettext("%(stand)s cannot move into the place of %(other)s"),
                          pick=success, stand=name("stand"), other=name("into")),
        "support": Sentence(lambda: gettext("%(stand)s supports %(other)s"), stand=name("stand"), other=name("supports")),
        "fled": Sentence(lambda: gettext("%(actor)s flees the field"), actor=name("actor")),
        "commander_change": Sentence(lambda: gettext("%(commander)s commands %(unit)s"),
                                     lambda: gettext("%(unit)s has no commander any more"),
                                     pick=winner("commander"), commander=name("commander"), unit=name("unit")),
        "bonus_action": Sentence(lambda: gettext("%(solo)s, with %(unit)s: %(action)s"),
                                 lambda: gettext("%(solo)s, with %(unit)s: %(action)s fails"),
                                 pick=success, solo=name("solo"), unit=name("unit"), action=word("bonus_action")),
        "death_saves": Sentence(lambda: gettext("Death saves of %(solo)s: %(outcome)s"),
                                solo=name("solo"), outcome=word("outcome")),
        "spell": Sentence(lambda: gettext("%(caster)s casts %(spell)s"),
                          caster=name("caster"), spell=word("spell")),
        "spell_effect": Sentence(lambda: gettext("%(spell)s on %(target)s: %(n)s damage"),
                                 lambda: gettext("%(spell)s on %(target)s: %(n)s damage (save succeeded)"),
                                 pick=lambda e: 1 if e.get("saved") else 0,
                                 spell=word("spell"), target=name("target"), n=number("damage")),
        "solo_placed": Sentence(lambda: gettext("The game master places %(solo)s at %(to)s"),
                                lambda: gettext("The game master places %(solo)s with %(stand)s"),
                                pick=lambda e: 1 if e.get("attached_to") else 0,
                                solo=name("solo"), to=cell("position"), stand=name("attached_to")),
        "solo_unplaced": Sentence(lambda: gettext("The game master takes %(solo)s off the map"), solo=name("solo")),
        "adjustment": Sentence(lambda: gettext("The game master adjusts the battle")),
        "battle_over": Sentence(lambda: gettext("The battle is over")),
    },
}


@register.simple_tag
def event_sentence(battle, event: dict, names: dict[str, str] | None = None) -> SafeString:
    """One event of a round report as a sentence for this reader (``names``: the report's, the engine's
    for the reader).  An event type with no sentence reads as its label and the names it mentions."""
    ctx = Context(battle, names)
    known = SENTENCES.get(battle.ruleset, {}).get(event.get("type", ""))
    if known is not None:
        return known.render(event, ctx)
    return _unknown(event, ctx)


def _unknown(event: dict, ctx: Context) -> SafeString:
    """A new event type: its label (else "Event"), then whatever it names that the reader may know: no
    field names, and no word or id the reader cannot read."""
    named = [ctx.name(value) for key, value in event.items()
             if key not in ("type", "visible_to", "seq") and isinstance(value, str) and value in ctx.names]
    label = ctx.adapter.value_labels.get(event.get("type", "")) or gettext("Event")
    if not named:
        return conditional_escape(label)
    return format_html("{}: {}", label, mark_safe(", ".join(named)))


# An event's own explanation lists at most this many steps: the round's whole log stays one tap away below.
EVENT_STEPS = 12


@register.simple_tag
def event_detail(battle, event: dict, report: dict) -> SafeString:
    """The dice and the logged steps (each with its rule) of one event, folded under its sentence.

    The engines give a round's events, log and dice as three lists: an event's own are those that name
    what it names (its actor, its target…, by the ids the reader knows): the steps that name all of
    them, else those that name one, and the dice whose label names one.  Nothing when none does.
    """
    names = report.get("names") or {}
    ids = {value for value in _strings(event, skip=("type", "visible_to", "seq")) if value in names}
    if not ids:
        return mark_safe("")
    dice = [(explain.die_label(label, names), values) for label, values in (report.get("rolls") or {}).items()
            if ids & set(re.split(r"[:/.]", label))]
    steps = [step for step in report.get("steps") or [] if isinstance(step, dict)]
    mentions = [(step, ids & set(_strings(step.get("params") or {}))) for step in steps]
    own = [step for step, named in mentions if named == ids] or [step for step, named in mentions if named]
    if not dice and not own:
        return mark_safe("")
    rows = [format_html('<span class="die">{} <code>{}</code></span>', label, " ".join(map(str, _listed(values))))
            for label, values in dice]
    said = explain.rendered_log(battle.ruleset, own[:EVENT_STEPS], names=names)
    return format_html(
        '<details class="event-detail"><summary>{}</summary>{}{}</details>', gettext("Dice and rules"),
        format_html('<p class="dice">{}</p>', mark_safe(" ".join(rows))) if rows else "",
        format_html('<ol class="log">{}</ol>', format_html_join("", '<li><span class="rule">{}</span> {}</li>',
                                                                ((s["rule"], s["text"]) for s in said))) if said else "")


def _strings(node, skip=()):
    """Every string inside an event or a step's parameters (ids sit in lists and mappings too)."""
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for key, value in node.items():
            if key not in skip:
                yield from _strings(value)
    elif isinstance(node, (list, tuple)):
        for value in node:
            yield from _strings(value)


def _listed(values) -> list:
    return values if isinstance(values, list) else [values]


@register.simple_tag
def event_dice(battle, event: dict) -> SafeString:
    """The dice an event carries itself (D&D 5e's d20 of an attack, a check, death saves), after its
    sentence: those rolls are in no round's list of dice, so this is where the reader finds them."""
    rolls = [value for key in ("d20", "rolls") for value in (event.get(key) or []) if isinstance(value, int)]
    if not rolls:
        return mark_safe("")
    shown = ", ".join(str(value) for value in rolls)
    mode = {"advantage": gettext("with advantage"), "disadvantage": gettext("with disadvantage")}.get(event.get("roll_mode"))
    if mode:
        return format_html(' · <span class="die muted">{} <code>{}</code> ({})</span>', gettext("d20"), shown, mode)
    return format_html(' · <span class="die muted">{} <code>{}</code></span>', gettext("d20"), shown)
