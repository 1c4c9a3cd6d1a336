"""Every change to a battle (the write paths), each in one transaction.

Each function locks the battle row (``select_for_update``), checks what the
caller expected (the round number they saw), changes the state and writes
the event of the change in the same transaction; the event is broadcast once
it commits (:mod:`masscombat.battles.live`).  The same request sent twice
has one effect: a second resolve or undo of the same round is a no-op.
Rules are the engine's: this module only calls operations through
:mod:`masscombat.core.engines` and stores what they return.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from masscombat.battles import adapters, deadlines, live, selectors
from masscombat.battles.models import Battle, BattleParticipant, Declaration, Round
from masscombat.core import engines, explain
from masscombat.core.permissions import Action
from masscombat.rosters import services as roster_services
from masscombat.rosters.models import Army, Hero

Status = Battle.Status
# Where the round that ended on a tie keeps the engine's record of the GM's choice of one more round.
EXTRA_ROUND = "extra_round"


def round_seed(battle: Battle, number: int) -> int:
    """Each round's dice come from the battle's seed and the round number: reproducible, independent."""
    return battle.seed + number


def _engine(battle_or_slug, op: str, payload: dict, *, seed: int | None = None, field: str = "__all__") -> dict:
    """Run an engine operation; its refusal becomes a ValidationError with the engine's sentence."""
    slug = battle_or_slug if isinstance(battle_or_slug, str) else battle_or_slug.ruleset
    try:
        return engines.run(slug, op, payload, seed=seed)
    except engines.Refused as exc:
        raise ValidationError({field: exc.error}) from exc


def create_battle(campaign, user, *, name: str, armies: dict, heroes: list, options: dict,
                  auto_resolve: bool = False) -> Battle:
    """A battle from the campaign's armies and heroes: the engine's ``new-battle`` makes its state."""
    adapter = adapters.get(campaign.ruleset)
    if adapter is None:
        raise ValidationError({"__all__": _("Battles of this ruleset cannot be played yet.")})
    payload, specs = adapter.new_battle_input(name=name, armies=armies, heroes=heroes, options=options)
    battle = Battle(campaign=campaign, name=name, ruleset=campaign.ruleset, created_by=user, auto_resolve=auto_resolve)
    output = _engine(battle, "new-battle", payload, seed=battle.seed)
    battle.setup = {"input": payload, "dice": output.get("dice", {}), "log": output.get("log", []),
                    "options": options}
    battle.state = output["state"]
    with transaction.atomic():
        battle.save()
        BattleParticipant.objects.bulk_create(
            BattleParticipant(battle=battle, kind=s.kind, ref=s.ref, side=s.side, name=s.name[:100],
                              user=s.user, army_id=s.army_id, hero_id=s.hero_id)
            for s in specs
        )
        live.emit(battle, "created")
    return battle


def _locked(user, battle_id: int, action: Action) -> selectors.Viewer:
    return selectors.viewer(user, action, battle_id, lock=True)


def _expect_round(battle: Battle, expected_round: int) -> None:
    if expected_round != battle.current_round:
        raise ValidationError({"round": _("Round %(n)s is over: the battle is at round %(current)s now.")
                               % {"n": expected_round, "current": battle.current_round}})


def _expect_running(battle: Battle) -> None:
    if battle.status == Status.PAUSED:
        raise ValidationError({"__all__": _("The battle is paused.")})
    if battle.status != Status.RUNNING:
        raise ValidationError({"__all__": _("The battle is over.")})


@transaction.atomic
def declare(user, battle_id: int, key: str, data: dict, *, expected_round: int) -> Declaration:
    """Store (or replace) a participant's declaration for the current round.

    ``data`` was validated against the engine's ``declaration-options`` by the
    caller; this checks who may declare it and that the round is still open.
    """
    viewer = _locked(user, battle_id, Action.BATTLE_DECLARE)
    battle = viewer.battle
    _expect_running(battle)
    _expect_round(battle, expected_round)
    if key != selectors.GM_KEY and viewer.participant(key) is None:
        raise ValidationError({"participant": _("Nobody declares under this name in this battle.")})
    if not viewer.controls(key) or (key == selectors.GM_KEY and not viewer.is_gm):
        raise ValidationError({"participant": _("You do not play this participant.")})
    declaration, _created = Declaration.objects.update_or_create(
        battle=battle, round=battle.current_round, participant=key,
        defaults={"data": data, "declared_by": user},
    )
    participant = viewer.participant(key)
    # Who declared is public, unless naming it would reveal a hidden unit to the other side.
    audience = (live.ALL if participant is None or selectors.public(battle, participant)
                else live.side_audience(participant.side))
    live.emit(battle, "declared", {"round": battle.current_round, "participant": key}, audience=audience)
    if battle.auto_resolve and not selectors.missing(battle, selectors.declarations(battle)):
        try:
            with transaction.atomic():  # a refusal leaves the round to the GM, and the declaration saved
                _resolve(battle, viewer.participants, user)
        except ValidationError:
            battle.refresh_from_db()
    return declaration


