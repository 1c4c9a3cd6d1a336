"""Settings, read from the environment.

Unset, everything falls back to what a fresh machine has: a SQLite file in the
project folder and Channels' in-memory layer, with DEBUG on.  Set
``DATABASE_URL`` (PostgreSQL through psycopg 3) and ``REDIS_URL``
(channels-redis) for the real services; set ``DEBUG=0`` and ``SECRET_KEY`` in
production, where ``manage.py check --deploy`` is clean.  The README lists
every variable.
"""

from pathlib import Path
import os
import sys

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from masscombat.core.hosts import machine_hosts

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    """A yes/no variable; anything unrecognised is an error, not a silent default."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be 1/0, true/false, yes/no or on/off, not {raw!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    """A comma-separated variable."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, not {raw!r}") from None


DEBUG = env_bool("DEBUG", True)

# A development key is fine while DEBUG is on; production must bring its own.
_DEV_SECRET_KEY = "django-insecure-masscombat-development-only-do-not-deploy"
SECRET_KEY = os.environ.get("SECRET_KEY") or (_DEV_SECRET_KEY if DEBUG else "")
if not SECRET_KEY:
    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")

# Phones on the local network reach the app by the computer's address: by default every
# name and address of this machine is accepted, and no other Host header (never "*").
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", machine_hosts())
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# The address people open (e.g. https://battle.example): links in mails are built from it,
# not from the Host header of whoever asked for the mail.
PUBLIC_URL = os.environ.get("PUBLIC_URL", "").strip().rstrip("/")
if PUBLIC_URL and not (PUBLIC_URL.startswith(("http://", "https://")) and "/" not in PUBLIC_URL.split("://", 1)[1]):
    raise ImproperlyConfigured(f"PUBLIC_URL must be like https://battle.example, not {PUBLIC_URL!r}")

# Notifications (masscombat/notifications): the VAPID contact of Web Push, and whether a campaign's
# webhook may be any URL (development and tests, to post to a local server) or only Discord's.
VAPID_CONTACT = os.environ.get("VAPID_CONTACT", "mailto:masscombat@localhost")
ANY_WEBHOOK_URL = env_bool("ANY_WEBHOOK_URL", DEBUG)
# Notifications are sent by a small pool of threads, off the request; 0 sends them at once, as the tests do.
NOTIFICATIONS_THREADS = env_int("NOTIFICATIONS_THREADS", 0 if "pytest" in sys.modules else 2)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "django_htmx",
    "procrastinate.contrib.django",
    "masscombat.core",
    "masscombat.accounts",
    "masscombat.campaigns",
    "masscombat.rosters",
    "masscombat.battles",
    "masscombat.maps",
    "masscombat.backup",
    "masscombat.api",
    "masscombat.demo",
    "masscombat.notifications",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "masscombat.core.security.ContentSecurityPolicyMiddleware",
    "masscombat.core.outage.DatabaseOutageMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages and parts leave gzipped (a D&D 5e round's reloads: ~67 KB per client before).  Below
    # WhiteNoise, which answers static files before it with the copies compressed at collectstatic;
    # above everything that reads or writes a body.  BREACH: CSRF tokens are masked anew per
    # response and Django pads each gzip body with random bytes ("Heal the Breach").
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "masscombat.accounts.guests.GuestSeatMiddleware",
    "masscombat.notifications.middleware.NotificationsMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "masscombat.core.security.RateLimitAnswerMiddleware",
]

ROOT_URLCONF = "masscombat.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                # Which of htmx and the map styles the page loads.
                "masscombat.core.assets.page_assets",
            ],
        },
    },
]

ASGI_APPLICATION = "masscombat.asgi.application"

