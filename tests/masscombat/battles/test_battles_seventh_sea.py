"""7th Sea's heroic opportunity as an exchange within the round: the GM offers, the hero's player answers.

Lucie (side A, Pippin's hero) has an opportunity pending, as the engine's R8 leaves it after a round
(``offered`` plays that round with a pinned seed).  Merry, on side B, must learn nothing of it
before the round resolves: not in his page, its parts, nor the events his websocket gets.
"""

import pytest
from django.urls import reverse

from masscombat.battles import selectors, services
from masscombat.battles.forms import EngineJSONField
from masscombat.battles.models import Battle, BattleEvent
from masscombat.core import engines
from masscombat.core.permissions import Action
from rules import registry

pytestmark = pytest.mark.django_db

ROUND_1 = {"side:a": {"sides.a.strategy": "march"}, "side:b": {"sides.b.strategy": "march"},
           "hero:lucie": {"heroes.lucie.engagement": "engaged"}}


def _declare_and_resolve(battle, gm, declarations: dict):
    number = Battle.objects.get(pk=battle.pk).current_round
    for key, data in declarations.items():
        services.declare(gm, battle.pk, key, data, expected_round=number)
    return services.resolve_round(gm, battle.pk, expected_round=number)


def _offering_seed(battle) -> int:
    """A battle seed whose round 1 (ROUND_1's declarations) ends with Lucie offered an opportunity."""
    merged = {"sides": {"a": {"strategy": "march"}, "b": {"strategy": "march"}},
              "heroes": {"lucie": {"engagement": "engaged"}}}
    for seed in range(100):
        out = registry.run("seventh_sea", "resolve-round", {"state": battle.state, "declarations": merged},
                           seed=seed + 1)
        if out["state"]["heroes"][0]["opportunity_pending"]:
            return seed
    raise AssertionError("no seed offers an opportunity")


@pytest.fixture
def offered(battle, gm):
    """Round 1 played with a seed that offers Lucie an opportunity: round 2 is the exchange."""
    Battle.objects.filter(pk=battle.pk).update(seed=_offering_seed(battle))
    battle.refresh_from_db()
    resolved = _declare_and_resolve(battle, gm, ROUND_1)
    assert {"type": "opportunity_offered", "hero_id": "lucie"} in resolved.events
    battle.refresh_from_db()
    return battle


def _page(client, battle, part=None) -> str:
    url = reverse("battles:part", args=[battle.pk, part]) if part else battle.get_absolute_url()
    return client.get(url).content.decode()


def _post(client, battle, key: str, data: dict, **extra):
    payload = {"participant": key, "round": Battle.objects.get(pk=battle.pk).current_round, **data}
    return client.post(reverse("battles:declare", args=[battle.pk]), payload, **extra)


def _forms(user, battle) -> dict:
    viewer = selectors.viewer(user, Action.BATTLE_VIEW, battle.pk)
    from masscombat.battles import pages

    declared = selectors.declarations(viewer.battle)  # each built alone: the GM's page folds them, unbuilt
    return {entry["key"]: pages.declaration_forms(viewer, declared, only=entry["key"])[0]
            for entry in pages.declaration_forms(viewer, declared)}


def _offer(client, battle, kind: str, **fields):
    data = {"heroes.lucie.opportunity.type": f'"{kind}"', **fields}
    response = _post(client, battle, "gm", data)
    assert response.status_code == 302, response.content.decode()[:2000]


def test_the_commander_sees_his_role_and_the_hero_his_leadership(battle, player, other_player):
    side_a = _forms(player, battle)["side:a"]["form"].fields["sides.a.strategy"]
    side_b = _forms(other_player, battle)["side:b"]["form"].fields["sides.b.strategy"]
    assert "you attack this round" in side_a.label and "you defend this round" in side_b.label
    help_general = _forms(player, battle)["hero:lucie"]["form"].fields["heroes.lucie.help_general"]
    assert "+2 to the general" in help_general.label  # Lucie's Leadership is 2


def test_before_the_offer_the_player_waits_for_the_gm(offered, client_for, player, other_player, gm):
    forms = _forms(player, offered)
    assert "game master will propose one" in forms["hero:lucie"]["note"]
    assert not any("opportunity" in path for path in forms["hero:lucie"]["form"].fields)
    gm_form = _forms(gm, offered)["gm"]["form"]
    offer = gm_form.fields["heroes.lucie.opportunity.type"]
    offered_types = [value for value, _label in offer.choices if value]
    assert '"easy_shot"' in offered_types and '"commander_is_dead"' not in offered_types  # Lucie has no commission
    assert "commission" in offer.help_text
    assert not any(path.endswith((".accept", ".attack_trait")) for path in gm_form.fields)  # the player's answer
    # S7.9: the adjustments are plain fields, hero by hero (no JSON to write)
    assert "adjustments.lucie.dramatic_wounds" in gm_form.fields
    assert not any(isinstance(field, EngineJSONField) for field in gm_form.fields.values())
    assert "propose one" in _page(client_for(player), offered)
    assert "propose one" not in _page(client_for(other_player), offered)


