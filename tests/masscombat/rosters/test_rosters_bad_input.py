"""Bad input never crashes and never corrupts: garbage in every field of every ruleset's editor and API."""

import copy
import random

import pytest
from rest_framework.test import APIClient

from masscombat.rosters import adapters, examples, services

pytestmark = pytest.mark.django_db

GARBAGE = ["", "abc", "-99999999999", "1e400", "NaN", "0x1F", "<script>alert(1)</script>", "12.5", "true", "{]"]


@pytest.mark.parametrize("slug", list(examples.ARMIES))
@pytest.mark.parametrize("entity", ["army", "hero"])
def test_garbage_in_the_editor_is_refused_or_saved_valid_never_a_crash(slug, entity, campaign_for, gm, client_for,
                                                                       scrape, to_post):
    campaign = campaign_for(slug)
    catalogue = examples.ARMIES if entity == "army" else examples.HEROES
    name, data = next(iter(catalogue[slug].items()))
    create = services.create_army if entity == "army" else services.create_hero
    item = create(campaign, name=name, user=gm, data=copy.deepcopy(data))
    client = client_for(gm)
    url = f"{item.get_absolute_url()}edit/"
    fields = [(n, v) for n, v in scrape(client.get(url).content) if not n.startswith(("meta-", "csrf", "_"))]
    chance = random.Random(f"{slug}-{entity}")
    for round_ in range(6):
        spoiled = [(n, chance.choice(GARBAGE) if chance.random() < 0.4 else v) for n, v in fields]
        spoiled += [("_version", str(item.version))]
        preview = client.post(f"{item.get_absolute_url()}preview/", to_post(spoiled))
        assert preview.status_code == 200
        response = client.post(url, to_post(spoiled))
        assert response.status_code in (200, 302), (round_, response.status_code)
        assert "<script>alert(1)</script>" not in response.content.decode()
        item.refresh_from_db()
        # Whatever was saved, the engine accepts it.
        getattr(adapters.get(slug), entity).validate(slug, item.data)


@pytest.mark.parametrize("payload", [
    {"name": "X", "data": "not an object"},
    {"name": "X", "data": [1, 2]},
    {"name": "X", "data": {"units": "many"}},
    {"name": "", "data": {}},
    {"name": "X" * 500},
    {"name": "X", "commander": 99999},
])
def test_garbage_through_the_api_is_a_400(campaign_for, gm, payload):
    campaign = campaign_for("synapse")
    client = APIClient()
    client.force_authenticate(gm)
    response = client.post(f"/api/campaigns/{campaign.pk}/armies/", payload, format="json")
    assert response.status_code == 400, response.content
    assert campaign.armies.count() == 0


DEEP = "[" * 5000 + "]" * 5000  # Python's decoder would recurse past its limit: a 500 without jsonsafe


@pytest.mark.parametrize("where", ["text", "file"])
def test_deeply_nested_json_to_import_is_a_message_on_its_field(campaign_for, gm, client_for, where):
    from django.core.files.uploadedfile import SimpleUploadedFile

    campaign = campaign_for("synapse")
    body = {"name": "Profonde", "text": DEEP} if where == "text" else {
        "name": "Profonde", "file": SimpleUploadedFile("deep.json", DEEP.encode(), "application/json")}
    response = client_for(gm).post(f"/campaigns/{campaign.pk}/armies/new/?import", body)
    assert response.status_code == 200
    page = response.content.decode()
    assert "nested too deeply" in page and campaign.armies.count() == 0


def test_deeply_nested_json_in_an_editor_field_is_read_as_text_not_a_crash():
    """A field whose shape the form cannot draw is a JSON text box; nesting too deep is read back as the text,
    for the engine to refuse on its path, never a RecursionError."""
    from django.http import QueryDict

    from masscombat.rosters import schema_forms

    schema = {"type": "object", "properties": {"extra": {"type": "array", "items": {"type": "array"}}}}
    assert schema_forms.build("synapse", schema, {}).children[0].kind == "json"
    post = QueryDict(mutable=True)
    post["extra"] = DEEP
    assert schema_forms.read(schema, post) == {"extra": DEEP}


def test_the_import_limit_fits_in_a_request_and_the_page_says_it(campaign_for, gm, client_for, settings):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from masscombat.rosters.forms import max_import_bytes

    settings.MAX_REQUEST_BYTES = 64 * 1024
    assert max_import_bytes() < settings.MAX_REQUEST_BYTES
    campaign = campaign_for("synapse")
    client = client_for(gm)
    page = client.get(f"/campaigns/{campaign.pk}/armies/new/?import").content.decode()
    assert f'data-max-bytes="{max_import_bytes()}"' in page and "48.0\xa0KB at most" in page
    big = SimpleUploadedFile("big.json", b" " * (max_import_bytes() + 1) + b"{}", "application/json")
    response = client.post(f"/campaigns/{campaign.pk}/armies/new/?import", {"name": "Grosse", "file": big})
    assert response.status_code == 200 and "This file is too large (48.0\xa0KB at most)." in response.content.decode()
    assert campaign.armies.count() == 0
