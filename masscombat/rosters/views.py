"""Roster pages: armies and heroes, their sheets, editors, history, import and export.

Armies and heroes share every view; :data:`KINDS` says what differs (model,
permission rules, service, settings form).  Thin views: :func:`authorize`
first, then the roster rules of :mod:`masscombat.core.permissions`, then a
service or a selector.  Outsiders get 404, members without the right 403.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import formats, timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from masscombat.campaigns.access import authorize
from masscombat.core import permissions
from masscombat.core.engines import InvalidInput
from masscombat.core.permissions import Action
from masscombat.rosters import (
    adapters,
    editing,
    forms,
    naming,
    pages,
    presets,
    references,
    refusals,
    schema_forms,
    selectors,
    services,
)
from masscombat.rosters.models import Army, Hero


@dataclass(frozen=True)
class RosterKind:
    """What differs between armies and heroes in the views."""

    entity: str
    model: type
    can_view: Any
    can_edit: Any
    settings_form: type
    create: Any
    update: Any


KINDS = {
    "armies": RosterKind("army", Army, permissions.can_view_army, permissions.can_edit_army,
                         forms.ArmySettingsForm, services.create_army, services.update_army),
    "heroes": RosterKind("hero", Hero, permissions.can_view_hero, permissions.can_edit_hero,
                         forms.HeroSettingsForm, services.create_hero, services.update_hero),
}


def _load(request, pk: int, kind: str, item_id: int, *, edit: bool = False):
    """The campaign access, the kind and the army or hero, once the user may see (or edit) it."""
    spec = KINDS[kind]
    access = authorize(request.user, Action.ROSTER_VIEW, pk)
    related = ("campaign", "army") if spec.model is Hero else ("campaign",)  # a hero's army names its references
    item = spec.model.objects.select_related(*related).filter(campaign=access.campaign, pk=item_id).first()
    if item is None or not spec.can_view(access, request.user, item):
        raise Http404
    if edit and not spec.can_edit(access, request.user, item):
        raise PermissionDenied
    return access, spec, item


def _kind(spec: RosterKind, slug: str) -> adapters.Kind:
    return getattr(adapters.get(slug), spec.entity)


@login_required
@require_GET
def section(request, pk: int):
    """The campaign page's armies and heroes alone: what the page reloads when told the campaign changed."""
    access = authorize(request.user, Action.ROSTER_VIEW, pk)
    return render(request, "rosters/_section.html", pages.section_context(access, request.user))