def test_the_gm_offers_and_the_player_answers(offered, client_for, gm, player):
    _offer(client_for(gm), offered, "easy_shot", **{"heroes.lucie.opportunity.tn": "25"})
    assert offered.declarations.get(participant="gm").data == {"heroes.lucie.opportunity.type": "easy_shot",
                                                               "heroes.lucie.opportunity.tn": 25}
    entry = _forms(player, offered)["hero:lucie"]
    assert "The game master offers you: An easy shot!" in entry["note"] and "TN 25" in entry["note"]
    fields = entry["form"].fields
    assert {"heroes.lucie.opportunity.type", "heroes.lucie.opportunity.accept",
            "heroes.lucie.opportunity.attack_trait", "heroes.lucie.opportunity.attack_knack"} <= set(fields)
    page = _page(client_for(player), offered)
    assert "The game master offers you" in page and "data-follows-gm" in page

    client = client_for(player)
    answer = {"heroes.lucie.engagement": '"engaged"', "heroes.lucie.opportunity.type": '"easy_shot"',
              "heroes.lucie.opportunity.accept": "true"}
    refused = _post(client, offered, "hero:lucie", answer, HTTP_HX_REQUEST="true")
    assert 'class="message error"' in refused.content.decode()  # accepted: the attack Trait is needed
    assert not offered.declarations.filter(participant="hero:lucie", round=2).exists()
    saved = _post(client, offered, "hero:lucie", {**answer, "heroes.lucie.opportunity.attack_trait": "2",
                                                  "heroes.lucie.opportunity.attack_knack": "3"})
    assert saved.status_code == 302
    rows = offered.declarations.filter(round=2).order_by("participant")
    assert _merged(offered, rows)["heroes"]["lucie"] == {
        "engagement": "engaged",
        "opportunity": {"type": "easy_shot", "tn": 25, "accept": True, "attack_trait": 2, "attack_knack": 3}}


def _merged(battle, rows) -> dict:
    """The round's declarations as the engine merges them for ``resolve-round``."""
    return engines.merge_declarations("seventh_sea", battle.state, {row.participant: row.data for row in rows})


def test_the_other_side_never_sees_the_offer_nor_the_answer(offered, client_for, gm, player, other_player):
    _offer(client_for(gm), offered, "easy_shot")
    services.declare(player, offered.pk, "hero:lucie",
                     {"heroes.lucie.engagement": "engaged", "heroes.lucie.opportunity.type": "easy_shot",
                      "heroes.lucie.opportunity.accept": False}, expected_round=2)
    secrets = ("An easy shot!", "easy_shot", "is offered a heroic opportunity", "Heroic opportunity",
               "game master offers", "propose one", "A heroic opportunity comes to")
    own = client_for(player)
    own_texts = [_page(own, offered), _page(own, offered, "reports")]
    assert all(any(secret in text for text in own_texts) for secret in secrets if secret != "propose one")
    assert "Accept the opportunity: <strong>No</strong>" in own_texts[0]  # the answer in his side's list
    other = client_for(other_player)
    for text in (_page(other, offered), *(_page(other, offered, part) for part in ("status", "declare", "reports"))):
        assert not any(secret in text for secret in secrets)
    for event in BattleEvent.objects.filter(battle=offered, kind="declared"):
        assert set(event.payload) == {"round", "participant"}  # who declared, never what
    master = _page(client_for(gm), offered)
    assert "An easy shot!" in master


def test_an_unanswered_offer_lapses_without_blocking_the_round(offered, client_for, gm, player, other_player):
    _offer(client_for(gm), offered, "push_them_back")
    resolved = _declare_and_resolve(offered, gm, {key: data for key, data in ROUND_1.items()})
    assert resolved.declarations["heroes"]["lucie"] == {"engagement": "engaged"}
    assert {"type": "opportunity_lapsed", "hero_id": "lucie", "opportunity": None} in resolved.events
    # An answer that started nothing stays with Lucie's side too, in the events and in the log.
    own = _page(client_for(player), offered, "reports")
    assert "<strong>Lucie</strong> lets the opportunity pass" in own and "lapses" in own
    other = _page(client_for(other_player), offered, "reports")
    assert "lets the opportunity pass" not in other and "lapses" not in other and "offered a heroic" not in other


