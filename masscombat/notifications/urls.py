from django.urls import path

from masscombat.notifications import views

app_name = "notifications"

urlpatterns = [
    path("accounts/notifications/", views.settings_page, name="settings"),
    path("accounts/notifications/subscription/", views.subscription, name="subscription"),
    path("accounts/notifications/devices/<int:pk>/forget/", views.forget_device, name="forget-device"),
]
