"""``forgebench import hf://OWNER/NAME[@REVISION] --out DATASET``: a dataset that ``export-dataset
--format hf`` wrote, published on the Hugging Face Hub, fetched with
``huggingface_hub.snapshot_download`` (the ``datasets`` extra) and imported as a local export
folder is (:mod:`.hf_import`).

Everything about the Hub is the library's own: its cache (``HF_HUB_CACHE``, else
``HF_HOME/hub``, else ``~/.cache/huggingface/hub``; a snapshot already there is not fetched again),
``HF_HUB_OFFLINE=1`` (only the cache is read; a dataset not in it is one line, exit 2, nothing
written) and the token (``HF_TOKEN`` or the one ``hf auth login`` stored), which forgebench never
reads, passes, prints or stores: the library sends it, and every message shown is redacted
(:func:`forgebench.util.redact.redact_text`). ``@REVISION`` is a branch, a tag or a commit hash
(default ``main``), resolved as the library resolves it (offline: through the cache's
``refs/``).

Only what the import reads is fetched: ``forgebench.json``, the dataset card, the ``data/test-*``
parquet shards and ``files/``. In the cache a snapshot's files are links into the repository's
``blobs/`` folder (the cache layout of ``huggingface_hub``, documented in its "Understand caching"
guide), so the side files of ``files/`` may resolve there and nowhere else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from forgebench.errors import UserError
from forgebench.interop.extras import need
from forgebench.interop.hf_export import META_FILE
from forgebench.util.redact import redact_text

PREFIX = "hf://"
EXTRA = "datasets"
"""The extra that brings ``huggingface_hub`` (with ``datasets``, which the export needs too)."""
FETCHED = (META_FILE, "README.md", "data/test-*.parquet", "files/*")
"""What ``snapshot_download`` fetches (``allow_patterns``; ``*`` spans folders)."""

_PART = r"[A-Za-z0-9](?:[A-Za-z0-9._-]{0,94}[A-Za-z0-9])?"
_ID = re.compile(rf"({_PART})/({_PART})(?:@([A-Za-z0-9][A-Za-z0-9._/-]{{0,254}}))?")
"""The Hub's repository names (letters, digits, ``-``, ``_``, ``.``; at most 96 characters, no
``--`` or ``..``, neither first nor last ``-`` or ``.``) and a revision: a branch, tag or commit."""


class HubError(UserError):
    """A Hub dataset id that is malformed, or a dataset that cannot be fetched (one line)."""


@dataclass(frozen=True)
class HubRef:
    """A dataset on the Hub: ``hf://OWNER/NAME[@REVISION]``."""

    owner: str
    name: str
    revision: str | None = None

    @property
    def repo_id(self) -> str:
        """``OWNER/NAME``, the Hub's repository id."""
        return f"{self.owner}/{self.name}"

    def __str__(self) -> str:
        return f"{PREFIX}{self.repo_id}" + (f"@{self.revision}" if self.revision else "")


def is_hub_id(src: object) -> bool:
    """Whether ``src`` is written as a Hub dataset (a string starting with ``hf://``)."""
    return isinstance(src, str) and src.startswith(PREFIX)


def parse_ref(text: str) -> HubRef:
    """``hf://OWNER/NAME[@REVISION]`` as a :class:`HubRef`; :class:`HubError` (one line)
    for anything else."""
    m = _ID.fullmatch(text[len(PREFIX) :]) if is_hub_id(text) else None
    bad = m is None or any(
        "--" in part or ".." in part for part in (m.group(1), m.group(2), m.group(3) or "")
    )
    if m is None or bad or (m.group(3) or "").endswith("/"):
        shown = text if len(text) <= 80 and text.isprintable() else repr(text[:80])
        raise HubError(
            f"{shown}: not a Hub dataset id (hf://OWNER/NAME or hf://OWNER/NAME@REVISION, "
            "a branch, tag or commit)"
        )
    return HubRef(m.group(1), m.group(2), m.group(3))


@dataclass(frozen=True)
class HubSnapshot:
    """A dataset's files at one commit, in the Hub cache."""

    path: Path
    commit: str
    blobs: Path | None
    """The repository's ``blobs/`` folder that the snapshot's links point into (None when the
    snapshot is not in the cache layout)."""


def snapshot(ref: HubRef) -> HubSnapshot:
    """The files of ``ref`` (see the module docstring); :class:`HubError` with one line when
    they cannot be had, and a :class:`~forgebench.interop.extras.MissingExtra` naming the extra
    without ``huggingface_hub``."""
    hub = need("huggingface_hub", EXTRA, f"import {PREFIX}OWNER/NAME")
    try:
        path = Path(
            hub.snapshot_download(
                ref.repo_id,
                repo_type="dataset",
                revision=ref.revision,
                allow_patterns=list(FETCHED),
            )
        )
    except Exception as exc:  # the library's errors, by name (they moved between versions)
        raise HubError(_why(hub, ref, exc)) from None
    cached = path.parent.name == "snapshots"
    return HubSnapshot(path, path.name, path.parent.parent / "blobs" if cached else None)


def _why(hub: object, ref: HubRef, exc: Exception) -> str:
    """One redacted line for a failed ``snapshot_download``; a bug (not a Hub, cache, network
    or disk error) is re-raised."""
    names = {k.__name__ for k in type(exc).__mro__}
    constants = getattr(hub, "constants", None)
    offline = bool(getattr(constants, "HF_HUB_OFFLINE", False))
    cache = getattr(constants, "HF_HUB_CACHE", "the Hugging Face cache")
    revision = ref.revision or "main"
    if "GatedRepoError" in names:
        why = "a gated dataset: accept its conditions on the Hub and set HF_TOKEN"
    elif "RepositoryNotFoundError" in names:
        why = "no such dataset on the Hub (a private one needs HF_TOKEN)"
    elif "RevisionNotFoundError" in names:
        why = f"the Hub has no revision {revision!r} of {ref.repo_id}"
    elif "IncompleteSnapshotError" in names:
        why = f"its snapshot in {cache} is incomplete and the Hub cannot be reached"
    elif "LocalEntryNotFoundError" in names:
        reach = "HF_HUB_OFFLINE is set" if offline else "the Hub cannot be reached"
        why = f"revision {revision!r} is not in the Hugging Face cache ({cache}) and {reach}"
    elif "HfHubHTTPError" in names or isinstance(exc, OSError | ValueError):
        first = next((ln.strip() for ln in str(exc).splitlines() if ln.strip()), "")
        why = f"cannot be fetched ({first or type(exc).__name__})"
    else:
        raise exc
    return redact_text(f"{ref}: {why}")
