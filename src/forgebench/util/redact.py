"""The one redaction step: every text from a server or a configuration passes here before it is
printed or stored.

What is replaced by ``***``:

- known secret values: the value of every environment variable whose name looks like a credential
  (``*_API_KEY``, ``*_TOKEN``, ``*SECRET*``, ``*PASSWORD*``, ``*CREDENTIAL*``; at least 8
  characters) and of every key variable a model configuration names (:func:`register_env`), in
  every form :func:`secret_forms` lists (exact, upper/lower case, JSON/HTML-escaped,
  URL-encoded, base64); answers get only these (:func:`redact_known`), never the patterns below,
  which could corrupt a real answer. A configured key under 8 characters is not a secret to
  scrub from answers or files (a 4-letter key such as ``test`` would rewrite ordinary words): a
  warning line names its variable, and errors and configurations lose it only as a whole word;
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

import base64
import functools
import html
import json
import os
import re
import sys
import urllib.parse
from collections.abc import Iterable
from typing import Any

REDACTED = "***"

MIN_SECRET = 8
"""Key values at least this long are secrets scrubbed everywhere, in every :func:`secret_forms`."""
MIN_TOKEN = 4
"""Shorter configured key values (at least this long) are matched only as whole words in errors
and configurations; shorter still, nowhere."""

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
_short: set[str] = set()
"""Registered values of :data:`MIN_TOKEN` to :data:`MIN_SECRET` - 1 characters (whole words only)."""
_warned: set[str] = set()
_memo: tuple[dict[Any, Any], tuple[str, ...]] | None = None
"""``(a copy of the environment, known values)``: :func:`known_secrets` rescans only when the
environment differs from the copy (or a value is registered, which clears it)."""


def register(values: Iterable[str]) -> None:
    """Add secret values to every later redaction: those of at least :data:`MIN_SECRET`
    characters everywhere (:func:`known_secrets`), shorter ones of at least :data:`MIN_TOKEN`
    only as whole words in errors and configurations (:func:`redact_text`, :func:`redact`)."""
    global _memo
    values = {v for v in values if v}
    new = {v for v in values if len(v) >= MIN_SECRET} - _registered
    _short.update(v for v in values if MIN_TOKEN <= len(v) < MIN_SECRET)
    if new:
        _registered.update(new)
        _memo = None


def register_env(names: Iterable[str | None]) -> list[str]:
    """Register the values of the environment variables ``names`` (a model's ``api_key_env``);
    their values. A value under :data:`MIN_SECRET` characters gets one warning line on stderr
    (once per variable, naming the variable, never the value)."""
    values = []
    for name in dict.fromkeys(n for n in names if n):
        value = os.environ.get(name)
        if not value:
            continue
        values.append(value)
        if len(value) < MIN_SECRET and name not in _warned:
            _warned.add(name)
            where = (
                "errors and configurations lose it only as a whole word"
                if len(value) >= MIN_TOKEN
                else "it is not redacted anywhere"
            )
            sys.stderr.write(
                f"warning: {name} holds a key under {MIN_SECRET} characters: it is not scrubbed "
                f"from answers or run files as a secret (it would rewrite ordinary words); "
                f"{where}\n"
            )
    register(values)
    return values


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
        if len(value) >= MIN_SECRET and _ENV_NAME.search(name):
            found.add(value)
    values = tuple(sorted(found, key=len, reverse=True))
    _memo = (dict(env), values)
    return values


_PCT = re.compile(r"%[0-9A-F]{2}")


def _b64_core(raw: bytes, shift: int, alphabet: str) -> str:
    """The base64 characters that depend on ``raw`` alone when it starts ``shift`` bytes (0-2)
    after a 3-byte boundary of a longer encoded stream (the first and last characters, which mix
    in the neighbouring bytes, are left out)."""
    enc = base64.b64encode if alphabet == "std" else base64.urlsafe_b64encode
    text = enc(b"\0" * shift + raw).decode("ascii")
    first = (8 * shift + 5) // 6
    last = (8 * (shift + len(raw)) - 6) // 6
    return text[first : last + 1]


@functools.lru_cache(maxsize=256)
def secret_forms(value: str) -> tuple[str, ...]:
    """Every form of a key value that redaction replaces, longest first (so a longer form is
    replaced whole before a shorter one inside it). The one list of encodings, used by the live
    redaction of answers, errors and configurations and by ``forgebench redact RUN``:

    - the exact value, its upper-case and lower-case forms, and its JSON-escaped and
      HTML/XML-escaped forms;
    - its URL-encoded forms: every reserved character percent-encoded (``/`` too, or kept), with
      upper-case and lower-case hex digits, and the form with ``+`` for spaces;
    - standard and URL-safe base64 of the value and of ``Bearer VALUE``, with and without ``=``
      padding, and, for the value inside any longer base64 text (a ``Basic`` credential, a data
      URL), the characters that depend on the value alone at each of the three byte alignments
      (a match there leaves at most the two characters at each end that mix in the neighbours).
    """
    forms = {value, value.upper(), value.lower()}
    forms |= {json.dumps(value)[1:-1], json.dumps(value, ensure_ascii=False)[1:-1]}
    forms |= {html.escape(value, quote=True), html.escape(value, quote=False)}
    for quoted in (
        urllib.parse.quote(value, safe=""),
        urllib.parse.quote(value, safe="/"),
        urllib.parse.quote_plus(value, safe=""),
    ):
        forms |= {quoted, _PCT.sub(lambda m: m.group(0).lower(), quoted)}
    raw = value.encode("utf-8")
    for payload in (raw, b"Bearer " + raw):
        for enc in (base64.b64encode, base64.urlsafe_b64encode):
            full = enc(payload).decode("ascii")
            forms |= {full, full.rstrip("=")}
    for shift in (0, 1, 2):
        for alphabet in ("std", "url"):
            core = _b64_core(raw, shift, alphabet)
            if len(core) >= MIN_SECRET:
                forms.add(core)
    forms.discard("")
    return tuple(sorted(forms, key=lambda f: (-len(f), f)))


class Scrubber:
    """Replaces every :func:`secret_forms` form of some key values by ``***``."""

    def __init__(self, values: Iterable[str]) -> None:
        forms: set[str] = set()
        for value in values:
            forms.update(secret_forms(value))
        self.forms: tuple[str, ...] = tuple(sorted(forms, key=lambda f: (-len(f), f)))
        """Every form looked for, longest first."""
        self.needles: tuple[bytes, ...] = tuple(f.encode("utf-8") for f in self.forms)
        """The forms as UTF-8 bytes (for binary data that cannot be rewritten)."""

    def __call__(self, text: str) -> str:
        for form in self.forms:
            if form in text:
                text = text.replace(form, REDACTED)
        return text

    def found(self, text: str) -> bool:
        """Whether any form occurs in ``text``."""
        return any(form in text for form in self.forms)

    def found_bytes(self, data: bytes) -> bool:
        """Whether any form's UTF-8 bytes occur in ``data``."""
        return any(needle in data for needle in self.needles)


@functools.lru_cache(maxsize=64)
def scrubber_for(values: tuple[str, ...]) -> Scrubber:
    """The (memoised) :class:`Scrubber` of these key values."""
    return Scrubber(values)


def known_scrubber() -> Scrubber:
    """The :class:`Scrubber` of the known secret values (:func:`known_secrets`)."""
    return scrubber_for(known_secrets())


@functools.lru_cache(maxsize=64)
def _compiled(values: tuple[str, ...]) -> tuple[Scrubber, re.Pattern[str] | None]:
    """A scrubber of the long values and a whole-word pattern of the short ones."""
    long = tuple(v for v in values if len(v) >= MIN_SECRET)
    short = sorted({v for v in values if MIN_TOKEN <= len(v) < MIN_SECRET}, key=len, reverse=True)
    pattern = (
        re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, short)) + r")(?!\w)") if short else None
    )
    return scrubber_for(long), pattern


