"""Template helpers of the rosters: the campaign page's sections."""

import json

from django import template

from masscombat.rosters import selectors

register = template.Library()


@register.inclusion_tag("rosters/_section.html", takes_context=True)
def rosters_section(context, access):
    """The campaign's armies and heroes this member may see (two queries), with the GM's buttons."""
    user = context["request"].user
    return {
        "campaign": access.campaign,
        "access": access,
        "armies": list(selectors.armies_for(access, user)),
        "heroes": list(selectors.heroes_for(access, user)),
        "user": user,
    }


@register.filter
def unit_count(data) -> int:
    """How many units (or stands, corps entries) an army's data lists: a length, not a rule."""
    units = data.get("units") if isinstance(data, dict) else None
    return len(units) if isinstance(units, list | dict) else 0


@register.filter
def as_json(value) -> str:
    """A value the form cannot break into fields, as JSON text to edit (empty when absent)."""
    return "" if value is None else json.dumps(value, ensure_ascii=False)
