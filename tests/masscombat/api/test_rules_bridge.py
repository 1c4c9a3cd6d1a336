"""The bridge to the rules engines, against a fake ruleset registered for the test."""

import json
from typing import Annotated

import pytest
from pydantic import Field

from rules import registry
from rules.dice import D6
from rules.model import Input
from rules.registry import Context, Ruleset

pytestmark = pytest.mark.django_db

fake = Ruleset("fake", {"en": "Fake — mass combat", "fr": "Factice — combat de masse"})


class Volley(Input):
    archers: Annotated[int, Field(ge=1, le=100)]


@fake.operation("volley", Volley, summary="One d6 per ten archers.", rolls=True)
def volley(data: Volley, ctx: Context) -> dict:
    hits = [ctx.dice.roll(f"arrow{i}", D6) for i in range(max(1, data.archers // 10))]
    ctx.log.add("F1", "fake.volley", "{n} hits.", n=sum(hits))
    return {"hits": sum(hits)}


@pytest.fixture(autouse=True)
def only_the_fake(monkeypatch):
    monkeypatch.setattr(registry, "_discover", lambda: {"fake": fake})


@pytest.fixture
def api(client_for, player):
    return client_for(player)


def post(client, path, body: str):
    return client.post(path, body, content_type="application/json")


def test_lists_registered_rulesets_in_the_callers_language(api):
    response = api.get("/api/rules/", HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 200
    assert response.json() == [
        {"slug": "fake", "name": "Factice — combat de masse", "names": fake.names, "operations": ["volley"]}
    ]


def test_describes_operations_with_input_schema(api):
    body = api.get("/api/rules/fake/ops/").json()
    schema = body["operations"]["volley"]["input_schema"]
    assert schema["properties"]["archers"]["maximum"] == 100
    assert "seed" in schema["properties"] and "dice" in schema["properties"]


def test_unknown_ruleset_and_operation_are_404(api):
    assert api.get("/api/rules/nope/ops/").status_code == 404
    assert post(api, "/api/rules/nope/volley/", "{}").status_code == 404
    response = post(api, "/api/rules/fake/charge/", "{}")
    assert response.status_code == 404
    assert set(response.json()) == {"error", "fields"}


def test_runs_an_operation_reproducibly_with_a_seed(api):
    first = post(api, "/api/rules/fake/volley/", json.dumps({"archers": 30, "seed": 7}))
    again = post(api, "/api/rules/fake/volley/", json.dumps({"archers": 30, "seed": 7}))
    assert first.status_code == 200
    assert first.json() == again.json()
    assert set(first.json()) == {"hits", "dice", "log"}


def test_given_dice_are_used(api):
    dice = {"arrow0": 6, "arrow1": 6}
    body = post(api, "/api/rules/fake/volley/", json.dumps({"archers": 20, "dice": dice})).json()
    assert body["hits"] == 12 and body["dice"] == dice


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ("{}", "archers"),
        ('{"archers": 0}', "archers"),
        ('{"archers": "ten"}', "archers"),
        ('{"archers": 10.0}', "archers"),
        ('{"archers": 10, "seed": "x"}', "seed"),
        ('{"archers": 10, "dice": {"arrow0": 7}}', None),
        ("[1, 2]", ""),
        ("not json", ""),
        ('{"archers": NaN}', ""),
        ("", ""),
        ("[" * 200 + "]" * 200, ""),
    ],
)
def test_invalid_input_is_400_with_error_and_fields(api, body, field):
    response = post(api, "/api/rules/fake/volley/", body)
    assert response.status_code == 400
    payload = response.json()
    assert set(payload) == {"error", "fields"}
    assert payload["error"]
    if field is not None:
        assert field in payload["fields"]


def test_non_utf8_body_is_400(api):
    response = api.post("/api/rules/fake/volley/", b"\xff\xfe", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["fields"] == {"": "not valid JSON"}


def test_real_registry_is_read_at_request_time(api, monkeypatch):
    """An engine that lands later shows up without restarting anything."""
    monkeypatch.setattr(registry, "_discover", lambda: {})
    assert api.get("/api/rules/").json() == []
    monkeypatch.setattr(registry, "_discover", lambda: {"fake": fake})
    assert [r["slug"] for r in api.get("/api/rules/").json()] == ["fake"]


class TestTheRealRegistry:
    """Whatever engines have landed in ``rules/`` are served, each operation with its schema."""

    @pytest.fixture(autouse=True)
    def only_the_fake(self):
        """The real registry this time (overrides the module's fake)."""

    def test_every_registered_ruleset_is_listed_and_described(self, api):
        listed = {entry["slug"]: entry for entry in api.get("/api/rules/").json()}
        assert set(listed) == {ruleset.slug for ruleset in registry.rulesets()}
        for ruleset in registry.rulesets():
            assert listed[ruleset.slug]["operations"] == sorted(ruleset.operations)
            described = api.get(f"/api/rules/{ruleset.slug}/ops/").json()
            assert described == json.loads(json.dumps(ruleset.describe()))

    def test_every_registered_ruleset_is_a_campaign_choice(self):
        from masscombat.campaigns.rulesets import Ruleset

        assert {ruleset.slug for ruleset in registry.rulesets()} <= set(Ruleset.values)
