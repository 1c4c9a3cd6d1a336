"""The demo campaigns come with the specs' worked-example armies and heroes, once."""

import pytest
from django.core.management import call_command

from masscombat.rosters import examples
from masscombat.rosters.models import Army, Hero

pytestmark = pytest.mark.django_db


def test_demo_loads_the_examples_once_with_commanders():
    call_command("demo")
    call_command("demo")
    for slug in examples.ARMIES:
        if slug == "seventh_sea":
            continue  # the battles demo brings 7th Sea's armies
        names = list(Army.objects.filter(campaign__ruleset=slug).values_list("name", flat=True))
        # Each example once; a demo battle may bring armies of its own besides (HÉROS, D&D 5e).
        assert [names.count(name) for name in examples.ARMIES[slug]] == [1] * len(examples.ARMIES[slug])
        assert Hero.objects.filter(campaign__ruleset=slug).count() == len(examples.HEROES[slug])
    first = Army.objects.get(name="Ost d'Hannibal")
    assert first.commander.username == "demo-player1" and first.player_may_edit
    assert first.changes.count() == 1
