"""The "orders missing" reminder is scheduled with each deadline: when, to whom, and once per deadline.

The deadlines' schedule defers it beside the round's resolution (on the SQLite
server's clock here; procrastinate's queue in the PostgreSQL test below).  The
clock is moved rather than waited for: the deadline on the battle row is put
where it would stand when the reminder is due, then the clock runs its jobs.
"""

import json
from datetime import timedelta

import pytest
from django.core import mail
from django.db import connection, transaction
from django.utils import timezone

from masscombat.battles import deadline_clock, deadlines, services
from masscombat.battles.models import Battle
from masscombat.notifications.models import SentReminder
from tests.masscombat.notifications.conftest import declare_for_pippin

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def embedded_clock(settings):
    """SQLite's way: the jobs go to this process's clock, which holds nothing of these tests afterwards."""
    settings.PROCRASTINATE_ON_PG = False
    yield
    with deadline_clock._lock:
        deadline_clock._heap.clear()
        deadline_clock._held.clear()


def clock(battle: Battle) -> dict[str, list]:
    """The clock's jobs for the battle, by task name: [(when, arguments)]."""
    found = {}
    for at, job, kwargs in deadline_clock.pending_jobs():
        if kwargs["battle_id"] == battle.pk:
            found.setdefault(job, []).append((at, kwargs))
    return found


def set_rule(battle, gm, minutes, capture) -> Battle:
    with capture(execute=True):
        deadlines.set_rule(gm, battle.pk, minutes)
    battle.refresh_from_db()
    return battle


def at_reminder_time(battle: Battle, left: timedelta) -> None:
    """The clock moved on: the deadline is ``left`` away now."""
    Battle.objects.filter(pk=battle.pk).update(deadline_at=timezone.now() + left)


@pytest.mark.parametrize(("round_minutes", "lead_minutes"), [
    (1, None), (1.5, None),  # under two minutes: "your turn" has just arrived
    (2, 1), (10, 5), (19, 9.5),  # short rounds: halfway
    (20, 10), (30, 10), (40, 10),  # a live session: ten minutes before
    (60, 15), (24 * 60, 6 * 60),  # between sessions: a quarter of the round
    (4 * 24 * 60, 24 * 60), (28 * 24 * 60, 24 * 60),  # never more than a day before
])
def test_the_reminder_comes_ten_minutes_before_or_a_share_of_the_round(round_minutes, lead_minutes):
    lead = deadlines.reminder_lead(int(round_minutes * 60))
    assert lead == (None if lead_minutes is None else int(lead_minutes * 60))


def test_setting_a_deadline_puts_its_reminder_on_the_clock_beside_its_resolution(
        battle, gm, django_capture_on_commit_callbacks):
    battle = set_rule(battle, gm, 60, django_capture_on_commit_callbacks)
    kwargs = {"battle_id": battle.pk, "round": 1, "version": battle.deadline_version}
    assert clock(battle) == {deadlines.TASK_NAME: [(battle.deadline_at, kwargs)],
                             deadlines.REMINDER_TASK: [(battle.deadline_at - timedelta(minutes=15), kwargs)]}


def test_a_one_minute_round_gets_no_reminder(battle, gm, django_capture_on_commit_callbacks):
    battle = set_rule(battle, gm, 1, django_capture_on_commit_callbacks)
    assert list(clock(battle)) == [deadlines.TASK_NAME]


def test_the_reminder_reaches_only_who_still_has_orders_to_give_and_only_once(
        battle, gm, player, other_player, django_capture_on_commit_callbacks):
    declare_for_pippin(battle, player)
    battle = set_rule(battle, gm, 60, django_capture_on_commit_callbacks)
    [(remind_at, _kwargs)] = clock(battle)[deadlines.REMINDER_TASK]
    assert deadline_clock.run_due(remind_at - timedelta(seconds=1)) == 0  # not yet
    at_reminder_time(battle, timedelta(minutes=14, seconds=30))
    assert deadline_clock.run_due(remind_at) == 1  # the reminder; the resolution waits for its deadline
    [sent] = mail.outbox
    assert sent.to == ["merry@example.org"]  # not Pippin, who declared, nor the GM
    assert sent.subject == "Bataille du col: orders missing"
    assert sent.body.startswith("Round 1 still waits for your orders: 15 minutes left.")
    deadlines.pending()  # the clock's sweep reads the deadlines again: the reminder's time has come...
    assert deadline_clock.run_due(timezone.now()) == 1
    assert len(mail.outbox) == 1  # ...but it was sent: never twice for one deadline
    assert SentReminder.objects.filter(battle=battle, round=1, version=battle.deadline_version).count() == 1
    assert Battle.objects.get(pk=battle.pk).current_round == 1


