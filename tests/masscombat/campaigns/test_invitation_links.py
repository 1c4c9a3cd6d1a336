"""The invitation's link and QR code point where a phone can go, and the page says when they cannot."""

import io

import pytest
import segno
from django.urls import reverse

from masscombat.campaigns import links, selectors

pytestmark = pytest.mark.django_db

WARNING = "a phone cannot open it"


def qr_of(text: str) -> bytes:
    svg = io.BytesIO()
    segno.make(text, error="m").save(svg, kind="svg", scale=6, border=2, dark="#1d2330", xmldecl=False)
    return svg.getvalue()


@pytest.fixture
def lan(monkeypatch):
    """This machine's addresses as ``hostname -I`` would list them."""
    def set_addresses(*addresses):
        monkeypatch.setattr(links, "host_addresses", lambda: list(addresses))
    return set_addresses


def invitation_page(client, campaign, host):
    return client.get(reverse("campaigns:invitation", args=[campaign.pk]), HTTP_HOST=host)


@pytest.mark.parametrize("host", ["localhost:8000", "127.0.0.1:8000", "[::1]:8000"])
def test_a_gm_on_loopback_hands_out_the_lan_address(client_for, gm, campaign, lan, settings, host):
    settings.ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]", "192.168.1.20"]
    lan("fe80::1", "192.168.1.20", "10.0.0.7")
    response = invitation_page(client_for(gm), campaign, host)
    code = selectors.active_invitation(campaign).code
    expected = f"http://192.168.1.20:8000/join/{code}/"
    assert response.context["link"] == expected
    assert f'value="{expected}"' in response.content.decode()
    assert WARNING not in response.content.decode()
    qr = client_for(gm).get(reverse("campaigns:invitation-qr", args=[campaign.pk]), HTTP_HOST=host)
    assert qr.content == qr_of(expected)


def test_no_lan_address_known_keeps_localhost_and_warns(client_for, gm, campaign, lan, settings):
    settings.ALLOWED_HOSTS = ["localhost", "10.0.0.7"]
    lan("192.168.1.20")  # not an allowed host: a phone would be refused there too
    response = invitation_page(client_for(gm), campaign, "localhost:8000")
    assert response.context["link"].startswith("http://localhost:8000/join/")
    page = response.content.decode()
    assert WARNING in page and 'role="alert"' in page


def test_public_url_wins_over_every_host(client_for, gm, campaign, lan, settings):
    settings.PUBLIC_URL = "https://battle.example"
    settings.ALLOWED_HOSTS = ["localhost", "192.168.1.20"]
    lan("192.168.1.20")
    response = invitation_page(client_for(gm), campaign, "localhost:8000")
    code = selectors.active_invitation(campaign).code
    assert response.context["link"] == f"https://battle.example/join/{code}/"
    assert WARNING not in response.content.decode()


def test_a_gm_on_the_network_address_keeps_it(client_for, gm, campaign, lan, settings):
    settings.ALLOWED_HOSTS = ["battle.lan", "192.168.1.20"]
    lan("192.168.1.20")
    response = invitation_page(client_for(gm), campaign, "battle.lan:8000")
    assert response.context["link"].startswith("http://battle.lan:8000/join/")


def test_default_ports_are_not_written(rf, lan, settings):
    settings.ALLOWED_HOSTS = ["localhost", "192.168.1.20"]
    lan("192.168.1.20")
    request = rf.get("/", HTTP_HOST="localhost")
    assert links.join_base(request) == links.JoinBase("http://192.168.1.20", True)


def test_copy_share_and_revoke_confirmation_are_on_the_page(client_for, gm, campaign):
    page = client_for(gm).get(reverse("campaigns:invitation", args=[campaign.pk])).content.decode()
    assert "data-copy hidden" in page and "data-share hidden" in page  # shown by share-link.js only
    revoke = page.split(reverse("campaigns:invitation-revoke", args=[campaign.pk]))[1].split("</form>")[0]
    assert "data-confirm=" in revoke and 'name="confirm" required' in revoke


@pytest.mark.parametrize("public_url", ["http://localhost:8000", "http://127.0.0.1", "http://[::1]:8000"])
def test_a_public_url_naming_this_machine_is_warned_about(client_for, gm, campaign, lan, settings, caplog, public_url):
    """PUBLIC_URL set to a loopback address by mistake: the link keeps it, as configured, but the page says
    a phone cannot open it, and the server's log says why."""
    settings.PUBLIC_URL = public_url
    settings.ALLOWED_HOSTS = ["localhost", "192.168.1.20"]
    lan("192.168.1.20")
    response = invitation_page(client_for(gm), campaign, "192.168.1.20:8000")
    assert response.context["link"].startswith(public_url + "/join/")
    assert WARNING in response.content.decode()
    assert any("PUBLIC_URL" in record.getMessage() for record in caplog.records)
    assert not links.loopback("battle.example") and not links.loopback("192.168.1.20")
