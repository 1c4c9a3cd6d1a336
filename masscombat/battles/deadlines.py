"""Round deadlines: the round resolves when its time is up, with default orders for whoever is missing.

As on the play-by-web Diplomacy sites, the GM gives a battle a duration per
round (none: the round waits for the GM as before; minutes for a live
session, days for a battle played over a week).  Each round's clock starts
when the round opens; the GM pauses it (the time left is kept), extends it or
resolves early; with ``auto_resolve`` the round goes as soon as every required
declaration is in.  Every change is a numbered live event (``deadline``), so
every screen's countdown follows.

The battle row is the one record: ``deadline_at`` (none while paused or
without a rule), ``deadline_left`` (seconds kept while paused) and
``deadline_version``, bumped by every change.  The job that resolves
(:func:`masscombat.battles.tasks.resolve_at_deadline`) carries the battle,
the round and that version, and does nothing unless the battle still stands
there (:func:`due`): a job of an older deadline, or a second worker's copy,
finds the version or the round moved on.  On PostgreSQL the job is a
procrastinate job deferred through Django's connection, in the transaction
that sets the deadline (a rolled-back change schedules nothing); on SQLite
the same job goes to the server's own clock (:mod:`masscombat.battles.deadline_clock`).
Beside it goes the notifications app's "orders missing" reminder, deferred
by name for :func:`reminder_at` (see :func:`reminder_lead` for when), with
the same round and version: it too does nothing once either moved on.

The GM's functions here lock the battle and call :mod:`masscombat.battles.live`;
the ``round_*`` and ``battle_paused`` hooks are called by
:mod:`masscombat.battles.services` on a battle it holds locked.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from procrastinate.contrib.django import app

from masscombat.battles import deadline_clock, live, selectors
from masscombat.battles.models import Battle
from masscombat.campaigns.models import Membership
from masscombat.core.permissions import Action, Role

TASK_NAME = "battles.resolve_at_deadline"
# The "orders missing" reminder is the notifications app's job (above us in the layers): deferred by its name.
REMINDER_TASK = "notifications.remind_missing"
# Minutes per unit the GM may choose; a round lasts at most MAX_MINUTES (four weeks).
UNITS = {"minutes": 1, "hours": 60, "days": 24 * 60}
MAX_MINUTES = 28 * 24 * 60
# A worker's clock and the database's may differ a little: a job this early still counts as on time.
EARLY = timedelta(seconds=1)
FIELDS = ["deadline_minutes", "deadline_at", "deadline_left", "deadline_version"]


def seconds_left(battle: Battle, now: datetime | None = None) -> int | None:
    """Seconds until the round resolves (0 once due), the time kept while paused, or None: no deadline."""
    if battle.deadline_at is not None:
        return max(0, int((battle.deadline_at - (now or timezone.now())).total_seconds()))
    return battle.deadline_left


def due(battle: Battle | None, number: int, version: int, now: datetime | None = None) -> bool:
    """Whether the job for round ``number`` at deadline ``version`` may resolve the battle now."""
    return (battle is not None and battle.status == Battle.Status.RUNNING and battle.current_round == number
            and battle.deadline_version == version and battle.deadline_at is not None
            and battle.deadline_at <= (now or timezone.now()) + EARLY)


def game_master(battle: Battle):
    """On whose behalf the clock resolves: the battle's creator while still a GM, else the campaign's first GM."""
    gms = Membership.objects.filter(campaign_id=battle.campaign_id, role=Role.GM.value).order_by("pk")
    mine = gms.filter(user_id=battle.created_by_id).first() if battle.created_by_id else None
    found = mine or gms.first()
    return found.user if found is not None else None


# The hooks the battle services call, with the battle locked in their transaction.

def round_opened(battle: Battle) -> None:
    """A round opens (one resolved, or one undone): its clock starts afresh if the battle has a rule."""
    if battle.deadline_minutes and battle.status == Battle.Status.RUNNING and not battle.state.get("outcome", {}).get("over"):
        _arm(battle, battle.deadline_minutes * 60)
    elif battle.deadline_at is not None or battle.deadline_left is not None:
        _stop(battle, keep=False)


def battle_paused(battle: Battle) -> None:
    """The GM paused or resumed the whole battle: the clock stops with it, and goes on from where it stood."""
    if battle.status == Battle.Status.PAUSED and battle.deadline_at is not None:
        _stop(battle, keep=True)
    elif battle.status == Battle.Status.RUNNING and battle.deadline_left is not None:
        _arm(battle, battle.deadline_left)


# What the GM does from the room.

@transaction.atomic
def set_rule(user, battle_id: int, minutes: int | None, *, auto_resolve: bool | None = None) -> Battle:
    """Give the battle a duration per round (None: no deadline); the current round's clock starts again."""
    if minutes is not None and not 1 <= minutes <= MAX_MINUTES:
        raise ValidationError({"amount": _("A round lasts from one minute to four weeks.")})
    battle = _locked(user, battle_id)
    battle.deadline_minutes = minutes
    if auto_resolve is not None and auto_resolve != battle.auto_resolve:
        battle.auto_resolve = auto_resolve
        battle.save(update_fields=["auto_resolve", "updated_at"])
    if minutes is None:
        _stop(battle, keep=False)
    elif battle.status == Battle.Status.PAUSED:
        _stop(battle, keep=True, left=minutes * 60)
    else:
        round_opened(battle)
    return battle


