"""The engines' sentences go through gettext: generated catalogue current, French complete, pages French."""

import string
from pathlib import Path

import polib
import pytest
from django.conf import settings as django_settings
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from masscombat.core import engine_catalogue, engine_values, explain
from masscombat.core.management.commands import engine_messages
from rules import registry
from tests.rules.jdrwiki.conftest import NEW_BATTLE

COMPILED = Path(django_settings.BASE_DIR) / "locale" / "fr" / "LC_MESSAGES" / "django.mo"
RULESETS = [ruleset.slug for ruleset in registry.rulesets()]


def placeholders(template: str) -> list[tuple[str, str, str | None]]:
    """Every ``{name:spec!conversion}`` of a template, in a comparable form."""
    return sorted((name, spec, conversion) for _, name, spec, conversion in string.Formatter().parse(template)
                  if name is not None)


@pytest.fixture(scope="module")
def compiled() -> dict[tuple[str, str], str]:
    return {(entry.msgctxt, entry.msgid): entry.msgstr for entry in polib.mofile(str(COMPILED)) if entry.msgctxt}


@pytest.fixture(scope="module")
def jdrwiki():
    """A real JdRWiki battle (the spec's S9.0 fixtures) and the first side's options as the GM sees them."""
    ruleset = registry.get("jdrwiki")
    battle = ruleset.run("new-battle", NEW_BATTLE)
    options = ruleset.run("declaration-options", {"state": battle["state"], "participant": {"kind": "side", "id": "a"},
                                                  "viewer": "gm"})
    return battle, options


def test_the_generated_catalogue_is_current():
    """Regenerated in memory from the engines as they are, it is the file on disk: run
    ``manage.py engine_messages`` after changing an engine's messages."""
    assert engine_messages.catalogue_source() == engine_messages.MODULE.read_text(encoding="utf-8")


def test_the_catalogue_holds_every_key_of_every_ruleset_with_its_english():
    for ruleset in registry.rulesets():
        generated = engine_catalogue.MESSAGES[ruleset.slug]
        assert set(generated) == set(ruleset.messages), ruleset.slug
        for key, (context, english) in generated.items():
            assert (context, english) == (f"{ruleset.slug}:{key}", ruleset.messages[key]["en"])


@pytest.mark.parametrize("slug", RULESETS)
def test_every_french_template_uses_the_english_placeholders(slug, compiled):
    """In the engine and in the compiled catalogue a translator edits, key by key."""
    for key, templates in registry.get(slug).messages.items():
        assert templates.get("fr"), f"{slug}: {key} has no French template"
        assert placeholders(templates["fr"]) == placeholders(templates["en"]), f"{slug}: {key}"
        french = compiled.get((f"{slug}:{key}", templates["en"]))
        assert french, f"{slug}: {key} has no French in the compiled catalogue"
        assert placeholders(french) == placeholders(templates["en"]), f"{slug}: {key} (catalogue)"


def test_a_log_step_renders_in_french_with_names(jdrwiki):
    battle, options = jdrwiki
    step = next(s for s in battle["log"] if s["key"] == "initiative.roll")
    french = registry.get("jdrwiki").messages["initiative.roll"]["fr"]
    with translation.override("fr"):
        [rendered] = explain.rendered_log("jdrwiki", [step], names=options["names"])
    assert rendered == {"rule": step["rule"], "text": french.format(**{**step["params"], "corps": options["names"]["n1"]})}
    assert "Ost de Loreval" in rendered["text"] and "n1" not in rendered["text"] and rendered["text"] != step["text"]
    with translation.override("en"):
        assert explain.rendered_log("jdrwiki", [step])[0]["text"] == step["text"]


def test_quiet_keys_are_left_out(jdrwiki):
    battle, _ = jdrwiki
    assert all(line["text"] for line in explain.rendered_log("jdrwiki", battle["log"]))
    assert explain.rendered_log("jdrwiki", battle["log"], frozenset({"battle.clock", "initiative.roll"})) == []


