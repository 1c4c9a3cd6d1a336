"""``declaration-options``: what a participant may declare now, and why anything else is forbidden.

For the web layer's forms (S11.1): the answer is computed from the same rules
as ``resolve-round`` (S5.3, S5.4 R0–R1, S7.1–S7.3, S7.9), so a declaration
built only from allowed values is accepted, whatever the other participants
choose.  Two things make that hold:

* the heroic opportunity is one object whose required fields depend on its
  type (S9.8), so the GM is offered it whole, as a list of complete answers;
* a hero offered an opportunity may not lend his Leadership while the answer
  may still be an accepted ``medic`` (a resting hero cannot help, S7.1).

Asked with a ``viewer`` (battle room contract), the answer is computed from
the state that viewer may know (:func:`.visibility.masked`) and the draft
entries of its own heroes, the GM's adjustments come hero by hero, and each
option says whose answer holds it (``declared_by``, a participant key: a
hero's player gives his answer to an offer, S9.8, though the GM's form offers
it too for an absent player).  Every label and refusal carries its message
key and params; the player's answer to an offer carries the offer's terms as
its help (:mod:`.terms`).

The optional ``declarations`` draft (the resolve-round object filled so far,
or the room's answers, merged or by participant) lets each form see the
choices already made and offer more: the GM's
adjustments (a revived hero must declare, cleared effects impose nothing), the
GM's chosen type (its fields one by one, the player's answer, help allowed
again unless it is an accepted medic), and a player's help (no medic then).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from rules.contract import GM, Viewer
from rules.dice import Dice
from rules.errors import InvalidInput
from rules.model import Input
from rules.registry import Context
from rules.seventh_sea import ruleset, tables
from rules.seventh_sea.answers import draft_of, owner
from rules.seventh_sea.battle import load_state
from rules.seventh_sea.effects import REST, forced_engagement
from rules.seventh_sea.entities import FORT_HIGH, FORT_LOW, OpportunityType, State, unconscious_at
from rules.seventh_sea.messages import say, text
from rules.seventh_sea.opportunities import (Loss, OpponentId, OpportunityDecl, Tn, new_effect, refusal,
                                             required_if_accepted)
from rules.seventh_sea.round import Adjustment, adjust
from rules.seventh_sea.terms import offer_terms
from rules.seventh_sea.visibility import check_viewer, masked, names

MODIFIER_RANGE = (-100, 100)
NPC_RANGE = (0, 50)
TROOPS_RANGE = (1, 10_000_000)
ADJUSTED_FLESH_MAX, ADJUSTED_DRAMATIC_MAX = 999, 20  # S3.5 entry ranges, as Adjustment takes them


class DraftOpportunity(Input):
    """The offer as drafted so far; the GM's inputs besides ``captured`` only word its terms (S11.1)."""

    type: OpportunityType | None = None
    accept: bool | None = None
    captured: bool | None = None
    tn: Tn | None = None
    refusal_reputation_loss: Loss | None = None
    opponent_id: OpponentId | None = None


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
    viewer: Viewer | None = None
    declarations: Draft = Field(default_factory=Draft)

    @model_validator(mode="before")
    @classmethod
    def _answers(cls, data: Any) -> Any:
        """Any shape of the declarations known so far (``docs/battle-contract.md``: the engine's object,
        answers by participant key, one answer) is read as the draft it makes."""
        if isinstance(data, dict) and isinstance(data.get("declarations"), dict):
            data = {**data, "declarations": draft_of(data["declarations"])}
        return data


def option(path: str, label: tuple[str, dict], kind: str, *, allowed: list | None = None, low: int | None = None,
           high: int | None = None, default: Any = None, required: bool = False,
           forbidden: list[dict] | None = None, help: tuple[str, dict] | None = None) -> dict:
    """One field of a form; ``label`` is ``(message key, params)``, its English sentence the ``label``;
    ``help`` likewise a longer explanation (``help``, ``help_key``, ``help_params``)."""
    key, params = label
    entry: dict[str, Any] = {"path": path, "label": text(key, **params), "type": kind}
    if allowed is not None:
        entry["allowed"] = allowed
    if low is not None:
        entry["min"], entry["max"] = low, high
    entry.update(default=default, required=required, forbidden=forbidden or [], label_key=key, label_params=params)
    if help is not None:
        entry.update(help=text(help[0], **help[1]), help_key=help[0], help_params=help[1])
    return entry


