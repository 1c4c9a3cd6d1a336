"""Start the ASGI server that serves masscombat, with the options this app needs; one place for all.

    python -m masscombat.server [--server uvicorn|daphne|granian] [--host 127.0.0.1] [--port 8000]

``bin/run`` (and so the container), the tests' real server and the benchmarks
start the app through here, so that what is measured and tested is what is
served.  uvicorn is the default (``DEFAULT``); daphne and granian start only
for ``benchmarks/live_fanout.py``'s comparison (``--server``), from the
development dependencies.

What the app needs from its server, and how uvicorn is told:

- request bodies handed to the app as they arrive, so that
  :class:`masscombat.core.limits.BodySizeLimit` refuses one past
  ``MAX_REQUEST_BYTES`` with 413 before it is read whole (daphne reads the
  whole body first, whatever its size);
- websocket messages compressed (permessage-deflate, when the browser offers
  it), a message past ``WEBSOCKET_MAX_MESSAGE_BYTES`` refused by the server
  before it is buffered (close 1009), and a ping every 20 s: a phone gone
  without closing is closed within 40 s, which ends its presence row
  (:mod:`masscombat.battles.presence`);
- no ``X-Forwarded-*`` taken on trust by the server itself: the app reads them
  (``BEHIND_TLS_PROXY``, ``TRUSTED_PROXY_COUNT``, :mod:`masscombat.core.security`);
- no lifespan protocol (Django has none); on SIGTERM open sockets are told the
  service restarts (1012, the pages reconnect) and requests get
  ``STOP_SECONDS`` to finish.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

APP = "masscombat.asgi:application"
SERVERS = ("uvicorn", "daphne", "granian")
DEFAULT = "uvicorn"
STOP_SECONDS = 10
WS_PING_SECONDS = 20.0


def websocket_max_bytes() -> int:
    """``WEBSOCKET_MAX_MESSAGE_BYTES`` as the settings read it, without setting Django up before the server."""
    raw = os.environ.get("WEBSOCKET_MAX_MESSAGE_BYTES", "").strip()
    return int(raw) if raw else 64 * 1024


def command(server: str, host: str, port: int) -> list[str]:
    """The command line that starts ``server`` on ``host:port`` through this module (for subprocesses)."""
    return [sys.executable, "-m", "masscombat.server", "--server", server, "--host", host, "--port", str(port)]


def serve(server: str, host: str, port: int) -> None:
    """Run ``server`` in this process (daphne and granian replace it): returns when it stops."""
    if server == "uvicorn":
        import uvicorn

        uvicorn.run(APP, host=host, port=port, http="httptools", loop="uvloop", ws="websockets-sansio",
                    ws_per_message_deflate=True, ws_max_size=websocket_max_bytes(),
                    ws_ping_interval=WS_PING_SECONDS, ws_ping_timeout=WS_PING_SECONDS,
                    lifespan="off", proxy_headers=False, server_header=False,
                    timeout_graceful_shutdown=STOP_SECONDS, log_level="warning", access_log=False)
        return
    scripts = Path(sys.executable).parent
    if server == "daphne":
        argv = [str(scripts / "daphne"), "-b", host, "-p", str(port), APP]
    elif server == "granian":
        argv = [str(scripts / "granian"), "--interface", "asginl", "--host", host, "--port", str(port),
                "--loop", "uvloop", "--log-level", "warning", APP]
    else:
        raise SystemExit(f"unknown server {server!r}: one of {', '.join(SERVERS)}")
    os.execv(argv[0], argv)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", choices=SERVERS, default=DEFAULT)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    serve(args.server, args.host, args.port)


if __name__ == "__main__":
    main()
