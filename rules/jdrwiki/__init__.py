"""JdRWiki "Combat de masse": the army as a meta-character (spec ``docs/rules/jdrwiki.md``).

An army is built like a d20 character from its commander and 15 evaluation
criteria; corps fight with initiative points, opposed d20 rolls, advantage
points, heroes and a zone map.  The operations of the spec's S9 are in
:mod:`rules.jdrwiki.operations`; the web-layer helpers in
:mod:`rules.jdrwiki.options` and :mod:`rules.jdrwiki.visibility`.
"""

from rules.jdrwiki.messages import MESSAGES
from rules.registry import Ruleset

ruleset = Ruleset(
    "jdrwiki",
    {"en": "JdRWiki — mass combat (the army as a meta-character)",
     "fr": "JdRWiki — Combat de masse (l'armée méta-personnage)"},
    messages=MESSAGES,
)

from rules.jdrwiki import operations  # noqa: E402,F401  (registers the operations)
