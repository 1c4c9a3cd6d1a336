"""From the room's answers to the engine's declarations object (``merge-declarations``, battle room contract).

Each participant answers with ``{option path: value}``: a side commander his
``sides.<s>.*`` choices, a hero's player ``heroes.<id>.engagement``,
``help_general`` and his answer to an offer, the GM everything else.  The
heroic opportunity is an exchange (S5.3, S7.3.2): the GM's answer carries the
offer (``opportunity.type`` and the GM inputs of S6.10), the player's the
``accept`` and the player inputs.  Merged, they make one ``opportunity``
object (S9.8) when the player answered the offer the GM makes now; an offer
nobody answered lapses at R0, and so does an accepted one still waiting for a
GM input it needs (the duel's result, the standard-bearer's fate): resolving
without it must not fail (``docs/rules/seventh_sea.md``).

Hero ids hold no dot (S3.1), so an option path splits on dots.  GM
adjustments come as ``adjustments.<hero id>.<field>`` options and become the
list of S7.9, one entry per hero.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from pydantic import Field

from rules.contract import ANSWERS, GM, Answer, declarations_shape, expand, is_flat
from rules.errors import InvalidInput
from rules.model import Input
from rules.registry import Context
from rules.seventh_sea import ruleset, tables
from rules.seventh_sea.battle import load_state
from rules.seventh_sea.entities import State
from rules.seventh_sea.messages import say

OFFER = "opportunity"
COMMANDER_FIELDS = frozenset({"strategy", "free_raises_spent"})
HERO_FIELDS = frozenset({"engagement", "help_general"})
# S9.8 "who": the inputs the hero's player gives; every other field of an opportunity is the GM's.
PLAYER_FIELDS = frozenset({"accept", "attack_trait", "attack_knack", "tn_to_be_hit"})
DRAFTED = ("type", "accept", "captured", "tn", "refusal_reputation_loss", "opponent_id")  # what a form follows
MAX_PARTICIPANTS = 40  # two sides, the GM and up to 30 heroes (S3.7 caps the heroes)


def owner(path: str) -> str:
    """The key of the participant who declares ``path`` (``"gm"`` for everything the GM sets)."""
    parts = path.split(".")
    if parts[0] == "sides" and len(parts) >= 3 and parts[2] in COMMANDER_FIELDS:
        return f"side:{parts[1]}"
    if parts[0] == "heroes" and len(parts) >= 2:
        rest = parts[2:]
        if not rest or rest[0] in HERO_FIELDS or (rest[0] == OFFER and len(rest) > 1 and rest[1] in PLAYER_FIELDS):
            return f"hero:{parts[1]}"
    return GM


def may_give(key: str, path: str) -> bool:
    """Whether ``key`` may give ``path``: its own fields; a player also names the offer he answers
    (``opportunity.type``), and the GM may answer for an absent player (S11.2)."""
    mine = owner(path)
    if mine == key:
        return True
    parts = path.split(".")
    offer_field = len(parts) >= 3 and parts[0] == "heroes" and parts[2] == OFFER
    if key == GM:
        return offer_field
    return offer_field and key == f"hero:{parts[1]}" and parts[3:] == ["type"]


def adjustments_list(value: Any) -> Any:
    """``{hero id: {field: value}}`` (the per-hero options) as the S7.9 list; a list is kept as it is."""
    if isinstance(value, dict):
        return [{"hero_id": hero_id, **fields} if isinstance(fields, dict) else fields
                for hero_id, fields in value.items()]
    return value


def engine_object(declarations: dict) -> dict:
    """The declarations object from either shape: merged answers are expanded, adjustments listed."""
    declarations = json.loads(json.dumps(declarations))  # expand() writes into nested values: work on a copy
    nested = expand(declarations) if is_flat(declarations) else declarations
    if "adjustments" in nested:
        nested["adjustments"] = adjustments_list(nested["adjustments"])
    return nested


def heroes_of(declarations: dict) -> dict:
    """The ``heroes`` object of a declarations object; anything else there is left for validation to refuse."""
    heroes = declarations.get("heroes")
    return heroes if isinstance(heroes, dict) else {}


def flatten(node: dict, prefix: str = "") -> dict[str, Any]:
    """A nested declarations object (or draft) as ``{path: value}``; lists (adjustments) stay whole."""
    flat: dict[str, Any] = {}
    for key, value in node.items():
        path = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, dict) and value and path != "adjustments":
            flat.update(flatten(value, path))
        else:
            flat[path] = value
    return flat


def by_participant(declarations: dict) -> dict[str, dict]:
    """Any shape of declarations (:func:`rules.contract.declarations_shape`) as ``{participant key: answer}``,
    each path of the object or of one answer given to its owner."""
    if declarations_shape(declarations) == ANSWERS:
        return {key: dict(answer) for key, answer in declarations.items() if isinstance(answer, dict)}
    split: dict[str, dict] = {}
    for path, value in flatten(engine_object(declarations) if is_flat(declarations) else declarations).items():
        split.setdefault(owner(path), {})[path] = value
    return split


def check_keys(state: dict, answers: dict[str, Any], path: str = "declarations") -> None:
    """Every key names a participant of this battle and every path is one it may give."""
    heroes = {hero["id"] for hero in state["heroes"]}
    for key, answer in answers.items():
        kind, _, ident = key.partition(":")
        known = key == GM or (kind == "side" and ident in tables.SIDES) or (kind == "hero" and ident in heroes)
        if not known:
            raise InvalidInput.field(f"{path}.{key}", "no such participant in this battle (gm, side:<a|b>, "
                                     "hero:<id>)")
        if not isinstance(answer, dict):
            raise InvalidInput.field(f"{path}.{key}", "must be an object of option paths")
        for field in answer:
            if not may_give(key, field):
                raise InvalidInput.field(f"{path}.{key}.{field}", "not a choice of this participant")


def offer_type(gm: dict, hero_id: str) -> Any:
    whole = gm.get(f"heroes.{hero_id}.{OFFER}")
    return gm.get(f"heroes.{hero_id}.{OFFER}.type", whole.get("type") if isinstance(whole, dict) else None)


def answer_counts(answer: dict, hero_id: str, offered: Any) -> bool:
    """A player's answer counts when it answers the offer the GM makes now (same type, or none named)."""
    named = answer.get(f"heroes.{hero_id}.{OFFER}.type")
    return offered is not None and named in (None, offered)


