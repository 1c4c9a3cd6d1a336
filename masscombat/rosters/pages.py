"""What the roster pages show of an engine's output: sheet blocks, the translated log, the chart.

The numbers are the engine's (``rules.registry.run`` through the adapters);
this module only arranges them for a template: scalars as label/value pairs,
collections of records as tables, the log rendered with the ruleset's own
message templates in the reader's language.
"""

from __future__ import annotations

import re
from typing import Any

from django.template import TemplateDoesNotExist
from django.template.loader import select_template

from masscombat.core.engines import InvalidInput
from masscombat.core.explain import rendered_log
from masscombat.rosters import adapters, labels, refusals, selectors

_SKIPPED = {"log", "dice"}
_CHART_WIDTH, _CHART_HEIGHT, _CHART_PAD = 320, 120, 24


def section_context(access, user) -> dict:
    """The campaign page's armies and heroes this member may see (two queries)."""
    return {
        "campaign": access.campaign,
        "access": access,
        "armies": list(selectors.armies_for(access, user)),
        "heroes": list(selectors.heroes_for(access, user)),
    }


def sheet_context(slug: str, entity: str, data: Any, options: dict | None = None, title: str = "") -> dict:
    """The derived sheet of ``data`` (for the ``options`` chosen) for a template, or the engine's objections;
    ``title`` is the army's or hero's name, for an engine that names the army only by an id (HÉROS)."""
    kind = getattr(adapters.get(slug), entity)
    try:
        sheets = kind.sheet(slug, data, options)
    except InvalidInput as error:
        problems = sorted((in_words(slug, data, path), refusals.said(slug, message))
                          for path, message in error.fields.items())
        return {"sheet_error": refusals.said(slug, error.error), "sheet_problems": problems, "blocks": [],
                "log": [], "strength": None, "special": None, "sheets": {}}
    steps = [step for output in sheets.values() for step in output.get("log", [])]
    try:
        special = select_template([f"rosters/sheets/{slug}_{entity}.html"]).template.name
    except TemplateDoesNotExist:
        special = None
    named = names_of(slug, data, title)
    return {
        "sheets": sheets,
        "blocks": [block for name, output in sheets.items()
                   for block in describe(slug, name, output, {**named, **_stands_of(slug, data, name)})],
        "log": rendered_log(slug, steps, names={**_log_words(slug, steps), **named}),
        "strength": kind.strength(sheets),
        "special": special,
        "sheet_error": "",
        "sheet_problems": [],
    }


_STEP = re.compile(r"\.?([^.\[]+)|\[(\d+)\]")


def in_words(slug: str, data: Any, path: str) -> str:
    """An engine's error path as the GM reads it: ``units.u1.stands[0].profile`` → "Archers 1 › #1 › Profile"."""
    words, node = [], data
    for name, index in _STEP.findall(path or ""):
        if index:
            values = list(node.values()) if isinstance(node, dict) else node if isinstance(node, list) else []
            node = values[int(index)] if int(index) < len(values) else None
            words.append(_named(node) or f"#{int(index) + 1}")
        elif isinstance(node, dict) and isinstance(node.get(name), dict) and name not in _field_names(slug):
            node = node[name]  # an entry keyed by id (a D&D 5e unit): named by its name, not its key
            words.append(_named(node) or name)
        else:
            node = node.get(name) if isinstance(node, dict) else None
            words.append(str(labels.label(slug, name)[0]))
    return " › ".join(words) or "—"


def _named(node: Any) -> str:
    return str(node.get("name") or "") if isinstance(node, dict) else ""


def _field_names(slug: str) -> set:
    """Field names the ruleset's forms label (an object under one of them is a field, not an entry)."""
    return set(labels.FIELDS) | set(labels.TERMS.get(slug, {}))


