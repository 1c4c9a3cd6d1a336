"""Walking a creature square by square (S5.7): allowance, step costs, blocking
by adjacent enemy stands, crossing and stopping rules (S6.15), fleeing (S7.2)
and the road step (S5.7.4).

:class:`Mover` changes the creature's position in a :class:`Battle` as it
walks, so that ``resolve-round`` can move, act, then move again;
``check-movement`` runs it on a copy of the state.
"""

from __future__ import annotations

from rules.dnd5e.battle import Battle
from rules.dnd5e.geometry import DIRECTIONS, Box
from rules.dnd5e.tables import OCCUPANCY


def is_step(a, b) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


class Mover:
    def __init__(self, b: Battle, cid: str, *, dashing: bool = False, disengaging: bool = False,
                 join: str | None = None):
        self.b = b
        self.cid = cid
        self.is_stand = cid in b.stands
        self.entity = b.stands[cid] if self.is_stand else b.solos[cid]
        self.size = b.side_of_box(cid)
        self.disengaging = disengaging
        self.join = join
        self.allowance = b.allowance(cid, dashing)
        self.spent = 0
        self.declared = 0
        self.taken = 0
        self.step_costs: list[int] = []
        self.reason: str | None = None
        self.stopped_at: int | None = None
        self.road_used = False
        self.road_refused = False
        self.fled = False
        self.start = None if self.entity["position"] is None else list(self.entity["position"])

    @property
    def position(self):
        return self.entity["position"]

    def _stop(self, reason: str, index: int) -> None:
        if self.reason is None:
            self.reason = reason
        if self.stopped_at is None or index < self.stopped_at:
            self.stopped_at = index
        self.b.log.add("S5.7.2", "move.blocked", "{actor} stops before step {step}: {reason}.",
                       actor=self.cid, step=index, reason=reason)

    def may_cross(self, oid: str) -> bool | str:
        """S6.15: whether this creature may pass through occupant ``oid`` (a string: only under a condition)."""
        if self.b.enemy_of(self.cid, oid):
            category = "enemy_stand" if oid in self.b.stands else "enemy_solo"
        elif oid in self.b.stands:
            regiment = self.b.unit_of(oid)["type"] == "regiment"
            category = "allied_regiment_stand" if regiment else "allied_skirmisher_stand"
        else:
            category = "allied_detached_solo"
        return OCCUPANCY["stand" if self.is_stand else "detached_solo"][category][0]

    def blocker(self, box: Box, last_of_move: bool) -> str | None:
        """S6.15: why ``box`` cannot be crossed (``occupied``), or None."""
        for oid, obox in self.b.occupants():
            if oid == self.cid or not box.overlaps(obox):
                continue
            may_cross = self.may_cross(oid)
            if may_cross is True:
                continue
            if isinstance(may_cross, str) and last_of_move and oid == self.join:
                continue
            return "occupied"
        return None

    def may_stop(self, box: Box, end_of_move: bool) -> bool:
        """S5.7.3: no overlap with another creature, except a Join target at the end of ``move``."""
        for oid, obox in self.b.occupants():
            if oid == self.cid or not box.overlaps(obox):
                continue
            if end_of_move and oid == self.join:
                continue
            return False
        return True

    def segment(self, anchors: list, *, is_move: bool) -> None:
        """Walk one declared segment (S5.7.2) then settle where the creature may stop (S5.7.3)."""
        first_index = self.declared + 1
        self.declared += len(anchors)
        if not anchors or self.fled or self.position is None:
            if anchors and self.reason is None and not self.fled:
                self._stop("path_broken", first_index)
            return
        if not is_step(self.position, anchors[0]):
            self._stop("path_broken", first_index)
            return
        visited = [(list(self.position), 0)]
        b = self.b
        for offset, p in enumerate(anchors):
            index = first_index + offset
            pos = self.position
            direction = (p[0] - pos[0], p[1] - pos[1])
            if not is_step(pos, p):
                self._stop("path_broken", index)
                break
            if self.is_stand and not self.disengaging and b.adjacent_enemy_stand(self.cid):
                self._stop("enemy_adjacent", index)
                break
            old = Box(pos, self.size)
            new = Box(p, self.size)
            if not new.on_grid(b.terrain.width, b.terrain.height):
                if self.spent + 1 > self.allowance:
                    self._stop("insufficient_movement", index)
                    break
                self.spent += 1
                self.step_costs.append(1)
                self.taken += 1
                self.fled = True
                b.flee(self.cid)
                return
            cost = b.terrain.step_cost(old, direction)
            if self.spent + cost > self.allowance:
                self._stop("insufficient_movement", index)
                break
            entered = [sq for sq in new.squares() if not old.contains(sq)]
            if any(b.terrain.terrain(sq) == "deep_water" for sq in entered) and not b.can_swim(self.cid):
                self._stop("impassable_terrain", index)
                break
            last_of_move = is_move and offset == len(anchors) - 1
            if self.blocker(new, last_of_move):
                self._stop("occupied", index)
                break
            self.entity["position"] = list(p)
            self.spent += cost
            visited.append((list(p), cost))
            b.log.add("S4.8", "move.step", "{actor} steps to {to} for {cost} (spent {spent} of {allowance}).",
                      actor=self.cid, to=list(p), cost=cost, spent=self.spent, allowance=self.allowance)
        self._settle(visited, first_index, end_of_move=is_move)

    def _settle(self, visited: list, first_index: int, *, end_of_move: bool) -> None:
        kept = len(visited) - 1
        while kept > 0 and not self.may_stop(Box(visited[kept][0], self.size), end_of_move and kept == len(visited) - 1):
            kept -= 1
        if kept < len(visited) - 1:
            for _, cost in visited[kept + 1:]:
                self.spent -= cost
            self.entity["position"] = visited[kept][0]
            self._stop("cannot_end_here", first_index + kept)
        self.taken += kept
        self.step_costs.extend(cost for _, cost in visited[1:kept + 1])

    def road_step(self, direction: str) -> None:
        """S5.7.4: one more step in ``direction``, whatever its cost, from a road square."""
        index = self.declared + 1
        self.declared += 1
        b = self.b
        if self.fled or self.position is None:
            return
        box = Box(self.position, self.size)
        if not b.terrain.any_terrain(box, "road"):
            # no S9.6 reason fits: the step is simply not taken (``legal`` turns false, the reason stays null)
            self.road_refused = True
            if self.stopped_at is None:
                self.stopped_at = index
            b.log.add("S5.7.4", "move.blocked", "{actor} stops before step {step}: {reason}.",
                      actor=self.cid, step=index, reason="not on a road")
            return
        dx, dy = DIRECTIONS[direction]
        target = [self.position[0] + dx, self.position[1] + dy]
        if not self.disengaging and b.adjacent_enemy_stand(self.cid):
            self._stop("enemy_adjacent", index)
            return
        new = Box(target, self.size)
        if not new.on_grid(b.terrain.width, b.terrain.height):
            # a road step off the grid is a step like any other: the stand flees (S7.2; the spec is silent)
            self.taken += 1
            self.step_costs.append(0)
            self.road_used = self.fled = True
            b.flee(self.cid)
            return
        entered = [sq for sq in new.squares() if not box.contains(sq)]
        if any(b.terrain.terrain(sq) == "deep_water" for sq in entered) and not b.can_swim(self.cid):
            self._stop("impassable_terrain", index)
            return
        if self.blocker(new, False):
            self._stop("occupied", index)
            return
        if not self.may_stop(new, False):
            self._stop("cannot_end_here", index)
            return
        self.entity["position"] = target
        self.taken += 1
        self.step_costs.append(0)
        self.road_used = True
        b.log.add("S5.7.4", "move.road", "{actor} takes the road step to {to}.", actor=self.cid, to=target)

    def walk(self, move: list, move_after: list, road_step: str | None) -> None:
        """Both segments and the road step, with nothing in between (``check-movement``)."""
        self.segment(move, is_move=True)
        if road_step and not move_after:
            self.road_step(road_step)
        self.segment(move_after, is_move=False)
        if road_step and move_after:
            self.road_step(road_step)

    def report(self) -> dict:
        b = self.b
        join_ready = False
        if self.join is not None and self.position is not None and b.in_play(self.join):
            join_ready = Box(self.position, self.size).overlaps(b.box(self.join))
        return {
            "legal": self.reason is None and not self.road_refused,
            "allowance": self.allowance,
            "cost": self.spent,
            "steps_declared": self.declared,
            "steps_taken": self.taken,
            "step_costs": list(self.step_costs),
            "final_position": None if self.fled else (list(self.position) if self.position is not None else None),
            "stopped_reason": self.reason,
            "stopped_at_step": self.stopped_at,
            "road_step_used": self.road_used,
            "fled": self.fled,
            "join_ready": join_ready,
        }
