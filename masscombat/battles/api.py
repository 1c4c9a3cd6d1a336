"""The REST API of battles: what a bot (or any client) needs to play one end to end.

Same checks as the battle room, by the same code: the viewer is loaded by
:func:`selectors.viewer` (404 to outsiders, 403 to a player asking for a GM
action); what one sees is the engine's ``visible-state`` for them and the
room's "who has declared" list as it shows it to them; a declaration goes
through the room's own form and ``check-declaration`` before
:func:`services.declare` stores it, so whatever the room refuses is refused
here, on its path (``{"declaration": {"<path>": ["..."]}}``).  Every write names
the round the caller saw (pause names the status wanted): the same request sent
twice has one effect.  Events are the live ones the caller's audiences hear
(:func:`live.missed`, the websocket's catch-up).  Every endpoint that asks the
engines does it within the rules API's budget (:func:`budgeted`): a request
cannot hold a server thread longer than ``ENGINE_API_SECONDS``, and a write
cut short keeps nothing.
"""

from __future__ import annotations

import functools
import json

from django import forms as django_forms
from django.conf import settings
from django.http import Http404, QueryDict
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from masscombat.battles import deadlines, declaration_check, live, pages, selectors, services
from masscombat.battles.forms import EngineJSONField
from masscombat.battles.models import Battle
from masscombat.campaigns.access import authorize
from masscombat.core import engine_budget
from masscombat.core.permissions import Action

# -- answers ------------------------------------------------------------------------------------------


class BattleSummarySerializer(serializers.ModelSerializer):
    status = serializers.CharField(read_only=True, help_text=", ".join(Battle.Status.values))
    current_round = serializers.IntegerField(read_only=True, help_text="The round declarations are for.")

    class Meta:
        model = Battle
        fields = ["id", "name", "ruleset", "status", "round", "current_round", "created_at"]


class DeadlineSerializer(serializers.Serializer):
    minutes = serializers.IntegerField(allow_null=True, help_text="Each round's time, when the GM set one.")
    at = serializers.DateTimeField(allow_null=True, help_text="When the round resolves (null while paused).")
    left = serializers.IntegerField(allow_null=True, help_text="Seconds kept while the clock is paused.")
    version = serializers.IntegerField()


class SlotSerializer(serializers.Serializer):
    """One participant of the room's "who has declared" list, as the caller may know it."""

    participant = serializers.CharField(source="key")
    name = serializers.CharField()
    side = serializers.CharField()
    player = serializers.CharField()
    must_declare = serializers.BooleanField()
    declared = serializers.BooleanField()
    shown = serializers.SerializerMethodField(
        help_text="The orders as the room shows them to you (labels), when you may read them.")

    def get_shown(self, slot) -> list[dict[str, str]]:
        return [{"option": str(option), "value": str(value)} for option, value in slot.shown]


class OwnParticipantSerializer(serializers.Serializer):
    participant = serializers.CharField()
    name = serializers.CharField()
    side = serializers.CharField(allow_null=True)
    declaration = serializers.JSONField(allow_null=True, help_text="What you declared this round, if anything.")


class BattleSerializer(BattleSummarySerializer):
    deadline = serializers.SerializerMethodField()
    state = serializers.SerializerMethodField(
        help_text="The engine's visible-state for you: all of it for the GM, your side's view for a player.")
    declarations = serializers.SerializerMethodField(help_text="Who declares this round and who has, as the room "
                                                               "shows it to you.")
    participants = serializers.SerializerMethodField(help_text="Those you declare for (the GM: everyone, and 'gm').")
    last_seq = serializers.IntegerField(read_only=True, help_text="Ask for the events after this number to follow on.")

    class Meta(BattleSummarySerializer.Meta):
        fields = [*BattleSummarySerializer.Meta.fields, "version", "auto_resolve", "deadline", "state", "declarations",
                  "participants", "last_seq"]

    @extend_schema_field(DeadlineSerializer(allow_null=True))
    def get_deadline(self, battle):
        """The round's clock, or null when the battle has none."""
        if battle.deadline_minutes is None and deadlines.seconds_left(battle) is None:
            return None
        return {**deadlines.payload(battle), "minutes": battle.deadline_minutes}

    @extend_schema_field(serializers.JSONField(allow_null=True))
    def get_state(self, battle):
        return selectors.visible_state(self.context["viewer"])

    @extend_schema_field(SlotSerializer(many=True))
    def get_declarations(self, battle):
        viewer = self.context["viewer"]
        expected = selectors.expected(battle, viewer.participants) if battle.accepts_declarations else {}
        slots = pages.slots(viewer, expected, selectors.declarations(battle), set())
        return SlotSerializer(slots, many=True).data

    @extend_schema_field(OwnParticipantSerializer(many=True))
    def get_participants(self, battle):
        viewer = self.context["viewer"]
        declared = selectors.declarations(battle)
        played = viewer.participants if viewer.is_gm else viewer.mine
        rows = [{"participant": p.key, "name": pages.participant_name(selectors.seen_names(viewer), p),
                 "side": p.side} for p in played]
        if viewer.is_gm:
            rows.append({"participant": selectors.GM_KEY, "name": _("Game master's overrides"), "side": None})
        return OwnParticipantSerializer([
            {**row, "declaration": declared[row["participant"]].data if row["participant"] in declared else None}
            for row in rows], many=True).data


