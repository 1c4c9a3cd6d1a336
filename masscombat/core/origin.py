"""Which pages may open a websocket: those of this site, whatever ``ALLOWED_HOSTS`` says.

Channels' ``AllowedHostsOriginValidator`` takes ``*`` in ``ALLOWED_HOSTS`` to
accept any Origin, and none: a page on any site could then open a websocket
with the visitor's session cookie and listen to their campaign.  Here an
Origin is always required, and it must be one of the listed hosts or the very
host the connection was made to (its ``Host`` header, itself allowed), which
is what a page of this site sends, however the app is reached.
"""

from __future__ import annotations

from urllib.parse import urlparse

from channels.security.websocket import OriginValidator, WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin1")
    return None


class SameSiteOriginValidator(OriginValidator):
    def __init__(self, application):
        super().__init__(application, [host for host in settings.ALLOWED_HOSTS if host != "*"])

    async def __call__(self, scope, receive, send):
        if self.accepts(_header(scope, b"origin"), _header(scope, b"host")):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)

    def accepts(self, origin: str | None, host: str | None) -> bool:
        """An Origin naming a listed host, or the allowed host the connection was made to."""
        parsed = urlparse(origin) if origin else None
        if parsed is None or not parsed.hostname:
            return False
        if any(self.match_allowed_origin(parsed, pattern) for pattern in self.allowed_origins):
            return True
        if not host or parsed.netloc.lower() != host.lower():
            return False
        domain, _port = split_domain_port(host)
        return bool(domain) and validate_host(domain, settings.ALLOWED_HOSTS)
