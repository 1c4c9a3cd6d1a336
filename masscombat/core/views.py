"""The home page: your campaigns when logged in, what the app is otherwise."""

from django.shortcuts import render
from django.views.decorators.http import require_GET

from masscombat.campaigns.forms import JoinForm
from masscombat.campaigns.selectors import campaigns_of


@require_GET
def home(request):
    if not request.user.is_authenticated:
        return render(request, "core/landing.html")
    return render(request, "core/home.html", {"campaigns": campaigns_of(request.user), "join_form": JoinForm()})
