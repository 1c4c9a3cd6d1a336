"""The REST API of the rosters: armies and heroes of a campaign, their sheets, history, export.

Same rules as the pages (:func:`authorize`, then the roster rules of
:mod:`masscombat.core.permissions`); writes go through
:mod:`masscombat.rosters.services`, so the engine validates the data and the
version is checked.  ``data`` is the engine's input format: a ``GET`` of
``export/`` gives it alone, and a ``POST`` of it (with a ``name``) imports it.
An engine refusal answers 400 ``{"data": {"<path>": "<message>"}}``; a stale
``version`` answers 409.
"""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import APIException, PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from masscombat.campaigns.access import authorize
from masscombat.core.engines import InvalidInput
from masscombat.core.permissions import Action
from masscombat.rosters import pages, selectors, services
from masscombat.rosters.models import RosterChange
from masscombat.rosters.views import KINDS


class Conflict(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_code = "conflict"


class _RosterSerializer(serializers.ModelSerializer):
    data = serializers.JSONField(required=False)
    version = serializers.IntegerField(required=False, min_value=1,
                                       help_text="The version you edited; required with data on update.")
    can_edit = serializers.SerializerMethodField()

    def get_can_edit(self, item) -> bool:
        spec, access, user = self.context["spec"], self.context["access"], self.context["user"]
        return spec.can_edit(access, user, item)

    def validate(self, attrs):
        campaign = self.context["access"].campaign
        for name in ("commander", "owner"):
            user = attrs.get(name)
            if user is not None and not campaign.memberships.filter(user=user).exists():
                raise ValidationError({name: _("Choose a member of the campaign.")})
        army = attrs.get("army")
        if army is not None and army.campaign_id != campaign.pk:
            raise ValidationError({"army": _("Choose an army of this campaign.")})
        return attrs


class ArmySerializer(_RosterSerializer):
    class Meta:
        model = KINDS["armies"].model
        fields = ["id", "name", "data", "commander", "player_may_edit", "visible_to_players", "version", "can_edit",
                  "created_at", "updated_at"]
        read_only_fields = ["created_at", "updated_at"]


class HeroSerializer(_RosterSerializer):
    class Meta:
        model = KINDS["heroes"].model
        fields = ["id", "name", "data", "owner", "army", "status", "visible_to_players", "version", "can_edit",
                  "created_at", "updated_at"]
        read_only_fields = ["created_at", "updated_at"]


class ChangeSerializer(serializers.ModelSerializer):
    user = serializers.CharField(source="user.shown_name", default=None, read_only=True)

    class Meta:
        model = RosterChange
        fields = ["id", "kind", "summary", "source_kind", "source_id", "source_label", "user", "created_at",
                  "before", "after"]


class _RosterViewSet(viewsets.ViewSet):
    kind = ""
    lookup_value_converter = "int"

    @property
    def spec(self):
        return KINDS[self.kind]

    def _context(self, access) -> dict:
        return {"spec": self.spec, "access": access, "user": self.request.user}

    def _load(self, campaign_pk: int, pk: int, *, edit: bool = False):
        access = authorize(self.request.user, Action.ROSTER_VIEW, campaign_pk)
        item = self.spec.model.objects.filter(campaign=access.campaign, pk=pk).first()
        if item is None or not self.spec.can_view(access, self.request.user, item):
            raise Http404
        if edit and not self.spec.can_edit(access, self.request.user, item):
            raise PermissionDenied
        return access, item

    def _visible(self, access):
        select = selectors.armies_for if self.kind == "armies" else selectors.heroes_for
        return select(access, self.request.user)

    def list(self, request: Request, campaign_pk: int) -> Response:
        access = authorize(request.user, Action.ROSTER_VIEW, campaign_pk)
        return Response(self.serializer_class(self._visible(access), many=True, context=self._context(access)).data)

    def create(self, request: Request, campaign_pk: int) -> Response:
        """A new one: ``data`` in the engine's format (an import), or none for the engine's blank."""
        access = authorize(request.user, Action.ROSTER_MANAGE, campaign_pk)
        serializer = self.serializer_class(data=request.data, context=self._context(access))
        serializer.is_valid(raise_exception=True)
        fields = {k: v for k, v in serializer.validated_data.items() if k not in ("data", "version")}
        data = serializer.validated_data.get("data")
        with _engine_errors():
            item = self.spec.create(access.campaign, user=request.user, data=data,
                                    kind="imported" if data is not None else "created", **fields)
        return Response(self.serializer_class(item, context=self._context(access)).data,
                        status=status.HTTP_201_CREATED)

    def retrieve(self, request: Request, campaign_pk: int, pk: int) -> Response:
        access, item = self._load(campaign_pk, pk)
        return Response(self.serializer_class(item, context=self._context(access)).data)

    def update(self, request: Request, campaign_pk: int, pk: int) -> Response:
        return self._save(request, campaign_pk, pk, partial=False)

    def partial_update(self, request: Request, campaign_pk: int, pk: int) -> Response:
        return self._save(request, campaign_pk, pk, partial=True)

    def destroy(self, request: Request, campaign_pk: int, pk: int) -> Response:
        access = authorize(request.user, Action.ROSTER_MANAGE, campaign_pk)
        if not services.delete(self.spec.model, access.campaign, pk):
            raise Http404
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    @action(detail=True, methods=["get"])
    def sheet(self, request: Request, campaign_pk: int, pk: int) -> Response:
        """The derived sheet: every derivation's output with its log, each step also in your language."""
        access, item = self._load(campaign_pk, pk)
        context = pages.sheet_context(access.campaign.ruleset, self.spec.entity, item.data)
        if context["sheet_error"]:
            return Response({"error": context["sheet_error"], "fields": dict(context["sheet_problems"])},
                            status=status.HTTP_409_CONFLICT)
        return Response({"sheets": context["sheets"], "strength": context["strength"], "log": context["log"]})

    @extend_schema(responses={200: ChangeSerializer(many=True)})
    @action(detail=True, methods=["get"])
    def history(self, request: Request, campaign_pk: int, pk: int) -> Response:
        _access, item = self._load(campaign_pk, pk)
        return Response(ChangeSerializer(selectors.history(item), many=True).data)

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    @action(detail=True, methods=["get"])
    def export(self, request: Request, campaign_pk: int, pk: int) -> Response:
        """The data alone, in the engine's format: what ``create`` takes back as ``data``."""
        _access, item = self._load(campaign_pk, pk)
        return Response(item.data)

    @extend_schema(request=inline_serializer("RestoreRequest", {"version": serializers.IntegerField()}))
    @action(detail=True, methods=["post"], url_path="restore/<int:change_id>")
    def restore(self, request: Request, campaign_pk: int, pk: int, change_id: int) -> Response:
        """Put the data back as it was after an earlier change of the history (``version`` required)."""
        access, item = self._load(campaign_pk, pk, edit=True)
        change = item.changes.filter(pk=change_id, after__isnull=False).first()
        if change is None:
            raise Http404
        body = request.data if isinstance(request.data, dict) else {}  # a JSON list or number names no version
        version = body.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise ValidationError({"version": _("Send the version you edited, so no one's change is lost.")})
        with _engine_errors():
            try:
                item = self.spec.update(item, change.after, user=request.user, expected_version=version,
                                        kind="restored")
            except services.VersionConflict as error:
                raise Conflict({"version": error.message_dict["version"]}) from None
        return Response(self.serializer_class(item, context=self._context(access)).data)

    def _save(self, request: Request, campaign_pk: int, pk: int, partial: bool) -> Response:
        access, item = self._load(campaign_pk, pk, edit=True)
        serializer = self.serializer_class(item, data=request.data, partial=partial, context=self._context(access))
        serializer.is_valid(raise_exception=True)
        values = dict(serializer.validated_data)
        version = values.pop("version", None)
        data = values.pop("data", item.data)
        if "data" in request.data and version is None:
            raise ValidationError({"version": _("Send the version you edited, so no one's change is lost.")})
        changed_settings = {name for name, value in values.items() if getattr(item, name) != value}
        if changed_settings and not access.can(Action.ROSTER_MANAGE):
            raise PermissionDenied(_("Only the game master changes these: %(fields)s.")
                                   % {"fields": ", ".join(sorted(changed_settings))})
        with _engine_errors():
            try:
                item = self.spec.update(item, data, user=request.user, expected_version=version, **values)
            except services.VersionConflict as error:
                raise Conflict({"version": error.message_dict["version"]}) from None
        return Response(self.serializer_class(item, context=self._context(access)).data)


class _engine_errors:
    """Turn the engine's refusal into a 400 naming each path of ``data``."""

    def __enter__(self):
        return self

    def __exit__(self, kind, error, traceback):
        if isinstance(error, InvalidInput):
            raise ValidationError({"data": error.fields or {"": error.error}}) from None
        return False


class ArmyViewSet(_RosterViewSet):
    """A campaign's armies: the GM's to create and manage; the commanding player edits when allowed."""

    kind = "armies"
    serializer_class = ArmySerializer


class HeroViewSet(_RosterViewSet):
    """A campaign's heroes: the GM's to create and manage; their player edits them."""

    kind = "heroes"
    serializer_class = HeroSerializer
