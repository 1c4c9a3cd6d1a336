"""The editor's bulk changes on an army's or hero's data: duplicate, move, add N, undo.

They act on the JSON the posted form describes (:func:`schema_forms.read`),
before the engine sees it, and only on lists of items: a path such as
``units[2]`` or ``units[0].stands[1]`` names an item by its place, as the form
does (for D&D 5e units, kept in an object keyed by id, the place is the
entry's rank).  A copy gets a fresh hidden id and a numbered name; nothing
here checks a rule: the engine does, on the next preview or save.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

from masscombat.core import jsonsafe
from masscombat.rosters import naming

_STEP = re.compile(r"\.?([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]")
MAX_ADDED = 50  # one tap adds at most this many identical items


def _steps(path: str) -> list[str | int] | None:
    """``units[0].stands[1]`` → ``["units", 0, "stands", 1]``; None for anything else."""
    steps, position = [], 0
    while position < len(path):
        match = _STEP.match(path, position)
        if match is None or match.end() == position:
            return None
        steps.append(match.group(1) if match.group(1) is not None else int(match.group(2)))
        position = match.end()
    return steps


def _parent(data: Any, path: str) -> tuple[Any, str, int] | None:
    """The list (or object keyed by id) holding the item at ``path``, its field name and the item's place."""
    steps = _steps(path)
    if not steps or not isinstance(steps[-1], int) or len(steps) < 2 or not isinstance(steps[-2], str):
        return None
    node = data
    for step in steps[:-1]:
        if isinstance(step, int):
            values = list(node.values()) if isinstance(node, dict) else node
            if not isinstance(values, list) or not 0 <= step < len(values):
                return None
            node = values[step]
        elif isinstance(node, dict):
            node = node.get(step)
        else:
            return None
    if not isinstance(node, list | dict) or not 0 <= steps[-1] < len(node):
        return None
    return node, steps[-2], steps[-1]


def _copy_of(item: Any, field: str, siblings) -> Any:
    """A copy of ``item`` with a fresh id and the next free number of its name."""
    item = copy.deepcopy(item)
    if isinstance(item, dict):
        if "id" in item:
            item["id"] = naming.new_id(field, naming.ids_in(siblings))
        if item.get("name"):
            base = re.sub(r"\s+\d+$", "", str(item["name"])) or str(item["name"])
            item["name"] = naming.numbered(base, naming.names_in(siblings))
    return item


def _insert(container, field: str, place: int, item: Any) -> None:
    if isinstance(container, list):
        container.insert(place, item)
        return
    entries = list(container.items())
    entries.insert(place, (naming.new_id(field, container), item))
    container.clear()
    container.update(entries)


def duplicate(data: Any, path: str, count: int = 1) -> Any:
    """``data`` with ``count`` copies of the item at ``path`` right after it (unchanged for a bad path)."""
    data = copy.deepcopy(data)
    found = _parent(data, path)
    if found is None:
        return data
    container, field, place = found
    original = list(container.values())[place] if isinstance(container, dict) else container[place]
    for offset in range(1, min(max(count, 1), MAX_ADDED) + 1):
        _insert(container, field, place + offset, _copy_of(original, field, container))
    return data


def move(data: Any, path: str, delta: int) -> Any:
    """``data`` with the item at ``path`` moved ``delta`` places (up is negative), kept inside its list."""
    data = copy.deepcopy(data)
    found = _parent(data, path)
    if found is None:
        return data
    container, _field, place = found
    target = min(max(place + delta, 0), len(container) - 1)
    if isinstance(container, list):
        container.insert(target, container.pop(place))
    else:
        entries = list(container.items())
        entries.insert(target, entries.pop(place))
        container.clear()
        container.update(entries)
    return data


def grow(data: Any, path: str, count: int) -> Any | None:
    """``data`` with ``count`` copies of the last item of the list at ``path`` (identical stands...).

    None when the list is empty or not found: the caller adds a blank item instead.
    """
    found = _parent(data, f"{path}[0]")
    if found is None:
        return None
    return duplicate(data, f"{path}[{len(found[0]) - 1}]", count)


def snapshot(data: Any) -> str:
    """The data as the hidden ``_previous`` field carries it, for one undo."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def restore(text: str) -> Any | None:
    """The data an undo brings back; None if the posted snapshot is not JSON (then nothing is undone)."""
    try:
        return jsonsafe.loads(text) if text else None
    except ValueError:
        return None


def count(raw: Any) -> int:
    """How many items one tap adds: 1 to :data:`MAX_ADDED`, 1 for anything unreadable."""
    try:
        return min(max(int(raw), 1), MAX_ADDED)
    except (TypeError, ValueError):
        return 1


def apply(slug: str, schema: dict, post) -> tuple[Any, str]:
    """The data of a posted editor after the button pressed, and the undo snapshot to carry on.

    ``_undo`` brings back the snapshot; ``_remove``, ``_duplicate``, ``_move``
    and ``_add`` (``_count:<list>`` items, from the troop template
    ``_template:<list>`` or as copies of the list's last item, else blank)
    act on the posted data and keep it as the snapshot; anything else (a
    refresh, a save) changes nothing and carries the snapshot on.
    """
    from masscombat.rosters import presets, schema_forms

    posted = schema_forms.read(schema, post)
    if "_undo" in post:
        restored = restore(post.get("_previous", ""))
        return (posted if restored is None else restored), ""
    if "_remove" in post:
        return schema_forms.read(schema, post, remove=post["_remove"]), snapshot(posted)
    if "_duplicate" in post:
        return duplicate(posted, post["_duplicate"]), snapshot(posted)
    if "_move" in post:
        path, _sep, way = post["_move"].rpartition(":")
        return move(posted, path, -1 if way == "up" else 1), snapshot(posted)
    if "_add" in post:
        path = post["_add"]
        number = count(post.get(f"_count:{path}"))
        template = presets.find(slug, "troops", post.get(f"_template:{path}", ""))
        if template is not None and path in ("units", "troops"):  # a troop type; 7th Sea: an army size
            return presets.add_troop(slug, posted, template, number), snapshot(posted)
        grown = grow(posted, path, number)
        if grown is None:
            grown = schema_forms.read(schema, post, add=path)
            found = _parent(grown, f"{path}[0]")
            if number > 1 and found is not None:
                grown = duplicate(grown, f"{path}[{len(found[0]) - 1}]", number - 1)
        return grown, snapshot(posted)
    return posted, post.get("_previous", "")
