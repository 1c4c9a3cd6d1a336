"""``declaration-options``: what a participant may declare now, and why anything else is forbidden.

For the web layer's forms (S11.1): the answer is computed from the same rules
as ``resolve-round`` (S5.3, S5.4 R0–R1, S7.1–S7.3, S7.9), so a declaration
built only from allowed values is accepted, whatever the other participants
choose.  Two things make that hold:

* the heroic opportunity is one object whose required fields depend on its
  type (S9.8), so the GM is offered it whole, as a list of complete answers;
* a hero offered an opportunity may not lend his Leadership while the answer
  may still be an accepted ``medic`` (a resting hero cannot help, S7.1).

The optional ``declarations`` draft (the resolve-round object filled so far)
lets each form see the choices already made and offer more: the GM's
adjustments (a revived hero must declare, cleared effects impose nothing), the
GM's chosen type (its fields one by one, the player's answer, help allowed
again unless it is an accepted medic), and a player's help (no medic then).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from rules.dice import Dice
from rules.errors import InvalidInput
from rules.model import Input
from rules.registry import Context
from rules.seventh_sea import ruleset, tables
from rules.seventh_sea.battle import load_state
from rules.seventh_sea.effects import REST, forced_engagement
from rules.seventh_sea.entities import FORT_HIGH, FORT_LOW, OpportunityType, State, unconscious_at
from rules.seventh_sea.messages import say
from rules.seventh_sea.opportunities import OpportunityDecl, new_effect, refusal, required_if_accepted
from rules.seventh_sea.round import Adjustment, adjust

MODIFIER_RANGE = (-100, 100)
NPC_RANGE = (0, 50)
TROOPS_RANGE = (1, 10_000_000)


class DraftOpportunity(Input):
    type: OpportunityType | None = None
    accept: bool | None = None
    captured: bool | None = None


class DraftHero(Input):
    help_general: bool | None = None
    opportunity: DraftOpportunity | None = None


class Draft(Input):
    heroes: Annotated[dict[str, DraftHero], Field(max_length=30)] = {}
    adjustments: Annotated[list[Adjustment], Field(max_length=100)] = []


class Participant(Input):
    kind: Literal["side", "commander", "hero", "gm"]  # "commander" is the side commander: same as "side"
    id: Annotated[str, Field(max_length=32)] = ""


class OptionsInput(Input):
    state: State
    participant: Participant
    declarations: Draft = Field(default_factory=Draft)


def option(path: str, label: str, kind: str, *, allowed: list | None = None, low: int | None = None,
           high: int | None = None, default: Any = None, required: bool = False,
           forbidden: list[dict] | None = None) -> dict:
    entry: dict[str, Any] = {"path": path, "label": label, "type": kind}
    if allowed is not None:
        entry["allowed"] = allowed
    if low is not None:
        entry["min"], entry["max"] = low, high
    entry.update(default=default, required=required, forbidden=forbidden or [])
    return entry


def refused(value: Any, reason: str, rule: str) -> dict:
    return {"value": value, "reason": reason, "rule": rule}


def _side_options(state: dict, letter: str) -> list[dict]:
    side = state["sides"][letter]
    role = "attacker" if state["attacker"] == letter else "defender"
    pool = side["free_raises"]
    return [
        option(f"sides.{letter}.strategy", f"Military strategy, secret until both are in (you are the {role})",
               "choice", allowed=list(tables.STRATEGIES), required=True),
        option(f"sides.{letter}.free_raises_spent", "Free raises to spend on the general's roll (+5 each)",
               "integer", low=0, high=pool, default=0,
               forbidden=[refused(pool + 1, f"Only {pool} free raise(s) left in the army's pool.", "S7.2")]),
    ]


def _imposed(hero: dict, draft: DraftHero | None) -> tuple[str | None, str | None]:
    """The engagement the hero will have at R1: his effects, or the opportunity the draft accepts."""
    forced, by = forced_engagement(hero["effects"])
    chosen = draft.opportunity if draft and draft.opportunity else None
    if forced is None and hero["opportunity_pending"] and chosen and chosen.type and chosen.accept:
        kind = tables.opportunity(chosen.type)
        if kind["class"] != "instant" and (chosen.type != "capture_enemy_banner" or chosen.captured):
            if refusal(hero, chosen.type) is None:
                decl = OpportunityDecl(type=chosen.type, accept=True, captured=True, tn_to_be_hit=5)
                forced, by = forced_engagement([new_effect(hero, decl)])
    return forced, by


def _hero_options(state: dict, hero: dict, draft: DraftHero | None) -> tuple[bool, list[dict]]:
    path = f"heroes.{hero['id']}"
    if hero["status"] != "active":
        out = [refused(level, "An unconscious hero declares nothing; only GM adjustments concern him.", "H35")
               for level in tables.ENGAGEMENTS]
        return False, [option(f"{path}.engagement", "Engagement level", "choice", allowed=[], forbidden=out)]
    forced, by = _imposed(hero, draft)
    options = []
    if forced == REST:
        options.append(option(f"{path}.engagement", "At the doctor's this round: no engagement", "choice", allowed=[],
                              forbidden=[refused(level, f"The hero rests this round ({by}).", "S7.4.1")
                                         for level in tables.ENGAGEMENTS]))
        options.append(option(f"{path}.help_general", "Lend my Leadership to the general", "boolean",
                              allowed=[False], default=False,
                              forbidden=[refused(True, "A resting hero cannot help the general.", "S7.1")]))
    else:
        if forced is not None:
            options.append(option(f"{path}.engagement", f"Engagement imposed by {by}: {forced}", "choice",
                                  allowed=[forced], default=forced,
                                  forbidden=[refused(level, f"{by} imposes {forced}.", "S4.12")
                                             for level in tables.ENGAGEMENTS if level != forced]))
        else:
            options.append(option(f"{path}.engagement", "Engagement level", "choice",
                                  allowed=list(tables.ENGAGEMENTS), required=True))
        label = f"Lend my Leadership to the general (+{hero['leadership']} to the general, -2 to my roll)"
        if _may_rest(hero, draft):
            options.append(option(f"{path}.help_general", label, "boolean", allowed=[False], default=False,
                                  forbidden=[refused(True, "Not while the offered opportunity may still be a medic, "
                                                           "who makes the hero rest.", "S7.1")]))
        else:
            options.append(option(f"{path}.help_general", label, "boolean", allowed=[False, True], default=False))
    kind = _draft_type(draft)
    if hero["opportunity_pending"] and kind:
        # S7.3.2: the GM picks the opportunity first (draft ``opportunity.type``), then the player answers.
        options.append(option(f"{path}.opportunity.accept", f"Accept the heroic opportunity {kind}", "boolean",
                              allowed=[True, False], required=True))
        options += _input_options(state, hero, [kind], "player_inputs", _draft_accept(draft))
    must = not state["finished"] and forced is None
    return must, options


def _may_rest(hero: dict, draft: DraftHero | None) -> bool:
    """Whether this round's answer to an offer may still be an accepted medic (then no Leadership help)."""
    if not hero["opportunity_pending"]:
        return False
    chosen = draft.opportunity if draft and draft.opportunity else None
    return chosen is None or chosen.type is None or (chosen.type == "medic" and chosen.accept is not False)


