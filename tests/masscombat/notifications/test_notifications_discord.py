"""A campaign's Discord webhook: set by its GM only, posted to at each resolved round and new battle, and a
failing webhook never stops a round: its error waits on the campaign page for the GM."""

import json

import pytest
from django.urls import reverse

from masscombat.battles import services
from masscombat.battles.models import Battle
from masscombat.campaigns.models import Campaign

pytestmark = pytest.mark.django_db


def edit(client, campaign, **changes):
    data = {"name": campaign.name, "ruleset": campaign.ruleset, "description": "", "language": "en",
            "discord_webhook": "", **changes}
    return client.post(reverse("campaigns:edit", args=[campaign.pk]), data)


def hook(campaign, url, language="en"):
    Campaign.objects.filter(pk=campaign.pk).update(discord_webhook=url, language=language)


def test_the_gm_sets_the_webhook_and_a_player_cannot(client_for, sea_campaign, gm, player):
    url = "https://discord.com/api/webhooks/123/token"
    assert edit(client_for(player), sea_campaign, discord_webhook="https://evil.example/hook").status_code == 403
    assert edit(client_for(gm), sea_campaign, discord_webhook=url, language="fr").status_code == 302
    sea_campaign.refresh_from_db()
    assert (sea_campaign.discord_webhook, sea_campaign.language) == (url, "fr")
    assert "discord_webhook" not in client_for(gm).get(reverse("campaigns:create")).content.decode()


@pytest.mark.parametrize(("url", "accepted"), [
    ("https://discord.com/api/webhooks/1/a", True),
    ("https://discordapp.com/api/webhooks/1/a", True),
    ("http://discord.com/api/webhooks/1/a", False),  # not https
    ("https://discord.com.evil.example/api/webhooks/1/a", False),
    ("https://discord.com:8443/api/webhooks/1/a", False),
    ("https://127.0.0.1/api/webhooks/1/a", False),
    ("javascript:alert(1)", False),
])
def test_outside_development_only_discord_is_accepted(client_for, sea_campaign, gm, settings, url, accepted):
    settings.ANY_WEBHOOK_URL = False
    response = edit(client_for(gm), sea_campaign, discord_webhook=url)
    assert response.status_code == (302 if accepted else 200)
    if not accepted:
        assert response.context["form"].errors["discord_webhook"]
    assert Campaign.objects.get(pk=sea_campaign.pk).discord_webhook == (url if accepted else "")


def test_a_resolved_round_posts_its_report_link(sink, battle, gm, django_capture_on_commit_callbacks):
    hook(battle.campaign, sink.url + "/api/webhooks/1/t")
    with django_capture_on_commit_callbacks(execute=True):
        services.resolve_round(gm, battle.pk, expected_round=1)
    [post] = sink.received
    assert post["path"] == "/api/webhooks/1/t" and post["headers"]["content-type"] == "application/json"
    assert json.loads(post["body"]) == {
        "content": f"**Bataille du col**: round 1 is resolved. Report: https://battle.example/battles/{battle.pk}/#battle-rounds",
        "allowed_mentions": {"parse": []},
    }


def test_a_new_battle_posts_its_link_in_the_campaigns_language(sink, sea_campaign, sea_rosters, gm,
                                                               django_capture_on_commit_callbacks):
    hook(sea_campaign, sink.url + "/hook", language="fr")
    with django_capture_on_commit_callbacks(execute=True):
        battle = services.create_battle(sea_campaign, gm, name="Second col",
                                        armies={"a": sea_rosters["a"], "b": sea_rosters["b"]}, heroes=[],
                                        options={"attacker": "a", "wound_checks": True})
    [post] = sink.received
    assert json.loads(post["body"])["content"] == (
        f"**Second col** a commencé. Pour la rejoindre : https://battle.example/battles/{battle.pk}/")


@pytest.mark.parametrize("failure", ["500", "refused"])
def test_a_failing_webhook_leaves_the_round_resolved_and_tells_the_gm(sink, refused_url, client_for, battle, gm, player,
                                                                      django_capture_on_commit_callbacks, failure):
    if failure == "500":
        sink.status = 500
    hook(battle.campaign, sink.url + "/hook" if failure == "500" else refused_url)
    with django_capture_on_commit_callbacks(execute=True):
        services.resolve_round(gm, battle.pk, expected_round=1)
    assert Battle.objects.get(pk=battle.pk).round == 1 and battle.rounds.count() == 1
    campaign = Campaign.objects.get(pk=battle.campaign_id)
    expected = "HTTP 500 Internal Server Error" if failure == "500" else "Connection refused"
    assert expected in campaign.discord_error and campaign.discord_error_at is not None
    page = client_for(gm).get(reverse("campaigns:detail", args=[campaign.pk])).content.decode()
    assert 'id="discord-error"' in page and expected in page
    assert 'id="discord-error"' not in client_for(player).get(reverse("campaigns:detail", args=[campaign.pk])).content.decode()


def test_a_post_that_works_again_clears_the_error(sink, battle, gm, player, other_player,
                                                  django_capture_on_commit_callbacks):
    hook(battle.campaign, sink.url + "/hook")
    Campaign.objects.filter(pk=battle.campaign_id).update(discord_error="HTTP 500", discord_error_at="2026-01-01T00:00Z")
    with django_capture_on_commit_callbacks(execute=True):
        services.resolve_round(gm, battle.pk, expected_round=1)
    campaign = Campaign.objects.get(pk=battle.campaign_id)
    assert sink.received and campaign.discord_error == "" and campaign.discord_error_at is None
