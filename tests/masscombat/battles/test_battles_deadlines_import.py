"""A campaign imported from its archive keeps its round clocks: each running battle's deadline gets its job again.

The archive holds the deadline on the battle row, not the job that fires it
(procrastinate's table on PostgreSQL, the server's own clock on SQLite): the
import schedules it, as setting the deadline did on the first server.
"""

import json
from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.utils import timezone

from masscombat.backup.archive import ENCODER, export_campaign, import_campaign
from masscombat.battles import deadline_clock, deadlines, services
from masscombat.battles.models import Battle
from masscombat.campaigns.models import Campaign


@pytest.fixture(autouse=True)
def empty_clock():
    """The process's clock holds nothing of these tests afterwards (the next test's battle may reuse an id)."""
    yield
    with deadline_clock._lock:
        deadline_clock._heap.clear()
        deadline_clock._held.clear()


def archived_and_gone(battle: Battle) -> dict:
    """The battle's campaign as its JSON archive, then deleted from the database (a fresh server)."""
    archive = json.loads(json.dumps(export_campaign(battle.campaign), cls=ENCODER))
    Campaign.objects.filter(pk=battle.campaign_id).delete()
    return archive


def clock_jobs(battle_id: int) -> list:
    """The clock's resolution jobs for the battle (its reminders: tests/masscombat/notifications)."""
    return [(at, kwargs) for at, job, kwargs in deadline_clock.pending_jobs()
            if kwargs["battle_id"] == battle_id and job == deadlines.TASK_NAME]


@pytest.mark.django_db
def test_an_imported_running_clock_is_on_the_embedded_servers_clock(battle, gm, settings,
                                                                    django_capture_on_commit_callbacks):
    settings.PROCRASTINATE_ON_PG = False
    deadlines.set_rule(gm, battle.pk, 30)
    battle.refresh_from_db()
    archive = archived_and_gone(battle)
    deadline_clock.run_due(timezone.now() + timedelta(days=365))  # the old server's jobs: gone with it
    assert clock_jobs(battle.pk) == []
    with django_capture_on_commit_callbacks(execute=True):
        import_campaign(archive)
    assert clock_jobs(battle.pk) == [(battle.deadline_at, {
        "battle_id": battle.pk, "round": 1, "version": battle.deadline_version})]


@pytest.mark.django_db
def test_a_paused_clock_or_a_battle_without_one_gets_no_job(battle, gm, settings, django_capture_on_commit_callbacks):
    settings.PROCRASTINATE_ON_PG = False
    deadlines.set_rule(gm, battle.pk, 30)
    deadlines.pause_clock(gm, battle.pk)
    archive = archived_and_gone(battle)
    deadline_clock.run_due(timezone.now() + timedelta(days=365))
    with django_capture_on_commit_callbacks(execute=True):
        import_campaign(archive)
    assert clock_jobs(battle.pk) == []
    assert Battle.objects.get(pk=battle.pk).deadline_left is not None  # the time kept, for the GM to resume


@pytest.mark.django_db
def test_an_imported_clock_past_its_deadline_resolves_on_the_embedded_clock(battle, gm, player, settings,
                                                                            django_capture_on_commit_callbacks):
    """The deadline passed while the campaign was in its archive: the round resolves as soon as it is back."""
    settings.PROCRASTINATE_ON_PG = False
    services.declare(player, battle.pk, "side:a", {"sides.a.strategy": "march"}, expected_round=1)
    deadlines.set_rule(gm, battle.pk, 30)
    Battle.objects.filter(pk=battle.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    archive = archived_and_gone(battle)
    deadline_clock.run_due(timezone.now() + timedelta(days=365))
    with django_capture_on_commit_callbacks(execute=True):
        import_campaign(archive)
    assert deadline_clock.run_due() == 2  # the resolution, and its reminder (silent: the deadline has passed)
    assert Battle.objects.get(pk=battle.pk).current_round == 2


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif("connection.vendor != 'postgresql'", reason="procrastinate's queue lives in PostgreSQL")
def test_an_imported_running_clock_gets_its_procrastinate_job(battle, gm):
    deadlines.set_rule(gm, battle.pk, 30)
    battle.refresh_from_db()
    archive = archived_and_gone(battle)
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM procrastinate_jobs WHERE task_name = %s AND (args->>'battle_id')::int = %s",
                       [deadlines.TASK_NAME, battle.pk])  # the old server's queue did not come with the archive
    import_campaign(archive)
    with connection.cursor() as cursor:
        cursor.execute("SELECT status, args, queue_name, scheduled_at FROM procrastinate_jobs WHERE task_name = %s"
                       " AND (args->>'battle_id')::int = %s", [deadlines.TASK_NAME, battle.pk])
        rows = [(status, json.loads(args), queue, at) for status, args, queue, at in cursor.fetchall()]
    assert rows == [("todo", {"battle_id": battle.pk, "round": 1, "version": battle.deadline_version},
                     django_settings.DEADLINES_QUEUE, battle.deadline_at)]


@pytest.mark.django_db
def test_the_embedded_clock_reading_the_database_again_holds_each_deadline_once(battle, gm, settings,
                                                                                  django_capture_on_commit_callbacks):
    """The server's clock reads the deadlines again every minute (an import made by another process is found
    that way): a deadline it already holds is not held twice."""
    settings.PROCRASTINATE_ON_PG = False
    deadline_clock.run_due(timezone.now() + timedelta(days=365))
    with django_capture_on_commit_callbacks(execute=True):
        deadlines.set_rule(gm, battle.pk, 30)
    deadlines.pending()
    deadlines.pending()
    battle.refresh_from_db()
    assert clock_jobs(battle.pk) == [(battle.deadline_at, {
        "battle_id": battle.pk, "round": 1, "version": battle.deadline_version})]