class OptionsSerializer(serializers.Serializer):
    participant = serializers.CharField()
    round = serializers.IntegerField()
    must_declare = serializers.BooleanField()
    note = serializers.CharField(help_text="What the room says above this participant's form, if anything.")
    options = serializers.ListField(child=serializers.JSONField(), help_text=(
        "The engine's declaration-options the room offers you for this participant: each has a path, a type, "
        "the allowed values and the forbidden ones with the reason."))
    declaration = serializers.JSONField(allow_null=True, help_text="What is declared for it this round, if anything.")


class EventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    prev = serializers.IntegerField(help_text="The number of the event you heard just before this one.")
    kind = serializers.CharField()
    audience = serializers.CharField()
    payload = serializers.JSONField()


class EventsSerializer(serializers.Serializer):
    events = EventSerializer(many=True)
    reload = serializers.BooleanField(help_text=(
        "Too many events were missed to list them: read the battle again and follow on after its last_seq."))


# -- requests ------------------------------------------------------------------------------------------


class DeclareSerializer(serializers.Serializer):
    participant = serializers.CharField(max_length=100, help_text="A key from the battle's participants.")
    round = serializers.IntegerField(min_value=1, help_text="The round you declare for (the battle's current_round).")
    declaration = serializers.DictField(child=serializers.JSONField(allow_null=True), help_text=(
        "{option path: value}, from the participant's options."))


class ResolveSerializer(serializers.Serializer):
    round = serializers.IntegerField(min_value=1, help_text="The round to resolve (the battle's current_round).")
    confirm_defaults = serializers.BooleanField(default=False, help_text=(
        "Resolve even though some have not declared: they get the engine's default orders."))


class UndoSerializer(serializers.Serializer):
    round = serializers.IntegerField(min_value=1, help_text="The last resolved round (the battle's round).")


class RequiredBooleanField(serializers.BooleanField):
    """Required in a form body too (DRF reads a box absent from a form as false): pausing is asked for, never assumed."""

    default_empty_html = serializers.empty


class PauseSerializer(serializers.Serializer):
    paused = RequiredBooleanField(help_text="true pauses the battle, false resumes it.")


class AfterSerializer(serializers.Serializer):
    after = serializers.IntegerField(min_value=0, default=0)


def _valid(serializer_class, data):
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


# -- a declaration as the room's form posts it -------------------------------------------------------------


def _as_posted(fields: dict, declaration: dict) -> tuple[QueryDict, dict]:
    """``{path: value}`` as the room's form would post it, and a message per value of the wrong kind.

    The form is the room's check of what may be chosen: values travel the way its fields
    read them (choices JSON-encoded, a ticked box ``on``).  Paths the form does not offer
    are left out here and refused by the caller.
    """
    posted, wrong = QueryDict(mutable=True), {}
    for path, value in declaration.items():
        field = fields.get(path)
        if field is None or value is None:
            continue
        if isinstance(field, django_forms.BooleanField):
            if not isinstance(value, bool):
                wrong[path] = [_("Send true or false.")]
            elif value:
                posted[path] = "on"
        elif isinstance(field, django_forms.MultipleChoiceField):
            if isinstance(value, list):
                posted.setlist(path, [_choice(field, item) for item in value])
            else:
                wrong[path] = [_("Send a list of values.")]
        elif isinstance(field, django_forms.ChoiceField):
            posted[path] = _choice(field, value)
        elif isinstance(field, EngineJSONField):
            posted[path] = json.dumps(value)
        elif isinstance(value, (str, int)) and not isinstance(value, bool):
            posted[path] = str(value)
        else:
            wrong[path] = [_("Send a text or a number.")]
    return posted, wrong


def _choice(field, value) -> str:
    """The form's own spelling of the choice equal to ``value`` (an object's keys in any order), else
    ``value`` in JSON, which the form refuses as not one of its choices."""
    for text, _label in field.choices:
        if text and json.loads(text) == value:
            return text
    return json.dumps(value)


