"""Web-layer operations (filled in below)."""