def resolve_round(user, battle_id: int, *, expected_round: int, confirmed_missing: bool = True) -> Round:
    """Resolve the round the GM saw; asking again for a resolved round returns it unchanged.

    With ``confirmed_missing`` false, a round still waiting for declarations is not resolved:
    :class:`MissingDeclarations` names who is missing, for the GM to confirm their defaults.

    The engine's work (merging the answers, resolving the round) depends only on the state and the
    declarations, so it runs before the battle is locked: other requests on the battle wait for the
    writing alone.  Locked, the battle must still be at that version with the same declarations
    (else the round is resolved again, locked); the round is written once, however many ask.
    """
    viewer = selectors.viewer(user, Action.BATTLE_MANAGE, battle_id)
    done = _before_resolving(viewer.battle, expected_round, confirmed_missing)
    if done is not None:
        return done
    try:
        computed = _resolution(viewer.battle, _answers(viewer.battle))
    except ValidationError:  # refused on what was read unlocked: the locked battle decides
        computed = None
    return _resolve_locked(user, battle_id, expected_round, confirmed_missing, computed)


@transaction.atomic
def _resolve_locked(user, battle_id: int, expected_round: int, confirmed_missing: bool,
                    computed: Resolution | None) -> Round:
    viewer = _locked(user, battle_id, Action.BATTLE_MANAGE)
    battle = viewer.battle
    done = _before_resolving(battle, expected_round, confirmed_missing)
    if done is not None:
        return done
    answers = _answers(battle)
    if computed is None or (computed.version, computed.answers) != (battle.version, answers):
        computed = _resolution(battle, answers)  # the battle moved on meanwhile: resolved again, locked
    return _resolve(battle, viewer.participants, user, computed)


def _before_resolving(battle: Battle, expected_round: int, confirmed_missing: bool) -> Round | None:
    """The round already resolved (asked twice), else None once the battle may resolve it now."""
    if expected_round <= battle.round:
        done = battle.rounds.filter(number=expected_round).first()
        if done is not None:
            return done
    _expect_round(battle, expected_round)
    _expect_running(battle)
    if not confirmed_missing:
        waiting = selectors.missing(battle, selectors.declarations(battle))
        if waiting:
            raise MissingDeclarations(waiting)
    return None


class MissingDeclarations(Exception):
    """The round waits for these participants (:class:`masscombat.core.engines.Participant`, default orders included)."""

    def __init__(self, participants: list):
        super().__init__(", ".join(p.key for p in participants))
        self.participants = participants


@dataclass(frozen=True)
class Resolution:
    """A round as the engine resolved it, not written yet, with the battle version and answers it came from."""

    version: int
    answers: dict
    declared: dict
    output: dict
    kept: dict
    log: list


def _answers(battle: Battle) -> dict:
    return {row.participant: row.data
            for row in battle.declarations.filter(round=battle.current_round).order_by("participant")}


def _resolution(battle: Battle, answers: dict) -> Resolution:
    """The round's answers, merged the engine's way, resolved; the silent get their defaults (the engine's)."""
    try:
        merged = engines.merge(battle.ruleset, battle.state, answers)
    except engines.Refused as exc:
        raise ValidationError({"declarations": exc.error}) from exc
    declared = merged.declarations
    output = _engine(battle, "resolve-round", {"state": battle.state, "declarations": declared},
                     seed=round_seed(battle, battle.current_round), field="declarations")
    kept = {k: v for k, v in output.items() if k not in ("state", "dice", "log", "events")}
    kept["defaults_applied"] = sorted({*merged.defaults_applied, *(output.get("defaults_applied") or [])})
    return Resolution(battle.version, answers, declared, output, kept, [*merged.log, *output.get("log", [])])


