"""Size limits in front of the whole app, at the ASGI level: request bodies and websocket messages.

Django caps form data (``DATA_UPLOAD_MAX_MEMORY_SIZE``) but reads any other
body whole, so one anonymous request could make a server process hold
hundreds of megabytes.  :class:`BodySizeLimit` refuses a body larger than
``MAX_REQUEST_BYTES`` with 413: by its ``Content-Length`` before the app reads
a byte, and a body without one (chunked, streamed) as soon as the bytes
received pass the limit, the app being told the client went away.
:class:`WebsocketMessageLimit` closes a websocket (1009, "message too big")
that sends a message larger than ``WEBSOCKET_MAX_MESSAGE_BYTES``.
"""

from __future__ import annotations

from django.conf import settings


def _declared_length(scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def _too_large(send, limit: int) -> None:
    body = f"Request body too large: at most {limit} bytes.\n".encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode()), (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


class _Guard:
    """ASGI middleware that checks one kind of connection (``kind``, in ``guard``) and lets the others through."""

    kind = ""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != self.kind:
            return await self.app(scope, receive, send)
        return await self.guard(scope, receive, send)


class BodySizeLimit(_Guard):
    """ASGI middleware for HTTP: 413 for a body past ``MAX_REQUEST_BYTES`` (read at each request)."""

    kind = "http"

    async def guard(self, scope, receive, send):
        limit = settings.MAX_REQUEST_BYTES
        declared = _declared_length(scope)
        if declared is not None and declared > limit:
            return await _too_large(send, limit)
        received = 0
        refused = started = False

        async def counted_receive():
            nonlocal received, refused
            message = await receive()
            if message["type"] == "http.request" and not refused:
                received += len(message.get("body", b""))
                if received > limit:
                    refused = True
                    if not started:
                        await _too_large(send, limit)
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message):
            nonlocal started
            if refused:
                return  # the 413 is the answer: the app's own, if any, is dropped
            started = True
            await send(message)

        return await self.app(scope, counted_receive, guarded_send)


class WebsocketMessageLimit(_Guard):
    """ASGI middleware for websockets: a message past ``WEBSOCKET_MAX_MESSAGE_BYTES`` ends the connection."""

    kind = "websocket"

    async def guard(self, scope, receive, send):
        limit = settings.WEBSOCKET_MAX_MESSAGE_BYTES

        async def checked_receive():
            message = await receive()
            if message["type"] == "websocket.receive":
                size = len(message.get("bytes") or b"") + len((message.get("text") or "").encode())
                if size > limit:
                    await send({"type": "websocket.close", "code": 1009})
                    return {"type": "websocket.disconnect", "code": 1009}
            return message

        return await self.app(scope, checked_receive, send)
