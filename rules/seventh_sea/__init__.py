"""7th Sea (1st edition) mass combat: the rules engine of ``docs/rules/seventh_sea.md``.

The battle is one opposed roll-and-keep roll per round between the generals,
then one personal roll per hero on the six-column table, with heroic
opportunities feeding back into the generals' rolls.  Modules by concern:
``tables`` (S6 data), ``entities`` (S3 models), ``sheets`` (S9.1–S9.2),
``preparation`` (S9.3), ``general`` (S9.4), ``personal`` (S9.5), ``damage``
(S9.6), ``volley`` (S9.7), ``opportunities`` (S9.8–S9.9), ``battle``
(S9.10, S9.12), ``round`` (S9.11), and for the battle room (``docs/rules/seventh_sea.md``)
``participants`` (``round-participants``), ``options`` (``declaration-options``),
``answers`` (``merge-declarations``), ``checks`` (``check-declaration``),
``visibility`` (``visible-state``, ``visible-round``) and ``standing``
(``outcome`` and ``strength``).
"""

from rules.registry import Ruleset
from rules.seventh_sea.messages import MESSAGES

ruleset = Ruleset(
    "seventh_sea",
    {"en": "7th Sea — Mass combat (1st ed.)", "fr": "7th Sea — Combat de masse (1re éd.)"},
    messages=MESSAGES,
    always_echo_dice=True,
)

from rules.seventh_sea import (  # noqa: E402  (modules register their operations on ``ruleset``)
    answers,
    battle,
    checks,
    damage,
    general,
    opportunities,
    options,
    participants,
    personal,
    preparation,
    round,
    sheets,
    visibility,
    volley,
)

__all__ = ["ruleset", "answers", "battle", "checks", "damage", "general", "opportunities", "options", "participants",
           "personal", "preparation", "round", "sheets", "visibility", "volley"]
