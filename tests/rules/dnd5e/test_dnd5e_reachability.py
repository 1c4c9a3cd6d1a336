"""The fast path search of ``declaration-options`` (rules/dnd5e/reachability.py)
against a plain reading of S5.7 on random small maps.

The reference asks the walking code of ``resolve-round`` (:class:`Mover`)
about every candidate path, whole, on the real battle: can it be walked step
by step (S5.7.2), at what cost, and may the creature stop at its end (S5.7.3)?
The fast search answers the same questions from square sets; it must offer
exactly the ends the reference finds, each by a path that walks there at the
cheapest cost.  (Which of two equally cheap paths it picks is its own
breadth-first order, not a rule.)
"""

from __future__ import annotations

import copy
import heapq

from dnd5e_testkit import PROFILES, run
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dnd5e.battle import Battle
from rules.dnd5e.entities import BattleState
from rules.dnd5e.geometry import DIRECTIONS, Box
from rules.dnd5e.movement import Mover
from rules.dnd5e.reachability import reachable
from rules.explain import Log

TEST_PROFILES = copy.deepcopy(PROFILES)
TEST_PROFILES["swimmer"] = {**copy.deepcopy(PROFILES["orc"]), "name": "Merrow", "size": "large", "swim_speed_m": 12}
TEST_PROFILES["colossus"] = {**copy.deepcopy(PROFILES["ogre"]), "name": "Colossus", "size": "gargantuan"}
STAND_PROFILES = ["orc", "hobgoblin", "ogre", "hill_giant", "swimmer"]
SOLO_PROFILES = ["knight", "mage", "ogre", "colossus", "swimmer"]
TERRAINS = ["open", "open", "open", "road", "forest", "shallow_water", "deep_water"]


class Walker(Mover):
    """A mover that keeps every step it took instead of settling where it may stop (S5.7.3), so that a
    candidate path can be judged on walking alone."""

    def _settle(self, visited, first_index, *, end_of_move):
        pass


def walked(b: Battle, cid: str, path: list, mover: type[Mover], **flags) -> Mover:
    """Walk ``path`` as a ``move`` on the battle itself, note where it ended (``arrived``), then put the
    creature back."""
    entity = b.stands.get(cid) or b.solos[cid]
    saved = entity["position"]
    m = mover(b, cid, **flags)
    m.segment([list(p) for p in path], is_move=True)
    m.arrived = entity["position"]
    entity["position"] = saved
    return m


def cheapest_walks(b: Battle, cid: str, **flags) -> dict[tuple, int]:
    """Cheapest cost of every anchor where a ``move`` may end, by Dijkstra's search over whole walks:
    each step is judged by walking the whole path to it (S5.7.2), each end by settling there (S5.7.3)."""
    entity = b.stands.get(cid) or b.solos[cid]
    start = tuple(entity["position"])
    size = b.side_of_box(cid)
    settled: dict[tuple, int] = {}
    ends: dict[tuple, int] = {}
    heap = [(0, 0, start, [])]
    pushed = 0
    while heap:
        cost, _, pos, path = heapq.heappop(heap)
        if pos in settled:
            continue
        settled[pos] = cost
        if path and walked(b, cid, path, Mover, **flags).reason is None:
            ends[pos] = cost
        for dx, dy in DIRECTIONS.values():
            nxt = (pos[0] + dx, pos[1] + dy)
            if nxt in settled or not Box(nxt, size).on_grid(b.terrain.width, b.terrain.height):
                continue  # leaving the grid is fleeing, never offered as a move
            m = walked(b, cid, path + [nxt], Walker, **flags)
            if m.reason is None:
                pushed += 1
                heapq.heappush(heap, (m.spent, pushed, nxt, path + [nxt]))
    return ends


