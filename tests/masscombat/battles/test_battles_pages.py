"""Battle pages: who may open and do what (the matrix), and what each side sees."""

import pytest
from django.urls import reverse

from masscombat.battles import selectors, services
from masscombat.battles.models import Battle
from masscombat.core.permissions import Action

pytestmark = pytest.mark.django_db

LOGIN = "login"
ROLES = ("anonymous", "outsider", "other_side", "own_side", "gm")


@pytest.fixture
def users(gm, player, other_player, outsider):
    return {"anonymous": None, "outsider": outsider, "other_side": other_player, "own_side": player, "gm": gm}


# (method, url name, data, expected status by role in ROLES order)
MATRIX = [
    ("get", "battles:room", None, (LOGIN, 404, 200, 200, 200)),
    ("get", "battles:part-status", None, (LOGIN, 404, 200, 200, 200)),
    ("post", "battles:resolve", {"round": 1, "confirm_missing": "1"}, (LOGIN, 404, 403, 403, 302)),
    ("post", "battles:undo", {"round": 0}, (LOGIN, 404, 403, 403, 302)),
    ("post", "battles:pause", {"paused": "1"}, (LOGIN, 404, 403, 403, 302)),
    ("post", "battles:end", {"winner": "a"}, (LOGIN, 404, 403, 403, 302)),
    ("post", "battles:confirm", {}, (LOGIN, 404, 403, 403, 302)),
    ("get", "battles:replay", None, (LOGIN, 404, 404, 404, 200)),
    ("post", "battles:declare", {"participant": "side:a", "round": 1, "sides.a.strategy": '"march"'},
     (LOGIN, 404, 404, 302, 302)),
]


def url_of(name, battle):
    if name == "battles:part-status":
        return reverse("battles:part", args=[battle.pk, "status"])
    return reverse(name, args=[battle.pk])


@pytest.mark.parametrize("method,name,data,expected", MATRIX, ids=[f"{m} {n}" for m, n, _d, _e in MATRIX])
@pytest.mark.parametrize("role_index", range(len(ROLES)), ids=ROLES)
def test_permission_matrix(battle, users, client_for, method, name, data, expected, role_index):
    client = client_for(users[ROLES[role_index]])
    response = getattr(client, method)(url_of(name, battle), data or {})
    want = expected[role_index]
    if want == LOGIN:
        assert response.status_code == 302 and "/login/" in response["Location"]
    else:
        assert response.status_code == want


def test_create_page_needs_the_gm(sea_campaign, client_for, gm, player):
    url = reverse("battles:create", args=[sea_campaign.pk])
    assert client_for(player).get(url).status_code == 403
    assert client_for(gm).get(url).status_code == 200


def test_the_gm_sets_up_a_battle(sea_campaign, sea_rosters, client_for, gm):
    response = client_for(gm).post(reverse("battles:create", args=[sea_campaign.pk]), {
        "name": "Col", "army_a": sea_rosters["a"].pk, "army_b": sea_rosters["b"].pk,
        "heroes_a": [sea_rosters["lucie"].pk], "attacker": "b", "wound_checks": "on",
    })
    battle = Battle.objects.get(name="Col")
    assert response.status_code == 302 and response["Location"] == battle.get_absolute_url()
    assert battle.state["attacker"] == "b" and len(battle.state["heroes"]) == 1


def test_setup_refuses_the_same_army_twice(sea_campaign, sea_rosters, client_for, gm):
    response = client_for(gm).post(reverse("battles:create", args=[sea_campaign.pk]), {
        "name": "Col", "army_a": sea_rosters["a"].pk, "army_b": sea_rosters["a"].pk, "attacker": "a",
    })
    assert response.status_code == 200 and not Battle.objects.exists()
    assert "Each side needs its own army." in response.content.decode()


def test_secret_declarations_stay_with_their_side(battle, client_for, gm, player, other_player):
    services.declare(player, battle.pk, "side:a", {"sides.a.strategy": "envelopment"}, expected_round=1)
    own = client_for(player).get(battle.get_absolute_url()).content.decode()
    other = client_for(other_player).get(battle.get_absolute_url()).content.decode()
    master = client_for(gm).get(battle.get_absolute_url()).content.decode()
    assert "Enveloppement" in own and "Enveloppement" in master
    assert "slot-choices" in own and "slot-choices" in master
    assert "slot-choices" not in other  # the choices are not listed on the other side's page
    assert 'class="slot done" data-key="side:a"' in other  # but it knows side A has declared


