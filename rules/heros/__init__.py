"""HÉROS — fantasy mass battles on hexes (Champs de Bataille / DBM variant).

The engine follows ``docs/rules/heros.md``: every operation of its S9 is
registered here, the S6 tables are data (``tables.yaml``), and every output
carries ``dice`` (S9.0) and a log whose steps name the spec section applied.
"""

from rules.heros.messages import MESSAGES
from rules.registry import Ruleset

ruleset = Ruleset(
    "heros",
    {"en": "HÉROS — fantasy battles (Champs de Bataille)", "fr": "HÉROS — combats fantastiques (Champs de Bataille)"},
    messages=MESSAGES,
    always_echo_dice=True,
)

# Importing the operation modules registers their operations on ``ruleset``.
from rules.heros import (  # noqa: E402,F401
    combat_ops,
    command_ops,
    end_ops,
    options,
    placement,
    room_ops,
    round,
    setup,
    sheet_ops,
    visibility,
)
