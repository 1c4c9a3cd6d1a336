"""HTML forms built from an engine's JSON Schema, and the posted form read back as JSON.

The roster forms are not written by hand per ruleset: the engine's schema says
which fields exist, their ranges (``min``/``max``), enums (selects), booleans
(checkboxes), nested objects (fieldsets), lists of objects (repeatable
fieldsets: units, corps, stands) and objects keyed by id (D&D 5e units and
profiles: repeatable fieldsets with an id field).  Field names are the
engine's JSON paths (``units[0].headcount``), so the engine's error on a path
lands on its field.

:func:`build` turns schema + value into a tree of :class:`Field` for the
template; :func:`read` turns the posted form back into the JSON value.  No
rule is checked here: whatever the form holds goes to the engine, which
accepts or refuses it field by field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from django.utils import formats
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from masscombat.core import jsonsafe
from masscombat.rosters import field_help, labels, naming, presets, references, refusals, sections

KEY = "__key"
PRESENT = "__present"
VARIANT = "__variant"
TALLY = "__tally"  # a repeating list of names posted as a count per name: ``profiles[0].multiattack.__tally.greataxe``

HIDDEN = {"id", "side_id"}  # made by the editor (naming.new_id), posted back unchanged, never shown
_INDEX = re.compile(r"^\[(\d+)\]")
_FOLD_AFTER = 3  # lists longer than this show their items folded, a phone screen each otherwise


@dataclass
class Field:
    """One node of a form: a scalar input, a fieldset, a repeatable list or a JSON text area."""

    kind: str  # integer number text select checkbox multi group list json
    name: str
    label: Any = ""
    term: str = ""
    value: Any = None
    required: bool = False
    nullable: bool = False
    minimum: Any = None
    maximum: Any = None
    step: str = "any"
    choices: list = field(default_factory=list)
    children: list = field(default_factory=list)
    present: bool = True
    error: str = ""
    index: int | None = None
    key: str | None = None
    variants: list = field(default_factory=list)
    variant: str = ""
    caption: str = ""  # a list item's own name, shown in its legend
    open: bool = True  # a list item shown unfolded (long lists fold, but not an item with an error)
    help: str = ""  # what the field means, in the reader's language (help/<slug>.yaml)
    rule: str = ""  # the spec section it comes from
    more: bool = False  # rarely used: folded under "more" in its group
    troops: list = field(default_factory=list)  # a unit list's templates, (key, name): "add from a troop type"
    variant_help: Any = None  # a union's category select, as a field with its help


def _resolve(schema: dict, defs: dict) -> dict:
    while isinstance(schema, dict) and "$ref" in schema:
        schema = defs[schema["$ref"].rsplit("/", 1)[-1]]
    return schema


def _split_nullable(schema: dict, defs: dict) -> tuple[dict, bool]:
    """``anyOf [X, null]`` → (X, True); anything else unchanged."""
    options = schema.get("anyOf")
    if options:
        real = [option for option in options if option.get("type") != "null"]
        if len(real) < len(options):
            if len(real) == 1:
                merged = {**_resolve(real[0], defs), **{k: v for k, v in schema.items() if k != "anyOf"}}
                return merged, True
            return {**schema, "anyOf": real}, True
    return _resolve(schema, defs), False


def _variants(schema: dict, defs: dict) -> list[tuple[str, dict]] | None:
    """The alternatives of a union of objects, each named by its constant property (``category``)."""
    options = schema.get("oneOf") or schema.get("anyOf")
    if not options:
        return None
    found = []
    for option in options:
        option = _resolve(option, defs)
        consts = [
            (name, prop["const"])
            for name, prop in option.get("properties", {}).items()
            if isinstance(prop, dict) and "const" in prop
        ]
        if option.get("type") != "object" or not consts:
            return None
        found.append((consts[0][1], option))
    return found


def _entries(schema: dict) -> dict | None:
    """The schema of every value of an object keyed by id (``additionalProperties`` or one pattern)."""
    if isinstance(schema.get("additionalProperties"), dict):
        return schema["additionalProperties"]
    patterns = schema.get("patternProperties")
    if isinstance(patterns, dict) and len(patterns) == 1:
        return next(iter(patterns.values()))
    return None


def _scalar_kind(schema: dict, nullable: bool = False) -> str | None:
    if "enum" in schema or "const" in schema:
        return "select"
    kind = schema.get("type")
    if kind == "boolean":
        # yes / no / the engine's default
        return "select" if nullable else "checkbox"
    if kind == "integer":
        return "integer"
    if kind == "number":
        return "number"
    if kind == "string":
        return "text"
    options = schema.get("anyOf")
    types = {option.get("type") for option in options or []}
    if options and types <= {"integer", "number"}:
        return "number"  # e.g. a speed in metres: 9 or 1.5
    if options and types <= {"integer", "number", "string"}:
        return "text"  # e.g. a rate of fire: 2, "1/2" or "4R"
    return None


class Builder:
    def __init__(self, slug: str, defs: dict, errors: dict[str, str], root: Any = None, around: dict | None = None,
                 known: dict | None = None, entity: str = "army"):
        self.slug = slug
        self.defs = defs
        self.errors = dict(errors)
        self.root = root if isinstance(root, dict) else {}
        # What a reference may also point into: a hero's army (the unit a SYNAPSE character fights in), and what
        # the page knows of the campaign (its players, the characters of its other armies).
        self.around = {**(around or {}), **self.root, **(known or {})}
        self.hidden = HIDDEN | references.SET_BY_THE_BATTLE.get(slug, {}).get(entity, set())
        self.where: list[str] = []  # the captions of the items being built, innermost last: errors name them
        self.parent = ""  # the name of the object whose fields are being built: help may depend on it
        self._labels: dict = {}
        self._choices: dict = {}
        self._helps: dict = {}

    def label(self, name: str, title: str | None) -> tuple[str, str]:
        """The label and term, translated once per form rather than once per unit."""
        key = (name, title)
        if key not in self._labels:
            shown, term = labels.label(self.slug, name, title)
            self._labels[key] = (str(shown), term)
        return self._labels[key]

    def choice(self, option) -> str:
        if option not in self._choices:
            self._choices[option] = str(labels.choice(self.slug, option))
        return self._choices[option]

    def node(self, schema: dict, value: Any, path: str, name: str, required: bool) -> Field:
        schema, nullable = _split_nullable(schema, self.defs)
        label, term = self.label(name, schema.get("title"))
        common = {"name": path, "label": label, "term": term, "required": required, "nullable": nullable,
                  "error": self.errors.get(path, "")}
        kind = _scalar_kind(schema, nullable)
        if kind is not None:
            shown = value if value is not None else schema.get("default")
            item = self.helped(Field(kind=kind, value=shown, **common), name)
            if kind == "select":
                item.value = "" if shown is None else _text(shown)
                item.choices = [(_text(option), self.choice(option)) for option in _options(schema)]
            if kind in ("integer", "number"):
                item.minimum, item.maximum = schema.get("minimum"), schema.get("maximum")
                item.step = "1" if kind == "integer" else "any"
            if item.error:
                item.error = self.explain(item, item.error)
            return item
        item = self.helped(self.compound(schema, value, path, name, common), name)
        if item.error:
            item.error = self.explain_whole(item, name)
        return item

    def explain_whole(self, item: Field, name: str) -> str:
        """A refusal of a whole unit, list or group (a regiment without its configuration), naming it: a list
        item by its caption (its label would be the schema's title), a named group by its label too."""
        why = refusals.reason(self.slug, item.error) or _("value refused by the rules")
        where = " › ".join(self.where + ([str(item.label)] if name and item.label else []))
        return _("%(where)s: %(what)s") % {"where": where, "what": why} if where else why

    def helped(self, item: Field, name: str) -> Field:
        """The field's help, looked up (and put in the reader's language) once per name and parent and form:
        ``parent.name`` first, where one name means two things (a unit's name, a commander's)."""
        key = (self.parent, name)
        if key not in self._helps:
            found = field_help.lookup(self.slug, name, self.parent)
            self._helps[key] = (found.text, found.rule, found.more) if found is not None else None
        if self._helps[key] is not None:
            item.help, item.rule, more = self._helps[key]
            item.more = more and not item.error
        return item

    def explain(self, item: Field, message: str, choices: list | None = None) -> str:
        """The engine's refusal in words, naming the unit it concerns: "Archers 2: this profile does not exist".

        The rules' own reason comes first when they give one in the reader's language ("only artillery has
        pieces"); the field's range only when the value is outside it, or the rules say no more than a bound.
        """
        label = str(item.label).lower()
        why = refusals.reason(self.slug, message) if message else None
        if choices is not None:
            what = _("this %(field)s does not exist; choose among %(choices)s") % {
                "field": label, "choices": ", ".join(text for _value, text in choices) or "—"}
        elif item.value in (None, "") and why in (None, str(refusals.SHAPES["this field is required"])):
            what = _("%(field)s must be filled in") % {"field": item.label}
        elif _outside(item) or ((why is None or refusals.BOUND.match(message))
                                and (item.minimum is not None or item.maximum is not None)):
            what = _within(item)
        elif item.kind == "select":
            shown = dict(item.choices).get(item.value, item.value)
            what = _("%(field)s “%(value)s” is not allowed here") % {"field": item.label, "value": shown}
            if why:
                what = f"{what} ({why})"
        else:
            what = _("%(field)s: %(reason)s") % {"field": item.label, "reason": why or _("value refused by the rules")}
        where = " › ".join(self.where)
        return _("%(where)s: %(what)s") % {"where": where, "what": what} if where else what

    def compound(self, schema: dict, value: Any, path: str, name: str, common: dict) -> Field:
        variants = _variants(schema, self.defs)
        if variants is not None:
            return self.union(variants, value, common)
        if schema.get("type") == "object" and "properties" in schema:
            return self.group(schema, value, path, common)
        if schema.get("type") == "object" and _entries(schema) is not None:
            return self.mapping(schema, value, path, common)
        if schema.get("type") == "array":
            items = _resolve(schema.get("items", {}), self.defs)
            if "enum" in items:
                chosen = value if isinstance(value, list) else []
                return Field(
                    kind="multi", value=chosen,
                    choices=[(option, self.choice(option)) for option in items["enum"]], **common,
                )
            if items.get("type") == "object" or _variants(items, self.defs):
                return self.repeat(schema.get("items", {}), value, path, common)
        return Field(kind="json", value=value, **common)

    def group(self, schema: dict, value: Any, path: str, common: dict) -> Field:
        value = value if isinstance(value, dict) else {}
        required = set(schema.get("required", []))
        outer, self.parent = self.parent, _last_name(path) if path else ""
        children = [
            self.node(prop, value.get(name), f"{path}.{name}" if path else name, name, name in required)
            for name, prop in schema["properties"].items()
            if "const" not in prop  # a union's tag: chosen by its own select
        ]
        self.parent = outer
        names = [name for name, prop in schema["properties"].items() if "const" not in prop]
        for name, child in zip(names, children):
            self.refine(child, name, value)
        group = Field(kind="group", children=children, **common)
        group.present = bool(value) or not common["nullable"]
        return group

    def refine(self, child: Field, name: str, parent: dict) -> None:
        """Ids are hidden (made by the editor, never typed); a reference becomes a pick list of names."""
        if (name in self.hidden or child.name == "name") and child.kind == "text":  # the root's name: the settings'
            child.kind = "hidden"
            return
        tally = references.tally(self.slug, name, self.around, parent)
        if tally is not None and child.kind == "json":
            self.tallied(child, tally, self.slug)
            return
        choices = references.choices(self.slug, name, self.around, parent)
        if child.kind != "text" or choices is None:
            return
        child.kind = "select"
        known = [value for value, _text in choices]
        current = "" if child.value is None else str(child.value)
        child.choices = list(choices)
        if current and current not in known:
            child.choices.append((current, _("— not found here —")))  # an id the GM never typed: not shown
        if child.error or (current and current not in known):
            child.error = self.explain(child, child.error, choices)
        child.value = current

    @staticmethod
    def tallied(child: Field, names: list[tuple[str, str]], slug: str) -> None:
        """A list of names that may repeat, as a number per name (two greataxe attacks: greataxe 2)."""
        picked = child.value if isinstance(child.value, list) else []
        known = [value for value, _text in names]
        child.kind = "tally"
        child.choices = [(value, labels.named(slug, text)) for value, text in names] + [
            (str(v), _("%(value)s (unknown)") % {"value": v})
                                       for v in dict.fromkeys(picked) if v not in known]
        child.value = {value: picked.count(value) for value, _text in child.choices}

    def union(self, variants: list[tuple[str, dict]], value: Any, common: dict) -> Field:
        value = value if isinstance(value, dict) else {}
        names = [name for name, _schema in variants]
        constant = next(iter(k for k, p in variants[0][1]["properties"].items() if "const" in p))
        chosen = value.get(constant, names[0])
        schema = dict(variants[names.index(chosen)][1]) if chosen in names else variants[0][1]
        group = self.group(schema, value, common["name"], common)
        group.variants = [(name, self.choice(name)) for name in names]
        group.variant = chosen
        # The category select is a field too: its help is the tag's (``category``), not the group's.
        tag = self.helped(Field(kind="select", name=f"{common['name']}.{VARIANT}", label=_("Category")), constant)
        group.variant_help = tag
        return group

    def repeat(self, item_schema: dict, value: Any, path: str, common: dict) -> Field:
        items = value if isinstance(value, list) else []
        children = []
        for index, item in enumerate(items):
            caption = self.caption(item, items[:index])
            self.where.append(caption or f"#{index + 1}")
            child = self.node(item_schema, item, f"{path}[{index}]", "", True)
            self.where.pop()
            child.index, child.caption = index, caption
            child.open = self._unfolded(child.name, index, len(items))
            children.append(_in_sections(self.slug, _last_name(path), child))
        field = Field(kind="list", children=children, **common)
        if path == "units":
            field.troops = [(template.key, template.name) for template in presets.templates(self.slug, "troops")]
        return field

    def caption(self, item: Any, before: list) -> str:
        """An item's name; a D&D 5e stand, unnamed, is its creature and its rank among those ("Orc 2")."""
        profiles = self.root.get("profiles") if isinstance(self.root.get("profiles"), dict) else {}
        if isinstance(item, dict) and not item.get("name") and item.get("profile"):
            if item["profile"] not in profiles:
                return ""
            same = sum(1 for other in before if isinstance(other, dict) and other.get("profile") == item["profile"])
            return f"{references.profile_name(self.root, str(item['profile']))} {same + 1}"
        return labels.named(self.slug, _caption(item))

    def _unfolded(self, path: str, index: int, count: int) -> bool:
        """Short lists stay open; in long ones, the last item (often just added) and any with an error."""
        if count <= _FOLD_AFTER or index == count - 1:
            return True
        return any(error == path or error.startswith((path + ".", path + "[")) for error in self.errors)

    def mapping(self, schema: dict, value: Any, path: str, common: dict) -> Field:
        entries = value if isinstance(value, dict) else {}
        item_schema = _entries(schema)
        names = _resolve(schema.get("propertyNames", {}), self.defs).get("enum")
        if names and _scalar_kind(_resolve(item_schema, self.defs)):
            # A fixed set of optional keys (JdRWiki hero bonuses): one field per key, empty = absent.
            fixed = {"type": "object", "properties": {name: item_schema for name in names}}
            return self.group(fixed, entries, path, common)
        children = []
        for index, (key, item) in enumerate(entries.items()):
            self._rename_errors(f"{path}.{key}", f"{path}[{index}]")
            caption = _caption(item) or (references.profile_name(self.root, key) if path == "profiles" else key)
            self.where.append(caption)
            child = self.node(item_schema, item, f"{path}[{index}]", "", True)
            self.where.pop()
            child.index, child.key, child.caption = index, key, caption
            child.open = self._unfolded(child.name, index, len(entries))
            children.append(child)
        field = Field(kind="list", key="", children=children, **common)
        if path == "units":
            field.troops = [(template.key, template.name) for template in presets.templates(self.slug, "troops")]
        return field

    def _rename_errors(self, data_path: str, form_path: str) -> None:
        """The engine names an entry by its key (``units.u1.type``); the form by its place (``units[0].type``)."""
        for path, message in list(self.errors.items()):
            if path == data_path or path.startswith((data_path + ".", data_path + "[")):
                self.errors.setdefault(form_path + path[len(data_path):], message)


def _outside(item: Field) -> bool:
    """A number outside the field's bounds (the browser's own check may have been skipped)."""
    if not isinstance(item.value, int | float) or isinstance(item.value, bool):
        return False
    return ((item.minimum is not None and item.value < item.minimum)
            or (item.maximum is not None and item.value > item.maximum))


def _within(item: Field) -> str:
    """The field's bounds in words: between, at least or at most."""
    low, high = (None if bound is None else formats.number_format(bound, force_grouping=True)
                 for bound in (item.minimum, item.maximum))
    if low is not None and high is not None:
        return _("%(field)s must be between %(low)s and %(high)s") % {"field": item.label, "low": low, "high": high}
    if low is not None:
        return _("%(field)s must be at least %(low)s") % {"field": item.label, "low": low}
    return _("%(field)s must be at most %(high)s") % {"field": item.label, "high": high}


def _caption(item: Any) -> str:
    if isinstance(item, dict):
        for name in ("name", "label", "character_id"):  # never an id: the editor hides them
            if isinstance(item.get(name), str) and item[name]:
                return item[name]
    return ""


def build(slug: str, schema: dict, value: Any, errors: dict[str, str] | None = None,
          around: dict | None = None, known: dict | None = None, entity: str = "army") -> Field:
    """The form of ``value``; ``around`` is data its references may also name (a hero's army), ``known`` what
    the page knows of the campaign (:data:`references.PLAYERS`, :data:`references.CHARACTERS`)."""
    defs = schema.get("$defs", {})
    return Builder(slug, defs, errors or {}, value, around, known, entity).node(schema, value, "", "", True)


def first_error(field: Field) -> str:
    """The path of the first field (in page order) that carries a refusal, for a link from the notice to it."""
    if field.error and field.kind not in ("group", "list"):
        return field.name
    for child in field.children:
        found = first_error(child)
        if found:
            return found
    return field.name if field.error else ""


# --- reading a posted form back ----------------------------------------------------------------


class Reader:
    def __init__(self, defs: dict, post, add: str = "", remove: str = ""):
        self.defs = defs
        self.post = post
        self.add = add
        self.remove = remove

    def value(self, schema: dict, path: str, required: bool) -> tuple[bool, Any]:
        """(present, value) of ``path``: absent optional fields are left out, so engine defaults apply."""
        schema, nullable = _split_nullable(schema, self.defs)
        kind = _scalar_kind(schema, nullable)
        if kind == "checkbox":
            return True, path in self.post
        if kind is not None:
            if path not in self.post:
                return False, None
            raw = self.post.get(path, "").strip()
            if raw == "":
                # Left empty: absent, so the engine applies its default or says the field is required.
                return (kind == "text" and required and not nullable), ""
            return True, _convert(kind, schema, raw)
        variants = _variants(schema, self.defs)
        if variants is not None:
            names = [name for name, _schema in variants]
            constant = next(iter(k for k, p in variants[0][1]["properties"].items() if "const" in p))
            chosen = self.post.get(f"{path}.{VARIANT}" if path else VARIANT, names[0])
            variant = variants[names.index(chosen)][1] if chosen in names else variants[0][1]
            present, found = self.obj(variant, path, nullable)
            if present:
                found = {constant: chosen, **{k: v for k, v in found.items() if k != constant}}
            return present, found
        if schema.get("type") == "object" and "properties" in schema:
            return self.obj(schema, path, nullable)
        if schema.get("type") == "object" and _entries(schema) is not None:
            return self.mapping(schema, path)
        if schema.get("type") == "array":
            items = _resolve(schema.get("items", {}), self.defs)
            if "enum" in items:
                return True, [option for option in self.post.getlist(path) if option in items["enum"]]
            if items.get("type") == "object" or _variants(items, self.defs):
                return True, self.repeat(schema.get("items", {}), path)
            tallied = self.tally(path)
            if tallied is not None:
                return bool(tallied), tallied or None  # no name counted: left out, the engine's default
        raw = self.post.get(path)
        if raw is None or not raw.strip():
            return False, None
        try:
            return True, jsonsafe.loads(raw)  # nesting too deep for the decoder is refused like any bad JSON
        except ValueError:
            return True, raw  # the engine names the field that is not what it expects

    def tally(self, path: str) -> list | None:
        """The names counted under ``path.__tally.<name>``, each repeated its count (0 to 10), or None."""
        prefix = f"{path}.{TALLY}."
        counted = [(key[len(prefix):], self.post.get(key, "")) for key in self.post if key.startswith(prefix)]
        if not counted:
            return None
        names = []
        for name, count in counted:
            number = int(count) if count.strip().isdigit() else 0
            names += [name] * min(number, 10)
        return names

    def obj(self, schema: dict, path: str, nullable: bool) -> tuple[bool, Any]:
        if nullable and f"{path}.{PRESENT}" not in self.post and path:
            return False, None
        required = set(schema.get("required", []))
        result = {}
        for name, prop in schema["properties"].items():
            if "const" in prop:
                continue
            present, found = self.value(prop, f"{path}.{name}" if path else name, name in required)
            if present:
                result[name] = found
        return True, result

    def _indices(self, path: str) -> list[int]:
        """The item indices posted under ``path[i]``, in order, without the removed ones."""
        seen: list[int] = []
        for key in self.post.keys():
            if key.startswith(path + "["):
                match = _INDEX.match(key[len(path) :])
                if match and int(match.group(1)) not in seen:
                    seen.append(int(match.group(1)))
        return [index for index in seen if f"{path}[{index}]" != self.remove]

    def repeat(self, item_schema: dict, path: str) -> list:
        items = [self.value(item_schema, f"{path}[{index}]", True)[1] for index in self._indices(path)]
        if self.add == path:
            item = blank(item_schema, self.defs)
            field = _last_name(path)
            if isinstance(item, dict) and item.get("id") == "":
                item["id"] = naming.new_id(field, naming.ids_in(items))  # hidden: the GM never types an id
            named = naming.default_name(field, naming.names_in(items))
            if isinstance(item, dict) and named and "name" in _resolve(item_schema, self.defs).get("properties", {}):
                item["name"] = item.get("name") or named
            items.append(item)
        return items

    def mapping(self, schema: dict, path: str) -> tuple[bool, Any]:
        item_schema = _entries(schema)
        names = _resolve(schema.get("propertyNames", {}), self.defs).get("enum")
        if names and _scalar_kind(_resolve(item_schema, self.defs)):
            fixed = {"type": "object", "properties": {name: item_schema for name in names}}
            return self.obj(fixed, path, False)
        result = {}
        for index in self._indices(path):
            key = self.post.get(f"{path}[{index}].{KEY}", "").strip() or f"item_{index + 1}"
            result[key] = self.value(item_schema, f"{path}[{index}]", True)[1]
        if self.add == path:
            item = blank(item_schema, self.defs)
            named = naming.default_name(_last_name(path), naming.names_in(result))
            if isinstance(item, dict) and named and "name" in _resolve(item_schema, self.defs).get("properties", {}):
                item["name"] = named
            result[naming.new_id(_last_name(path), result)] = item
        return True, result


def _last_name(path: str) -> str:
    """The field name a path ends with: ``units[0].stands`` → ``stands``."""
    return re.sub(r"\[\d+\]", "", path).rsplit(".", 1)[-1]


def _convert(kind: str, schema: dict, raw: str) -> Any:
    """A typed value where the text is one; otherwise the text, for the engine to refuse on its path."""
    if kind == "integer" or (kind == "text" and "anyOf" in schema and re.fullmatch(r"-?\d+", raw)):
        try:
            return int(raw)
        except ValueError:
            return raw
    if kind == "number":
        try:
            number = float(raw.replace(",", "."))
        except ValueError:
            return raw
        return int(number) if number.is_integer() else number
    if kind == "select":
        for option in _options(schema):
            if _text(option) == raw:
                return option
    return raw


def _options(schema: dict) -> list:
    if schema.get("type") == "boolean":
        return [True, False]
    return list(schema.get("enum") or [schema.get("const")])


def _text(value: Any) -> str:
    """A value as a form sends it back: JSON spelling for booleans."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def read(schema: dict, post, add: str = "", remove: str = "") -> Any:
    """The JSON value the posted form describes.

    ``add``: the path of a list to grow by one blank item; ``remove``: the path
    of a list item to drop (``units[2]``).
    """
    return Reader(schema.get("$defs", {}), post, add, remove).value(schema, "", True)[1]


def blank(schema: dict, defs: dict) -> Any:
    """A new list item: required fields at their default, lowest or first value."""
    schema, nullable = _split_nullable(schema, defs)
    variants = _variants(schema, defs)
    if variants is not None:
        name, schema = variants[0]
    if "default" in schema:
        return schema["default"]
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "object":
        required = set(schema.get("required", []))
        return {
            name: blank(prop, defs)
            for name, prop in schema.get("properties", {}).items()
            if name in required or "const" in prop
        }
    if kind == "array":
        return []
    if kind in ("integer", "number"):
        low = schema.get("minimum", 0)
        return max(low, min(1, schema.get("maximum", 1)))
    if kind == "boolean":
        return False
    return ""


def _in_sections(slug: str, list_name: str, item: Field) -> Field:
    """``item`` (a form group) with its fields gathered into the spec's sections (fields of kind ``section``)."""
    found = sections.plan(slug, list_name, item.variant)
    if item.kind != "group" or not found:
        return item
    by_name = {child.name.rsplit(".", 1)[-1]: child for child in item.children}
    language = (get_language() or "en")[:2]
    gathered, placed = [], set()
    for section in found:
        members = [by_name[name] for name in section["fields"] if name in by_name]
        placed |= {name for name in section["fields"] if name in by_name}
        gathered.append(Field(kind="section", name=f"{item.name}.__section.{len(gathered)}",
                              label=section.get(language) or section["en"], children=members))
    rest = [child for name, child in by_name.items() if name not in placed]
    gathered[-1].children += rest  # a field the spec's table did not name (a new engine field): the last section
    item.children = [section for section in gathered if section.children]
    return item
