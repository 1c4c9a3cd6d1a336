"""Where a unit or a character can go now: one cheapest legal path to every reachable hex (S5.5.4, S6.3).

Paths are proposed by a search and then confirmed by :mod:`rules.heros.movement`,
the very checks ``resolve-round`` makes, so an offered path is a legal one.
"""

from __future__ import annotations

import heapq
from typing import Any

from rules.heros import hexgrid, movement, sheets
from rules.heros.state import Battle


def unit_paths(b: Battle, unit: dict[str, Any], *, advance_target: dict | None = None) -> list[list[dict]]:
    """One cheapest legal path to every hex the unit can reach now (S5.5.4)."""
    mclass = sheets.derive(unit)["movement_class"]
    allowance = movement.unit_allowance(unit)
    start = unit["position"]
    best = {hexgrid.key(start): 0}
    queue: list[tuple[int, tuple, list]] = [(0, hexgrid.key(start), [])]
    found: list[list[dict]] = []
    while queue:
        cost, _k, path = heapq.heappop(queue)
        here = path[-1] if path else start
        for h in hexgrid.neighbours(here):
            if not b.inside(h):
                continue
            step = movement.enter_cost(b, unit["troop_type"], mclass, h)
            if step is None or cost + step > allowance:
                continue
            if advance_target is not None and hexgrid.distance(h, advance_target["position"]) >= \
                    hexgrid.distance(here, advance_target["position"]):
                continue
            k = hexgrid.key(h)
            if k in best and best[k] <= cost + step:
                continue
            best[k] = cost + step
            heapq.heappush(queue, (cost + step, k, path + [h]))
    back = Backtrack(b, unit, best, mclass, advance_target)
    for k in sorted(best):
        if k == hexgrid.key(start):
            continue
        path = back.path(k)
        if path and movement.fits(lambda p=path: movement.check_unit_path(b, unit, p, "path")):
            found.append(path)
    return found


class Backtrack:
    """Paths walked back from a hex along decreasing costs to the start, each hex's step found once."""

    def __init__(self, b: Battle, unit: dict, best: dict, mclass: str, adv: dict | None):
        self.b, self.unit, self.best, self.mclass, self.adv = b, unit, best, mclass, adv
        self.start = hexgrid.key(unit["position"])
        self.prev: dict[tuple, tuple | None] = {}

    def step_back(self, k: tuple) -> tuple | None:
        """The first neighbour (in direction order) the cheapest way to ``k`` may come from."""
        if k not in self.prev:
            h = {"col": k[0], "row": k[1]}
            before = self.best[k] - movement.enter_cost(self.b, self.unit["troop_type"], self.mclass, h)
            adv = self.adv
            found = next((n for n in hexgrid.neighbours(h) if self.best.get(hexgrid.key(n)) == before
                          and (adv is None or hexgrid.distance(h, adv["position"]) < hexgrid.distance(n, adv["position"]))),
                         None)
            self.prev[k] = hexgrid.key(found) if found is not None else None
        return self.prev[k]

    def path(self, target: tuple) -> list[dict] | None:
        keys = [target]
        while keys[-1] != self.start:
            prev = self.step_back(keys[-1])
            if prev is None:
                return None
            keys.append(prev)
        return [{"col": col, "row": row} for col, row in reversed(keys[:-1])]


def character_paths(b: Battle, c: dict[str, Any]) -> list[list[dict]]:
    allowance = movement.character_allowance(b, c, [])
    seen = {hexgrid.key(c["position"]): []}
    frontier = [[]]
    for _ in range(allowance):
        nxt = []
        for path in frontier:
            here = path[-1] if path else c["position"]
            for h in hexgrid.neighbours(here):
                if b.inside(h) and hexgrid.key(h) not in seen and movement.enter_cost(b, None, None, h) is not None:
                    foes = movement.enemies_at(b, c["side"], h)
                    if not foes[0] and not foes[1]:
                        seen[hexgrid.key(h)] = path + [h]
                        nxt.append(path + [h])
        frontier = nxt
    out = []
    for k in sorted(seen):
        path = seen[k]
        front = b.front_unit(path[-1]) if path else None
        if front is not None and (front["troop_type"] in ("Gd", "Lu") or front["character_unit"]):
            continue
        if path and len(path) <= movement.character_allowance(b, c, path):
            out.append(path)
    return out
