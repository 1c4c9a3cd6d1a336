"""The battle room contract's own operations (docs/battle-contract.md, docs/rules/dnd5e.md):
``round-participants``, ``merge-declarations``, ``check-declaration`` and ``visible-round``."""

from __future__ import annotations

import copy
from typing import Annotated, Any

from pydantic import Field

from rules.contract import GM, PUBLIC, Answer, Known, Viewer, check_result, hidden_from, is_flat, participant_key
from rules.dnd5e import caps, ruleset
from rules.dnd5e.adjustments import apply_adjustment
from rules.dnd5e.answers import Merged, as_declarations, known, merge
from rules.dnd5e.battle import Battle
from rules.dnd5e.entities import BattleState
from rules.dnd5e.fog import fogged, names_any, unknown_to
from rules.dnd5e.orders import Declarations, validate, validate_paths
from rules.dnd5e.participants import names, participants
from rules.dnd5e.refusals import describe
from rules.dnd5e.web_ops import Participant, for_participant, viewer_side
from rules.errors import InvalidInput
from rules.explain import Log
from rules.model import Input
from rules.registry import Context
from rules.validate import parse

KEY_PATTERN = r"^(gm|(side|unit|solo):[A-Za-z][A-Za-z0-9_-]{0,39})$"
ParticipantKey = Annotated[str, Field(pattern=KEY_PATTERN)]
Answers = Annotated[dict[ParticipantKey, Answer], Field(max_length=caps.UNITS + caps.SOLOS + 3)]


class ParticipantsInput(Input):
    state: BattleState
    viewer: Viewer | None = None


@ruleset.operation("round-participants", ParticipantsInput,
                   summary="Who declares this round, what each commands and its default orders (S5.3, S11.1).")
def round_participants(data: ParticipantsInput, ctx: Context) -> dict:
    b = Battle.from_input(data.state, ctx.log)
    side = viewer_side(b, data.viewer)
    sides = sorted(b.st["sides"])
    unknown = {s: unknown_to(b.st, s) for s in sides}
    out = []
    for p in participants(b.st):
        ident = p["participant"]["id"]
        others = [s for s in sides if s != p["side"]] if p["side"] else []
        p["public"] = not any(ident in unknown[s] for s in others)
        if side is None or p["side"] == side or (p["side"] is not None and p["public"]):
            out.append(p)
    waiting = sum(p["must_declare"] for p in out)
    ctx.log.add("S5.3", "participants.list", "{count} participants in round {round}, {waiting} of them awaited.",
                count=len(out), round=b.round, waiting=waiting)
    answer = {"round": b.round, "participants": out, "names": names(fogged(b.st, side))}
    if side is None:  # the GM's answer says what each side may not know of (S11.3)
        answer["hidden_from"] = hidden_from(names(b.st), {s: names(fogged(b.st, s)) for s in sides})
        ctx.log.add("S11.3", "participants.hidden", "What each side may not know of: {counts}.",
                    counts={s: len(ids) for s, ids in answer["hidden_from"].items()})
    return answer


class MergeInput(Input):
    state: BattleState
    declarations: Answers


@ruleset.operation("merge-declarations", MergeInput,
                   summary="The declarations object of S9.13.2 from each participant's answer.")
def merge_declarations(data: MergeInput, ctx: Context) -> dict:
    Battle.from_input(data.state, ctx.log)
    merged = as_declarations(merge(data.declarations).declarations)
    ctx.log.add("S9.13.2", "declarations.merged", "Answers of {count} participants merged into the round's "
                "declarations.", count=len(data.declarations))
    return {"declarations": merged}


class CheckInput(Input):
    state: BattleState
    viewer: Viewer
    participant: Participant
    declaration: Answer
    declarations: Known | None = None


@ruleset.operation("check-declaration", CheckInput,
                   summary="Whether resolve-round would accept one participant's declaration (S9.13.3).")
def check_declaration(data: CheckInput, ctx: Context) -> dict:
    b, side, kind = for_participant(data.state, data.viewer, data.participant, ctx)
    known(data.declarations)  # read, and refused when malformed: no check of S9.13.3 weighs another's orders
    key = participant_key(kind, data.participant.id or "")
    flat = is_flat(data.declaration)
    merged = Merged()
    error = None
    try:
        if side is not None and kind == "unit" and b.units[data.participant.id]["broken"]:
            _only_if_rallied(data.participant.id, data.declaration)
        merged.add(key, data.declaration)
        merged.finish()
        merged.refuse_unnamed()
        decl = parse(Declarations, merged.declarations)
        validate(b, decl)
        validate_paths(b, decl)
        if kind == "gm":
            trial = Battle(copy.deepcopy(b.st), b.profiles)
            for i, adjustment in enumerate(decl.gm.adjustments):
                apply_adjustment(trial, i, adjustment)
    except InvalidInput as exc:
        where = {path: _answer_path(merged, path, key, data.declaration, flat) for path in exc.fields}
        error = InvalidInput(exc.error, {where[path]: text for path, text in exc.fields.items()},
                             {where[path]: message for path, message in exc.messages.items() if path in where})
    result = check_result(error)
    for path, text in result["fields"].items():
        keyed = error.messages.get(path) if error is not None else None  # said by key; else read from its words
        refusal, params = (keyed["key"], keyed["params"]) if keyed else describe(text)
        result["messages"][path] = {"rule": "S9.13.3", "key": refusal, "params": params, "text": text}
    if result["ok"]:
        ctx.log.add("S9.13.3", "check.accepted", "The declaration of {participant} would be accepted.",
                    participant=key)
    else:
        ctx.log.add("S9.13.3", "check.refused", "The declaration of {participant} would be refused at {count} "
                    "fields.", participant=key, count=len(result["fields"]))
    return result


