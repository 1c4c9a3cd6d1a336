"""A value the engine refuses is listed under its choice with the reason in the reader's language."""

from django.utils import translation

from masscombat.battles import adapters
from masscombat.battles.forms import DeclarationForm

OPTION = {
    "path": "units.A.action", "type": "choice", "required": True, "allowed": ["attack", "none"],
    "forbidden": [{"value": "cast_spell", "reason": "no stand of the unit has a spell (S6.5)",
                   "key": "refusal.no_spell_in_unit", "params": {}}],
}


def help_of(language: str) -> str:
    with translation.override(language):
        form = DeclarationForm(options=[OPTION], adapter=adapters.get("dnd5e"), label_state={})
        return str(form.fields["units.A.action"].help_text)


def test_the_reason_reads_in_french_from_its_key():
    french = help_of("fr")
    assert "aucun groupe de l'unité n'a de sort (S6.5)" in french
    assert "no stand" not in french


def test_the_reason_reads_in_english():
    assert "no stand of the unit has a spell (S6.5)" in help_of("en")


def test_an_option_the_web_has_no_label_for_reads_from_its_engine_key_with_names():
    """The GM's adjustment fields carry the engine's ``label_key``: French, the hero by name, not id."""
    option = {"path": "gm.adjustments.lucie.flesh_wounds", "type": "integer", "label_key": "option.adjustment.flesh_wounds",
              "label_params": {"hero": "lucie"}, "label": "Flesh wounds of lucie (adjustment)"}
    with translation.override("fr"):
        label = adapters.get("seventh_sea").option_label(option, {"lucie": "Lucie"})
    assert "Lucie" in label and "lucie" not in label and "Flesh" not in label
