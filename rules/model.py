"""Typed input definitions: one source for validation, the CLI's ``ops`` and the API schema.

Each operation declares its input as a pydantic model built on :class:`Input`.
Its JSON Schema (``Input.model_json_schema()``) is what ``python -m rules <slug>
ops`` prints and what the web API publishes; validating a payload against the
same model gives the error paths of the contract (see :mod:`rules.validate`).

The base is strict: JSON integers only (``4``, not ``4.0`` or ``"4"``), real
booleans, finite numbers.  Unknown fields are ignored, as most specs say;
a ruleset whose spec refuses them (HÉROS) builds on :class:`ClosedInput`.
"""

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

_COMMON = dict(strict=True, allow_inf_nan=False, populate_by_name=True, frozen=False)


class Input(BaseModel):
    """Base of every input object: strict types, unknown fields ignored."""

    model_config = ConfigDict(extra="ignore", **_COMMON)


class ClosedInput(BaseModel):
    """Base for specs where an unknown field is invalid input."""

    model_config = ConfigDict(extra="forbid", **_COMMON)


# Bounded scalars: no rule needs more, and bounds keep arithmetic and loops sane
# whatever a client sends.
Count = Annotated[int, Field(ge=0, le=10_000_000)]
Seed = Annotated[int, Field(ge=0, le=2**63 - 1)]