@st.composite
def small_battles(draw) -> dict:
    """A new-battle setup on a small random map, with stands and solos of both sides where they fit."""
    width, height = draw(st.integers(3, 9)), draw(st.integers(3, 9))
    cells = []
    for y in range(height):
        for x in range(width):
            terrain = draw(st.sampled_from(TERRAINS))
            elevated = terrain in ("open", "road", "forest")
            cells.append({"at": [x, y], "terrain": terrain,
                          "elevation": draw(st.integers(0, 2)) if elevated else 0,
                          "difficult": terrain == "open" and draw(st.booleans())})
    for corner in (cells[0], cells[-1]):  # one creature of each side stands there: new-battle wants both sides
        corner["terrain"] = "open"
    units = {"ua": {"side": "A", "type": "skirmishers", "stands": [{"id": "sa", "profile": "orc", "position": [0, 0]}]}}
    solos = {"kb": {"side": "B", "profile": "knight", "position": [width - 1, height - 1]}}
    deep = {tuple(c["at"]) for c in cells if c["terrain"] == "deep_water"}
    taken = {(0, 0), (width - 1, height - 1)}
    pieces = draw(st.lists(st.tuples(st.sampled_from("AB"), st.sampled_from(["regiment", "skirmishers", "solo"]),
                                     st.integers(0, 4), st.integers(0, 8), st.integers(0, 8),
                                     st.sampled_from(["march", "support", "defense"])), min_size=1, max_size=8))
    for i, (side, kind, which, x, y, configuration) in enumerate(pieces):
        profile = (SOLO_PROFILES if kind == "solo" else STAND_PROFILES)[which]
        box = Box((x, y), {"medium": 1, "large": 2, "huge": 3, "gargantuan": 4}[TEST_PROFILES[profile]["size"]])
        squares = set(box.squares())
        if (not box.on_grid(width, height) or squares & taken
                or (squares & deep and not TEST_PROFILES[profile].get("swim_speed_m"))):
            continue
        taken |= squares
        if kind == "solo":
            solos[f"h{i}"] = {"side": side, "profile": profile, "position": [x, y]}
        else:
            units[f"u{i}"] = {"side": side, "type": kind, "configuration": configuration if kind == "regiment" else None,
                              "stands": [{"id": f"s{i}", "profile": profile, "position": [x, y]}]}
    roads = [c["at"] for c in cells if c["terrain"] == "road"]
    ruined = draw(st.sampled_from(roads)) if roads and draw(st.booleans()) else None
    return {"name": "Random field", "map": {"width": width, "height": height, "cells": cells},
            "profiles": TEST_PROFILES, "sides": {"A": {"name": "West"}, "B": {"name": "East"}}, "units": units, "solos": solos,
            "objective_squares": {"ruin": {"at": ruined, "hp_max": 10, "vp": 1}} if ruined else {}}


@settings(max_examples=150, deadline=None)
@given(small_battles(), st.booleans(), st.booleans())
def test_fast_search_gives_the_cheapest_walks(setup, dashing, disengaging):
    state = run("new-battle", setup, seed=1)["state"]
    for square in state["objective_squares"].values():
        square["hp"] = 0  # a destroyed road is difficult (S4.7)
    b = Battle.from_input(BattleState.model_validate(state), Log())
    flags = {"dashing": dashing, "disengaging": disengaging}
    movers = [sid for sid in b.stands_in_play()] + [hid for hid in b.solos if b.solo_on_grid(hid)]
    for cid in movers:
        paths = reachable(b, cid, dashing, disengaging)
        ends = cheapest_walks(b, cid, **flags)
        assert [tuple(p[-1]) for p in paths] == sorted(ends, key=lambda p: (p[1], p[0])), cid
        for path in paths:
            m = walked(b, cid, path, Mover, **flags)
            assert (m.reason, m.arrived, m.spent) == (None, path[-1], ends[tuple(path[-1])]), (cid, path)


def test_the_search_is_not_trivially_empty():
    """An orc on open ground, its enemy far away, may end on every square within its 6 squares of movement."""
    setup = {"name": "Open", "map": {"width": 15, "height": 9, "cells": []}, "profiles": TEST_PROFILES,
             "sides": {"A": {"name": "West"}, "B": {"name": "East"}},
             "units": {"u": {"side": "A", "type": "skirmishers",
                             "stands": [{"id": "s", "profile": "orc", "position": [4, 4]}]}},
             "solos": {"h": {"side": "B", "profile": "knight", "position": [14, 8]}}}
    b = Battle.from_input(BattleState.model_validate(run("new-battle", setup)["state"]), Log())
    paths = reachable(b, "s", False, False)
    assert sorted(tuple(p[-1]) for p in paths) == sorted(
        (x, y) for y in range(9) for x in range(15) if 0 < abs(x - 4) + abs(y - 4) <= 6)
    assert all(len(p) == abs(p[-1][0] - 4) + abs(p[-1][1] - 4) for p in paths)  # cheapest: straight there
    assert set(cheapest_walks(b, "s")) == {tuple(p[-1]) for p in paths}
