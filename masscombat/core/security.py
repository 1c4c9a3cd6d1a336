"""Security pieces that are not permissions: the content security policy and rate limits.

The content security policy tells the browser to run only scripts and styles
served by this site: an HTML payload that slipped past escaping still cannot
run.  Pages therefore carry no inline scripts, inline styles or ``on*``
attributes (htmx is told not to inject its indicator style, see base.html).
The third-party API documentation pages (Swagger UI, Redoc) are built on
inline code and get a looser policy of their own.

Rate limits count attempts per caller in the cache, which is Redis when
``REDIS_URL`` is set (shared by every server process) and local memory
otherwise.  They slow down the guessing of passwords and join codes, and the
creation of accounts in bulk; the rates come from
``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` so the web forms and the API
answer to the same numbers (``signup`` is counted by the web form only).
Every place that checks a password (the API token, the web and admin log-in
forms) asks :func:`credentials_refused`: one counter per user name and one per
address, whichever door the guesses come through.  A form refused for the rate
marks its request (:func:`refuse_for_rate`) and
:class:`RateLimitAnswerMiddleware` turns the page into a 429 with
``Retry-After``, the form and its message still on it.
"""

from __future__ import annotations

import logging
import math
import time

from django.conf import settings
from django.core.cache import cache
from rest_framework.throttling import SimpleRateThrottle

logger = logging.getLogger(__name__)

POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "font-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
    # The service worker (/sw.js) and the web app manifest (masscombat.core.pwa), both from this site.
    "worker-src": "'self'",
    "manifest-src": "'self'",
}
# Swagger UI and Redoc (vendored by drf-spectacular's sidecar) need inline code and workers.
DOCS_POLICY = {
    **POLICY,
    "script-src": "'self' 'unsafe-inline'",
    "style-src": "'self' 'unsafe-inline' https://fonts.googleapis.com",
    "font-src": "'self' https://fonts.gstatic.com",
    "worker-src": "'self' blob:",
}
DOCS_VIEWS = frozenset({"api:docs", "api:redoc"})


def content_security_policy(request) -> str:
    """The policy of one response; websockets go to the host the page came from."""
    match = getattr(request, "resolver_match", None)
    policy = dict(DOCS_POLICY if match and match.view_name in DOCS_VIEWS else POLICY)
    host = request.get_host()
    policy["connect-src"] = f"'self' ws://{host} wss://{host}"
    return "; ".join(f"{name} {value}" for name, value in policy.items())


class ContentSecurityPolicyMiddleware:
    """Adds the ``Content-Security-Policy`` header to every HTML response."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if "Content-Security-Policy" not in response and response.get("Content-Type", "").startswith("text/html"):
            response["Content-Security-Policy"] = content_security_policy(request)
        return response


def client_ip(request) -> str:
    """The caller's address, as the trusted proxies in front of us saw it.

    Each proxy appends the address it received the request from to
    ``X-Forwarded-For``; whatever the client wrote itself is on the left of
    those.  So the client is ``TRUSTED_PROXY_COUNT`` entries from the right
    (Django REST framework's ``NUM_PROXIES`` reads it the same way), never the
    leftmost entry, which the client chooses.
    """
    proxies = settings.TRUSTED_PROXY_COUNT
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if proxies > 0 and forwarded:
        hops = [hop.strip() for hop in forwarded.split(",")]
        return hops[-min(proxies, len(hops))]
    return request.META.get("REMOTE_ADDR", "")


def rate(scope: str) -> tuple[int, int]:
    """(attempts, seconds) of a throttle scope, parsed as Django REST framework does."""
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    # parse_rate reads nothing from its instance: called unbound, without a throttle's set-up.
    return SimpleRateThrottle.parse_rate(None, rates[scope])


def retry_after(scope: str) -> int:
    """Seconds until the counting window of ``scope`` ends: when a refused caller is counted afresh."""
    _num, duration = rate(scope)
    return max(1, math.ceil(duration - time.time() % duration))


def over_limit(scope: str, *idents: str) -> bool:
    """Count one attempt for each identity (an address, a user name); True once any is past its rate.

    A fixed window per identity: ``add`` then ``incr`` are atomic in both
    caches.  When the cache is unreachable (Redis restarting) the attempt is
    let through and logged: a short outage of the counters must not lock
    every player out of the table.
    """
    num, duration = rate(scope)
    window = int(time.time() // duration)
    exceeded = False
    for ident in idents:
        key = f"ratelimit:{scope}:{window}:{ident}"
        try:
            cache.add(key, 0, timeout=duration)
            count = cache.incr(key)
        except Exception:  # noqa: BLE001 - any cache failure: fail open, loudly
            logger.warning("rate limit %s not counted: the cache is unreachable", scope, exc_info=True)
            return False
        exceeded = exceeded or count > num
    return exceeded


def credentials_refused(request, username: str) -> bool:
    """Count one password check for ``username`` from this caller; True once past the ``login`` rate.

    Counted per address and per user name, so that neither one address trying
    many accounts nor many addresses trying one account get far.
    """
    return over_limit("login", f"ip:{client_ip(request)}", f"user:{str(username or '').lower()}")


def refuse_for_rate(request, scope: str) -> None:
    """Mark a page refused for ``scope``'s rate: :class:`RateLimitAnswerMiddleware` answers it 429.

    Set on Django's request even when given REST framework's, which reads through to it.
    """
    getattr(request, "_request", request).refused_for_rate = scope


class RateLimitAnswerMiddleware:
    """Gives a page refused for a rate limit (see :func:`refuse_for_rate`) its 429 and ``Retry-After``.

    Django's log-in views (the site's and the admin's) render their form's
    errors with 200; the form knows it refused for the rate, the view does not.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        scope = getattr(request, "refused_for_rate", None)
        if scope and response.status_code == 200:
            response.status_code = 429
            response["Retry-After"] = str(retry_after(scope))
        return response
