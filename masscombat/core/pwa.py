"""The installable app: the web app manifest, the service worker and the offline page.

A phone can add masscombat to its home screen and open it like an app
(the manifest), and a page that cannot be reached shows our own offline page
in the visitor's language instead of the browser's error (the worker).

The worker lives at ``/sw.js`` so that its scope is the whole site. It keeps
the shell (the site's own CSS, scripts, icons and the two offline pages) in a
cache named after a version: the storage's manifest hash in production, where
WhiteNoise serves hashed files (a new deploy with any changed file gives a new
version, so the worker's bytes change and browsers install it again), and a
hash of the files' contents in development. Pages are never cached: a battle
room is either fetched now or replaced by the offline page, never shown stale.
"""

from __future__ import annotations

import hashlib
import json

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

THEME_COLOUR = "#1d2330"  # the header's ink (app.css --header) and the icon's ground
BACKGROUND_COLOUR = "#f6f4ef"  # the page (app.css --paper), shown while the app starts
ICONS = (
    ("icons/icon-192.png", "192x192", "any"),
    ("icons/icon-512.png", "512x512", "any"),
    ("icons/icon-maskable-512.png", "512x512", "maskable"),
)
# The shell: what the offline page and the next visit need without the network.
SHELL_FOLDERS = ("css/", "js/", "vendor/", "icons/")
SHELL_SUFFIXES = (".css", ".js", ".png", ".svg")


def shell_files() -> list[str]:
    """The site's own static files that make up the shell, by their source names."""
    names = {"favicon.svg"}
    project = finders.get_finder("django.contrib.staticfiles.finders.FileSystemFinder")  # static/, not the apps'
    for name, _storage in project.list(ignore_patterns=["*.md"]):
        name = name.replace("\\", "/")
        if name.startswith(SHELL_FOLDERS) and name.endswith(SHELL_SUFFIXES):
            names.add(name)
    return sorted(names)


def shell_version(names: list[str]) -> str:
    """A short name for this set of shell files: it changes whenever one of them does."""
    manifest_hash = getattr(staticfiles_storage, "manifest_hash", "")
    if manifest_hash:
        return manifest_hash[:16]
    digest = hashlib.sha256()
    for name in names:
        digest.update(name.encode())
        with open(finders.find(name), "rb") as source:
            digest.update(hashlib.sha256(source.read()).digest())
    return digest.hexdigest()[:16]


def offline_urls() -> dict[str, str]:
    return {code: reverse("pwa:offline", args=[code]) for code, _name in settings.LANGUAGES}


@require_GET
def service_worker(request):
    """The worker's script, with this deploy's shell list and version written in.

    Never cached by the browser's HTTP cache (``no-cache``): browsers compare
    its bytes on each check for an update, and a stale copy would keep an old
    shell alive.
    """
    names = shell_files()
    config = {
        "version": shell_version(names),
        "shell": [static(name) for name in names],
        "offline": offline_urls(),
        "static": settings.STATIC_URL if settings.STATIC_URL.startswith("/") else f"/{settings.STATIC_URL}",
        "languageCookie": settings.LANGUAGE_COOKIE_NAME,
        "defaultLanguage": settings.LANGUAGE_CODE.split("-")[0],
    }
    script = render_to_string("pwa/sw.js", {"config": json.dumps(config, sort_keys=True)})
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def manifest(request):
    """The web app manifest, in the language of the page that links it."""
    language = translation.get_language() or settings.LANGUAGE_CODE
    data = {
        "id": "/",
        "name": _("masscombat: mass battles"),
        "short_name": "masscombat",
        "description": _("Run a tabletop mass battle online: the game master resolves, every player declares from a phone."),
        "lang": language,
        "dir": "rtl" if translation.get_language_bidi() else "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [{"src": static(name), "sizes": sizes, "type": "image/png", "purpose": purpose}
                  for name, sizes, purpose in ICONS],
    }
    response = JsonResponse(data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
@never_cache
def offline(request, language: str):
    """The page the worker shows when a page cannot be reached, one per language.

    Standalone (not ``base.html``): the worker keeps one copy for everybody, so
    it must hold nobody's name, session or CSRF token.
    """
    if language not in dict(settings.LANGUAGES):
        raise Http404
    with translation.override(language):
        response = render(request, "pwa/offline.html", {"language": language})
    response["Content-Language"] = language
    return response


app_name = "pwa"
urlpatterns = [
    path("sw.js", service_worker, name="worker"),
    path("manifest.webmanifest", manifest, name="manifest"),
    path("offline/<str:language>/", offline, name="offline"),
]
