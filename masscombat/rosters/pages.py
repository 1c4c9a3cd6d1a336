"""What the roster pages show of an engine's output: sheet blocks, the translated log, the chart.

The numbers are the engine's (``rules.registry.run`` through the adapters);
this module only arranges them for a template: scalars as label/value pairs,
collections of records as tables, the log rendered with the ruleset's own
message templates in the reader's language.
"""

from __future__ import annotations

from typing import Any

from django.template.loader import select_template
from django.template import TemplateDoesNotExist
from rules.errors import InvalidInput

from masscombat.core.explain import rendered_log
from masscombat.rosters import adapters, labels, selectors

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


def sheet_context(slug: str, entity: str, data: Any, options: dict | None = None) -> dict:
    """The derived sheet of ``data`` (for the ``options`` chosen) for a template, or the engine's objections."""
    kind = getattr(adapters.get(slug), entity)
    try:
        sheets = kind.sheet(slug, data, options)
    except InvalidInput as error:
        return {"sheet_error": error.error, "sheet_problems": sorted(error.fields.items()), "blocks": [],
                "log": [], "strength": None, "special": None, "sheets": {}}
    steps = [step for output in sheets.values() for step in output.get("log", [])]
    try:
        special = select_template([f"rosters/sheets/{slug}_{entity}.html"]).template.name
    except TemplateDoesNotExist:
        special = None
    return {
        "sheets": sheets,
        "blocks": [block for name, output in sheets.items() for block in describe(slug, name, output)],
        "log": rendered_log(slug, steps),
        "strength": kind.strength(sheets),
        "special": special,
        "sheet_error": "",
        "sheet_problems": [],
    }


def describe(slug: str, title: str, output: dict) -> list[dict]:
    """An output as blocks: ``{"title", "pairs": [(label, value)], "table": {"columns", "rows"} | None}``."""
    pairs, blocks = [], []
    for key, value in output.items():
        if key in _SKIPPED:
            continue
        label = labels.label(slug, key)[0]
        if _is_scalar(value):
            pairs.append((label, _shown(slug, value)))
        elif isinstance(value, list) and all(_is_scalar(item) for item in value):
            pairs.append((label, ", ".join(str(_shown(slug, item)) for item in value) or "—"))
        elif isinstance(value, dict) and all(_is_scalar(item) for item in value.values()):
            blocks.append({"title": label, "pairs": [(labels.label(slug, k)[0], _shown(slug, v))
                                                     for k, v in value.items()], "table": None})
        elif isinstance(value, dict) and value and all(isinstance(item, dict) for item in value.values()):
            blocks.append({"title": label, "pairs": [], "table": _table(slug, list(value.items()))})
        elif isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
            blocks.append({"title": label, "pairs": [], "table": _table(slug, [(None, item) for item in value])})
        elif isinstance(value, dict):
            blocks.extend(describe(slug, key, value))
    if pairs:
        blocks.insert(0, {"title": labels.label(slug, title)[0], "pairs": pairs, "table": None})
    return blocks


def _table(slug: str, records: list[tuple[str | None, dict]]) -> dict:
    columns: list[str] = []
    for _key, record in records:
        for name, value in record.items():
            if name not in columns and name not in _SKIPPED and _is_scalar(value):
                columns.append(name)
    rows = [
        ([key] if key is not None else []) + [_shown(slug, record.get(name)) for name in columns]
        for key, record in records
    ]
    heads = ([""] if records and records[0][0] is not None else []) + [labels.label(slug, c)[0] for c in columns]
    return {"columns": heads, "rows": rows}


def _is_scalar(value) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _shown(slug: str, value):
    if value is None:
        return "—"
    if isinstance(value, bool):
        return labels.choice(slug, value)
    if isinstance(value, str):
        return labels.choice(slug, value)
    return value


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
