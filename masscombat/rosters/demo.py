"""The specs' worked-example armies and heroes in the demo campaigns, for ``manage.py demo``.

Each demo campaign gets its ruleset's examples (:mod:`masscombat.rosters.examples`):
the first army commanded (and editable) by the first demo player, the second
by the second, heroes shared out between them.  7th Sea is left to the battles
demo, which brings its own armies and heroes with a battle.  Running it again
creates only what is missing.
"""

from masscombat.rosters import examples, services
from masscombat.rosters.models import Army, Hero

LEFT_TO_THE_BATTLES_DEMO = {"seventh_sea"}


def load(campaign, gm, players) -> None:
    slug = campaign.ruleset
    if slug in LEFT_TO_THE_BATTLES_DEMO:
        return
    for index, (name, data) in enumerate(examples.ARMIES[slug].items()):
        if not Army.objects.filter(campaign=campaign, name=name).exists():
            commander = players[index % len(players)] if players else None
            services.create_army(campaign, name=name, user=gm, data=data, commander=commander,
                                 player_may_edit=commander is not None)
    for index, (name, data) in enumerate(examples.HEROES[slug].items()):
        if not Hero.objects.filter(campaign=campaign, name=name).exists():
            owner = players[index % len(players)] if players else None
            services.create_hero(campaign, name=name, user=gm, data=data, owner=owner)
