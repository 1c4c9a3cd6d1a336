"""The simulations on the task queue (PostgreSQL and Redis): each part a procrastinate job any worker takes, the
records in the shared cache; a change cancels the waiting jobs, and a job that slipped through plays nothing."""

import asyncio
import json
import os
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from procrastinate.contrib.django import app

from masscombat.battles import balance, preview, services, simulation_runs, tasks
from masscombat.battles.models import Battle, BattleEvent
from masscombat.core.engines import battle_part

ROOT = Path(__file__).resolve().parents[3]
# manage.py, with the cache's key prefix of this test (each test has its own: tests/masscombat/conftest.py).
WORKER = """import os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "masscombat.settings")
from django.conf import settings
settings.CACHES["default"]["KEY_PREFIX"] = sys.argv[1]
from django.core.management import execute_from_command_line
execute_from_command_line(["manage.py", *sys.argv[2:]])
"""
ON_THE_QUEUE = pytest.mark.skipif("not simulation_runs.queued()",
                                  reason="the queue needs PostgreSQL (procrastinate's tables) and Redis (a shared cache)")


def jobs(kind: str, since: int) -> list[tuple[str, dict]]:
    """The jobs of ``kind`` deferred after job ``since`` (the queue's table outlives each test)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT status, args FROM procrastinate_jobs WHERE task_name = %s AND queue_name = %s"
                       " AND args->>'kind' = %s AND id > %s ORDER BY id",
                       [simulation_runs.TASK_NAME, simulation_runs.QUEUE, kind, since])
        return [(status, json.loads(args)) for status, args in cursor.fetchall()]


@pytest.fixture
def since():
    with connection.cursor() as cursor:
        cursor.execute("SELECT coalesce(max(id), 0) FROM procrastinate_jobs")
        return cursor.fetchone()[0]


def run_workers() -> None:
    """Two procrastinate workers on the simulation queue, each stopping once the queue is empty."""
    async def both() -> None:
        with app.replace_connector(app.connector.get_worker_connector()) as worker_app:
            async with worker_app.open_async():
                await asyncio.gather(*(
                    worker_app.run_worker_async(queues=[simulation_runs.QUEUE], wait=False, name=name,
                                                install_signal_handlers=False, listen_notify=False)
                    for name in ("one", "two")))

    asyncio.run(both())


@contextmanager
def worker_processes(tmp_path: Path, count: int = 2):
    """``manage.py procrastinate worker --queues simulation`` processes on this test's database and Redis, as
    ``bin/run`` starts them (or another machine would), polling every 0.2 s; stopped on the way out."""
    url = urlsplit(os.environ["DATABASE_URL"])
    env = {**os.environ, "DATABASE_URL": urlunsplit(url._replace(path="/" + connection.settings_dict["NAME"]))}
    env.pop("TEST_DATABASE_NAME", None)
    processes, logs = [], []
    for number in range(count):
        log = tmp_path / f"worker-{number}.log"
        logs.append(log)
        processes.append(subprocess.Popen(
            [sys.executable, "-c", WORKER, settings.CACHES["default"]["KEY_PREFIX"], "procrastinate", "worker",
             "--name", f"sim{number}", "--queues", simulation_runs.QUEUE, "--fetch-job-polling-interval", "0.2"],
            cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT))
    try:
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


@pytest.fixture
def few(settings, monkeypatch):
    settings.PREVIEW_RESOLUTIONS = 60
    monkeypatch.setattr(preview, "FIRST_PART", 10)


@ON_THE_QUEUE
@pytest.mark.django_db(transaction=True)
def test_the_workers_play_a_preview_and_feed_the_gm_only(battle, few, since):
    preview.start(Battle.objects.get(pk=battle.pk))
    queued = jobs("preview", since)
    assert [status for status, _ in queued] == ["todo"] * 3 and len(cache.get(f"preview:{battle.pk}")["jobs"]) == 3
    assert [(args["payload"]["start"], args["payload"]["stop"]) for _, args in queued] == [(0, 10), (10, 30), (30, 60)]
    run_workers()
    assert [status for status, _ in jobs("preview", since)] == ["succeeded"] * 3
    found = preview.current(Battle.objects.get(pk=battle.pk))
    assert found["final"] and found["result"]["resolutions"] == 60 and found["result"]["errors"] == 0
    events = BattleEvent.objects.filter(battle=battle, kind=preview.EVENT)
    assert {event.audience for event in events} == {"gm"} and events.filter(payload__done=True).count() == 1


@ON_THE_QUEUE
@pytest.mark.django_db(transaction=True)
def test_worker_processes_of_their_own_play_the_parts_into_the_shared_cache(battle, few, since, tmp_path):
    """Two worker processes, as on two machines: they take the parts, the records reach this process through
    Redis, and the GM's events through the database."""
    preview.start(Battle.objects.get(pk=battle.pk))
    with worker_processes(tmp_path) as logs:
        deadline = time.monotonic() + 180
        while not (preview.current(Battle.objects.get(pk=battle.pk)) or {}).get("final"):
            assert time.monotonic() < deadline, "\n".join(log.read_text() for log in logs)
            time.sleep(0.2)
    assert [status for status, _ in jobs("preview", since)] == ["succeeded"] * 3
    assert preview.current(Battle.objects.get(pk=battle.pk))["result"]["resolutions"] == 60
    assert BattleEvent.objects.filter(battle=battle, kind=preview.EVENT, audience="gm", payload__done=True).exists()


