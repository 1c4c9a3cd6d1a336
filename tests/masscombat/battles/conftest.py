"""A 7th Sea campaign ready for a battle: a GM, one player per side, an outsider.

Side A (Montaigne) is commanded by Pippin, whose hero Lucie fights in it;
side B (Castille) by Merry.  ``battle`` is the battle set up from them.
"""

import pytest

from masscombat.battles import services
from masscombat.campaigns import services as campaign_services
from masscombat.core.permissions import Role
from masscombat.rosters import services as roster_services


@pytest.fixture
def other_player(make_user):
    return make_user("merry", display_name="Merry")


@pytest.fixture
def sea_campaign(gm, player, other_player):
    campaign = campaign_services.create_campaign(gm, name="Théah", ruleset="seventh_sea")
    campaign.memberships.create(user=player, role=Role.PLAYER)
    campaign.memberships.create(user=other_player, role=Role.PLAYER)
    return campaign


@pytest.fixture
def sea_rosters(sea_campaign, gm, player, other_player):
    montaigne = roster_services.create_army(
        sea_campaign, name="Montaigne", user=gm, commander=player,
        data={"name": "Montaigne", "troops": 2000, "general": {"wits": 2, "strategy": 3, "incitation": 1}},
    )
    castille = roster_services.create_army(
        sea_campaign, name="Castille", user=gm, commander=other_player,
        data={"name": "Castille", "troops": 2000, "general": {"wits": 3, "strategy": 1}, "free_raises": 0},
    )
    lucie = roster_services.create_hero(
        sea_campaign, name="Lucie", user=gm, owner=player, army=montaigne,
        data={"id": "lucie", "name": "Lucie", "side": "a", "wits": 2, "tactics": 3, "leadership": 2,
              "brawn": 3, "resolve": 2, "unit_type": "artillery", "reputation": 10},
    )
    return {"a": montaigne, "b": castille, "lucie": lucie}


@pytest.fixture
def battle(sea_campaign, sea_rosters, gm):
    return services.create_battle(
        sea_campaign, gm, name="Bataille du col",
        armies={"a": sea_rosters["a"], "b": sea_rosters["b"]},
        heroes=[(sea_rosters["lucie"], "a")],
        options={"attacker": "a", "wound_checks": True},
    )


def _browser_fixtures():
    """The browser tests' fixtures (Debian's chromium, screenshots), shared rather than copied."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "browser" / "conftest.py"
    spec = importlib.util.spec_from_file_location("masscombat_browser_fixtures", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.browser, module.screenshot


browser, screenshot = _browser_fixtures()
