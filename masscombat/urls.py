from django.contrib import admin
from django.urls import include, path

from masscombat.accounts.urls import auth_urlpatterns
from masscombat.core import views as core_views

urlpatterns = [
    path("", core_views.home, name="home"),
    path("accounts/", include("masscombat.accounts.urls")),
    *auth_urlpatterns,
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/", include("masscombat.api.urls")),
    path("admin/", admin.site.urls),
    path("", include("masscombat.campaigns.urls")),
    path("", include("masscombat.rosters.urls")),
    path("", include("masscombat.battles.urls")),
    path("", include("masscombat.maps.urls")),
]