def test_a_player_sees_the_other_sides_state_filtered(battle, gm, player, other_player):
    def state_for(user):
        return selectors.visible_state(selectors.viewer(user, Action.BATTLE_VIEW, battle.pk))

    assert "free_raises" in state_for(player)["sides"]["a"]
    assert "free_raises" not in state_for(other_player)["sides"]["a"]
    assert "flesh_wounds" not in state_for(other_player)["heroes"][0]
    assert state_for(gm) == Battle.objects.get(pk=battle.pk).state


def test_declaring_validates_against_the_engine_options(battle, client_for, player):
    client = client_for(player)
    bad = client.post(reverse("battles:declare", args=[battle.pk]),
                      {"participant": "side:a", "round": 1, "sides.a.strategy": '"teleport"'})
    assert bad.status_code == 400 and not battle.declarations.exists()
    too_many = client.post(reverse("battles:declare", args=[battle.pk]),
                           {"participant": "side:a", "round": 1, "sides.a.strategy": '"march"',
                            "sides.a.free_raises_spent": 9})
    assert too_many.status_code == 400 and not battle.declarations.exists()
    good = client.post(reverse("battles:declare", args=[battle.pk]),
                       {"participant": "side:a", "round": 1, "sides.a.strategy": '"march"'}, HTTP_HX_REQUEST="true")
    assert good.status_code == 200 and "Declaration saved" in good.content.decode()
    assert battle.declarations.get().data == {"sides.a.strategy": "march"}
    assert "Declaration saved" not in client.get(battle.get_absolute_url()).content.decode()  # not left in the session
    refused = client.post(reverse("battles:declare", args=[battle.pk]),
                          {"participant": "side:a", "round": 1, "sides.a.strategy": '"teleport"'}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 200 and 'class="message error"' in refused.content.decode()


def test_the_room_query_count_stays_flat(battle, client_for, gm, player, other_player, django_assert_max_num_queries):
    client = client_for(gm)
    with django_assert_max_num_queries(20):
        client.get(battle.get_absolute_url())
    for n in range(1, 4):
        hero = battle.participants.get(kind="hero").ref
        for key, user, data in (("side:a", player, {"sides.a.strategy": "march"}),
                                ("side:b", other_player, {"sides.b.strategy": "march"}),
                                (f"hero:{hero}", player, {f"heroes.{hero}.engagement": "support"})):
            services.declare(user, battle.pk, key, data, expected_round=n)
        services.resolve_round(gm, battle.pk, expected_round=n)
        if Battle.objects.get(pk=battle.pk).status != Battle.Status.RUNNING:
            break
    with django_assert_max_num_queries(20):
        client.get(battle.get_absolute_url())


def test_the_replay_matches_the_record_and_opens_to_players_once_over(battle, client_for, gm, player, other_player):
    hero = battle.participants.get(kind="hero").ref
    for n in (1, 2):
        for key, user, data in (("side:a", player, {"sides.a.strategy": "charge"}),
                                ("side:b", other_player, {"sides.b.strategy": "regroup"}),
                                (f"hero:{hero}", player, {f"heroes.{hero}.engagement": "engaged"})):
            services.declare(user, battle.pk, key, data, expected_round=n)
        services.resolve_round(gm, battle.pk, expected_round=n)
    url = reverse("battles:replay", args=[battle.pk])
    page = client_for(gm).get(url).content.decode()
    assert page.count('class="panel replay-step"') == 3 and "differs from the record" not in page
    assert client_for(player).get(url).status_code == 404  # not before the end
    services.end_battle(gm, battle.pk, "a")
    assert client_for(player).get(url).status_code == 200


def test_the_gm_sees_who_is_here(battle, client_for, gm, player, outsider):
    from masscombat.battles.models import Connection

    Connection.objects.create(battle=battle, user=player, channel_name="test-channel-1")
    page = client_for(gm).get(battle.get_absolute_url()).content.decode()
    assert '<span class="online">Pippin</span>' in page
    assert "Here now" not in client_for(player).get(battle.get_absolute_url()).content.decode()


@pytest.mark.parametrize("language", ["fr", "en"])
def test_numbers_for_the_browser_are_never_grouped(battle, client_for, gm, player, language):
    """A battle's id and event number reach battle.js in data- attributes and urls: a French page must not
    write them "12 345" or "12,345" (the socket would open ws/battles/12,345/ and miss every event)."""
    big = Battle.objects.get(pk=battle.pk)
    participants = list(big.participants.all())
    big.pk, big.last_seq = 12345, 1234
    big.save()
    for row in participants:
        row.pk, row.battle = None, big
        row.save()
    for user in (gm, player):
        client = client_for(user)
        client.cookies["django_language"] = language
        page = client.get(reverse("battles:room", args=[12345])).content.decode()
        assert 'data-battle="12345"' in page and 'data-last-seq="1234"' in page
