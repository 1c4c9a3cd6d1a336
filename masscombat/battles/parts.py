"""The room's parts, each rendered once per audience, language and battle event number.

A room is four parts (:data:`masscombat.battles.events.ALL_PARTS`).  What a
part shows depends on the battle as of its last event and on who looks, but
only through their audience: the GM, the sides a player plays, a member who
plays none, or a watch link's holder.  So a part is rendered once for each
(battle, event number, audience, language), kept in the deployment's cache
(Redis, else local memory) and computed once however many ask at the same
moment (:func:`masscombat.core.cache.compute_once`): after a round, every
socket of a side gets the one rendering of that side
(:mod:`masscombat.battles.push`), and a page or part asked by GET is served
from it too.

The ``declare`` part is someone's own forms: it is rendered for one user
(its key names them, and their audience) and never given to anyone else.

What differs per page is not rendered into the shared HTML: the CSRF token of
forms and the site's address (the watch link) are marks, replaced by the
page's own when the HTML is delivered (:func:`deliver` for a response, the
page's script for a pushed part).
"""

from __future__ import annotations

import time

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import mark_safe

from masscombat.battles import events, live, pages, selectors, services
from masscombat.battles.spectators import Spectator
from masscombat.core.cache import compute_once

# Placeholders in shared HTML for what each page fills in: letters and dashes, untouched by escaping.
CSRF_MARK = "csrf-token-of-the-page"
ORIGIN_MARK = "origin-of-the-page"
KEEP_SECONDS = 15 * 60  # a rendering is asked for within seconds of its event; later ones are of older events
# A running deadline's words ("resolves in 4 minutes") age: the status part is rendered again this often.
CLOCK_SECONDS = 15


def audience(viewer) -> str:
    """Whom a rendering is shared by: everyone who sees the battle as this viewer does."""
    if isinstance(viewer, Spectator):
        return "watch"
    if viewer.is_gm:
        return "gm"
    return "sides:" + "+".join(sorted(viewer.sides)) if viewer.sides else "member"


