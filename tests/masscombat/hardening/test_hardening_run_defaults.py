"""Issue #16, part A, finding 7: what ``bin/run`` serves with by default, and what no longer
depends on DEBUG (websocket origins, the host in password-reset links).

The settings logic is tested in Python (:mod:`masscombat.core.serve_env`), and the settings it
produces are loaded in a fresh interpreter, as ``bin/run`` loads them.
"""

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

from masscombat.core import hosts
from masscombat.core.origin import SameSiteOriginValidator
from masscombat.core.serve_env import secret_key, serve_environment

ROOT = Path(__file__).resolve().parents[3]
PROBE = """
import json, django
from django.conf import settings
django.setup()
print(json.dumps({"debug": settings.DEBUG, "hosts": settings.ALLOWED_HOSTS, "key": settings.SECRET_KEY,
                  "redirect": settings.SECURE_SSL_REDIRECT, "secure_cookies": settings.SESSION_COOKIE_SECURE,
                  "hsts": settings.SECURE_HSTS_SECONDS}))
"""
MACHINE = ["localhost", "127.0.0.1", "[::1]", "192.168.1.20", "table-pc"]


def load_settings(env: dict) -> dict:
    base = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "PUBLIC_URL"}}
    result = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=60,
                            env={**base, "DJANGO_SETTINGS_MODULE": "masscombat.settings", **env})
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_bin_run_serves_without_debug_with_a_kept_key_and_the_machines_hosts(tmp_path):
    env = serve_environment({}, root=tmp_path, hosts=MACHINE)
    assert env["DEBUG"] == "0"
    assert env["ALLOWED_HOSTS"].split(",") == MACHINE
    key_file = tmp_path / ".secret_key"
    assert env["SECRET_KEY"] == key_file.read_text().strip() and len(env["SECRET_KEY"]) >= 50
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    again = serve_environment({}, root=tmp_path, hosts=MACHINE)
    assert again["SECRET_KEY"] == env["SECRET_KEY"]  # made once: sessions survive a restart
    loaded = load_settings(env)
    assert loaded["debug"] is False and "*" not in loaded["hosts"] and loaded["key"] == env["SECRET_KEY"]
    # Plain HTTP on the local network works out of the box (README, "Reaching the app from a phone").
    assert (loaded["redirect"], loaded["secure_cookies"], loaded["hsts"]) == (False, False, 0)


def test_bin_run_keeps_what_is_given(tmp_path):
    given = {"DEBUG": "1", "SECRET_KEY": "k" * 60, "ALLOWED_HOSTS": "battle.example, table-pc",
             "SECURE_COOKIES": "1"}
    env = serve_environment(given, root=tmp_path, hosts=MACHINE)
    assert env["DEBUG"] == "1" and "SECRET_KEY" not in env and not (tmp_path / ".secret_key").exists()
    assert env["ALLOWED_HOSTS"].split(",") == [*MACHINE, "battle.example"]
    assert "SECURE_COOKIES" not in env and env["SECURE_SSL_REDIRECT"] == "0"


def test_the_machines_hosts_come_from_hostname(monkeypatch):
    listed = subprocess.CompletedProcess([], 0, stdout="192.168.1.20 10.8.0.3 fd00::2 \n")
    monkeypatch.setattr(hosts.subprocess, "run", lambda *args, **kwargs: listed)
    assert hosts.host_addresses() == ["192.168.1.20", "10.8.0.3", "[fd00::2]"]
    assert hosts.machine_hosts(name="Table-PC") == [
        "localhost", "127.0.0.1", "[::1]", "192.168.1.20", "10.8.0.3", "[fd00::2]", "table-pc"]

    def missing(*args, **kwargs):
        raise FileNotFoundError("hostname")

    monkeypatch.setattr(hosts.subprocess, "run", missing)
    assert hosts.machine_hosts(name="pc") == ["localhost", "127.0.0.1", "[::1]", "pc"]


def test_the_settings_default_is_the_machines_hosts_never_any_host():
    for env in ({}, {"DEBUG": "0", "SECRET_KEY": "k" * 60}):
        found = load_settings(env)["hosts"]
        assert "*" not in found and {"localhost", "127.0.0.1"} <= set(found)


def test_the_key_file_is_ignored_by_git():
    result = subprocess.run(["git", "check-ignore", "-q", ".secret_key"], cwd=ROOT, timeout=30)
    assert result.returncode == 0


def test_an_existing_key_file_is_read_not_replaced(tmp_path):
    (tmp_path / "key").write_text("kept-key\n")
    assert secret_key(tmp_path / "key") == "kept-key"


@pytest.mark.parametrize(("origin", "host", "accepted"), [
    ("http://192.168.1.20:8000", "192.168.1.20:8000", True),   # a page of this site, by its address
    ("https://evil.example", "192.168.1.20:8000", False),      # another site's page
    ("http://192.168.1.20.evil.example", "192.168.1.20:8000", False),
    (None, "192.168.1.20:8000", False),                        # no Origin at all
])
def test_websocket_origins_are_checked_even_when_any_host_is_allowed(settings, origin, host, accepted):
    """``*`` in ALLOWED_HOSTS (compose's default, or given) no longer lets any page open a websocket."""
    for allowed in (["*"], ["battle.example", "192.168.1.20"]):
        settings.ALLOWED_HOSTS = allowed
        assert SameSiteOriginValidator(application=None).accepts(origin, host) is accepted, allowed


def test_listed_hosts_are_accepted_behind_a_proxy_and_others_refused(settings):
    settings.ALLOWED_HOSTS = ["battle.example"]
    validator = SameSiteOriginValidator(application=None)
    assert validator.accepts("https://battle.example", "127.0.0.1:8000")  # the proxy rewrote Host
    assert not validator.accepts("http://evil.example", "evil.example")  # a Host not allowed


@pytest.mark.django_db
def test_password_reset_links_use_the_public_url_not_the_host_header(settings, gm, mailoutbox, client):
    settings.ALLOWED_HOSTS = ["*"]  # the worst case: any Host header reaches the view
    settings.PUBLIC_URL = "https://battle.example"
    client.post(reverse("password_reset"), {"email": "gandalf@example.org"}, HTTP_HOST="evil.example")
    assert "https://battle.example/accounts/reset/" in mailoutbox[0].body and "evil.example" not in mailoutbox[0].body
    settings.PUBLIC_URL = ""
    client.post(reverse("password_reset"), {"email": "gandalf@example.org"}, HTTP_HOST="192.168.1.20:8000")
    assert "http://192.168.1.20:8000/accounts/reset/" in mailoutbox[1].body


@pytest.mark.parametrize("bad", ["battle.example", "ftp://battle.example", "https://battle.example/app"])
def test_a_public_url_that_is_not_an_origin_is_refused(bad):
    base = {k: v for k, v in os.environ.items() if k != "PUBLIC_URL"}
    result = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=60,
                            env={**base, "DJANGO_SETTINGS_MODULE": "masscombat.settings", "PUBLIC_URL": bad})
    assert result.returncode != 0 and "PUBLIC_URL must be like" in result.stderr


@pytest.mark.django_db
def test_deep_json_shows_no_debug_page_even_with_debug(settings, client):
    settings.DEBUG = True
    response = client.post("/api/token/", "[" * 50_000 + "]" * 50_000, content_type="application/json")
    assert response.status_code == 400 and "REDIS_URL" not in response.content.decode()