# Storage: PostgreSQL when DATABASE_URL is set, else a SQLite file beside the code.
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env_int("CONN_MAX_AGE", 0),
        # A connection kept across requests (or taken from the pool) is checked first: after a
        # database restart the next request reconnects instead of failing on a dead socket.
        conn_health_checks=True,
        # Test runs sharing one server (bin/test, developers side by side) each name their own.
        test_options={"NAME": os.environ["TEST_DATABASE_NAME"]} if os.environ.get("TEST_DATABASE_NAME") else {},
    )
}
# SQLite (the embedded default) serves daphne's threads from one file: a write waits for another
# up to 20 s instead of 5 (a loaded machine answered "database is locked"), transactions take the
# write lock when they begin (a read that turns into a write cannot deadlock with another), and
# the write-ahead log lets pages read while a round is written.
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL"})
# PostgreSQL connections come from a pool per server process (psycopg_pool, Django's OPTIONS["pool"]).
# daphne runs each request's synchronous code in a thread of its own, so CONN_MAX_AGE (a connection
# kept per thread) never reuses one: every request paid a new connection, and a wave of requests
# past PostgreSQL's connection limit failed.  The pool reuses them, and makes requests past its
# size wait their turn (DB_POOL_TIMEOUT seconds at most).  DB_POOL_MAX_SIZE=0: a connection per request.
DB_POOL_MAX_SIZE = env_int("DB_POOL_MAX_SIZE", 10)
DB_POOL_TIMEOUT = env_int("DB_POOL_TIMEOUT", 10)
if DATABASES["default"]["ENGINE"].endswith("postgresql") and DB_POOL_MAX_SIZE > 0:
    if DATABASES["default"]["CONN_MAX_AGE"]:
        raise ImproperlyConfigured("CONN_MAX_AGE keeps connections outside the pool: set DB_POOL_MAX_SIZE=0 to use it")
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": min(2, DB_POOL_MAX_SIZE), "max_size": DB_POOL_MAX_SIZE, "timeout": DB_POOL_TIMEOUT}
    # While the database is away the pool tries to reconnect after 1, 2, 4, 8, 16 s...: back after a
    # 20 s outage, requests would wait for an attempt past DB_POOL_TIMEOUT and still get 503s.  Try
    # every second instead (a refused connection costs nothing), so the first request after it is back
    # is served.  (psycopg_pool names this constant but offers no option for it.)
    from psycopg_pool.base import AttemptWithBackoff

    AttemptWithBackoff.DELAY_BACKOFF = 1.0

# Round deadlines (masscombat/battles/deadlines.py): on PostgreSQL a procrastinate job in the same
# database, deferred in the transaction that sets the deadline and run by `manage.py procrastinate
# worker` (bin/run starts one beside daphne).  procrastinate's tables exist only on PostgreSQL: on
# SQLite its migrations are not run and deadlines fire from a scheduler inside the server process.
DEADLINES_QUEUE = "deadlines"
PROCRASTINATE_ON_PG = DATABASES["default"]["ENGINE"].endswith("postgresql")
if not PROCRASTINATE_ON_PG:
    MIGRATION_MODULES = {"procrastinate": None}
PROCRASTINATE_AUTODISCOVER_MODULE_NAME = "tasks"
PROCRASTINATE_WORKER_DEFAULTS = {"queues": [DEADLINES_QUEUE]}
# The server process keeps the SQLite clock running (bin/run sets it there; tests drive the clock by hand).
DEADLINES_IN_PROCESS = env_bool("DEADLINES_IN_PROCESS", False) and not PROCRASTINATE_ON_PG

# Live updates: Redis when REDIS_URL is set, else in-process (one server only).  With Redis, its
# pub/sub layer by default (REDIS_CHANNEL_LAYER=pubsub): a group message is published once and each
# server process hands it to its own sockets, where the list-based layer (=lists) writes one copy per
# socket into Redis and each process pops its own; benchmarks/live_fanout.py measures both.  Neither
# keeps a message while Redis is away: the pages see the gap and catch up (masscombat/battles/live.py).
REDIS_URL = os.environ.get("REDIS_URL", "")
REDIS_CHANNEL_LAYERS = {"pubsub": "channels_redis.pubsub.RedisPubSubChannelLayer",
                        "lists": "channels_redis.core.RedisChannelLayer"}
REDIS_CHANNEL_LAYER = os.environ.get("REDIS_CHANNEL_LAYER", "pubsub")
if REDIS_CHANNEL_LAYER not in REDIS_CHANNEL_LAYERS:
    raise ImproperlyConfigured(f"REDIS_CHANNEL_LAYER must be one of {', '.join(REDIS_CHANNEL_LAYERS)}, "
                               f"not {REDIS_CHANNEL_LAYER!r}")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": REDIS_CHANNEL_LAYERS[REDIS_CHANNEL_LAYER],
            # redis-py 8 reads with a 5 s socket timeout by default, the same 5 s that the list-based
            # layer blocks in BZPOPMIN waiting for messages: under load the read times out and the
            # consumer dies (websocket closed with 1011).  Wait longer.
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": 30}]},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# The cache holds the rate-limit counters: shared by every server process through Redis
# (still serving, uncounted, while Redis restarts), else this process's memory.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "masscombat.core.cache.TolerantRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "cache",
            "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
        }
    }

AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "masscombat@localhost")

