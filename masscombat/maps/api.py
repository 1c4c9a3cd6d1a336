"""The REST API of battle maps: list, read, create (or import), save with the version, delete, and the SVG.

Same rules as the pages: every member reads, the GM writes (:func:`authorize`
with the map actions).  Writes go through :mod:`masscombat.maps.services`, so
the engines' checks apply: a refused map answers 400 with one message per
path (``{"cells[3].terrain": "..."}``), a save over a newer version 409.
"""

from __future__ import annotations

from django.http import Http404, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from masscombat.campaigns.access import authorize
from masscombat.core.permissions import Action
from masscombat.maps import services
from masscombat.maps.models import MAX_SIDE, BattleMap
from masscombat.maps.render import render_map_svg
from masscombat.maps.selectors import map_for, maps_for
from masscombat.maps.validation import MapInvalid


class Conflict(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_code = "conflict"


class MapSerializer(serializers.ModelSerializer):
    width = serializers.IntegerField(required=False, min_value=1, max_value=MAX_SIDE,
                                     help_text="Squares, hexes or zone places across; the kind's default when absent.")
    height = serializers.IntegerField(required=False, min_value=1, max_value=MAX_SIDE)
    data = serializers.JSONField(required=False, help_text="Terrain in the ruleset's own terms (see the model's doc).")
    version = serializers.IntegerField(required=False, min_value=1, help_text="The version you edited; required to save.")

    class Meta:
        model = BattleMap
        fields = ["id", "name", "kind", "width", "height", "data", "visible_to_players", "version", "created_at",
                  "updated_at"]
        read_only_fields = ["kind", "created_at", "updated_at"]


class MapSummarySerializer(serializers.ModelSerializer):
    class Meta:
        model = BattleMap
        fields = ["id", "name", "kind", "width", "height", "visible_to_players", "version", "updated_at"]


def _refused(invalid: MapInvalid) -> ValidationError:
    return ValidationError(invalid.fields)


class MapViewSet(viewsets.ViewSet):
    lookup_value_converter = "int"
    serializer_class = MapSerializer

    def _load(self, campaign_pk: int, pk: int, action_: Action) -> BattleMap:
        access = authorize(self.request.user, action_, campaign_pk)
        found = map_for(access, pk)
        if found is None:
            raise Http404
        return found

    @extend_schema(responses=MapSummarySerializer(many=True))
    def list(self, request: Request, campaign_pk: int) -> Response:
        access = authorize(request.user, Action.MAP_VIEW, campaign_pk)
        return Response(MapSummarySerializer(maps_for(access), many=True).data)

    def retrieve(self, request: Request, campaign_pk: int, pk: int) -> Response:
        return Response(MapSerializer(self._load(campaign_pk, pk, Action.MAP_VIEW)).data)

    def create(self, request: Request, campaign_pk: int) -> Response:
        """A new map of the campaign's kind: empty ground, or the ``data`` given (an import)."""
        access = authorize(request.user, Action.MAP_EDIT, campaign_pk)
        serializer = MapSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        fields = {k: v for k, v in serializer.validated_data.items() if k not in ("version", "visible_to_players")}
        try:
            made = services.create_map(access.campaign, **fields)
        except MapInvalid as invalid:
            raise _refused(invalid) from None
        if serializer.validated_data.get("visible_to_players") is False:
            services.set_visible(made, False)
        return Response(MapSerializer(made).data, status=status.HTTP_201_CREATED)

    def update(self, request: Request, campaign_pk: int, pk: int, partial: bool = False) -> Response:
        """Save: the fields not given keep their value; ``version`` must be the one you edited."""
        battle_map = self._load(campaign_pk, pk, Action.MAP_EDIT)
        serializer = MapSerializer(battle_map, data=request.data, partial=partial)
        serializer.is_valid(raise_exception=True)
        given = serializer.validated_data
        if set(given) == {"visible_to_players"}:
            return Response(MapSerializer(services.set_visible(battle_map, given["visible_to_players"])).data)
        if "version" not in given:
            raise ValidationError({"version": serializers.Field.default_error_messages["required"]})
        try:
            saved = services.save_map(
                battle_map, version=given["version"], name=given.get("name", battle_map.name),
                width=given.get("width", battle_map.width), height=given.get("height", battle_map.height),
                data=given.get("data", battle_map.data),
            )
        except MapInvalid as invalid:
            raise _refused(invalid) from None
        except services.StaleMap as stale:
            raise Conflict(str(stale)) from None
        if "visible_to_players" in given:
            saved = services.set_visible(saved, given["visible_to_players"])
        return Response(MapSerializer(saved).data)

    def partial_update(self, request: Request, campaign_pk: int, pk: int) -> Response:
        return self.update(request, campaign_pk, pk, partial=True)

    def destroy(self, request: Request, campaign_pk: int, pk: int) -> Response:
        services.delete_map(self._load(campaign_pk, pk, Action.MAP_EDIT))
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(responses={(200, "image/svg+xml"): OpenApiTypes.STR})
    @action(detail=True, methods=["get"])
    def svg(self, request: Request, campaign_pk: int, pk: int) -> HttpResponse:
        """The map drawn as SVG (terrain only; colours come from the site's maps.css classes)."""
        battle_map = self._load(campaign_pk, pk, Action.MAP_VIEW)
        return HttpResponse(render_map_svg(battle_map, label=battle_map.name), content_type="image/svg+xml")