def _input_options(state: dict, hero: dict, kinds: list[str], who: str, accepted: bool) -> list[dict]:
    """The S6.10 inputs (``gm_inputs`` or ``player_inputs``) of these opportunity types, as options."""
    path = f"heroes.{hero['id']}.opportunity"
    opponents = [h["id"] for h in state["heroes"] if h["side"] != hero["side"] and h["status"] == "active"]
    options = []
    for kind in kinds:
        needed = accepted and len(kinds) == 1
        for field in tables.opportunity(kind).get(who, []):
            name, label = field["name"], f"{field['name']} (for {kind})"
            required = needed and name in required_if_accepted(kind)
            if field["type"] == "bool":
                options.append(option(f"{path}.{name}", label, "boolean", allowed=[True, False], required=required))
            elif field["type"] == "int":
                low, high = field["range"]
                options.append(option(f"{path}.{name}", label, "integer", low=low, high=high,
                                      default=field.get("default"), required=required))
            else:
                options.append(option(f"{path}.{name}", f"{label}: a tracked active enemy hero, or none", "choice",
                                      allowed=opponents))
    return options


def _draft_type(draft: DraftHero | None) -> str | None:
    return draft.opportunity.type if draft and draft.opportunity else None


def _draft_accept(draft: DraftHero | None) -> bool:
    return bool(draft and draft.opportunity and draft.opportunity.accept)


