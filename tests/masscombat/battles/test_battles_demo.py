"""The demo data holds a 7th Sea battle ready to play, loaded once."""

import pytest
from django.core.management import call_command

from masscombat.battles.models import Battle

pytestmark = pytest.mark.django_db


def test_the_demo_has_battles_ready_at_round_one():
    call_command("demo", verbosity=0)
    call_command("demo", verbosity=0)  # again: nothing duplicated
    rulesets = list(Battle.objects.values_list("ruleset", flat=True))
    assert {"dnd5e", "jdrwiki", "seventh_sea", "synapse"} <= set(rulesets) and len(rulesets) == len(set(rulesets))
    synapse = Battle.objects.get(ruleset="synapse")
    assert {p.key: p.user.username for p in synapse.participants.select_related("user")} == {
        "side:A": "demo-player1", "side:B": "demo-player2", "character:maharbal": "demo-player1"}
    battle = Battle.objects.get(ruleset="seventh_sea")
    assert battle.ruleset == "seventh_sea" and battle.status == Battle.Status.RUNNING and battle.round == 0
    keys = {p.key: p.user.username for p in battle.participants.select_related("user")}
    assert keys == {"side:a": "demo-player1", "side:b": "demo-player2",
                    "hero:lucie": "demo-player1", "hero:gaston": "demo-player2"}


def test_the_dnd5e_demo_battle_is_ready_on_the_demo_map():
    call_command("demo", verbosity=0)
    battle = Battle.objects.get(ruleset="dnd5e")
    keys = {(p.kind, p.side, p.user.username) for p in battle.participants.select_related("user")}
    assert ("side", "A", "demo-player1") in keys and ("side", "B", "demo-player2") in keys
    assert ("solo", "A", "demo-player1") in keys
    assert battle.state["map"]["width"] == 20 and battle.status == Battle.Status.RUNNING and battle.round == 0