def test_an_answer_to_an_offer_the_gm_changed_lapses(offered, client_for, gm, player):
    client = client_for(gm)
    _offer(client, offered, "easy_shot")
    services.declare(player, offered.pk, "hero:lucie",
                     {"heroes.lucie.engagement": "engaged", "heroes.lucie.opportunity.type": "easy_shot",
                      "heroes.lucie.opportunity.accept": False}, expected_round=2)
    _offer(client, offered, "medic")
    rows = offered.declarations.filter(round=2)
    assert "opportunity" not in _merged(offered, rows)["heroes"]["lucie"]
    note = _forms(player, offered)["hero:lucie"]["note"]
    assert "Medic!" in note


def test_an_accepted_opportunity_imposes_its_engagement_and_starts(offered, client_for, gm, player):
    _offer(client_for(gm), offered, "push_them_back")
    client = client_for(player)
    response = _post(client, offered, "hero:lucie", {
        "heroes.lucie.engagement": '"support"', "heroes.lucie.opportunity.type": '"push_them_back"',
        "heroes.lucie.opportunity.accept": "true"})
    assert response.status_code == 302
    entry = _forms(player, offered)["hero:lucie"]
    assert "heroes.lucie.engagement" not in entry["form"].fields
    assert "Engagement imposed this round: Front line" in entry["note"]
    resolved = _declare_and_resolve(offered, gm, {"side:a": ROUND_1["side:a"], "side:b": ROUND_1["side:b"]})
    assert {"type": "opportunity_started", "hero_id": "lucie", "opportunity": "push_them_back"} in resolved.events
    assert resolved.output["report"]["heroes"]["lucie"]["engagement"] == "front_line"
    report = _page(client_for(player), offered, "reports")
    assert "Push them back!" in report


def test_the_gm_answers_for_an_absent_player(offered, client_for, gm):
    client = client_for(gm)
    _offer(client, offered, "prepare_to_die", **{"heroes.lucie.opportunity.duel_won": "false"})
    assert offered.declarations.get(participant="gm").data["heroes.lucie.opportunity.duel_won"] is False
    response = _post(client, offered, "hero:lucie", {
        "heroes.lucie.engagement": '"engaged"', "heroes.lucie.opportunity.type": '"prepare_to_die"',
        "heroes.lucie.opportunity.accept": "false"})
    assert response.status_code == 302
    resolved = _declare_and_resolve(offered, gm, {"side:a": ROUND_1["side:a"], "side:b": ROUND_1["side:b"]})
    assert resolved.output["report"]["opportunities"]["lucie"]["reputation_lost"] == 5


@pytest.mark.django_db(transaction=True)
def test_the_other_sides_socket_hears_who_declared_never_what(offered, client_for, gm, player, other_player):
    import json

    from asgiref.sync import async_to_sync
    from channels.db import database_sync_to_async

    from tests.masscombat.battles.test_battles_websocket import drain, joined

    _offer(client_for(gm), offered, "easy_shot")
    services.declare(player, offered.pk, "hero:lucie",
                     {"heroes.lucie.engagement": "engaged", "heroes.lucie.opportunity.type": "easy_shot",
                      "heroes.lucie.opportunity.accept": False}, expected_round=2)

    gm_client = client_for(gm)

    async def scenario():
        other, caught_up = await joined(other_player, offered.pk)  # everything since the battle began
        own, _own_caught_up = await joined(player, offered.pk)
        await database_sync_to_async(_offer)(gm_client, offered, "medic")  # the GM changes his offer live
        heard, own_heard = await drain(other), await drain(own)
        await other.disconnect()
        await own.disconnect()
        return caught_up + heard, own_heard

    heard, own_heard = async_to_sync(scenario)()
    assert {"participant": "gm", "round": 2} in [m["payload"] for m in heard if m.get("kind") == "declared"]
    assert {"participant": "gm", "round": 2} in [m["payload"] for m in own_heard if m.get("kind") == "declared"]
    text = json.dumps(heard)
    assert "easy_shot" not in text and "medic" not in text and "opportunit" not in text


def test_a_started_opportunity_shows_in_both_sides_states(offered, client_for, gm, player, other_player):
    _offer(client_for(gm), offered, "rescue_comrade")
    services.declare(player, offered.pk, "hero:lucie",
                     {"heroes.lucie.opportunity.type": "rescue_comrade", "heroes.lucie.opportunity.accept": True},
                     expected_round=2)
    resolved = _declare_and_resolve(offered, gm, {"side:a": ROUND_1["side:a"], "side:b": ROUND_1["side:b"]})
    assert resolved.state_before["heroes"][0]["effects"] == []
    for user in (player, other_player):  # running effects are public once a round revealed them (visible-state)
        assert "<em>To the rescue!</em>" in _page(client_for(user), offered, "reports")