@transaction.atomic
def pause_clock(user, battle_id: int) -> Battle:
    """Stop the round's clock, keeping the time left; the battle itself goes on (declarations still come)."""
    battle = _locked(user, battle_id)
    if battle.deadline_at is None:
        raise ValidationError({"__all__": _("The round's clock is not running.")})
    _stop(battle, keep=True)
    return battle


@transaction.atomic
def resume_clock(user, battle_id: int) -> Battle:
    battle = _locked(user, battle_id)
    if battle.deadline_left is None or battle.status != Battle.Status.RUNNING:
        raise ValidationError({"__all__": _("The round's clock is not paused.")})
    _arm(battle, battle.deadline_left)
    return battle


@transaction.atomic
def extend(user, battle_id: int, minutes: int) -> Battle:
    """Give the current round ``minutes`` more, whether its clock runs or is paused."""
    if not 1 <= minutes <= MAX_MINUTES:
        raise ValidationError({"amount": _("A round lasts from one minute to four weeks.")})
    battle = _locked(user, battle_id)
    if battle.deadline_at is not None:
        _arm(battle, seconds_left(battle) + minutes * 60)
    elif battle.deadline_left is not None:
        _stop(battle, keep=True, left=battle.deadline_left + minutes * 60)
    else:
        raise ValidationError({"__all__": _("This round has no deadline.")})
    return battle


def _locked(user, battle_id: int) -> Battle:
    battle = selectors.viewer(user, Action.BATTLE_MANAGE, battle_id, lock=True).battle
    if battle.status not in (Battle.Status.RUNNING, Battle.Status.PAUSED):
        raise ValidationError({"__all__": _("The battle is over.")})
    return battle


def _arm(battle: Battle, seconds: int) -> None:
    battle.deadline_at = timezone.now() + timedelta(seconds=seconds)
    battle.deadline_left = None
    _changed(battle)
    schedule(battle)


def _stop(battle: Battle, *, keep: bool, left: int | None = None) -> None:
    battle.deadline_left = (seconds_left(battle) if left is None else left) if keep else None
    battle.deadline_at = None
    _changed(battle)


def _changed(battle: Battle) -> None:
    battle.deadline_version += 1
    battle.save(update_fields=[*FIELDS, "updated_at"])
    live.emit(battle, "deadline", payload(battle))


def payload(battle: Battle) -> dict:
    """What every screen needs to show the clock: the round, when it resolves, or the time kept while paused."""
    return {"round": battle.current_round, "version": battle.deadline_version,
            "at": battle.deadline_at.isoformat() if battle.deadline_at else None, "left": battle.deadline_left}


def reminder_lead(round_seconds: int) -> int | None:
    """How many seconds before the deadline a round lasting ``round_seconds`` sends its reminder; None: none.

    Ten minutes is what a player at a live session needs to pick up the phone
    and declare, so rounds of 20 to 40 minutes remind ten minutes before.  A
    shorter round reminds halfway (ten minutes before would come before it
    starts), and one under two minutes not at all: its "your turn" has only
    just arrived.  A longer round, played between sessions, reminds a quarter
    of its length before (a day-long round at 6 hours, when a player who looks
    twice a day still has time), never more than a day before.  The steps
    meet: 20 minutes gives 10 either way, and 40 minutes too.
    """
    if round_seconds < 2 * 60:
        return None
    if round_seconds < 20 * 60:
        return round_seconds // 2
    return min(max(10 * 60, round_seconds // 4), 24 * 60 * 60)


def reminder_at(battle: Battle) -> datetime | None:
    """When the reminder of the current deadline goes, from the GM's round duration (so every reading of the
    row gives the same time, and the SQLite clock's sweep never holds it twice); None: no reminder.

    An extended or resumed clock keeps the lead of the round's duration: the
    reminder comes that long before the new deadline, or at once if that
    moment has already passed (the job itself stays silent in the last minute).
    """
    lead = reminder_lead(battle.deadline_minutes * 60) if battle.deadline_minutes else None
    if lead is None or battle.deadline_at is None:
        return None
    return battle.deadline_at - timedelta(seconds=lead)


def jobs(battle: Battle) -> list[tuple[str, datetime, dict]]:
    """The jobs of the current deadline, as (task name, when, arguments): the resolution, and the reminder
    before it.  Both carry the round and the deadline version, and do nothing once either moved on."""
    kwargs = {"battle_id": battle.pk, "round": battle.current_round, "version": battle.deadline_version}
    found = [(TASK_NAME, battle.deadline_at, kwargs)]
    remind = reminder_at(battle)
    if remind is not None:
        found.append((REMINDER_TASK, remind, dict(kwargs)))
    return found


def schedule(battle: Battle) -> None:
    """The jobs of the current deadline: deferred in this transaction on PostgreSQL, else on the server's
    clock once this transaction commits."""
    for task, at, kwargs in jobs(battle):
        if settings.PROCRASTINATE_ON_PG:
            app.configure_task(task, schedule_at=at, queue=settings.DEADLINES_QUEUE, task_kwargs=kwargs).defer()
        else:
            transaction.on_commit(lambda task=task, at=at, kwargs=kwargs: deadline_clock.add(at, task, kwargs))


def pending() -> None:
    """Feed the server's clock every deadline the database holds (the SQLite clock's start after a restart)."""
    for battle in Battle.objects.filter(status=Battle.Status.RUNNING, deadline_at__isnull=False):
        for task, at, kwargs in jobs(battle):
            deadline_clock.add(at, task, kwargs)


def start_clock() -> None:
    """Start the SQLite clock in this server process when the settings ask for it (``bin/run`` on SQLite)."""
    if settings.DEADLINES_IN_PROCESS:
        deadline_clock.start(pending)
