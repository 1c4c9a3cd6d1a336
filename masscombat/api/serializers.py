"""What the API reads and writes.  Validation only: the changes are made by services."""

from django.urls import reverse
from rest_framework import serializers

from masscombat.accounts.models import User
from masscombat.campaigns.models import Campaign, Invitation, Membership
from masscombat.core.permissions import Role


class ProfileSerializer(serializers.ModelSerializer):
    class Meta:
        model = User
        fields = ("id", "username", "display_name", "email")
        read_only_fields = ("id", "username")


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
