from django.urls import path

from masscombat.campaigns import views

app_name = "campaigns"

urlpatterns = [
    path("campaigns/new/", views.create, name="create"),
    path("campaigns/<int:pk>/", views.detail, name="detail"),
    path("campaigns/<int:pk>/members/", views.members, name="members"),
    path("campaigns/<int:pk>/edit/", views.edit, name="edit"),
    path("campaigns/<int:pk>/delete/", views.delete, name="delete"),
    path("campaigns/<int:pk>/leave/", views.leave, name="leave"),
    path("campaigns/<int:pk>/invitation/", views.invitation, name="invitation"),
    path("campaigns/<int:pk>/invitation/qr.svg", views.invitation_qr, name="invitation-qr"),
    path("campaigns/<int:pk>/invitation/regenerate/", views.invitation_regenerate, name="invitation-regenerate"),
    path("campaigns/<int:pk>/invitation/revoke/", views.invitation_revoke, name="invitation-revoke"),
    path("campaigns/<int:pk>/members/<int:user_id>/promote/", views.member_promote, name="member-promote"),
    path("campaigns/<int:pk>/members/<int:user_id>/remove/", views.member_remove, name="member-remove"),
    path("join/", views.join, name="join"),
    path("join/<str:code>/", views.join, name="join-code"),
]
