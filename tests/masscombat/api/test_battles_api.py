"""The battles API: the room's permissions and checks, bad input per field, and a SYNAPSE battle played through it."""

import pytest

from masscombat.battles import pages, selectors
from masscombat.battles.models import Battle, BattleEvent
from masscombat.campaigns import services as campaign_services
from masscombat.core.permissions import Action
from tests.masscombat.battles.test_battles_dnd5e import _hide, _unit, dnd_battle, ford  # noqa: F401 - fixtures
from tests.masscombat.battles.test_battles_jdrwiki import jdr_battle, valley  # noqa: F401 - fixtures
from tests.masscombat.battles.test_battles_synapse import synapse_battle  # noqa: F401 - fixture

pytestmark = pytest.mark.django_db


@pytest.fixture
def other_player(make_user):
    return make_user("merry", display_name="Merry")


@pytest.fixture
def battle(synapse_battle):
    """The SYNAPSE battles tests' battle: side A is Pippin's (with his character Vera), side B Merry's."""
    return synapse_battle


def url(battle, what=""):
    return f"/api/campaigns/{battle.campaign_id}/battles/{battle.pk}/" + (f"{what}/" if what else "")


def post(client, path, data):
    return client.post(path, data, content_type="application/json")


ATTACK = {"sides.A.orders.A.melee.action": "attack", "sides.A.orders.A.melee.target": "B.melee"}


def test_anonymous_gets_401_and_an_outsider_404(client_for, battle, outsider):
    for path in (url(battle), url(battle, "events"), f"/api/campaigns/{battle.campaign_id}/battles/"):
        assert client_for(None).get(path).status_code == 401
        assert client_for(outsider).get(path).status_code == 404
    assert post(client_for(None), url(battle, "declare"), {}).status_code == 401
    assert post(client_for(outsider), url(battle, "resolve"), {"round": 1}).status_code == 404


def test_the_battle_under_another_campaign_is_not_found(client_for, battle, gm):
    other = campaign_services.create_campaign(gm, name="Elsewhere", ruleset="synapse")
    assert client_for(gm).get(f"/api/campaigns/{other.pk}/battles/{battle.pk}/").status_code == 404


def test_each_reads_the_state_the_room_gives_them(client_for, battle, gm, player, other_player):
    for user in (gm, player, other_player):
        body = client_for(user).get(url(battle)).json()
        viewer = selectors.viewer(user, Action.BATTLE_VIEW, battle.pk)
        assert body["state"] == selectors.visible_state(viewer)
        assert body["current_round"] == 1 and body["status"] == "running" and body["deadline"] is None
    mine = [p["participant"] for p in client_for(player).get(url(battle)).json()["participants"]]
    assert sorted(mine) == ["character:vera", "side:A"]
    everyone = [p["participant"] for p in client_for(gm).get(url(battle)).json()["participants"]]
    assert set(everyone) >= {"side:A", "side:B", "character:vera", "gm"}
    listed = client_for(other_player).get(f"/api/campaigns/{battle.campaign_id}/battles/").json()
    assert [item["id"] for item in listed] == [battle.pk]


def test_the_other_side_never_reads_a_declaration_nor_the_enemys_losses(client_for, battle, gm, player, other_player):
    before = client_for(other_player).get(url(battle)).json()
    assert post(client_for(player), url(battle, "declare"),
                {"participant": "side:A", "round": 1, "declaration": ATTACK}).status_code == 200
    own = {s["participant"]: s for s in client_for(player).get(url(battle)).json()["declarations"]}
    after = client_for(other_player).get(url(battle)).json()
    enemy = {s["participant"]: s for s in after["declarations"]}
    assert own["side:A"]["declared"] and own["side:A"]["shown"]
    assert enemy["side:A"]["declared"] and enemy["side:A"]["shown"] == []
    # All side B learns is that side A has declared (and the event's number): nothing else changed for it.
    enemy["side:A"]["declared"] = False
    assert {**after, "declarations": list(enemy.values()), "last_seq": before["last_seq"]} == before
    post(client_for(gm), url(battle, "resolve"), {"round": 1, "confirm_defaults": True})
    state = client_for(other_player).get(url(battle)).json()["state"]
    assert "losses" not in state["formations"]["A.melee"]
    assert "losses" in client_for(gm).get(url(battle)).json()["state"]["formations"]["A.melee"]


def test_a_hidden_stand_never_reaches_the_other_side_through_the_api(dnd_battle, client_for, gm, player,
                                                                    other_player):
    """D&D 5e hides stands (S11.3): side A's player reads the battle, its events and every options of theirs
    without the hidden stand's id; its own side and the GM read it."""
    archers = _unit(dnd_battle, "B", "Archers hobgobelins")
    hidden = dnd_battle.state["units"][archers]["stands"][0]
    _hide(dnd_battle, hidden, [5, 2])
    client = client_for(player)
    mine = [p["participant"] for p in client.get(url(dnd_battle)).json()["participants"]]
    answers = [client.get(url(dnd_battle)), client.get(url(dnd_battle, "events"), {"after": 0}),
               *(client.get(url(dnd_battle, "options"), {"participant": key}) for key in mine)]
    assert len(answers) > 2 and all(answer.status_code in (200, 404) for answer in answers)
    assert all(hidden not in answer.content.decode() for answer in answers)
    for seer in (other_player, gm):
        assert hidden in client_for(seer).get(url(dnd_battle)).content.decode()


