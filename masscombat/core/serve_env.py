"""The environment ``bin/run`` serves with: production settings that still work on a home network.

``bin/run`` listens on every interface, so whoever shares the network reaches
it.  It therefore runs without ``DEBUG`` unless asked (``DEBUG=1 bin/run``):
no debug page showing paths and service addresses, no ``Host`` header taken
on trust.  What production needs and a fresh machine lacks is made here:

- a secret key, generated once into ``.secret_key`` beside the code (git
  ignores it; readable by its owner only), so sessions outlive a restart;
- ``ALLOWED_HOSTS``: the machine's names and addresses (what a phone on the
  same Wi-Fi types), plus any given in ``ALLOWED_HOSTS``;
- plain HTTP: no redirect to HTTPS, cookies not marked Secure, no HSTS,
  unless ``SECURE_SSL_REDIRECT``, ``SECURE_COOKIES`` or ``SECURE_HSTS_SECONDS``
  say otherwise.

``python -m masscombat.core.serve_env`` prints these as ``export`` lines for
the shell to evaluate; a variable already set is kept as given.
"""

from __future__ import annotations

import os
import secrets
import shlex
import sys
from collections.abc import Mapping
from pathlib import Path

from masscombat.core.hosts import machine_hosts

ROOT = Path(__file__).resolve().parents[2]
KEY_FILE = ".secret_key"
PLAIN_HTTP = {"SECURE_SSL_REDIRECT": "0", "SECURE_COOKIES": "0", "SECURE_HSTS_SECONDS": "0"}


def secret_key(path: Path) -> str:
    """The key kept in ``path``; made (random, 50 bytes of entropy) and saved there the first time."""
    try:
        kept = path.read_text().strip()
    except FileNotFoundError:
        kept = ""
    if kept:
        return kept
    key = secrets.token_urlsafe(50)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as file:
        file.write(key + "\n")
    return key


def serve_environment(environ: Mapping[str, str], root: Path = ROOT, hosts: list[str] | None = None) -> dict[str, str]:
    """The variables ``bin/run`` sets on top of ``environ``: ``hosts`` defaults to this machine's."""
    given = [host.strip() for host in environ.get("ALLOWED_HOSTS", "").split(",") if host.strip()]
    env = {
        "DEBUG": environ.get("DEBUG", "0"),
        "ALLOWED_HOSTS": ",".join(dict.fromkeys([*(machine_hosts() if hosts is None else hosts), *given])),
        **{name: value for name, value in PLAIN_HTTP.items() if name not in environ},
    }
    if not environ.get("SECRET_KEY"):
        env["SECRET_KEY"] = secret_key(root / KEY_FILE)
    return env


def main() -> None:
    for name, value in serve_environment(os.environ).items():
        sys.stdout.write(f"export {name}={shlex.quote(value)}\n")


if __name__ == "__main__":
    main()
