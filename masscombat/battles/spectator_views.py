"""Spectator pages (issue #19): the GM's share and revoke of a battle's watch link, and the read-only
room that link opens for anyone, signed in or not.

The watch page shows what the engines' public viewer may see (the state, the
map, the round reports, who has declared) and no form: its parts are the
public's renderings (:mod:`masscombat.battles.parts`), pushed again, like the
room's, by its socket (``ws/watch/<token>/``) after each change.  A
revoked or unknown token answers 404, in every language.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from masscombat.battles import parts, selectors, spectators
from masscombat.core.permissions import Action

PARTS = ("status", "reports", "map")


@login_required
@require_POST
def share(request, pk: int):
    """The GM creates the battle's watch link (the live one is kept: sharing twice gives one link)."""
    spectators.create_link(request.user, pk)
    messages.success(request, _("The watch link is ready: anyone who opens it follows the battle, without playing."))
    return redirect("battles:room", pk)


@login_required
@require_POST
def revoke(request, pk: int):
    """The GM ends the watch link, once confirmed: it opens nothing any more, and open pages stop."""
    selectors.viewer(request.user, Action.BATTLE_MANAGE, pk)  # outsiders and players: refused before anything
    if request.POST.get("confirm") != "on":
        messages.error(request, _("Tick the box to confirm."))
        return redirect("battles:room", pk)
    spectators.revoke_link(request.user, pk)
    messages.success(request, _("The watch link no longer works."))
    return redirect("battles:room", pk)


@require_GET
def watch(request, token: str):
    """The read-only room of a live watch link."""
    spectator = spectators.watching(token)
    return render(request, "battles/spectate.html", {**parts.base(spectator), "token": token,
                                                     "parts": parts.page(spectator, request)})


@require_GET
def watch_part(request, token: str, name: str):
    """One part of the watch page, for htmx to swap in when the socket says it changed."""
    if name not in PARTS:
        raise Http404
    spectator = spectators.watching(token)
    return HttpResponse(parts.deliver(parts.render(spectator, name), request))