def test_a_player_cannot_declare_for_another_nor_resolve(client_for, battle, player, other_player):
    response = post(client_for(other_player), url(battle, "declare"),
                    {"participant": "side:A", "round": 1, "declaration": ATTACK})
    assert response.status_code == 400 and set(response.json()) == {"participant"}
    assert post(client_for(player), url(battle, "declare"),
                {"participant": "gm", "round": 1, "declaration": {}}).status_code == 400
    for action, data in (("resolve", {"round": 1}), ("undo", {"round": 1}), ("pause", {"paused": True})):
        assert post(client_for(player), url(battle, action), data).status_code == 403
    assert client_for(other_player).get(url(battle, "options"), {"participant": "side:A"}).status_code == 404
    assert not Battle.objects.get(pk=battle.pk).declarations.exists()


def test_the_options_are_the_room_forms(client_for, battle, gm, player):
    """What the room's form offers, option by option: the GM reads side A's as the room shows them to the GM."""
    for user in (player, gm):
        body = client_for(user).get(url(battle, "options"), {"participant": "side:A"}).json()
        viewer = selectors.viewer(user, Action.BATTLE_VIEW, battle.pk)
        form = pages.declaration_forms(viewer, {}, only="side:A")[0]["form"]
        assert [option["path"] for option in body["options"]] == list(form.fields)
        assert body["must_declare"] and body["declaration"] is None and body["round"] == 1
    post(client_for(player), url(battle, "declare"), {"participant": "side:A", "round": 1, "declaration": ATTACK})
    assert client_for(gm).get(url(battle, "options"), {"participant": "side:A"}).json()["declaration"] == ATTACK


@pytest.mark.parametrize(("data", "fields"), [
    ({}, {"participant", "round", "declaration"}),
    ({"participant": "side:A", "round": "one", "declaration": {}}, {"round"}),
    ({"participant": "side:A", "round": 1, "declaration": []}, {"declaration"}),
    ({"participant": ["side:A"], "round": 1, "declaration": {}}, {"participant"}),
    ({"participant": "side:A", "round": 2, "declaration": ATTACK}, {"round"}),
    ({"participant": "nobody", "round": 1, "declaration": {}}, {"participant"}),
    ({"participant": "side:A", "round": 1, "declaration": {"sides.A.orders.A.melee.action": "dance"}}, {"declaration"}),
    ({"participant": "side:A", "round": 1, "declaration": {"sides.B.orders.B.melee.action": "attack"}}, {"declaration"}),
])
def test_bad_declarations_answer_400_per_field(client_for, battle, player, data, fields):
    response = post(client_for(player), url(battle, "declare"), data)
    assert response.status_code == 400, response.content
    assert set(response.json()) == fields
    assert not Battle.objects.get(pk=battle.pk).declarations.exists()


def test_a_refused_value_is_refused_on_its_path(client_for, battle, player):
    response = post(client_for(player), url(battle, "declare"), {
        "participant": "side:A", "round": 1, "declaration": {"sides.A.orders.A.melee.action": "dance"}})
    assert list(response.json()["declaration"]) == ["sides.A.orders.A.melee.action"]


@pytest.mark.parametrize(("action", "data", "fields"), [
    ("resolve", {}, {"round"}),
    ("resolve", {"round": 1}, {"confirm_defaults"}),
    ("resolve", {"round": 5, "confirm_defaults": True}, {"round"}),
    ("resolve", {"round": 1, "confirm_defaults": "maybe"}, {"confirm_defaults"}),
    ("undo", {"round": 0}, {"round"}),
    ("undo", {"round": -3}, {"round"}),
    ("pause", {}, {"paused"}),
])
def test_bad_gm_requests_answer_400_per_field(client_for, battle, gm, action, data, fields):
    response = post(client_for(gm), url(battle, action), data)
    assert response.status_code == 400, response.content
    assert set(response.json()) == fields
    assert Battle.objects.get(pk=battle.pk).round == 0


def test_events_after_a_bad_number_answer_400(client_for, battle, gm):
    assert client_for(gm).get(url(battle, "events"), {"after": "x"}).status_code == 400
    assert client_for(gm).get(url(battle, "events"), {"after": -1}).status_code == 400
    assert client_for(gm).get(url(battle, "options")).status_code == 400


