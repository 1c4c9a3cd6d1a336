"""The battle room asks the engines: refusals on their fields, defaults confirmed by the GM, new options, the winner.

- a declaration ``resolve-round`` would refuse is refused by the declare view, on its field, in French;
- a GM who resolves with a declaration missing first reads who is missing and the default orders each
  will get, confirms, and the round's report names the defaults applied;
- HÉROS spells, rally moves and escapes declared in the room resolve;
- a JdRWiki GM names the winner of a battle that ended without one (S5.15.1).
"""

from __future__ import annotations

import copy
import html
import json
import random
from types import SimpleNamespace

import pytest
from django import forms
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation

from masscombat.battles import pages, selectors, services
from masscombat.battles.forms import EngineJSONField
from masscombat.battles.models import Battle
from masscombat.core import engines, explain
from masscombat.core.permissions import Action
from tests.masscombat.battles.test_battles_heros import battle as heros_battle  # noqa: F401 (fixture)
from tests.masscombat.battles.test_battles_heros import plain  # noqa: F401 (fixture)
from tests.masscombat.battles.test_battles_jdrwiki import jdr_battle, valley  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db

RULESETS = ("seventh_sea", "synapse", "jdrwiki", "dnd5e", "heros")


@pytest.fixture
def demo():
    call_command("demo", verbosity=0)
    return {battle.ruleset: battle for battle in Battle.objects.all()}


def _posted(rng: random.Random, form) -> dict:
    """Random values among those the form offers, as a browser posts them."""
    out = {}
    for path, field in form.fields.items():
        if isinstance(field, EngineJSONField) or rng.random() < 0.3:
            continue
        if isinstance(field, forms.BooleanField):
            if rng.random() < 0.5:
                out[path] = "on"
        elif isinstance(field, forms.IntegerField):
            low = field.min_value if field.min_value is not None else 0
            high = field.max_value if field.max_value is not None else low + 10
            out[path] = str(rng.randint(low, max(low, high)))
        elif isinstance(field, forms.MultipleChoiceField):
            values = [v for v, _label in field.choices]
            out[path] = rng.sample(values, min(len(values), rng.randint(0, 3)))
        elif isinstance(field, forms.ChoiceField):
            values = [v for v, _label in field.choices if v != ""]
            if values:
                out[path] = rng.choice(values)
        elif isinstance(field, forms.CharField):
            out[path] = "x"
    return out


def _valid_answer(master, key: str, rng: random.Random, declared: dict | None = None):
    """A random answer to ``key``'s form that the form validates: (posted data, answer), or None."""
    entry = next(iter(pages.declaration_forms(master, declared or {}, only=key)), None)
    if entry is None:
        return None
    posted = _posted(rng, entry["form"])
    entry = next(iter(pages.declaration_forms(master, declared or {}, posted, key, only=key)))
    return (posted, entry["form"].declaration()) if entry["form"].is_valid() else None


def _refused_answer(battle, gm, rng):
    """Another participant's accepted answer (or none), then a participant, a posted answer its form validates
    and ``check-declaration``'s refusal of it, such that ``resolve-round`` refuses the round with both too
    (searched at random among the forms' values)."""
    master = selectors.viewer(gm, Action.BATTLE_VIEW, battle.pk)
    keys = [entry["key"] for entry in pages.declaration_forms(master, {})]
    participants = selectors.round_participants(battle)
    for _attempt in range(300):
        first = {}
        other = rng.choice(keys)
        found = _valid_answer(master, other, rng) if rng.random() < 0.6 else None
        if found and engines.check_declaration(battle.ruleset, battle.state, "gm", participants[other].ref,
                                               found[1]).ok:
            first = {other: found[1]}
        key = rng.choice([k for k in keys if k not in first])
        found = _valid_answer(master, key, rng, {k: SimpleNamespace(data=v) for k, v in first.items()})
        if found is None:
            continue
        posted, answer = found
        check = engines.check_declaration(battle.ruleset, battle.state, "gm", participants[key].ref, answer, first)
        if check.ok:
            continue
        merged = engines.merge_declarations(battle.ruleset, battle.state, {**copy.deepcopy(first), key: answer})
        try:
            engines.resolve_round(battle.ruleset, battle.state, merged, seed=services.round_seed(battle, 1))
        except engines.Refused:
            return first, key, posted, check
    pytest.fail(f"no answer of the {battle.ruleset} forms is refused")


