"""The battle room operations (``docs/battle-contract.md``): who declares, merging, checking, what a viewer reads.

``round-participants`` lists the bound's participants (``participants.py``);
``merge-declarations`` turns their answers into the S9.13 object
(``merge.py``); ``check-declaration`` runs the very ``resolve-round`` of this
bound on the state the viewer sees, with the other declarations known so far,
and keeps the refusals that concern the participant; ``visible-round`` gives a
side the events marked for it and the log steps and dice that name nothing
hidden from it (S11.3).  The readings are in ``docs/rules/heros.md``.
"""

from __future__ import annotations

import pickle
from typing import Annotated, Any, Optional

from pydantic import Field

from rules.contract import GM, Answer, Known, Viewer, check_result, hidden_from, is_flat, participant_key
from rules.dice import Dice
from rules.errors import InvalidInput
from rules.explain import Log
from rules.heros import caps, fog, ruleset
from rules.heros.merge import is_answers, merge, split_key, with_defaults
from rules.heros.options import Participant, options_for
from rules.heros.offer import text as text_of
from rules.heros.participants import roster
from rules.heros.round import AnswerMap, Round, load_state, validated
from rules.heros.state import Battle, StateModel, StillBattle
from rules.heros.visibility import check_viewer
from rules.model import ClosedInput, Input
from rules.registry import Context

OTHERS = ""  # the key of declarations given without their participants (the engine's object, or one flat answer)
CHECK_SEED = 0
SETTLE_TRIES = 1
COMBAT_PREFIXES = ("m-", "s-", "sp-", "cs-")
Entry = Annotated[dict[str, Any], Field(max_length=40)]


class RoundParticipantsInput(ClosedInput):
    state: StateModel


class MergeInput(ClosedInput):
    state: StateModel
    declarations: AnswerMap


class CheckInput(ClosedInput):
    state: StateModel
    viewer: Viewer
    participant: Participant
    declaration: Answer
    declarations: Optional[Known] = None


class ResolvedRound(Input):
    """A ``resolve-round`` output, with ``before``, the state the round started from, when known."""

    state: StateModel
    events: Annotated[list[Entry], Field(max_length=5000)] = []
    log: Annotated[list[Entry], Field(max_length=20000)] = []
    dice: Annotated[dict[Annotated[str, Field(max_length=200)], Any], Field(max_length=5000)] = {}
    defaults_applied: Annotated[list[Annotated[str, Field(max_length=80)]], Field(max_length=caps.PARTICIPANTS)] = []
    before: Optional[StateModel] = None


class VisibleRoundInput(ClosedInput):
    round: ResolvedRound
    viewer: Viewer


@ruleset.operation("round-participants", RoundParticipantsInput, summary="Who declares this bound, and their defaults (S11.2).")
def round_participants(data: RoundParticipantsInput, ctx: Context) -> dict:
    state = load_state(data.state)
    found = roster(state)
    ctx.log.add("S11.2", "participants.listed", "{count} participants declare in bound {bound}.",
                count=len(found), bound=state["bound"])
    hidden = hidden_from(fog.names(state), {side["id"]: fog.names(state, side["id"]) for side in state["sides"]})
    ctx.log.add("S11.3", "participants.hidden", "What each side may not know of: {counts}.",
                counts={side: len(ids) for side, ids in hidden.items()})
    return {"round": state["bound"], "participants": found, "names": fog.names(state), "hidden_from": hidden}


@ruleset.operation("merge-declarations", MergeInput, summary="The participants' answers as one S9.13 declarations object.")
def merge_declarations(data: MergeInput, ctx: Context) -> dict:
    """The answers merged the engine's way (``merge.py``), with the defaults of the silent participants
    the round waits for, ready for ``resolve-round``."""
    state = load_state(data.state)
    answers, applied = with_defaults(state, data.declarations, ctx.log)
    merged = validated(merge(state, answers).result)
    ctx.log.add("S9.13", "declarations.merged", "{count} answers merged into the declarations of the bound.",
                count=len(data.declarations))
    return {"declarations": merged, "defaults_applied": applied}


