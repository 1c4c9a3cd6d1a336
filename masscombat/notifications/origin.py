"""The address links in notifications start with: one a phone, a mail reader or Discord can open.

A notification is read on another device, so ``localhost`` in its link opens
nothing.  The address is, in this order:

1. ``PUBLIC_URL`` when set;
2. the origin of the request that made the change (noted by
   :class:`masscombat.notifications.middleware.NotificationsMiddleware` in a
   context variable, carried into the job by :mod:`dispatch`);
3. for a job with no request (a round resolved at its deadline, a reminder),
   the address a request of the battle's campaign last came in by
   (:class:`CampaignOrigin`, noted by :func:`remember`);
4. this machine's address on the local network, as ``bin/run`` prints it
   (:func:`masscombat.campaigns.links.lan_address`), on the port known (that
   of the origin, else ``bin/run``'s ``PORT``); else the machine's host name.

A loopback origin (a GM browsing on the server itself) is never used as it
is: its host becomes the network address, as the invitation links do.
"""

from __future__ import annotations

import os
import socket
from contextlib import contextmanager
from contextvars import ContextVar
from urllib.parse import urlsplit

from django.conf import settings

from masscombat.campaigns.links import lan_address
from masscombat.core.hosts import LOOPBACK
from masscombat.notifications.models import CampaignOrigin

current: ContextVar[str] = ContextVar("notifications_origin", default="")


def loopback(url: str) -> bool:
    host = (urlsplit(url).hostname or "").lower()
    return host in LOOPBACK or f"[{host}]" in LOOPBACK or host.startswith("127.") or host.endswith(".localhost")


def reachable(url: str) -> str:
    """``url`` when another device can open it, else the same scheme and port on this machine's network address."""
    if url and not loopback(url):
        return url
    parts = urlsplit(url) if url else None
    port = parts.port if parts is not None else int(os.environ.get("PORT") or 8000)
    host = lan_address() or socket.gethostname()
    return f"{parts.scheme if parts is not None else 'http'}://{host}" + (f":{port}" if port else "")


def base() -> str:
    return settings.PUBLIC_URL or reachable(current.get())


def absolute(path: str) -> str:
    return base() + path


def remember(campaign_id: int) -> None:
    """Note the current request's origin as the campaign's address (a write only when it changed)."""
    url = current.get()
    if not url or settings.PUBLIC_URL:
        return
    if not CampaignOrigin.objects.filter(campaign_id=campaign_id, url=url).exists():
        CampaignOrigin.objects.update_or_create(campaign_id=campaign_id, defaults={"url": url})


@contextmanager
def of_campaign(campaign_id: int):
    """Links built in this block start at the campaign's last address when no request gives one."""
    if current.get() or settings.PUBLIC_URL:
        yield
        return
    url = CampaignOrigin.objects.filter(campaign_id=campaign_id).values_list("url", flat=True).first()
    token = current.set(url or "")
    try:
        yield
    finally:
        current.reset(token)
