from django.urls import include, path

from masscombat.accounts import views

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("profile/", views.profile, name="profile"),
]

# Django's auth views keep their global names (login, logout, password_reset...).
auth_urlpatterns = [path("accounts/", include("django.contrib.auth.urls"))]
