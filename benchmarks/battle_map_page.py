"""Time the server-side rendering of a battle map: 40 x 30 squares, 60 stands; prints figures, asserts nothing.

    .venv/bin/python benchmarks/battle_map_page.py [--repeat 50]

The D&D 5e battle room does not exist yet (the battles app plays 7th Sea
first), so this measures what that room will do for every viewer on every
update, plus the map page as a whole request:

* ``map_view`` for a player (engine ``visible-state``, pieces, fog of war) and
  the SVG with the 60 stands, through the ``{% battle_map %}`` template tag;
* the same with a selected stand (its legal moves from ``declaration-options``);
* the GM's view (no ``visible-state`` call);
* ``GET`` of the map page (40 x 30 map, no pieces) through Django's test client.

A throw-away SQLite file is used unless DATABASE_URL is set.
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

WIDTH, HEIGHT, STANDS_PER_SIDE = 40, 30, 30


def battle_setup(cells: list) -> dict:
    """Two sides of 30 stands each (five units of six), facing each other across the map."""
    orc = {"name": "Orc", "size": "medium", "ac": 13, "hp_max": 15, "speed_m": 9,
           "abilities": {"str": 16, "dex": 12, "con": 16, "int": 7, "wis": 11, "cha": 10},
           "attacks": [{"name": "axe", "kind": "melee", "to_hit": 5,
                        "damage": [{"dice": "1d12+3", "type": "slashing"}]}]}
    units = {}
    for side, x0 in (("A", 4), ("B", 34)):
        for u in range(STANDS_PER_SIDE // 6):
            units[f"{side}u{u}"] = {
                "side": side, "type": "skirmishers" if u % 2 else "regiment",
                "configuration": None if u % 2 else "march",
                "stands": [{"id": f"{side}{u}s{i}", "profile": "orc", "position": [x0 + i % 2, 2 + u * 6 + i // 2]}
                           for i in range(6)],
            }
    busy = {tuple(s["position"]) for u in units.values() for s in u["stands"]}
    return {"name": "Benchmark", "map": {"width": WIDTH, "height": HEIGHT,
                                         "cells": [c for c in cells if tuple(c["at"]) not in busy]},
            "profiles": {"orc": orc}, "sides": {"A": {"name": "West"}, "B": {"name": "East"}}, "units": units}


def terrain() -> list:
    cells = [{"at": [x, 15], "terrain": "road"} for x in range(WIDTH)]
    cells += [{"at": [20, y], "terrain": "shallow_water"} for y in range(HEIGHT) if y != 15]
    cells += [{"at": [x, y], "terrain": "forest"} for x in range(10, 16) for y in range(3, 9)]
    cells += [{"at": [x, y], "terrain": "open", "elevation": 1 + (x + y) % 2} for x in range(24, 30) for y in range(20, 26)]
    return cells


def timed(label: str, repeat: int, func) -> None:
    func()  # warm caches
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    print(f"{label:<62} median {statistics.median(times):7.1f} ms   p95 {times[int(len(times) * 0.95) - 1]:7.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()

    workdir = tempfile.mkdtemp(prefix="masscombat-bench-")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{workdir}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "masscombat.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.template import Context, Template
    from django.test import Client
    from django.test.utils import setup_test_environment

    from masscombat.campaigns import services as campaign_services
    from masscombat.maps import services
    from masscombat.maps.engine import new_battle_fields
    from masscombat.maps.selectors import map_view
    from rules.registry import run

    setup_test_environment()
    call_command("migrate", verbosity=0)
    gm = get_user_model().objects.create_user("bench_gm", password="x" * 12)
    campaign = campaign_services.create_campaign(gm, name="Bench", ruleset="dnd5e")
    cells = terrain()
    battle_map = services.create_map(campaign, name="Big field", width=WIDTH, height=HEIGHT, data={"cells": cells})
    setup = battle_setup(battle_map.data["cells"])
    setup.update({k: v for k, v in new_battle_fields(battle_map).items() if k != "map"})
    state = run("dnd5e", "new-battle", setup, seed=1)["state"]
    state["stands"]["B1s0"]["hidden"] = True
    tag = Template("{% load maps %}{% battle_map source pieces=pieces highlights=highlights %}")

    def page(viewer, selected=None):
        view = map_view(state, "dnd5e", viewer, selected)
        return tag.render(Context({"source": view["source"], "pieces": view["pieces"], "highlights": view["highlights"]}))

    html = page("A")
    print(f"map {WIDTH} x {HEIGHT}, {sum(len(u['stands']) for u in state['units'].values())} stands; "
          f"player's map HTML {len(html) // 1024} KiB, hidden stand shown to the other side: {'B1s0' in html}")
    timed("player view: visible-state + pieces + SVG (60 stands)", args.repeat, lambda: page("A"))
    timed("player view with a selected stand (legal moves highlighted)", args.repeat, lambda: page("A", "A1s0"))
    timed("GM view: pieces + SVG (60 stands)", args.repeat, lambda: page(None))
    client = Client()
    client.force_login(gm)
    url = battle_map.get_absolute_url()
    assert client.get(url).status_code == 200
    timed("GET the map page (40 x 30, no pieces), whole request", args.repeat, lambda: client.get(url))


if __name__ == "__main__":
    main()
