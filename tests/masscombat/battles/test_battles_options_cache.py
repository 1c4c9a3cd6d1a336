"""The room asks the engine what each participant may declare once per battle state, not once per page.

``selectors.options_for`` keeps the engine's ``declaration-options`` answers
in Django's cache under the battle's version and a digest of its state, and
shares them within a request: these tests count the engine calls the room
makes (the engine is the only source of the answers, so fewer calls with the
same page is the whole point) and check that a new state is answered anew.
"""

import pytest
from django.urls import reverse

from masscombat.battles import selectors, services
from masscombat.games.dnd5e import demo as demo_dnd5e
from masscombat.battles.models import Battle
from masscombat.campaigns import services as campaign_services
from masscombat.core.permissions import Role
from masscombat.maps import demo as maps_demo
from masscombat.rosters import examples
from masscombat.rosters import services as roster_services
from rules import registry

pytestmark = pytest.mark.django_db


@pytest.fixture
def ford(gm, player):
    """The D&D 5e demo battle at the ford: the horde (Pippin's) against the legion, the GM plays the rest."""
    campaign = campaign_services.create_campaign(gm, name="Gué", ruleset="dnd5e")
    campaign.memberships.create(user=player, role=Role.PLAYER)
    maps_demo.load(campaign)
    (name, data), = examples.ARMIES["dnd5e"].items()
    roster_services.create_army(campaign, name=name, user=gm, data=data, commander=player)
    battle = demo_dnd5e.load(campaign, gm, [player])
    assert battle is not None and battle.accepts_declarations
    return battle


@pytest.fixture
def engine_calls(monkeypatch):
    """Every ``declaration-options`` the engine answers, as (kind, id) of the participant asked."""
    calls = []
    real = registry.run

    def counting(slug, op, payload, seed=None):
        if op == "declaration-options":
            calls.append((payload["participant"]["kind"], payload["participant"]["id"]))
        return real(slug, op, payload, seed)

    monkeypatch.setattr(registry, "run", counting)
    return calls


def test_the_room_asks_the_engine_once_per_participant_then_never_again(ford, gm, player, client_for, engine_calls):
    gm_client = client_for(gm)
    first = gm_client.get(ford.get_absolute_url())
    assert first.status_code == 200
    asked = {(p.kind, p.ref) for p in ford.participants.all()} | {("gm", "gm")}
    assert set(engine_calls) == asked and len(engine_calls) == len(asked)  # expected() and the forms shared them
    engine_calls.clear()
    second = gm_client.get(ford.get_absolute_url())
    assert second.status_code == 200 and engine_calls == []
    assert second.content.decode().count("<form") == first.content.decode().count("<form")
    for part in ("status", "declare"):
        assert gm_client.get(reverse("battles:part", args=[ford.pk, part])).status_code == 200
    assert engine_calls == []
    # A player's forms are asked as their side knows the battle: once per participant they play, then never again.
    players = client_for(player)
    assert players.get(ford.get_absolute_url()).status_code == 200
    assert set(engine_calls) <= {(p.kind, p.ref) for p in ford.participants.all() if p.user_id == player.pk}
    engine_calls.clear()
    assert players.get(ford.get_absolute_url()).status_code == 200 and engine_calls == []


def test_a_resolved_round_is_answered_anew(ford, gm, client_for, engine_calls):
    client = client_for(gm)
    assert client.get(ford.get_absolute_url()).status_code == 200
    services.resolve_round(gm, ford.pk, expected_round=1)
    ford.refresh_from_db()
    engine_calls.clear()
    assert client.get(ford.get_absolute_url()).status_code == 200
    assert engine_calls  # new version, new state: the engine is asked again
    unit = next(p for p in ford.participants.all() if p.kind == "unit")
    fresh = registry.run("dnd5e", "declaration-options",
                         {"state": ford.state, "participant": {"kind": "unit", "id": unit.ref}, "viewer": "gm"})
    assert selectors.options_for(ford, unit.key, unit.kind, unit.ref) == fresh
    assert fresh["round"] == 2


def test_a_state_changed_without_a_version_bump_is_not_answered_from_the_cache(ford, engine_calls):
    unit = next(p for p in ford.participants.all() if p.kind == "unit")
    before = selectors.options_for(ford, unit.key, unit.kind, unit.ref)
    state = ford.state
    for sid in state["units"][unit.ref]["stands"]:
        state["stands"][sid]["status"], state["stands"][sid]["position"] = "fled", None
    Battle.objects.filter(pk=ford.pk).update(state=state)  # same version
    engine_calls.clear()
    after = selectors.options_for(Battle.objects.get(pk=ford.pk), unit.key, unit.kind, unit.ref)
    assert engine_calls == [("unit", unit.ref)]
    assert before["must_declare"] and not after["must_declare"] and after["options"] == []
