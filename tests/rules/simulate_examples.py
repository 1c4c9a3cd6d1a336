"""The simulator's test battles: each spec's worked example, and the same made lopsided (one side ten times the other).

The set-ups are the engines' own test fixtures, read from their test folders
(which are not packages to import from).
"""

from __future__ import annotations

import copy
import json
import runpy
from functools import cache
from pathlib import Path

from rules import registry
from rules.simulate_units import units

HERE = Path(__file__).parent


@cache
def _fixtures(path: Path) -> dict:
    """The globals of another engine's fixtures file (test folders are not packages to import from)."""
    return runpy.run_path(str(path), run_name=f"simulate_fixtures_{path.parent.name}")


def example(slug: str) -> dict:
    """Each spec's worked example as a ``new-battle`` input, pinned dice left out."""
    if slug == "synapse":
        setup = json.loads((HERE / "synapse" / "spec_examples.json").read_text())["new-battle"][0]
    elif slug == "seventh_sea":
        setup = json.loads((HERE / "seventh_sea" / "s9_examples.json").read_text())["new-battle"][0]
    elif slug == "jdrwiki":
        setup = _fixtures(HERE / "jdrwiki" / "conftest.py")["NEW_BATTLE"]
    elif slug == "heros":
        setup = _fixtures(HERE / "heros" / "heros_helpers.py")["NEW_BATTLE"]
    else:
        setup = _fixtures(HERE / "dnd5e" / "conftest.py")["FORD_SETUP"]
    setup = copy.deepcopy(setup)
    setup.pop("dice", None)
    return setup


def lopsided(slug: str) -> tuple[dict, str]:
    """The worked example with one side made ten times the other, in the troops it fields: ``(setup, big side)``."""
    setup = example(slug)
    if slug == "synapse":  # the example's sides differ a little in strength: twelve times the headcount is ten
        for unit in setup["armies"]["A"]["units"]:
            unit["headcount"] *= 12
        return setup, "A"
    if slug == "jdrwiki":
        for unit in setup["armies"][0]["units"]:
            unit["count"] *= 10
        return setup, "a"
    if slug == "seventh_sea":
        setup["sides"]["a"]["troops"] *= 10
        return setup, "a"
    if slug == "heros":  # ten blades against one blade (the skirmishers go, and the impetuous warband: see below)
        blade = next(unit for unit in setup["units"] if unit["id"] == "r-bd")
        setup["units"] = [dict(blade, id="b-bd", corps_id="b1", position={"col": 2, "row": 4}, facing=0)]
        setup["units"] += [dict(blade, id=f"r-bd{i}", position={"col": i % 6, "row": i // 6}) for i in range(10)]
        for character in setup["characters"]:
            character["stacked_on"] = "r-bd0" if character["id"] == "aragorn" else "b-bd"
        return setup, "red"
    setup["map"] = {"width": 8, "height": 4, "cells": []}  # dnd5e: ten orcs against one orc
    setup["units"]["u_a"]["stands"] = [{"id": f"sa{i}", "profile": "orc", "position": [i % 4, i // 4]}
                                       for i in range(1, 11)]
    setup["units"]["u_b"]["stands"][0].update(profile="orc", position=[5, 1])
    return setup, "A"


def troops(slug: str, setup: dict) -> dict[str, float]:
    """Each side's troops at the start: its units' figures (``rules.simulate_units``), 7th Sea's troop counts."""
    state = registry.run(slug, "new-battle", copy.deepcopy(setup), seed=1)["state"]
    if slug == "seventh_sea":
        return {letter: side["troops"] for letter, side in state["sides"].items()}
    found: dict[str, float] = {}
    for side, strength, _state in units(slug, state).values():
        if strength is not None:
            found[side] = found.get(side, 0) + strength
    return found
