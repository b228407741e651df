"""Up-front checks of what a user configures for a model server: its base URL and its key.

:func:`base_url_problem` is applied when a spec is parsed (for ``builtin/`` specs, whose part after
``@`` is a local folder, :func:`local_path_problem`) (before anything is planned or sent):
the URL must be ``http``/``https`` with a host, a port in 1..65535, no spaces or control
characters, and no ``user:password@`` part (a key belongs in the key environment variable; a URL
with credentials is also stored in ``config.json``, redacted, and, with a key set as well, makes
the HTTP client refuse the request). :func:`key_problem` refuses a key with a control character
(a stray newline from ``$(cat key.txt)``), which HTTP clients reject with a raw ``ValueError``
on every request.
"""

from __future__ import annotations

from urllib.parse import urlsplit


def base_url_problem(url: str) -> str | None:
    """Why ``url`` cannot be a model server's base URL, or None."""
    if any(ord(c) < 33 or ord(c) == 127 for c in url):
        return "base URL contains a space or a control character"
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        return f"base URL {url!r} is not a valid URL ({exc})"
    if parts.scheme not in ("http", "https"):
        return f"base URL {url!r} must start with http:// or https://"
    if not parts.hostname:
        return f"base URL {url!r} has no host"
    if port == 0:
        return f"base URL {url!r}: port 0 is not a port"
    if parts.username is not None or parts.password is not None:
        return (
            "base URL has a user:password@ part; put the key in the key environment variable "
            "(api_key_env) instead"
        )
    return None


def local_path_problem(path: str) -> str | None:
    """Why ``path`` cannot be a builtin model's resource folder (``builtin/verifier@KB``), or None:
    no control characters; whether the folder exists is the backend's to say."""
    if any(ord(c) < 32 or ord(c) == 127 for c in path):
        return "the path after @ contains a control character"
    return None


def key_problem(env: str, key: str) -> str | None:
    """Why the value of ``env`` cannot be sent as a key, or None."""
    for i, c in enumerate(key):
        if ord(c) < 32 or ord(c) == 127:
            return (
                f"{env} contains a control character ({c!r} at position {i + 1}); "
                "set it again without it"
            )
    return None
