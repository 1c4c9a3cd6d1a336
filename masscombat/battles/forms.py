"""Forms of battles: setting one up, and declaring from the engine's options.

A declaration form is generated from ``declaration-options``: one field per
option, offering only the allowed values (each forbidden one is listed with
the engine's reason).  What the values allow together is the engine's to
judge: ``check-declaration``'s refusals go back on the fields they concern
(:meth:`DeclarationForm.refuse`).  Nothing about the rules is decided here.

Options whose values are map paths or map cells become one ``<select>`` each
(a native picker copes with hundreds of paths on a phone) that
``static/js/battle-map.js`` also drives from taps on the map: the select says
``data-map-pick`` and, when the adapter knows it, the ``data-piece`` it moves;
each option says the cells it goes through (``data-cells``, in the map's
``data-c`` format).
"""

from __future__ import annotations

import json
from html import escape

from django import forms
from django.forms.utils import flatatt
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from masscombat.core import engines, explain, jsonsafe
from masscombat.maps.render import cell_key
from masscombat.rosters.models import Army, Hero


class BattleForm(forms.Form):
    name = forms.CharField(label=_("Name of the battle"), max_length=100)
    army_a = forms.ModelChoiceField(label=_("Side A army"), queryset=Army.objects.none())
    army_b = forms.ModelChoiceField(label=_("Side B army"), queryset=Army.objects.none())
    heroes_a = forms.ModelMultipleChoiceField(
        label=_("Side A heroes"), queryset=Hero.objects.none(), required=False, widget=forms.CheckboxSelectMultiple
    )
    heroes_b = forms.ModelMultipleChoiceField(
        label=_("Side B heroes"), queryset=Hero.objects.none(), required=False, widget=forms.CheckboxSelectMultiple
    )
    auto_resolve = forms.BooleanField(
        label=_("Resolve automatically"), required=False,
        help_text=_("Resolve each round as soon as every required declaration is in."),
    )

    def __init__(self, *args, campaign, adapter, **kwargs):
        super().__init__(*args, **kwargs)
        self.sides = adapter.sides
        armies = Army.objects.filter(campaign=campaign).select_related("commander")
        heroes = Hero.objects.filter(campaign=campaign).exclude(status=Hero.Status.DEAD).select_related("owner")
        for side in ("a", "b"):
            self.fields[f"army_{side}"].queryset = armies
            self.fields[f"heroes_{side}"].queryset = heroes
            self.fields[f"army_{side}"].label_from_instance = _army_label
            self.fields[f"heroes_{side}"].label_from_instance = _hero_label
        self.adapter = adapter
        extra = adapter.setup_fields(campaign)
        self.option_names = list(extra)
        self.fields.update(extra)

    def clean(self):
        data = super().clean()
        if data.get("army_a") and data.get("army_a") == data.get("army_b"):
            self.add_error("army_b", _("Each side needs its own army."))
        options = {name: data[name] for name in self.option_names if name in data}
        for name, message in self.adapter.clean_setup(options).items():
            self.add_error(name, message)
        both = set(data.get("heroes_a") or []) & set(data.get("heroes_b") or [])
        if both:
            self.add_error("heroes_b", _("A hero fights on one side only: %(names)s.")
                           % {"names": ", ".join(sorted(h.name for h in both))})
        return data

    def battle_arguments(self) -> dict:
        data = self.cleaned_data
        return {
            "name": data["name"],
            "armies": {self.sides[0]: data["army_a"], self.sides[1]: data["army_b"]},
            "heroes": [(hero, self.sides[0]) for hero in data["heroes_a"]]
            + [(hero, self.sides[1]) for hero in data["heroes_b"]],
            "options": {name: data[name] for name in self.option_names},
            "auto_resolve": data["auto_resolve"],
        }


def _army_label(army) -> str:
    return f"{army.name} ({army.commander.shown_name})" if army.commander else army.name


def _hero_label(hero) -> str:
    return f"{hero.name} ({hero.owner.shown_name})" if hero.owner else hero.name