def others_of(declarations: dict | None, key: str) -> dict[str, dict]:
    """The other participants' answers, whatever shape they came in (``docs/battle-contract.md``)."""
    if not declarations:
        return {}
    if is_answers(declarations):
        return {k: v for k, v in declarations.items() if k != key}
    return {OTHERS: declarations}


class Checker:
    """One participant's declaration run through this bound's ``resolve-round``, as its viewer sees the battle."""

    def __init__(self, seen: dict[str, Any], key: str, declaration: dict, others: dict[str, dict]):
        self.seen, self.key, self.declaration, self.others = seen, key, declaration, others
        self.origins: dict[str, dict[str, str]] = {}
        # Each attempt resolves a fresh copy of the view; unpickling one snapshot is several times cheaper
        # than deep-copying the state every time (the copying was half of a check's cost), and as exact.
        self.snapshot = pickle.dumps(seen, pickle.HIGHEST_PROTOCOL)

    def dice(self) -> Dice:
        """Seeded dice, rallies pinned to succeed so that every declared rally move is checked (S5.6)."""
        pinned: dict[str, Any] = {}
        for c in self.seen["characters"]:
            pinned.update({f"rally.{c['id']}": 6, f"rally_units.{c['id']}": [6, 6]})
        return Dice(pinned, CHECK_SEED)

    def attempt(self, answers: dict[str, dict]) -> InvalidInput | None:
        """This bound resolved on a copy of the viewer's state with ``answers``: its refusal, if any."""
        try:
            answers, _applied = with_defaults(self.seen, answers, Log())
            merged = merge(self.seen, answers)
            self.origins = merged.origins
            declarations = validated(merged.result)
            Round(Battle(pickle.loads(self.snapshot), self.dice(), Log()), declarations).run()
        except InvalidInput as exc:
            return exc
        return None

    def answer_at(self, field: str) -> tuple[str, str] | None:
        """``(key, answer path)`` when ``field`` is a problem of an answer itself (``merge.at``), not of the
        declarations it became; the GM's answer paths start with ``gm.`` too, hence ``gm.gm.``."""
        path = field.removeprefix("declarations.")
        for key in sorted({self.key, *self.others}, key=len, reverse=True):
            if key and path.startswith(f"{key}.") and (key != GM or path.startswith("gm.gm.")):
                return key, path[len(key) + 1:]
        return None

    def owners(self, field: str) -> dict[str, str]:
        """Who declared what a refused path names: ``{participant key: answer path}`` (empty: nobody known)."""
        answered = self.answer_at(field)
        if answered is not None:
            return dict([answered])
        path = field.removeprefix("declarations.")
        best = max((p for p in self.origins if path == p or path.startswith((f"{p}.", f"{p}["))), key=len, default=None)
        return self.origins.get(best, {}) if best is not None else {}

    def settle_others(self) -> None:
        """Leave out the other declarations that fail on their own: they are their participants' to fix.

        Each try names one failure; after ``SETTLE_TRIES`` the others are all
        left out, so that a check costs at most a few resolutions of the bound
        whatever the others sent (the size caps' time budget).
        """
        for _attempt in range(SETTLE_TRIES):
            exc = self.attempt(dict(self.others)) if self.others else None
            if exc is None:
                return
            blamed = {key for field in exc.fields for key in self.owners(field)} & set(self.others)
            self.others = {k: v for k, v in self.others.items() if k not in (blamed or set(self.others))}
        if self.others and self.attempt(dict(self.others)) is not None:
            self.others = {}

    def refusals(self) -> tuple[dict[str, str], dict[str, dict]]:
        """The refused paths of this participant's declaration, and the message of each.

        A refusal on another participant's part, which passed without this
        declaration, is this declaration's doing (it took a hex, spent PA...):
        it is refused on this participant's first path, naming the other.
        """
        self.settle_others()
        exc = self.attempt({**self.others, self.key: self.declaration})
        if exc is None:
            return {}, {}
        flat = is_flat(self.declaration)
        own_first = min(self.declaration) if flat and self.declaration else ""
        fields: dict[str, str] = {}
        messages: dict[str, dict] = {}
        for field, text in exc.fields.items():
            owners = self.owners(field)
            if not owners or self.key in owners:
                answered = self.answer_at(field)
                if answered is not None or (flat and owners.get(self.key)):
                    where = owners[self.key]
                else:
                    where = field.removeprefix("declarations.")
                fields[where] = text
                keyed = exc.messages.get(field) or {"key": "declaration.refused", "params": {"reason": text}}
                messages[where] = {"rule": "S9.13", **keyed, "text": text}
            else:
                other = sorted(owners)[0]
                sentence = text_of("declaration.conflict", {"other": other, "reason": text})
                fields[own_first] = sentence
                messages[own_first] = {"rule": "S9.13", "key": "declaration.conflict",
                                       "params": {"other": other, "reason": text}, "text": sentence}
        return fields, messages


