"""``{% round_clock battle as clock %}``: what the room's deadline part shows, and the GM's forms for it."""

from __future__ import annotations

from datetime import timedelta

from django import template
from django.utils import timezone
from django.utils.timesince import timeuntil
from django.utils.translation import ngettext

from masscombat.battles import deadlines
from masscombat.battles.deadline_views import DeadlineForm

register = template.Library()


def duration(seconds: int) -> str:
    """``2 hours, 5 minutes`` in the reader's language (Django's own words), or seconds in the last minute."""
    if seconds < 60:
        return ngettext("%(n)d second", "%(n)d seconds", seconds) % {"n": seconds}
    now = timezone.now()
    return timeuntil(now + timedelta(seconds=seconds), now)


def _as_amount(minutes: int | None) -> dict:
    """The largest unit that gives a whole number, for the form to show the rule as the GM set it."""
    if not minutes:
        return {}
    unit = next(unit for unit in ("days", "hours", "minutes") if minutes % deadlines.UNITS[unit] == 0)
    return {"amount": minutes // deadlines.UNITS[unit], "unit": unit}


def _room_form(auto_id: str, initial: dict) -> DeadlineForm:
    """The room's compact form: the rule is said beside it, so the setup's help text is left out."""
    form = DeadlineForm(auto_id=auto_id, initial=initial)
    form.fields["amount"].help_text = ""
    return form


@register.simple_tag
def round_clock(battle) -> dict:
    left = deadlines.seconds_left(battle)
    return {
        "at": battle.deadline_at,
        "left": left,
        "left_text": duration(left) if left is not None else "",
        "paused": battle.deadline_at is None and left is not None,
        "rule_text": duration(battle.deadline_minutes * 60) if battle.deadline_minutes else "",
        "set_form": _room_form("deadline-set-%s", _as_amount(battle.deadline_minutes)),
        "extend_form": _room_form("deadline-extend-%s", {"unit": "minutes"}),
    }
