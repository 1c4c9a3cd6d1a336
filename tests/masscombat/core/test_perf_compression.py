"""Pages leave gzipped to browsers that accept it (issue #20: a D&D 5e round's reloads weighed ~67 KB per
client); static files are answered by WhiteNoise before compression, from their copies compressed once."""

import gzip

import pytest

pytestmark = pytest.mark.django_db


def test_a_page_is_gzipped_for_a_browser_that_accepts_it(campaign, gm, client_for):
    client = client_for(gm)
    plain = client.get(campaign.get_absolute_url())
    packed = client.get(campaign.get_absolute_url(), HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert plain.status_code == packed.status_code == 200
    assert "Content-Encoding" not in plain and packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    page = gzip.decompress(packed.content).decode()
    assert campaign.name in page and len(packed.content) * 3 < len(plain.content)


def test_csrf_tokens_differ_per_compressed_response(campaign, gm, client_for):
    """BREACH needs a secret repeated identically across responses: the masked token never is."""
    client = client_for(gm)
    tokens = set()
    for _ in range(2):
        page = gzip.decompress(client.get("/accounts/profile/", HTTP_ACCEPT_ENCODING="gzip").content).decode()
        tokens.add(page.split('name="csrfmiddlewaretoken" value="', 1)[1].split('"', 1)[0])
    assert len(tokens) == 2


def test_static_files_are_not_compressed_again_per_request(client):
    response = client.get("/static/js/countdown.js", HTTP_ACCEPT_ENCODING="gzip")
    assert response.status_code == 200 and "Content-Encoding" not in response
