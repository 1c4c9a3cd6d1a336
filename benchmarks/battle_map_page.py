"""Time the D&D 5e battle room server-side: a 40 x 30 map, 60 stands in 10 units; prints figures, asserts nothing.

    .venv/bin/python benchmarks/battle_map_page.py [--repeat 20]

Issue #10 wants the battle page with such a map under 100 ms (median) on this
machine.  Two armies of five units of six orc stands (regiments and
skirmishers) deploy along the west and east edges of a map with a road, a
river, a wood and a hill, through the same services as the battle setup page.
Measured through Django's test client:

* ``GET`` of the room for the GM (a form for every unit) and for a player
  (his side's five units): the first request after the state changed (the
  engine's ``declaration-options`` not cached yet: before each sample the
  battle's version is bumped, as a resolved round does) and repeat requests
  (answers from the cache);
* the room's htmx parts (``status``, ``declare``, ``map``), repeated, and one unit's form
  (``declare?participant=``: the GM's forms are folded and each loads when opened);

and, below the web layer, what the engine costs:

* a player's map as the room builds it (``visible-state``, ``pieces_of``, fog
  of war) with the SVG of the 60 stands, the same with a selected stand (the
  ends of its moves from ``declaration-options`` for the player), and the GM's
  map;
* ``declaration-options`` for one unit and for all ten.

A throw-away SQLite file is used unless DATABASE_URL is set; the cache is
this process's memory unless REDIS_URL is set.
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

WIDTH, HEIGHT, UNITS_PER_SIDE, STANDS_PER_UNIT = 40, 30, 5, 6
ORC = {"name": "Orc", "size": "medium", "ac": 13, "hp_max": 15, "speed_m": 9,
       "abilities": {"str": 16, "dex": 12, "con": 16, "int": 7, "wis": 11, "cha": 10},
       "attacks": [{"name": "axe", "kind": "melee", "to_hit": 5, "damage": [{"dice": "1d12+3", "type": "slashing"}]},
                   {"name": "javelin", "kind": "ranged", "to_hit": 5,
                    "damage": [{"dice": "1d6+3", "type": "piercing"}], "range_m": 9, "long_range_m": 36}]}


def army_data(name: str) -> dict:
    """Five units of six orcs: regiments in march order and skirmishers, alternately."""
    units = {}
    for u in range(UNITS_PER_SIDE):
        units[f"u{u}"] = {"name": f"{name} {u + 1}", "type": "skirmishers" if u % 2 else "regiment",
                          "configuration": None if u % 2 else "march",
                          "stands": [{"id": f"s{i}", "profile": "orc"} for i in range(STANDS_PER_UNIT)]}
    return {"name": name, "profiles": {"orc": ORC}, "units": units}


def terrain() -> list:
    cells = [{"at": [x, 15], "terrain": "road"} for x in range(WIDTH)]
    cells += [{"at": [20, y], "terrain": "shallow_water"} for y in range(HEIGHT) if y != 15]
    cells += [{"at": [x, y], "terrain": "forest"} for x in range(10, 16) for y in range(3, 9)]
    cells += [{"at": [x, y], "terrain": "open", "elevation": 1 + (x + y) % 2} for x in range(24, 30) for y in range(20, 26)]
    return cells


def timed(label: str, repeat: int, func, before=None) -> None:
    """Median and 95th percentile of ``func`` over ``repeat`` runs; ``before`` runs untimed ahead of each."""
    if before is None:
        func()  # warm caches
    times = []
    for _ in range(repeat):
        if before is not None:
            before()
        start = time.perf_counter()
        func()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    p95 = times[max(0, round(len(times) * 0.95) - 1)]
    print(f"{label:<66} median {statistics.median(times):7.1f} ms   p95 {p95:7.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()

    workdir = tempfile.mkdtemp(prefix="masscombat-bench-")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{workdir}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "masscombat.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db.models import F
    from django.template import Context, Template
    from django.test import Client
    from django.test.utils import setup_test_environment
    from django.urls import reverse

    from masscombat.battles import services as battle_services
    from masscombat.battles.forms import map_pieces
    from masscombat.battles.models import Battle
    from masscombat.campaigns import services as campaign_services
    from masscombat.core import engines, explain
    from masscombat.core.permissions import Role
    from masscombat.games.dnd5e.battle import adapter
    from masscombat.maps import services as map_services
    from masscombat.maps.selectors import battle_source, pieces_of
    from masscombat.rosters import services as roster_services
    from rules import registry

    setup_test_environment()
    call_command("migrate", verbosity=0)
    users = get_user_model().objects
    gm = users.create_user("bench_gm", password="x" * 12)
    players = [users.create_user(f"bench_player{n}", password="x" * 12) for n in (1, 2)]
    campaign = campaign_services.create_campaign(gm, name="Bench", ruleset="dnd5e")
    for player in players:
        campaign.memberships.create(user=player, role=Role.PLAYER)
    battle_map = map_services.create_map(campaign, name="Big field", width=WIDTH, height=HEIGHT,
                                         data={"cells": terrain()})
    armies = {side: roster_services.create_army(campaign, name=name, user=gm, data=army_data(name), commander=player)
              for side, name, player in (("A", "West", players[0]), ("B", "East", players[1]))}
    battle = battle_services.create_battle(
        campaign, gm, name="Benchmark", armies=armies, heroes=[],
        options={"map": str(battle_map.pk), "deploy_a": "west", "deploy_b": "east", "objective_squares": "none",
                 "vp_per_unit": 3, "victory_threshold": 10})
    state = battle.state
    units = sorted(state["units"])
    print(f"map {WIDTH} x {HEIGHT}, {len(state['stands'])} stands in {len(units)} units, "
          f"{battle.participants.count()} participants")

    calls = []
    real_run = registry.run

    def counting_run(slug, op, payload, seed=None):
        if op == "declaration-options":
            calls.append(payload["participant"])
        return real_run(slug, op, payload, seed)

    registry.run = counting_run
    room = battle.get_absolute_url()
    clients = {}
    for who, user in (("GM", gm), ("player", players[0])):
        clients[who] = Client()
        clients[who].force_login(user)
        calls.clear()
        response = clients[who].get(room)
        assert response.status_code == 200, response.status_code
        first = len(calls)
        clients[who].get(room)
        print(f"{who}'s room: {len(response.content) // 1024} KiB, engine declaration-options calls: "
              f"{first} on the first request, {len(calls) - first} on the next")
    registry.run = real_run

    def new_version():
        Battle.objects.filter(pk=battle.pk).update(version=F("version") + 1)

    for who, client in clients.items():
        timed(f"GET the room as the {who}, first request after a change", args.repeat,
              lambda: client.get(room), before=new_version)
        timed(f"GET the room as the {who}, repeated", args.repeat, lambda: client.get(room))
        for part in ("status", "declare", "map"):
            url = reverse("battles:part", args=[battle.pk, part])
            timed(f"GET the room's {part} part as the {who}, repeated", args.repeat, lambda: client.get(url))
        form = reverse("battles:part", args=[battle.pk, "declare"]) + f"?participant=unit:{units[0]}"
        timed(f"GET one unit's form (declare?participant=) as the {who}", args.repeat,
              lambda: client.get(form))

    tag = Template("{% load maps %}{% battle_map source pieces=pieces highlights=highlights %}")

    def page(viewer, selected=None):
        answer = engines.visible_state("dnd5e", state, viewer or engines.GM)
        pieces = pieces_of(answer["state"], "dnd5e", viewer, explain.names("dnd5e", answer))
        highlights = []
        if selected is not None:  # the ends of the stand's moves, as its unit's form offers them to the viewer
            unit = state["stands"][selected]["unit"]
            for option in engines.declaration_options("dnd5e", state, {"kind": "unit", "id": unit}, viewer)["options"]:
                if map_pieces([option], adapter, state) == [selected]:
                    highlights += [path[-1] for path in option.get("allowed") or [] if path]
        return tag.render(Context({"source": battle_source(answer["state"]), "pieces": pieces,
                                   "highlights": highlights}))

    selected = state["units"][units[0]]["stands"][0]
    timed("engine: player map view: visible-state + pieces + SVG", args.repeat, lambda: page("A"))
    timed("engine: player map view with a selected stand (legal moves)", args.repeat, lambda: page("A", selected))
    timed("engine: GM map view: pieces + SVG", args.repeat, lambda: page(None))

    def options(uid):
        return registry.run("dnd5e", "declaration-options", {"state": state, "participant": {"kind": "unit", "id": uid}})

    timed("engine: declaration-options for one unit (6 stands)", args.repeat, lambda: options(units[0]))
    timed(f"engine: declaration-options for all {len(units)} units", args.repeat,
          lambda: [options(uid) for uid in units])


if __name__ == "__main__":
    main()
