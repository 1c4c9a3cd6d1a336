from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from masscombat.accounts.forms import RateLimitedAdminAuthenticationForm
from masscombat.accounts.models import User

# /admin/login/ checks passwords too: it counts against the same login limit as the site's form.
admin.site.login_form = RateLimitedAdminAuthenticationForm


@admin.register(User)
class MasscombatUserAdmin(UserAdmin):
    fieldsets = UserAdmin.fieldsets + ((None, {"fields": ("display_name",)}),)
    list_display = ("username", "display_name", "email", "is_staff")
