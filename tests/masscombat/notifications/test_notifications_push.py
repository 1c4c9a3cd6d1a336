"""Web Push: a browser's subscription is stored for its user, and messages reach a push service encrypted for it.

The push service is a local HTTP server; the test holds the subscription's
private key and auth secret, as the browser would, and decrypts what arrived.
"""

import base64
import json
import os

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.test import Client
from django.urls import reverse

from masscombat.battles import services
from masscombat.notifications import vapid
from masscombat.notifications.models import PushSubscription

pytestmark = pytest.mark.django_db
URL = "/accounts/notifications/subscription/"


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Browser:
    """What a browser keeps for a push subscription: its key pair and auth secret."""

    def __init__(self, endpoint: str):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = endpoint

    def subscription(self) -> dict:
        public = self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "expirationTime": None, "keys": {"p256dh": b64(public), "auth": b64(self.auth)}}

    def read(self, body: bytes) -> dict:
        return json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"))


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def signed_by_server(token: str) -> dict:
    """The VAPID token's claims, once its ES256 signature checks against the server's public key."""
    signing_input, signature = token.rsplit(".", 1)
    raw = unb64(signature)
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(vapid.key().public_key))
    public.verify(encode_dss_signature(int.from_bytes(raw[:32]), int.from_bytes(raw[32:])),
                  signing_input.encode(), ec.ECDSA(hashes.SHA256()))  # raises InvalidSignature otherwise
    return json.loads(unb64(signing_input.split(".")[1]))


def subscribe(client, browser: Browser):
    return client.post(URL, json.dumps(browser.subscription()), content_type="application/json")


def test_the_url_is_the_one_named():
    assert reverse("notifications:subscription") == URL


def test_a_subscription_is_stored_per_user_with_several_devices(client_for, player):
    client = client_for(player)
    phone, laptop = Browser("https://push.example/phone"), Browser("https://push.example/laptop")
    assert subscribe(client, phone).status_code == 201
    assert subscribe(client, laptop).status_code == 201
    assert subscribe(client, phone).status_code == 201  # subscribing again keeps one row
    stored = PushSubscription.objects.filter(user=player).order_by("endpoint")
    assert [s.endpoint for s in stored] == [laptop.endpoint, phone.endpoint]
    assert stored[1].info() == {"endpoint": phone.endpoint, "keys": phone.subscription()["keys"]}


@pytest.mark.parametrize("body", [b"not json", b"[]", b'{"endpoint": "ftp://x", "keys": {"p256dh": "a", "auth": "b"}}',
                                  b'{"endpoint": "https://push.example/x", "keys": {"p256dh": "a b", "auth": ""}}',
                                  b'{"endpoint": "https://push.example/x", "keys": "nope"}'])
def test_a_bad_subscription_is_a_400_naming_what_is_wrong(client_for, player, body):
    response = client_for(player).post(URL, body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["errors"]
    assert not PushSubscription.objects.exists()


def test_outside_development_a_push_service_is_https_only(client_for, player, settings):
    settings.ANY_WEBHOOK_URL = False
    response = subscribe(client_for(player), Browser("http://10.0.0.1/push"))
    assert response.status_code == 400 and list(response.json()["errors"]) == ["endpoint"]
    assert subscribe(client_for(player), Browser("https://push.example/a")).status_code == 201


def test_the_subscription_endpoint_needs_the_csrf_token(player):
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    assert subscribe(client, Browser("https://push.example/a")).status_code == 403
    client.get(reverse("notifications:settings"))  # the page sets the CSRF cookie
    token = client.cookies["csrftoken"].value
    response = client.post(URL, json.dumps(Browser("https://push.example/a").subscription()),
                           content_type="application/json", headers={"X-CSRFToken": token})
    assert response.status_code == 201


def test_a_user_forgets_only_their_own_devices(client_for, player, other_player):
    mine, theirs = Browser("https://push.example/mine"), Browser("https://push.example/theirs")
    subscribe(client_for(player), mine)
    subscribe(client_for(other_player), theirs)
    client = client_for(player)
    assert client.delete(URL, json.dumps({"endpoint": theirs.endpoint}), content_type="application/json").status_code == 204
    other = PushSubscription.objects.get(endpoint=theirs.endpoint)
    assert client.post(reverse("notifications:forget-device", args=[other.pk])).status_code == 404
    assert PushSubscription.objects.filter(user=other_player).count() == 1
    own = PushSubscription.objects.get(endpoint=mine.endpoint)
    assert client.post(reverse("notifications:forget-device", args=[own.pk])).status_code == 302
    client_for(other_player).delete(URL, json.dumps({"endpoint": theirs.endpoint}), content_type="application/json")
    assert not PushSubscription.objects.exists()


def test_the_settings_page_gives_the_vapid_public_key_made_once(client_for, player):
    page = client_for(player).get(reverse("notifications:settings")).content.decode()
    key = vapid.key()
    assert f'data-public-key="{key.public_key}"' in page
    assert vapid.key().pk == key.pk  # kept, never made again
    point = unb64(key.public_key)
    assert len(point) == 65 and point[0] == 4  # an uncompressed P-256 point, as applicationServerKey wants


def test_a_round_resolved_reaches_the_players_device_encrypted(sink, client_for, battle, gm, player, other_player,
                                                               django_capture_on_commit_callbacks):
    phone = Browser(sink.url + "/push/phone")
    subscribe(client_for(player), phone)
    with django_capture_on_commit_callbacks(execute=True):
        services.resolve_round(gm, battle.pk, expected_round=1)
    to_phone = [r for r in sink.received if r["path"] == "/push/phone"]
    messages = [phone.read(r["body"]) for r in to_phone]
    assert messages[0] == {"title": "Bataille du col: round 1 resolved", "body": "The report of round 1 is ready.",
                           "url": f"https://battle.example/battles/{battle.pk}/#battle-rounds",
                           "tag": f"battle-{battle.pk}-report"}
    assert messages[1]["title"] == "Bataille du col: your turn" and messages[1]["body"].startswith("Round 2 ")
    assert len(messages) == 2
    headers = to_phone[0]["headers"]
    assert headers["content-encoding"] == "aes128gcm"
    assert headers["crypto-key"] == f"p256ecdsa={vapid.key().public_key}"
    claims = signed_by_server(headers["authorization"].removeprefix("WebPush "))
    assert claims["aud"] == sink.url and claims["sub"] == "mailto:masscombat@localhost"


def test_a_subscription_the_push_service_forgot_is_deleted(sink, client_for, battle, gm, player,
                                                          django_capture_on_commit_callbacks):
    subscribe(client_for(player), Browser(sink.url + "/push/gone"))
    sink.status = 410
    with django_capture_on_commit_callbacks(execute=True):
        services.resolve_round(gm, battle.pk, expected_round=1)
    assert sink.received and not PushSubscription.objects.exists()
