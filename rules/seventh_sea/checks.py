"""``check-declaration``: would ``resolve-round`` accept this participant's part? (battle room contract)

The check *is* the resolution's own validation (``round.check_round``: free
raises, S7.2; declarations, S9.11; opportunities, S7.3.3; adjustments, S7.9)
run on the declarations merged the room's way (:mod:`.answers`), with the
default orders for whoever has not declared, on the state as the viewer knows
it (:func:`.visibility.masked`).  When another participant's declaration is
what fails, that declaration is set aside and the check runs again, so that
only this participant's own paths are ever refused.

The GM's offer is checked as if the player accepted it with his inputs at
their lowest: an offer the player may accept must never make the round fail.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import Field

from rules.contract import GM, Answer, Viewer, check_result, is_flat, participant_key
from rules.dice import Dice
from rules.errors import InvalidInput
from rules.model import Input
from rules.registry import Context
from rules.validate import parse
from rules.seventh_sea import ruleset, tables
from rules.seventh_sea.answers import (MAX_PARTICIPANTS, OFFER, answer_counts, by_participant, flatten, may_give,
                                       merge, offer_type, owner)
from rules.seventh_sea.battle import load_state
from rules.seventh_sea.entities import State
from rules.seventh_sea.messages import say, text
from rules.seventh_sea.options import Participant, check_participant
from rules.seventh_sea.round import Declarations, check_round, side_defaults
from rules.seventh_sea.visibility import check_viewer, masked

ADJUSTMENT = re.compile(r"^adjustments\[(\d+)\](.*)$")
# A refusal by the input's shape (a type, a range): its sentence is the message.
DEFAULT_MESSAGE = {"rule": "S9.0", "key": "declaration.refused", "params": {}}


class CheckInput(Input):
    state: State
    viewer: Viewer
    participant: Participant
    declaration: Answer
    declarations: Annotated[dict[str, Any], Field(max_length=500)] = {}


def known_to(viewer: str, state: dict, answers: dict[str, dict]) -> dict[str, dict]:
    """The answers ``viewer`` may know before resolution: a side its own commander's and heroes', and the
    GM's offers to its heroes (S5.3, S11.2); the GM all of them."""
    if viewer == GM:
        return answers
    own = {hero["id"] for hero in state["heroes"] if hero["side"] == viewer}
    keys = {f"side:{viewer}"} | {f"hero:{hero_id}" for hero_id in own}
    known = {key: answer for key, answer in answers.items() if key in keys}
    offers = {path: value for path, value in answers.get(GM, {}).items()
              if path.split(".")[:1] == ["heroes"] and path.split(".")[1:2] and path.split(".")[1] in own
              and path.split(".")[2:3] == [OFFER]}
    if offers:
        known[GM] = offers
    return known


def acceptances(state: dict, answers: dict[str, dict]) -> dict[str, dict]:
    """For each offer in the GM's answer that no player answer meets: the player's acceptance, his inputs at
    their lowest (S6.10), so that the GM's inputs are checked as the round would use them."""
    gm = answers.get(GM, {})
    out = {}
    for hero in state["heroes"]:
        hero_id, key = hero["id"], f"hero:{hero['id']}"
        kind = offer_type(gm, hero_id)
        whole = gm.get(f"heroes.{hero_id}.{OFFER}")
        by_gm = f"heroes.{hero_id}.{OFFER}.accept" in gm or (isinstance(whole, dict) and "accept" in whole)
        answered = (answer_counts(answers.get(key, {}), hero_id, kind)
                    and f"heroes.{hero_id}.{OFFER}.accept" in answers.get(key, {}))
        if kind not in tables.OPPORTUNITIES or by_gm or answered:
            continue
        accept = {f"heroes.{hero_id}.{OFFER}.accept": True}
        for field in tables.opportunity(kind).get("player_inputs", []):
            low = field.get("default", field["range"][0]) if field["type"] == "int" else False
            accept[f"heroes.{hero_id}.{OFFER}.{field['name']}"] = low
        out[key] = {**answers.get(key, {}), **accept}
    return out


def resolve_checks(state: dict, answers: dict[str, dict]) -> dict:
    """The declarations object ``resolve-round`` would get, after every check it makes before a die."""
    scratch = Context(Dice(None, 0))
    merged = merge(scratch, state, answers)
    decl = parse(Declarations, merged)
    side_defaults(scratch.log, decl)
    check_round(state, decl)
    return merged


