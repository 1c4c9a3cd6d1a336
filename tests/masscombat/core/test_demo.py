"""The demo data command."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from masscombat.campaigns.models import Campaign
from masscombat.campaigns.rulesets import Ruleset

pytestmark = pytest.mark.django_db


def test_demo_creates_users_and_one_campaign_per_ruleset(capsys):
    call_command("demo")
    out = capsys.readouterr().out
    assert "demo-gm" in out and "masscombat-demo" in out
    gm = get_user_model().objects.get(username="demo-gm")
    assert gm.check_password("masscombat-demo")
    campaigns = Campaign.objects.all()
    assert sorted(c.ruleset for c in campaigns) == sorted(r.value for r in Ruleset)
    for campaign in campaigns:
        roles = sorted(campaign.memberships.values_list("user__username", "role"))
        assert roles == [("demo-gm", "gm"), ("demo-player1", "player"), ("demo-player2", "player")]


def test_demo_is_idempotent():
    call_command("demo")
    call_command("demo")
    assert Campaign.objects.count() == len(Ruleset)
    assert get_user_model().objects.count() == 3


def test_if_empty_leaves_a_used_database_alone(make_user, capsys):
    make_user("someone")
    call_command("demo", "--if-empty")
    assert not Campaign.objects.exists()
    assert "no demo data" in capsys.readouterr().out