def _medic_offered(battle):
    """7th Sea: Lucie has a heroic opportunity this round, for the GM to offer (S7.3)."""
    state = copy.deepcopy(battle.state)
    for hero in state["heroes"]:
        hero["opportunity_pending"] = hero["id"] == "lucie"
    Battle.objects.filter(pk=battle.pk).update(state=state, version=battle.version + 1)
    return Battle.objects.get(pk=battle.pk)


def _helping_while_resting(battle, gm):
    """Lucie lends her Leadership to the general; the GM then offers her to rest as a medic.  Accepted, the
    offer would make the round fail (S7.1: a resting hero cannot help): ``check-declaration`` refuses it, and
    the GM's form, whose options the engine gives with the round's draft, no longer offers it."""
    first = {"hero:lucie": {"heroes.lucie.help_general": True, "heroes.lucie.engagement": "support"}}
    posted = {"heroes.lucie.opportunity.type": json.dumps("medic")}
    ref = selectors.round_participants(battle)["gm"].ref
    check = engines.check_declaration("seventh_sea", battle.state, "gm", ref, {"heroes.lucie.opportunity.type": "medic"},
                                      first)
    assert not check.ok
    accepted = {"gm": {"heroes.lucie.opportunity.type": "medic"},
                "hero:lucie": {**first["hero:lucie"], "heroes.lucie.opportunity.type": "medic",
                               "heroes.lucie.opportunity.accept": True}}
    with pytest.raises(engines.Refused):
        engines.resolve_round("seventh_sea", battle.state,
                              engines.merge_declarations("seventh_sea", battle.state, accepted), seed=1)
    return first, "gm", posted, check


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_declaration_the_round_would_refuse_is_refused_on_its_field_in_french(demo, ruleset, client_for):
    battle = demo[ruleset]
    gm = battle.created_by
    if ruleset == "seventh_sea":  # its forms leave out what is refused alone: the refusals come from the exchange
        battle = _medic_offered(battle)
        first, key, posted, check = _helping_while_resting(battle, gm)
    else:
        first, key, posted, check = _refused_answer(battle, gm, random.Random(f"{ruleset}-15"))
    for other, answer in first.items():
        services.declare(gm, battle.pk, other, answer, expected_round=1)
    client = client_for(gm)
    client.cookies["django_language"] = "fr"
    response = client.post(reverse("battles:declare", args=[battle.pk]),
                           {"participant": key, "round": 1, **posted}, HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 400
    form = next(entry["form"] for entry in response.context["forms"] if entry["key"] == key)
    on_fields = {path: errors for path, errors in form.errors.items() if path != "__all__"}
    assert on_fields, form.errors  # on the field it concerns
    french = {explain.message_text(ruleset, message, "fr") for message in check.messages.values()}
    english = {explain.message_text(ruleset, message, "en") for message in check.messages.values()}
    shown = {error for errors in on_fields.values() for error in errors}
    if ruleset == "seventh_sea":  # the engine's options, asked with the round's draft, no longer offer it
        assert list(on_fields) == ["heroes.lucie.opportunity.type"] and "choix valide" in " ".join(shown)
    else:
        assert shown & french and not shown & (english - french), (shown, french)
    page = response.content.decode()
    assert all(f'name="{path}"' in page for path in posted)  # nothing typed is lost
    assert not battle.declarations.filter(participant=key).exists()


def _default_answers(battle, but: str) -> dict:
    return {key: participant.default for key, participant in selectors.round_participants(battle).items()
            if participant.must_declare and key != but}


@pytest.mark.parametrize("ruleset", ("seventh_sea", "synapse", "dnd5e"))
def test_resolving_with_one_missing_declaration_names_it_and_its_defaults_then_confirms(demo, ruleset, client_for):
    battle = demo[ruleset]
    gm = battle.created_by
    waited = [p for p in selectors.round_participants(battle).values() if p.must_declare and p.default]
    silent = waited[0]
    for key, answer in _default_answers(battle, silent.key).items():
        services.declare(gm, battle.pk, key, answer, expected_round=1)
    client = client_for(gm)
    url = reverse("battles:resolve", args=[battle.pk])
    with translation.override("en"):
        page = client.post(url, {"round": 1}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        adapter = selectors.viewer(gm, Action.BATTLE_VIEW, battle.pk).adapter
        names = selectors.seen_names(selectors.viewer(gm, Action.BATTLE_VIEW, battle.pk))
        values = [adapter.value_label(value, names) for value in silent.default.values()]
    assert Battle.objects.get(pk=battle.pk).round == 0  # nothing resolved yet
    page = html.unescape(page)
    assert silent.name in page and f'data-key="{silent.key}"' in page
    assert all(str(value) in page for value in values), values
    assert 'name="confirm_missing"' in page  # the second step, a plain form
    response = client.post(url, {"round": 1, "confirm_missing": "1"})
    assert response.status_code == 302
    resolved = Battle.objects.get(pk=battle.pk).rounds.get(number=1)
    assert resolved.output["defaults_applied"] == [silent.key]
    report = client.get(reverse("battles:part", args=[battle.pk, "reports"])).content.decode()
    step = next(s for s in resolved.log if s["key"] == "defaults.applied")
    master = selectors.viewer(gm, Action.BATTLE_VIEW, battle.pk)
    names = selectors.seen_names(master)
    keys = {p.key: pages.participant_name(names, p) for p in master.participants}
    said = selectors.rendered_log(battle, [step], {**names, **keys})[0]["text"]
    assert said in html.unescape(report) and silent.key not in said  # the participant by its name


def test_the_round_waits_for_every_awaited_participant_before_resolving_itself(demo):
    battle = demo["seventh_sea"]
    Battle.objects.filter(pk=battle.pk).update(auto_resolve=True)
    answers = _default_answers(battle, "")
    last = sorted(answers)[-1]
    for key in sorted(answers)[:-1]:
        services.declare(battle.created_by, battle.pk, key, answers[key], expected_round=1)
    assert Battle.objects.get(pk=battle.pk).round == 0
    services.declare(battle.created_by, battle.pk, last, answers[last], expected_round=1)
    assert Battle.objects.get(pk=battle.pk).round == 1


# -- HÉROS: spells, rally moves, escapes ----------------------------------------------------------


def _post(client, battle, key: str, answer: dict):
    data = {path: value if isinstance(value, str) and path.endswith((".cost", ".factor", ".range", ".value"))
            else json.dumps(value) for path, value in answer.items()}
    return client.post(reverse("battles:declare", args=[battle.pk]),
                       {"participant": key, "round": battle.current_round, **data})


def test_a_heros_spell_declared_in_the_room_resolves(heros_battle, gm, client_for):  # noqa: F811
    state = copy.deepcopy(heros_battle.state)
    for character in state["characters"]:
        if character["id"] == "a-aldric":
            character.update(magician=True, power_points=4)
    Battle.objects.filter(pk=heros_battle.pk).update(state=state, version=heros_battle.version + 1)
    battle = Battle.objects.get(pk=heros_battle.pk)
    options = {o["path"]: o for o in selectors.options_for(battle, "character:a-aldric", "character", "a-aldric")
               ["options"]}
    assert options["active.spells[].cost"]["max"] == 4
    spell = {"active.spells[].caster_id": "a-aldric", "active.spells[].cost": "2",
             "active.spells[].effect.kind": "other", "active.spells[].effect.text": "Brume"}
    spell = {path: value for path, value in spell.items() if path in options}
    client = client_for(gm)
    data = {path: (value if path.endswith((".cost", ".text")) else json.dumps(value)) for path, value in spell.items()}
    response = client.post(reverse("battles:declare", args=[battle.pk]),
                           {"participant": "character:a-aldric", "round": 1, **data})
    assert response.status_code == 302, response.content.decode()[-2000:]
    done = services.resolve_round(gm, battle.pk, expected_round=1)
    cast = next(e for e in done.events if e["type"] == "spell_cast")
    assert cast["caster_id"] == "a-aldric" and cast["cost"] == 2
    assert next(c for c in Battle.objects.get(pk=battle.pk).state["characters"]
                if c["id"] == "a-aldric")["power_points"] == 2


def test_heros_rally_moves_and_an_escape_declared_in_the_room_resolve(heros_battle, gm, client_for):  # noqa: F811
    state = copy.deepcopy(heros_battle.state)
    for corps in state["corps"]:
        if corps["id"] == "a-c1":
            corps["demoralised"] = True
    Battle.objects.filter(pk=heros_battle.pk).update(state=state, version=heros_battle.version + 1)
    battle = Battle.objects.get(pk=heros_battle.pk)
    side = {o["path"]: o for o in selectors.options_for(battle, "side:a", "side", "a")["options"]}
    rally = side["active.rallies[]"]["allowed"][0]
    unit = {o["path"]: o for o in selectors.options_for(battle, "unit:a-lanciers", "unit", "a-lanciers")["options"]}
    move = next(path for path in unit["active.rallies[].moves.a-lanciers"]["allowed"] if path)
    aldric = {o["path"]: o for o in selectors.options_for(battle, "character:a-aldric", "character", "a-aldric")
              ["options"]}
    escape = aldric["active.escapes.a-aldric"]["allowed"][0]
    client = client_for(gm)
    for key, answer in (("side:a", {"active.rallies[]": rally}),
                        ("unit:a-lanciers", {"active.rallies[].moves.a-lanciers": move}),
                        ("character:a-aldric", {"active.escapes.a-aldric": escape})):
        response = _post(client, battle, key, answer)
        assert response.status_code == 302, (key, response.content.decode()[-2000:])
    done = services.resolve_round(gm, battle.pk, expected_round=1)
    assert done.declarations["active"]["rallies"][0]["moves"][0]["path"] == move
    assert done.declarations["active"]["escapes"] == {"a-aldric": escape}
    assert any(e["type"] == "rally_attempted" for e in done.events)


# -- JdRWiki: the GM names the winner the rules did not ---------------------------------------------


def test_a_jdrwiki_gm_names_the_winner_of_a_battle_that_ended_without_one(jdr_battle, gm, client_for):  # noqa: F811
    state = copy.deepcopy(jdr_battle.state)
    for corps in state["corps"].values():
        corps["status"] = "fled"  # S5.15.1: nobody left standing, the rules name no winner
    ended = engines.end_battle("jdrwiki", {"state": state})
    assert engines.outcome(ended["state"]).over and engines.outcome(ended["state"]).winner is None
    Battle.objects.filter(pk=jdr_battle.pk).update(state=ended["state"], status=Battle.Status.OVER,
                                                  aftermath=ended, version=jdr_battle.version + 1)
    client = client_for(gm)
    status = client.get(reverse("battles:part", args=[jdr_battle.pk, "status"])).content.decode()
    assert "name-winner" in status and 'name="winner" value="b"' in status
    assert client.post(reverse("battles:end", args=[jdr_battle.pk]), {"winner": "b"}).status_code == 302
    battle = Battle.objects.get(pk=jdr_battle.pk)
    assert battle.aftermath["winner"] == "b" and battle.status == Battle.Status.OVER
    assert "name-winner" not in client.get(reverse("battles:part", args=[battle.pk, "status"])).content.decode()
    services.confirm_aftermath(gm, battle.pk)
    assert Battle.objects.get(pk=battle.pk).state["outcome"]["winner"] == "b"