def test_nobody_hears_a_reminder_when_every_order_is_in(battle, gm, player, other_player,
                                                        django_capture_on_commit_callbacks):
    declare_for_pippin(battle, player)
    services.declare(other_player, battle.pk, "side:b", {"sides.b.strategy": "entrenchment"}, expected_round=1)
    battle = set_rule(battle, gm, 60, django_capture_on_commit_callbacks)
    [(remind_at, _kwargs)] = clock(battle)[deadlines.REMINDER_TASK]
    at_reminder_time(battle, timedelta(minutes=15))
    assert deadline_clock.run_due(remind_at) == 1
    assert mail.outbox == []


def test_an_extended_deadline_has_its_own_reminder_and_the_old_one_stays_silent(
        battle, gm, player, other_player, django_capture_on_commit_callbacks):
    battle = set_rule(battle, gm, 60, django_capture_on_commit_callbacks)
    [(old_at, old)] = clock(battle)[deadlines.REMINDER_TASK]
    with django_capture_on_commit_callbacks(execute=True):
        deadlines.extend(gm, battle.pk, 60)
    battle.refresh_from_db()
    new = {"battle_id": battle.pk, "round": 1, "version": battle.deadline_version}
    assert clock(battle)[deadlines.REMINDER_TASK] == [(old_at, old), (battle.deadline_at - timedelta(minutes=15), new)]
    at_reminder_time(battle, timedelta(minutes=74))
    assert deadline_clock.run_due(old_at) == 1  # the job of the deadline before the extension...
    assert mail.outbox == []  # ...reminds nobody: that deadline is gone
    at_reminder_time(battle, timedelta(minutes=15))
    # The old deadline's resolution (which finds its version gone) and the new reminder.
    assert deadline_clock.run_due(battle.deadline_at - timedelta(minutes=15)) == 2
    assert sorted(m.to[0] for m in mail.outbox) == ["merry@example.org", "pippin@example.org"]


def test_a_paused_clock_reminds_nobody_and_resuming_schedules_the_reminder_again(
        battle, gm, player, other_player, django_capture_on_commit_callbacks):
    battle = set_rule(battle, gm, 60, django_capture_on_commit_callbacks)
    [(remind_at, _kwargs)] = clock(battle)[deadlines.REMINDER_TASK]
    with django_capture_on_commit_callbacks(execute=True):
        deadlines.pause_clock(gm, battle.pk)
    assert deadline_clock.run_due(remind_at) == 1 and mail.outbox == []  # paused: silent
    assert deadlines.REMINDER_TASK not in clock(battle)  # and none scheduled while paused
    with django_capture_on_commit_callbacks(execute=True):
        deadlines.resume_clock(gm, battle.pk)
    battle.refresh_from_db()
    [(resumed_at, kwargs)] = clock(battle)[deadlines.REMINDER_TASK]
    assert kwargs["version"] == battle.deadline_version and resumed_at == battle.deadline_at - timedelta(minutes=15)
    at_reminder_time(battle, timedelta(minutes=15))
    assert deadline_clock.run_due(resumed_at) == 1 and len(mail.outbox) == 2


def test_a_reminder_in_the_last_minute_or_of_a_resolved_round_is_not_sent(
        battle, gm, player, other_player, django_capture_on_commit_callbacks):
    battle = set_rule(battle, gm, 60, django_capture_on_commit_callbacks)
    [(remind_at, kwargs)] = clock(battle)[deadlines.REMINDER_TASK]
    at_reminder_time(battle, timedelta(seconds=40))  # the machine slept: the deadline is nearly there
    assert deadline_clock.run_due(remind_at) == 1 and mail.outbox == []
    assert not SentReminder.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        services.resolve_round(gm, battle.pk, expected_round=1)
    mail.outbox.clear()  # "round resolved" and "your turn"
    deadline_clock.add(remind_at, deadlines.REMINDER_TASK, kwargs)  # round 1's reminder once more
    assert deadline_clock.run_due(remind_at) == 1 and mail.outbox == []  # round 1 is over


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif("connection.vendor != 'postgresql'", reason="procrastinate's queue lives in PostgreSQL")
def test_on_postgresql_the_reminder_is_a_job_deferred_with_the_deadline(battle, gm, settings):
    settings.PROCRASTINATE_ON_PG = True

    def reminders() -> list:
        with connection.cursor() as cursor:
            cursor.execute("SELECT args, scheduled_at, queue_name FROM procrastinate_jobs WHERE task_name = %s"
                           " AND (args->>'battle_id')::int = %s ORDER BY id", [deadlines.REMINDER_TASK, battle.pk])
            return [(json.loads(args), at, queue) for args, at, queue in cursor.fetchall()]

    with pytest.raises(RuntimeError), transaction.atomic():
        deadlines.set_rule(gm, battle.pk, 60)
        assert len(reminders()) == 1
        raise RuntimeError("the request fails after setting the deadline")
    assert reminders() == []  # it went with the deadline's transaction
    deadlines.set_rule(gm, battle.pk, 60)
    battle.refresh_from_db()
    assert reminders() == [({"battle_id": battle.pk, "round": 1, "version": battle.deadline_version},
                            battle.deadline_at - timedelta(minutes=15), settings.DEADLINES_QUEUE)]