def _resolve(battle: Battle, participants: list, user, computed: Resolution | None = None) -> Round:
    """Write the round resolved from the battle as it is (locked by the caller): ``computed``, or now."""
    number = battle.current_round
    computed = computed or _resolution(battle, _answers(battle))
    output = computed.output
    state = output["state"]
    resolved = Round.objects.create(
        battle=battle, number=number, state_before=battle.state, declarations=computed.declared,
        dice=output.get("dice", {}), events=output.get("events", []), log=computed.log, output=computed.kept,
        strength=engines.strength(state), resolved_by=user,
    )
    battle.state, battle.round = state, number
    battle.version += 1
    live.emit(battle, "round_resolved", {"round": number})
    # Over, the battle ends, unless the engine says a tie waits for the GM (:func:`one_more_round`, or a
    # draw by :func:`end_battle`; the round played after it ends the battle, the engine's outcome says so too).
    outcome = engines.outcome(state)
    if outcome.over and not outcome.one_more_round:
        _finish(battle, adapters.get(battle.ruleset), winner=None)
    deadlines.round_opened(battle)
    battle.save()
    return resolved


def _finish(battle: Battle, adapter, *, winner: str | None) -> None:
    try:
        battle.aftermath = engines.end_battle(battle.ruleset, adapter.end_input(battle.state, winner))
    except engines.Refused as exc:  # a winner the rules do not give (D&D 5e: the points decide), in the reader's words
        sentence, fields = explain.refusal(battle.ruleset, exc.error, exc.fields, exc.messages)
        raise ValidationError({"winner": fields.get("winner") or sentence}) from exc
    battle.status = Status.OVER
    live.emit(battle, "status", {"status": battle.status})


def may_name_winner(battle: Battle) -> bool:
    """Whether the GM may still name the winner of a battle over without one: the engine's outcome of the
    ended state says so (``gm_names_winner``: JdRWiki S5.15.1)."""
    if battle.status != Status.OVER or not battle.aftermath:
        return False
    state = battle.aftermath.get("state") or {}
    return engines.outcome(state).gm_names_winner if state else False


@transaction.atomic
def one_more_round(user, battle_id: int, *, expected_round: int) -> Battle:
    """After a tie the GM has the armies fight one more round: the engine records the choice and
    returns the state it resolves that round from.  The choice is kept with the round that tied
    (undoing that round undoes it); asking twice is asking once."""
    viewer = _locked(user, battle_id, Action.BATTLE_MANAGE)
    battle, adapter = viewer.battle, viewer.adapter
    _expect_round(battle, expected_round)
    last = battle.rounds.filter(number=battle.round).first()
    if last is not None and EXTRA_ROUND in last.output and battle.status == Status.RUNNING:
        return battle
    if battle.status != Status.RUNNING or last is None or not engines.outcome(battle.state).one_more_round:
        raise ValidationError({"__all__": _("The battle is not on a tie.")})
    output = _engine(battle, "end-battle", adapter.one_more_round_input(battle.state))
    last.output = {**last.output, EXTRA_ROUND: output}
    last.save(update_fields=["output"])
    battle.state = output["state"]
    battle.version += 1
    live.emit(battle, "status", {"status": battle.status})
    deadlines.round_opened(battle)
    battle.save()
    return battle


@transaction.atomic
def undo_round(user, battle_id: int, *, expected_round: int) -> bool:
    """Put the battle back exactly as it was before round ``expected_round``; False if already undone."""
    viewer = _locked(user, battle_id, Action.BATTLE_MANAGE)
    battle = viewer.battle
    if battle.status == Status.CLOSED:
        raise ValidationError({"__all__": _("The aftermath is written to the rosters: the battle is closed.")})
    if expected_round != battle.round:
        if expected_round > battle.round:
            return False
        raise ValidationError({"round": _("Only the last round can be undone.")})
    last = battle.rounds.filter(number=expected_round).first()
    if last is None:
        raise ValidationError({"round": _("No round has been resolved yet.")})
    battle.state, battle.round = last.state_before, expected_round - 1
    battle.status, battle.aftermath = Status.RUNNING, None
    battle.version += 1
    last.delete()
    live.emit(battle, "round_undone", {"round": expected_round})
    deadlines.round_opened(battle)
    battle.save()
    return True


