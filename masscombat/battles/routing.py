from django.urls import path

from masscombat.battles.consumers import BattleConsumer
from masscombat.battles.spectator_socket import SpectatorConsumer

websocket_urlpatterns = [path("ws/battles/<int:battle_id>/", BattleConsumer.as_asgi()),
                         path("ws/watch/<str:token>/", SpectatorConsumer.as_asgi())]
