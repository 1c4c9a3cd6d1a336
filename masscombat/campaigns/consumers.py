"""Websocket of a campaign page: pushes "changed" so the page refreshes its lists."""

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.core.exceptions import PermissionDenied
from django.http import Http404

from masscombat.campaigns import live
from masscombat.core.permissions import Action, authorize


class CampaignConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        campaign_id = self.scope["url_route"]["kwargs"]["campaign_id"]
        try:
            await database_sync_to_async(authorize)(self.scope["user"], Action.VIEW, campaign_id)
        except (Http404, PermissionDenied):
            await self.close(code=4403)
            return
        self.group = live.group_name(campaign_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def campaign_changed(self, event: dict) -> None:
        await self.send_json({"type": live.CHANGED})
