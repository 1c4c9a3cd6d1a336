"""The demo data holds a 7th Sea battle ready to play, loaded once."""

import pytest
from django.core.management import call_command

from masscombat.battles.models import Battle

pytestmark = pytest.mark.django_db


def test_the_demo_has_battles_ready_at_round_one():
    call_command("demo", verbosity=0)
    call_command("demo", verbosity=0)  # again: nothing duplicated
    assert sorted(Battle.objects.values_list("ruleset", flat=True)) == ["jdrwiki", "seventh_sea", "synapse"]
    synapse = Battle.objects.get(ruleset="synapse")
    assert {p.key: p.user.username for p in synapse.participants.select_related("user")} == {
        "side:A": "demo-player1", "side:B": "demo-player2", "character:maharbal": "demo-player1"}
    battle = Battle.objects.get(ruleset="seventh_sea")
    assert battle.ruleset == "seventh_sea" and battle.status == Battle.Status.RUNNING and battle.round == 0
    keys = {p.key: p.user.username for p in battle.participants.select_related("user")}
    assert keys == {"side:a": "demo-player1", "side:b": "demo-player2",
                    "hero:lucie": "demo-player1", "hero:gaston": "demo-player2"}
