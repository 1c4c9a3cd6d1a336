"""The battle room contract (``docs/battle-contract.md``) for JdRWiki: the operations the web asks.

``round-participants``, ``check-declaration``, ``merge-declarations``,
``visible-round`` and ``end-battle``.  ``declaration-options``,
``visible-state`` and ``resolve-round`` keep their place in
:mod:`rules.jdrwiki.operations` and gain the contract's fields there.
The engine's reading of the contract is ``docs/rules/jdrwiki.md``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from rules.contract import GM, PUBLIC, Answer, Known, Viewer, hidden_from, participant_key
from rules.errors import InvalidInput
from rules.jdrwiki import answers, checks, defaults, entities, fog, ruleset, setup, standing
from rules.jdrwiki.battle import Battle, dump_state
from rules.jdrwiki.entities import Id
from rules.jdrwiki.names import names
from rules.jdrwiki.visibility import visible
from rules.explain import Log
from rules.model import Input
from rules.registry import Context

KINDS = ("side", "army", "commander", "corps", "unit", "hero", "gm")


def load(ctx: Context, state: entities.State) -> Battle:
    return Battle(dump_state(state), ctx.dice, ctx.log)


def check_viewer(viewer: str, path: str = "viewer", *, public: bool = False) -> str:
    """The GM or a side; also ``PUBLIC`` where ``public`` (reading only: it is the enemy of every side)."""
    if viewer not in (GM, *standing.SIDES) and not (public and viewer == PUBLIC):
        raise InvalidInput.field(path, 'must be "gm", "a" or "b"' + (' or "public"' if public else ""))
    return viewer


def seen_names(state: dict, viewer: str) -> dict[str, str]:
    """The names a viewer may know: from the state as its ``visible-state`` shows it."""
    return names(state if viewer == GM else visible(state, viewer, True, Log())[0])


# ---------------------------------------------------------------- round-participants


class RoundParticipantsInput(Input):
    state: entities.State


@ruleset.operation("round-participants", RoundParticipantsInput,
                   summary="Who declares this round, what each commands, who is awaited, and the defaults.")
def round_participants(data: RoundParticipantsInput, ctx: Context) -> dict:
    """S5.1: each side's commander declares for its armies and corps, each hero's player for his hero,
    the GM for the battlefield.  Only a side can be awaited (S5.4.1, S5.5.2: :mod:`rules.jdrwiki.defaults`)."""
    battle = load(ctx, data.state)
    st = battle.state
    over = st["ended"]
    found = []
    for side in sorted({a["side"] for a in st["armies"].values()}):
        armies = sorted(a for a, army in st["armies"].items() if army["side"] == side)
        found.append({"key": participant_key("side", side), "participant": {"kind": "side", "id": side},
                      "side": side, "commands": [] if over else armies + defaults.side_corps(battle, side),
                      "name": " / ".join(st["armies"][a]["name"] or a for a in armies),
                      "must_declare": defaults.must_declare(battle, side),
                      "default": defaults.default_answer(battle, side)})
    for hero_id, hero in sorted(st["heroes"].items()):
        if hero["status"] == "active" and not over:
            found.append({"key": participant_key("hero", hero_id), "participant": {"kind": "hero", "id": hero_id},
                          "side": st["armies"][hero["army_id"]]["side"], "commands": [hero_id],
                          "name": hero["name"] or hero_id, "must_declare": False, "default": {}})
    found.append({"key": GM, "participant": {"kind": "gm", "id": "gm"}, "side": None, "commands": [],
                  "name": "GM", "must_declare": False, "default": {}})
    waiting = sum(1 for p in found if p["must_declare"])
    ctx.log.add("S5.1", "participants.listed", "Round {round}: {count} participants, {waiting} awaited.",
                round=battle.round, count=len(found), waiting=waiting)
    state = battle.export()
    hidden = hidden_from(names(state), {side: seen_names(state, side) for side in standing.SIDES})
    ctx.log.add("S11.3", "participants.hidden", "What each side may not know of: {counts}.",
                counts={side: len(ids) for side, ids in hidden.items()})
    return {"round": battle.round, "participants": found, "names": names(state), "hidden_from": hidden}


# ---------------------------------------------------------------- check-declaration


class ParticipantRef(Input):
    kind: Literal[KINDS]  # type: ignore[valid-type]
    id: Id = "gm"


class CheckDeclarationInput(Input):
    state: entities.State
    viewer: Viewer
    participant: ParticipantRef
    declaration: Answer
    declarations: Known | None = None


@ruleset.operation("check-declaration", CheckDeclarationInput,
                   summary="Whether one participant's declaration passes resolve-round's checks (S5.6).")
def check_declaration(data: CheckDeclarationInput, ctx: Context) -> dict:
    viewer = check_viewer(data.viewer)
    state = dump_state(data.state)
    result = checks.check(state, viewer, data.participant.kind, data.participant.id, data.declaration,
                          data.declarations)
    key = participant_key(data.participant.kind, "" if data.participant.kind == "gm" else data.participant.id)
    ctx.log.add("S5.6", "declaration.checked", "Declaration of {participant}: {verdict}.", participant=key,
                verdict="accepted" if result["ok"] else "refused")
    return result


# ---------------------------------------------------------------- merge-declarations


class MergeDeclarationsInput(Input):
    state: entities.State
    declarations: dict[str, Answer] = Field(max_length=600)


@ruleset.operation("merge-declarations", MergeDeclarationsInput,
                   summary="Participants' answers -> the round's declarations object for resolve-round.")
def merge_declarations(data: MergeDeclarationsInput, ctx: Context) -> dict:
    """Sides' and the GM's paths first, then each hero's own choices into his intervention (S5.1)."""
    state = dump_state(data.state)
    battle = Battle(state, ctx.dice, ctx.log)
    for key in data.declarations:
        kind, _, ident = key.partition(":")
        if kind not in KINDS or (kind == "gm") != (ident == ""):
            raise InvalidInput.field(f"declarations.{key}", 'a participant key: "<kind>:<id>" or "gm"')
        if kind != "gm":
            checks.side_of_participant(battle, kind, ident)
    merged = answers.merge_by_key(state, data.declarations)
    ctx.log.add("S5.5", "declarations.merged", "{count} answers merged into the round's declarations.",
                count=len(data.declarations))
    return {"declarations": merged}


