"""Every anchor a creature could end a ``move`` at now, with the cheapest path
there (S5.7), for ``declaration-options``.

The search asks the same questions as :class:`~rules.dnd5e.movement.Mover`
(may this footprint be crossed, may it stop here, is it next to an enemy
stand) once per visited square.  Asking the battle each time walks every
creature on the map, which made the options of a 60-stand battle take tens of
milliseconds per stand; :class:`Footing` answers them from square sets built
once per search instead.  It lives only as long as one call: the engine keeps
nothing between calls.
"""

from __future__ import annotations

from collections import deque

from rules.dnd5e.battle import Battle
from rules.dnd5e.geometry import DIRECTIONS, Square
from rules.dnd5e.movement import Mover


class Footing:
    """What the squares of the map hold and cost, as seen by one moving creature (S4.8, S6.15, S5.7.2, S5.7.3).

    Built for a ``move`` without a join target: a square that may be crossed
    only under a condition counts as blocked, as in :meth:`Mover.blocker`.
    Footprints are given by their anchor; the creature's side is fixed.
    """

    def __init__(self, b: Battle, probe: Mover, costs: dict):
        self.terrain = b.terrain
        self.costs = costs
        size = self.size = probe.size
        self.offsets = [(i, j) for j in range(size) for i in range(size)]
        # per direction, the footprint squares that a step in that direction newly covers (S4.8)
        self.leading = {d: [o for o in self.offsets if (o[0] + d[0], o[1] + d[1]) not in self.offsets]
                        for d in DIRECTIONS.values()}
        self.blocked: set[Square] = set()
        self.occupied: set[Square] = set()
        self.enemy_stands: set[Square] = set()
        for oid, obox in b.occupants():
            if oid == probe.cid:
                continue
            squares = obox.squares()
            self.occupied.update(squares)
            if probe.may_cross(oid) is not True:
                self.blocked.update(squares)
            if oid in b.stands and b.enemy_of(probe.cid, oid):
                self.enemy_stands.update(squares)
        self.swims = b.can_swim(probe.cid)
        self.impassable = set() if self.swims else {
            sq for sq, c in b.terrain.cells.items() if c.get("terrain") == "deep_water"}
        ring = [(i, -1) for i in range(size)] + [(i, size) for i in range(size)]
        self.ring = ring + [(-1, j) for j in range(size)] + [(size, j) for j in range(size)]

    def squares(self, anchor: Square, offsets: list[Square]) -> list[Square]:
        x, y = anchor
        return [(x + i, y + j) for i, j in offsets]

    def step_cost(self, anchor: Square, d: Square) -> int | None:
        """S4.8 cost of the step from ``anchor`` in direction ``d``; None if it enters deep water the creature
        cannot swim (S5.7.2 ``impassable_terrain``)."""
        key = (anchor, d, self.size, self.swims)
        if key not in self.costs:
            entered = self.squares((anchor[0] + d[0], anchor[1] + d[1]), self.leading[d])
            self.costs[key] = None if not self.impassable.isdisjoint(entered) else max(
                self.terrain.enter_cost((sx - d[0], sy - d[1]), (sx, sy)) for sx, sy in entered)
        return self.costs[key]

    def crossable(self, anchor: Square) -> bool:
        """Mover.blocker finds nothing in the footprint (S6.15)."""
        return self.blocked.isdisjoint(self.squares(anchor, self.offsets))

    def may_stop(self, anchor: Square) -> bool:
        """Mover.may_stop without a join target (S5.7.3)."""
        return self.occupied.isdisjoint(self.squares(anchor, self.offsets))

    def next_to_enemy_stand(self, anchor: Square) -> bool:
        """Battle.adjacent_enemy_stand for a footprint that overlaps no enemy stand: a square sharing a side
        with the footprint (S4.5 distance 1) belongs to an enemy stand in play."""
        return not self.enemy_stands.isdisjoint(self.squares(anchor, self.ring))


def reachable(b: Battle, cid: str, dashing: bool, disengaging: bool, costs: dict | None = None) -> list[list[list[int]]]:
    """Cheapest paths to every anchor where the creature could end a ``move`` now (S5.7).

    Each path is a list of anchors, ready to be declared as ``move``.  The
    search relaxes squares in breadth-first order and keeps the first parent
    found at the lowest cost, so the same state always gives the same paths.
    ``costs`` memoises step costs by (anchor, direction, footprint side, swimmer);
    the searches of one call may share it, since the map does not change between them.
    """
    start = tuple(b.stands[cid]["position"] if cid in b.stands else b.solos[cid]["position"])
    probe = Mover(b, cid, dashing=dashing, disengaging=disengaging)
    if cid in b.stands and not disengaging and b.adjacent_enemy_stand(cid):
        return []
    footing = Footing(b, probe, {} if costs is None else costs)
    stops_by_enemies = cid in b.stands and not disengaging
    width, height = b.terrain.width, b.terrain.height
    size = probe.size
    best = {start: 0}
    parent: dict[tuple, tuple] = {}
    queue = deque([start])
    while queue:
        pos = queue.popleft()
        for d in DIRECTIONS.values():
            nxt = (pos[0] + d[0], pos[1] + d[1])
            if not (nxt[0] >= 0 and nxt[1] >= 0 and nxt[0] + size <= width and nxt[1] + size <= height):
                continue
            step = footing.step_cost(pos, d)
            if step is None:
                continue
            cost = best[pos] + step
            if cost > probe.allowance or cost >= best.get(nxt, 10**9) or not footing.crossable(nxt):
                continue
            best[nxt] = cost
            parent[nxt] = pos
            if stops_by_enemies and footing.next_to_enemy_stand(nxt):
                continue  # a stand that arrives next to an enemy stand can go no further (S5.7.2)
            queue.append(nxt)
    paths = []
    for end in sorted(best, key=lambda p: (p[1], p[0])):
        if end == start or not footing.may_stop(end):
            continue
        path, node = [], end
        while node != start:
            path.append(list(node))
            node = parent[node]
        paths.append(path[::-1])
    return paths
