from django.contrib import admin
from django.urls import include, path

from masscombat.accounts.urls import auth_urlpatterns
from masscombat.campaigns import views as campaign_views
from masscombat.core import pwa

urlpatterns = [
    path("", campaign_views.home, name="home"),
    path("", include(pwa)),  # /sw.js, /manifest.webmanifest, /offline/<language>/
    path("accounts/", include("masscombat.accounts.urls")),
    path("", include("masscombat.notifications.urls")),
    *auth_urlpatterns,
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/", include("masscombat.api.urls")),
    path("admin/", admin.site.urls),
    path("", include("masscombat.campaigns.urls")),
    path("", include("masscombat.rosters.urls")),
    path("", include("masscombat.battles.urls")),
    path("", include("masscombat.maps.urls")),
]