def describe(slug: str, title: str, output: dict, names: dict | None = None, skip: frozenset = frozenset()) -> list[dict]:
    """An output as blocks: ``{"title", "pairs": [(label, value)], "table": {"columns", "rows"} | None}``.

    Ids are never shown: an id column is left out, a record keyed by id is called by its name, and a value
    that names a part of the army (a corps, a unit) reads as that part's name (``names``).
    """
    names = names or {}
    pairs, blocks = [], []
    for key, value in output.items():
        if key in _SKIPPED or key in skip or _is_id(key):
            continue
        label = labels.label(slug, key)[0]
        if key.endswith("_id") and isinstance(value, str):  # a reference: what it names, never its id
            pairs.append((label, names.get(value) or "—"))
        elif _is_scalar(value):
            pairs.append((label, _shown(slug, value, names)))
        elif isinstance(value, list) and all(_is_scalar(item) for item in value):
            pairs.append((label, ", ".join(str(_shown(slug, item, names)) for item in value) or "—"))
        elif isinstance(value, dict) and all(_is_scalar(item) for item in value.values()):
            blocks.append({"title": label, "pairs": [(_key_name(slug, k, names), _shown(slug, v, names))
                                                     for k, v in value.items()], "table": None})
        elif isinstance(value, dict) and value and all(isinstance(item, dict) for item in value.values()):
            blocks.append({"title": label, "pairs": [], "table": _table(slug, list(value.items()), names)})
        elif isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
            blocks.append({"title": label, "pairs": [],
                           "table": _table(slug, [(None, item) for item in value], names)})
        elif isinstance(value, dict):
            blocks.extend(describe(slug, key, value, names, skip))
    if pairs:
        blocks.insert(0, {"title": names.get(title) or labels.label(slug, title)[0], "pairs": pairs, "table": None})
    return blocks


def _table(slug: str, records: list[tuple[str | None, dict]], names: dict) -> dict:
    """Records as a table: the first column names each record (its name, never its id); no id column."""
    keyed = bool(records) and records[0][0] is not None
    named = not keyed and any(isinstance(record.get("name"), str) and record.get("name") for _k, record in records)
    columns: list[str] = []
    for _key, record in records:
        for name, value in record.items():
            if (name not in columns and name not in _SKIPPED and _is_scalar(value) and not _is_id(name)
                    and not (name == "name" and (keyed or named))):
                columns.append(name)
    rows = []
    for key, record in records:
        first = []
        if keyed:
            first = [labels.named(slug, record.get("name")) or names.get(key) or labels.choice(slug, key)]
        elif named:
            first = [labels.named(slug, record.get("name")) or names.get(str(record.get("id"))) or "—"]
        elif "id" in record:
            first = [names.get(str(record["id"])) or "—"]
        rows.append(first + [(names.get(record.get(name)) or "—") if name.endswith("_id") and record.get(name)
                             else _shown(slug, record.get(name), names) for name in columns])
    heads = ([""] if keyed or named or (records and "id" in records[0][1]) else []) + [
        labels.label(slug, c)[0] for c in columns]
    return {"columns": heads, "rows": rows}


def _is_id(name: str) -> bool:
    """An id field, never shown: ``id``, ``side_id``; a reference (``corps_id``) is shown, by its name."""
    return name in ("id", "side_id")


def _key_name(slug: str, key, names: dict) -> str:
    return names.get(key) or str(labels.label(slug, key)[0])


def _is_scalar(value) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _shown(slug: str, value, names: dict | None = None):
    if value is None:
        return "—"
    if isinstance(value, bool):
        return labels.choice(slug, value)
    if isinstance(value, str):
        return (names or {}).get(value) or labels.choice(slug, value)
    return value


