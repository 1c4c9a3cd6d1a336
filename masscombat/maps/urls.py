from django.urls import path

from masscombat.maps import views

app_name = "maps"

urlpatterns = [
    path("campaigns/<int:pk>/maps/", views.section, name="section"),
    path("campaigns/<int:pk>/maps/new/", views.create, name="create"),
    path("campaigns/<int:pk>/maps/import/", views.import_map, name="import"),
    path("campaigns/<int:pk>/maps/<int:map_id>/", views.detail, name="detail"),
    path("campaigns/<int:pk>/maps/<int:map_id>/edit/", views.edit, name="edit"),
    path("campaigns/<int:pk>/maps/<int:map_id>/preview/", views.preview, name="preview"),
    path("campaigns/<int:pk>/maps/<int:map_id>/save/", views.save, name="save"),
    path("campaigns/<int:pk>/maps/<int:map_id>/duplicate/", views.duplicate, name="duplicate"),
    path("campaigns/<int:pk>/maps/<int:map_id>/visibility/", views.visibility, name="visibility"),
    path("campaigns/<int:pk>/maps/<int:map_id>/export.json", views.export, name="export"),
    path("campaigns/<int:pk>/maps/<int:map_id>/delete/", views.delete, name="delete"),
]
