"""``forgebench redact RUN``: remove the configured keys' values from a run written before they
were redacted on the way in.

What is looked for: each known value (:func:`forgebench.util.redact.known_secrets`, plus the keys
the run's models name by ``api_key_env``) of at least 8 characters, in every form of
:func:`forgebench.util.redact.secret_forms` (the same list live redaction uses: exact, upper and
lower case, JSON/HTML-escaped, URL-encoded, base64); each is replaced by ``***``. A shorter key
is only named in a warning line: it would rewrite ordinary words of answers.

Where, by format (the formats forgebench writes into a run):

- ``run.sqlite``: every text cell of every table, through the same function; the store is then
  vacuumed and its write-ahead log truncated, so the old text does not survive in freed pages.
  A key inside a binary cell (a stored output image) is refused, not rewritten;
- zip files (Inspect ``.eval`` logs, VLMEvalKit ``.xlsx``): rewritten member by member through
  :mod:`zipfile` (each member decompressed, its text redacted, recompressed with the same name,
  order, method, date and attributes); a key inside a binary member is refused;
- Parquet (``export.parquet``): read with pyarrow, its string values (nested ones too), column
  names and metadata redacted, written back with the same schema and compression;
- text (JSON, JSONL, CSV, TSV, HTML, JS, SVG, Markdown, LaTeX, ...: anything valid UTF-8): redacted
  as text;
- any other file (PNG, ``.npy``, another SQLite file): its bytes are searched; a key there is
  refused, never rewritten byte by byte.

All or nothing: every file that changes is first written to a hidden temporary file beside it
and checked by reading it back with its own library (no form left, still readable); only when
every file passed are the store rewritten and the files renamed into place. A file that cannot
be read or rewritten, a symbolic link anywhere under the run (file or folder) and anything
that is not a regular file or folder are refused by name (:class:`RedactRefused`) before
anything changes: redaction never follows a link out of the run.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sqlite3
import stat
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forgebench.errors import UserError
from forgebench.run.rundir import DB_NAME
from forgebench.run.store import Store
from forgebench.util.atomic import clean_stale, temp_beside
from forgebench.util.redact import REDACTED, Scrubber, known_scrubber, known_secrets, register_env

_SKIP_SUFFIXES = ("", "-wal", "-shm", "-journal")
_STALE = re.compile(r"^\.(?P<name>.+)\.\d+\.\d+\.tmp$")
MAX_MEMBER = 1 << 30
"""The largest zip member (decompressed, as its header declares) rewritten in memory."""


class RedactRefused(UserError):
    """A run ``redact`` cannot clean safely: a link, a special file, a file it cannot read or
    rewrite, a key inside binary data. Nothing was changed."""


@dataclass
class Redacted:
    """What :func:`redact_run` changed."""

    keys: int
    """Known key values looked for."""
    cells: int
    """Store cells rewritten."""
    files: int
    """Files rewritten."""


def register_run_keys(store: Store) -> None:
    """Make the keys this run's models name (``api_key_env``) known to redaction."""
    rows = store.connection.execute("SELECT value FROM meta WHERE key LIKE 'model:%'")
    for (value,) in rows:
        try:
            config = json.loads(value).get("config") or {}
        except (ValueError, AttributeError):
            continue
        env = config.get("api_key_env") if isinstance(config, dict) else None
        register_env([env] if isinstance(env, str) else [])


def _refuse(path: Path, why: str) -> RedactRefused:
    return RedactRefused(f"{path}: {why}; nothing was redacted")


def run_files(run_dir: Path) -> list[Path]:
    """Every regular file under ``run_dir`` but the store and its lock, sorted; refuses a
    symbolic link (file or folder) or a special file anywhere under it, naming it. Temporary
    files left by a killed forgebench process are removed first."""
    files: list[Path] = []
    for root, dirs, names in os.walk(run_dir, followlinks=False):
        folder = Path(root)
        for name in sorted(dirs):
            if (folder / name).is_symlink():
                raise _refuse(folder / name, "a symbolic link inside the run (redact follows none)")
        for name in names:
            if (m := _STALE.match(name)) is not None:
                clean_stale(folder, m.group("name"))
        for name in sorted(names):
            path = folder / name
            try:
                mode = path.lstat().st_mode
            except FileNotFoundError:
                continue  # a stale temporary file removed above
            if stat.S_ISLNK(mode):
                raise _refuse(path, "a symbolic link inside the run (redact follows none)")
            if not stat.S_ISREG(mode):
                raise _refuse(path, "not a regular file")
            if folder == run_dir and (
                name in {DB_NAME + s for s in _SKIP_SUFFIXES} or name == ".lock"
            ):
                continue
            files.append(path)
    return sorted(files)


# -- the store --------------------------------------------------------------------------------


