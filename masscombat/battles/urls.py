from django.urls import path

from masscombat.battles import views

app_name = "battles"

urlpatterns = [
    path("campaigns/<int:campaign_id>/battles/new/", views.create, name="create"),
    path("battles/<int:pk>/", views.room, name="room"),
    path("battles/<int:pk>/part/<str:name>/", views.part, name="part"),
    path("battles/<int:pk>/declare/", views.declare, name="declare"),
    path("battles/<int:pk>/place/", views.place, name="place"),
    path("battles/<int:pk>/resolve/", views.resolve, name="resolve"),
    path("battles/<int:pk>/undo/", views.undo, name="undo"),
    path("battles/<int:pk>/pause/", views.pause, name="pause"),
    path("battles/<int:pk>/end/", views.end, name="end"),
    path("battles/<int:pk>/one-more-round/", views.one_more_round, name="one_more_round"),
    path("battles/<int:pk>/confirm/", views.confirm, name="confirm"),
    path("battles/<int:pk>/replay/", views.replay_view, name="replay"),
]
