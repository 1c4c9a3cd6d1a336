"""Where zones are drawn when a map does not say: the engines only know their links."""

from __future__ import annotations

import math


def zone_slots(zones: dict) -> dict[str, tuple[int, int]]:
    """Each zone's slot ``(column, row)``: its own ``at`` when it has a free one, else the next free slot, row by row."""
    count = max(len(zones), 1)
    columns = max(1, math.ceil(math.sqrt(count)))
    taken: dict[tuple[int, int], str] = {}
    slots: dict[str, tuple[int, int]] = {}
    for zid, zone in zones.items():
        at = zone.get("at")
        if isinstance(at, (list, tuple)) and len(at) == 2 and tuple(at) not in taken:
            slots[zid] = (int(at[0]), int(at[1]))
            taken[slots[zid]] = zid
    index = 0
    for zid in zones:
        if zid in slots:
            continue
        while (index % columns, index // columns) in taken:
            index += 1
        slots[zid] = (index % columns, index // columns)
        taken[slots[zid]] = zid
    return slots
