"""A tiny ruleset for testing the core without depending on a real engine."""

import pytest

from typing import Annotated, Literal

from pydantic import Field

from rules.dice import D6
from rules.model import ClosedInput, Input
from rules.registry import Context, Ruleset

_toy = Ruleset("toy", {"en": "Toy", "fr": "Jouet"}, messages={"toy.hit": {"en": "{n}", "fr": "{n}"}})


class Unit(Input):
    name: str
    rate: Annotated[int, Field(ge=0, le=10)]
    kind: Literal["foot", "horse"] = "foot"


class Army(Input):
    units: list[Unit]
    by_id: dict[str, Unit] = {}
    bold: bool = False


class Strict(ClosedInput):
    n: int


@_toy.operation("roll", Army, summary="Roll one d6 per unit.", rolls=True)
def roll(data: Army, ctx: Context) -> dict:
    hits = [ctx.dice.roll(f"hit:{unit.name}", D6) for unit in data.units]
    ctx.log.add("T1", "toy.hit", "{n} hits.", n=sum(hits))
    return {"hits": hits}


@_toy.operation("strict", Strict, summary="Refuses unknown fields.")
def strict(data: Strict, ctx: Context) -> dict:
    return {"n": data.n}


@pytest.fixture
def toy() -> Ruleset:
    return _toy