@transaction.atomic
def place(user, battle_id: int, piece_id: str, cell, *, expected_version: int) -> Battle:
    """The GM moves a piece before round 1: ``new-battle`` runs again, with the stored seed, on the moved input.

    The adapter writes the move into the setup input; the engine refuses what
    the rules forbid (occupied, impassable, off the map).  A request that
    changes nothing (the same one sent twice) is answered without effect.
    """
    viewer = _locked(user, battle_id, Action.BATTLE_MANAGE)
    battle, adapter = viewer.battle, viewer.adapter
    if not adapter.places:
        raise ValidationError({"__all__": _("Pieces of this ruleset are not placed on the map here.")})
    if battle.round != 0 or battle.status not in (Status.RUNNING, Status.PAUSED):
        raise ValidationError({"__all__": _("Placement is over: round 1 has been resolved.")})
    payload = adapter.placement(battle.setup["input"], piece_id, cell)
    if payload == battle.setup["input"]:
        return battle
    if expected_version != battle.version:
        raise ValidationError({"version": _("The battle changed meanwhile: here is the map as it is now.")})
    if battle.declarations.filter(round=1).exists():
        raise ValidationError({"__all__": _("Declarations for round 1 are already in: pieces can no longer be moved.")})
    output = _engine(battle, "new-battle", payload, seed=battle.seed, field="cell")
    sides = sorted({p.side for p in battle.participants.all() if p.side})
    before = {side: selectors.names_and_state(battle, side) for side in sides}
    battle.setup = {**battle.setup, "input": payload, "dice": output.get("dice", {}), "log": output.get("log", [])}
    battle.state = output["state"]
    battle.version += 1
    for audience in _told_of_placement(battle, before):
        live.emit(battle, "placed", {"version": battle.version}, audience=audience)
    battle.save()
    return battle


def _told_of_placement(battle: Battle, before: dict[str, dict]) -> list[str]:
    """Who hears of a placement: each side whose engine view (``visible-state`` and names) it changed, everyone
    when it changed every side's, the GM alone when none: a piece hidden from a side moves without its knowing."""
    changed = [side for side, seen in before.items() if selectors.names_and_state(battle, side) != seen]
    if changed and len(changed) == len(before):
        return [live.ALL]
    return [live.side_audience(side) for side in changed] or [live.GM]


@transaction.atomic
def set_paused(user, battle_id: int, paused: bool) -> Battle:
    viewer = _locked(user, battle_id, Action.BATTLE_MANAGE)
    battle = viewer.battle
    wanted = Status.PAUSED if paused else Status.RUNNING
    if battle.status == wanted:
        return battle
    if battle.status not in (Status.RUNNING, Status.PAUSED):
        raise ValidationError({"__all__": _("The battle is over.")})
    battle.status = wanted
    battle.save(update_fields=["status", "updated_at"])
    live.emit(battle, "status", {"status": battle.status})
    deadlines.battle_paused(battle)
    return battle


@transaction.atomic
def end_battle(user, battle_id: int, winner: str | None) -> Battle:
    """The GM ends the battle before the rules do: the engine computes the aftermath.

    On a battle the rules ended without a winner, where the GM may still name one (:func:`may_name_winner`),
    ``end-battle`` runs again with the GM's winner; otherwise ending an ended battle changes nothing.
    """
    viewer = _locked(user, battle_id, Action.BATTLE_MANAGE)
    battle = viewer.battle
    if battle.status in (Status.OVER, Status.CLOSED) and not (winner is not None and may_name_winner(battle)):
        return battle
    _finish(battle, viewer.adapter, winner=winner)
    battle.save()
    return battle


@transaction.atomic
def confirm_aftermath(user, battle_id: int) -> Battle:
    """Write the aftermath to the campaign's rosters, once, and close the battle."""
    viewer = _locked(user, battle_id, Action.BATTLE_MANAGE)
    battle = viewer.battle
    if battle.status == Status.CLOSED:
        return battle
    if battle.status != Status.OVER or battle.aftermath is None:
        raise ValidationError({"__all__": _("The battle is not over yet.")})
    for update in viewer.adapter.roster_updates(battle.aftermath, viewer.participants):
        _write_roster(battle, update, user)
    if "state" in battle.aftermath:
        battle.state = battle.aftermath["state"]
    battle.status = Status.CLOSED
    battle.save()
    live.emit(battle, "status", {"status": battle.status})
    return battle


def _write_roster(battle: Battle, update: adapters.RosterUpdate, user) -> None:
    model, write = (Hero, roster_services.update_hero) if update.kind == "hero" else (Army, roster_services.update_army)
    entry = model.objects.filter(pk=update.object_id, campaign_id=battle.campaign_id).first()
    if entry is None:  # deleted from the roster during the battle: nothing to write back
        return
    fields = {"status": update.status} if update.status and update.kind == "hero" else {}
    try:
        write(entry, {**entry.data, **update.data}, user=user, expected_version=None, kind="battle",
              source_kind="battle", source_id=battle.pk, source_label=battle.name[:200],
              summary=update.summary, **fields)
    except engines.InvalidInput as exc:
        raise ValidationError({"__all__": _("%(name)s: %(error)s") % {"name": entry.name, "error": exc.as_dict()["error"]}})
