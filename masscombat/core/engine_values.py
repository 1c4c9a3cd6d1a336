"""Engine values as people read them: the engine's ``value.<word>`` message, in the reader's language.

The engines answer with words of their own (strategies, statuses, terrains,
event kinds, directions).  Each engine names them as it names everything it
says to people: a message key ``value.<word>`` in ``rules/<slug>/messages.py``,
English and French, which ``manage.py engine_messages`` brings into the
gettext catalogue with the context ``<slug>:value.<word>``
(:mod:`masscombat.core.engine_catalogue`).  One word means different things in
two games ("attack" is an action in D&D 5e, a spell's effect in HÉROS), hence
a context per ruleset.  :func:`label` gives the reader's word for one value,
whatever part of a page shows it (an option list, a parameter of a logged
sentence, a report).
"""

from __future__ import annotations

from functools import cache

from django.utils.translation import pgettext, pgettext_lazy

from masscombat.core import engine_catalogue

PREFIX = "value."


@cache
def labels(slug: str) -> dict[str, object]:
    """Every value ruleset ``slug`` names, with its label rendered when it is read (lazily, in the
    language active then)."""
    return {key[len(PREFIX):]: pgettext_lazy(*entry)
            for key, entry in engine_catalogue.MESSAGES.get(slug, {}).items() if key.startswith(PREFIX)}


def label(slug: str, value: str) -> str | None:
    """The reader's word for ``value`` of ruleset ``slug``, or None when the engine names no such value."""
    entry = engine_catalogue.MESSAGES.get(slug, {}).get(PREFIX + value)
    return None if entry is None else pgettext(*entry)
