"""What the API reads and writes.  Validation only: the changes are made by services."""

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.urls import reverse
from rest_framework import serializers
from rest_framework.exceptions import Throttled

from masscombat.accounts.forms import password_problem
from masscombat.accounts.models import User
from masscombat.campaigns.models import Campaign, Invitation, Membership
from masscombat.core.permissions import Role
from masscombat.core.security import retry_after


class ProfileSerializer(serializers.ModelSerializer):
    """Your profile.  A new email (where reset links go) or a new password needs the current password."""

    current_password = serializers.CharField(
        write_only=True, required=False, trim_whitespace=False, style={"input_type": "password"},
        help_text="Your password: needed to change email or password (counts as a log-in attempt).")
    new_password = serializers.CharField(
        write_only=True, required=False, trim_whitespace=False, style={"input_type": "password"},
        help_text="A new password: every API token of yours ends, get a new one from /api/token/.")

    class Meta:
        model = User
        fields = ("id", "username", "display_name", "email", "current_password", "new_password")
        read_only_fields = ("id", "username")

    def validate(self, attrs):
        user = self.instance
        if attrs.get("new_password") or ("email" in attrs and attrs["email"] != user.email):
            problem = password_problem(self.context["request"], user, attrs.get("current_password"))
            if getattr(self.context["request"], "refused_for_rate", None):
                raise Throttled(wait=retry_after("login"))
            if problem:
                raise serializers.ValidationError({"current_password": problem})
        if attrs.get("new_password"):
            try:
                validate_password(attrs["new_password"], user)
            except DjangoValidationError as error:
                raise serializers.ValidationError({"new_password": error.messages}) from None
        return attrs

    def update(self, user, validated_data):
        validated_data.pop("current_password", None)
        new_password = validated_data.pop("new_password", None)
        if new_password:
            user.set_password(new_password)  # saved below, which ends the user's tokens
        return super().update(user, validated_data)


class CampaignSerializer(serializers.ModelSerializer):
    role = serializers.SerializerMethodField(help_text="Your role in the campaign: gm or player.")

    class Meta:
        model = Campaign
        fields = ("id", "name", "ruleset", "description", "role", "created_at", "updated_at")
        read_only_fields = ("id", "created_at", "updated_at")

    def get_role(self, campaign: Campaign) -> str | None:
        return getattr(campaign, "caller_role", None)


class MemberUserSerializer(serializers.ModelSerializer):
    class Meta:
        model = User
        fields = ("id", "username", "display_name")


class MembershipSerializer(serializers.ModelSerializer):
    user = MemberUserSerializer(read_only=True)
    role = serializers.ChoiceField(choices=[Role.GM.value, Role.PLAYER.value])

    class Meta:
        model = Membership
        fields = ("user", "role", "joined_at")
        read_only_fields = ("joined_at",)


class InvitationSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField(help_text="The link players open to join.")

    class Meta:
        model = Invitation
        fields = ("code", "display_code", "url", "created_at")

    def get_url(self, invitation: Invitation) -> str:
        return self.context["request"].build_absolute_uri(reverse("campaigns:join-code", args=[invitation.code]))


class JoinSerializer(serializers.Serializer):
    code = serializers.CharField(max_length=20, help_text="The join code, dashes and case ignored.")
