"""Template helpers of battles: the campaign page's section, and names from engine ids."""

from django import template

from masscombat.battles import adapters, forms, selectors

register = template.Library()


@register.inclusion_tag("battles/_section.html")
def battles_section(access):
    """The campaign page's list of battles (one query), with the GM's "new battle" button."""
    campaign = access.campaign
    return {
        "battles": list(selectors.battles_of(campaign.pk)),
        "campaign": campaign,
        "is_gm": access.is_gm,
        "playable": adapters.playable(campaign.ruleset),
    }


@register.simple_tag
def side_name(battle, side):
    return adapters.get(battle.ruleset).side_label(side, battle.state)


@register.simple_tag
def participant_name(viewer, kind, ref):
    found = viewer.participant(f"{kind}:{ref}")
    return found.name if found else ref


@register.simple_tag
def value_label(battle, value, state=None):
    """An engine value (status, engagement...) in the reader's language; ``state`` is the one the reader
    may see (``pages.label_state``), from which a ruleset names units and characters instead of ids."""
    return adapters.get(battle.ruleset).value_label(value, state)


@register.simple_tag
def ruleset_template(battle, part):
    """The ruleset's own template of a part (state, report, aftermath), else the generic one."""
    return [f"battles/{part}/{battle.ruleset}.html", f"battles/{part}/_generic.html"]


@register.filter
def get_item(mapping, key):
    """``mapping[key]`` in a template (engine states are keyed by id)."""
    return mapping.get(key, {}) if isinstance(mapping, dict) else {}


@register.simple_tag
def event_line(battle, event, state=None):
    """An engine event in a line: its type in the reader's language, then its simple fields (ids named
    from ``state``, the one the reader may see, so a hidden enemy keeps its id)."""
    adapter = adapters.get(battle.ruleset)
    details = [f"{key} {adapter.value_label(value, state)}" for key, value in event.items()
               if key not in ("type", "visible_to", "seq") and isinstance(value, (str, int, float)) and not isinstance(value, bool)]
    return " · ".join([adapter.value_label(event.get("type", "")), *details])


@register.filter
def choice_inputs(field):
    """A radio or checkbox field's labelled inputs (see ``forms.choice_inputs``)."""
    return forms.choice_inputs(field)
