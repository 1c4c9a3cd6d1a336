from django.contrib.auth.views import LoginView
from django.urls import include, path

from masscombat.accounts import views
from masscombat.accounts.forms import RateLimitedAuthenticationForm

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("profile/", views.profile, name="profile"),
    path("profile/keep-seat/", views.keep_seat, name="keep-seat"),
]

# Django's auth views keep their global names (login, logout, password_reset...);
# the login and password-reset views check the login rate first (429 past it).
auth_urlpatterns = [
    path("accounts/login/", LoginView.as_view(authentication_form=RateLimitedAuthenticationForm), name="login"),
    path("accounts/password_reset/", views.RateLimitedPasswordResetView.as_view(), name="password_reset"),
    path("accounts/", include("django.contrib.auth.urls")),
]
