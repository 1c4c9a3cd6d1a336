"""Map pages.  Thin: :func:`authorize`, then a service or a selector, then render.

The editor saves and previews with ``fetch`` and JSON (the rules API's error
format: ``{"error", "fields"}``); every other action is a plain form post
that works without JavaScript.
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from masscombat.campaigns.access import authorize
from masscombat.core import jsonsafe
from masscombat.core.permissions import Action
from masscombat.maps import field_help, services
from masscombat.maps.forms import ImportMapForm, NewMapForm
from masscombat.maps.kinds import (
    kind_of_campaign,
    label,
    objective_bounds,
    size_bounds,
    vocabulary,
)
from masscombat.maps.models import BattleMap
from masscombat.maps.naming import zone_word
from masscombat.maps.render import legend, render_map_svg
from masscombat.maps.selectors import map_for, maps_section_context
from masscombat.maps.validation import MapInvalid, clean_map

BODY_MAX_BYTES = 3_000_000


def _map_of(access, map_id: int) -> BattleMap:
    """The map, if this member may see it (a player is told a hidden map does not exist)."""
    found = map_for(access, map_id)
    if found is None:
        raise Http404
    return found


def _kind_or_404(access) -> str:
    kind = kind_of_campaign(access.campaign)
    if kind is None:
        raise Http404
    return kind


@login_required
@require_http_methods(["GET", "POST"])
def create(request, pk: int):
    access = authorize(request.user, Action.MAP_EDIT, pk)
    kind = _kind_or_404(access)
    form = NewMapForm(request.POST or None, kind=kind)
    if request.method == "POST" and form.is_valid():
        try:
            battle_map = services.create_map(access.campaign, **form.cleaned_data)
        except MapInvalid as invalid:
            for field, problem in invalid.fields.items():
                form.add_error(field if field in form.fields else None, problem)
        else:
            messages.success(request, _("Map created: paint its terrain."))
            return redirect("maps:edit", pk, battle_map.pk)
    return render(request, "maps/new.html", {"form": form, "campaign": access.campaign, "kind": kind})


@login_required
@require_http_methods(["GET", "POST"])
def import_map(request, pk: int):
    access = authorize(request.user, Action.MAP_EDIT, pk)
    _kind_or_404(access)
    form = ImportMapForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            document = jsonsafe.loads(form.cleaned_data["raw"])
            battle_map = services.import_map(access.campaign, document)
        except (ValueError, UnicodeDecodeError):
            form.add_error(None, _("This file is not JSON."))
        except MapInvalid as invalid:
            for field, problem in invalid.fields.items():
                form.add_error(None, f"{field}: {problem}")
        else:
            messages.success(request, _("Map imported."))
            return redirect(battle_map)
    return render(request, "maps/import.html", {"form": form, "campaign": access.campaign})


@login_required
@require_GET
def section(request, pk: int):
    """The campaign page's maps panel alone: what the page reloads when told the campaign changed."""
    access = authorize(request.user, Action.MAP_VIEW, pk)
    return render(request, "maps/_section.html", maps_section_context(access))


@login_required
@require_GET
def detail(request, pk: int, map_id: int):
    access = authorize(request.user, Action.MAP_VIEW, pk)
    battle_map = _map_of(access, map_id)
    return render(request, "maps/detail.html", {"access": access, "campaign": access.campaign, "map": battle_map})


@login_required
@require_GET
def edit(request, pk: int, map_id: int):
    access = authorize(request.user, Action.MAP_EDIT, pk)
    battle_map = _map_of(access, map_id)
    vocab = vocabulary(battle_map.kind)
    editor = {
        "kind": battle_map.kind, "name": battle_map.name, "width": battle_map.width, "height": battle_map.height,
        "version": battle_map.version, "data": battle_map.data,
        "levels": vocab["levels"],
    }
    drawing = _drawing(battle_map)
    helps = field_help.for_kind(battle_map.kind)
    levels = [(name, label(name) if name != "elevation" else _("Elevation"), low, high, helps.get(name))
              for name, (low, high) in vocab["levels"].items()]
    return render(request, "maps/edit.html", {
        "campaign": access.campaign, "map": battle_map, "editor": editor,
        "editor_svg": drawing["svg"], "editor_legend": drawing["legend"], "messages_for_js": _editor_messages(),
        "terrains": [(t, label(t), helps.get(t)) for t in vocab["terrains"]],
        "flags": [(f, label(f), helps.get(f)) for f in vocab["flags"]],
        "levels": levels,
        "zone_tools": list(ZONE_TOOLS.items()),
        "tool_helps": _tool_helps(battle_map.kind, vocab, helps),
        "objective_fields": _objective_fields(helps) if battle_map.kind == "square" else [],
        "size": size_bounds(battle_map.kind),
        "help": helps,
    })


ZONE_TOOLS = {"select": gettext_lazy("Select a zone"), "add": gettext_lazy("Add a zone"),
              "link": gettext_lazy("Link two zones"), "move": gettext_lazy("Move a zone"),
              "pan": gettext_lazy("Move the view")}
OBJECTIVE_DEFAULTS = {"hp_max": 40, "vp": 2, "ac": 15}  # what the next objective placed starts with


