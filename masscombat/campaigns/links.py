"""The address an invitation link is built on: one a player's phone can open.

The GM's browser may be on ``localhost`` while the players' phones are on the
Wi-Fi: a link naming ``localhost`` would open nothing on them.  So the link
goes, in this order, to ``PUBLIC_URL`` when set, to the host the GM's browser
named when it is not a loopback one, or else to this machine's first address
on the local network (the ones ``hostname -I`` lists, as ``bin/run`` prints
them) that ``ALLOWED_HOSTS`` accepts, on the port the GM's browser named.  When none is
known the link is the loopback one, and :class:`JoinBase` says a phone will
not open it, so the page can warn.  A ``PUBLIC_URL`` that names a loopback
address (``http://localhost:8000``, set by mistake) still wins, as configured,
but is warned about the same way, on the page and in the server's log.
"""

from __future__ import annotations

import ipaddress
import logging
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.http.request import split_domain_port, validate_host

from masscombat.core.hosts import LOOPBACK, host_addresses

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class JoinBase:
    url: str  # scheme://host[:port], no trailing slash
    phone_ready: bool  # False: a loopback address, which no other device can open
    configured: bool = False  # the address is PUBLIC_URL's


def loopback(host: str) -> bool:
    """Whether ``host`` (a domain, an IPv4 or an IPv6 address, bracketed or not) names this machine only."""
    if host.lower() in LOOPBACK or f"[{host.lower()}]" in LOOPBACK:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a domain name other than localhost


def lan_address() -> str | None:
    """The first IPv4 address of this machine on a network that ``ALLOWED_HOSTS`` lets through."""
    for address in host_addresses():
        if ":" not in address and validate_host(address, settings.ALLOWED_HOSTS):
            return address
    return None


def join_base(request) -> JoinBase:
    """Where to send phones: see the module's docstring for the order."""
    if settings.PUBLIC_URL:
        host = urlsplit(settings.PUBLIC_URL).hostname or ""
        if loopback(host):
            logger.warning("PUBLIC_URL %s names this machine only: phones cannot open the links built on it",
                           settings.PUBLIC_URL)
        return JoinBase(settings.PUBLIC_URL, not loopback(host), configured=True)
    own = f"{request.scheme}://{request.get_host()}"
    domain, port = split_domain_port(request.get_host())
    if not loopback(domain):
        return JoinBase(own, True)
    address = lan_address()
    if address is None:
        return JoinBase(own, False)
    return JoinBase(f"{request.scheme}://{address}" + (f":{port}" if port else ""), True)


def join_link(request, invitation) -> tuple[str, bool]:
    """The invitation's full link, and whether a phone can open it."""
    base = join_base(request)
    return base.url + invitation.get_absolute_url(), base.phone_ready
