"""Battle write paths: declare, resolve once, undo exactly, end and write the aftermath once."""

import pytest
from django.core.exceptions import ValidationError

from masscombat.battles import services
from masscombat.battles.models import Battle, BattleEvent, Round
from masscombat.rosters.models import Hero, RosterChange

pytestmark = pytest.mark.django_db


def declare_all(battle, gm, player, other_player, *, a="march", b="entrenchment"):
    battle.refresh_from_db()
    n = battle.current_round
    services.declare(player, battle.pk, "side:a", {"sides.a.strategy": a}, expected_round=n)
    services.declare(other_player, battle.pk, "side:b", {"sides.b.strategy": b}, expected_round=n)
    hero = battle.participants.get(kind="hero").ref
    services.declare(player, battle.pk, f"hero:{hero}", {f"heroes.{hero}.engagement": "support"}, expected_round=n)


def test_a_battle_starts_from_the_engine(battle):
    assert battle.status == Battle.Status.RUNNING
    assert battle.state["ruleset"] == "seventh_sea" and battle.state["round"] == 0
    assert {p.key for p in battle.participants.all()} == {"side:a", "side:b", "hero:lucie"}
    assert battle.setup["input"]["sides"]["a"]["name"] == "Montaigne"


def test_resolving_twice_resolves_once(battle, gm, player, other_player):
    declare_all(battle, gm, player, other_player)
    first = services.resolve_round(gm, battle.pk, expected_round=1)
    again = services.resolve_round(gm, battle.pk, expected_round=1)
    assert first.pk == again.pk
    assert Round.objects.filter(battle=battle).count() == 1
    battle.refresh_from_db()
    assert battle.round == 1 and battle.state["round"] == 1
    assert BattleEvent.objects.filter(battle=battle, kind="round_resolved").count() == 1


def test_the_same_seed_gives_the_same_dice(battle, gm, player, other_player):
    declare_all(battle, gm, player, other_player)
    first = services.resolve_round(gm, battle.pk, expected_round=1)
    services.undo_round(gm, battle.pk, expected_round=1)
    second = services.resolve_round(gm, battle.pk, expected_round=1)
    assert first.dice == second.dice and first.log == second.log


def test_undo_restores_the_state_exactly(battle, gm, player, other_player):
    before = Battle.objects.get(pk=battle.pk).state
    declare_all(battle, gm, player, other_player)
    services.resolve_round(gm, battle.pk, expected_round=1)
    assert services.undo_round(gm, battle.pk, expected_round=1) is True
    assert services.undo_round(gm, battle.pk, expected_round=1) is False  # a second click changes nothing
    battle.refresh_from_db()
    assert battle.state == before and battle.round == 0 and not battle.rounds.exists()


def test_a_player_cannot_declare_for_the_other_side(battle, player):
    with pytest.raises(ValidationError):
        services.declare(player, battle.pk, "side:b", {"sides.b.strategy": "march"}, expected_round=1)
    assert not battle.declarations.exists()


def test_a_stale_round_is_refused(battle, gm, player, other_player):
    declare_all(battle, gm, player, other_player)
    services.resolve_round(gm, battle.pk, expected_round=1)
    with pytest.raises(ValidationError):
        services.declare(player, battle.pk, "side:a", {"sides.a.strategy": "march"}, expected_round=1)


def test_paused_battles_take_no_declaration(battle, gm, player):
    services.set_paused(gm, battle.pk, True)
    with pytest.raises(ValidationError):
        services.declare(player, battle.pk, "side:a", {"sides.a.strategy": "march"}, expected_round=1)
    services.set_paused(gm, battle.pk, False)
    services.declare(player, battle.pk, "side:a", {"sides.a.strategy": "march"}, expected_round=1)


def test_automatic_resolution_when_all_are_in(battle, gm, player, other_player):
    Battle.objects.filter(pk=battle.pk).update(auto_resolve=True)
    declare_all(battle, gm, player, other_player)
    battle.refresh_from_db()
    assert battle.round == 1


def test_the_battle_ends_and_the_aftermath_is_written_once(battle, gm, player, other_player, sea_rosters):
    for _ in range(3):
        declare_all(battle, gm, player, other_player, a="envelopment", b="in_ranks")
        services.resolve_round(gm, battle.pk, expected_round=Battle.objects.get(pk=battle.pk).current_round)
        if Battle.objects.get(pk=battle.pk).status == Battle.Status.OVER:
            break
    battle.refresh_from_db()
    if battle.status != Battle.Status.OVER:
        services.end_battle(gm, battle.pk, "a")
        battle.refresh_from_db()
    assert battle.status == Battle.Status.OVER and battle.aftermath["heroes"]
    services.confirm_aftermath(gm, battle.pk)
    services.confirm_aftermath(gm, battle.pk)
    lucie = Hero.objects.get(pk=sea_rosters["lucie"].pk)
    changes = RosterChange.objects.filter(hero=lucie, source_kind="battle")
    assert changes.count() == 1 and changes.get().source_id == battle.pk
    ref = "lucie"
    assert lucie.data["reputation"] == battle.aftermath["heroes"][ref]["reputation_after"]
    battle.refresh_from_db()
    assert battle.status == Battle.Status.CLOSED
    with pytest.raises(ValidationError):
        services.undo_round(gm, battle.pk, expected_round=battle.round)
