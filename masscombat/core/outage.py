"""What people see while the database is away (a restart, a failover).

Without this, a request that cannot reach the database ends in a bare server
error.  With it, pages answer 503 with a page that says to try again in a
moment and API calls answer 503 with ``{"detail": ...}``, both with
``Retry-After``.  Nothing is half-written: every write path is one
transaction, which the database rolls back when the connection drops.  The
next request after the database is back reconnects by itself (the settings'
``conn_health_checks``).
"""

import logging

from django.db import InterfaceError, OperationalError
from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

logger = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5


class DatabaseOutageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, (OperationalError, InterfaceError)):
            return None
        logger.error("database unreachable on %s %s: %s", request.method, request.path, exception)
        message = _("The server cannot reach its database right now (it is probably restarting). "
                    "Try again in a moment: nothing you saved is lost.")
        headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
        if request.path.startswith("/api/"):
            return JsonResponse({"detail": message}, status=503, headers=headers)
        # The page reads nothing from the database (no user, no messages): it must render now.
        response = render(request, "503.html", {"message": message}, status=503)
        for name, value in headers.items():
            response[name] = value
        return response
