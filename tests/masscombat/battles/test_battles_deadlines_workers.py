"""Round deadlines on PostgreSQL: procrastinate jobs, two worker processes, one resolution.

Runs in bin/test's PostgreSQL pass (procrastinate's tables exist only there).
The workers are real: two ``manage.py procrastinate worker`` processes, as
``bin/run`` starts one (or a second machine would), on the test's database,
polling the queue at the same time.  The clock is moved, not waited for: once
both workers are up, the deadline and its jobs' run-at are put one second in
the past, and both race for them.
"""

import json
import os
import subprocess
import sys
import time
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from procrastinate.contrib.django import app

from masscombat.battles import deadlines, services
from masscombat.battles.models import Battle, BattleEvent, Round
from masscombat.notifications.models import SentReminder

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif("connection.vendor != 'postgresql'", reason="procrastinate's queue lives in PostgreSQL"),
]
ROOT = Path(__file__).resolve().parents[3]


def jobs(battle: Battle, task: str = deadlines.TASK_NAME) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT status, args, queue_name FROM procrastinate_jobs WHERE task_name = %s"
                       " AND (args->>'battle_id')::int = %s ORDER BY id", [task, battle.pk])
        # Django reads jsonb as text.
        return [(status, json.loads(args), queue) for status, args, queue in cursor.fetchall()]


def move_the_clock(battle: Battle, *, older_than: int | None = None) -> None:
    """The deadline, and every job waiting (or, with ``older_than``, those of older deadline versions), one
    second ago."""
    past = timezone.now() - timedelta(seconds=1)
    if older_than is None:
        Battle.objects.filter(pk=battle.pk).update(deadline_at=past)
    with connection.cursor() as cursor:
        cursor.execute("UPDATE procrastinate_jobs SET scheduled_at = %s WHERE status = 'todo'"
                       " AND (%s::int IS NULL OR (args->>'version')::int < %s)", [past, older_than, older_than])


def wait_for(condition, what: str, logs: list[Path], seconds: float = 120) -> None:
    """Poll ``condition`` (a loaded machine starts Django slowly); fail with the workers' logs."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"{what} within {seconds} s; workers said:\n" + "\n".join(log.read_text() for log in logs))
        time.sleep(0.2)


def registered_workers() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM procrastinate_workers")
        return cursor.fetchone()[0]


@contextmanager
def two_worker_processes(tmp_path: Path):
    """Two ``manage.py procrastinate worker`` processes on this test's database, polling every 0.2 s; stopped
    (SIGTERM, as at a server's shutdown) on the way out."""
    url = urlsplit(os.environ["DATABASE_URL"])
    database = urlunsplit(url._replace(path="/" + connection.settings_dict["NAME"]))
    env = {**os.environ, "DATABASE_URL": database}
    env.pop("TEST_DATABASE_NAME", None)
    processes, logs = [], []
    for name in ("one", "two"):
        log = tmp_path / f"worker-{name}.log"
        logs.append(log)
        processes.append(subprocess.Popen(
            [sys.executable, str(ROOT / "manage.py"), "procrastinate", "worker", "--name", name,
             "--queues", settings.DEADLINES_QUEUE, "--fetch-job-polling-interval", "0.2"],
            cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT))
    try:
        wait_for(lambda: registered_workers() == 2, "both workers registered", logs)
        yield logs
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)


def settled(battle: Battle, versions: set[int]) -> bool:
    """Every resolution job of those deadline versions ran."""
    return all(status in ("succeeded", "failed") for status, args, _queue in jobs(battle) if args["version"] in versions)


