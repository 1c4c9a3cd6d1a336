"""A page loads htmx and the map styles only when it uses them, and always when it does (issue #20).

The demo's pages are walked from the home page as the GM and as a player,
following every link of the site (a GET, not the API): each page must load
``vendor/htmx`` exactly when its HTML has an ``hx-`` attribute (the body's
``hx-headers`` aside: it does nothing without htmx), and ``css/maps.css``
exactly when its HTML uses a class those styles start a rule with
(:mod:`masscombat.core.assets` says which page needs which, and which pages
load one without always using it).  What a phone
transfers is ``benchmarks/room_bytes.py``'s.
"""

import re
from collections import Counter, deque
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import Resolver404, resolve

from masscombat.accounts.models import User
from masscombat.core import assets

pytestmark = pytest.mark.django_db
MAPS_CSS = Path(__file__).resolve().parents[3] / "static" / "css" / "maps.css"
EVERY_ONE = {"masscombat.campaigns.views.detail", "masscombat.battles.views.room"}
NOT_PAGES = ("/api/", "/static/", "/accounts/logout", "/i18n/", "/sw.js", "/manifest")


def map_rules() -> set[frozenset[str]]:
    """The classes each rule of maps.css starts with (``.battle-map .cell``: battle-map; ``.field.compact``:
    field and compact together)."""
    css = re.sub(r"/\*.*?\*/", "", MAPS_CSS.read_text(), flags=re.DOTALL)
    selectors = re.findall(r"(?:^|})\s*([^{}@]+)\{", css)
    return {frozenset(re.findall(r"\.([\w-]+)", match.group(0)))
            for selector in selectors for part in selector.split(",")
            if (match := re.match(r"\s*(?:\.[\w-]+)+", part))}


def uses_map_styles(html: str, rules: set[frozenset[str]]) -> bool:
    elements = [set(value.split()) for value in re.findall(r'class="([^"]*)"', html)]
    return any(rule <= element for rule in rules for element in elements)


def pages_of(client, start: str = "/", per_view: int = 3):
    """(path, HTML) of the pages reachable by links from ``start``, breadth first, ``per_view`` of each view
    at most (the same view shows one roster or another alike), but every campaign and every battle room:
    one per game."""
    seen, queue, views = {start}, deque([start]), Counter()
    while queue:
        path = queue.popleft()
        response = client.get(path)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        html = response.content.decode()
        yield path, html
        for link in re.findall(r'href="(/[^"#?]*)', html):
            if link in seen or link.startswith(NOT_PAGES) or link.endswith((".json", ".svg", ".png")):
                continue
            seen.add(link)
            try:
                view = assets.page_key(resolve(link))
            except Resolver404:
                continue
            views[view] += 1
            if views[view] <= per_view or view in EVERY_ONE:
                queue.append(link)


@pytest.mark.parametrize("username", ["demo-gm", "demo-player1"])
def test_each_page_loads_htmx_and_the_map_styles_exactly_when_it_uses_them(client, username):
    call_command("demo", verbosity=0)
    client.force_login(User.objects.get(username=username))
    rules = map_rules()
    assert {frozenset({"battle-map"}), frozenset({"map-list"}), frozenset({"field", "compact"})} <= rules
    walked, wrong = [], []
    for path, html in pages_of(client):
        head = html.split("<body", 1)[0]
        body = html.split("<body", 1)[-1].split(">", 1)[-1]  # past the body's own tag (its hx-headers)
        uses = {"htmx": bool(re.search(r"\shx-[a-z-]+=", body)), "maps": uses_map_styles(body, rules)}
        loads = {"htmx": "vendor/htmx" in html, "maps": "css/maps." in head}
        page = assets.page_key(resolve(path))
        walked.append((path, page, loads))
        if any(uses[kind] != loads[kind] and not (loads[kind] and page in assets.SOMETIMES[kind]) for kind in uses):
            wrong.append((path, page, f"uses {uses}, loads {loads}"))
    assert len(walked) >= 15 and sum(page == "masscombat.battles.views.room" for _path, page, _loads in walked) == 5
    light = {page for _path, page, loads in walked if not any(loads.values())}
    assert "masscombat.campaigns.views.home" in light and len(light) >= 3
    assert not wrong, "\n".join(" ".join(row) for row in wrong)
