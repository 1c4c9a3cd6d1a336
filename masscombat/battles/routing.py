from django.urls import path

from masscombat.battles.consumers import BattleConsumer

websocket_urlpatterns = [path("ws/battles/<int:battle_id>/", BattleConsumer.as_asgi())]