class DeclarationForm(forms.Form):
    """Fields from one participant's ``declaration-options``; ``declaration()`` gives ``{path: value}``."""

    def __init__(self, *args, options: list[dict], adapter, initial_data: dict | None = None,
                 state: dict | None = None, label_state: dict | None = None, gm_tools: bool = False, **kwargs):
        """``state`` is the battle's (map paths read it); ``label_state`` the one the reader may see,
        which the choices' labels name things from.  ``gm_tools``: the GM's form, where an option
        no field can build (an object, a list of objects) is written as JSON (:class:`EngineJSONField`)."""
        super().__init__(*args, **kwargs)
        self.engine_options = {}
        initial_data = initial_data or {}
        for option in options:
            field = _json_field(option, adapter, label_state) if gm_tools and _is_json(option) else _field(
                option, adapter, state, label_state)
            if field is None:
                continue
            path = option["path"]
            if path in initial_data:
                field.initial = _initial(option, initial_data[path])
            elif option.get("default") is not None:
                field.initial = _initial(option, option["default"])
            self.fields[path] = field
            self.engine_options[path] = option

    def declaration(self) -> dict:
        """The values to store: every one given.  An option's ``default`` is what the form shows first,
        not always what the engine assumes when it is absent (an attack's target), so none is dropped."""
        out = {}
        for path, value in self.cleaned_data.items():
            option = self.engine_options[path]
            if value is None or value == "" or (_is_json(option) and value in ([], {})):
                continue
            # An unticked box says nothing unless it changes something: a box is all a person can
            # leave as it was, and the engine refuses a flag it forbids even when it is false.
            if option["type"] == "boolean" and value == bool(option.get("default")):
                continue
            out[path] = value
        return out


    def refuse(self, slug: str, check: engines.Check) -> None:
        """Put each refusal of ``check-declaration`` on the field it concerns (else above the form), in the
        reader's language; the values posted stay in the form."""
        language = (get_language() or "en")[:2]
        for where, sentence in check.fields.items():
            message = check.messages.get(where)
            text = explain.message_text(slug, message, language) if message else sentence
            field = next((path for path in sorted(self.fields, key=len, reverse=True) if _inside(where, path)), None)
            self.add_error(field, text)


def _inside(where: str, path: str) -> bool:
    """A refusal at ``gm.adjustments[0].hp`` is the field ``gm.adjustments``'s; one at ``gm.adjustments_x`` is not."""
    return where == path or (where.startswith(path) and where[len(path)] in "[.")


def _is_json(option: dict) -> bool:
    """An option only JSON can write: an object with no values to choose among, or one the adapter marks
    (``json``: a list of objects, which ``declaration-options`` does not tell from a list of names)."""
    return bool(option.get("json")) or (option.get("type") == "object" and not option.get("allowed"))


class _SafeDecoder(json.JSONDecoder):
    """Django's ``JSONField`` decodes with this class: the web app's safe decoder, whose refusals
    (deep nesting included) are the ``JSONDecodeError`` the field turns into its "invalid" message."""

    def decode(self, s, _w=None):
        try:
            return jsonsafe.loads(s)
        except jsonsafe.TooDeep as exc:
            raise json.JSONDecodeError(str(exc), s, 0) from None


class EngineJSONField(forms.JSONField):
    """A GM's value written as JSON, of the option's kind (a list or an object); the engine checks the rest."""

    def __init__(self, *, kind: str, **kwargs):
        super().__init__(decoder=_SafeDecoder, **kwargs)
        self.kind = kind

    def to_python(self, value):
        value = super().to_python(value)
        expected = dict if self.kind == "object" else list
        if value is not None and not isinstance(value, expected):
            raise forms.ValidationError(_("Write a JSON object, between { and }.") if expected is dict
                                        else _("Write a JSON list, between [ and ]."), code="invalid")
        return value

    def prepare_value(self, value):
        """Nothing given shows an empty box, not ``null`` or ``[]``."""
        return "" if value in (None, [], {}) else super().prepare_value(value)


