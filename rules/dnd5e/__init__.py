"""D&D 5e mass combat (Unearthed Arcana "When Armies Clash", French translation).

The contract is ``docs/rules/dnd5e.md``; section ids in log steps refer to it.
Creature statistics of the preset library come from the 5e System Reference
Document 5.1 (CC-BY-4.0).
"""

from rules.dnd5e.messages import MESSAGES
from rules.registry import Ruleset

ruleset = Ruleset(
    "dnd5e",
    {"en": "D&D 5e — Mass combat (Unearthed Arcana)", "fr": "D&D 5e — Combat de masse (Unearthed Arcana)"},
    messages=MESSAGES,
    always_echo_dice=True,
)

from rules.dnd5e import reference, checks_ops, battle_ops, round_ops, web_ops, contract_ops, placement  # noqa: E402,F401,I001  (registration)