def _gm_options(state: dict, drafts: dict[str, DraftHero]) -> list[dict]:
    options = []
    for letter in tables.SIDES:
        side, path = state["sides"][letter], f"sides.{letter}"
        options += [
            option(f"{path}.gm_modifier", f"Manual modifier of general {letter}'s roll", "integer",
                   low=MODIFIER_RANGE[0], high=MODIFIER_RANGE[1], default=0),
            option(f"{path}.troops", f"Troops of side {letter}", "integer", low=TROOPS_RANGE[0],
                   high=TROOPS_RANGE[1], default=side["troops"]),
            option(f"{path}.fortification_level", f"Fortification level of side {letter} (5 = large castle)",
                   "integer", low=FORT_LOW, high=FORT_HIGH, default=side["fortification_level"]),
            *[option(f"{path}.terrain.{flag}", f"Terrain of side {letter}: {flag}", "boolean", allowed=[False, True],
                     default=side["terrain"][flag]) for flag in tables.terrain_modifiers()],
            option(f"{path}.npc_heroes_front_line", f"Untracked heroes of side {letter} in the front line",
                   "integer", low=NPC_RANGE[0], high=NPC_RANGE[1], default=0),
            option(f"{path}.npc_heroes_taken_out", f"Untracked heroes of side {letter} taken out", "integer",
                   low=NPC_RANGE[0], high=NPC_RANGE[1], default=0),
        ]
    for hero in state["heroes"]:
        if hero["status"] != "active":
            continue
        path = f"heroes.{hero['id']}"
        options += [option(f"{path}.gm_modifier", f"Manual modifier of {hero['name']}'s personal roll", "integer",
                           low=MODIFIER_RANGE[0], high=MODIFIER_RANGE[1], default=0),
                    option(f"{path}.wound_check_modifier", f"Manual modifier of {hero['name']}'s wound check",
                           "integer", low=MODIFIER_RANGE[0], high=MODIFIER_RANGE[1], default=0)]
        if hero["opportunity_pending"]:
            options += _gm_opportunity(state, hero, drafts.get(hero["id"]))
    beyond_revival = [refused({"hero_id": hero["id"], "status": "active"},
                              f"{hero['name']} has {hero['dramatic_wounds']} dramatic wounds: at least "
                              f"{unconscious_at(hero)} keep him unconscious.", "S7.9")
                      for hero in state["heroes"]
                      if hero["status"] != "active" and hero["dramatic_wounds"] >= unconscious_at(hero)]
    options.append(option("adjustments", "Adjustments: wounds, status, clear effects (by hero)", "list",
                          allowed=[hero["id"] for hero in state["heroes"]], default=[], forbidden=beyond_revival))
    return options