def _redact_store(con: sqlite3.Connection, scrub: Scrubber) -> int:
    """Redact every text cell of every table (the same :class:`Scrubber` as answers use)."""
    con.create_function("fb_found", 1, lambda v: int(scrub.found(v)), deterministic=True)
    con.create_function("fb_redact", 1, scrub, deterministic=True)
    con.create_function("fb_found_bytes", 1, lambda v: int(scrub.found_bytes(v)))
    changed = 0
    tables = [
        r[0]
        for r in con.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'"
        )
    ]
    for table in tables:
        for (col,) in con.execute(f'SELECT name FROM pragma_table_info("{table}")').fetchall():
            hit = con.execute(
                f'SELECT 1 FROM "{table}" WHERE typeof("{col}") = \'blob\' '
                f'AND fb_found_bytes("{col}") LIMIT 1'
            ).fetchone()
            if hit is not None:
                raise RedactRefused(
                    f"{DB_NAME}: table {table}, column {col} holds a key inside binary data, "
                    "which redact cannot rewrite; nothing was redacted"
                )
    con.execute("PRAGMA secure_delete=ON")
    with con:
        for table in tables:
            cols = [r[1] for r in con.execute(f'PRAGMA table_info("{table}")')]
            for col in cols:
                cur = con.execute(
                    f'UPDATE "{table}" SET "{col}" = fb_redact("{col}") '
                    f'WHERE typeof("{col}") = \'text\' AND fb_found("{col}")'
                )
                changed += max(cur.rowcount, 0)
    if changed:
        con.execute("VACUUM")
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return changed


# -- files ------------------------------------------------------------------------------------


def _text_or_none(data: bytes) -> str | None:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _member_data(path: Path, name: str, data: bytes, scrub: Scrubber) -> bytes:
    """A zip member's bytes redacted (text) or checked (binary)."""
    text = _text_or_none(data)
    if text is None:
        if scrub.found_bytes(data):
            raise _refuse(path, f"member {name} holds a key inside binary data")
        return data
    return scrub(text).encode("utf-8") if scrub.found(text) else data


def _zip_members(zin: zipfile.ZipFile, path: Path) -> Iterator[tuple[zipfile.ZipInfo, bytes]]:
    for info in zin.infolist():
        if info.file_size > MAX_MEMBER:
            raise _refuse(path, f"member {info.filename} is over {MAX_MEMBER >> 20} MiB")
        yield info, zin.read(info)


_ZIP_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, RuntimeError, NotImplementedError,
               EOFError, zlib.error, ValueError)  # fmt: skip


def _zip(path: Path, scrub: Scrubber, tmp: Path) -> bool:
    """Rewrite a zip file (``.eval``, ``.xlsx``) member by member into ``tmp``; False when no
    member holds a key (``tmp`` not written)."""
    try:
        with zipfile.ZipFile(path) as zin:
            dirty = False
            for info, data in _zip_members(zin, path):
                if _member_data(path, info.filename, data, scrub) is not data:
                    dirty = True
            if not dirty:
                return False
            with zipfile.ZipFile(tmp, "w", allowZip64=True) as zout:
                zout.comment = zin.comment
                for info, data in _zip_members(zin, path):
                    out = zipfile.ZipInfo(info.filename, info.date_time)
                    out.compress_type = info.compress_type
                    out.external_attr = info.external_attr
                    out.create_system = info.create_system
                    out.comment = info.comment
                    zout.writestr(out, _member_data(path, info.filename, data, scrub))
    except _ZIP_ERRORS as exc:
        raise _refuse(path, f"not a zip file redact can read and rewrite ({exc})") from None
    # read back: every member readable (CRCs checked) and clean, the same names in order
    try:
        with zipfile.ZipFile(path) as zin, zipfile.ZipFile(tmp) as back:
            if back.namelist() != zin.namelist():
                raise _refuse(path, "rewritten zip lost members")
            for info in back.infolist():
                data = back.read(info)
                text = _text_or_none(data)
                if scrub.found_bytes(data) or (text is not None and scrub.found(text)):
                    raise _refuse(path, f"member {info.filename} still holds a key rewritten")
    except _ZIP_ERRORS as exc:
        raise _refuse(path, f"rewritten zip unreadable ({exc})") from None
    return True


def _walk_values(value: Any, scrub: Scrubber, path: Path) -> Any:
    if isinstance(value, str):
        return scrub(value) if scrub.found(value) else value
    if isinstance(value, bytes):
        text = _text_or_none(value)
        if text is not None:
            return scrub(text).encode("utf-8") if scrub.found(text) else value
        if scrub.found_bytes(value):
            raise _refuse(path, "a binary Parquet value holds a key")
        return value
    if isinstance(value, list):
        return [_walk_values(v, scrub, path) for v in value]
    if isinstance(value, tuple):  # a map's (key, value) pairs
        return tuple(_walk_values(v, scrub, path) for v in value)
    if isinstance(value, dict):
        return {k: _walk_values(v, scrub, path) for k, v in value.items()}
    return value


