"""The bridge to the rules engines: list them, describe them, run an operation.

Everything is asked of the engines (through :mod:`masscombat.core.engines`) at request time, so an
engine appears here as soon as its package lands in ``rules/``.  The body of a run
is decoded by the engines' own JSON decoder (``engines.load_json``), so the API
refuses exactly what the CLI refuses, with the same ``{"error", "fields"}``
object (``docs/battle-contract.md``).  A run has a time budget and a per-user
cap on runs at once (:mod:`masscombat.core.engine_budget`).
"""


from django.conf import settings
from django.utils.translation import get_language
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from masscombat.core import engine_budget, engines
from masscombat.core.engines import InvalidInput, UnknownOperation, load_json

_ERROR = inline_serializer(
    "RulesError",
    {"error": serializers.CharField(), "fields": serializers.DictField(child=serializers.CharField())},
)


def _unknown(exc: UnknownOperation) -> Response:
    return Response({"error": str(exc), "fields": {}}, status=status.HTTP_404_NOT_FOUND)


class RulesetListView(APIView):
    """The registered rulesets with their names and operations."""

    @extend_schema(
        responses={
            200: inline_serializer(
                "Ruleset",
                many=True,
                fields={
                    "slug": serializers.CharField(),
                    "name": serializers.CharField(),
                    "names": serializers.DictField(child=serializers.CharField()),
                    "operations": serializers.ListField(child=serializers.CharField()),
                },
            )
        }
    )
    def get(self, request: Request) -> Response:
        language = (get_language() or "en")[:2]
        return Response(
            [
                {
                    "slug": ruleset.slug,
                    "name": ruleset.names.get(language, ruleset.names.get("en", ruleset.slug)),
                    "names": ruleset.names,
                    "operations": sorted(ruleset.operations),
                }
                for ruleset in engines.rulesets()
            ]
        )


class RulesetOpsView(APIView):
    """One ruleset's operations, each with its summary and the JSON Schema of its input."""

    @extend_schema(responses={200: OpenApiTypes.OBJECT, 404: _ERROR})
    def get(self, request: Request, slug: str) -> Response:
        try:
            return Response(engines.ruleset(slug).describe())
        except UnknownOperation as exc:
            return _unknown(exc)


class RunOperationView(APIView):
    """Run one operation: the JSON body is its input (``seed`` and ``dice`` optional)."""

    parser_classes: list = []  # the body is read raw and decoded as the engines decode it

    @extend_schema(
        request=OpenApiTypes.OBJECT,
        responses={200: OpenApiTypes.OBJECT, 400: _ERROR, 404: _ERROR, 429: _ERROR, 503: _ERROR},
        examples=[
            OpenApiExample(
                "Invalid input",
                value={"error": "Invalid input at units[1].rate: must be at least 0.", "fields": {"units[1].rate": "must be at least 0"}},
                response_only=True,
                status_codes=["400"],
            )
        ],
    )
    def post(self, request: Request, slug: str, op: str) -> Response:
        try:
            ruleset = engines.ruleset(slug)
            if op not in ruleset.operations:
                raise UnknownOperation(f"{slug} has no operation {op!r}")
            payload = load_json(_text(request.body))
            return Response(engine_budget.run_within_budget(
                f"user:{request.user.pk}", engines.call, slug, op, payload,
                seconds=settings.ENGINE_API_SECONDS, limit=settings.ENGINE_API_CONCURRENT))
        except UnknownOperation as exc:
            return _unknown(exc)
        except InvalidInput as exc:
            return Response(exc.as_dict(), status=status.HTTP_400_BAD_REQUEST)
        except (engine_budget.TooManyRuns, engine_budget.OverBudget) as exc:
            return _refused(*engine_budget.refusal(exc))


def _refused(message: str, code: int, retry: int) -> Response:
    return Response({"error": message, "fields": {}}, status=code, headers={"Retry-After": str(retry)})


def _text(body: bytes) -> str:
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidInput("The input is not UTF-8 text.", {"": "not valid JSON"}) from None
