from django.urls import path

from masscombat.rosters import views

app_name = "rosters"

urlpatterns = [path("campaigns/<int:pk>/rosters/", views.section, name="section")]
for kind, spec in views.KINDS.items():
    name, extra = spec.entity, {"kind": kind}
    urlpatterns += [
        path(f"campaigns/<int:pk>/{kind}/new/", views.create, extra, name=f"{name}-create"),
        path(f"campaigns/<int:pk>/{kind}/<int:item_id>/", views.detail, extra, name=name),
        path(f"campaigns/<int:pk>/{kind}/<int:item_id>/edit/", views.edit, extra, name=f"{name}-edit"),
        path(f"campaigns/<int:pk>/{kind}/<int:item_id>/preview/", views.preview, extra, name=f"{name}-preview"),
        path(f"campaigns/<int:pk>/{kind}/<int:item_id>/export.json", views.export, extra, name=f"{name}-export"),
        path(f"campaigns/<int:pk>/{kind}/<int:item_id>/delete/", views.delete, extra, name=f"{name}-delete"),
        path(f"campaigns/<int:pk>/{kind}/<int:item_id>/restore/<int:change_id>/", views.restore, extra,
             name=f"{name}-restore"),
    ]
