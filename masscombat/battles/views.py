"""Battle pages.  Thin: load the viewer (permission checked), call a service, render.

The room is one page for everyone: the GM gets the controls and every form,
a player the forms of what they play.  Its parts come from their renderings
for the viewer's audience (:mod:`masscombat.battles.parts`): the battle's
websocket pushes them after each change, and each is also here by GET (a
page that missed a push asks for it; a page without JavaScript reloads), and
every form posts without JavaScript.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from masscombat.battles import (
    adapters,
    deadline_views,
    deadlines,
    declaration_check,
    events,
    pages,
    parts,
    replay,
    selectors,
    services,
)
from masscombat.battles.forms import BattleForm
from masscombat.campaigns.access import authorize
from masscombat.core.permissions import Action


@login_required
@require_http_methods(["GET", "POST"])
def create(request, campaign_id: int):
    access = authorize(request.user, Action.BATTLE_MANAGE, campaign_id)
    adapter = adapters.get(access.campaign.ruleset)
    if adapter is None:
        raise Http404
    form = BattleForm(request.POST or None, campaign=access.campaign, adapter=adapter)
    deadline = deadline_views.DeadlineForm(request.POST or None, prefix="deadline")
    if request.method == "POST" and form.is_valid() and deadline.is_valid():
        try:
            with transaction.atomic():  # the battle and its round clock, or neither
                battle = services.create_battle(access.campaign, request.user, **form.battle_arguments())
                if deadline.minutes():
                    deadlines.set_rule(request.user, battle.pk, deadline.minutes())
        except ValidationError as error:
            for message in error.messages:
                form.add_error(None, message)
        else:
            messages.success(request, _("The battle is set up: players can declare round 1."))
            return redirect(battle)
    return render(request, "battles/create.html", {"form": form, "deadline": deadline, "campaign": access.campaign})


def _one_form(request, viewer) -> HttpResponse:
    """One participant's form, which the GM's page loads when its fold is opened: the GM's for
    anyone, a player's only for what they play; nothing to declare for it now: 404."""
    key = request.GET["participant"]
    if not viewer.controls(key) or (key == selectors.GM_KEY and not viewer.is_gm):
        raise Http404
    declared = selectors.declarations(viewer.battle)
    entry = next(iter(parts.save_marks(pages.declaration_forms(viewer, declared, only=key), declared)), None)
    if entry is None:
        raise Http404
    return render(request, "battles/_declare_form.html", {**parts.base(viewer), "entry": entry})


def _room(request, viewer, status: int = 200, **fresh: dict) -> HttpResponse:
    """The whole room: each part from its rendering for the viewer's audience, but those whose context
    is in ``fresh`` (rendered for this request: a form just posted, a fold asked open)."""
    own = {name: render_to_string(f"battles/_{name}.html", {**parts.base(viewer), **context}, request)
           for name, context in fresh.items()}
    return render(request, "battles/room.html", {**parts.base(viewer), "parts": parts.page(viewer, request, **own)},
                  status=status)


@login_required
@require_GET
def room(request, pk: int):
    viewer = selectors.viewer(request.user, Action.BATTLE_VIEW, pk)
    # ?open=<participant>: that GM fold comes open and full (its link, for a browser without JavaScript)
    shown = request.GET.get("open")
    return _room(request, viewer, **({"declare": parts.declare(viewer, shown=shown)} if shown else {}))


@login_required
@require_GET
def part(request, pk: int, name: str):
    """One part of the room, as its socket pushes it: for a page that asks (a push it missed, a
    page without the socket), and for htmx to swap in."""
    if name not in events.ALL_PARTS:
        raise Http404
    viewer = selectors.viewer(request.user, Action.BATTLE_VIEW, pk)
    if name == "declare" and "participant" in request.GET:
        return _one_form(request, viewer)
    return HttpResponse(parts.deliver(parts.render(viewer, name), request))