# ---------------------------------------------------------------- visible-round


class LogStep(Input):
    rule: str = Field(default="", max_length=40)
    key: str = Field(default="", max_length=80)
    params: dict[str, Any] = Field(default_factory=dict, max_length=40)
    text: str = Field(default="", max_length=4000)


class RoundRecord(Input):
    """A ``resolve-round`` output (the fields ``visible-round`` reads), with ``before``, its input state."""

    state: entities.State
    before: entities.State | None = None
    events: list[dict[str, Any]] = Field(default_factory=list, max_length=5000)
    log: list[LogStep] = Field(default_factory=list, max_length=10000)
    dice: dict[str, Any] = Field(default_factory=dict, max_length=5000)
    defaults_applied: list[str] = Field(default_factory=list, max_length=10)


class VisibleRoundInput(Input):
    round: RoundRecord
    viewer: Viewer


@ruleset.operation("visible-round", VisibleRoundInput,
                   summary="The events, dice and log of a resolved round that one viewer may read (S11.3).")
def visible_round(data: VisibleRoundInput, ctx: Context) -> dict:
    viewer = check_viewer(data.viewer, public=True)
    quiet = Context(ctx.dice, Log())  # reading the states logs nothing of the round's story
    after = load(quiet, data.round.state).export()
    states = [after] + ([load(quiet, data.round.before).export()] if data.round.before is not None else [])
    sides = fog.Sides(*states)
    events = [seen for event in data.round.events if (seen := fog.event_seen(event, viewer, sides)) is not None]
    steps = [step for step in (s.model_dump() for s in data.round.log) if fog.step_visible(step, viewer, sides)]
    known: dict[str, str] = {}
    for state in reversed(states):
        known.update(seen_names(state, viewer))
    ctx.log.extend(steps)  # the output's log is the round's, as the viewer may read it
    ctx.log.add("S11.3", "round.filtered", "Round seen by {viewer}: {events} events and {steps} log steps kept.",
                viewer=viewer, events=len(events), steps=len(steps))
    return {"events": events, "dice": fog.dice_seen(data.round.dice, viewer, sides),
            "defaults_applied": list(data.round.defaults_applied), "names": dict(sorted(known.items()))}


# ---------------------------------------------------------------- end-battle


class EndBattleInput(Input):
    state: entities.State
    winner: entities.Side | None = None


@ruleset.operation("end-battle", EndBattleInput,
                   summary="The GM ends the battle, naming the winner where the rules name none (S5.15.1, S5.16).")
def end_battle(data: EndBattleInput, ctx: Context) -> dict:
    """S5.15.1: the rules' winner (the only side with an active corps) stands; when they name none
    (both sides gone, or both standing when the GM stops the battle) the GM may name one."""
    battle = load(ctx, data.state)
    st = battle.state
    standing_now = standing.standing_sides(st)
    rules_winner = st["winner"] if st["ended"] else (standing_now[0] if len(standing_now) == 1 else None)
    if data.winner is not None and rules_winner is not None and data.winner != rules_winner:
        raise InvalidInput.field("winner", f"the rules make side {rules_winner} the winner (S5.15.1)")
    winner = rules_winner if rules_winner is not None else data.winner
    if not st["ended"] or st["winner"] != winner:
        ctx.log.add("S5.15.1", "battle.gm_ended", "The GM ends the battle; winner: {winner}.", winner=winner)
    st["ended"], st["winner"] = True, winner
    result = setup.aftermath(battle)
    return {"state": battle.export(), "battle_over": True, **result}
