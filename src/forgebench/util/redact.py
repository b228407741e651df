"""The one redaction step: every text from a server or a configuration passes here before it is
printed or stored.

What is replaced by ``***``:

- known secret values: the value of every environment variable whose name looks like a credential
  (``*_API_KEY``, ``*_TOKEN``, ``*SECRET*``, ``*PASSWORD*``, ``*CREDENTIAL*``; at least 8
  characters) and of every key variable a model configuration names (:func:`register`); answers
  get only these (:func:`redact_known`), never the patterns below, which could corrupt a real
  answer;
- ``Authorization``/``Proxy-Authorization``/``api-key``/``x-api-key``/``x-goog-api-key`` style
  header values and ``Bearer``/``Basic`` credentials, wherever a server echoes them;
- the user:password part of URLs (``https://user:pw@host``) and the values of credential-like
  URL query keys (``?key=...``, ``&access_token=...``, ``&sig=...``);
- in JSON-like data (:func:`redact`), the value of every field whose name looks like a credential
  (``api_key``, ``authorization``, ``password``, ``token``, ``*_key``, ...; ``api_key_env``, which
  names a variable, is kept).

Every pattern runs in linear time in the length of the text (each is anchored on a literal and
scans a character class that cannot overlap the next match), so a 10 MB label costs milliseconds,
not the minutes a backtracking URL pattern would take.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Sequence
from typing import Any

REDACTED = "***"

_FIELD = re.compile(
    r"api[_-]?key|apikey|secret|password|passwd|authorization|bearer|access[_-]?token|"
    r"refresh[_-]?token|auth[_-]?token|credential|(?:^|[_-])(?:key|token|sig|signature)$",
    re.IGNORECASE,
)
"""A field name whose value is a credential."""
_KEEP_FIELDS = frozenset({"api_key_env"})

_ENV_NAME = re.compile(r"api[_-]?key|_key$|token|secret|password|passwd|credential", re.I)
"""An environment variable name whose value is a credential."""

_HEADER = re.compile(
    r"(?i)\b((?:proxy-)?authorization|x-goog-api-key|x-api-key|api[-_]key|apikey)"
    r"([\"']?\s*+[:=]\s*+[\"']?)(?:(?:bearer|basic|token)\s++)?[^\s\"',;&}\]]+"
)
_SCHEME_CRED = re.compile(r"(?i)\b(bearer)(\s++)(?=[^\s]*[0-9_.\-])[A-Za-z0-9._~+/=\-]{8,}")
"""A ``Bearer`` token outside a header (a token has a digit or ``-_.``: "bearer of" stays)."""
_USERINFO = re.compile(r"://[^/@\s\"'<>]++@")
_QUERY = re.compile(
    r"(?i)([?&;](?:key|api[-_]?key|apikey|token|access[-_]?token|auth|sig|signature|secret|"
    r"password|client[-_]?secret)=)[^&#\s\"'<>]+"
)

_HEADER_WORDS = ("authorization", "api-key", "api_key", "apikey")
"""Lower-case literals one of which every :data:`_HEADER` match contains."""

_registered: set[str] = set()
_memo: tuple[dict[Any, Any], tuple[str, ...]] | None = None
"""``(a copy of the environment, known values)``: :func:`known_secrets` rescans only when the
environment differs from the copy (or a value is registered, which clears it)."""


def register(values: Iterable[str]) -> None:
    """Add secret values (of at least 4 characters) to every later redaction."""
    global _memo
    new = {v for v in values if v and len(v) >= 4} - _registered
    if new:
        _registered.update(new)
        _memo = None


def register_env(names: Iterable[str | None]) -> None:
    """Register the values of the environment variables ``names`` (a model's ``api_key_env``)."""
    register(v for n in names if n and (v := os.environ.get(n)))


def _environ() -> dict[Any, Any]:
    # os.environ's own mapping (encoded names and values, no decoding per read) where CPython has
    # it; comparing it with a saved copy is one C-level dict comparison, a fraction of matching
    # every name against the credential pattern
    raw = getattr(os.environ, "_data", None)
    return raw if isinstance(raw, dict) else dict(os.environ)


def known_secrets() -> tuple[str, ...]:
    """The secret values redaction replaces: registered ones and credential-named variables',
    longest first (so a key that contains another is replaced whole).

    Memoised: the environment is rescanned only when a value is registered or the environment
    changed since the last call (every stored answer passes here)."""
    global _memo
    memo = _memo
    env = _environ()
    if memo is not None and memo[0] == env:
        return memo[1]
    found = set(_registered)
    for name, value in os.environ.items():
        if len(value) >= 8 and _ENV_NAME.search(name):
            found.add(value)
    values = tuple(sorted(found, key=len, reverse=True))
    _memo = (dict(env), values)
    return values


def _values(secrets: Iterable[str] | None) -> list[str] | tuple[str, ...]:
    known = known_secrets()
    if secrets is None:
        return known
    extra = set(secrets) - set(known)
    return sorted(extra | set(known), key=len, reverse=True) if extra else known


def redact_known(text: str) -> str:
    """``text`` with only the known secret values (:func:`known_secrets`) replaced by ``***``.

    For answers: a model's text may legitimately hold ``Authorization:`` or a URL with ``?key=``,
    which the header and URL patterns of :func:`redact_text` would corrupt; an exact key value
    never belongs there."""
    for value in known_secrets():
        if value in text:
            text = text.replace(value, REDACTED)
    return text


def redact_known_json(encoded: str) -> str:
    """JSON text with the known secret values replaced by ``***`` wherever they stand (also in
    the escaped form JSON gives a value holding quotes, backslashes or non-ASCII)."""
    for value in known_secrets():
        for form in {value, json.dumps(value)[1:-1], json.dumps(value, ensure_ascii=False)[1:-1]}:
            if form in encoded:
                encoded = encoded.replace(form, REDACTED)
    return encoded


def redact_text(text: str, secrets: Iterable[str] | None = None) -> str:
    """``text`` with credentials replaced by ``***`` (module docstring); linear time."""
    return _text(text, _values(secrets))


def _text(text: str, values: Sequence[str]) -> str:
    out = text
    for value in values:
        if value and value in out:
            out = out.replace(value, REDACTED)
    # each pattern runs only when its literal trigger is present (a fast substring scan), so a
    # long prompt without URLs or headers costs one lower-casing and a few scans
    low = out.lower()
    if any(h in low for h in _HEADER_WORDS):
        out = _HEADER.sub(lambda m: f"{m.group(1)}{m.group(2)}{REDACTED}", out)
    if "://" in out and "@" in out:
        out = _USERINFO.sub(f"://{REDACTED}@", out)
    if "=" in out and ("?" in out or "&" in out or ";" in out):
        out = _QUERY.sub(lambda m: f"{m.group(1)}{REDACTED}", out)
    if "bearer" in low:
        out = _SCHEME_CRED.sub(lambda m: f"{m.group(1)}{m.group(2)}{REDACTED}", out)
    return out


def secret_field(name: object) -> bool:
    """Whether a field of this name holds a credential."""
    key = str(name)
    return key not in _KEEP_FIELDS and _FIELD.search(key) is not None


def redact(obj: Any, secrets: Iterable[str] | None = None) -> Any:
    """JSON-like ``obj`` with credential fields and every string redacted (a new object)."""
    return _walk(obj, _values(secrets))


def _walk(obj: Any, values: Sequence[str]) -> Any:
    if isinstance(obj, dict):
        return {
            k: (REDACTED if secret_field(k) and v not in (None, "") else _walk(v, values))
            for k, v in obj.items()
        }
    if isinstance(obj, list | tuple):
        return [_walk(v, values) for v in obj]
    if isinstance(obj, str):
        return _text(obj, values) if obj else obj
    return obj
