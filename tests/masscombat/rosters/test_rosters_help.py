"""Every field of every roster form has help in English and French, with its rule; the editor shows it."""

import pytest
from django.utils import translation

from masscombat.rosters import adapters, examples, field_help, schema_forms, widgets


def _field_names(schema: dict, defs: dict, found: set) -> set:
    """Every property name the editor can show for ``schema`` (the names help is looked up by)."""
    schema, _nullable = schema_forms._split_nullable(schema, defs)
    variants = schema_forms._variants(schema, defs)
    if variants is not None:
        for _name, option in variants:
            # The tag that tells the variants apart is a field too: the category select.
            found.update(name for name, prop in option["properties"].items() if "const" in prop)
            _field_names(option, defs, found)
    elif schema.get("type") == "object" and "properties" in schema:
        for name, prop in schema["properties"].items():
            if not (isinstance(prop, dict) and "const" in prop):
                found.add(name)
                _field_names(prop, defs, found)
    elif schema.get("type") == "object" and schema_forms._entries(schema) is not None:
        entry = schema_forms._entries(schema)
        fixed = schema_forms._resolve(schema.get("propertyNames", {}), defs).get("enum")
        if fixed and schema_forms._scalar_kind(schema_forms._resolve(entry, defs)):
            found.update(fixed)
        else:
            _field_names(entry, defs, found)
    elif schema.get("type") == "array":
        _field_names(schema.get("items", {}), defs, found)
    return found


def _schemas(slug: str):
    adapter = adapters.get(slug)
    for kind in (adapter.army, adapter.hero):
        yield kind.schema()
        if kind.options is not None:
            yield kind.options()


@pytest.mark.parametrize("slug", sorted(adapters.ADAPTERS))
def test_every_field_has_help_in_both_languages(slug):
    names = set()
    for schema in _schemas(slug):
        _field_names(schema, schema.get("$defs", {}), names)
    assert len(names) > 10
    entries = field_help.entries(slug)
    missing = sorted(name for name in names if name not in entries)
    assert not missing, f"{slug}: no help for {missing}"
    for name in names:
        entry = entries[name]
        assert entry.texts.get("en") and entry.texts.get("fr"), (slug, name)
        assert entry.texts["en"] != entry.texts["fr"] or len(entry.texts["en"]) < 20, (slug, name)
        assert entry.rule.startswith(("S", "E", "F")), (slug, name, entry.rule)
    # A name's help under its parent (``units.name``), where one name means two things: both must be fields.
    unused = sorted(name for name in set(entries) - names if not set(name.split(".", 1)) <= names)
    assert not unused, f"{slug}: help for fields no form has: {unused}"


def test_the_editor_shows_help_one_tap_away_tied_to_its_field_in_the_readers_language():
    schema = adapters.get("synapse").army.schema()
    data = examples.SYNAPSE_ARMIES["Ost d'Hannibal"]
    with translation.override("fr"):
        html = str(widgets.render(schema_forms.build("synapse", schema, data)))
    control = html[html.index('name="units[0].headcount"'):][:900]
    assert 'aria-describedby="h-units[0].headcount"' in control
    assert '<details class="help">' in control and 'id="h-units[0].headcount"' in control
    assert "Le nombre de combattants" in control and "S3.4" in control and "1–1" in control
    # The rarely used fields are folded under "more", the common ones are not.
    first_unit = html[html.index('name="units[0].headcount"'):html.index('name="units[1].')]
    folded = first_unit[first_unit.index('<details class="more">'):]
    assert 'name="units[0].toughness"' in folded and 'name="units[0].headcount"' not in folded


def test_a_synapse_unit_shows_its_fields_in_the_specs_sections():
    """S3.4's table, in sections: identity, numbers, weapons, quality, protection, special rules; every field
    of the unit in one of them, its posted name unchanged."""
    from django.utils import translation

    from masscombat.rosters import adapters, examples, schema_forms

    data = examples.SYNAPSE_ARMIES["Ost d'Hannibal"]
    with translation.override("fr"):
        form = schema_forms.build("synapse", adapters.get("synapse").army.schema(), data)
    unit = next(child for child in form.children if child.name == "units").children[0]
    assert [section.label for section in unit.children] == [
        "Identité", "Effectif", "Armes", "Qualité", "Protection", "Règles spéciales"]
    assert [field.name for field in unit.children[1].children] == ["units[0].headcount", "units[0].pieces"]


def test_help_is_looked_up_by_parent_first():
    """A D&D 5e unit's type (regiment or skirmishers) and a damage's type (slashing, fire) have their own help."""
    from django.utils import translation

    from masscombat.rosters import adapters, examples, schema_forms

    with translation.override("fr"):
        form = schema_forms.build("dnd5e", adapters.get("dnd5e").army.schema(), examples.DND5E_ARMIES["Horde orque"])

    def find(field, name):
        if field.name == name:
            return field
        return next((found for child in field.children if (found := find(child, name)) is not None), None)

    unit_type = find(form, "units[0].type").help
    damage_type = find(form, "profiles[0].attacks[0].damage[0].type").help
    assert unit_type.startswith("Régiment") and damage_type.startswith("Le type de dégâts")
