"""Which optional assets a page loads: htmx and the map styles, only where the page uses them.

Every page gets ``css/app.css``, the theme and the service worker's
registration (``templates/base.html``).  htmx (17 KB compressed) and
``css/maps.css`` (3.5 KB) are for the pages that use them: a phone opening the
home page or the log-in form downloads neither.  The page is known by its URL
name before its template renders its head, so this table says, per page, what
it needs; a template pulling in a part that needs more (an ``hx-`` attribute, a
map) needs its page listed here.  ``tests/masscombat/core/test_perf_first_load.py``
walks the demo's pages as the GM and a player and fails on a page that uses
htmx or a map class without loading it, or loads one it does not use.
"""

from __future__ import annotations

# Pages by their view function (module.name): the rosters' views serve every kind of roster.
HTMX = frozenset({
    "masscombat.battles.views.create", "masscombat.battles.views.room", "masscombat.battles.spectator_views.watch",
    "masscombat.campaigns.views.detail", "masscombat.rosters.views.detail", "masscombat.rosters.views.edit",
})
MAP_STYLES = frozenset({"masscombat.campaigns.views.detail", "masscombat.maps.views.detail", "masscombat.maps.views.edit"})
# A battle's pages (room, watch page, replay) load the map styles when the battle's game is played on
# a map (base.html reads the page's ``adapter.uses_map``).
# Pages that load one of them without always using it, because what they show varies: a campaign's
# page gets its list of maps live (htmx swaps it in when the GM adds the first), a roster's sheet
# has a form of battle conditions only for the kinds of roster that have some, and a replay shows the
# map only to whom the rules let see it.
SOMETIMES = {"htmx": frozenset({"masscombat.rosters.views.detail"}),
             "maps": frozenset({"masscombat.campaigns.views.detail", "masscombat.battles.views.replay_view"})}


def page_key(match) -> str:
    """The page a URL resolved to: its view function's dotted name ('' for none)."""
    if match is None:
        return ""
    view = getattr(match.func, "view_class", match.func)
    return f"{view.__module__}.{view.__name__}"


def page_assets(request) -> dict:
    """Context processor: ``page_assets.htmx`` and ``page_assets.maps`` for the page being rendered."""
    key = page_key(getattr(request, "resolver_match", None))
    return {"page_assets": {"htmx": key in HTMX, "maps": key in MAP_STYLES}}
