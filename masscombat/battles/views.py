"""Battle pages.  Thin: load the viewer (permission checked), call a service, render.

The room is one page for everyone: the GM gets the controls and every form,
a player the forms of what they play.  Its parts reload themselves (htmx)
when the battle's websocket announces a change; every part also works as a
full page, and every form posts without JavaScript.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from masscombat.battles import adapters, pages, replay, selectors, services
from masscombat.battles.forms import BattleForm
from masscombat.core.permissions import Action, authorize


@login_required
@require_http_methods(["GET", "POST"])
def create(request, campaign_id: int):
    access = authorize(request.user, Action.BATTLE_MANAGE, campaign_id)
    adapter = adapters.get(access.campaign.ruleset)
    if adapter is None:
        raise Http404
    form = BattleForm(request.POST or None, campaign=access.campaign, adapter=adapter)
    if request.method == "POST" and form.is_valid():
        try:
            battle = services.create_battle(access.campaign, request.user, **form.battle_arguments())
        except ValidationError as error:
            for message in error.messages:
                form.add_error(None, message)
        else:
            messages.success(request, _("The battle is set up: players can declare round 1."))
            return redirect(battle)
    return render(request, "battles/create.html", {"form": form, "campaign": access.campaign})


def _status_context(viewer) -> dict:
    """Who has declared, who is here, the GM's controls: the status part, reloaded on every event."""
    battle = viewer.battle
    declared = selectors.declarations(battle)
    expected = selectors.expected(battle, viewer.participants) if battle.accepts_declarations else {}
    here = selectors.present_users(battle) if viewer.is_gm else []
    slots = pages.slots(viewer, expected, declared, {user.pk for user in here})
    return {"here": here, "slots": slots, "missing": [s for s in slots if s.must_declare and not s.declared],
            "sides": _sides(viewer)}


def _declare_context(viewer, *, posted=None, posted_key=None, shown=None) -> dict:
    """The forms this viewer declares with (the GM's folded, each loaded when opened)."""
    declared = selectors.declarations(viewer.battle)
    return {"forms": pages.declaration_forms(viewer, declared, posted, posted_key, shown=shown)}


def _one_form(request, viewer) -> HttpResponse:
    """One participant's form, which the GM's page loads when its fold is opened: the GM's for
    anyone, a player's only for what they play; nothing to declare for it now: 404."""
    key = request.GET["participant"]
    if not viewer.controls(key) or (key == selectors.GM_KEY and not viewer.is_gm):
        raise Http404
    entry = next(iter(pages.declaration_forms(viewer, selectors.declarations(viewer.battle), only=key)), None)
    if entry is None:
        raise Http404
    return render(request, "battles/_declare_form.html", {**_base_context(viewer), "entry": entry})


def _reports_context(viewer, state) -> dict:
    """The state, the timeline and the round reports."""
    rounds = selectors.rounds(viewer.battle)
    return {"state": state, "reports": pages.reports(viewer, rounds), "chart": pages.chart(viewer, rounds),
            "sides": _sides(viewer)}


def _sides(viewer) -> list:
    return [(side, viewer.adapter.side_label(side, viewer.battle.state)) for side in viewer.adapter.sides]


def _base_context(viewer) -> dict:
    return {"battle": viewer.battle, "viewer": viewer, "campaign": viewer.access.campaign, "adapter": viewer.adapter}


def _room_context(viewer, *, posted=None, posted_key=None, placement=None, shown=None) -> dict:
    """The whole room: every part's context, the visible state computed once for the map and the reports."""
    state = selectors.visible_state(viewer)
    return {**_base_context(viewer), **_status_context(viewer),
            **_declare_context(viewer, posted=posted, posted_key=posted_key, shown=shown),
            **_reports_context(viewer, state), "map": pages.battle_map(viewer, state, placement)}


def _map_context(viewer, placement=None) -> dict:
    """What the map part alone needs: its part reloads on every round and placement, so nothing more."""
    state = selectors.visible_state(viewer)
    return {**_base_context(viewer), "map": pages.battle_map(viewer, state, placement)}


