"""A 7th Sea battle (the battles tests' fixtures), and small HTTP servers on 127.0.0.1 standing in for
a push service and Discord: each records the requests it receives and answers the status it is given."""

import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from masscombat.battles import services
from tests.masscombat.battles.conftest import battle, browser, other_player, sea_campaign, sea_rosters  # noqa: F401


class Sink:
    """The requests received (method, path, headers, body) and the status to answer the next ones."""

    def __init__(self):
        self.received: list[dict] = []
        self.status = 201
        handler = self._handler()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def _handler(self):
        sink = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                sink.received.append({"path": self.path, "body": body,
                                      "headers": {name.lower(): value for name, value in self.headers.items()}})
                self.send_response(sink.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):  # quiet
                pass

        return Handler

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def sink():
    server = Sink()
    yield server
    server.close()


@pytest.fixture
def refused_url():
    """An address on 127.0.0.1 where nothing listens: connecting is refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/webhook"


@pytest.fixture(autouse=True)
def _local_webhooks(settings):
    """Webhooks may point at the local servers, as in development."""
    settings.ANY_WEBHOOK_URL = True
    settings.PUBLIC_URL = "https://battle.example"


def declare_for_pippin(sea_battle, player):
    """Pippin gives side A's and Lucie's orders in ``sea_battle``; Merry (side B) still has to."""
    services.declare(player, sea_battle.pk, "side:a", {"sides.a.strategy": "march"}, expected_round=1)
    services.declare(player, sea_battle.pk, "hero:lucie", {"heroes.lucie.engagement": "support"}, expected_round=1)