def exchange(answers: dict[str, dict]) -> dict[str, Any]:
    """All answers as one ``{path: value}``: the GM's first, then the commanders' and the players'
    (a player's own answer wins over the GM's for an absent player); a player's stale answer is left out."""
    gm = answers.get(GM, {})
    merged = dict(gm)
    for key in sorted(answers):
        if key == GM:
            continue
        answer = answers[key]
        if key.startswith("hero:"):
            hero_id = key.partition(":")[2]
            if not answer_counts(answer, hero_id, offer_type(gm, hero_id)):
                answer = {path: value for path, value in answer.items()
                          if not path.startswith(f"heroes.{hero_id}.{OFFER}")}
        merged.update(answer)
    return merged


def gm_required(kind: str) -> list[str]:
    """The GM inputs an accepted opportunity of ``kind`` cannot do without (S6.10)."""
    return [field["name"] for field in tables.opportunity(kind).get("gm_inputs", [])
            if field.get("required_if_accepted") or ("default" not in field and field.get("required", True))]


def complete_offers(ctx: Context, declarations: dict) -> dict:
    """Drop the ``opportunity`` objects that cannot start: no type, no answer, or accepted without a GM
    input it needs (they lapse at R0, S7.3.2); ``declarations`` is changed in place and returned."""
    for hero_id, decl in heroes_of(declarations).items():
        offer = decl.get(OFFER) if isinstance(decl, dict) else None
        if not isinstance(offer, dict):
            continue
        kind = offer.get("type")
        missing = ([name for name in gm_required(kind) if offer.get(name) is None]
                   if kind in tables.OPPORTUNITIES and offer.get("accept") is True else [])
        if kind is None or "accept" not in offer or missing:
            del decl[OFFER]
            say(ctx.log, "S7.3", "opportunity.incomplete", hero_id=hero_id, missing=missing or ["accept"])
    return declarations


def merge(ctx: Context, state: dict, answers: dict[str, dict]) -> dict:
    """The engine's declarations object from ``{participant key: answer}``."""
    check_keys(state, answers)
    return complete_offers(ctx, engine_object(exchange(answers)))


def draft_of(raw: dict) -> dict:
    """The ``declaration-options`` draft that answers make: each hero's help, the offer with the answer
    that counts (an offer not answered yet keeps its type), the GM's adjustments."""
    nested = engine_object(exchange(by_participant(raw)) if declarations_shape(raw) == ANSWERS else raw)
    heroes = {}
    for hero_id, decl in heroes_of(nested).items():
        if not isinstance(decl, dict):
            continue
        entry = {name: decl[name] for name in ("help_general",) if name in decl}
        offer = decl.get(OFFER)
        if isinstance(offer, dict):
            entry[OFFER] = {name: offer[name] for name in DRAFTED if name in offer}
        if entry:
            heroes[hero_id] = entry
    return {"heroes": heroes, "adjustments": nested.get("adjustments", [])}


class MergeInput(Input):
    state: State
    declarations: Annotated[dict[str, Answer], Field(max_length=MAX_PARTICIPANTS)]


@ruleset.operation("merge-declarations", MergeInput,
                   summary="The resolve-round declarations object from each participant's answer: the GM's "
                           "offers joined to the players' answers (S5.3, S7.3).")
def merge_declarations(data: MergeInput, ctx: Context) -> dict:
    state = load_state(data.state)
    merged = merge(ctx, state, data.declarations)
    say(ctx.log, "S5.3", "declarations.merged", participants=sorted(data.declarations))
    return {"declarations": merged}
