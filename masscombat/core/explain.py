"""Engine logs in the reader's language.

Every engine step carries a message ``key`` and its ``params``; the engine's
``ruleset.messages`` holds a template per language for each key.  This is the
one place the web layer turns a step into a sentence, so rosters, battles and
any later page explain numbers the same way.
"""

from django.utils.translation import get_language

from rules import registry


def render_step(messages: dict, step: dict, language: str) -> str:
    """One log step in ``language``, from the engine's templates (its English text as fallback)."""
    templates = messages.get(step.get("key"), {})
    template = templates.get(language) or templates.get("en")
    if template:
        try:
            return template.format(**step.get("params", {}))
        except (KeyError, IndexError, ValueError):
            pass
    return step.get("text", "")


def rendered_log(slug: str, steps: list, quiet: frozenset[str] = frozenset()) -> list[dict]:
    """The steps of a log as ``{"rule", "text"}`` in the active language, leaving out ``quiet`` keys."""
    language = (get_language() or "en")[:2]
    messages = registry.get(slug).messages
    return [
        {"rule": step.get("rule", ""), "text": render_step(messages, step, language)}
        for step in steps
        if isinstance(step, dict) and step.get("key") not in quiet
    ]
