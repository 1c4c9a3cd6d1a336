"""The cache: Redis tolerant of being away, and answers computed once however many ask at once.

The cache holds rate-limit counters (API throttles, login and join-code
attempts) and answers that are costly to compute (the engines' answers about a
battle's state).  Django's Redis backend raises on every call while Redis
restarts, which would turn every API request into a server error; this one
answers as an empty cache instead (nothing found, nothing stored) and logs it,
so the app keeps serving and the counters start again when Redis is back.
"""

import logging
import time

from django.core.cache import cache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

_MISSING = object()
# A computation holds its key's lock this long at most (a process that dies holding it frees it then);
# the others wait for its answer WAIT_SECONDS at most, then compute it themselves rather than fail.
LOCK_SECONDS = 30
WAIT_SECONDS = 10


def compute_once(key: str, compute, timeout: int):
    """The cached value of ``key``, else ``compute()``'s, stored for ``timeout`` seconds.

    When a battle changes, every client reloads its parts at the same moment and
    all of them miss the cache together: each would run the same engine
    computation (the issue #20 profile saw ``declaration-options`` asked 10-21
    times for 8 participants).  Here the first to miss takes a lock in the cache
    (``add``, atomic in Redis and in local memory) and computes; the others wait
    for its answer.  Without a working cache (Redis away: no lock is held and
    nothing is stored) everyone computes, as before.
    """
    value = cache.get(key, _MISSING)
    if value is not _MISSING:
        return value
    lock = f"{key}:computing"
    deadline = time.monotonic() + WAIT_SECONDS
    pause = 0.002
    while time.monotonic() < deadline:
        if cache.add(lock, 1, LOCK_SECONDS):
            try:
                value = cache.get(key, _MISSING)  # stored by the previous holder after our miss
                if value is _MISSING:
                    value = compute()
                    cache.set(key, value, timeout)
                return value
            finally:
                cache.delete(lock)
        held = cache.has_key(lock)
        value = cache.get(key, _MISSING)  # read after the lock: a holder stores its answer before freeing it
        if value is not _MISSING:
            return value
        if not held:  # neither a holder nor its answer: the cache keeps nothing
            break
        time.sleep(pause)
        pause = min(pause * 2, 0.05)
    value = compute()
    cache.set(key, value, timeout)
    return value


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
