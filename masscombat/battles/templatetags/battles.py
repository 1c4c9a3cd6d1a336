"""Template helpers of battles: the campaign page's section, and names from engine ids."""

from django import template

from masscombat.battles import adapters, forms, pages, selectors

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


@register.simple_tag(takes_context=True)
def side_name(context, battle, side):
    """A side by the engine's name for the page's reader (``viewer`` in the context), else "Side A"."""
    viewer = context.get("viewer")
    if not side:  # a field the engine left empty for this reader (the initiative of a hidden test)
        return ""
    if viewer is not None:
        return pages.side_name(viewer, side)
    return adapters.get(battle.ruleset).side_label(side)


@register.simple_tag
def participant_name(viewer, kind, ref):
    """A hero or other participant by the engine's name for this viewer, else the name it was given."""
    name = selectors.seen_names(viewer).get(ref)
    if name:
        return name
    found = viewer.participant(f"{kind}:{ref}")
    return found.name if found else ref


@register.simple_tag(takes_context=True)
def name_of(context, ident):
    """An engine id by its name for the page's reader (the engine's ``names`` for them), else the id."""
    viewer = context.get("viewer")
    return selectors.seen_names(viewer).get(ident, ident) if viewer is not None else ident


@register.simple_tag(takes_context=True)
def reader_names(context):
    """The engine's ``names`` for the page's reader: what a state panel may name (and list) at all."""
    viewer = context.get("viewer")
    return selectors.seen_names(viewer) if viewer is not None else {}


@register.simple_tag(takes_context=True)
def value_label(context, battle, value, names=None):
    """An engine value (status, engagement, id...) in the reader's language; ids are named from ``names``
    (a round report's), else from the engine's ``names`` for the page's reader."""
    if names is None and context.get("viewer") is not None:
        names = selectors.seen_names(context["viewer"])
    return adapters.get(battle.ruleset).value_label(value, names)


@register.simple_tag
def ruleset_template(battle, part):
    """The ruleset's own template of a part (state, report, aftermath), else the generic one."""
    return [f"battles/{part}/{battle.ruleset}.html", f"battles/{part}/_generic.html"]


@register.filter
def get_item(mapping, key):
    """``mapping[key]`` in a template (engine states are keyed by id)."""
    return mapping.get(key, {}) if isinstance(mapping, dict) else {}


@register.filter
def choice_inputs(field):
    """A radio or checkbox field's labelled inputs (see ``forms.choice_inputs``)."""
    return forms.choice_inputs(field)
