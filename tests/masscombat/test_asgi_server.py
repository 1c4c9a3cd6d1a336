"""The real ASGI server (daphne) serves pages and static files, in development and production mode.

Each case starts ``daphne masscombat.asgi:application`` on a free local port
with its own SQLite file, as ``bin/run`` and the container do.
"""

import re
import secrets
import urllib.request


def get(url: str):
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.status, dict(response.headers), response.read()


def static_urls(page: bytes) -> list[str]:
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', page.decode())


def test_development_mode_serves_static_from_the_sources(daphne_server):
    base = daphne_server(DEBUG="1")
    status, _, page = get(base + "/")
    assert status == 200
    urls = static_urls(page)
    assert "/static/css/app.css" in urls and "/static/vendor/htmx-2.0.11.min.js" in urls
    for url in urls:
        assert get(base + url)[0] == 200


def test_production_mode_serves_hashed_compressed_static(daphne_server):
    base = daphne_server(DEBUG="0", SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS="127.0.0.1",
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