def test_an_option_label_and_its_refusal_render_in_french(jdrwiki):
    _, options = jdrwiki
    ruthless = next(o for o in options["options"] if o["label_key"] == "option.ruthless")
    refused = ruthless["forbidden"][0]
    heroism = next(o for o in options["options"] if o["label_key"] == "option.heroism")
    with translation.override("fr"):
        assert explain.option_label("jdrwiki", ruthless) == "Mode Impitoyable"
        assert explain.say("jdrwiki", refused) == "demande le talent Impitoyable"
        # A parameter that is an engine word is the reader's word: the army pool is "armée".
        assert explain.say("jdrwiki", heroism["forbidden"][0]) == "plus aucun point dans la réserve armée"
    with translation.override("en"):
        assert explain.option_label("jdrwiki", ruthless) == ruthless["label"]
        assert explain.say("jdrwiki", refused) == refused["reason"]


def test_an_unknown_key_falls_back_to_the_engine_sentence():
    with translation.override("fr"):
        assert explain.say("jdrwiki", {"key": "no.such.key", "params": {}, "text": "As the engine said."}) \
            == "As the engine said."
        # Parameters that do not fill the template give the engine's sentence too, never a crash.
        assert explain.say("jdrwiki", {"key": "initiative.roll", "params": {}, "text": "Rolled."}) == "Rolled."


def test_engine_values_are_labelled_per_ruleset():
    with translation.override("fr"):
        assert explain.shown("jdrwiki", "unstable_ground") == "Terrain instable"
        assert explain.shown("jdrwiki", "auto_success") == "une réussite automatique"
        assert explain.shown("dnd5e", "attack") != explain.shown("heros", "attack")
        assert explain.shown("jdrwiki", ["up", "cover"]) == "en hausse, Couvert"
        assert explain.shown("jdrwiki", True) == "Oui"
        assert explain.shown("jdrwiki", "n1", {"n1": "Ost de Loreval"}) == "Ost de Loreval"
        assert explain.shown("jdrwiki", 3) == 3
    assert engine_values.label("jdrwiki", "not_a_value") is None


def test_a_check_message_renders_from_its_key():
    message = {"rule": "S9.13", "key": "refusal.range", "params": {"range": 3}, "text": "out of range (3 hexes)"}
    with translation.override("fr"):
        said = explain.say("heros", message)
    template = registry.get("heros").messages["refusal.range"]["fr"]
    assert said == template.format(range=3) and said != message["text"]


def test_the_command_fills_only_missing_french(tmp_path):
    """A translator's edit survives; a missing or empty entry gets the engine's French."""
    po = polib.POFile()
    english = registry.get("jdrwiki").messages["option.ruthless"]["en"]
    po.append(polib.POEntry(msgctxt="jdrwiki:option.ruthless", msgid=english, msgstr="Mode sans pitié"))
    po.append(polib.POEntry(msgctxt="jdrwiki:option.heroism", msgid=registry.get("jdrwiki").messages["option.heroism"]["en"],
                            msgstr="", flags=["fuzzy"]))
    changed = engine_messages.fill_french(po)
    assert changed == sum(len(registry.get(slug).messages) for slug in RULESETS) - 1
    assert po.find(english, msgctxt="jdrwiki:option.ruthless").msgstr == "Mode sans pitié"
    heroism = po.find(registry.get("jdrwiki").messages["option.heroism"]["en"], msgctxt="jdrwiki:option.heroism")
    assert heroism.msgstr == registry.get("jdrwiki").messages["option.heroism"]["fr"] and "fuzzy" not in heroism.flags
    assert engine_messages.fill_french(po) == 0


def test_the_older_render_step_goes_through_the_catalogue(jdrwiki):
    battle, _ = jdrwiki
    step = next(s for s in battle["log"] if s["key"] == "battle.clock")
    messages = registry.get("jdrwiki").messages
    assert explain.render_step(messages, step, "fr") == messages["battle.clock"]["fr"].format(**step["params"])
    assert explain.render_step({}, step, "fr") == step["text"]


def test_a_help_text_renders_in_french():
    """7th Sea explains what a heroic opportunity costs (``help_key``) beside the option's label."""
    from rules.seventh_sea.messages import text

    params = {"reputation": 2}
    option = {"path": "heroes.0.accept", "label": "Accept", "help_key": "terms.save_the_banner",
              "help_params": params, "help": text("terms.save_the_banner", **params)}
    french = registry.get("seventh_sea").messages["terms.save_the_banner"]["fr"].format(**params)
    with translation.override("fr"):
        assert explain.option_help("seventh_sea", option) == french != option["help"]
        assert explain.option_help("seventh_sea", {"path": "x", "label": "X"}) == ""


