"""A long item's fields in sections, as the spec groups them (a SYNAPSE unit: identity, numbers, weapons...).

The sections are data (``sections.yaml``): per ruleset, per list and per
variant of its items, a title in both languages and the fields it holds.  They
change how an item is shown, never what it posts: each field keeps its name.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import yaml
_FILE = Path(__file__).with_name("sections.yaml")


@cache
def _raw() -> dict:
    return yaml.safe_load(_FILE.read_text(encoding="utf-8")) or {}


def plan(slug: str, list_name: str, variant: str) -> list[dict]:
    """The sections of an item of ``list_name`` (``[]``: shown as one group).

    Each is ``{"en": title, "fr": title, "fields": [names]}``; the form builder
    (``schema_forms``) gathers an item's fields under them.
    """
    variants = _raw().get(slug, {}).get(list_name, {})
    return variants.get(variant) or variants.get("*") or []
