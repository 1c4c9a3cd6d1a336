"""Settings come from the environment, with fallbacks a fresh machine can run on.

Each case loads the settings in a fresh interpreter with exactly the
environment given, as a deployment would.
"""

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KEY = secrets.token_urlsafe(50)
PROBE = """
import json, django
from django.conf import settings
django.setup()
db = settings.DATABASES["default"]
print(json.dumps({
    "debug": settings.DEBUG,
    "engine": db["ENGINE"], "name": str(db["NAME"]), "host": db.get("HOST", ""),
    "test_name": db.get("TEST", {}).get("NAME"),
    "layer": settings.CHANNEL_LAYERS["default"]["BACKEND"],
    "layer_hosts": settings.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("hosts"),
    "allowed_hosts": settings.ALLOWED_HOSTS, "csrf": settings.CSRF_TRUSTED_ORIGINS,
    "mail": settings.EMAIL_BACKEND, "ssl_redirect": settings.SECURE_SSL_REDIRECT,
    "static": settings.STORAGES["staticfiles"]["BACKEND"],
    "proxies": settings.TRUSTED_PROXY_COUNT, "num_proxies": settings.REST_FRAMEWORK["NUM_PROXIES"],
    "max_body": settings.MAX_REQUEST_BYTES, "form_body": settings.DATA_UPLOAD_MAX_MEMORY_SIZE,
}))
"""
VARIABLES = ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS",
             "EMAIL_BACKEND", "SECURE_SSL_REDIRECT", "SECURE_COOKIES", "SECURE_HSTS_SECONDS",
             "DJANGO_ALLOW_ASYNC_UNSAFE", "TEST_DATABASE_NAME", "BEHIND_TLS_PROXY", "TRUSTED_PROXY_COUNT",
             "MAX_REQUEST_BYTES", "PUBLIC_URL")


def run(code, **env):
    base = {k: v for k, v in os.environ.items() if k not in VARIABLES}
    base["DJANGO_SETTINGS_MODULE"] = "masscombat.settings"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env={**base, **env}, capture_output=True, text=True, timeout=60
    )


def load(**env) -> dict:
    result = run(PROBE, **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_nothing_set_means_sqlite_in_memory_layer_debug_console_mail():
    found = load()
    assert found["debug"] is True
    assert found["engine"] == "django.db.backends.sqlite3" and found["name"].endswith("db.sqlite3")
    assert found["layer"] == "channels.layers.InMemoryChannelLayer"
    assert found["mail"] == "django.core.mail.backends.console.EmailBackend"
    assert found["static"] == "django.contrib.staticfiles.storage.StaticFilesStorage"


def test_services_from_urls():
    found = load(DATABASE_URL="postgres://someone@db.example:5432/battles", REDIS_URL="redis://cache:6379/2")
    assert found["engine"] == "django.db.backends.postgresql"
    assert (found["name"], found["host"]) == ("battles", "db.example")
    assert found["layer"] == "channels_redis.pubsub.RedisPubSubChannelLayer"  # one publish per group message
    assert found["layer_hosts"] == [{"address": "redis://cache:6379/2", "socket_timeout": 30}]
    lists = load(REDIS_URL="redis://cache:6379/2", REDIS_CHANNEL_LAYER="lists")
    assert lists["layer"] == "channels_redis.core.RedisChannelLayer"
    assert found["test_name"] is None
    assert load(DATABASE_URL="postgres://db/x", TEST_DATABASE_NAME="test_run_42")["test_name"] == "test_run_42"


def test_production_is_strict():
    found = load(DEBUG="0", SECRET_KEY=KEY, ALLOWED_HOSTS="battle.example, www.battle.example",
                 CSRF_TRUSTED_ORIGINS="https://battle.example")
    assert found["debug"] is False
    assert found["allowed_hosts"] == ["battle.example", "www.battle.example"]
    assert found["csrf"] == ["https://battle.example"]
    assert found["ssl_redirect"] is True
    assert found["static"] == "whitenoise.storage.CompressedManifestStaticFilesStorage"


@pytest.mark.parametrize(
    ("env", "proxies"),
    [({}, 0), ({"BEHIND_TLS_PROXY": "1"}, 1), ({"BEHIND_TLS_PROXY": "1", "TRUSTED_PROXY_COUNT": "2"}, 2),
     ({"TRUSTED_PROXY_COUNT": "1"}, 1)],
)
def test_trusted_proxies_follow_the_tls_proxy_switch(env, proxies):
    found = load(**env)
    assert found["proxies"] == found["num_proxies"] == proxies


def test_one_request_size_limit_for_the_app_and_django():
    assert load()["max_body"] == load()["form_body"] == 1024 * 1024
    found = load(MAX_REQUEST_BYTES="5000000")
    assert found["max_body"] == found["form_body"] == 5_000_000


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DEBUG": "0"}, "SECRET_KEY must be set"),
        ({"DEBUG": "maybe"}, "DEBUG must be"),
        ({"SECURE_HSTS_SECONDS": "a year"}, "SECURE_HSTS_SECONDS must be an integer"),
        ({"TRUSTED_PROXY_COUNT": "-1"}, "TRUSTED_PROXY_COUNT must be 0 or more"),
    ],
)
def test_bad_configuration_is_refused_with_a_reason(env, message):
    result = run(PROBE, **env)
    assert result.returncode != 0 and message in result.stderr


def test_check_deploy_is_clean_without_debug():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={**{k: v for k, v in os.environ.items() if k not in VARIABLES}, "DEBUG": "0", "SECRET_KEY": KEY},
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_variable_is_documented_in_the_readme():
    import re

    source = (ROOT / "masscombat" / "settings.py").read_text()
    names = set(re.findall(r'(?:env_(?:bool|int|list)\(|environ(?:\.get\(|\[))"([A-Z_]+)"', source))
    readme = (ROOT / "README.md").read_text()
    assert names and not {name for name in names if f"`{name}`" not in readme}
