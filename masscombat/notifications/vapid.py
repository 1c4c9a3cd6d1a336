"""The server's VAPID key pair: made once, kept in the database, never in the code or the repository.

Push services accept a message only when it is signed with the key whose
public half the browser was given when it subscribed; a new key would
silently orphan every subscription, so the first row is kept for good.
"""

from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.db import transaction
from py_vapid import Vapid01
from py_vapid.utils import b64urlencode

from masscombat.notifications.models import VapidKey


def key() -> VapidKey:
    """The key pair, created the first time it is asked for (two processes racing keep the first one)."""
    found = VapidKey.objects.order_by("pk").first()
    if found is not None:
        return found
    vapid = Vapid01()
    vapid.generate_keys()
    public = vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    with transaction.atomic():
        VapidKey.objects.create(private_pem=vapid.private_pem().decode(), public_key=b64urlencode(public))
    return VapidKey.objects.order_by("pk").first()


def signer() -> Vapid01:
    return Vapid01.from_pem(key().private_pem.encode())
