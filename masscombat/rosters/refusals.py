"""Why the rules refuse a roster value, in the reader's language.

An engine refuses a field with an English sentence.  Two kinds reach the
roster editor: the rules' own reasons ("only artillery has pieces"), which
each engine words as a message key (``rules/<slug>/messages.py``, the
``sheet.refused.*`` keys) whose English template the sentence fills, so it is
read back into that key and its parameters and said from the catalogue in
the reader's language; and the shared validator's words about a value's
shape ("must be an integer"), the same for every ruleset, translated here.  A reason neither knows is never
shown in English on a page in another language: :func:`reason` says so with
None, and the editor falls back on the field's range or a plain "refused".
"""

from __future__ import annotations

import re
import string
from functools import cache

from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from masscombat.core import engine_catalogue, explain

READ_BACK_LIMIT = 600  # characters: an engine's reason is a short sentence, a longer text is never matched

# The shared validator's sentences (``rules.validate``): what is wrong with a value's type or presence.
SHAPES = {
    "this field is required": _("must be filled in"),
    "must be an integer": _("must be a whole number"),
    "must be true or false": _("must be yes or no"),
    "must be a number": _("must be a number"),
    "must be a finite number": _("must be a number"),
    "must be a string": _("must be a text"),
    "must be a list": _("must be a list"),
    "must be an object": _("must be a group of values"),
    "unknown field": _("is not a field of this form"),
}
# Pydantic's words for a bound; the editor says a field's range instead where it knows it.
BOUND = re.compile(r"^(?:input should be (?P<way>greater|less) than(?P<equal> or equal to)? (?P<number>-?[\d.]+)"
                   r"|(?P<what>list|string) should have at (?P<side>least|most) (?P<count>\d+))")


def reason(slug: str, message: str) -> str | None:
    """The rules' reason ``message`` in the reader's language; None when it can be told only in English."""
    bound = BOUND.match(message)
    if bound:
        return _bound(bound)
    if message in SHAPES:
        return str(SHAPES[message])
    found = _read_back(slug, message)
    if found is not None:
        return explain.sentence(slug, found[0], found[1], message)
    return message if (get_language() or "en")[:2] == "en" else None


def _bound(match: re.Match) -> str:
    if match["number"] is not None:
        words = {("greater", True): _("must be at least %(n)s"), ("greater", False): _("must be more than %(n)s"),
                 ("less", True): _("must be at most %(n)s"), ("less", False): _("must be less than %(n)s")}
        return str(words[match["way"], bool(match["equal"])]) % {"n": match["number"]}
    if match["what"] == "list":
        words = {"least": _("needs at least %(n)s entries"), "most": _("takes at most %(n)s entries")}
    else:
        words = {"least": _("needs at least %(n)s characters"), "most": _("takes at most %(n)s characters")}
    return str(words[match["side"]]) % {"n": match["count"]}


def said(slug: str, message: str) -> str:
    """The reason as a page shows it: in words, else the rules' plain refusal in the reader's language."""
    return reason(slug, message) or gettext("value refused by the rules")


def _read_back(slug: str, text: str) -> tuple[str, dict] | None:
    """The message key whose English template ``text`` fills, with the parameters it was filled with (whole
    numbers read back as numbers); the template with the most fixed words wins."""
    if len(text) > READ_BACK_LIMIT:
        return None
    for key, pattern in _patterns(slug):
        match = pattern.fullmatch(text)
        if match:
            return key, {name: int(value) if re.fullmatch(r"[+-]?\d+", value) else value
                         for name, value in match.groupdict().items()}
    return None


@cache
def _patterns(slug: str) -> list[tuple[str, re.Pattern]]:
    """A pattern per English template with at least three fixed letters, most fixed text first."""
    found = []
    for key, (_context, english) in engine_catalogue.MESSAGES.get(slug, {}).items():
        parts, seen, fixed = [], set(), 0
        try:
            parsed = list(string.Formatter().parse(english))
        except ValueError:
            continue
        for literal, name, _spec, _conversion in parsed:
            parts.append(re.escape(literal))
            fixed += sum(ch.isalpha() for ch in literal)
            if name is None:
                continue
            if not name.isidentifier():
                break
            parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
            seen.add(name)
        else:
            if fixed >= 3:
                found.append((fixed, key, re.compile("".join(parts), re.DOTALL)))
    return [(key, pattern) for _fixed, key, pattern in sorted(found, key=lambda item: -item[0])]
