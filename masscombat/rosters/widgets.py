"""The HTML of a schema-built form (:mod:`masscombat.rosters.schema_forms`).

Written in Python rather than as a recursive template: an army of 200 units
is some 1,500 fields, and a template include per field made the editor take
over a second to render.  Every value is escaped (:func:`_e`); the few words
every unit repeats are translated once per form.
"""

from __future__ import annotations

import json

from django.utils import formats
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from masscombat.rosters.schema_forms import KEY, PRESENT, VARIANT, Field

_SELECTED = " selected"
_CHECKED = " checked"


def render(field: Field) -> SafeString:
    """The whole form tree; the root group renders its children without a fieldset."""
    return mark_safe(_Renderer().render(field))


def _e(value) -> str:
    """Escaped text of any value (labels may be lazy translations)."""
    return escape(str(value))


class _Renderer:
    """Builds plain strings (each value escaped by :func:`_e`); marked safe once, at the end."""

    def __init__(self):
        self.words = {key: _e(text) for key, text in {
            "present": _("Filled in"), "id": _("Id"), "category": _("Category"), "remove": _("Remove"),
            "add": _("Add"), "default": _("— default —")}.items()}

    def render(self, field: Field) -> str:
        if field.kind == "group" and field.index is None and not field.name:
            return "".join(self.render(child) for child in field.children)
        method = {"group": self.group, "list": self.list, "multi": self.multi, "checkbox": self.checkbox}
        return method.get(field.kind, self.input)(field)

    @staticmethod
    def label(field: Field) -> str:
        if field.term:
            return f'{_e(field.label)} <i lang="fr" class="term">{_e(field.term)}</i>'
        return _e(field.label)

    @staticmethod
    def error(field: Field) -> str:
        return f'<p class="errorlist">{_e(field.error)}</p>' if field.error else ""

    def options(self, choices, current) -> str:
        return "".join(f'<option value="{_e(value)}"{_SELECTED if value == current else ""}>{_e(text)}</option>'
                       for value, text in choices)

    def group(self, field: Field) -> str:
        name = _e(field.name)
        classes = "group" + (" has-error" if field.error else "") + (" item" if field.index is not None else "")
        if field.index is not None:
            legend = f'<span class="item-number">#{field.index + 1}</span>'
            legend += f" {_e(field.caption)}" if field.caption else ""
        else:
            legend = self.label(field)
        if field.index is not None:
            # A list item folds: its summary is its number and name; its fields post either way.
            parts = [f'<details class="{classes}"{" open" if field.open else ""}><summary>{legend}</summary>']
        else:
            parts = [f'<fieldset class="{classes}"><legend>{legend}</legend>']
        if field.nullable:
            parts.append(f'<label class="check"><input type="checkbox" name="{name}.{PRESENT}"'
                         f'{_CHECKED if field.present else ""}> {self.words["present"]}</label>')
        if field.key is not None:
            parts.append(f'<div class="field"><label for="f-{name}.{KEY}">{self.words["id"]}</label>'
                         f'<input type="text" id="f-{name}.{KEY}" name="{name}.{KEY}" value="{_e(field.key)}"></div>')
        if field.variants:
            parts.append(
                f'<div class="field"><label for="f-{name}.{VARIANT}">{self.words["category"]}</label>'
                f'<select id="f-{name}.{VARIANT}" name="{name}.{VARIANT}" hx-post="" hx-trigger="change consume"'
                f' hx-include="#roster-form" hx-target="#roster-editor" hx-swap="outerHTML"'
                f""" hx-vals='{{"_refresh": "1"}}'>{self.options(field.variants, field.variant)}</select></div>""")
        parts.append(self.error(field))
        parts.append(f'<div class="fields">{"".join(self.render(child) for child in field.children)}</div>')
        if field.index is not None:
            parts.append(f'<button type="submit" name="_remove" value="{name}" class="button small danger remove"'
                         f' formnovalidate>{self.words["remove"]}</button>')
        parts.append("</details>" if field.index is not None else "</fieldset>")
        return "".join(parts)

    def list(self, field: Field) -> str:
        items = "".join(self.render(child) for child in field.children)
        return (f'<fieldset class="group list{" has-error" if field.error else ""}"><legend>{self.label(field)}'
                f' <span class="count">{len(field.children)}</span></legend>{self.error(field)}{items}'
                f'<button type="submit" name="_add" value="{_e(field.name)}" class="button small add" formnovalidate>'
                f'+ {self.words["add"]}</button></fieldset>')

    def multi(self, field: Field) -> str:
        chosen, name = field.value or [], _e(field.name)
        boxes = "".join(f'<label class="check"><input type="checkbox" name="{name}" value="{_e(value)}"'
                        f'{_CHECKED if value in chosen else ""}> {_e(text)}</label>' for value, text in field.choices)
        return (f'<fieldset class="group multi{" has-error" if field.error else ""}"><legend>{self.label(field)}'
                f'</legend><div class="checks">{boxes}</div>{self.error(field)}</fieldset>')

    def checkbox(self, field: Field) -> str:
        name = _e(field.name)
        return (f'<div class="field check{" has-error" if field.error else ""}"><label><input type="checkbox"'
                f' name="{name}" id="f-{name}"{_CHECKED if field.value else ""}> {self.label(field)}</label>'
                f"{self.error(field)}</div>")

    def input(self, field: Field) -> str:
        name, label = _e(field.name), self.label(field)
        if field.minimum is not None or field.maximum is not None:
            low, high = ("…" if bound is None else _e(formats.localize(bound)) for bound in (field.minimum, field.maximum))
            label += f' <small class="range">{low}–{high}</small>'
        if field.kind == "select":
            empty = ""
            if field.nullable or not field.required:
                empty = f'<option value=""{_SELECTED if field.value == "" else ""}>{self.words["default"]}</option>'
            control = f'<select name="{name}" id="f-{name}">{empty}{self.options(field.choices, field.value)}</select>'
        elif field.kind in ("integer", "number"):
            limits = "".join(f' {attribute}="{_e(bound)}"' for attribute, bound in
                             (("min", field.minimum), ("max", field.maximum)) if bound is not None)
            # The raw number: an input must not get a thousands separator, whatever the language.
            value = "" if field.value is None else _e(field.value)
            mode = "numeric" if field.kind == "integer" else "decimal"
            control = (f'<input type="number" name="{name}" id="f-{name}" value="{value}" step="{field.step}"'
                       f' inputmode="{mode}"{limits}>')
        elif field.kind == "json":
            text = "" if field.value is None else _e(json.dumps(field.value, ensure_ascii=False))
            control = f'<textarea name="{name}" id="f-{name}" rows="3" class="mono">{text}</textarea>'
        else:
            value = "" if field.value is None else _e(field.value)
            control = f'<input type="text" name="{name}" id="f-{name}" value="{value}">'
        return (f'<div class="field{" has-error" if field.error else ""}"><label for="f-{name}">{label}</label>'
                f"{control}{self.error(field)}</div>")
