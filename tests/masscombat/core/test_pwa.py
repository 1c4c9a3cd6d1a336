"""The installable app's three answers: the manifest, the service worker's script and the offline page."""

import json
import re

import pytest
from django.urls import reverse

from masscombat.core import pwa

pytestmark = pytest.mark.django_db


def worker_config(response) -> dict:
    match = re.search(r"^const CONFIG = (\{.*\});$", response.content.decode(), re.M)
    assert match, "the worker's CONFIG line is missing"
    return json.loads(match.group(1))


@pytest.mark.parametrize(("accept", "lang"), [("en", "en"), ("fr-FR,fr;q=0.9", "fr")])
def test_the_manifest_makes_the_site_installable(client, accept, lang):
    response = client.get(reverse("pwa:manifest"), HTTP_ACCEPT_LANGUAGE=accept)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    assert data["lang"] == lang and data["dir"] == "ltr"
    assert data["start_url"] == "/" and data["scope"] == "/" and data["display"] == "standalone"
    assert data["short_name"] == "masscombat" and data["name"]
    assert re.fullmatch(r"#[0-9a-f]{6}", data["theme_color"]) and re.fullmatch(r"#[0-9a-f]{6}", data["background_color"])
    sizes = {(icon["sizes"], icon["purpose"]) for icon in data["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in data["icons"]:
        assert icon["type"] == "image/png" and client.get(icon["src"]).status_code == 200


def test_the_manifest_names_the_app_in_french(client):
    english = json.loads(client.get(reverse("pwa:manifest"), HTTP_ACCEPT_LANGUAGE="en").content)
    french = json.loads(client.get(reverse("pwa:manifest"), HTTP_ACCEPT_LANGUAGE="fr").content)
    assert french["description"] != english["description"]


def test_the_manifest_follows_the_language_the_visitor_chose(client, settings):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    assert json.loads(client.get(reverse("pwa:manifest"), HTTP_ACCEPT_LANGUAGE="en").content)["lang"] == "fr"


@pytest.mark.parametrize("template", ["500.html", "503.html"])
def test_the_standalone_error_pages_follow_the_theme_too(template):
    from django.template.loader import render_to_string

    assert '<script src="/static/js/theme.js"></script>' in render_to_string(template, {"message": "x"})


def test_the_icons_are_the_sizes_they_say():
    """The PNGs are made once from icon.svg (static/icons/README.md): their headers give their size."""
    from django.contrib.staticfiles import finders

    for name, sizes, _purpose in pwa.ICONS:
        with open(finders.find(name), "rb") as png:
            header = png.read(24)
        assert header[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24], "big")
        assert f"{width}x{height}" == sizes


def test_the_worker_is_served_at_the_root_never_cached(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    config = worker_config(response)
    assert config["offline"] == {"en": "/offline/en/", "fr": "/offline/fr/"}
    for url in ("/static/css/app.css", "/static/js/theme.js", "/static/icons/icon-192.png", "/static/favicon.svg"):
        assert url in config["shell"]
    assert not any(url.endswith(".md") for url in config["shell"])
    for url in config["shell"]:
        assert client.get(url).status_code == 200, url


def test_the_worker_version_follows_the_shell_files(client, monkeypatch, tmp_path):
    """Development: the version hashes the files' contents, so an edited stylesheet makes a new worker."""
    before = worker_config(client.get("/sw.js"))["version"]
    assert worker_config(client.get("/sw.js"))["version"] == before
    edited = tmp_path / "app.css"
    edited.write_text("body { color: red; }")
    real_find = pwa.finders.find
    monkeypatch.setattr(pwa.finders, "find", lambda name: str(edited) if name == "css/app.css" else real_find(name))
    assert worker_config(client.get("/sw.js"))["version"] != before


def test_the_worker_version_is_the_static_manifest_hash_in_production(monkeypatch):
    """Production: WhiteNoise's hashed files; the storage's manifest hash changes with any of them."""
    monkeypatch.setattr(pwa, "staticfiles_storage", type("Storage", (), {"manifest_hash": "0123456789abcdef0123"})())
    assert pwa.shell_version(["css/app.css"]) == "0123456789abcdef"


@pytest.mark.parametrize(("language", "title"), [("en", "You are offline"), ("fr", "Vous êtes hors ligne")])
def test_the_offline_page_speaks_each_language_and_holds_nobody(client_for, gm, language, title):
    response = client_for(gm).get(reverse("pwa:offline", args=[language]), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200 and response["Content-Language"] == language
    page = response.content.decode()
    assert f'<html lang="{language}">' in page and f"<h1>{title}</h1>" in page
    # The worker keeps this page for whoever uses the phone next: nothing of the signed-in user.
    assert "csrf" not in page.lower() and gm.username not in page and "Gandalf" not in page
    assert "no-store" in response["Cache-Control"]


def test_an_unknown_offline_language_is_not_found(client):
    assert client.get("/offline/de/").status_code == 404


def test_pages_link_the_manifest_the_theme_and_the_worker(client):
    page = client.get("/").content.decode()
    # Fetched with credentials, so the language cookie reaches the manifest.
    assert f'<link rel="manifest" href="{reverse("pwa:manifest")}" crossorigin="use-credentials">' in page
    assert '<script src="/static/js/theme.js"></script>' in page  # not deferred: before the first paint
    assert 'data-worker="/sw.js"' in page
    assert "data-theme-toggle" in page


def test_the_policy_allows_this_site_s_worker_and_manifest_only(client):
    policy = dict(part.strip().split(" ", 1) for part in client.get("/")["Content-Security-Policy"].split(";"))
    assert policy["worker-src"] == "'self'" and policy["manifest-src"] == "'self'"
    assert policy["script-src"] == "'self'" and policy["default-src"] == "'self'"
