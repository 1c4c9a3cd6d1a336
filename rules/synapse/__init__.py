"""SYNAPSE "Le combat de masse": the mass-combat engine of the SYNAPSE RPG.

Spec: ``docs/rules/synapse.md``.  The modules imported at the bottom
register the operations of S9 (and the web layer's ``declaration-options``
and ``visible-state``) on :data:`ruleset`.
"""

from rules.registry import Ruleset
from rules.synapse.messages import MESSAGES

ruleset = Ruleset(
    "synapse",
    {"en": "SYNAPSE — mass combat", "fr": "SYNAPSE — Le combat de masse"},
    messages=MESSAGES,
    always_echo_dice=False,  # S9.0: "dice" only in the outputs of operations that roll
)

from rules.synapse import (  # noqa: E402  (the operations register themselves on ruleset)
    aftermath,
    answers,
    army,
    checking,
    combat,
    casualties,
    command,
    experience,
    options,
    participants,
    reading,
    round,
    scale,
    setup,
    siege,
    visibility,
)
