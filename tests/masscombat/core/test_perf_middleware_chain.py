"""The HTTP middleware chain never hops between the event loop and a thread (issue #20).

``masscombat.asgi`` serves HTTP with :class:`masscombat.core.sync_chain.SyncChainASGIHandler`:
the chain and the view run synchronously, called once from the event loop.
These tests fail when a middleware that cannot run synchronously joins the
chain, or when the handler goes back to Django's own, which adapts the chain
for the event loop (each check is shown to fail on Django's handler).
"""

import logging

import pytest
from asgiref import sync
from asgiref.sync import async_to_sync
from channels.testing import HttpCommunicator
from django.conf import settings as django_settings
from django.core.handlers.asgi import ASGIHandler
from django.utils.module_loading import import_string

from masscombat.asgi import application
from masscombat.core.limits import BodySizeLimit
from masscombat.core.sync_chain import SyncChainASGIHandler


def adaptations(caplog, make_handler) -> list[str]:
    """What Django says it adapted while building a handler's chain (it says so only with DEBUG on)."""
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger="django.request"):
        make_handler()
    return [record.getMessage() for record in caplog.records if "adapted" in record.getMessage()]


def test_every_middleware_runs_synchronously():
    for path in django_settings.MIDDLEWARE:
        assert getattr(import_string(path), "sync_capable", True), f"{path} cannot run synchronously"


def test_the_chain_is_built_without_adapting_any_handler(settings, caplog):
    settings.DEBUG = True
    assert adaptations(caplog, SyncChainASGIHandler) == []
    # Django's own handler adapts: the innermost middleware's handler at least.
    assert adaptations(caplog, ASGIHandler)


def loop_hops_of_one_request(monkeypatch, app) -> tuple[int, int]:
    """(status, calls back into the event loop) while ``app`` answers one anonymous GET of the home page."""
    calls = [0]
    original = sync.AsyncToSync.__call__

    def counted(self, *args, **kwargs):
        calls[0] += 1
        return original(self, *args, **kwargs)

    communicator = HttpCommunicator(app, "GET", "/", headers=[(b"host", b"testserver")])
    monkeypatch.setattr(sync.AsyncToSync, "__call__", counted)
    try:
        response = async_to_sync(communicator.get_response)(timeout=30)
    finally:
        monkeypatch.setattr(sync.AsyncToSync, "__call__", original)
    return response["status"], calls[0] - 1  # the test's own async_to_sync


@pytest.mark.django_db(transaction=True)
def test_a_request_runs_its_chain_and_view_without_going_back_to_the_event_loop(monkeypatch):
    assert isinstance(application.application_mapping["http"], BodySizeLimit)
    assert isinstance(application.application_mapping["http"].app, SyncChainASGIHandler)
    assert loop_hops_of_one_request(monkeypatch, application) == (200, 0)
    status, hops = loop_hops_of_one_request(monkeypatch, ASGIHandler())
    assert status == 200 and hops >= 1  # Django's own goes back to the loop below the chain
