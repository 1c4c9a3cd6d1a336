"""Hex geometry of S3.1 (house H2): flat-topped hexes, odd-q offset coordinates."""

from __future__ import annotations

# Axial steps of the six directions, also the values of ``facing`` (S3.1).
STEPS: tuple[tuple[int, int], ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))

DIRECTION_OF = {step: d for d, step in enumerate(STEPS)}

Hex = dict[str, int]


def to_axial(h: Hex) -> tuple[int, int]:
    col, row = h["col"], h["row"]
    return col, row - (col - (col & 1)) // 2


def from_axial(q: int, r: int) -> Hex:
    return {"col": q, "row": r + (q - (q & 1)) // 2}


def distance(a: Hex, b: Hex) -> int:
    aq, ar = to_axial(a)
    bq, br = to_axial(b)
    dq, dr = aq - bq, ar - br
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbour(h: Hex, direction: int) -> Hex:
    q, r = to_axial(h)
    dq, dr = STEPS[direction % 6]
    return from_axial(q + dq, r + dr)


def direction_to(a: Hex, b: Hex) -> int | None:
    """The direction ``d`` with ``neighbour(a, d) == b``, or ``None`` if not adjacent."""
    aq, ar = to_axial(a)
    bq, br = to_axial(b)
    return DIRECTION_OF.get((bq - aq, br - ar))


def same(a: Hex | None, b: Hex | None) -> bool:
    if a is None or b is None:
        return False
    return a["col"] == b["col"] and a["row"] == b["row"]


def key(h: Hex) -> tuple[int, int]:
    return h["col"], h["row"]


def inside(h: Hex, width: int, height: int) -> bool:
    return 0 <= h["col"] < width and 0 <= h["row"] < height


def copy(h: Hex | None) -> Hex | None:
    return None if h is None else {"col": h["col"], "row": h["row"]}


def neighbours(h: Hex) -> list[Hex]:
    q, r = to_axial(h)
    return [from_axial(q + dq, r + dr) for dq, dr in STEPS]


def within(h: Hex, radius: int) -> list[Hex]:
    """Every hex (of non-negative coordinates) at most ``radius`` away from ``h``, ``h`` included."""
    return [{"col": col, "row": row}
            for col in range(max(0, h["col"] - radius), h["col"] + radius + 1)
            for row in range(max(0, h["row"] - radius - 1), h["row"] + radius + 2)
            if distance(h, {"col": col, "row": row}) <= radius]


def all_hexes(width: int, height: int) -> list[Hex]:
    return [{"col": col, "row": row} for col in range(width) for row in range(height)]