def concerned(path: str, answers: dict[str, dict]) -> list[str]:
    """The participants whose answer an error at ``path`` (of the declarations object) is about."""
    if path.startswith("declarations."):
        path = path.removeprefix("declarations.")
    head = path.split(".", 1)[0]
    if head in answers and head not in ("sides", "heroes", "adjustments"):
        return [head]  # a path of merge-declarations: ``<key>.<option path>``
    if ADJUSTMENT.match(path) or path.startswith("adjustments"):
        return [GM] if GM in answers else []
    found = [key for key, answer in answers.items()
             if any(given == path or given.startswith(path + ".") or path.startswith(given + ".") for given in answer)]
    mine = owner(path)
    return sorted(set(found), key=lambda key: key != mine)  # the path's owner first


def answer_path(path: str, merged: dict | None, flat: bool) -> str:
    """An error path as the participant wrote its declaration: option paths for an answer."""
    path = path.removeprefix("declarations.")
    match = ADJUSTMENT.match(path)
    if flat and match and merged is not None:
        index, rest = int(match.group(1)), match.group(2)
        adjustments = merged.get("adjustments") or []
        if index < len(adjustments) and isinstance(adjustments[index], dict):
            return f"adjustments.{adjustments[index].get('hero_id')}{rest}"
    return path


def check(state: dict, viewer: str, key: str, own: dict, others: dict[str, dict], flat: bool) -> dict:
    refusals = {path: "not a choice of this participant" for path in own if not may_give(key, path)}
    if refusals:
        return {path: {"reason": reason, "rule": "S5.3", "key": "refusal.not_yours", "params": {}}
                for path, reason in refusals.items()}
    answers = {**known_to(viewer, state, {k: v for k, v in others.items() if k != key}), key: own}
    if key == GM:
        answers.update(acceptances(state, answers))
    for _ in range(MAX_PARTICIPANTS + 1):
        error = first_refusal(state, answers)
        if error is None:
            return {}
        merged = _merged_or_none(state, answers)
        by_whom = {path: concerned(path, answers) for path in error.fields}
        message = getattr(error, "message", None) or DEFAULT_MESSAGE  # a Refusal: the rules' reason, keyed
        mine = {answer_path(path, merged, flat): {"reason": reason, **message, **error.messages.get(path, {})}
                for path, reason in error.fields.items() if not by_whom[path] or by_whom[path][0] == key}
        if mine:
            return mine
        alone = first_refusal(state, {other: answer for other, answer in answers.items() if other != key})
        if alone is None or not set(alone.fields) & set(error.fields):
            # the others' declarations pass without this one: it is this one that makes them fail
            return {closest(own, path.removeprefix("declarations.")): {
                "reason": reason, **message, **error.messages.get(path, {})} for path, reason in error.fields.items()}
        for keys in by_whom.values():
            answers.pop(keys[0], None)
    raise AssertionError("every other declaration was set aside")  # pragma: no cover


def first_refusal(state: dict, answers: dict[str, dict]) -> InvalidInput | None:
    try:
        resolve_checks(state, answers)
    except InvalidInput as error:
        return error
    return None


def closest(own: dict, path: str) -> str:
    """The path of this participant's answer nearest to ``path`` (the longest run of keys in common)."""
    def shared(given: str) -> int:
        count = 0
        for mine, theirs in zip(given.split("."), path.split(".")):
            if mine != theirs:
                break
            count += 1
        return count
    return max(own, key=shared, default=path)


def _merged_or_none(state: dict, answers: dict[str, dict]) -> dict | None:
    try:
        return merge(Context(Dice(None, 0)), state, answers)
    except InvalidInput:
        return None


@ruleset.operation("check-declaration", CheckInput,
                   summary="Whether one participant's declaration passes every check resolve-round makes on it, "
                           "as the viewer knows the battle (S5.3, S9.11).")
def check_declaration(data: CheckInput, ctx: Context) -> dict:
    viewer = check_viewer(data.viewer)
    full = load_state(data.state)
    who = data.participant
    kind = "side" if who.kind == "commander" else who.kind
    check_participant(full, kind, who.id, viewer)
    key = GM if kind == "gm" else participant_key(kind, who.id)
    flat = is_flat(data.declaration)
    own = dict(data.declaration) if flat else flatten(data.declaration)
    others = by_participant(data.declarations) if data.declarations else {}
    refused = check(masked(full, viewer), viewer, key, own, others, flat)
    fields = {path: entry["reason"] for path, entry in refused.items()}
    messages = {}
    for path, entry in refused.items():
        params = entry["params"] or {"reason": entry["reason"]}
        messages[path] = {"rule": entry["rule"], "key": entry["key"], "params": params,
                          "text": text(entry["key"], **params)}
    say(ctx.log, "S9.11", "check.result", participant=key, viewer=viewer, refused=len(fields))
    return check_result(InvalidInput("refused", fields) if fields else None, messages)
