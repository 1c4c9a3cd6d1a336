"""After an event every client reloads its parts at the same moment: the engine answers each question once.

The issue #20 profile saw ``declaration-options`` asked 10-21 times for 8
participants because concurrent part requests all missed the cache together.
Here N part requests run in N threads at once, and the engine (slowed, so that
they overlap) counts what it is asked: every question once, whatever the
interleaving, and every request gets the same page.
"""

import re
import threading
import time
from collections import Counter

import pytest
from django.db import connection
from django.test import Client

from masscombat.core import cache as cache_module
from rules import registry
from tests.masscombat.battles.test_battles_options_cache import ford  # noqa: F401 - the D&D 5e demo battle

pytestmark = pytest.mark.django_db(transaction=True)  # the requests' threads read what the test wrote
CACHED_OPS = {"declaration-options", "visible-state", "round-participants", "secret-orders"}
REQUESTS = 6
CSRF_TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')


@pytest.fixture
def slow_engine(monkeypatch):
    """Each cached question the engine answers, as (operation, participant, viewer); answered slowly."""
    asked = Counter()
    real = registry.run
    lock = threading.Lock()

    def counting(slug, op, payload, seed=None):
        if op in CACHED_OPS:
            with lock:
                asked[op, str(payload.get("participant")), str(payload.get("viewer"))] += 1
            time.sleep(0.2)  # keeps the first computation open while the other requests arrive
        return real(slug, op, payload, seed)

    monkeypatch.setattr(registry, "run", counting)
    return asked


def concurrently(clients: list[Client], url: str) -> list:
    start = threading.Barrier(len(clients))
    answers = [None] * len(clients)

    def request(index: int) -> None:
        start.wait()
        try:
            answers[index] = clients[index].get(url, HTTP_HX_REQUEST="true")
        finally:
            connection.close()

    threads = [threading.Thread(target=request, args=(i,)) for i in range(len(clients))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


@pytest.mark.parametrize("part", ["declare", "status", "map"])
def test_concurrent_part_requests_ask_the_engine_each_question_once(ford, gm, player, slow_engine, part):
    url = f"/battles/{ford.pk}/part/{part}/"
    viewers = [Client() for _ in range(REQUESTS)]
    for index, client in enumerate(viewers):
        client.force_login(gm if index % 2 else player)  # the GM and a side: questions of both
    answers = concurrently(viewers, url)
    assert [answer.status_code for answer in answers] == [200] * REQUESTS
    assert slow_engine and set(slow_engine.values()) == {1}, slow_engine
    pages = [CSRF_TOKEN.sub("", answer.content.decode()) for answer in answers]  # masked anew per response
    assert len(set(pages[0::2])) == 1 and len(set(pages[1::2])) == 1  # the player's pages alike, the GM's alike


def test_without_a_working_cache_everyone_computes_rather_than_waits(monkeypatch):
    """Redis away: TolerantRedisCache holds no lock and stores nothing; nobody waits for an answer."""

    class Away:
        def get(self, key, default=None):
            return default

        def add(self, *args):
            return False

        def has_key(self, key):
            return False

        def set(self, *args):
            pass

    monkeypatch.setattr(cache_module, "cache", Away())
    calls = []
    assert cache_module.compute_once("k", lambda: calls.append(1) or "answer", 60) == "answer"
    assert cache_module.compute_once("k", lambda: calls.append(1) or "answer", 60) == "answer"
    assert calls == [1, 1]
