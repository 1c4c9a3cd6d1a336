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

import json
import re
from dataclasses import dataclass, field
from typing import Any

from masscombat.rosters import labels

KEY = "__key"
PRESENT = "__present"
VARIANT = "__variant"

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
    def __init__(self, slug: str, defs: dict, errors: dict[str, str]):
        self.slug = slug
        self.defs = defs
        self.errors = dict(errors)
        self._labels: dict = {}
        self._choices: dict = {}

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
            item = Field(kind=kind, value=shown, **common)
            if kind == "select":
                item.value = "" if shown is None else _text(shown)
                item.choices = [(_text(option), self.choice(option)) for option in _options(schema)]
            if kind in ("integer", "number"):
                item.minimum, item.maximum = schema.get("minimum"), schema.get("maximum")
                item.step = "1" if kind == "integer" else "any"
            return item
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
        children = [
            self.node(prop, value.get(name), f"{path}.{name}" if path else name, name, name in required)
            for name, prop in schema["properties"].items()
            if "const" not in prop  # a union's tag: chosen by its own select
        ]
        group = Field(kind="group", children=children, **common)
        group.present = bool(value) or not common["nullable"]
        return group

    def union(self, variants: list[tuple[str, dict]], value: Any, common: dict) -> Field:
        value = value if isinstance(value, dict) else {}
        names = [name for name, _schema in variants]
        constant = next(iter(k for k, p in variants[0][1]["properties"].items() if "const" in p))
        chosen = value.get(constant, names[0])
        schema = dict(variants[names.index(chosen)][1]) if chosen in names else variants[0][1]
        group = self.group(schema, value, common["name"], common)
        group.variants = [(name, self.choice(name)) for name in names]
        group.variant = chosen
        return group

    def repeat(self, item_schema: dict, value: Any, path: str, common: dict) -> Field:
        items = value if isinstance(value, list) else []
        children = []
        for index, item in enumerate(items):
            child = self.node(item_schema, item, f"{path}[{index}]", "", True)
            child.index, child.caption = index, _caption(item)
            child.open = self._unfolded(child.name, index, len(items))
            children.append(child)
        return Field(kind="list", children=children, **common)

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
            child = self.node(item_schema, item, f"{path}[{index}]", "", True)
            child.index, child.key, child.caption = index, key, _caption(item) or key
            child.open = self._unfolded(child.name, index, len(entries))
            children.append(child)
        return Field(kind="list", key="", children=children, **common)

    def _rename_errors(self, data_path: str, form_path: str) -> None:
        """The engine names an entry by its key (``units.u1.type``); the form by its place (``units[0].type``)."""
        for path, message in list(self.errors.items()):
            if path == data_path or path.startswith((data_path + ".", data_path + "[")):
                self.errors.setdefault(form_path + path[len(data_path):], message)


def _caption(item: Any) -> str:
    if isinstance(item, dict):
        for name in ("name", "id", "profile", "character_id"):
            if isinstance(item.get(name), str) and item[name]:
                return item[name]
    return ""


def build(slug: str, schema: dict, value: Any, errors: dict[str, str] | None = None) -> Field:
    defs = schema.get("$defs", {})
    root = Builder(slug, defs, errors or {}).node(schema, value, "", "", True)
    return root


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
        raw = self.post.get(path)
        if raw is None or not raw.strip():
            return False, None
        try:
            return True, json.loads(raw)
        except ValueError:
            return True, raw  # the engine names the field that is not what it expects

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
            if isinstance(item, dict) and item.get("id") == "":
                item["id"] = f"new_{len(items) + 1}"  # unique enough to start with, and valid for every engine
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
            result[f"new_{len(result) + 1}"] = blank(item_schema, self.defs)
        return True, result


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