KEYS = [(slug, key) for slug in RULESETS for key in sorted(registry.get(slug).messages)]
PARAM = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=True), st.text(max_size=30),
                  st.lists(st.text(max_size=8), max_size=3), st.dictionaries(st.text(max_size=5), st.integers(), max_size=2))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(KEYS), st.dictionaries(st.sampled_from(["corps", "unit", "n", "delta", "reason", "x"]), PARAM))
def test_any_params_give_a_sentence_never_an_error(slug_key, params):
    """Whatever an engine or a stored log puts in ``params``, a page gets a sentence: the template's or the fallback."""
    slug, key = slug_key
    with translation.override("fr"):
        said = explain.say(slug, {"key": key, "params": params, "text": "fallback"})
    assert isinstance(said, str) and said


def test_no_value_and_the_seventh_sea_totals_read_as_words_in_french():
    """``None`` (no winner) is a dash, never "None"; a general's total names its parts in French."""
    with translation.override("fr"):
        assert explain.shown("jdrwiki", None) == "—"
        parts = explain.shown("seventh_sea", {"terrain_modifier": 1, "gm_modifier": -2})
    assert parts == "modificateur de terrain 1, modificateur du meneur de jeu -2"


def test_every_reason_a_dnd5e_move_stops_for_has_a_label():
    """The reasons are read from the engine's code, so a new one without a label fails here (a report
    printed the raw ``cannot_end_here`` on a French page, only when the dice made a move stop so)."""
    import re

    source = (Path(__file__).resolve().parents[3] / "rules" / "dnd5e" / "movement.py").read_text()
    reasons = set(re.findall(r'_stop\("(\w+)"', source))
    assert "cannot_end_here" in reasons
    assert [reason for reason in sorted(reasons) if engine_values.label("dnd5e", reason) is None] == []


def test_every_value_label_is_an_engine_message_of_its_ruleset():
    """The web keeps no table of its own: a ruleset's value labels are its engine's ``value.<word>`` keys,
    each with its ruleset's context in the catalogue (hence in the completeness tests above)."""
    for slug in RULESETS:
        keys = {key for key in registry.get(slug).messages if key.startswith("value.")}
        assert keys, slug
        assert set(engine_values.labels(slug)) == {key.removeprefix("value.") for key in keys}
        context, english = engine_catalogue.MESSAGES[slug][sorted(keys)[0]]
        assert context == f"{slug}:{sorted(keys)[0]}"
    assert not hasattr(engine_values, "LABELS")


def test_a_refusal_the_engine_keys_reads_in_french_field_by_field(jdrwiki):
    """``check-declaration`` hands on the key of a semantic refusal (a talent the army lacks) and of a
    malformed value (a number above its bound), never an English sentence to read back."""
    battle, _ = jdrwiki
    ruleset = registry.get("jdrwiki")
    check = ruleset.run("check-declaration", {
        "state": battle["state"], "participant": {"kind": "side", "id": "a"}, "viewer": "gm",
        "declaration": {"armies.north.ruthless": True}})
    [(path, message)] = check["messages"].items()
    assert message["key"] == "refusal.needs_talent" and message["params"]["talent"] == "ruthless"
    with translation.override("fr"):
        sentence, said = explain.refusal("jdrwiki", "refused", check["fields"], check["messages"])
    assert said == {path: "demande le talent d'armée Impitoyable (S7.7.9)"} and sentence == said[path]
    shaped = ruleset.run("check-declaration", {
        "state": battle["state"], "participant": {"kind": "hero", "id": "ildar"}, "viewer": "gm",
        "declaration": {"corps.n1.heroes[].ildar.moderation": 99}})
    assert [m["key"] for m in shaped["messages"].values()] == ["input.at_most"]
    with translation.override("fr"):
        assert [explain.say("jdrwiki", m) for m in shaped["messages"].values()] == ["doit valoir au plus 10"]


def test_a_refusal_without_a_key_is_never_english_in_french():
    with translation.override("fr"):
        sentence, said = explain.refusal("jdrwiki", "Invalid value for x: some English.", {"x": "some English"})
    assert (sentence, said) == ("Les règles ont refusé cette saisie.", {"x": "valeur refusée par les règles"})
    with translation.override("en"):
        assert explain.refusal("jdrwiki", "E.", {"x": "some English"}) == ("E.", {"x": "some English"})
