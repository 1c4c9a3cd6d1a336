"""The rules' reasons for refusing a roster value reach the GM in their language, on the field, naming the unit.

The refusals are found, not listed: every field of every ruleset's first army
and hero template is set, one at a time, to values its own form allows (its
bounds, its choices, yes and no, left out), and every reason the engine gives
must read in French (an engine message key, or the shared validator's words).
"""

import copy
import re

import pytest
from django.utils import translation

from masscombat.rosters import adapters, examples, presets, refusals, schema_forms
from rules.errors import InvalidInput

LEFT_OUT = object()
_STEP = re.compile(r"\.?([^.\[]+)|\[(\d+)\]")


def _leaves(field, found):
    if field.kind in ("integer", "number", "select", "checkbox") and not field.name.endswith("__variant"):
        found.append(field)
    for child in field.children:
        _leaves(child, found)
    return found


def _tries(field) -> list:
    if field.kind in ("integer", "number"):
        values = {bound for bound in (field.minimum, field.maximum) if bound is not None} | {0, 1, 2, 1.5}
        return [v for v in values if (field.minimum is None or v >= field.minimum)
                and (field.maximum is None or v <= field.maximum)] + [LEFT_OUT]
    if field.kind == "checkbox":
        return [True, False]
    return [schema_forms._convert("select", {"enum": [c for c, _t in field.choices]}, c)
            for c, _t in field.choices] + [LEFT_OUT]


def _set(data, path: str, value) -> bool:
    steps = [int(index) if index else name for name, index in _STEP.findall(path)]
    node = data
    for step in steps[:-1]:
        if isinstance(node, dict) and isinstance(step, int):
            node = list(node.values())[step]
        elif isinstance(node, dict):
            node = node.setdefault(step, {})
        else:
            node = node[step]
    last = steps[-1]
    if isinstance(node, dict) and isinstance(last, int):
        return False
    if value is LEFT_OUT:
        if isinstance(node, dict):
            node.pop(last, None)
    else:
        node[last] = {"true": True, "false": False}.get(value, value) if isinstance(value, str) else value
    return True


def _reasons(slug: str, entity: str, data: dict) -> dict[str, tuple[str, object]]:
    kind = getattr(adapters.get(slug), entity)
    form = schema_forms.build(slug, kind.schema(), data)
    found = {}
    for field in _leaves(form, []):
        for value in _tries(field):
            changed = copy.deepcopy(data)
            if not _set(changed, field.name, value):
                continue
            try:
                kind.sheet(slug, changed)
            except InvalidInput as error:
                for message in error.fields.values():
                    found.setdefault(message, (field.name, value))
    return found


CASES = [(slug, entity, kind) for slug in adapters.ADAPTERS
         for entity, kind in (("army", "armies"), ("hero", "heroes"))]


@pytest.mark.parametrize("slug,entity,kind", CASES)
def test_every_reason_a_template_meets_reads_in_french(slug, entity, kind):
    template = presets.templates(slug, kind)[0]
    with translation.override("fr"):
        data = presets.start(slug, entity, kind, template.key, "Ost")
        english = {message: where for message, where in _reasons(slug, entity, data).items()
                   if refusals.reason(slug, message) is None}
    assert english == {}, "reasons with no French words (message: the field and value that met it)"


def test_a_reason_within_range_is_the_rules_not_the_range():
    """Pieces on peasants are within 1-10,000, but only artillery has pieces: that is what the field says."""
    data = copy.deepcopy(examples.SYNAPSE_ARMIES["Ost d'Hannibal"])
    data["units"][1]["pieces"] = 3
    with pytest.raises(InvalidInput) as refused:
        adapters.get("synapse").army.validate("synapse", data)
    with translation.override("fr"):
        form = schema_forms.build("synapse", adapters.get("synapse").army.schema(), data, refused.value.fields)
        error = _field(form, "units[1].pieces").error
    assert error == "Paysans : Pièces : seule l’artillerie a des pièces"


@pytest.mark.parametrize("slug,change,path,said", [
    ("jdrwiki", lambda d: d["units"][0].update(value=1.5), "units[0].value", "fantassins : Valeur : doit être un nombre entier"),
    ("jdrwiki", lambda d: d["commander"].update(strategist_rank=6), "commander.strategist_rank",
     "Rang de stratège : le rang 6 demande un commandant de niveau 18 (S6.10)"),
])
def test_jdrwiki_reasons_in_french(slug, change, path, said):
    data = copy.deepcopy(examples.JDRWIKI_ARMIES["Ost de Loreval"])
    change(data)
    with pytest.raises(InvalidInput) as refused:
        adapters.get(slug).army.validate(slug, data)
    with translation.override("fr"):
        form = schema_forms.build(slug, adapters.get(slug).army.schema(), data, refused.value.fields)
        assert _field(form, path).error == said


def test_a_select_refusal_gives_the_rules_reason_in_french():
    with translation.override("fr"):
        data = presets.start("heros", "army", "troops", "Fl", "Ost")
    data["units"][0]["class"] = "X"
    with pytest.raises(InvalidInput) as refused:
        adapters.get("heros").army.validate("heros", data)
    with translation.override("fr"):
        form = schema_forms.build("heros", adapters.get("heros").army.schema(), data, refused.value.fields)
        error = _field(form, "units[0].class").error
    assert error.startswith("Volants 1 : Classe") and "classe non permise pour" in error and "allowed" not in error


def _field(field, name):
    if field.name == name:
        return field
    for child in field.children:
        found = _field(child, name)
        if found is not None:
            return found
    return None