def workers_of(battle: Battle) -> list[int]:
    """Which worker took each resolution job that ran (procrastinate forgets it once a worker stops)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT worker_id FROM procrastinate_jobs WHERE task_name = %s AND status = 'succeeded'"
                       " AND (args->>'battle_id')::int = %s ORDER BY id", [deadlines.TASK_NAME, battle.pk])
        return [worker for (worker,) in cursor.fetchall()]


def test_the_job_is_written_with_the_deadline_or_not_at_all(battle, gm):
    with pytest.raises(RuntimeError), transaction.atomic():
        deadlines.set_rule(gm, battle.pk, 10)
        assert len(jobs(battle)) == 1  # deferred inside the transaction...
        raise RuntimeError("the request fails after setting the deadline")
    assert jobs(battle) == []  # ...so it went with it
    deadlines.set_rule(gm, battle.pk, 10)
    battle.refresh_from_db()
    assert jobs(battle) == [("todo", {"battle_id": battle.pk, "round": 1, "version": battle.deadline_version},
                             settings.DEADLINES_QUEUE)]


def test_a_passed_deadline_resolves_exactly_once_with_two_worker_processes(battle, gm, player, tmp_path):
    services.declare(player, battle.pk, "side:a", {"sides.a.strategy": "march"}, expected_round=1)
    deadlines.set_rule(gm, battle.pk, 5)
    battle.refresh_from_db()
    version = battle.deadline_version
    # More jobs for the same deadline (a GM's double click, a retried request): the two workers share them.
    for _copy in range(3):
        app.configure_task(deadlines.TASK_NAME, queue=settings.DEADLINES_QUEUE, task_kwargs={
            "battle_id": battle.pk, "round": 1, "version": version}).defer()
    with two_worker_processes(tmp_path) as logs:
        move_the_clock(battle)
        wait_for(lambda: settled(battle, {version}), "the round's four jobs ran", logs)
        took = workers_of(battle)
    statuses = [status for status, *_ in jobs(battle)]
    assert statuses == ["succeeded"] * 4 + ["todo"], statuses  # the last: round 2's, five minutes away
    assert len(took) == 4 and None not in took  # each taken by a registered worker process
    print(f"resolution jobs taken by worker ids {took}")  # which process won is the race's; the result is not
    resolved = Round.objects.get(battle=battle)
    assert resolved.number == 1 and resolved.output["defaults_applied"] == ["hero:lucie", "side:b"]
    assert BattleEvent.objects.filter(battle=battle, kind="round_resolved").count() == 1
    battle.refresh_from_db()
    assert battle.current_round == 2 and 4 * 60 <= deadlines.seconds_left(battle) <= 5 * 60


def test_jobs_of_a_paused_or_extended_deadline_do_nothing_in_the_worker_processes(battle, gm, player,
                                                                                   other_player, tmp_path):
    deadlines.set_rule(gm, battle.pk, 60)
    deadlines.pause_clock(gm, battle.pk)  # version 2: the clock stands still
    paused = Battle.objects.get(pk=battle.pk)
    deadlines.resume_clock(gm, battle.pk)
    deadlines.extend(gm, battle.pk, 60)  # version 4: an hour more
    battle.refresh_from_db()
    versions = set(range(1, battle.deadline_version))
    assert paused.deadline_at is None and battle.deadline_version == 4
    with two_worker_processes(tmp_path) as logs:
        move_the_clock(battle, older_than=battle.deadline_version)  # the old deadlines' time comes...
        wait_for(lambda: settled(battle, versions), "the old deadlines' jobs ran", logs)
        wait_for(lambda: all(status != "todo" for status, args, _q in jobs(battle, deadlines.REMINDER_TASK)
                             if args["version"] in versions), "their reminders ran", logs)
    assert not Round.objects.filter(battle=battle).exists()  # ...and finds them gone: nothing resolved
    assert not SentReminder.objects.filter(battle=battle).exists()  # nobody reminded of a deadline that moved
    assert [status for status, args, _q in jobs(battle) if args["version"] == battle.deadline_version] == ["todo"]
    battle.refresh_from_db()
    assert battle.current_round == 1 and battle.deadline_version == 4 and 115 * 60 <= deadlines.seconds_left(battle)