def _form_entry(viewer, declared: dict, key: str, declaration: dict | None = None):
    """The room's form entry for ``key`` (None: nothing to declare now), bound to ``declaration`` when given,
    and the messages for values of the wrong kind.

    A form's fields may follow what is posted (a JdRWiki hero's moderation sets how many bonuses
    he gives up): it is built again until the posted values meet the fields that read them.
    """
    entry = next(iter(pages.declaration_forms(viewer, declared, only=key)), None)
    if entry is None or declaration is None:
        return entry, {}
    for _attempt in range(3):
        fields = entry["form"].fields
        posted, wrong = _as_posted(fields, declaration)
        entry = next(iter(pages.declaration_forms(viewer, declared, posted, key, only=key)), None)
        if entry is None or set(entry["form"].fields) == set(fields):
            break
    return entry, wrong


def _refusals(form) -> dict:
    """The form's errors (the engine's refusals among them), one list per path; the others on the form."""
    errors = {path: list(messages) for path, messages in form.errors.items() if path != "__all__"}
    if "__all__" in form.errors:
        errors["non_field_errors"] = list(form.errors["__all__"])
    return {"declaration": errors}


def _may_declare(viewer, key: str) -> bool:
    """The room's rule: a player for what they play, the GM for everyone and under ``gm``."""
    return viewer.controls(key) and (key != selectors.GM_KEY or viewer.is_gm)


def _open_round(battle: Battle, number: int) -> None:
    """The round asked for is the one open for declarations (the services' own words)."""
    if battle.status == Battle.Status.PAUSED:
        raise ValidationError({"non_field_errors": [_("The battle is paused.")]})
    if battle.status != Battle.Status.RUNNING:
        raise ValidationError({"non_field_errors": [_("The battle is over.")]})
    if number != battle.current_round:
        raise ValidationError({"round": [_("Round %(n)s is over: the battle is at round %(current)s now.")
                                         % {"n": number, "current": battle.current_round}]})


# -- the engines' time budget ------------------------------------------------------------------------------


class BudgetRefused(APIException):
    """A refusal of the budget, with the Retry-After a client waits before trying again."""

    def __init__(self, detail: str, code: int, retry: int):
        super().__init__(detail)
        self.status_code = code
        self.retry = retry


def budgeted(handler):
    """Run the endpoint with every engine operation under the caller's budget (per user, as the rules API).

    Past ``ENGINE_API_SECONDS`` the answer is 503 and the operation's result is
    dropped: raised inside a write's transaction, it rolls the write back.
    """
    @functools.wraps(handler)
    def wrapped(self, request: Request, *args, **kwargs) -> Response:
        try:
            with engine_budget.budgeted(f"user:{request.user.pk}", seconds=settings.ENGINE_API_SECONDS,
                                        limit=settings.ENGINE_API_CONCURRENT):
                return handler(self, request, *args, **kwargs)
        except (engine_budget.TooManyRuns, engine_budget.OverBudget) as exc:
            raise BudgetRefused(*engine_budget.refusal(exc)) from None

    return wrapped


# -- the endpoints -----------------------------------------------------------------------------------------

PARTICIPANT = OpenApiParameter("participant", str, required=True, description="A key from the battle's participants.")
AFTER = OpenApiParameter("after", int, description="The last event number you have (0: from the start).")