def cache_key(viewer, name: str, seq: int, stamp: str | None = None) -> str:
    """The key of one part as of event ``seq``: battle, number, part, audience (and user, for their own
    forms), language, and for the status part of a running clock the quarter-minute its words were read.

    ``stamp`` (:func:`masscombat.battles.live.stamp`: version, round, status, clock), from the event's
    message, else from the viewer's battle: every change is an event, but a row written without one
    (by hand, in a shell) must not be answered from before."""
    battle = viewer.battle
    stamp = live.stamp(battle) if stamp is None else stamp
    owner = audience(viewer)
    if name == events.DECLARE:
        owner = f"user{viewer.user.pk}.{owner}"
    clock = int(time.time() // CLOCK_SECONDS) if name == events.STATUS and stamp.endswith(".1") else 0
    return f"part:{battle.pk}:{seq}:{stamp}:{name}:{owner}:{translation.get_language()}:{clock}"


def render(viewer, name: str, seq: int | None = None, *, stamp: str | None = None, now=None) -> str:
    """The part ``name`` as this viewer's audience sees the battle as of event ``seq`` (default: the
    viewer's battle's last), with the marks in place of the page's token and address.

    ``now``, when given, gives the viewer on the battle as it is now, to render from when the
    cache has no rendering: a socket's viewer holds the battle as it was when last read."""
    seq = viewer.battle.last_seq if seq is None else seq
    return compute_once(cache_key(viewer, name, seq, stamp), lambda: render_fresh(now() if now else viewer, name),
                        KEEP_SECONDS)


def render_fresh(viewer, name: str) -> str:
    """The part rendered now for the viewer's audience, marks for what each page fills in."""
    return render_to_string(f"battles/_{name}.html",
                            {**context(viewer, name), "csrf_token": CSRF_MARK, "site_origin": ORIGIN_MARK})


def deliver(html: str, request) -> str:
    """Shared HTML for one response: the page's CSRF token and address in place of the marks."""
    from django.middleware.csrf import get_token

    origin = f"{request.scheme}://{request.get_host()}"
    return mark_safe(html.replace(CSRF_MARK, get_token(request)).replace(ORIGIN_MARK, origin))  # rendered HTML


def page(viewer, request, **fresh: str) -> dict[str, str]:
    """Every part of the room for one page, delivered; ``fresh`` gives those rendered for this request."""
    names = [name for name in events.ALL_PARTS if name != events.DECLARE or not isinstance(viewer, Spectator)]
    return {name: fresh[name] if name in fresh else deliver(render(viewer, name), request) for name in names}


# ---------------------------------------------------------------- what each part shows


def base(viewer) -> dict:
    return {"battle": viewer.battle, "viewer": viewer, "campaign": viewer.access.campaign, "adapter": viewer.adapter,
            "watching": isinstance(viewer, Spectator)}


def context(viewer, name: str) -> dict:
    """Only what the part's template uses."""
    if name == events.MAP:
        return {**base(viewer), "map": pages.battle_map(viewer, selectors.visible_state(viewer))}
    if name == events.STATUS:
        return {**base(viewer), **status(viewer)}
    if name == events.DECLARE:
        return {**base(viewer), **declare(viewer)}
    return {**base(viewer), **reports(viewer, selectors.visible_state(viewer))}


def status(viewer) -> dict:
    """Who has declared, who is here, the GM's controls."""
    battle = viewer.battle
    declared = selectors.declarations(battle)
    expected = awaited(battle, declared) if battle.accepts_declarations else {}
    here = selectors.present_users(battle) if viewer.is_gm else []
    slots = pages.slots(viewer, expected, declared, {user.pk for user in here})
    return {"here": here, "slots": slots, "missing": [s for s in slots if s.must_declare and not s.declared],
            "sides": sides(viewer), "name_winner": viewer.is_gm and services.may_name_winner(battle)}


def awaited(battle, declared: dict) -> dict[str, dict]:
    """Who the round waits for, each with their options as the GM sees them, asked of the engine only for
    those who have declared (the labels of their choices): just after a round, nobody's."""
    return {key: selectors.options_for(battle, key, p.ref.get("kind", ""), p.ref.get("id") or "")
            if key in declared else {}
            for key, p in selectors.round_participants(battle).items() if p.must_declare}


def declare(viewer, *, posted=None, posted_key=None, shown=None) -> dict:
    """The forms this viewer declares with (the GM's folded, each loaded when opened), and a
    player's count of what is left this round (the banner over them).

    Each form says when its declaration was last saved (``saved_at``): the page keeps what the
    player has typed but not sent, and throws it away when a newer save of that participant
    (another device, the GM) comes in.  ``anchor`` is the form's id, for the banner's link.
    """
    declared = selectors.declarations(viewer.battle)
    forms = save_marks(pages.declaration_forms(viewer, declared, posted, posted_key, shown=shown), declared)
    awaited = [f for f in forms if f["must_declare"]]
    left = [f for f in awaited if not f["declared"]]
    todo = None if viewer.is_gm or not awaited else {
        "total": len(awaited), "left": len(left), "first": left[0]["anchor"] if left else ""}
    return {"forms": forms, "todo": todo}


def save_marks(forms: list, declared: dict) -> list:
    """Each form's ``saved_at`` (its declaration's last save, "" for none) and ``anchor`` (its id)."""
    for entry in forms:
        existing = declared.get(entry["key"])
        entry["saved_at"] = existing.updated_at.isoformat() if existing else ""
        entry["anchor"] = pages.field_ids(entry["key"]) % "form"
    return forms


def reports(viewer, state) -> dict:
    """The state, the timeline and the round reports."""
    rounds = selectors.rounds(viewer.battle)
    return {"state": state, "reports": pages.reports(viewer, rounds), "chart": pages.chart(viewer, rounds),
            "sides": sides(viewer)}


def sides(viewer) -> list:
    return [(side, pages.side_name(viewer, side)) for side in viewer.adapter.sides]