@ON_THE_QUEUE
@pytest.mark.django_db(transaction=True)
def test_a_declaration_cancels_the_waiting_parts_and_a_part_taken_anyway_plays_nothing(battle, player, few, since):
    entry = preview.start(Battle.objects.get(pk=battle.pk))
    services.declare(player, battle.pk, "side:a", {"sides.a.strategy": "march"}, expected_round=1)
    assert [status for status, _ in jobs("preview", since)] == ["cancelled"] * 3  # the queue never runs them
    (_, args), *_ = jobs("preview", since)
    assert tasks.simulate_part(**args) == "dropped"  # a worker that had taken it before the change
    run_workers()
    assert preview.current(Battle.objects.get(pk=battle.pk))["dropped"] is True
    assert not BattleEvent.objects.filter(battle=battle, kind=preview.EVENT, payload__figures=True).exists()
    assert entry["token"] == args["run"].split(":")[1]


@ON_THE_QUEUE
@pytest.mark.django_db(transaction=True)
def test_a_superseded_balance_leaves_the_queue_to_the_new_one(battle, settings, since):
    settings.BALANCE_BATTLES = 4
    settings.BALANCE_ROUND_CAP = 3
    page = f"{battle.campaign_id}:{battle.created_by_id}"
    first = {**battle.setup["input"], "name": "first"}
    second = {**battle.setup["input"], "name": "second"}
    balance.balance("seventh_sea", first, page=page)
    balance.balance("seventh_sea", second, page=page)
    assert [status for status, _ in jobs("balance", since)] == ["cancelled", "cancelled", "todo", "todo"]
    run_workers()
    assert balance.balance("seventh_sea", second, page=page).result["battles"] == 4
    assert balance.balance("seventh_sea", first).result is None  # asked again by nobody's page, it starts afresh


class Flipping:
    """A kind whose run stops being wanted once its part has told some progress."""

    function = staticmethod(battle_part)

    def __init__(self):
        self.told, self.outcome = [], None

    def wanted(self, run):
        return not self.told

    def arguments(self, run, payload):
        return payload

    def progressed(self, run, index, done):
        self.told.append(done)

    def finished(self, run, index, records):
        self.outcome = records

    def failed(self, run, code):
        self.outcome = code


def test_a_queued_part_stops_between_two_battles_once_its_run_is_cancelled(monkeypatch):
    from tests.rules.simulate_examples import example

    kind = Flipping()
    monkeypatch.setattr(simulation_runs, "CHECK_SECONDS", 0)
    simulation_runs.register("flipping", kind)
    payload = {"slug": "seventh_sea", "setup": example("seventh_sea"), "seed": 1, "policy": "random",
               "round_cap": 30, "indices": range(50)}
    assert simulation_runs.run_queued("flipping", "run", 0, payload) == "cancelled"
    assert kind.told == [1] and kind.outcome is None
