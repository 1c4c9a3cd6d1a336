"""Hostile names: HTML and script payloads, right-to-left text, emoji, the longest name allowed.

Every campaign, army, hero, map, battle and player is named with them; every
page that shows them, the print sheet, the htmx parts the battle room reloads
when its websocket speaks, and the JSON of the API must show them escaped (no
element or handler injected) and intact (the reader sees exactly the name).
"""

import json

import pytest
from django.urls import reverse

from masscombat.battles import services as battle_services
from masscombat.campaigns import services as campaign_services
from masscombat.maps import services as map_services
from tests.masscombat.hardening.htmlcheck import csp_violations, scan

pytestmark = pytest.mark.django_db

PAYLOAD = "<script>alert('x')</script><img src=x onerror=alert(1)>\"&amp;"
RTL = "جيش\u202eالشمال"  # Arabic with a right-to-left override inside
EMOJI = "🐉⚔️👩‍👩‍👧"


def hostile(name: str) -> str:
    """The default name wrapped in every kind of trouble, within the 100 characters a name may have."""
    return f"{PAYLOAD}{RTL}{EMOJI}{name}"[:100]


@pytest.fixture
def hostile_world(make_world):
    """Named with trouble, with one round resolved (the reports draw their charts) and a map whose zones are too."""
    world = make_world(hostile)
    battle, users = world["battle"], world["users"]
    for user, key, path, value in [(users["player"], "side:a", "sides.a.strategy", "march"),
                                   (users["other_side"], "side:b", "sides.b.strategy", "entrenchment"),
                                   (users["player"], "hero:lucie", "heroes.lucie.engagement", "support")]:
        battle_services.declare(user, battle.pk, key, {path: value}, expected_round=1)
    battle_services.resolve_round(users["gm"], battle.pk, expected_round=1)
    world["zone"] = hostile("Old woods")
    world["map"] = map_services.create_map(world["zones"], name=hostile("Loreval map"), width=2, height=1, data={
        "zones": {"woods": {"name": world["zone"], "neighbors": ["ford"], "terrain": {"cover": 2}, "at": [0, 0]},
                  "ford": {"name": "Ford", "neighbors": ["woods"], "terrain": {}, "at": [1, 0]}}})
    return world


def shown(html: str, text: str) -> bool:
    """The exact text as a reader sees it: in the page's text or an attribute (title, value...)."""
    found = scan(html)
    return text in "".join(found.text) or any(text in value for value in found.attribute_values)


def assert_safe(html: str, *names: str) -> None:
    assert "<script>alert" not in html and "<img src=x" not in html
    assert csp_violations(html) == []
    for name in names:
        assert shown(html, name), name[:40]


def pages(world):
    sea, battle = world["sea"].pk, world["battle"].pk
    yield "home", reverse("home"), [world["sea"].name]
    yield "campaign", reverse("campaigns:detail", args=[sea]), [world["sea"].name, world["army"].name, world["hero"].name]
    yield "members", reverse("campaigns:members", args=[sea]), [world["target"].display_name]
    yield "army sheet (print)", reverse("rosters:army", args=[sea, world["army"].pk]), [world["army"].name]
    yield "hero sheet (print)", reverse("rosters:hero", args=[sea, world["hero"].pk]), [world["hero"].name]
    yield "map", reverse("maps:detail", args=[world["zones"].pk, world["map"].pk]), [world["map"].name, world["zone"]]
    yield "map editor", reverse("maps:edit", args=[world["zones"].pk, world["map"].pk]), [world["map"].name]
    yield "battle room", reverse("battles:room", args=[battle]), [battle_name(world)]
    for part in ("status", "declare", "reports"):
        yield f"battle part {part}", reverse("battles:part", args=[battle, part]), []
    yield "replay", reverse("battles:replay", args=[battle]), [battle_name(world)]


def battle_name(world):
    return world["battle"].name


def test_every_page_shows_hostile_names_escaped_and_intact(hostile_world, client_for):
    client = client_for(hostile_world["users"]["gm"])
    for label, url, names in pages(hostile_world):
        response = client.get(url)
        assert response.status_code == 200, label
        html = response.content.decode()
        assert_safe(html, *names)


def test_players_see_them_safely_too(hostile_world, client_for):
    client = client_for(hostile_world["users"]["player"])
    sea = hostile_world["sea"].pk
    for url in (reverse("campaigns:detail", args=[sea]), reverse("battles:room", args=[hostile_world["battle"].pk]),
                reverse("rosters:hero", args=[sea, hostile_world["hero"].pk])):
        response = client.get(url)
        assert response.status_code == 200
        assert_safe(response.content.decode(), hostile_world["sea"].name)


def test_the_api_returns_them_exactly(hostile_world, client_for):
    client = client_for(hostile_world["users"]["gm"])
    sea = hostile_world["sea"].pk
    campaign = client.get(f"/api/campaigns/{sea}/").json()
    assert campaign["name"] == hostile_world["sea"].name
    armies = client.get(f"/api/campaigns/{sea}/armies/").json()
    names = [army["name"] for army in (armies["results"] if isinstance(armies, dict) else armies)]
    assert hostile_world["army"].name in names


def test_the_longest_name_is_kept_and_a_longer_one_refused_per_field(client_for, gm):
    client = client_for(gm)
    longest = hostile("x" * 100)
    assert len(longest) == 100
    response = client.post(reverse("campaigns:create"), {"name": longest, "ruleset": "dnd5e", "description": ""})
    assert response.status_code == 302
    assert gm.campaigns.filter(name=longest).exists()

    too_long = longest + "!"
    response = client.post(reverse("campaigns:create"), {"name": too_long, "ruleset": "dnd5e", "description": ""})
    assert response.status_code == 200 and "has-error" in response.content.decode()
    response = client.post("/api/campaigns/", {"name": too_long, "ruleset": "dnd5e"}, content_type="application/json")
    assert response.status_code == 400 and list(response.json()) == ["name"]
    assert not gm.campaigns.filter(name__startswith=too_long[:99], name__endswith="!").exists()


def test_websocket_events_carry_ids_not_names(hostile_world):
    """The battle's live events name participants by key; the room reloads its escaped parts."""
    from masscombat.battles.models import BattleEvent

    events = BattleEvent.objects.filter(battle=hostile_world["battle"])
    assert events.exists()
    for event in events:
        text = json.dumps(event.payload, ensure_ascii=False)
        assert "<" not in text, event.kind


def test_a_renamed_campaign_reaches_members_escaped(hostile_world, client_for):
    campaign_services.update_campaign(hostile_world["sea"], name=hostile("Renamed"), ruleset="seventh_sea",
                                      description="")
    html = client_for(hostile_world["users"]["player"]).get("/").content.decode()
    assert_safe(html, hostile("Renamed"))
