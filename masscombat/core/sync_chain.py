"""Django's ASGI handler with the middleware chain run synchronously: one thread hop per request.

Every middleware of ``settings.MIDDLEWARE`` and every view of this app is
synchronous.  Django's own ASGI handler builds the chain for an event loop
nonetheless: it wraps the chain in ``sync_to_async``, then the innermost
sync-only middleware's handler back in ``async_to_sync`` to reach its async
view caller, which runs each ``process_view`` and the view through
``sync_to_async`` again; a both-capable middleware (``MiddlewareMixin``)
placed below that point would hop at each of its hooks.  Each hop is a
thread switch and a future; under a wave of part requests they added up
(issue #20's profile).

:class:`SyncChainASGIHandler` loads the chain as the WSGI handler does
(``load_middleware(is_async=False)``) and calls it once per request in the
request's thread (``sync_to_async``, thread-sensitive, inside Django's
per-request context): the middleware, the view and the template rendering
run in one thread, the event loop only reads the request and writes the
response.  A middleware that can only run asynchronously cannot be in this
chain (Django would adapt it): ``tests/masscombat/core/test_perf_middleware_chain.py``
keeps every one synchronous.
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.core.handlers import base
from django.core.handlers.asgi import ASGIHandler


class SyncChainASGIHandler(ASGIHandler):
    """ASGI for HTTP, with the synchronous middleware chain and view run in one thread per request."""

    def __init__(self):
        base.BaseHandler.__init__(self)
        self.load_middleware(is_async=False)

    async def get_response_async(self, request):
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)
