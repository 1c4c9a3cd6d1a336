"""The HTML of a schema-built form (:mod:`masscombat.rosters.schema_forms`).

Written in Python rather than as a recursive template: an army of 200 units
is some 1,500 fields, and a template include per field made the editor take
over a second to render.  Every value is escaped (:func:`_e`); the few words
every unit repeats are translated once per form.
"""

from __future__ import annotations

import html
import json

from django.utils import formats
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from masscombat.rosters.schema_forms import KEY, PRESENT, TALLY, VARIANT, Field

_SELECTED = " selected"
_CHECKED = " checked"


def render(field: Field) -> SafeString:
    """The whole form tree; the root group renders its children without a fieldset."""
    return mark_safe(_Renderer().render(field))


def _e(value) -> str:
    """Escaped text of any value (labels may be lazy translations).

    The standard library's escape gives the very entities Django's does (``&#x27;`` included) without
    its lazy-string wrapper, which cost more than the rest of a 6,000-field form.
    """
    return html.escape(str(value))


class _Renderer:
    """Builds plain strings (each value escaped by :func:`_e`); marked safe once, at the end."""

    def __init__(self):
        self._helps: dict = {}
        self._labels: dict = {}
        self._options: dict = {}
        self.words = {key: _e(text) for key, text in {
            "present": _("Filled in"), "category": _("Category"), "remove": _("Remove"),
            "add": _("Add"), "default": _("— default —"), "more": _("More fields"), "help": _("Help"),
            "range": pgettext("bounds of a value", "Range"), "rule": _("Rule"), "duplicate": _("Duplicate"),
            "up": _("Move up"),
            "down": _("Move down"), "how_many": _("How many"), "from": _("From"), "blank": _("a blank one"),
            "copy": _("copies of the last one")}.items()}

    def render(self, field: Field) -> str:
        if field.kind == "group" and field.index is None and not field.name:
            return self.children(field.children)
        method = {"group": self.group, "list": self.list, "multi": self.multi, "checkbox": self.checkbox,
                  "hidden": self.hidden, "tally": self.tally, "section": self.section}
        return method.get(field.kind, self.input)(field)

    def children(self, children: list[Field]) -> str:
        """A group's fields: the common ones, then the rarely used ones folded under "more"."""
        shown = "".join(self.render(child) for child in children if not child.more)
        folded = [child for child in children if child.more]
        if not folded:
            return shown
        return (f'{shown}<details class="more"><summary>{self.words["more"]} <span class="count">{len(folded)}'
                f'</span></summary><div class="fields">{"".join(self.render(c) for c in folded)}</div></details>')

    def section(self, field: Field) -> str:
        """A part of an item, as the spec groups its fields (identity, weapons...); its rarely used fields fold."""
        return (f'<fieldset class="section"><legend>{_e(field.label)}</legend>'
                f'<div class="fields">{self.children(field.children)}</div></fieldset>')

    @staticmethod
    def hidden(field: Field) -> str:
        value = "" if field.value is None else _e(field.value)
        return f'<input type="hidden" name="{_e(field.name)}" value="{value}">'

    def help(self, field: Field) -> str:
        """One tap away: a folded explanation under the field, which its control names for screen readers.

        Every unit repeats the same texts: each is escaped once per form (a 200-unit army has 6,000 fields).
        """
        if not field.help:
            return ""
        key = (field.help, field.rule, field.minimum, field.maximum, str(field.label))
        if key not in self._helps:
            facts = []
            if field.minimum is not None or field.maximum is not None:
                low, high = ("…" if bound is None else _e(formats.number_format(bound, force_grouping=True))
                             for bound in (field.minimum, field.maximum))
                facts.append(f'{self.words["range"]} {low}–{high}')
            if field.rule:
                facts.append(f'{self.words["rule"]} {_e(field.rule)}')
            extra = f' <span class="help-facts">{" · ".join(facts)}</span>' if facts else ""
            self._helps[key] = (f'<details class="help"><summary aria-label="{self.words["help"]}: {_e(field.label)}">'
                                f'?</summary><p id="h-', f'">{_e(field.help)}{extra}</p></details>')
        before, after = self._helps[key]
        return f"{before}{_e(field.name)}{after}"

    @staticmethod
    def described(field: Field) -> str:
        ids = ([f"h-{_e(field.name)}"] if field.help else []) + ([f"e-{_e(field.name)}"] if field.error else [])
        return f' aria-describedby="{" ".join(ids)}"' if ids else ""

    def label(self, field: Field) -> str:
        key = (str(field.label), field.term)
        if key not in self._labels:
            term = f' <i lang="fr" class="term">{_e(field.term)}</i>' if field.term else ""
            self._labels[key] = f"{_e(field.label)}{term}"
        return self._labels[key]

    @staticmethod
    def error(field: Field) -> str:
        return f'<p class="errorlist" id="e-{_e(field.name)}">{_e(field.error)}</p>' if field.error else ""

    def options(self, choices, current) -> str:
        key = (tuple(choices), current)
        if key not in self._options:
            self._options[key] = "".join(
                f'<option value="{_e(value)}"{_SELECTED if value == current else ""}>{_e(text)}</option>'
                for value, text in choices)
        return self._options[key]

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
            parts = [(f'<details class="{classes}" id="f-{name}"{" open" if field.open else ""}>'
                      f'<summary{self.described(field)}>{legend}</summary>')]
        else:
            parts = [f'<fieldset class="{classes}" id="f-{name}"{self.described(field)}><legend>{legend}</legend>']
        if field.nullable:
            parts.append(f'<label class="check"><input type="checkbox" name="{name}.{PRESENT}"'
                         f'{_CHECKED if field.present else ""}> {self.words["present"]}</label>')
        if field.key is not None:
            parts.append(f'<input type="hidden" name="{name}.{KEY}" value="{_e(field.key)}">')
        if field.variants:
            tag = field.variant_help or Field(kind="select", name=f"{field.name}.{VARIANT}")
            parts.append(
                f'<div class="field"><label for="f-{name}.{VARIANT}">{self.words["category"]}</label>'
                f'<select id="f-{name}.{VARIANT}" name="{name}.{VARIANT}" hx-post="" hx-trigger="change consume"'
                f' hx-include="#roster-form" hx-target="#roster-editor" hx-swap="outerHTML"{self.described(tag)}'
                f""" hx-vals='{{"_refresh": "1"}}'>{self.options(field.variants, field.variant)}</select>"""
                f"{self.help(tag)}</div>")
        parts.append(self.error(field))
        if field.index is None and field.help:
            parts.append(self.help(field))
        parts.append(f'<div class="fields">{self.children(field.children)}</div>')
        if field.index is not None:
            parts.append(self.item_tools(name))
        parts.append("</details>" if field.index is not None else "</fieldset>")
        return "".join(parts)

    def item_tools(self, name: str) -> str:
        """An item's own buttons: move it, duplicate it, remove it (each re-renders the form, nothing saved)."""
        def button(action: str, value: str, word: str, text: str, extra: str = "") -> str:
            return (f'<button type="submit" name="{action}" value="{value}" class="button small{extra}"'
                    f' formnovalidate aria-label="{self.words[word]}">{text}</button>')

        return ('<div class="item-tools">'
                + button("_move", f"{name}:up", "up", "↑") + button("_move", f"{name}:down", "down", "↓")
                + button("_duplicate", name, "duplicate", self.words["duplicate"])
                + button("_remove", name, "remove", self.words["remove"], " danger") + "</div>")

    def list(self, field: Field) -> str:
        items = "".join(self.render(child) for child in field.children)
        name = _e(field.name)
        source = ""
        if field.troops:
            options = self.options([("", self.words["copy"] if field.children else self.words["blank"])]
                                   + field.troops, "")
            source = (f'<label class="add-from"><span>{self.words["from"]}</span>'
                      f'<select name="_template:{name}" aria-label="{self.words["from"]}">{options}</select></label>')
        described = self.described(field)
        adder = (f'<div class="adder">{source}<label class="add-count"><span>{self.words["how_many"]}</span>'
                 f'<input type="number" name="_count:{name}" value="1" min="1" max="50" inputmode="numeric"'
                 f' aria-label="{self.words["how_many"]}"></label>'
                 f'<button type="submit" name="_add" value="{name}" class="button small add" formnovalidate'
                 f'{described}>+ {self.words["add"]}</button></div>')
        return (f'<fieldset class="group list{" has-error" if field.error else ""}" id="f-{name}"{described}>'
                f'<legend>{self.label(field)} <span class="count">{len(field.children)}</span></legend>'
                f'{self.help(field)}{self.error(field)}{items}{adder}</fieldset>')

    def multi(self, field: Field) -> str:
        """A group of checkboxes: each box, and the group, is described by the group's help and error."""
        chosen, name, described = field.value or [], _e(field.name), self.described(field)
        boxes = "".join(f'<label class="check"><input type="checkbox" name="{name}" value="{_e(value)}"'
                        f'{_CHECKED if value in chosen else ""}{described}> {_e(text)}</label>'
                        for value, text in field.choices)
        return (f'<fieldset class="group multi{" has-error" if field.error else ""}" id="f-{name}"{described}>'
                f'<legend>{self.label(field)}</legend>{self.help(field)}<div class="checks">{boxes}</div>'
                f'{self.error(field)}</fieldset>')

    def tally(self, field: Field) -> str:
        """A count per name (D&D 5e Multiattack: greataxe 2), each count described by the group's help and error."""
        name, described = _e(field.name), self.described(field)
        counts = "".join(
            f'<div class="field"><label for="f-{name}.{TALLY}.{_e(value)}">{_e(text)}</label>'
            f'<input type="number" id="f-{name}.{TALLY}.{_e(value)}" name="{name}.{TALLY}.{_e(value)}"'
            f' value="{field.value.get(value, 0)}" min="0" max="10" step="1" inputmode="numeric"{described}></div>'
            for value, text in field.choices)
        return (f'<fieldset class="group tally{" has-error" if field.error else ""}" id="f-{name}"{described}>'
                f'<legend>{self.label(field)}</legend>{self.help(field)}<div class="fields">{counts}</div>'
                f'{self.error(field)}</fieldset>')

    def checkbox(self, field: Field) -> str:
        name = _e(field.name)
        return (f'<div class="field check{" has-error" if field.error else ""}"><label><input type="checkbox"'
                f' name="{name}" id="f-{name}"{_CHECKED if field.value else ""}{self.described(field)}>'
                f' {self.label(field)}</label>{self.help(field)}{self.error(field)}</div>')

    def input(self, field: Field) -> str:
        name, label, described = _e(field.name), self.label(field), self.described(field)
        if field.minimum is not None or field.maximum is not None:
            low, high = ("…" if bound is None else _e(formats.number_format(bound, force_grouping=True)) for bound in (field.minimum, field.maximum))
            label += f' <small class="range">{low}–{high}</small>'
        if field.kind == "select":
            empty = ""
            if field.nullable or not field.required:
                empty = f'<option value=""{_SELECTED if field.value == "" else ""}>{self.words["default"]}</option>'
            control = f'<select name="{name}" id="f-{name}"{described}>{empty}{self.options(field.choices, field.value)}</select>'
        elif field.kind in ("integer", "number"):
            limits = "".join(f' {attribute}="{_e(bound)}"' for attribute, bound in
                             (("min", field.minimum), ("max", field.maximum)) if bound is not None)
            # The raw number: an input must not get a thousands separator, whatever the language.
            value = "" if field.value is None else _e(field.value)
            mode = "numeric" if field.kind == "integer" else "decimal"
            control = (f'<input type="number" name="{name}" id="f-{name}" value="{value}" step="{field.step}"'
                       f' inputmode="{mode}"{limits}{described}>')
        elif field.kind == "json":
            text = "" if field.value is None else _e(json.dumps(field.value, ensure_ascii=False))
            control = f'<textarea name="{name}" id="f-{name}" rows="3" class="mono"{described}>{text}</textarea>'
        else:
            value = "" if field.value is None else _e(field.value)
            control = f'<input type="text" name="{name}" id="f-{name}" value="{value}"{described}>'
        return (f'<div class="field{" has-error" if field.error else ""}"><label for="f-{name}">{label}</label>'
                f"{control}{self.help(field)}{self.error(field)}</div>")
