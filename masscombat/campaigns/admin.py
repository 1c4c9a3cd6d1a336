from django.contrib import admin

from masscombat.campaigns.models import Campaign, Invitation, Membership


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


class InvitationInline(admin.TabularInline):
    model = Invitation
    extra = 0
    readonly_fields = ["code", "created_by", "created_at"]


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ("name", "ruleset", "created_at")
    list_filter = ("ruleset",)
    search_fields = ("name",)
    inlines = [MembershipInline, InvitationInline]