def _part_context(viewer, name: str) -> dict:
    """Only what the part's template uses: a part reloads on every event, for everyone in the room."""
    if name == "map":
        return _map_context(viewer)
    if name == "status":
        return {**_base_context(viewer), **_status_context(viewer)}
    if name == "declare":
        return {**_base_context(viewer), **_declare_context(viewer)}
    return {**_base_context(viewer), **_reports_context(viewer, selectors.visible_state(viewer))}


@login_required
@require_GET
def room(request, pk: int):
    viewer = selectors.viewer(request.user, Action.BATTLE_VIEW, pk)
    # ?open=<participant>: that GM fold comes open and full (its link, for a browser without JavaScript)
    return render(request, "battles/room.html", _room_context(viewer, shown=request.GET.get("open")))


@login_required
@require_GET
def part(request, pk: int, name: str):
    """One part of the room, for htmx to swap in when the websocket says it changed."""
    if name not in ("status", "declare", "reports", "map"):
        raise Http404
    viewer = selectors.viewer(request.user, Action.BATTLE_VIEW, pk)
    if name == "declare" and "participant" in request.GET:
        return _one_form(request, viewer)
    return render(request, f"battles/_{name}.html", _part_context(viewer, name))


@login_required
@require_POST
def declare(request, pk: int):
    viewer = selectors.viewer(request.user, Action.BATTLE_DECLARE, pk)
    key = request.POST.get("participant", "")
    if not viewer.controls(key) or (key == selectors.GM_KEY and not viewer.is_gm):
        raise Http404
    context = {**_base_context(viewer), **_declare_context(viewer, posted=request.POST, posted_key=key)}
    entry = next((f for f in context["forms"] if f["key"] == key), None)
    error = None
    if entry is None:
        error = _("There is nothing to declare for this participant now.")
    elif entry["form"].is_valid() and _engine_accepts(entry["form"], viewer, key):
        try:
            services.declare(request.user, pk, key, entry["form"].declaration(),
                             expected_round=int(request.POST.get("round", 0)))
        except (ValidationError, ValueError) as exc:
            error = " ".join(exc.messages) if isinstance(exc, ValidationError) else _("Reload the page.")
        else:
            saved = _("Declaration saved. You can change it until the round is resolved.")
            if request.htmx:  # the answer is the forms part: the notice goes in it, not in the session
                viewer = selectors.viewer(request.user, Action.BATTLE_VIEW, pk)
                return render(request, "battles/_declare.html",
                              {**_base_context(viewer), **_declare_context(viewer, shown=key),
                               "notice": {"key": key, "text": saved}})
            messages.success(request, saved)
            return redirect(viewer.battle)
    if request.htmx:
        context["notice"] = {"key": key, "text": error or _("Check the fields marked in red."), "error": True}
        return render(request, "battles/_declare.html", context)
    if error:
        messages.error(request, error)
    state = selectors.visible_state(viewer)  # the whole room, around the forms just posted
    return render(request, "battles/room.html", {
        **context, **_status_context(viewer), **_reports_context(viewer, state), "map": pages.battle_map(viewer, state),
    }, status=400)


def _engine_accepts(form, viewer, key: str) -> bool:
    """The GM's JSON fields, tried by the engine on this round before anything is stored."""
    battle = viewer.battle
    form.engine_check(battle, viewer.adapter, key, services.round_seed(battle, battle.current_round))
    return form.is_valid()


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
    placement = form if form.errors else None
    context = _map_context(viewer, placement) if request.htmx else _room_context(viewer, placement=placement)
    if notice is None and not (context["map"] or {}).get("placement"):  # no form left to show the errors in
        errors = [error for errors in form.errors.values() for error in errors]
        notice = {"text": " ".join(errors) or _("Placement is over: round 1 has been resolved."), "error": True}
    if request.htmx:
        return render(request, "battles/_map.html", {**context, "place_notice": notice})
    if notice:
        messages.error(request, notice["text"])
    return render(request, "battles/room.html", context, status=400)


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
    return _gm_action(request, pk, lambda: services.resolve_round(
        request.user, pk, expected_round=int(request.POST.get("round", 0))))


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
