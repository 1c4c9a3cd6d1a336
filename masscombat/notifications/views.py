"""The notification settings page and the endpoint a browser subscribes through."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from masscombat.core.jsonsafe import loads
from masscombat.notifications import language, vapid
from masscombat.notifications.forms import PreferencesForm, SubscriptionForm
from masscombat.notifications.models import Preferences, PushSubscription


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request):
    preferences, _created = Preferences.objects.get_or_create(user=request.user)
    form = PreferencesForm(request.POST if request.method == "POST" else None, instance=preferences,
                           by_email=not request.user.is_guest)
    if request.method == "POST" and form.is_valid():
        form.save()
        language.remember(request.user, request.LANGUAGE_CODE)
        messages.success(request, _("Your notification settings are saved."))
        return redirect("notifications:settings")
    return render(request, "notifications/settings.html", {
        "form": form, "public_key": vapid.key().public_key,
        "devices": PushSubscription.objects.filter(user=request.user).order_by("created_at"),
    })


@login_required
@require_http_methods(["POST", "DELETE"])
def subscription(request):
    """POST stores this browser's subscription for the signed-in user; DELETE forgets it (their own only).

    The body is the JSON of the browser's ``PushSubscription``; a device that
    subscribes again (or passes to another user) keeps one row per endpoint.
    """
    try:
        body = loads(request.body or b"{}")
    except ValueError:
        return JsonResponse({"errors": {"__all__": [_("The body is not JSON.")]}}, status=400)
    if not isinstance(body, dict):
        body = {}
    if request.method == "DELETE":
        PushSubscription.objects.filter(user=request.user, endpoint=str(body.get("endpoint", ""))).delete()
        return HttpResponse(status=204)
    keys = body.get("keys") if isinstance(body.get("keys"), dict) else {}
    form = SubscriptionForm({"endpoint": body.get("endpoint"), "p256dh": keys.get("p256dh"), "auth": keys.get("auth")})
    if not form.is_valid():
        return JsonResponse({"errors": form.errors}, status=400)
    data = form.cleaned_data
    PushSubscription.objects.update_or_create(
        endpoint=data["endpoint"], defaults={"user": request.user, "p256dh": data["p256dh"], "auth": data["auth"]})
    language.remember(request.user, request.LANGUAGE_CODE)
    return JsonResponse({"subscribed": True}, status=201)


@login_required
@require_POST
def forget_device(request, pk: int):
    """The settings page's button for one device, without JavaScript: another user's device is a 404."""
    get_object_or_404(PushSubscription, pk=pk, user=request.user).delete()
    messages.success(request, _("This device will no longer receive notifications."))
    return redirect("notifications:settings")