class BattleViewSet(viewsets.ViewSet):
    """A campaign's battles, played as in the room: members read and declare, the GM resolves."""

    lookup_value_converter = "int"
    serializer_class = BattleSerializer

    def handle_exception(self, exc):
        response = super().handle_exception(exc)
        if isinstance(exc, BudgetRefused):
            response["Retry-After"] = str(exc.retry)
        return response

    def _viewer(self, campaign_pk: int, pk: int, wanted: Action) -> selectors.Viewer:
        viewer = selectors.viewer(self.request.user, wanted, pk)
        if viewer.battle.campaign_id != campaign_pk:
            raise Http404
        return viewer

    def _detail(self, campaign_pk: int, pk: int) -> Response:
        """The battle as the caller sees it now, after a write."""
        viewer = self._viewer(campaign_pk, pk, Action.BATTLE_VIEW)
        return Response(BattleSerializer(viewer.battle, context={"viewer": viewer}).data)

    @extend_schema(responses=BattleSummarySerializer(many=True))
    def list(self, request: Request, campaign_pk: int) -> Response:
        access = authorize(request.user, Action.BATTLE_VIEW, campaign_pk)
        battles = selectors.battles_of(access.campaign.pk).order_by("-created_at", "-pk")
        return Response(BattleSummarySerializer(battles, many=True).data)

    @budgeted
    def retrieve(self, request: Request, campaign_pk: int, pk: int) -> Response:
        return self._detail(campaign_pk, pk)

    @extend_schema(parameters=[PARTICIPANT], responses=OptionsSerializer)
    @action(detail=True, methods=["get"], url_path="options", url_name="options")
    @budgeted
    def declaration_options(self, request: Request, campaign_pk: int, pk: int) -> Response:
        """What one of your participants may declare this round: the options the room's form offers you."""
        viewer = self._viewer(campaign_pk, pk, Action.BATTLE_VIEW)
        key = request.query_params.get("participant")
        if not key:
            raise ValidationError({"participant": [serializers.Field.default_error_messages["required"]]})
        declared = selectors.declarations(viewer.battle)
        entry = _form_entry(viewer, declared, key)[0] if _may_declare(viewer, key) else None
        if entry is None:
            raise Http404
        form, existing = entry["form"], declared.get(key)
        return Response(OptionsSerializer({
            "participant": key, "round": viewer.battle.current_round, "must_declare": entry["must_declare"],
            "note": str(entry["note"] or ""), "options": [form.engine_options[path] for path in form.fields],
            "declaration": existing.data if existing else None}).data)

    @extend_schema(request=DeclareSerializer, responses=BattleSerializer)
    @action(detail=True, methods=["post"])
    @budgeted
    def declare(self, request: Request, campaign_pk: int, pk: int) -> Response:
        """Declare (or declare again) for one of your participants; refused on the paths the room would refuse."""
        viewer = self._viewer(campaign_pk, pk, Action.BATTLE_DECLARE)
        given = _valid(DeclareSerializer, request.data)
        key, declaration = given["participant"], given["declaration"]
        if not _may_declare(viewer, key):
            raise ValidationError({"participant": [_("You do not play this participant.")]})
        _open_round(viewer.battle, given["round"])
        declared = selectors.declarations(viewer.battle)
        entry, wrong = _form_entry(viewer, declared, key, declaration)
        if entry is None:
            raise ValidationError({"participant": [_("There is nothing to declare for this participant now.")]})
        form = entry["form"]
        unknown = {path: [_("Not among this participant's options now.")] for path in declaration
                   if path not in form.fields}
        if unknown or wrong:
            raise ValidationError({"declaration": {**unknown, **wrong}})
        if not (form.is_valid() and declaration_check.engine_accepts(form, viewer, key, declared)):
            raise ValidationError(_refusals(form))
        services.declare(request.user, pk, key, form.declaration(), expected_round=given["round"])
        return self._detail(campaign_pk, pk)

    @extend_schema(request=ResolveSerializer, responses=BattleSerializer)
    @action(detail=True, methods=["post"])
    @budgeted
    def resolve(self, request: Request, campaign_pk: int, pk: int) -> Response:
        """The GM resolves the round; with declarations missing, ``confirm_defaults`` must say so."""
        self._viewer(campaign_pk, pk, Action.BATTLE_MANAGE)
        given = _valid(ResolveSerializer, request.data)
        try:
            services.resolve_round(request.user, pk, expected_round=given["round"],
                                   confirmed_missing=given["confirm_defaults"])
        except services.MissingDeclarations as missing:
            names = ", ".join(f"{p.name} ({p.key})" for p in missing.participants)
            raise ValidationError({"confirm_defaults": [
                _("Not declared yet: %(names)s. Send confirm_defaults true to give them their default orders.")
                % {"names": names}]}) from None
        return self._detail(campaign_pk, pk)

    @extend_schema(request=UndoSerializer, responses=BattleSerializer)
    @action(detail=True, methods=["post"])
    @budgeted
    def undo(self, request: Request, campaign_pk: int, pk: int) -> Response:
        """The GM puts the battle back as it was before the last resolved round."""
        self._viewer(campaign_pk, pk, Action.BATTLE_MANAGE)
        services.undo_round(request.user, pk, expected_round=_valid(UndoSerializer, request.data)["round"])
        return self._detail(campaign_pk, pk)

    @extend_schema(request=PauseSerializer, responses=BattleSerializer)
    @action(detail=True, methods=["post"])
    @budgeted
    def pause(self, request: Request, campaign_pk: int, pk: int) -> Response:
        """The GM pauses (``paused`` true) or resumes (false) the battle."""
        self._viewer(campaign_pk, pk, Action.BATTLE_MANAGE)
        services.set_paused(request.user, pk, _valid(PauseSerializer, request.data)["paused"])
        return self._detail(campaign_pk, pk)

    @extend_schema(parameters=[AFTER], responses=EventsSerializer)
    @action(detail=True, methods=["get"])
    def events(self, request: Request, campaign_pk: int, pk: int) -> Response:
        """The live events you hear after ``after``, oldest first; ``reload`` when too many were missed."""
        viewer = self._viewer(campaign_pk, pk, Action.BATTLE_VIEW)
        after = _valid(AfterSerializer, request.query_params)["after"]
        found = live.missed(viewer.battle.pk, after, viewer.is_gm, viewer.audiences)
        return Response(EventsSerializer({"events": found or [], "reload": found is None}).data)
