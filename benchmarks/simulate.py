"""Speed of the simulator on each ruleset's demo battle: whole battles a second, and the GM's round preview.

Run ``python benchmarks/simulate.py [--battles N] [--resolutions R] [--policy P] [--round-cap C]
[--ruleset SLUG ...] [--workers W ...]``.  It builds the web's demo battles the way ``manage.py demo``
does (``masscombat/games/<slug>/demo.py``) in a throw-away SQLite database and prints, per ruleset:

* the balance: the time to its first figures (its first part, ``FIRST_PART`` battles, one process),
  whole battles simulated per second in one process and in two (``workers=2``), and the share of them
  that ended before the round cap (the policy defaults to the balance's, ``engage``);
* the preview of round 1, engine only, in this process: the time to its first part
  (``preview.FIRST_PART`` resolutions) and to R resolutions (default 1,000);
* the preview as the GM gets it (``preview.start`` on the demo battle, its parts run by the server's
  ``W`` worker processes, as on the embedded default): the time from the click to the first figures
  in the cache, and to the last of R resolutions.  The workers are started and warmed before the clock.

Wall times, beside the CPU time of this process where it did all the work: on a shared machine the
wall clock says more about the neighbours than about the code.  It asserts nothing.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def demo_battles() -> dict:
    """``{slug: Battle}`` of the demo, built by the web's own demo loader in a throw-away database."""
    folder = tempfile.mkdtemp(prefix="simulate-bench-")
    os.environ["DATABASE_URL"] = f"sqlite:///{folder}/demo.sqlite3"
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "masscombat.settings")
    import django
    from django.core.management import call_command

    django.setup()
    from django.conf import settings

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"  # the demo's mails are not figures
    call_command("migrate", verbosity=0)
    call_command("demo", verbosity=0, stdout=io.StringIO())  # its log-in lines are not figures
    from masscombat.battles.models import Battle

    return {battle.ruleset: battle for battle in Battle.objects.order_by("ruleset")}


def timed(work):
    wall, cpu = time.perf_counter(), time.process_time()
    result = work()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def through_the_workers(battle, resolutions: int) -> tuple[float, float]:
    """Seconds from ``preview.start`` to the first figures, and to the last, as the room's GM would wait."""
    from django.conf import settings

    from masscombat.battles import preview
    from masscombat.battles.models import Battle

    settings.PREVIEW_RESOLUTIONS = resolutions
    started = time.perf_counter()
    preview.start(Battle.objects.get(pk=battle.pk))
    first = None
    while True:
        entry = preview.current(Battle.objects.get(pk=battle.pk)) or {}
        if entry.get("error"):
            raise SystemExit(f"{battle.ruleset}: the preview failed ({entry['error']})")
        if first is None and entry.get("result"):
            first = time.perf_counter() - started
        if entry.get("final"):
            last = time.perf_counter() - started
            preview.forget(battle.pk)  # the next measurement starts afresh
            return first, last
        time.sleep(0.01)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--battles", type=int, default=20)
    parser.add_argument("--resolutions", type=int, default=1000)
    parser.add_argument("--policy", default="engage")
    parser.add_argument("--round-cap", type=int, default=30, help="the balance's (BALANCE_ROUND_CAP)")
    parser.add_argument("--ruleset", action="append", help="only these (repeatable); all by default")
    parser.add_argument("--workers", type=int, action="append", help="server worker processes for the"
                        " preview as the GM gets it (repeatable); 1 and 2 by default")
    args = parser.parse_args()

    battles_by_slug = {slug: battle for slug, battle in demo_battles().items()
                       if not args.ruleset or slug in args.ruleset}
    from django.conf import settings

    from masscombat.battles import preview, simulation_pool, simulation_runs
    from masscombat.battles.balance import FIRST_PART
    from masscombat.core.engines import round_part
    from rules import registry
    from rules.simulate import preview_round, simulate_battles

    print(f"load average {' '.join(f'{value:.2f}' for value in os.getloadavg())} on {os.cpu_count()} cores; "
          f"{args.battles} battles a run, policy {args.policy}, round cap {args.round_cap}; "
          f"previews of {args.resolutions} resolutions of round 1, policy default, first part "
          f"{preview.FIRST_PART}")
    for slug, battle in battles_by_slug.items():
        setup = battle.setup["input"]

        def battles(count, workers=1):
            return simulate_battles(slug, setup=setup, battles=count, seed=1, policy=args.policy,
                                    round_cap=args.round_cap, workers=workers)

        battles(1)  # the engine's modules and tables loaded before any clock starts
        _, wall_first, _ = timed(lambda: battles(min(FIRST_PART, args.battles)))
        one, wall1, cpu1 = timed(lambda: battles(args.battles))
        two, wall2, _ = timed(lambda: battles(args.battles, workers=2))
        assert {**one, "workers": 2} == two, "the figures must not depend on the number of workers"
        state = registry.run(slug, "new-battle", setup, seed=1)["state"]
        _, wall_part, _ = timed(lambda: round_part(slug, state, {}, seed=1, policy="default",
                                                   indices=range(preview.FIRST_PART)))
        _, wall_p, cpu_p = timed(lambda: preview_round(slug, state, {}, args.resolutions, "default", 1))
        ended = 1 - one["unfinished"] - one["errors"]
        print(f"{slug:12} balance: first figures {wall_first:5.1f} s"
              f" | 1 process {args.battles / wall1:6.2f} battles/s (CPU {args.battles / cpu1:6.2f}/s)"
              f" | 2 processes {args.battles / wall2:6.2f} battles/s"
              f" | ended {ended:.0%}, errors {one['errors']:.0%}, median {one['rounds']['median']} rounds,"
              f" wins {', '.join(f'{side} {rate:.0%}' for side, rate in one['wins'].items())}")
        print(f"{'':12} preview, engine only: first part {wall_part:5.2f} s"
              f" | {args.resolutions} resolutions {wall_p:6.1f} s (CPU {cpu_p:5.1f} s)")

    for workers in args.workers or [1, 2]:
        settings.SIMULATION_WORKERS = workers
        simulation_runs._pool = simulation_pool.Pool(workers)
        first = next(iter(battles_by_slug.values()))
        through_the_workers(first, 2 * preview.FIRST_PART)  # the workers spawned and their engines loaded
        for slug, battle in battles_by_slug.items():
            first_figures, last = through_the_workers(battle, args.resolutions)
            print(f"{slug:12} preview as the GM gets it, {workers} worker process{'es' if workers > 1 else ''}:"
                  f" first figures {first_figures:5.2f} s | all {args.resolutions} resolutions {last:6.1f} s")
        simulation_runs._pool.close()
    print(f"load average after: {' '.join(f'{value:.2f}' for value in os.getloadavg())}")


if __name__ == "__main__":
    main()