def _arrow_column(col: Any, scrub: Scrubber, path: Path) -> Any:
    """A pyarrow column with every string redacted (the column itself when nothing changes)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    kind = col.type
    if pa.types.is_string(kind) or pa.types.is_large_string(kind):
        out = col
        for form in scrub.forms:
            if pc.any(pc.match_substring(out, form)).as_py():
                out = pc.replace_substring(out, form, REDACTED)
        return out
    if pa.types.is_primitive(kind) or pa.types.is_null(kind):
        return col  # numbers, booleans, dates: no text
    values = col.to_pylist()
    new = _walk_values(values, scrub, path)
    return col if new == values else pa.chunked_array([pa.array(new, type=kind)], type=kind)


def _parquet_read(path: Path) -> tuple[Any, str]:
    import pyarrow.parquet as pq

    with pq.ParquetFile(path) as pf:
        md = pf.metadata
        codec = (
            md.row_group(0).column(0).compression if md.num_row_groups and md.num_columns else ""
        )
        table = pf.read()
    return table, str(codec).lower()


def _parquet_found(table: Any, scrub: Scrubber, path: Path) -> bool:
    if any(scrub.found(n) for n in table.column_names):
        return True
    meta = table.schema.metadata or {}
    if any(scrub.found_bytes(k) or scrub.found_bytes(v) for k, v in meta.items()):
        return True
    return any(_arrow_column(col, scrub, path) is not col for col in table.columns)


def _parquet(path: Path, scrub: Scrubber, tmp: Path) -> bool:
    """Rewrite a Parquet file through pyarrow into ``tmp``; False when it holds no key."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        table, codec = _parquet_read(path)
        originals = table.columns
        columns = [_arrow_column(col, scrub, path) for col in originals]
        names = [scrub(n) for n in table.column_names]
        meta = table.schema.metadata
        if meta is not None:
            meta = {k: scrub(v.decode("utf-8")).encode("utf-8") for k, v in meta.items()}
        dirty = (
            names != table.column_names
            or meta != table.schema.metadata
            or any(new is not old for new, old in zip(columns, originals, strict=True))
        )
        if not dirty:
            return False
        fields = [f.with_name(n) for f, n in zip(table.schema, names, strict=True)]
        new = pa.Table.from_arrays(columns, schema=pa.schema(fields, metadata=meta))
        known = {"snappy", "gzip", "brotli", "zstd", "lz4", "none", "uncompressed"}
        pq.write_table(new, tmp, compression=codec if codec in known else "snappy")
        back, _ = _parquet_read(tmp)
    except (pa.ArrowException, OSError, ValueError, TypeError, UnicodeDecodeError) as exc:
        raise _refuse(path, f"not a Parquet file redact can read and rewrite ({exc})") from None
    if back.num_rows != table.num_rows or _parquet_found(back, scrub, path):
        raise _refuse(path, "the rewritten Parquet file still holds a key")
    return True


def _stage(path: Path, scrub: Scrubber) -> Path | None:
    """Write ``path`` redacted to a temporary file beside it (checked); None when it holds no
    key. Raises :class:`RedactRefused` naming it when it cannot be read or rewritten safely."""
    try:
        with path.open("rb") as fh:
            head = fh.read(16)
    except OSError as exc:
        raise _refuse(path, f"cannot read it ({exc.strerror or exc})") from None
    tmp = temp_beside(path)
    try:
        if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
            return tmp if _zip(path, scrub, tmp) else None
        if head.startswith(b"PAR1"):
            return tmp if _parquet(path, scrub, tmp) else None
        data = path.read_bytes()
        text = _text_or_none(data)
        if text is None:
            if scrub.found_bytes(data):
                raise _refuse(path, "holds a key inside binary data redact cannot rewrite")
            return None
        if not scrub.found(text):
            return None
        new = scrub(text)
        tmp.write_bytes(new.encode("utf-8"))
        return tmp
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def _discard(staged: list[tuple[Path, Path]]) -> None:
    for _, tmp in staged:
        with contextlib.suppress(OSError):
            tmp.unlink()


def redact_run(run_dir: Path) -> Redacted:
    """Replace the known key values in ``run_dir``'s store and files (module docstring)."""
    run_dir = Path(run_dir)
    files = run_files(run_dir)
    with Store.open(run_dir, create=False) as store:
        register_run_keys(store)
        scrub = known_scrubber()
        if not scrub.forms:
            return Redacted(keys=0, cells=0, files=0)
        staged: list[tuple[Path, Path]] = []
        try:
            for path in files:
                tmp = _stage(path, scrub)
                if tmp is not None:
                    staged.append((path, tmp))
            cells = _redact_store(store.connection, scrub)
        except BaseException:
            _discard(staged)
            raise
    for path, tmp in staged:
        with tmp.open("rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    return Redacted(keys=len(known_secrets()), cells=cells, files=len(staged))
