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

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

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

# In development the app is reached from phones on the local network by IP address.
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["*"] if DEBUG else ["localhost", "127.0.0.1"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
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
    "masscombat.core",
    "masscombat.accounts",
    "masscombat.campaigns",
    "masscombat.rosters",
    "masscombat.battles",
    "masscombat.maps",
    "masscombat.backup",
    "masscombat.api",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "masscombat.core.security.ContentSecurityPolicyMiddleware",
    "masscombat.core.outage.DatabaseOutageMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
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
        # A connection kept across requests is checked first: after a database restart
        # the next request reconnects instead of failing on a dead socket.
        conn_health_checks=True,
        # Test runs sharing one server (bin/test, developers side by side) each name their own.
        test_options={"NAME": os.environ["TEST_DATABASE_NAME"]} if os.environ.get("TEST_DATABASE_NAME") else {},
    )
}

# Live updates: Redis when REDIS_URL is set, else in-process (one server only).
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # redis-py 8 reads with a 5 s socket timeout by default, the same 5 s that
            # channels-redis blocks in BZPOPMIN waiting for messages: under load the read
            # times out and the consumer dies (websocket closed with 1011).  Wait longer.
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
USE_THOUSAND_SEPARATOR = True

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

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# A roster editor posts every field of every unit (a 60-unit SYNAPSE army is some 2,000
# fields; D&D 5e stands add more): Django's default of 1,000 would refuse to save big armies.
# The body stays capped by DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB).
DATA_UPLOAD_MAX_NUMBER_FIELDS = 20_000

# Security: strict by default without DEBUG; each switch can be turned off for a
# deployment behind a TLS proxy or on a trusted local network.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if env_bool("BEHIND_TLS_PROXY", False) else None
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
    "DEFAULT_THROTTLE_CLASSES": [
        "rest_framework.throttling.AnonRateThrottle",
        "rest_framework.throttling.UserRateThrottle",
        "rest_framework.throttling.ScopedRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("THROTTLE_ANON", "60/min"),
        "user": os.environ.get("THROTTLE_USER", "600/min"),
        # Joining and token requests: slow enough that join codes and passwords cannot be guessed.
        "join": os.environ.get("THROTTLE_JOIN", "20/min"),
        # Logins on the web form, counted per address and per user name.
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
}
