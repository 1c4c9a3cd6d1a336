from django.urls import path

from masscombat.battles import deadline_views, preview_views, spectator_views, views

app_name = "battles"

urlpatterns = [
    path("campaigns/<int:campaign_id>/battles/new/", views.create, name="create"),
    path("campaigns/<int:campaign_id>/battles/balance/", preview_views.balance_part, name="balance"),
    path("battles/<int:pk>/", views.room, name="room"),
    path("battles/<int:pk>/part/<str:name>/", views.part, name="part"),
    path("battles/<int:pk>/declare/", views.declare, name="declare"),
    path("battles/<int:pk>/place/", views.place, name="place"),
    path("battles/<int:pk>/resolve/", views.resolve, name="resolve"),
    path("battles/<int:pk>/undo/", views.undo, name="undo"),
    path("battles/<int:pk>/pause/", views.pause, name="pause"),
    path("battles/<int:pk>/deadline/", deadline_views.deadline, name="deadline"),
    path("battles/<int:pk>/end/", views.end, name="end"),
    path("battles/<int:pk>/one-more-round/", views.one_more_round, name="one_more_round"),
    path("battles/<int:pk>/confirm/", views.confirm, name="confirm"),
    path("battles/<int:pk>/preview/", preview_views.preview_part, name="preview"),
    path("battles/<int:pk>/replay/", views.replay_view, name="replay"),
    path("battles/<int:pk>/watch-link/", spectator_views.share, name="watch_share"),
    path("battles/<int:pk>/watch-link/revoke/", spectator_views.revoke, name="watch_revoke"),
    path("watch/<str:token>/", spectator_views.watch, name="watch"),
    path("watch/<str:token>/part/<str:name>/", spectator_views.watch_part, name="watch_part"),
]
