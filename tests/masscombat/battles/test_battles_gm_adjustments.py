"""The GM's adjustments: D&D 5e's written as JSON, 7th Sea's offered hero by hero as plain fields (S7.9).

The value is checked by the engine (``check-declaration``) before it is stored: malformed JSON and a
value the engine refuses come back on the field and store nothing; a valid one is stored and reaches
the round's resolution.  Players never get these fields.
"""

import json

import pytest
from django.urls import reverse

from masscombat.battles import services
from masscombat.battles.models import Battle, Declaration
from tests.masscombat.battles.test_battles_dnd5e import dnd_battle, ford  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db

DND_FIELD, SEA_FIELD = "gm.adjustments", "adjustments.lucie"


def _post(client, battle, key: str, data: dict):
    payload = {"participant": key, "round": Battle.objects.get(pk=battle.pk).current_round, **data}
    return client.post(reverse("battles:declare", args=[battle.pk]), payload)


def _gm_form(client, battle) -> str:
    url = reverse("battles:part", args=[battle.pk, "declare"]) + "?participant=gm"
    return client.get(url).content.decode()


def _sides_march(battle, gm):
    for key, data in {"side:a": {"sides.a.strategy": "march"}, "side:b": {"sides.b.strategy": "march"}}.items():
        services.declare(gm, battle.pk, key, data, expected_round=1)


def _resolve(battle, gm):
    number = Battle.objects.get(pk=battle.pk).current_round
    services.resolve_round(gm, battle.pk, expected_round=number)
    return Battle.objects.get(pk=battle.pk)


def test_the_gm_form_offers_the_adjustments_as_json_with_an_example(dnd_battle, battle, client_for, gm):
    client = client_for(gm)
    dnd = _gm_form(client, dnd_battle)
    assert f'name="{DND_FIELD}"' in dnd and "<textarea" in dnd and "set_hp" in dnd
    sea = _gm_form(client, battle)
    assert f'name="{SEA_FIELD}.dramatic_wounds"' in sea and f'name="{SEA_FIELD}.status"' in sea
    assert "<textarea" not in sea


def test_a_dnd_adjustment_is_stored_and_applied_when_the_round_resolves(dnd_battle, client_for, gm):
    adjustment = [{"type": "remove", "id": "A-regiment_orque-3"}]
    response = _post(client_for(gm), dnd_battle, "gm", {DND_FIELD: json.dumps(adjustment)})
    assert response.status_code == 302, response.content.decode()[:2000]
    stored = Declaration.objects.get(battle=dnd_battle, participant="gm")
    assert stored.data[DND_FIELD] == adjustment
    assert dnd_battle.state["stands"]["A-regiment_orque-3"]["status"] == "active"
    after = _resolve(dnd_battle, gm)
    assert after.rounds.get(number=1).declarations["gm"]["adjustments"] == adjustment
    assert after.state["stands"]["A-regiment_orque-3"]["status"] == "eliminated"
    assert after.state["stands"]["A-regiment_orque-2"]["status"] == "active"


def test_a_seventh_sea_adjustment_is_stored_and_applied(battle, client_for, gm):
    response = _post(client_for(gm), battle, "gm", {f"{SEA_FIELD}.status": '"unconscious"'})
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Declaration.objects.get(battle=battle, participant="gm").data == {f"{SEA_FIELD}.status": "unconscious"}
    assert battle.state["heroes"][0]["status"] == "active"
    _sides_march(battle, gm)
    after = _resolve(battle, gm)
    assert after.state["heroes"][0]["status"] == "unconscious"
    assert {"type": "hero_taken_out", "hero_id": "lucie"}.items() <= next(
        e for e in after.rounds.get(number=1).events if e.get("type") == "hero_taken_out").items()


@pytest.mark.parametrize("text, message", [
    ('[{"type": "set_hp", "id": ', "This is not valid JSON"),
    ('{"type": "set_hp"}', "Write a JSON list"),
])
def test_malformed_json_is_refused_on_its_field(dnd_battle, client_for, gm, text, message):
    response = _post(client_for(gm), dnd_battle, "gm", {DND_FIELD: text})
    assert response.status_code == 400
    page = response.content.decode()
    assert message in page and text.replace('"', "&quot;") in page  # the GM's text comes back to fix
    assert not Declaration.objects.filter(battle=dnd_battle).exists()


def test_a_value_the_engine_refuses_is_shown_on_its_field_and_not_stored(dnd_battle, battle, client_for, gm):
    client = client_for(gm)
    response = _post(client, dnd_battle, "gm", {DND_FIELD: '[{"type": "set_hp", "id": "nobody", "hp": 4}]'})
    assert response.status_code == 400
    form = response.context["forms"][-1]["form"]
    assert list(form.errors) == [DND_FIELD] and "stand in play" in form.errors[DND_FIELD][0]
    assert not Declaration.objects.filter(participant="gm").exists()


def test_a_refusal_of_someone_elses_declaration_does_not_block_the_gm(battle, client_for, gm):
    Declaration.objects.create(battle=battle, round=1, participant="side:a", data={"sides.a.strategy": "nonsense"},
                               declared_by=gm)
    response = _post(client_for(gm), battle, "gm", {f"{SEA_FIELD}.flesh_wounds": "2"})
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Declaration.objects.get(battle=battle, participant="gm").data == {f"{SEA_FIELD}.flesh_wounds": 2}


def test_a_player_never_gets_nor_posts_the_adjustments(dnd_battle, battle, client_for, player):
    client = client_for(player)
    for room, field in ((dnd_battle, DND_FIELD), (battle, f"{SEA_FIELD}.status")):
        page = client.get(room.get_absolute_url()).content.decode()
        assert f'name="{field}"' not in page and "<textarea" not in page
        assert _post(client, room, "gm", {field: "[]"}).status_code == 404
    solo = dnd_battle.participants.filter(kind="solo", user=player).first().key
    response = _post(client, dnd_battle, solo, {DND_FIELD: '[{"type": "remove", "id": "B-ligne_hobgobeline-1"}]'})
    stored = Declaration.objects.filter(battle=dnd_battle, participant=solo).first()
    assert stored is None or DND_FIELD not in stored.data, response.status_code
    response = _post(client, battle, "hero:lucie", {f"{SEA_FIELD}.status": '"unconscious"'})
    assert not Declaration.objects.filter(battle=battle, data__has_key=f"{SEA_FIELD}.status").exists()