def names_of(slug: str, data: Any, title: str = "") -> dict[str, str]:
    """Every id the data holds, by the name the GM gave it (units, corps, characters, profiles, an army's side)."""
    found: dict[str, str] = {}

    def walk(node, key=None):
        if isinstance(node, dict):
            name = node.get("name")
            if isinstance(name, str) and name:
                if isinstance(node.get("id"), str):
                    found.setdefault(node["id"], name)
                if isinstance(key, str):
                    found.setdefault(key, name)
            for child_key, child in node.items():
                walk(child, child_key if isinstance(child, dict) else None)
        elif isinstance(node, list):
            for child in node:
                walk(child)

    walk(data)
    if isinstance(data, dict):
        for key in ("side_id", "id"):  # the army or hero itself, which the engine may call by its id only
            if isinstance(data.get(key), str):
                found.setdefault(data[key], title or str(data.get("name") or "") or "—")
    if slug == "dnd5e" and isinstance(data, dict) and isinstance(data.get("units"), dict):
        for unit_id in data["units"]:  # an attached solo (a unit's commander) by its creature
            for ident, name in _stands_of(slug, data, unit_id).items():
                found.setdefault(ident, name.rsplit(" ", 1)[0] if ident.startswith("h") else name)
    return found


def _stands_of(slug: str, data: Any, unit_id: str) -> dict[str, str]:
    """A D&D 5e unit's stands and solos by their creature and rank ("Orc 2"): their ids repeat from unit to unit."""
    if slug != "dnd5e" or not isinstance(data, dict) or not isinstance(data.get("units"), dict):
        return {}
    unit = data["units"].get(unit_id)
    profiles = data.get("profiles") if isinstance(data.get("profiles"), dict) else {}
    found, counted = {}, {}
    for item in ((unit or {}).get("stands") or []) + ((unit or {}).get("attached_solos") or []):
        if isinstance(item, dict) and isinstance(item.get("id"), str):
            profile = item.get("profile")
            counted[profile] = counted.get(profile, 0) + 1
            creature = (profiles.get(profile) or {}).get("name") or labels.choice(slug, str(profile))
            found[item["id"]] = f"{creature} {counted[profile]}"
    return found


def _log_words(slug: str, steps: list) -> dict[str, str]:
    """Engine words a log step names as parameters (a skill, a field, a field's path), in the reader's words."""
    found = {}
    for step in steps:
        for value in (step.get("params") or {}).values() if isinstance(step, dict) else ():
            if isinstance(value, str) and value not in found and re.fullmatch(r"[a-z][a-z0-9_.\[\]]*", value):
                parts = [part for part in re.split(r"[.\[\]]", value) if part and not part.isdigit()]
                parts = [part for part in parts if part not in _PAYLOAD_PREFIXES]
                if parts and all(part in _KNOWN for part in parts):
                    found[value] = " › ".join(
                        str(labels.choice(slug, part)) if part in labels.CHOICES else str(labels.label(slug, part)[0])
                        for part in parts)
    return found


# The engines' payload wrappers and sides, in a field path of a log step ("hero.player", "sides.a.general.name").
_PAYLOAD_PREFIXES = {"hero", "army", "sides", "a", "b", "character", "profile", "unit", "sheet"}
_KNOWN = {*labels.FIELDS, *labels.DERIVED, *labels.CHOICES}


def strength_chart(points: list[tuple[int | float, Any]]) -> dict | None:
    """An inline SVG line of the strength after each change: coordinates and labels, no JavaScript."""
    if not points:
        return None
    values = [value for value, _change in points]
    low, high = min(values + [0]), max(values)
    span = (high - low) or 1
    count = len(points)
    inner_w, inner_h = _CHART_WIDTH - 2 * _CHART_PAD, _CHART_HEIGHT - 2 * _CHART_PAD
    marks = []
    for index, (value, change) in enumerate(points):
        x = _CHART_PAD + (inner_w * index / (count - 1) if count > 1 else inner_w / 2)
        y = _CHART_PAD + inner_h * (1 - (value - low) / span)
        marks.append({"x": round(x, 1), "y": round(y, 1), "value": value, "change": change})
    return {
        "width": _CHART_WIDTH,
        "height": _CHART_HEIGHT,
        "points": " ".join(f"{mark['x']},{mark['y']}" for mark in marks),
        "marks": marks,
        "high": high,
        "low": low,
        "base_y": _CHART_PAD + inner_h,
        "top_y": _CHART_PAD,
        "left": _CHART_PAD,
        "right": _CHART_WIDTH - _CHART_PAD,
    }
