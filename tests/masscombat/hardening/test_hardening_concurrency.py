"""Races against PostgreSQL: many requests at the same instant, each on its own connection.

Threads released together by a barrier, each with its own database
connection, as separate server workers would be.  SQLite serialises every
writer and has no row locks, so these run in the PostgreSQL pass of
``bin/test`` only (they skip on SQLite).
"""

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.core.exceptions import ValidationError
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from masscombat.battles import services as battle_services
from masscombat.battles.models import Battle, BattleEvent, Round
from masscombat.core.permissions import Role
from masscombat.rosters import services as roster_services
from masscombat.rosters.models import Army, RosterChange

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif("connection.vendor != 'postgresql'", reason="row locks and parallel writers need PostgreSQL"),
]


def together(count: int, work):
    """Run ``work(index)`` in ``count`` threads released at the same instant; their results or exceptions."""
    barrier = threading.Barrier(count)

    def run(index):
        try:
            barrier.wait(timeout=30)
            return work(index)
        except Exception as exc:  # noqa: BLE001 - the test inspects what each caller got
            return exc
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(run, range(count)))


def declare_sides(world, round_number, *, b=True):
    users = world["users"]
    battle_services.declare(users["player"], world["battle"].pk, "side:a", {"sides.a.strategy": "march"},
                            expected_round=round_number)
    battle_services.declare(users["player"], world["battle"].pk, "hero:lucie",
                            {"heroes.lucie.engagement": "support"}, expected_round=round_number)
    if b:
        battle_services.declare(users["other_side"], world["battle"].pk, "side:b",
                                {"sides.b.strategy": "entrenchment"}, expected_round=round_number)


def test_twenty_simultaneous_resolve_requests_resolve_once(world):
    declare_sides(world, 1)
    battle = world["battle"]
    gm = world["users"]["gm"]
    url = reverse("battles:resolve", args=[battle.pk])

    def resolve(_index):
        client = Client()
        client.force_login(gm)
        return client.post(url, {"round": 1}).status_code

    statuses = together(20, resolve)
    assert statuses == [302] * 20
    battle.refresh_from_db()
    assert battle.round == 1 and battle.state["round"] == 1
    assert Round.objects.filter(battle=battle).count() == 1
    assert BattleEvent.objects.filter(battle=battle, kind="round_resolved").count() == 1
    # The event log has no gap and no repeat.
    seqs = list(BattleEvent.objects.filter(battle=battle).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, battle.last_seq + 1))


def test_two_gms_saving_the_same_army_never_lose_a_write_silently(world, make_user):
    co_gm = make_user("elrond")
    world["sea"].memberships.create(user=co_gm, role=Role.GM)
    army = world["army"]
    seen = army.version
    changes_before = RosterChange.objects.filter(army=army).count()

    def save(index):
        editor = (world["users"]["gm"], co_gm)[index]
        data = {**army.data, "troops": 2100 + index}
        return roster_services.update_army(army, data, user=editor, expected_version=seen)

    results = together(2, save)
    saved = [r for r in results if isinstance(r, Army)]
    refused = [r for r in results if isinstance(r, roster_services.VersionConflict)]
    assert len(saved) == 1 and len(refused) == 1, results
    assert "Someone else saved this" in " ".join(refused[0].messages)
    army.refresh_from_db()
    assert army.version == seen + 1 and army.data["troops"] == saved[0].data["troops"]
    assert RosterChange.objects.filter(army=army).count() == changes_before + 1


def test_declarations_racing_a_resolution_count_or_are_refused_never_lost(world):
    """Side B changes its mind while the GM resolves: the change is in that round, or refused with a reason."""
    battle = world["battle"]
    gm, other = world["users"]["gm"], world["users"]["other_side"]
    outcomes = set()
    for round_number in range(1, 5):
        declare_sides(world, round_number)

        def race(index, round_number=round_number):
            if index == 0:
                return battle_services.resolve_round(gm, battle.pk, expected_round=round_number)
            return battle_services.declare(other, battle.pk, "side:b", {"sides.b.strategy": "march"},
                                           expected_round=round_number)

        resolved, declared = together(2, race)
        assert isinstance(resolved, Round), resolved
        counted = resolved.declarations["sides"]["b"]["strategy"]
        if isinstance(declared, ValidationError):
            # Refused: the player is told the round is over; the round used what was stored before.
            outcomes.add("refused")
            assert counted == "entrenchment"
            assert "is over" in " ".join(declared.messages)
        else:
            outcomes.add("counted")
            assert counted == "march", declared
        assert battle.declarations.get(round=round_number, participant="side:b").data["sides.b.strategy"] == counted
        current = Battle.objects.get(pk=battle.pk)
        if current.status != Battle.Status.RUNNING:
            break
        assert current.round == round_number
    assert outcomes  # at least one race ran to the end
