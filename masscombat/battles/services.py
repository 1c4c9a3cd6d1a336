"""Every change to a battle (the write paths), each in one transaction.

Each function locks the battle row (``select_for_update``), checks what the
caller expected (the round number they saw), changes the state and writes
the event of the change in the same transaction; the event is broadcast once
it commits (:mod:`masscombat.battles.live`).  The same request sent twice
has one effect: a second resolve or undo of the same round is a no-op.
Rules are the engine's: this module only calls operations through
:func:`rules.registry.run` and stores what they return.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from masscombat.battles import adapters, live, presence, selectors
from masscombat.battles.models import Battle, BattleParticipant, Connection, Declaration, Round
from masscombat.core.permissions import Action
from masscombat.rosters import services as roster_services
from masscombat.rosters.models import Army, Hero
from rules import registry
from rules.errors import InvalidInput

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
        return registry.run(slug, op, payload, seed=seed)
    except InvalidInput as exc:
        raise ValidationError({field: exc.as_dict()["error"]}) from exc


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
    audience = (live.ALL if participant is None or viewer.adapter.participant_public(battle.state, participant)
                else live.side_audience(participant.side))
    live.emit(battle, "declared", {"round": battle.current_round, "participant": key}, audience=audience)
    if battle.auto_resolve and not selectors.missing(battle, viewer.participants, selectors.declarations(battle)):
        try:
            with transaction.atomic():  # a refusal leaves the round to the GM, and the declaration saved
                _resolve(battle, viewer.participants, user)
        except ValidationError:
            battle.refresh_from_db()
    return declaration


@transaction.atomic
def resolve_round(user, battle_id: int, *, expected_round: int) -> Round:
    """Resolve the round the GM saw; asking again for a resolved round returns it unchanged."""
    viewer = _locked(user, battle_id, Action.BATTLE_MANAGE)
    battle = viewer.battle
    if expected_round <= battle.round:
        done = battle.rounds.filter(number=expected_round).first()
        if done is not None:
            return done
    _expect_round(battle, expected_round)
    _expect_running(battle)
    return _resolve(battle, viewer.participants, user)


def _resolve(battle: Battle, participants: list, user) -> Round:
    adapter = adapters.get(battle.ruleset)
    number = battle.current_round
    declared = adapter.merge_declarations(battle.declarations.filter(round=number).order_by("participant"))
    output = _engine(battle, "resolve-round", {"state": battle.state, "declarations": declared},
                     seed=round_seed(battle, number), field="declarations")
    state = output["state"]
    resolved = Round.objects.create(
        battle=battle, number=number, state_before=battle.state, declarations=declared,
        dice=output.get("dice", {}), events=output.get("events", []), log=output.get("log", []),
        output={k: v for k, v in output.items() if k not in ("state", "dice", "log", "events")},
        strength=adapter.strength(state), resolved_by=user,
    )
    battle.state, battle.round = state, number
    battle.version += 1
    live.emit(battle, "round_resolved", {"round": number})
    # A tie waits for the GM (:func:`one_more_round`, or a draw by :func:`end_battle`); the round
    # played after a tie ends the battle whatever the points.
    extra = number > 1 and battle.rounds.filter(number=number - 1, output__has_key=EXTRA_ROUND).exists()
    if extra or (adapter.finished(state) and not adapter.tie(state)):
        _finish(battle, adapter, winner=adapter.winner(state))
    battle.save()
    return resolved


def _finish(battle: Battle, adapter, *, winner: str | None) -> None:
    op, payload = adapter.end_input(battle.state, winner)
    battle.aftermath = _engine(battle, op, payload, field="winner")
    battle.status = Status.OVER
    live.emit(battle, "status", {"status": battle.status})


@transaction.atomic
def one_more_round(user, battle_id: int, *, expected_round: int) -> Battle:
    """After a tie the GM has the armies fight one more round: the engine records the choice, the
    state is the one it resolves that round from.  The choice is kept with the round that tied
    (undoing that round undoes it); asking twice is asking once."""
    viewer = _locked(user, battle_id, Action.BATTLE_MANAGE)
    battle, adapter = viewer.battle, viewer.adapter
    _expect_round(battle, expected_round)
    last = battle.rounds.filter(number=battle.round).first()
    if last is not None and EXTRA_ROUND in last.output and battle.status == Status.RUNNING:
        return battle
    if battle.status != Status.RUNNING or last is None or not adapter.tie(battle.state):
        raise ValidationError({"__all__": _("The battle is not on a tie.")})
    op, payload, state = adapter.one_more_round(battle.state)
    last.output = {**last.output, EXTRA_ROUND: _engine(battle, op, payload)}
    last.save(update_fields=["output"])
    battle.state = state
    battle.version += 1
    live.emit(battle, "status", {"status": battle.status})
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
    battle.setup = {**battle.setup, "input": payload, "dice": output.get("dice", {}), "log": output.get("log", [])}
    battle.state = output["state"]
    battle.version += 1
    live.emit(battle, "placed", {"version": battle.version})
    battle.save()
    return battle


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
    return battle


@transaction.atomic
def end_battle(user, battle_id: int, winner: str | None) -> Battle:
    """The GM ends the battle before the rules do: the engine computes the aftermath."""
    viewer = _locked(user, battle_id, Action.BATTLE_MANAGE)
    battle = viewer.battle
    if battle.status in (Status.OVER, Status.CLOSED):
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
    except InvalidInput as exc:
        raise ValidationError({"__all__": _("%(name)s: %(error)s") % {"name": entry.name, "error": exc.as_dict()["error"]}})


def connected(battle_id: int, user, channel_name: str) -> None:
    """A socket opened: its presence row, fresh; ghosts of dead server processes go (:mod:`.presence`)."""
    with transaction.atomic():
        battle = Battle.objects.select_for_update().get(pk=battle_id)
        presence.purge(battle)
        Connection.objects.update_or_create(channel_name=channel_name, defaults={
            "battle": battle, "user": user, "last_seen": timezone.now()})
        live.emit(battle, "presence", {"user": user.pk, "connected": True}, audience=live.GM)


def disconnected(battle_id: int, user, channel_name: str) -> None:
    with transaction.atomic():
        battle = Battle.objects.select_for_update().filter(pk=battle_id).first()
        deleted, _rows = Connection.objects.filter(channel_name=channel_name).delete()
        if battle is not None and deleted:
            live.emit(battle, "presence", {"user": user.pk, "connected": False}, audience=live.GM)
