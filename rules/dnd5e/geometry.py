"""Grid geometry: metre conversions (S4.3), footprints and distances (S4.4, S4.5),
terrain and step costs (S4.7, S4.8) and area templates (S4.3.1, S6.9).

Everything is integer arithmetic on decimetres and squares, so results never
depend on float rounding.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rules.dnd5e.tables import ALWAYS_DIFFICULT

Square = tuple[int, int]

DIRECTIONS: dict[str, Square] = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}


def dm(metres: float) -> int:
    """Integer decimetres; inputs were checked to carry at most one decimal."""
    return round(metres * 10)


def squares_movement(metres: float) -> int:
    return dm(metres) // 15


squares_effect = squares_movement


def squares_range(metres: float) -> int:
    d = dm(metres)
    return 0 if d == 0 else max(1, (d + 30) // 60)


def squares_area(metres: float) -> int:
    return dm(metres) // 30


def area_size(shape: str, size_m: float) -> int:
    """S4.3.1: cones and lines have at least their first square; radii may be 0."""
    n = squares_area(size_m)
    return max(1, n) if shape in ("cone", "line") else n


def convert(kind: str, metres: float) -> int:
    return {"movement": squares_movement, "effect": squares_effect, "range": squares_range, "area": squares_area}[
        kind
    ](metres)


# -- footprints and distances ------------------------------------------------


def footprint(anchor: Iterable[int], side: int) -> list[Square]:
    x, y = anchor
    return [(x + i, y + j) for j in range(side) for i in range(side)]


class Box:
    """A square footprint: anchor (north-west square) and side."""

    __slots__ = ("x", "y", "side")

    def __init__(self, anchor: Iterable[int], side: int = 1):
        self.x, self.y = anchor
        self.side = side

    @property
    def x1(self) -> int:
        return self.x + self.side - 1

    @property
    def y1(self) -> int:
        return self.y + self.side - 1

    def squares(self) -> list[Square]:
        return footprint((self.x, self.y), self.side)

    def overlaps(self, other: "Box") -> bool:
        return not (self.x1 < other.x or other.x1 < self.x or self.y1 < other.y or other.y1 < self.y)

    def contains(self, sq: Iterable[int]) -> bool:
        sx, sy = sq
        return self.x <= sx <= self.x1 and self.y <= sy <= self.y1

    def on_grid(self, width: int, height: int) -> bool:
        return self.x >= 0 and self.y >= 0 and self.x1 < width and self.y1 < height


def dist(a: Box, b: Box) -> int:
    """S4.5: orthogonal distance between the closest squares of two footprints."""
    dx = max(0, b.x - a.x1, a.x - b.x1)
    dy = max(0, b.y - a.y1, a.y - b.y1)
    return dx + dy


# -- terrain -----------------------------------------------------------------

OPEN_CELL = {"terrain": "open", "difficult": False, "elevation": 0}


class Terrain:
    """The map's cells (S3.7) with the derivations of S4.7."""

    def __init__(self, map_: Mapping[str, Any], destroyed_roads: Iterable[Square] = ()):
        self.width = map_["width"]
        self.height = map_["height"]
        self.cells = {tuple(c["at"]): c for c in map_.get("cells", [])}
        self.destroyed = {tuple(s) for s in destroyed_roads}

    def cell(self, sq: Square) -> Mapping[str, Any]:
        return self.cells.get(tuple(sq), OPEN_CELL)

    def elevation(self, sq: Square) -> int:
        return self.cell(sq).get("elevation", 0)

    def terrain(self, sq: Square) -> str:
        return self.cell(sq).get("terrain", "open")

    def is_difficult(self, sq: Square) -> bool:
        c = self.cell(sq)
        t = c.get("terrain", "open")
        if t in ALWAYS_DIFFICULT:
            return True
        if t == "open" and c.get("difficult", False):
            return True
        return t == "road" and tuple(sq) in self.destroyed

    def on_grid(self, sq: Square) -> bool:
        return 0 <= sq[0] < self.width and 0 <= sq[1] < self.height

    def box_elevation(self, box: Box) -> int:
        """H3: the highest of its squares."""
        return max(self.elevation(sq) for sq in box.squares())

    def any_terrain(self, box: Box, terrain: str) -> bool:
        return any(self.terrain(sq) == terrain for sq in box.squares())

    def enter_cost(self, from_sq: Square, to_sq: Square) -> int:
        climb = max(0, self.elevation(to_sq) - self.elevation(from_sq))
        return (1 + climb) * (2 if self.is_difficult(to_sq) else 1)

    def step_cost(self, old: Box, direction: Square) -> int:
        """S4.8: the dearest newly entered square, each entered from the square behind it."""
        dx, dy = direction
        new = Box((old.x + dx, old.y + dy), old.side)
        costs = [
            self.enter_cost((sx - dx, sy - dy), (sx, sy))
            for sx, sy in new.squares()
            if not old.contains((sx, sy))
        ]
        return max(costs)

    def deep_water_in(self, box: Box) -> bool:
        return any(self.terrain(sq) == "deep_water" for sq in box.squares())


# -- area templates (S6.9) ----------------------------------------------------


def area_squares(
    shape: str,
    n: int,
    origin: Iterable[int],
    direction: str | None = None,
    extra_side: str = "high",
) -> list[Square]:
    """Squares of an area of size ``n`` (S4.3.1), before clipping, sorted by y then x."""
    ox, oy = origin
    out: set[Square] = set()
    if shape in ("cube", "cylinder", "sphere"):
        for dy in range(-n, n + 1):
            rest = n - abs(dy)
            for dx in range(-rest, rest + 1):
                out.add((ox + dx, oy + dy))
    else:
        ddx, ddy = DIRECTIONS[direction or "north"]
        px, py = (1, 0) if ddx == 0 else (0, 1)  # the cone's width grows along x or y ("high" side)
        for d in range(1, n + 1):
            cx, cy = ox + (d - 1) * ddx, oy + (d - 1) * ddy
            width = d if shape == "cone" else 1
            low = (width - 1) // 2 if extra_side == "high" else (width - 1) - (width - 1) // 2
            high = (width - 1) - low
            for k in range(-low, high + 1):
                out.add((cx + k * px, cy + k * py))
    return sorted(out, key=lambda s: (s[1], s[0]))


def clipped_area(shape: str, size_m: float, origin, direction, extra_side, width=None, height=None):
    """S6.9 squares, dropped outside the grid when its size is known."""
    n = area_size(shape, size_m)
    squares = area_squares(shape, n, origin, direction, extra_side)
    if width is not None:
        squares = [s for s in squares if 0 <= s[0] < width and 0 <= s[1] < height]
    return n, squares
