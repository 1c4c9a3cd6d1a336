"""The server's worker processes for the simulations (the embedded default): parts run there, stop when their run
is cancelled, and a worker that dies is replaced."""

import threading
import time

import pytest

from masscombat.battles.simulation_pool import REFUSED, UNEXPECTED, Pool, Task
from masscombat.core.engines import battle_part
from tests.rules.simulate_examples import example


def wait_for(check, what, seconds=90):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"no {what} after {seconds} s")


class Part:
    """One part of 7th Sea battles, with what the pool told it."""

    def __init__(self, run: str, battles: int, *, setup=None):
        self.run, self.battles = run, battles
        self.setup = setup or example("seventh_sea")
        self.progress, self.result, self.failure, self.prepared = [], None, None, threading.Event()
        self.over = threading.Event()

    def task(self) -> Task:
        return Task(self.run, prepare=self.prepare, progress=self.progress.append, done=self.done, failed=self.failed)

    def prepare(self):
        self.prepared.set()
        return battle_part, {"slug": "seventh_sea", "setup": self.setup, "seed": 1, "policy": "random",
                             "round_cap": 30, "indices": range(self.battles)}

    def done(self, records):
        self.result = records
        self.over.set()

    def failed(self, code):
        self.failure = code
        self.over.set()


@pytest.fixture
def pool():
    found = Pool(1)
    yield found
    found.close()


def test_a_part_runs_in_a_worker_and_tells_its_progress(pool):
    part = Part("a", 6)
    pool.submit(part.task())
    assert part.over.wait(90) and part.failure is None
    assert [record["index"] for record in part.result] == list(range(6))
    assert part.progress and part.progress == sorted(part.progress) and part.progress[-1] <= 6


def test_a_cancelled_run_stops_its_running_part_and_drops_its_waiting_ones(pool):
    long, waiting, other = Part("old", 100_000), Part("old", 5), Part("new", 3)
    pool.submit(long.task())
    pool.submit(waiting.task())
    wait_for(lambda: long.progress, "the long part under way")
    pool.cancel("old")
    pool.submit(other.task())
    assert other.over.wait(90) and len(other.result) == 3  # the one worker was free for it
    assert not long.over.is_set() and not waiting.prepared.is_set()  # neither told again, the other never run
    wait_for(lambda: pool.busy() == 0, "the worker free")


def test_a_worker_that_dies_is_replaced_and_its_part_failed(pool):
    long = Part("a", 100_000)
    pool.submit(long.task())
    wait_for(lambda: long.progress, "the part under way")
    pool._workers[0].process.kill()
    assert long.over.wait(60) and long.failure == UNEXPECTED
    after = Part("b", 2)
    pool.submit(after.task())
    assert after.over.wait(90) and len(after.result) == 2


def test_a_refusal_of_the_engine_is_told_as_a_code(pool):
    refused = Part("a", 2, setup={"sides": "none"})
    pool.submit(refused.task())
    assert refused.over.wait(90) and refused.failure == REFUSED and refused.result is None