@login_required
@require_GET
def detail(request, pk: int, kind: str, item_id: int):
    access, spec, item = _load(request, pk, kind, item_id)
    slug = access.campaign.ruleset
    changes = list(selectors.history(item))
    options_schema = _kind(spec, slug).options
    # What the sheet is computed for (SYNAPSE: the battle's mode, terrain...), from the page's small form.
    options = schema_forms.read(options_schema(), request.GET) if options_schema and request.GET else None
    context = {
        **_base(access, spec, item, request.user),
        **pages.sheet_context(slug, spec.entity, item.data, options, title=item.name),
        "options_form": schema_forms.build(slug, options_schema(), options or {}) if options_schema else None,
        "composition": pages.describe(
            slug, "composition", item.data,
            {**(pages.names_of(slug, item.army.data) if kind == "heroes" and item.army_id else {}),
             **pages.names_of(slug, item.data, item.name)},
            frozenset(references.SET_BY_THE_BATTLE.get(slug, {}).get(spec.entity, ()))),
        # An army's heroes, as far as this member may see them (one query).
        "army_heroes": list(selectors.heroes_for(access, request.user).filter(army=item)) if kind == "armies" else [],
        "changes": changes,
        "chart": pages.strength_chart(selectors.strength_points(changes)),
    }
    return render(request, "rosters/detail.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def edit(request, pk: int, kind: str, item_id: int):
    """The editor: the engine's schema as a form, the sheet beside it, recomputed as one types."""
    access, spec, item = _load(request, pk, kind, item_id, edit=True)
    slug = access.campaign.ruleset
    schema = _kind(spec, slug).schema()
    settings = _settings_form(request, access, spec, item)
    errors: dict[str, str] = {}
    problem = ""
    data = item.data
    version = item.version
    previous = ""
    if request.method == "POST":
        data, previous = editing.apply(slug, schema, request.POST)
        version = _int(request.POST.get("_version"))
        if not {"_add", "_remove", "_refresh", "_duplicate", "_move", "_undo"} & set(request.POST):
            try:
                if settings is not None and not settings.is_valid():
                    raise ValidationError(_("Check the settings above."))
                fields = settings.cleaned_data if settings is not None else {}
                if "name" in fields and isinstance(data, dict) and "name" in data:
                    data["name"] = fields["name"]  # one name, typed once: the engine's is the roster's
                spec.update(item, data, user=request.user, expected_version=version, **fields)
            except InvalidInput as error:
                errors, problem = error.fields, _("Nothing was saved: the rules refuse some values (marked below).")
            except ValidationError as error:
                problem = " ".join(error.messages)
            else:
                messages.success(request, _("Saved."))
                if request.htmx:
                    response = HttpResponse(status=204)
                    response["HX-Redirect"] = item.get_absolute_url()
                    return response
                return redirect(item)
    form = schema_forms.build(slug, schema, data, errors,
                              around=item.army.data if spec.entity == "hero" and item.army_id else None,
                              known=selectors.known_to_the_editor(access.campaign, item), entity=spec.entity)
    context = {
        **_base(access, spec, item, request.user),
        **pages.sheet_context(slug, spec.entity, data, title=item.name),
        "form": form,
        "first_error": schema_forms.first_error(form) if errors else "",
        "errors": errors,
        "problem": problem,
        "settings": settings,
        "version": version,
        "previous": previous,
        "sizes": presets.templates(slug, "troops") if slug == "seventh_sea" and spec.entity == "army" else [],
    }
    template = "rosters/_editor.html" if request.htmx and request.POST else "rosters/edit.html"
    return render(request, template, context)


@login_required
@require_POST
def preview(request, pk: int, kind: str, item_id: int):
    """The sheet of what the editor holds now, unsaved: swapped in beside the form by htmx."""
    access, spec, item = _load(request, pk, kind, item_id, edit=True)
    slug = access.campaign.ruleset
    data = schema_forms.read(_kind(spec, slug).schema(), request.POST)
    context = {**_base(access, spec, item, request.user), **pages.sheet_context(slug, spec.entity, data, title=item.name)}
    return render(request, "rosters/_sheet.html", context)


@login_required
@require_POST
def restore(request, pk: int, kind: str, item_id: int, change_id: int):
    """Put back the data as it was after an earlier change: nothing saved is ever lost."""
    _access, spec, item = _load(request, pk, kind, item_id, edit=True)
    change = item.changes.filter(pk=change_id, after__isnull=False).first()
    if change is None:
        raise Http404
    version = _int(request.POST.get("_version"))
    try:
        if version is None:
            raise ValidationError(_("Reload the page and try again."))
        spec.update(item, change.after, user=request.user, expected_version=version, kind="restored")
    except (InvalidInput, ValidationError) as error:
        problem = error.error if isinstance(error, InvalidInput) else " ".join(error.messages)
        messages.error(request, _("Not restored: %(problem)s") % {"problem": problem})
    else:
        messages.success(request, _("Restored as it was on %(date)s.") % {
            "date": formats.date_format(timezone.localtime(change.created_at), "SHORT_DATETIME_FORMAT")})
    return redirect(item)


@login_required
@require_GET
def export(request, pk: int, kind: str, item_id: int):
    """The data as the engine reads it: a backup, or a copy for another campaign."""
    _access, _spec, item = _load(request, pk, kind, item_id)
    response = HttpResponse(json.dumps(item.data, ensure_ascii=False, indent=2), content_type="application/json")
    filename = f"{slugify(item.name) or kind}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def create(request, pk: int, kind: str):
    """A new army or hero: from a template of the gallery, from the engine's blank one, or imported from JSON."""
    access = authorize(request.user, Action.ROSTER_MANAGE, pk)
    spec = KINDS[kind]
    slug = access.campaign.ruleset
    importing = request.GET.get("import") is not None or "file" in request.FILES or "text" in request.POST
    form_class = forms.ImportForm if importing else forms.NewForm
    form = form_class(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        data, name = form.cleaned_data.get("data"), form.cleaned_data["name"]
        chosen = request.POST.get("template", "")
        if not importing:
            name, data = _from_template(access.campaign, spec, chosen, name)
        try:
            if chosen and data is None:
                raise InvalidInput("unknown template", {})
            item = spec.create(access.campaign, name=name, user=request.user, data=data,
                               kind="imported" if importing else "created")
        except InvalidInput as error:
            form.add_error(None, _("The rules refuse this JSON:") if importing else _("This template does not exist."))
            for path, message in list(error.fields.items())[:20]:
                form.add_error(None, _("%(where)s: %(what)s") % {
                    "where": pages.in_words(slug, data, path), "what": refusals.said(slug, message)})
        else:
            messages.success(request, _("Imported.") if importing else _("Created: fill it in."))
            return redirect(item if importing else f"{item.get_absolute_url()}edit/")
    return render(request, "rosters/create.html", {
        "campaign": access.campaign, "spec": spec, "form": form, "importing": importing,
        "gallery": [] if importing else [(presets.section_title(section), section, items)
                                         for section, items in presets.gallery(slug, spec.entity)],
    })


def _from_template(campaign, spec: RosterKind, chosen: str, name: str) -> tuple[str, dict | None]:
    """The name and data of a new army or hero: the chosen template's (``armies:<key>``), else the blank one.

    An empty name becomes the template's name, or "Army 3" / "Hero 2", numbered after those already there.
    """
    section, _sep, key = chosen.partition(":")
    template = presets.find(campaign.ruleset, section, key) if section in presets.KINDS else None
    taken = spec.model.objects.filter(campaign=campaign).values_list("name", flat=True)
    if not name:
        base = template.name if template else (_("Army") if spec.entity == "army" else _("Hero"))
        name = base if template and base not in taken else naming.numbered(base, taken)
    if template is None:
        return name, None
    return name, presets.start(campaign.ruleset, spec.entity, section, key, name)


@login_required
@require_POST
def delete(request, pk: int, kind: str, item_id: int):
    access = authorize(request.user, Action.ROSTER_MANAGE, pk)
    if not services.delete(KINDS[kind].model, access.campaign, item_id):
        raise Http404
    messages.success(request, _("Deleted."))
    return redirect(access.campaign)


def _settings_form(request, access, spec, item):
    """Who commands or owns it and who sees it: the GM's to decide."""
    if not access.can(Action.ROSTER_MANAGE):
        return None
    return spec.settings_form(request.POST or None, instance=item, campaign=access.campaign, prefix="meta")


def _base(access, spec, item, user) -> dict:
    return {
        "access": access,
        "campaign": access.campaign,
        "spec": spec,
        "item": item,
        "can_edit": spec.can_edit(access, user, item),
        "can_manage": access.can(Action.ROSTER_MANAGE),
    }


def _int(raw) -> int | None:
    try:
        return int(raw)
    except (TypeError, ValueError):
        return None
