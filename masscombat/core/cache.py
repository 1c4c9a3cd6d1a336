"""The Redis cache, tolerant of Redis being away.

The cache holds only rate-limit counters (API throttles, login and join-code
attempts).  Django's Redis backend raises on every call while Redis restarts,
which would turn every API request into a server error; this one answers as
an empty cache instead (nothing found, nothing stored) and logs it, so the app
keeps serving and the counters start again when Redis is back.
"""

import logging

from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)


def _tolerant(name: str, fallback):
    method = getattr(RedisCache, name)

    def call(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except RedisError:
            logger.warning("cache %s skipped: Redis is unreachable", name)
            return fallback(*args, **kwargs) if callable(fallback) else fallback

    call.__name__ = name
    call.__doc__ = method.__doc__
    return call


def _default(key, default=None, version=None):
    return default


class TolerantRedisCache(RedisCache):
    get = _tolerant("get", _default)
    set = _tolerant("set", None)
    add = _tolerant("add", False)
    touch = _tolerant("touch", False)
    delete = _tolerant("delete", False)
    get_many = _tolerant("get_many", lambda *args, **kwargs: {})
    set_many = _tolerant("set_many", lambda keys, *args, **kwargs: list(keys))
    delete_many = _tolerant("delete_many", None)
    has_key = _tolerant("has_key", False)
    clear = _tolerant("clear", False)