def _tool_helps(kind: str, vocab: dict, helps: dict) -> list[tuple[str, str, object]]:
    """(help id, tool value, help) of every tool: shown under the strip while its tool is picked."""
    if kind == "zones":
        tools = [(name, name) for name in ZONE_TOOLS]
    else:
        tools = [(t, f"terrain:{t}") for t in vocab["terrains"]] + [(f, f"flag:{f}") for f in vocab["flags"]]
        tools += [(name, f"level:{name}") for name in vocab["levels"]]
        tools += [("feature", "feature")] if kind == "hex" else [("objective", "objective")]
        tools += [("pan", "pan")]
    return [(key, tool, helps.get(key)) for key, tool in tools]


def _objective_fields(helps: dict) -> list[tuple]:
    """The fields of the next objective squares placed, with the engine's bounds (D&D 5e S3.8)."""
    names = {"hp_max": _("Hit points"), "vp": _("Victory points"), "ac": _("Armour class")}
    bounds = objective_bounds()
    return [(name, text, *bounds[name], OBJECTIVE_DEFAULTS[name], helps.get(name)) for name, text in names.items()]


def _editor_messages() -> dict:
    return {
        "saving": _("Saving…"), "saved": _("Map saved."), "unsaved": _("Unsaved changes."),
        "checking": _("Checking…"), "invalid": _("The map is not valid: see the fields."),
        "conflict": _("This map was changed elsewhere since you opened it. Reload the page to get the new version."),
        "offline": _("The server did not answer. Your changes are still here: try again."),
        "links": _("Linked to:"), "none": _("nothing yet"), "pickSecond": _("Now tap the zone to link it with."),
        "pickSlot": _("Now tap a free place."), "leave": _("You have unsaved changes."),
        "zone": _("Zone"), "zoneName": zone_word("%(n)s"),
    }


def _json_body(request) -> dict:
    if len(request.body) > BODY_MAX_BYTES:
        raise MapInvalid({"": _("The map is too large.")})
    try:
        body = jsonsafe.loads(request.body)
    except (ValueError, UnicodeDecodeError):
        raise MapInvalid({"": _("The request is not JSON.")}) from None
    if not isinstance(body, dict):
        raise MapInvalid({"": _("Wrong type of value.")})
    return body


def _invalid(invalid: MapInvalid) -> JsonResponse:
    return JsonResponse(invalid.as_dict(), status=400)


def _drawing(source) -> dict:
    """What the editor redraws: the SVG (with free zone places) and the legend."""
    return {"svg": render_map_svg(source, editing=True), "legend": legend(source)}


@login_required
@require_POST
def preview(request, pk: int, map_id: int):
    """The editor's map checked and drawn, without saving: the SVG, or what is wrong."""
    access = authorize(request.user, Action.MAP_EDIT, pk)
    battle_map = _map_of(access, map_id)
    try:
        body = _json_body(request)
        width, height = body.get("width"), body.get("height")
        cleaned = clean_map(battle_map.kind, width, height, body.get("data"))
    except MapInvalid as invalid:
        return _invalid(invalid)
    source = {"kind": battle_map.kind, "width": width, "height": height, "data": cleaned}
    return JsonResponse({**_drawing(source), "data": cleaned})


@login_required
@require_POST
def save(request, pk: int, map_id: int):
    access = authorize(request.user, Action.MAP_EDIT, pk)
    battle_map = _map_of(access, map_id)
    try:
        body = _json_body(request)
        saved = services.save_map(battle_map, version=body.get("version"), name=body.get("name"),
                                  width=body.get("width"), height=body.get("height"), data=body.get("data"))
    except MapInvalid as invalid:
        return _invalid(invalid)
    except services.StaleMap as stale:
        return JsonResponse({"error": str(stale), "fields": {"version": str(stale)},
                             "version": stale.current.version}, status=409)
    return JsonResponse({"version": saved.version, "name": saved.name, "data": saved.data,
                         "message": _("Map saved.")})


@login_required
@require_POST
def visibility(request, pk: int, map_id: int):
    access = authorize(request.user, Action.MAP_EDIT, pk)
    battle_map = services.set_visible(_map_of(access, map_id), request.POST.get("visible") == "1")
    messages.success(request, _("The players see this map.") if battle_map.visible_to_players
                     else _("The map is hidden from the players."))
    return redirect(battle_map)


@login_required
@require_POST
def duplicate(request, pk: int, map_id: int):
    access = authorize(request.user, Action.MAP_EDIT, pk)
    copy = services.duplicate_map(_map_of(access, map_id))
    messages.success(request, _("Map duplicated."))
    return redirect(copy)


@login_required
@require_GET
def export(request, pk: int, map_id: int):
    access = authorize(request.user, Action.MAP_VIEW, pk)
    battle_map = _map_of(access, map_id)
    response = HttpResponse(json.dumps(services.export_map(battle_map), ensure_ascii=False, indent=1),
                            content_type="application/json")
    filename = slugify(battle_map.name) or "map"
    response["Content-Disposition"] = f'attachment; filename="{filename}.json"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def delete(request, pk: int, map_id: int):
    access = authorize(request.user, Action.MAP_EDIT, pk)
    battle_map = _map_of(access, map_id)
    if request.method == "POST":
        services.delete_map(battle_map)
        messages.success(request, _("Map deleted."))
        return redirect(access.campaign.get_absolute_url() + "#maps")
    return render(request, "maps/delete.html", {"campaign": access.campaign, "map": battle_map})
