from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from masscombat.accounts.models import User


@admin.register(User)
class MasscombatUserAdmin(UserAdmin):
    fieldsets = UserAdmin.fieldsets + ((None, {"fields": ("display_name",)}),)
    list_display = ("username", "display_name", "email", "is_staff")
