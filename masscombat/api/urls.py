from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView
from rest_framework.routers import SimpleRouter

from masscombat.api import rules, views
from masscombat.battles.api import BattleViewSet
from masscombat.maps.api import MapViewSet
from masscombat.rosters.api import ArmyViewSet, HeroViewSet

router = SimpleRouter(use_regex_path=False)
router.register("campaigns", views.CampaignViewSet, basename="campaign")
router.register("campaigns/<int:campaign_pk>/members", views.MemberViewSet, basename="member")
router.register("campaigns/<int:campaign_pk>/armies", ArmyViewSet, basename="army")
router.register("campaigns/<int:campaign_pk>/heroes", HeroViewSet, basename="hero")
router.register("campaigns/<int:campaign_pk>/maps", MapViewSet, basename="map")
router.register("campaigns/<int:campaign_pk>/battles", BattleViewSet, basename="battle")

app_name = "api"

urlpatterns = [
    path("me/", views.MeView.as_view(), name="me"),
    path("token/", views.TokenView.as_view(), name="token"),
    path("join/", views.JoinView.as_view(), name="join"),
    path("campaigns/<int:campaign_pk>/invitation/", views.InvitationView.as_view(), name="invitation"),
    path("rules/", rules.RulesetListView.as_view(), name="rules"),
    path("rules/<str:slug>/ops/", rules.RulesetOpsView.as_view(), name="rules-ops"),
    path("rules/<str:slug>/<str:op>/", rules.RunOperationView.as_view(), name="rules-run"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    path("redoc/", SpectacularRedocView.as_view(url_name="api:schema"), name="redoc"),
    path("", include(router.urls)),
]
