"""What notifications sent after a request need from it: its origin for links, and a language switched to."""

from masscombat.notifications import language, origin


class NotificationsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = origin.current.set(request.build_absolute_uri("/").rstrip("/"))
        try:
            response = self.get_response(request)
        finally:
            origin.current.reset(token)
        match = request.resolver_match
        if request.method == "POST" and match is not None and match.url_name == "set_language":
            language.remember(request.user, request.POST.get("language"))
        return response