def _already_saved(existing, form, sent_round) -> bool:
    """The same declaration, for the same round, is already stored: a page that resent it (its answer
    lost on a bad network, or sent again when the network came back) gets "saved" with nothing done,
    neither a second "declared" event nor a second try at resolving the round."""
    return (existing is not None and str(existing.round) == str(sent_round)
            and existing.data == form.declaration())


@login_required
@require_POST
def declare(request, pk: int):
    viewer = selectors.viewer(request.user, Action.BATTLE_DECLARE, pk)
    key = request.POST.get("participant", "")
    if not viewer.controls(key) or (key == selectors.GM_KEY and not viewer.is_gm):
        raise Http404
    declared = selectors.declarations(viewer.battle)
    context = parts.declare(viewer, posted=request.POST, posted_key=key)
    entry = next((f for f in context["forms"] if f["key"] == key), None)
    error = None
    if entry is None:
        error = _("There is nothing to declare for this participant now.")
    elif entry["form"].is_valid() and declaration_check.engine_accepts(entry["form"], viewer, key, declared):
        try:
            if not _already_saved(declared.get(key), entry["form"], request.POST.get("round")):
                services.declare(request.user, pk, key, entry["form"].declaration(),
                                 expected_round=int(request.POST.get("round", 0)))
        except (ValidationError, ValueError) as exc:
            error = " ".join(exc.messages) if isinstance(exc, ValidationError) else _("Reload the page.")
        else:
            saved = _("Declaration saved. You can change it until the round is resolved.")
            if request.htmx:  # the answer is the forms part: the notice goes in it, not in the session
                viewer = selectors.viewer(request.user, Action.BATTLE_VIEW, pk)
                return render(request, "battles/_declare.html",
                              {**parts.base(viewer), **parts.declare(viewer, shown=key),
                               "notice": {"key": key, "text": saved}})
            messages.success(request, saved)
            return redirect(viewer.battle)
    if request.htmx:
        context["notice"] = {"key": key, "text": error or _("Check the fields marked in red."), "error": True}
        return render(request, "battles/_declare.html", {**parts.base(viewer), **context})
    if error:
        messages.error(request, error)
    return _room(request, viewer, status=400, declare=context)  # the whole room, around the forms just posted


@login_required
@require_POST
def place(request, pk: int):
    """The GM moves a piece before round 1; the answer is the map part (htmx) or the room."""
    viewer = selectors.viewer(request.user, Action.BATTLE_MANAGE, pk)
    if not viewer.adapter.places:
        raise Http404
    form = pages.placement_form(viewer, request.POST)
    notice = None
    if form.is_valid():
        try:
            services.place(request.user, pk, form.cleaned_data["piece"], form.cleaned_data["cell"],
                           expected_version=int(request.POST.get("version", 0)))
        except ValidationError as exc:  # by field (the engine's refusal is the cell's), or one sentence
            for field, errors in (exc.message_dict if hasattr(exc, "error_dict") else {None: exc.messages}).items():
                form.add_error(field if field in form.fields else None, errors)
        except ValueError:
            form.add_error(None, _("Reload the page and try again."))
        else:
            notice = {"text": _("The piece is placed.")}
            if not request.htmx:
                messages.success(request, notice["text"])
                return redirect(viewer.battle)
    viewer = selectors.viewer(request.user, Action.BATTLE_MANAGE, pk)  # the battle as it is now
    shown = pages.battle_map(viewer, selectors.visible_state(viewer), form if form.errors else None)
    if notice is None and not (shown or {}).get("placement"):  # no form left to show the errors in
        errors = [error for errors in form.errors.values() for error in errors]
        notice = {"text": " ".join(errors) or _("Placement is over: round 1 has been resolved."), "error": True}
    if request.htmx:
        return render(request, "battles/_map.html", {**parts.base(viewer), "map": shown, "place_notice": notice})
    if notice:
        messages.error(request, notice["text"])
    return _room(request, viewer, status=400, map={"map": shown})


