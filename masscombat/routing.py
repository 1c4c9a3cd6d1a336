"""Every websocket route, gathered from the apps that have some."""

from masscombat.battles import routing as battles_routing
from masscombat.campaigns import routing as campaigns_routing

websocket_urlpatterns = [*campaigns_routing.websocket_urlpatterns, *battles_routing.websocket_urlpatterns]