def _values(secrets: Iterable[str] | None) -> tuple[str, ...]:
    known = known_secrets()
    extra = (set(secrets) if secrets is not None else set()) | _short
    extra -= set(known)
    return tuple(sorted(extra | set(known))) if extra else known


def redact_known(text: str) -> str:
    """``text`` with only the known secret values (:func:`known_secrets`, in every form of
    :func:`secret_forms`) replaced by ``***``.

    For answers: a model's text may legitimately hold ``Authorization:`` or a URL with ``?key=``,
    which the header and URL patterns of :func:`redact_text` would corrupt; a key value never
    belongs there. Values under :data:`MIN_SECRET` characters are never looked for here."""
    return known_scrubber()(text)


def redact_known_json(encoded: str) -> str:
    """JSON text with the known secret values replaced by ``***`` wherever they stand (the
    forms include the escaped form JSON gives a value holding quotes, backslashes or
    non-ASCII)."""
    return known_scrubber()(encoded)


def redact_text(text: str, secrets: Iterable[str] | None = None) -> str:
    """``text`` with credentials replaced by ``***`` (module docstring); linear time."""
    return _text(text, _values(secrets))


def _text(text: str, values: tuple[str, ...]) -> str:
    scrub, short = _compiled(values)
    out = scrub(text)
    if short is not None:
        out = short.sub(REDACTED, out)
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


def _walk(obj: Any, values: tuple[str, ...]) -> Any:
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
