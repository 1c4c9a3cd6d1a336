"""The real ASGI server (uvicorn, as ``bin/run`` starts it) serves pages, static files and websockets.

Each case starts ``python -m masscombat.server`` on a free local port with its
own SQLite file (the ``asgi_server`` fixture), as ``bin/run`` and the
container do: static files in development and production mode, websocket
messages compressed, and a request body past ``MAX_REQUEST_BYTES`` refused
while it is still arriving (issue #16: daphne read a 600 MiB body whole first).
"""

import http.cookiejar
import json
import re
import secrets
import select
import socket
import urllib.parse
import urllib.request

from websockets.sync.client import connect


def get(url: str):
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.status, response.headers, response.read()  # names in any case (uvicorn: lower)


def static_urls(page: bytes) -> list[str]:
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', page.decode())


def test_development_mode_serves_static_from_the_sources(asgi_server):
    base = asgi_server(DEBUG="1")
    status, _, page = get(base + "/")
    assert status == 200
    urls = static_urls(page)
    assert "/static/css/app.css" in urls
    for url in urls:
        assert get(base + url)[0] == 200


def test_production_mode_serves_hashed_compressed_static(asgi_server):
    base = asgi_server(DEBUG="0", SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS="127.0.0.1",
                       SECURE_SSL_REDIRECT="0", SECURE_COOKIES="0", SECURE_HSTS_SECONDS="0")
    status, _, page = get(base + "/")
    assert status == 200
    urls = static_urls(page)
    css = next(url for url in urls if url.startswith("/static/css/app."))
    assert re.fullmatch(r"/static/css/app\.[0-9a-f]{12}\.css", css)
    status, headers, _ = get(base + css)
    assert status == 200 and "immutable" in headers.get("Cache-Control", "")
    request = urllib.request.Request(base + css, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.headers.get("Content-Encoding") == "gzip"


def logged_in(base: str, username: str) -> tuple[str, int]:
    """(session cookie, id of one of their campaigns) for a demo user, through the login form."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    form = opener.open(base + "/accounts/login/", timeout=10).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
    data = urllib.parse.urlencode({"username": username, "password": "masscombat-demo",
                                   "csrfmiddlewaretoken": token}).encode()
    home = opener.open(urllib.request.Request(base + "/accounts/login/", data, {"Referer": base + "/"}),
                       timeout=10).read().decode()
    campaign = int(re.search(r'href="/campaigns/(\d+)/"', home).group(1))
    return next(cookie.value for cookie in jar if cookie.name == "sessionid"), campaign


def test_websocket_messages_are_compressed(asgi_server):
    """The browser offers permessage-deflate (every current one does): the server takes it, and talks through it."""
    base = asgi_server(demo=True)
    session, campaign = logged_in(base, "demo-player1")
    url = base.replace("http://", "ws://") + f"/ws/campaigns/{campaign}/"
    with connect(url, compression="deflate", open_timeout=20,
                 additional_headers={"Cookie": f"sessionid={session}", "Origin": base}) as ws:
        assert "permessage-deflate" in ws.response.headers.get("Sec-WebSocket-Extensions", "")
        assert [type(extension).__name__ for extension in ws.protocol.extensions] == ["PerMessageDeflate"]
        ws.send(json.dumps({"type": "hello"}))
        assert json.loads(ws.recv(timeout=20))["type"] == "ready"


CAP = 64 * 1024 * 1024  # what the client sends at most before giving up on an answer


def send_until_answered(base: str, head: bytes, chunk: bytes) -> tuple[bytes, int]:
    """Send ``head``, then ``chunk`` again and again until the server answers (or ``CAP`` bytes went
    unanswered): (the start of the answer, the body bytes sent by then)."""
    address = urllib.parse.urlsplit(base)
    with socket.create_connection((address.hostname, address.port), timeout=30) as sock:
        sock.sendall(head)
        sent = 0
        while sent < CAP:
            readable, writable, _ = select.select([sock], [sock], [], 30)
            if readable:
                break
            if not writable:
                continue
            try:
                sent += sock.send(chunk)
            except (BrokenPipeError, ConnectionResetError):  # refused and closed: the answer is already here
                break
        try:
            return sock.recv(4096), sent
        except (ConnectionResetError, TimeoutError):  # no answer at all (daphne, still reading the body)
            return b"", sent


def test_a_body_too_large_is_refused_before_it_is_sent_whole(asgi_server):
    """600 MiB announced, or streamed in chunks without a length: 413 comes while the client is still sending,
    after a few megabytes at most (what the socket buffers hold), not after the whole body."""
    base = asgi_server()
    host = urllib.parse.urlsplit(base).netloc
    announced = (f"POST /api/token/ HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
                 f"Content-Length: {600 * 1024 * 1024}\r\n\r\n").encode()
    answer, sent = send_until_answered(base, announced, b" " * 65536)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:100]
    assert sent < 16 * 1024 * 1024

    streamed = (f"POST /api/token/ HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
                f"Transfer-Encoding: chunked\r\n\r\n").encode()
    answer, sent = send_until_answered(base, streamed, b"10000\r\n" + b" " * 65536 + b"\r\n")
    assert answer.startswith(b"HTTP/1.1 413"), answer[:100]
    assert 1024 * 1024 < sent < 17 * 1024 * 1024  # past MAX_REQUEST_BYTES (1 MiB), not much further