def _only_if_rallied(uid: str, declaration: dict) -> None:
    """A broken unit's orders are the GM's; its side declares only those for after a rally (S5.3, S5.13.3)."""
    own = f"units.{uid}.if_rallied"
    flat = declaration if is_flat(declaration) else {f"units.{uid}.{k}": v for k, v in
                                                     (declaration.get("units", {}).get(uid) or {}).items()}
    for path in flat:
        if path != own and not path.startswith(f"{own}."):
            raise InvalidInput.field(path, "the GM gives the orders of a broken unit")


def _answer_path(merged: Merged, path: str, key: str, answer: dict, flat: bool) -> str:
    """A refused path as the participant wrote it: an option path when it answered with paths."""
    path = path.removeprefix("declarations.")
    if ":" in key:  # a merge refusal names the answer's key first
        path = path.removeprefix(f"{key}.")
    if not flat or path.removesuffix(".stand") in merged.unnamed:  # already where the answer wrote it
        return path
    path = merged.answer_path(path)
    written = [p for p in answer if path == p or path.startswith(f"{p}.") or path.startswith(f"{p}[")]
    return max(written, key=len) if written else path


Events = Annotated[list[Annotated[dict[str, Any], Field(max_length=40)]], Field(max_length=20_000)]


class LogStep(Input):
    rule: str = Field(default="", max_length=40)
    key: str = Field(default="", max_length=80)
    params: dict[str, Any] = Field(default_factory=dict, max_length=40)
    text: str = Field(default="", max_length=4000)


LogSteps = Annotated[list[LogStep], Field(max_length=40_000)]


class RoundOutput(Input):
    state: BattleState
    before: BattleState | None = None
    events: Events = []
    log: LogSteps = []
    dice: Annotated[dict[Annotated[str, Field(max_length=200)], Any], Field(max_length=40_000)] = {}
    defaults_applied: Annotated[list[ParticipantKey], Field(max_length=caps.UNITS + caps.SOLOS)] = []


class VisibleRoundInput(Input):
    round: RoundOutput
    viewer: Viewer


@ruleset.operation("visible-round", VisibleRoundInput,
                   summary="A resolved round's events, dice and log as one viewer may read them (S11.3).")
def visible_round(data: VisibleRoundInput, ctx: Context) -> dict:
    quiet = Log()  # reading the states adds nothing to the round's story
    after = Battle.from_input(data.round.state, quiet, "round.state").st
    before = Battle.from_input(data.round.before, quiet, "round.before").st if data.round.before else None
    if data.viewer not in (GM, PUBLIC) and data.viewer not in after["sides"]:
        raise InvalidInput.field("viewer", 'must be "gm", a side id or "public"')
    side = None if data.viewer == GM else data.viewer
    events, log, dice = data.round.events, data.round.log, data.round.dice
    defaults = list(data.round.defaults_applied)
    known = names(fogged(after, side))
    if side is not None:
        now_hidden = unknown_to(after, side)
        was_hidden = unknown_to(before, side) if before else set()
        hidden = was_hidden | now_hidden
        # an attack by a creature hidden when the round began is told, not where it came from (S11.3)
        events = [_without_squares(e) if names_any(e, was_hidden) else e
                  for e in events if not names_any(e, now_hidden)]
        log = [step for step in log if not names_any(step.params, hidden)]
        dice = {name: value for name, value in dice.items() if not names_any(name, hidden)}
        defaults = [k for k in defaults if not names_any(k.partition(":")[2], hidden)]
        if before:
            known = {**names(fogged(before, side)), **known}
    # the output's log and dice are the round's as the viewer may read them (the registry echoes both)
    ctx.log.extend([step.model_dump() for step in log])
    ctx.dice.used.update(dice)
    # The count is of what the viewer reads: the round's total would tell a side how busy its hidden enemy was.
    ctx.log.add("S11.3", "visible.round", "{count} of the round's events shown to {viewer}.",
                count=len(events), viewer=data.viewer)
    return {"events": events, "defaults_applied": defaults, "names": known}


def _without_squares(event: dict) -> dict:
    """An event without its squares (a move's start and end): where a hidden creature stood stays secret."""
    return {k: v for k, v in event.items() if not (_square(v) or isinstance(v, list) and v and all(map(_square, v)))}


def _square(value) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value)
