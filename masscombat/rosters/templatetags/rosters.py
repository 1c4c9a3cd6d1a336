"""Template helpers of the rosters: the campaign page's sections, the editor's form, sheet tables, labels."""

from django import template
from django.utils import formats
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe

from masscombat.rosters import labels, pages, widgets

register = template.Library()


@register.inclusion_tag("rosters/_section.html", takes_context=True)
def rosters_section(context, access):
    """The campaign's armies and heroes this member may see (two queries), with the GM's buttons."""
    return pages.section_context(access, context["request"].user)


@register.filter
def unit_count(data) -> int:
    """How many units (or stands, corps entries) an army's data lists: a length, not a rule."""
    units = data.get("units") if isinstance(data, dict) else None
    return len(units) if isinstance(units, list | dict) else 0


@register.simple_tag
def roster_form(field):
    """The fields of a schema-built form (see :mod:`masscombat.rosters.widgets`)."""
    return widgets.render(field)


@register.filter
def change_kind(kind: str) -> str:
    return labels.CHANGE_KINDS.get(kind, kind)


@register.simple_tag
def labelled(label, term: str):
    """A label with the rulebook's French term beside it, unless the label already is that term."""
    if str(label).casefold() == term.casefold():
        return format_html("{}", label)
    return format_html('{} <i lang="fr" class="term">{}</i>', label, term)


@register.filter
def choice_label(value) -> str:
    """An engine enum value (``melee``, ``reserve``...) in the reader's language."""
    return labels.choice("", value)


@register.simple_tag
def sheet_table(table):
    """A derived-values table (a row per unit: often thousands of cells), built without a template loop."""
    def cell(value) -> str:
        return escape(formats.number_format(value, force_grouping=True) if isinstance(value, int | float) else str(value))

    # A column without a name gets no header cell (an empty one says nothing to a screen reader);
    # the wrapper scrolls sideways on a phone, so it takes the focus for keyboards to scroll it.
    head = "".join(f'<th scope="col">{cell(column)}</th>' if str(column) else "<td></td>" for column in table["columns"])
    rows = "".join("<tr>" + "".join(f"<td>{cell(value)}</td>" for value in row) + "</tr>" for row in table["rows"])
    return mark_safe(f'<div class="table-wrap" tabindex="0"><table class="results"><thead><tr>{head}</tr></thead>'
                     f"<tbody>{rows}</tbody></table></div>")