def test_the_same_request_twice_has_one_effect(client_for, battle, gm, player):
    declare = {"participant": "side:A", "round": 1, "declaration": ATTACK}
    for _ in range(2):
        assert post(client_for(player), url(battle, "declare"), declare).status_code == 200
    assert Battle.objects.get(pk=battle.pk).declarations.count() == 1
    for _ in range(2):
        assert post(client_for(gm), url(battle, "resolve"), {"round": 1, "confirm_defaults": True}).status_code == 200
    assert Battle.objects.get(pk=battle.pk).round == 1
    for _ in range(2):
        assert post(client_for(gm), url(battle, "pause"), {"paused": True}).status_code == 200
    assert client_for(gm).get(url(battle)).json()["status"] == "paused"
    refused = post(client_for(player), url(battle, "declare"), {**declare, "round": 2})
    assert refused.status_code == 400 and set(refused.json()) == {"non_field_errors"}
    post(client_for(gm), url(battle, "pause"), {"paused": False})
    for _ in range(2):
        assert post(client_for(gm), url(battle, "undo"), {"round": 1}).status_code == 200
    assert Battle.objects.get(pk=battle.pk).round == 0


def choose(options):
    """A bot's orders from the options: attack when it may, the first target offered."""
    chosen = {}
    for option in options:
        allowed = [value for value in option.get("allowed") or [] if value is not None]
        if option["path"].endswith(".action") and "attack" in allowed:
            chosen[option["path"]] = "attack"
        elif option["path"].endswith(".target") and allowed:
            chosen[option["path"]] = allowed[0]
    return chosen


def test_a_whole_synapse_battle_played_through_the_api(client_for, battle, gm, player, other_player):
    clients = {"gm": client_for(gm), "A": client_for(player), "B": client_for(other_player)}
    for number in range(1, 40):
        body = clients["gm"].get(url(battle)).json()
        if body["status"] != "running":
            break
        assert body["current_round"] == number
        for side, key in (("A", "side:A"), ("B", "side:B")):
            options = clients[side].get(url(battle, "options"), {"participant": key}).json()
            assert options["round"] == number
            answer = post(clients[side], url(battle, "declare"),
                          {"participant": key, "round": number, "declaration": choose(options["options"])})
            assert answer.status_code == 200, answer.content
        resolved = post(clients["gm"], url(battle, "resolve"), {"round": number, "confirm_defaults": True})
        assert resolved.status_code == 200, resolved.content
    final = Battle.objects.get(pk=battle.pk)
    assert final.status == Battle.Status.OVER and final.round == number - 1
    events = clients["gm"].get(url(battle, "events"), {"after": 0}).json()
    assert not events["reload"]
    assert [e["seq"] for e in events["events"]] == list(
        BattleEvent.objects.filter(battle=final).order_by("seq").values_list("seq", flat=True))
    kinds = [e["kind"] for e in events["events"]]
    assert kinds.count("round_resolved") == final.round and kinds[-1] == "status"
    assert [e["prev"] for e in events["events"][1:]] == [e["seq"] for e in events["events"][:-1]]
    heard_by_b = clients["B"].get(url(battle, "events"), {"after": 0}).json()["events"]
    assert {e["audience"] for e in heard_by_b} <= {"all", "side:B"}
    later = clients["B"].get(url(battle, "events"), {"after": heard_by_b[-3]["seq"]}).json()["events"]
    assert later == heard_by_b[-2:]


def test_a_jdrwiki_hero_gives_up_the_bonuses_his_moderation_allows_in_one_request(jdr_battle, client_for, gm, player):
    """The hero's form offers bonuses to give up only once a moderation is chosen (S4.10): one request with
    both is read as the room reads the form posted with both."""
    hero = jdr_battle.participants.get(kind="hero").ref
    prefix = f"corps.a1.heroes[].{hero}"
    client = client_for(player)
    sent = post(client, url(jdr_battle, "declare"), {"participant": "side:a", "round": 1,
                                                     "declaration": {"corps.a1.heroes": [{"hero_id": hero}]}})
    assert sent.status_code == 200, sent.content
    options = client.get(url(jdr_battle, "options"), {"participant": f"hero:{hero}"}).json()["options"]
    assert f"{prefix}.dropped_bonuses" not in [option["path"] for option in options]
    offered = sorted(t for t, v in jdr_battle.state["heroes"][hero]["bonuses"].items() if v > 0)
    sent = post(client, url(jdr_battle, "declare"), {"participant": f"hero:{hero}", "round": 1, "declaration": {
        f"{prefix}.moderation": 1, f"{prefix}.dropped_bonuses": offered[:2]}})
    assert sent.status_code == 200, sent.content
    too_few = post(client, url(jdr_battle, "declare"), {"participant": f"hero:{hero}", "round": 1, "declaration": {
        f"{prefix}.moderation": 1, f"{prefix}.dropped_bonuses": offered[:1]}})
    assert too_few.status_code == 400 and list(too_few.json()) == ["declaration"]
    assert post(client_for(gm), url(jdr_battle, "resolve"), {"round": 1, "confirm_defaults": True}).status_code == 200
    done = jdr_battle.rounds.get(number=1)
    assert done.declarations["corps"]["a1"]["heroes"] == [
        {"hero_id": hero, "moderation": 1, "dropped_bonuses": offered[:2]}]
