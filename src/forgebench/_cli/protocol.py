"""CLI commands (protocol)."""

from __future__ import annotations

from forgebench._cli.app import app  # noqa: F401
