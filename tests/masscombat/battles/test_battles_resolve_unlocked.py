"""A round is resolved by the engine before the battle is locked, and written once from what is current.

On the 7th Sea battle of the conftest (Pippin plays side A and the hero
Lucie, Merry side B).  The races themselves (20 resolutions at once,
declarations against a resolution) run on PostgreSQL in
``tests/masscombat/hardening/test_hardening_concurrency.py``.
"""

import pytest
from django.db import transaction

from masscombat.battles import services
from masscombat.battles.models import Round

pytestmark = pytest.mark.django_db(transaction=True)  # so that "inside a transaction" can be told apart


@pytest.fixture
def declared(battle, player, other_player):
    hero = battle.participants.get(kind="hero").ref
    services.declare(player, battle.pk, "side:a", {"sides.a.strategy": "march"}, expected_round=1)
    services.declare(other_player, battle.pk, "side:b", {"sides.b.strategy": "march"}, expected_round=1)
    services.declare(player, battle.pk, f"hero:{hero}", {f"heroes.{hero}.engagement": "support"}, expected_round=1)
    return battle


def test_the_engine_resolves_the_round_outside_the_lock(declared, gm, monkeypatch):
    inside = []
    real = services._resolution

    def watched(battle, answers):
        inside.append(transaction.get_connection().in_atomic_block)
        return real(battle, answers)

    monkeypatch.setattr(services, "_resolution", watched)
    resolved = services.resolve_round(gm, declared.pk, expected_round=1)
    assert inside == [False]  # once, and in no transaction: nothing of the battle was locked meanwhile
    assert resolved.number == 1 and Round.objects.filter(battle=declared).count() == 1


def test_a_declaration_changed_meanwhile_is_in_the_round_written(declared, gm, other_player, monkeypatch):
    real = services._resolution
    computed = []

    def then_changed(battle, answers):
        out = real(battle, answers)
        if not computed:  # while the engine worked on the first reading, Merry changed his mind
            services.declare(other_player, declared.pk, "side:b", {"sides.b.strategy": "entrenchment"},
                             expected_round=1)
        computed.append(answers["side:b"])
        return out

    monkeypatch.setattr(services, "_resolution", then_changed)
    resolved = services.resolve_round(gm, declared.pk, expected_round=1)
    assert [answer["sides.b.strategy"] for answer in computed] == ["march", "entrenchment"]  # resolved again, locked
    assert "entrenchment" in str(resolved.declarations) and Round.objects.filter(battle=declared).count() == 1


def test_a_round_resolved_meanwhile_is_returned_not_written_twice(declared, gm, monkeypatch):
    real = services._resolution
    others = []

    def raced(battle, answers):
        out = real(battle, answers)
        if not others:  # another GM tab resolved it while this one's engine worked
            others.append(None)
            others[0] = services.resolve_round(gm, declared.pk, expected_round=1)
        return out

    monkeypatch.setattr(services, "_resolution", raced)
    resolved = services.resolve_round(gm, declared.pk, expected_round=1)
    assert resolved.pk == others[0].pk and Round.objects.filter(battle=declared).count() == 1
    assert declared.events.filter(kind="round_resolved").count() == 1