def _gm_opportunity(state: dict, hero: dict, draft: DraftHero | None) -> list[dict]:
    path = f"heroes.{hero['id']}.opportunity"
    allowed, forbidden = [], []
    for kind in tables.OPPORTUNITIES:
        problem = refusal(hero, kind)
        if problem is None and kind == "medic" and draft and draft.help_general:
            problem = ("the hero lends his Leadership this round, and a resting hero cannot", "S7.1")
        if problem:
            forbidden.append(refused(kind, problem[0][:1].upper() + problem[0][1:] + ".", problem[1]))
        else:
            allowed.append(kind)
    # The opportunity is one object whose fields depend on its type (S9.8): offered whole, as complete answers
    # (inputs at their default or lowest value), so that any allowed value is a valid declaration by itself.
    options = [option(path, f"Heroic opportunity offered to {hero['name']}, with its answer", "object",
                      allowed=[answer for kind in allowed for answer in _answers(kind)],
                      forbidden=[{**entry, "value": {"type": entry["value"]}} for entry in forbidden])]
    kind = _draft_type(draft)
    if kind is None:
        return options
    # Once the draft names the type, its fields one by one; the player's are there for absent players (S11.2).
    options += [option(f"{path}.type", "Heroic opportunity type", "choice", allowed=[kind] if kind in allowed else [],
                       required=True, forbidden=forbidden),
                option(f"{path}.accept", "The player's answer (the GM may answer for an absent player)", "boolean",
                       allowed=[True, False], required=True)]
    accepted = _draft_accept(draft)
    return (options + _input_options(state, hero, [kind], "gm_inputs", accepted)
            + _input_options(state, hero, [kind], "player_inputs", accepted))


def _answers(kind: str) -> list[dict]:
    """Complete declarations of one opportunity type: declined, and accepted for each outcome the GM may enter."""
    accepted = [{"type": kind, "accept": True}]
    for name in required_if_accepted(kind):
        field = tables.opportunity_input(kind, name)
        if field["type"] == "bool":
            accepted = [{**answer, name: value} for answer in accepted for value in (True, False)]
        else:
            accepted = [{**answer, name: field.get("default", field["range"][0])} for answer in accepted]
    return [{"type": kind, "accept": False}] + accepted


@ruleset.operation("declaration-options", OptionsInput,
                   summary="What a side commander, a hero's player or the GM may declare now, with the reason "
                           "for anything forbidden (S5.3, S11.1).")
def declaration_options(data: OptionsInput, ctx: Context) -> dict:
    state = load_state(data.state)
    scratch = Context(Dice(None, 0))
    for index, adjustment in enumerate(data.declarations.adjustments):  # the GM's draft, as R0 will apply it
        hero = next((hero for hero in state["heroes"] if hero["id"] == adjustment.hero_id), None)
        if hero is None:
            raise InvalidInput.field(f"declarations.adjustments[{index}].hero_id", "no such hero in this battle")
        adjust(scratch, hero, adjustment, f"declarations.adjustments[{index}]")
    who = data.participant
    drafts = data.declarations.heroes
    kind = "side" if who.kind == "commander" else who.kind
    if kind == "side" and who.id not in tables.SIDES:
        raise InvalidInput.field("participant.id", "a side is 'a' or 'b'")
    heroes = {hero["id"]: hero for hero in state["heroes"]}
    if kind == "hero" and who.id not in heroes:
        raise InvalidInput.field("participant.id", f"no hero {who.id!r} in this battle")
    if state["finished"]:
        must, options = False, []
    elif kind == "side":
        must, options = True, _side_options(state, who.id)
    elif kind == "hero":
        must, options = _hero_options(state, heroes[who.id], drafts.get(who.id))
    else:
        must, options = False, _gm_options(state, drafts)
    say(ctx.log, "S11.1", "options.participant", kind=who.kind, id=who.id, round=state["round"] + 1,
        count=len(options))
    return {"participant": who.model_dump(), "round": state["round"] + 1,
            "phase": "finished" if state["finished"] else "declarations", "must_declare": must, "options": options}