def refused(value: Any, rule: str, key: str, **params: Any) -> dict:
    """A forbidden value, with why: the English ``reason`` and its message ``key`` and ``params``."""
    return {"value": value, "reason": text(key, **params), "rule": rule, "key": key, "params": params}


def _side_options(state: dict, letter: str) -> list[dict]:
    side = state["sides"][letter]
    role = "attacker" if state["attacker"] == letter else "defender"
    pool = side["free_raises"]
    return [
        option(f"sides.{letter}.strategy", (f"option.strategy.{role}", {}), "choice",
               allowed=list(tables.STRATEGIES), required=True),
        option(f"sides.{letter}.free_raises_spent", ("option.free_raises_spent", {}), "integer", low=0, high=pool,
               default=0, forbidden=[refused(pool + 1, "S7.2", "refusal.free_raises", pool=pool)]),
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
        out = [refused(level, "H35", "refusal.unconscious") for level in tables.ENGAGEMENTS]
        return False, [option(f"{path}.engagement", ("option.engagement", {}), "choice", allowed=[], forbidden=out)]
    forced, by = _imposed(hero, draft)
    options = []
    if forced == REST:
        options.append(option(f"{path}.engagement", ("option.engagement.rest", {}), "choice", allowed=[],
                              forbidden=[refused(level, "S7.4.1", "refusal.resting", by=by)
                                         for level in tables.ENGAGEMENTS]))
        options.append(option(f"{path}.help_general", ("option.help_general.plain", {}), "boolean",
                              allowed=[False], default=False,
                              forbidden=[refused(True, "S7.1", "refusal.help_resting")]))
    else:
        if forced is not None:
            options.append(option(f"{path}.engagement", ("option.engagement.imposed", {"by": by, "engagement": forced}),
                                  "choice", allowed=[forced], default=forced,
                                  forbidden=[refused(level, "S4.12", "refusal.imposed", by=by, engagement=forced)
                                             for level in tables.ENGAGEMENTS if level != forced]))
        else:
            options.append(option(f"{path}.engagement", ("option.engagement", {}), "choice",
                                  allowed=list(tables.ENGAGEMENTS), required=True))
        label = ("option.help_general", {"leadership": hero["leadership"]})
        if _may_rest(hero, draft):
            options.append(option(f"{path}.help_general", label, "boolean", allowed=[False], default=False,
                                  forbidden=[refused(True, "S7.1", "refusal.help_maybe_medic")]))
        else:
            options.append(option(f"{path}.help_general", label, "boolean", allowed=[False, True], default=False))
    kind = _draft_type(draft)
    if hero["opportunity_pending"] and kind:
        # S7.3.2: the GM picks the opportunity first (draft ``opportunity.type``), then the player answers.
        options.append(option(f"{path}.opportunity.accept", ("option.opportunity.accept", {"type": kind}),
                              "boolean", allowed=[True, False], required=True, help=_terms(state, kind, draft)))
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
            name, label = field["name"], ("option.opportunity.input", {"name": field["name"], "type": kind})
            required = needed and name in required_if_accepted(kind)
            if field["type"] == "bool":
                options.append(option(f"{path}.{name}", label, "boolean", allowed=[True, False], required=required))
            elif field["type"] == "int":
                low, high = field["range"]
                options.append(option(f"{path}.{name}", label, "integer", low=low, high=high,
                                      default=field.get("default"), required=required))
            else:
                options.append(option(f"{path}.{name}", ("option.opportunity.opponent", label[1]), "choice",
                                      allowed=opponents))
    return options


def _terms(state: dict, kind: str, draft: DraftHero) -> tuple[str, dict]:
    return offer_terms(kind, draft.opportunity.model_dump(), names(state))


def _draft_type(draft: DraftHero | None) -> str | None:
    return draft.opportunity.type if draft and draft.opportunity else None


def _draft_accept(draft: DraftHero | None) -> bool:
    return bool(draft and draft.opportunity and draft.opportunity.accept)


def _gm_options(state: dict, drafts: dict[str, DraftHero], *, per_hero: bool) -> list[dict]:
    """The GM's overrides; ``per_hero``: adjustments as fields by hero (asked with a viewer) rather than
    the one ``adjustments`` list of the first forms (kept as it was for callers without a viewer)."""
    options = []
    for letter in tables.SIDES:
        side, path = state["sides"][letter], f"sides.{letter}"
        options += [
            option(f"{path}.gm_modifier", ("option.side.gm_modifier", {"side": letter}), "integer",
                   low=MODIFIER_RANGE[0], high=MODIFIER_RANGE[1], default=0),
            option(f"{path}.troops", ("option.side.troops", {"side": letter}), "integer", low=TROOPS_RANGE[0],
                   high=TROOPS_RANGE[1], default=side["troops"]),
            option(f"{path}.fortification_level", ("option.side.fortification_level", {"side": letter}),
                   "integer", low=FORT_LOW, high=FORT_HIGH, default=side["fortification_level"]),
            *[option(f"{path}.terrain.{flag}", ("option.side.terrain", {"side": letter, "flag": flag}), "boolean",
                     allowed=[False, True], default=side["terrain"][flag]) for flag in tables.terrain_modifiers()],
            option(f"{path}.npc_heroes_front_line", ("option.side.npc_heroes_front_line", {"side": letter}),
                   "integer", low=NPC_RANGE[0], high=NPC_RANGE[1], default=0),
            option(f"{path}.npc_heroes_taken_out", ("option.side.npc_heroes_taken_out", {"side": letter}), "integer",
                   low=NPC_RANGE[0], high=NPC_RANGE[1], default=0),
        ]
    for hero in state["heroes"]:
        if hero["status"] != "active":
            continue
        path = f"heroes.{hero['id']}"
        who = {"hero": hero["name"], "hero_id": hero["id"]}
        options += [option(f"{path}.gm_modifier", ("option.hero.gm_modifier", who), "integer",
                           low=MODIFIER_RANGE[0], high=MODIFIER_RANGE[1], default=0),
                    option(f"{path}.wound_check_modifier", ("option.hero.wound_check_modifier", who),
                           "integer", low=MODIFIER_RANGE[0], high=MODIFIER_RANGE[1], default=0)]
        if hero["opportunity_pending"]:
            options += _gm_opportunity(state, hero, drafts.get(hero["id"]))
    if not per_hero:
        beyond_revival = [refused({"hero_id": hero["id"], "status": "active"}, "S7.9", "refusal.beyond_revival",
                                  **_revival(hero)) for hero in state["heroes"] if _beyond_revival(hero)]
        options.append(option("adjustments", ("option.adjustments", {}), "list",
                              allowed=[hero["id"] for hero in state["heroes"]], default=[], forbidden=beyond_revival))
        return options
    for hero in state["heroes"]:
        options += _adjustment_options(hero)
    return options


def _beyond_revival(hero: dict) -> bool:
    return hero["status"] != "active" and hero["dramatic_wounds"] >= unconscious_at(hero)


def _revival(hero: dict) -> dict:
    return {"hero": hero["name"], "dramatic_wounds": hero["dramatic_wounds"], "unconscious_at": unconscious_at(hero)}


def _adjustment_options(hero: dict) -> list[dict]:
    """S7.9 for one hero, field by field (what the GM gives replaces the hero's value at R0).

    Reviving is refused while the hero's dramatic wounds (as the GM's draft leaves them) keep him out.
    """
    path, who = f"adjustments.{hero['id']}", {"hero": hero["name"], "hero_id": hero["id"]}
    revive = [refused("active", "S7.9", "refusal.beyond_revival", **_revival(hero))] if _beyond_revival(hero) else []
    return [
        option(f"{path}.flesh_wounds", ("option.adjustment.flesh_wounds", who), "integer", low=0,
               high=ADJUSTED_FLESH_MAX),
        option(f"{path}.dramatic_wounds", ("option.adjustment.dramatic_wounds", who), "integer", low=0,
               high=ADJUSTED_DRAMATIC_MAX),
        option(f"{path}.status", ("option.adjustment.status", who), "choice",
               allowed=[status for status in tables.STATUSES if not (revive and status == "active")], forbidden=revive),
        option(f"{path}.clear_effects", ("option.adjustment.clear_effects", who), "boolean", allowed=[False, True],
               default=False),
    ]


def _gm_opportunity(state: dict, hero: dict, draft: DraftHero | None) -> list[dict]:
    path = f"heroes.{hero['id']}.opportunity"
    allowed, forbidden = [], []
    for kind in tables.OPPORTUNITIES:
        problem = refusal(hero, kind)
        if problem is None and kind == "medic" and draft and draft.help_general:
            problem = ("", "S7.1", "refusal.opportunity.helping", {})
        if problem:
            forbidden.append(refused(kind, problem[1], problem[2], **problem[3]))
        else:
            allowed.append(kind)
    # The opportunity is one object whose fields depend on its type (S9.8): offered whole, as complete answers
    # (inputs at their default or lowest value), so that any allowed value is a valid declaration by itself.
    options = [option(path, ("option.opportunity.offer", {"hero": hero["name"], "hero_id": hero["id"]}), "object",
                      allowed=[answer for kind in allowed for answer in _answers(kind)],
                      forbidden=[{**entry, "value": {"type": entry["value"]}} for entry in forbidden])]
    kind = _draft_type(draft)
    if kind is None:
        return options
    # Once the draft names the type, its fields one by one; the player's are there for absent players (S11.2).
    options += [option(f"{path}.type", ("option.opportunity.type", {}), "choice",
                       allowed=[kind] if kind in allowed else [], required=True, forbidden=forbidden),
                option(f"{path}.accept", ("option.opportunity.gm_accept", {}), "boolean",
                       allowed=[True, False], required=True, help=_terms(state, kind, draft))]
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


def check_participant(state: dict, kind: str, ident: str, viewer: str | None) -> None:
    """The participant exists, and a side viewer asks only for its own commander and heroes."""
    if kind == "side" and ident not in tables.SIDES:
        raise InvalidInput.field("participant.id", "a side is 'a' or 'b'")
    heroes = {hero["id"]: hero for hero in state["heroes"]}
    if kind == "hero" and ident not in heroes:
        raise InvalidInput.field("participant.id", f"no hero {ident!r} in this battle")
    if viewer is None or viewer == GM:
        return
    side = ident if kind == "side" else heroes[ident]["side"] if kind == "hero" else None
    if side != viewer:
        raise InvalidInput.field("participant", f"side {viewer} does not declare for this participant")


def _seen_draft(draft: Draft, state: dict, viewer: str | None) -> Draft:
    """The draft as ``viewer`` may know it: a side knows its own heroes' choices and offers, not the GM's
    adjustments (S5.3, S11.2)."""
    if viewer is None or viewer == GM:
        return draft
    own = {hero["id"] for hero in state["heroes"] if hero["side"] == viewer}
    return Draft(heroes={hero_id: entry for hero_id, entry in draft.heroes.items() if hero_id in own})


@ruleset.operation("declaration-options", OptionsInput,
                   summary="What a side commander, a hero's player or the GM may declare now, as the viewer knows "
                           "the battle, with the reason for anything forbidden (S5.3, S11.1).")
def declaration_options(data: OptionsInput, ctx: Context) -> dict:
    viewer = check_viewer(data.viewer) if data.viewer is not None else None
    full = load_state(data.state)
    who = data.participant
    kind = "side" if who.kind == "commander" else who.kind
    check_participant(full, kind, who.id, viewer)
    state = masked(full, viewer) if viewer is not None else full
    declarations = _seen_draft(data.declarations, state, viewer)
    scratch = Context(Dice(None, 0))
    for index, adjustment in enumerate(declarations.adjustments):  # the GM's draft, as R0 will apply it
        hero = next((hero for hero in state["heroes"] if hero["id"] == adjustment.hero_id), None)
        if hero is None:
            raise InvalidInput.field(f"declarations.adjustments[{index}].hero_id", "no such hero in this battle")
        adjust(scratch, hero, adjustment, f"declarations.adjustments[{index}]")
    drafts = declarations.heroes
    heroes = {hero["id"]: hero for hero in state["heroes"]}
    if state["finished"]:
        must, options = False, []
    elif kind == "side":
        must, options = True, _side_options(state, who.id)
    elif kind == "hero":
        must, options = _hero_options(state, heroes[who.id], drafts.get(who.id))
    else:
        must, options = False, _gm_options(state, drafts, per_hero=viewer is not None)
    if viewer is not None:  # whose answer holds each field (S9.8 "who"): the player's, the commander's or the GM's
        options = [{**option, "declared_by": owner(option["path"])} for option in options]
    say(ctx.log, "S11.1", "options.participant", kind=who.kind, id=who.id, round=state["round"] + 1,
        count=len(options))
    return {"participant": who.model_dump(), "round": state["round"] + 1,
            "phase": "finished" if state["finished"] else "declarations", "must_declare": must, "options": options,
            "viewer": viewer, "names": names(full)}