def _gm_action(request, pk: int, run) -> HttpResponse:
    """Run a GM service; its refusal becomes a message on the room page."""
    try:
        run()
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    except ValueError:
        messages.error(request, _("Reload the page and try again."))
    return redirect("battles:room", pk)


@login_required
@require_POST
def resolve(request, pk: int):
    """The GM resolves the round.  With declarations missing, a page first names who is missing and the
    default orders each will get; resolving from it (``confirm_missing``) gives them those."""
    viewer = selectors.viewer(request.user, Action.BATTLE_MANAGE, pk)
    try:
        resolved = services.resolve_round(request.user, pk, expected_round=int(request.POST.get("round", 0)),
                                          confirmed_missing=request.POST.get("confirm_missing") == "1")
    except services.MissingDeclarations as exc:
        return render(request, "battles/resolve_confirm.html", {
            **parts.base(viewer), "missing": _default_orders(viewer, exc.participants)})
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    except ValueError:
        messages.error(request, _("Reload the page and try again."))
    else:
        applied = resolved.output.get("defaults_applied") or []
        if applied:
            names = [getattr(viewer.participant(key), "name", key) for key in applied]
            messages.info(request, _("Default orders were given to: %(names)s.") % {"names": ", ".join(names)})
    return redirect("battles:room", pk)


def _default_orders(viewer, participants: list) -> list[dict]:
    """Who the round waits for, and the default orders each will get, as the GM reads them."""
    adapter, names = viewer.adapter, selectors.seen_names(viewer)
    out = []
    for participant in participants:
        labels = {option["path"]: adapter.option_label(option, names) for option in selectors.options_for(
            viewer.battle, participant.key, participant.ref.get("kind", ""), participant.ref.get("id") or "")
            .get("options", [])}
        orders = [(labels.get(path) or adapter.option_label({"path": path}), adapter.value_label(value, names))
                  for path, value in sorted(participant.default.items())]
        played = viewer.participant(participant.key)
        out.append({"key": participant.key, "name": participant.name, "orders": orders,
                    "player": played.user.shown_name if played is not None and played.user else None})
    return out


@login_required
@require_POST
def undo(request, pk: int):
    return _gm_action(request, pk, lambda: services.undo_round(
        request.user, pk, expected_round=int(request.POST.get("round", 0))))


@login_required
@require_POST
def pause(request, pk: int):
    return _gm_action(request, pk, lambda: services.set_paused(request.user, pk, request.POST.get("paused") == "1"))


@login_required
@require_POST
def end(request, pk: int):
    """The GM ends the battle, naming a winner or not; or names the winner of a battle the rules ended
    without one, where the ruleset lets the GM (JdRWiki S5.15.1)."""
    winner = request.POST.get("winner") or None
    viewer = selectors.viewer(request.user, Action.BATTLE_MANAGE, pk)
    if winner is not None and winner not in viewer.adapter.sides:
        winner = None
    return _gm_action(request, pk, lambda: services.end_battle(request.user, pk, winner))


@login_required
@require_POST
def one_more_round(request, pk: int):
    return _gm_action(request, pk, lambda: services.one_more_round(
        request.user, pk, expected_round=int(request.POST.get("round", 0))))


@login_required
@require_POST
def confirm(request, pk: int):
    return _gm_action(request, pk, lambda: services.confirm_aftermath(request.user, pk))


@login_required
@require_GET
def replay_view(request, pk: int):
    viewer = selectors.viewer(request.user, Action.BATTLE_VIEW, pk)
    if not viewer.is_gm and viewer.battle.status not in (viewer.battle.Status.OVER, viewer.battle.Status.CLOSED):
        raise Http404
    return render(request, "battles/replay.html", {
        "battle": viewer.battle, "viewer": viewer, "campaign": viewer.access.campaign,
        "steps": replay.replay(viewer), "adapter": viewer.adapter,
    })