def _json_field(option: dict, adapter, names: dict[str, str] | None = None) -> EngineJSONField:
    """The example is what the GM types, the rules' field names as they are: code, marked as no language
    (``lang="zxx"``), the sentence around it in the reader's."""
    example = option.get("example")
    help_text = (format_html("{} <code lang=\"zxx\">{}</code>",
                             _("Written as JSON, with the field names of the rules, for example:"),
                             json.dumps(example, ensure_ascii=False))
                 if example is not None else _("Written as JSON, as the rules name its fields."))
    return EngineJSONField(
        kind=option.get("type"), label=adapter.option_label(option, names), required=False, help_text=help_text,
        error_messages={"invalid": _("This is not valid JSON: check the brackets, commas and double quotes.")},
        widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false"}))


def _initial(option: dict, value):
    """A stored value as the form shows it: choices are JSON-encoded, one by one for lists."""
    if _is_json(option):
        return value
    if _map_pick(option):
        return json.dumps(value) if value else ""
    if option["type"] == "list":
        return [json.dumps(item) for item in value]
    if option["type"] == "choice":
        return json.dumps(value)
    return value


def _field(option: dict, adapter, state: dict | None = None, label_state: dict | None = None):
    label = adapter.option_label(option, label_state)
    forbidden = option.get("forbidden") or []
    help_text = "; ".join(_("%(value)s: %(reason)s") % {"value": adapter.value_label(f["value"], label_state),
                                                         "reason": explain.say(adapter.slug, f, label_state)}
                          for f in forbidden if "value" in f)
    required = bool(option.get("required"))
    kind = option.get("type")
    allowed = option.get("allowed")
    if kind == "boolean":
        refused = {f.get("value") for f in forbidden}
        if allowed == [False] or (True in refused and not option.get("default")):
            return None  # nothing to choose: the engine says why in ``forbidden``
        return forms.BooleanField(label=label, required=False, help_text=help_text)
    if kind == "text":
        return forms.CharField(label=label, required=required, max_length=option.get("max_length"), help_text=help_text)
    if kind == "integer":  # its bounds say what is allowed; the engine's reasons would repeat them
        return forms.IntegerField(label=label, required=required, min_value=option.get("min"),
                                  max_value=option.get("max"),
                                  widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    pick = _map_pick(option)
    if pick:
        return _map_pick_field(option, pick, adapter, state, label=label, help_text=help_text, required=required)
    if kind == "list" and allowed is not None:
        if not allowed:
            return None  # nothing may be picked now; ``forbidden`` says why
        return forms.TypedMultipleChoiceField(
            label=label, required=required, coerce=json.loads, help_text=help_text,
            choices=[(json.dumps(value), adapter.value_label(value, label_state)) for value in allowed],
            widget=forms.CheckboxSelectMultiple)
    if allowed:
        choices = [(json.dumps(value), adapter.value_label(value, label_state)) for value in allowed]
        if not required and option.get("default") is None:
            choices = [("", _("(no change)"))] + choices
        return forms.TypedChoiceField(label=label, choices=choices, required=required, coerce=json.loads,
                                      empty_value=None, help_text=help_text, widget=forms.RadioSelect)
    return None  # a kind this form cannot offer: the GM declares it elsewhere


class PlacementForm(forms.Form):
    """The GM moves one piece before round 1: which piece, and the cell as the map names it (``data-c``)."""

    piece = forms.ChoiceField(label=_("Piece to move"))
    cell = forms.CharField(label=_("Destination cell"), max_length=40,
                           help_text=_("Column and row counted from 0, as x,y (for example 3,4)."))

    def __init__(self, *args, pieces: list[dict], kind: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.kind = kind
        self.fields["piece"].choices = [(str(p["id"]), p.get("title") or str(p["id"])) for p in pieces]

    def clean_cell(self):
        """The cell named the engine's way: ``[x, y]`` on squares, ``{"col", "row"}`` on hexes, a zone id."""
        text = self.cleaned_data["cell"].strip()
        if self.kind == "zones":
            return text
        parts = text.replace(" ", "").split(",")
        if len(parts) != 2 or not all(p.isascii() and p.isdigit() for p in parts):  # "²".isdigit() too
            raise forms.ValidationError(_("Write the cell as two numbers separated by a comma, for example 3,4."))
        x, y = (int(p) for p in parts)
        return {"col": x, "row": y} if self.kind == "hex" else [x, y]


def choice_inputs(field) -> str:
    """A radio or checkbox field's inputs, each in its ``<label class="choice">``, built in one pass.

    Django renders a template per input; on a player's forms (hundreds of radios) that was most of
    the page's time.  The inputs' attributes are Django's own (``field.subwidgets``), only the
    markup is written here.
    """
    return format_html_join("", '<label class="choice"><input type="{}" name="{}" value="{}"{}> <span>{}</span></label>', (
        (radio.data["type"], radio.data["name"], radio.data["value"], flatatt(radio.data["attrs"]), radio.data["label"])
        for radio in field))


# -- paths and cells picked on the map -------------------------------------------------


def _is_cell(value) -> bool:
    """``[x, y]`` of ints or ``{"col", "row"}``: a cell named the engine's way (asked of every step of
    every allowed path on each page, hence no generator)."""
    if isinstance(value, list):
        return len(value) == 2 and type(value[0]) is int and type(value[1]) is int
    return (isinstance(value, dict) and len(value) == 2
            and type(value.get("col")) is int and type(value.get("row")) is int)


def _is_path(value) -> bool:
    return isinstance(value, list) and bool(value) and all(_is_cell(cell) for cell in value)


def _map_pick(option: dict) -> str | None:
    """``"path"`` for an option whose allowed values are paths, ``"cell"`` for cells (or null), else None."""
    allowed = option.get("allowed")
    if not allowed:
        return None
    kind = option.get("type")
    if kind == "list" and all(_is_path(value) for value in allowed):
        return "path"
    if kind in ("square", "hex", "choice") and any(_is_cell(v) for v in allowed) and all(
            v is None or _is_cell(v) for v in allowed):
        return "cell"
    return None


def map_pieces(options: list[dict], adapter, state: dict | None) -> list[str]:
    """The map pieces these options' pickers move, in order, once each (a folded form says them)."""
    pieces = (adapter.option_piece(option, state) for option in options if _map_pick(option))
    return list(dict.fromkeys(piece for piece in pieces if piece))


class MapPickSelect(forms.Select):
    """A select whose options carry the cells they go through (``data-cells="x,y x,y"``).

    Rendered in one pass in Python, not one template per option: a stand's picker lists
    hundreds of paths, and a template per option made the room take a second to render.
    The markup is Django's own select's.
    """

    def __init__(self, attrs=None, cells=None):
        super().__init__(attrs)
        self.cells = cells or {}

    def render(self, name, value, attrs=None, renderer=None):
        chosen, cells = set(self.format_value(value)), self.cells
        options = "".join(
            '<option value="%s"%s%s>%s</option>' % (
                escape(key), ' data-cells="%s"' % escape(cells[key]) if key in cells else "",
                " selected" if key in chosen else "", escape(label))  # the stdlib's: Django's is lazy-aware, slower
            for key, label in ((str(k), str(v)) for k, v in self.choices))
        return format_html('<select name="{}"{}>{}</select>', name, flatatt(self.build_attrs(self.attrs, attrs)),
                           mark_safe(options))


class MapPickField(forms.TypedChoiceField):
    """One path or cell among the allowed ones; any spelling of the same JSON is the same value.

    ``map_pick`` (``"path"`` or ``"cell"``) tells the template to offer "Choose on the map".
    """

    def __init__(self, *, map_pick: str, **kwargs):
        super().__init__(**kwargs)
        self.map_pick = map_pick

    def to_python(self, value):
        value = super().to_python(value)
        try:
            return json.dumps(jsonsafe.loads(value)) if value else value
        except (TypeError, ValueError):
            return value  # not JSON: refused as "not one of the choices"


def _row_col(cell) -> tuple[int, int]:
    return (cell["row"], cell["col"]) if isinstance(cell, dict) else (cell[1], cell[0])


def _map_pick_field(option: dict, pick: str, adapter, state, *, label, help_text, required: bool) -> MapPickField:
    # Listed by where they end, row by row, then shortest first: a long list stays easy to scan.
    paths = [(value, value if pick == "path" else [value]) for value in option["allowed"] if value is not None]
    paths.sort(key=lambda item: (_row_col(item[1][-1]), len(item[1])))
    choices, cells = [], {}
    for value, path in paths:
        key = json.dumps(value)
        kind = "hex" if isinstance(path[-1], dict) else "square"
        cells[key] = " ".join(cell_key(kind, cell) for cell in path)
        choices.append((key, adapter.path_label(path) if pick == "path" else adapter.cell_label(value)))
    if not required:
        choices.insert(0, ("", _("(do not move)") if pick == "path" else _("(no cell)")))
    attrs = {"data-map-pick": pick}
    piece = adapter.option_piece(option, state)
    if piece:
        attrs["data-piece"] = piece
    return MapPickField(map_pick=pick, label=label, choices=choices, required=required, coerce=json.loads, empty_value=None,
                        help_text=help_text, widget=MapPickSelect(attrs=attrs, cells=cells))
