"""The API's password checks at the site's log-in rate.

DRF's ``ObtainAuthToken`` switches throttling off (``throttle_classes = ()``),
so a token request could try passwords without end.  This throttle counts
each one on the same counters as the web and admin log-in forms
(:func:`masscombat.core.security.credentials_refused`).
"""

from rest_framework.throttling import BaseThrottle

from masscombat.core.security import credentials_refused, retry_after


class CredentialThrottle(BaseThrottle):
    """Per user name and per address; 429 with ``Retry-After`` past the ``login`` rate."""

    def allow_request(self, request, view) -> bool:
        data = request.data
        username = data.get("username", "") if hasattr(data, "get") else ""
        return not credentials_refused(request, username if isinstance(username, str) else "")

    def wait(self) -> int:
        return retry_after("login")
