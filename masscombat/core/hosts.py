"""The names and addresses this machine answers to: the default ``ALLOWED_HOSTS``.

Players open the app from their phones by the computer's address on the local
network, so ``localhost`` alone would lock them out; ``*`` would let any
``Host`` header through (password-reset links pointing elsewhere, websockets
opened from any page).  The machine's own names and addresses are both enough
and no more than that.
"""

from __future__ import annotations

import socket
import subprocess

LOOPBACK = ["localhost", "127.0.0.1", "[::1]"]


def host_addresses() -> list[str]:
    """The addresses ``hostname -I`` lists (every interface but loopback); none where it is missing."""
    try:
        listed = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=5, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return [f"[{address}]" if ":" in address else address for address in listed.split()]


def machine_hosts(addresses: list[str] | None = None, name: str | None = None) -> list[str]:
    """Loopback, the machine's addresses and its host name, each once, in that order."""
    found = [*LOOPBACK, *(host_addresses() if addresses is None else addresses), name or socket.gethostname()]
    return list(dict.fromkeys(host.lower() for host in found if host))