# Internationalisation: English and French, French for French browsers.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("fr", _("French"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Paris")
USE_TZ = True
# Numbers are grouped ("12 000") only where they are written for people (formats.number_format with
# force_grouping): a page also prints numbers for machines (ids, event numbers in data- attributes and
# URLs), which a locale must never change.
USE_THOUSAND_SEPARATOR = False

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
# Production serves the collected, hashed, compressed files; development serves
# the source folders directly (whitenoise reads the finders), no collectstatic needed.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG
# Static files are this site's own: no Access-Control-Allow-Origin on each (30 bytes of every response).
WHITENOISE_ALLOW_ALL_ORIGINS = False

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# A roster editor posts every field of every unit (a 60-unit SYNAPSE army is some 2,000
# fields; D&D 5e stands add more): Django's default of 1,000 would refuse to save big armies.
# The body stays capped by MAX_REQUEST_BYTES.
DATA_UPLOAD_MAX_NUMBER_FIELDS = 20_000

# No request body is read past this size (masscombat.core.limits, in front of Django: 413);
# Django's own cap on form data says the same.  The biggest legitimate bodies, a 60-unit
# roster or a 40x30 map, are a few hundred kilobytes.
MAX_REQUEST_BYTES = env_int("MAX_REQUEST_BYTES", 1024 * 1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_REQUEST_BYTES
# A websocket client only says hello and which events it has seen: a few hundred bytes.
WEBSOCKET_MAX_MESSAGE_BYTES = env_int("WEBSOCKET_MAX_MESSAGE_BYTES", 64 * 1024)

# Engine operations run for the API (POST /api/rules/<slug>/<op>/): each within a time
# budget (503 past it), and only so many at once per user (429 past it).
ENGINE_API_SECONDS = env_int("ENGINE_API_SECONDS", 5)
ENGINE_API_CONCURRENT = env_int("ENGINE_API_CONCURRENT", 2)
# The GM's odds (masscombat/battles/balance.py, preview.py, docs/simulation.md): the processes that play
# balances and round previews (this server's worker processes without a queue; with PostgreSQL and Redis,
# the procrastinate workers bin/run starts on the simulation queue), the battles and round cap of one
# balance, the resolutions of one round preview (its first figures come after 25, benchmarks/simulate.py).
SIMULATION_WORKERS = env_int("SIMULATION_WORKERS", 1)
BALANCE_BATTLES = env_int("BALANCE_BATTLES", 200)
BALANCE_ROUND_CAP = env_int("BALANCE_ROUND_CAP", 30)
PREVIEW_RESOLUTIONS = env_int("PREVIEW_RESOLUTIONS", 500)

# Security: strict by default without DEBUG; each switch can be turned off for a
# deployment behind a TLS proxy or on a trusted local network.
BEHIND_TLS_PROXY = env_bool("BEHIND_TLS_PROXY", False)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if BEHIND_TLS_PROXY else None
# How many proxies append to X-Forwarded-For: the client's address is that many entries from
# the right (what the client wrote itself is further left).  0: the connection's own address.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 1 if BEHIND_TLS_PROXY else 0)
if TRUSTED_PROXY_COUNT < 0:
    raise ImproperlyConfigured("TRUSTED_PROXY_COUNT must be 0 or more")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HSTS_SECONDS > 0
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# The HSTS-preload warning is a choice, not an oversight: preload lists are opt-in.
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]

REST_FRAMEWORK = {
    # Token first, so an anonymous request is told how to authenticate (401, not 403).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # JSON bodies go through the one decoder that refuses deep nesting (400, not 500).
    "DEFAULT_PARSER_CLASSES": [
        "masscombat.api.parsers.SafeJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # Throttles find the caller's address as the web forms do (masscombat.core.security.client_ip).
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
    "DEFAULT_THROTTLE_CLASSES": [
        "rest_framework.throttling.AnonRateThrottle",
        "rest_framework.throttling.UserRateThrottle",
        "rest_framework.throttling.ScopedRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("THROTTLE_ANON", "60/min"),
        "user": os.environ.get("THROTTLE_USER", "600/min"),
        # Joining by code (web and API, and opening an invitation link): codes cannot be guessed.
        "join": os.environ.get("THROTTLE_JOIN", "20/min"),
        # Every password check (API token, web and admin log-in), per address and per user name.
        "login": os.environ.get("THROTTLE_LOGIN", "10/min"),
        # Sign-ups per address: a whole table of players behind one router gets in, a script
        # filling the database with accounts does not.
        "signup": os.environ.get("THROTTLE_SIGNUP", "20/hour"),
    },
    "EXCEPTION_HANDLER": "masscombat.api.errors.exception_handler",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "masscombat API",
    "DESCRIPTION": "Campaigns, memberships, invitations, and the rules engines of five mass-combat systems.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # The docs' scripts are served from our static files, not from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # procrastinate says "Adding tasks from blueprint" at every start of every command: not news.
    "loggers": {"procrastinate.blueprints": {"level": "WARNING"}},
}