@ruleset.operation("check-declaration", CheckInput, summary="Whether one participant's declaration would pass resolve-round.")
def check_declaration(data: CheckInput, ctx: Context) -> dict:
    state = load_state(data.state)
    check_viewer(state, data.viewer)
    p = data.participant
    if p.kind == GM and data.viewer != GM:
        raise InvalidInput.field("participant.kind", "only the GM declares for the GM")
    seen = fog.view_of(state, data.viewer)
    key = participant_key(p.kind, "" if p.kind == GM else p.id)
    offered, _must = options_for(StillBattle(seen, Dice(None, CHECK_SEED), Log()), p.kind, p.id)
    paths = {o["path"] for o in offered}
    fields = {path: "not an option of this participant now" for path in data.declaration
              if is_flat(data.declaration) and path not in paths}
    messages: dict[str, dict] = {}
    if state["status"] != "ongoing":
        fields = {"": "the battle has ended"}
    elif not fields:
        fields, messages = Checker(seen, key, data.declaration, others_of(data.declarations, key)).refusals()
    ctx.log.add("S9.13", "declaration.checked", "The declaration of {participant} is checked: accepted {ok}.",
                participant=key, ok=not fields)
    out = check_result(InvalidInput("refused", fields) if fields else None, messages)
    return {**out, "participant": p.model_dump(), "viewer": data.viewer}


def mentions(value: Any, ids: set[str]) -> bool:
    """Whether a log parameter or a die name names one of ``ids`` (also as a combat id ``m-<id>``...)."""
    if isinstance(value, str):
        parts = value.split(".")
        return any(part in ids or (part.startswith(COMBAT_PREFIXES) and part.split("-", 1)[1] in ids) for part in parts)
    if isinstance(value, dict):
        return any(mentions(v, ids) for v in value.values())
    if isinstance(value, list):
        return any(mentions(v, ids) for v in value)
    return False


@ruleset.operation("visible-round", VisibleRoundInput, summary="A resolved bound as one viewer may read it (S11.3, S11.4).")
def visible_round(data: VisibleRoundInput, ctx: Context) -> dict:
    played = data.round
    after = load_state(played.state)
    before = load_state(played.before) if played.before is not None else None
    check_viewer(after, data.viewer, public=True)
    events, log, dice = list(played.events), list(played.log), dict(played.dice)
    applied = list(played.defaults_applied)
    names = fog.names(after)
    if data.viewer != GM:
        hidden: set[str] = set()
        for state in filter(None, (before, after)):
            units, chars = fog.hidden_from(state, data.viewer)
            hidden |= units | chars
        events = [e for e in events if e.get("visible_to", "all") in ("all", data.viewer)]
        log = [step for step in log if not mentions(step.get("params", {}), hidden)]
        dice = {name: value for name, value in dice.items() if not mentions(name, hidden)}
        applied = [k for k in applied if split_key(k)[1] not in hidden]
        names = {**(fog.names(before, data.viewer) if before else {}), **fog.names(after, data.viewer)}
    # the registry writes the output's ``log`` and ``dice`` from the context (HÉROS echoes its dice always):
    # the round's steps and dice this viewer may read go there, then this operation's own step
    ctx.log.extend(log)
    ctx.dice.used.update(dice)
    ctx.log.add("S11.3", "round.visible", "{shown} of {total} events shown to {viewer}.",
                shown=len(events), total=len(played.events), viewer=data.viewer)
    return {"events": events, "defaults_applied": applied, "names": names, "viewer": data.viewer}
