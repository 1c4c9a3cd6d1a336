"""The ASGI application: Django for HTTP, Channels for websockets.

Served by uvicorn through ``python -m masscombat.server`` (``bin/run``), which
says what the app needs from its server.  HTTP requests run Django's
middleware chain and views synchronously, in one thread per request
(:mod:`masscombat.core.sync_chain`).  Websocket routes come from each app's
``routing.websocket_urlpatterns``; they run with the session user and only for
pages of this site (:mod:`masscombat.core.origin`).  Request bodies and
websocket messages are size-capped before anything reads them
(:mod:`masscombat.core.limits`).
"""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "masscombat.settings")
# Django must be set up before anything imports models.
django.setup(set_prefix=False)

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from masscombat.core.limits import BodySizeLimit, WebsocketMessageLimit  # noqa: E402
from masscombat.core.origin import SameSiteOriginValidator  # noqa: E402
from masscombat.core.sync_chain import SyncChainASGIHandler  # noqa: E402
from masscombat.routing import websocket_urlpatterns  # noqa: E402
from masscombat.battles.deadlines import start_clock  # noqa: E402

start_clock()  # round deadlines on SQLite: this server keeps their clock (bin/run asks for it)

application = ProtocolTypeRouter(
    {
        "http": BodySizeLimit(SyncChainASGIHandler()),
        "websocket": SameSiteOriginValidator(
            WebsocketMessageLimit(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
        ),
    }
)
