"""Faults injected in-process (every pass of bin/test): the database or the channel layer failing
in the middle of a request.  The real restarts of PostgreSQL and Redis are in
``test_hardening_services.py``.
"""

import pytest
from django.db import OperationalError
from django.urls import reverse

from masscombat.battles import live
from masscombat.battles import services as battle_services
from masscombat.battles.models import Battle, BattleEvent, Declaration, Round
from tests.masscombat.hardening.htmlcheck import csp_violations


def fail(*args, **kwargs):
    raise OperationalError("server closed the connection unexpectedly")


@pytest.mark.django_db
def test_pages_answer_503_with_a_clear_message_while_the_database_is_away(client_for, gm, monkeypatch):
    monkeypatch.setattr("masscombat.campaigns.selectors.campaigns_of", fail)
    response = client_for(gm).get("/", HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 503 and response["Retry-After"] == "5"
    page = response.content.decode()
    assert "Réessayez dans un instant" in page and "rien de ce que vous avez enregistré n’est perdu" in page
    assert csp_violations(page) == []


@pytest.mark.django_db
def test_the_api_answers_503_with_a_detail(client_for, gm, monkeypatch):
    monkeypatch.setattr("masscombat.api.views.selectors.campaigns_of", fail)
    response = client_for(gm).get("/api/campaigns/")
    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert "cannot reach its database" in response.json()["detail"]


@pytest.mark.django_db(transaction=True)
def test_a_round_failing_halfway_leaves_nothing_half_written(world, client_for, monkeypatch):
    """The connection drops after the round row is written, before the battle is saved: all or nothing."""
    battle, users = world["battle"], world["users"]
    battle_services.declare(users["player"], battle.pk, "side:a", {"sides.a.strategy": "march"}, expected_round=1)
    battle_services.declare(users["other_side"], battle.pk, "side:b", {"sides.b.strategy": "march"}, expected_round=1)
    battle_services.declare(users["player"], battle.pk, "hero:lucie", {"heroes.lucie.engagement": "support"},
                            expected_round=1)
    before = Battle.objects.get(pk=battle.pk)
    events_before = BattleEvent.objects.filter(battle=battle).count()
    real_emit = live.emit

    def emit_then_drop(battle, kind, *args, **kwargs):
        real_emit(battle, kind, *args, **kwargs)
        if kind == "round_resolved":
            fail()

    monkeypatch.setattr(live, "emit", emit_then_drop)
    response = client_for(users["gm"]).post(reverse("battles:resolve", args=[battle.pk]), {"round": 1})
    assert response.status_code == 503

    after = Battle.objects.get(pk=battle.pk)
    assert (after.round, after.state, after.version, after.last_seq) == (
        before.round, before.state, before.version, before.last_seq)
    assert not Round.objects.filter(battle=battle).exists()
    assert BattleEvent.objects.filter(battle=battle).count() == events_before
    assert Declaration.objects.filter(battle=battle, round=1).count() == 3  # the declarations wait

    monkeypatch.setattr(live, "emit", real_emit)
    response = client_for(users["gm"]).post(reverse("battles:resolve", args=[battle.pk]), {"round": 1})
    assert response.status_code == 302
    assert Round.objects.filter(battle=battle).count() == 1


class DownLayer:
    async def group_send(self, group, message):
        raise ConnectionError("Redis is restarting")


@pytest.mark.django_db(transaction=True)
def test_a_declaration_is_saved_when_the_channel_layer_is_down(world, client_for, monkeypatch):
    """Live updates are lost for a moment, the declaration is not: clients catch up from its event."""
    battle, users = world["battle"], world["users"]
    monkeypatch.setattr(live, "get_channel_layer", DownLayer)
    response = client_for(users["player"]).post(
        reverse("battles:declare", args=[battle.pk]),
        {"participant": "side:a", "round": 1, "sides.a.strategy": '"march"'},
    )
    assert response.status_code == 302
    assert Declaration.objects.filter(battle=battle, round=1, participant="side:a").exists()
    last = BattleEvent.objects.filter(battle=battle).order_by("-seq").first()
    assert (last.kind, last.payload["participant"]) == ("declared", "side:a")
    assert live.missed(battle.pk, last.seq - 1, False, ["all", "side:a"])[0]["seq"] == last.seq
