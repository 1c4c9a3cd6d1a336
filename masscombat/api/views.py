"""The REST API of accounts and campaigns.

Every campaign endpoint starts with :func:`authorize` (the same check as the
pages), validates with a serializer, and changes data only through
:mod:`masscombat.campaigns.services`.
"""

from django.contrib.auth import update_session_auth_hash
from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, status, viewsets
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from masscombat.api import serializers as s
from masscombat.api.throttles import CredentialThrottle
from masscombat.campaigns import selectors, services
from masscombat.campaigns.access import authorize
from masscombat.core.permissions import Action, Role


class MeView(generics.RetrieveUpdateAPIView):
    """Your own profile.  A new email or password needs ``current_password``; a new password ends your tokens."""

    serializer_class = s.ProfileSerializer
    http_method_names = ["get", "patch", "put", "options", "head"]

    def get_object(self):
        return self.request.user

    def perform_update(self, serializer):
        super().perform_update(serializer)
        # The session that changed the password stays logged in; the others (and the tokens) end.
        update_session_auth_hash(self.request, serializer.instance)


class TokenView(ObtainAuthToken):
    """Trade a username and password for an API token (``Authorization: Token <key>``).

    Every attempt counts against the log-in limit, per user name and per
    address (429 past it); the body may be JSON or a form, decoded as every
    API body is.
    """

    throttle_classes = [CredentialThrottle]
    parser_classes = APIView.parser_classes


class CampaignViewSet(viewsets.ViewSet):
    """Your campaigns. Creating one makes you its game master."""

    serializer_class = s.CampaignSerializer
    lookup_value_converter = "int"

    def list(self, request: Request) -> Response:
        return Response(s.CampaignSerializer(selectors.campaigns_of(request.user), many=True).data)

    @extend_schema(request=s.CampaignSerializer, responses={201: s.CampaignSerializer})
    def create(self, request: Request) -> Response:
        serializer = s.CampaignSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        campaign = services.create_campaign(request.user, **serializer.validated_data)
        campaign.caller_role = Role.GM.value
        return Response(s.CampaignSerializer(campaign).data, status=status.HTTP_201_CREATED)

    def retrieve(self, request: Request, pk: int) -> Response:
        access = authorize(request.user, Action.VIEW, pk)
        return Response(s.CampaignSerializer(access.campaign).data)

    def update(self, request: Request, pk: int) -> Response:
        return self._save(request, pk, partial=False)

    def partial_update(self, request: Request, pk: int) -> Response:
        return self._save(request, pk, partial=True)

    def destroy(self, request: Request, pk: int) -> Response:
        access = authorize(request.user, Action.DELETE, pk)
        services.delete_campaign(access.campaign)
        return Response(status=status.HTTP_204_NO_CONTENT)

    def _save(self, request: Request, pk: int, partial: bool) -> Response:
        access = authorize(request.user, Action.EDIT, pk)
        serializer = s.CampaignSerializer(access.campaign, data=request.data, partial=partial)
        serializer.is_valid(raise_exception=True)
        campaign = services.update_campaign(access.campaign, **serializer.validated_data)
        return Response(s.CampaignSerializer(campaign).data)


class MemberViewSet(viewsets.ViewSet):
    """A campaign's members. The GM changes roles and removes people; anyone may leave."""

    serializer_class = s.MembershipSerializer
    lookup_field = "user_id"
    lookup_value_converter = "int"

    def list(self, request: Request, campaign_pk: int) -> Response:
        access = authorize(request.user, Action.VIEW, campaign_pk)
        return Response(s.MembershipSerializer(selectors.members_of(access.campaign), many=True).data)

    def retrieve(self, request: Request, campaign_pk: int, user_id: int) -> Response:
        access = authorize(request.user, Action.VIEW, campaign_pk)
        return Response(s.MembershipSerializer(self._member(access, user_id)).data)

    def partial_update(self, request: Request, campaign_pk: int, user_id: int) -> Response:
        access = authorize(request.user, Action.MANAGE_MEMBERS, campaign_pk)
        member = self._member(access, user_id)
        serializer = s.MembershipSerializer(member, data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        if "role" in serializer.validated_data:
            member = services.set_role(access.campaign, member, Role(serializer.validated_data["role"]))
        return Response(s.MembershipSerializer(member).data)

    def destroy(self, request: Request, campaign_pk: int, user_id: int) -> Response:
        leaving = int(user_id) == request.user.pk
        access = authorize(request.user, Action.LEAVE if leaving else Action.MANAGE_MEMBERS, campaign_pk)
        services.remove_member(access.campaign, self._member(access, user_id))
        return Response(status=status.HTTP_204_NO_CONTENT)

    @staticmethod
    def _member(access, user_id):
        member = selectors.membership(access.campaign, user_id)
        if member is None:
            raise Http404
        return member


class InvitationView(APIView):
    """The campaign's open invitation (GM only): read it, issue a new one (POST), revoke it (DELETE)."""

    serializer_class = s.InvitationSerializer

    def get(self, request: Request, campaign_pk: int) -> Response:
        access = authorize(request.user, Action.MANAGE_INVITATION, campaign_pk)
        invitation = selectors.active_invitation(access.campaign)
        if invitation is None:
            raise Http404
        return Response(s.InvitationSerializer(invitation, context={"request": request}).data)

    @extend_schema(request=None, responses={201: s.InvitationSerializer})
    def post(self, request: Request, campaign_pk: int) -> Response:
        access = authorize(request.user, Action.MANAGE_INVITATION, campaign_pk)
        invitation = services.regenerate_invitation(access.campaign, by=request.user)
        return Response(
            s.InvitationSerializer(invitation, context={"request": request}).data, status=status.HTTP_201_CREATED
        )

    @extend_schema(responses={204: None})
    def delete(self, request: Request, campaign_pk: int) -> Response:
        access = authorize(request.user, Action.MANAGE_INVITATION, campaign_pk)
        services.revoke_invitation(access.campaign)
        return Response(status=status.HTTP_204_NO_CONTENT)


class JoinView(APIView):
    """Join a campaign with its code. Rate-limited, so codes cannot be guessed."""

    throttle_scope = "join"

    @extend_schema(request=s.JoinSerializer, responses={201: s.MembershipSerializer, 200: s.MembershipSerializer})
    def post(self, request: Request) -> Response:
        serializer = s.JoinSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        membership, created = services.join_campaign(request.user, serializer.validated_data["code"])
        return Response(
            {"campaign": membership.campaign_id, **s.MembershipSerializer(membership).data},
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )
