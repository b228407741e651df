"""`export-dataset --format hf` and `import`: a datasets-loadable folder that comes back exact."""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import struct
import subprocess
import sys
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from forgebench.cli import app
from forgebench.interop.layout import DatasetLayout
from forgebench.suites import get
from forgebench.suites.base import Dataset, Selection
from support.pixar_loc import BOXES, box_pairs


@pytest.fixture(scope="module")
def demo(
    demo_dataset: Path, demo_forensics: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("demo")
    mandela = demo_dataset  # read only; the session's one build (tests/conftest.py)
    forensics = demo_forensics  # read only too: the demo's Forensics set, built once
    pairs = root / "pairs"
    box_pairs(pairs)  # the demo's PIXAR part reads pairs from the Mandela folder; a pairs folder
    return {"mandela": mandela, "forensics": forensics, "pixar": pairs}


def _layout(benchmark: str) -> DatasetLayout:
    facet = get(benchmark).facet(Dataset)
    layout = facet.layout() if facet is not None else None
    assert layout is not None
    return layout


def _loaded(benchmark: str, folder: Path) -> list[dict[str, Any]]:
    """The items as the suite reads them (a null field and an absent one are the same)."""
    layout = _layout(benchmark)
    if layout.items_file is not None:
        return _items(folder / layout.items_file)
    items = get(benchmark).load(folder, Selection()).items
    return [{k: v for k, v in dict(it).items() if v is not None} for it in items]


def _items(path: Path) -> list[dict[str, Any]]:
    """Items as the contract reads them (a null field and an absent one are the same)."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        out.append({k: v for k, v in json.loads(line).items() if v is not None})
    return out


def _invoke(*args: str) -> Any:
    return CliRunner().invoke(app, [*args])


def _export(dataset: Path, out: Path) -> None:
    res = _invoke("export-dataset", str(dataset), "--format", "hf", "--out", str(out))
    assert res.exit_code == 0, res.output


@pytest.mark.parametrize("benchmark", ["mandela", "forensics", "pixar"])
def test_round_trip_is_exact_and_datasets_loads_it(
    benchmark: str, demo: dict[str, Path], tmp_path: Path
) -> None:
    import datasets

    src = demo[benchmark]
    hf = tmp_path / "hf"
    _export(src, hf)
    card = (hf / "README.md").read_text(encoding="utf-8")
    assert "## Contract" in card and "dataset_sha256" in card and "forgebench_version" in card
    ds = datasets.load_dataset(
        "parquet", data_dir=str(hf / "data"), cache_dir=str(tmp_path / "cache"), split="test"
    )
    items = _loaded(benchmark, src)
    assert ds.num_rows == len(items) and ds["id"] == [it["id"] for it in items]
    layout = _layout(benchmark)
    for name, column in layout.images.items():
        feature = ds.features[name]
        inner = feature.feature if column.many else feature
        assert isinstance(inner, datasets.Image)
    assert all(isinstance(x, str) for x in ds["license"])
    # the image bytes are the files' bytes (decode=False)
    raw = ds.cast_column(
        next(iter(layout.images)),
        datasets.List(datasets.Image(decode=False))
        if next(iter(layout.images.values())).many
        else datasets.Image(decode=False),
    )
    first = next(iter(layout.images))
    for row, item in zip(raw, items, strict=True):
        cells = row[first] if isinstance(row[first], list) else [row[first]]
        for cell, rel in zip(cells, next(iter(layout.images.values())).paths(item), strict=True):
            assert cell["path"] == rel and cell["bytes"] == (src / rel).read_bytes()
    # and back: the same items, the same bytes, the same side files; the folder validates
    back = tmp_path / "back"
    res = _invoke("import", str(hf), "--out", str(back))
    assert res.exit_code == 0, res.output
    assert _loaded(benchmark, back) == items
    for item in items:
        for column in layout.images.values():
            for rel in [] if column.derived else column.paths(item):
                assert (back / rel).read_bytes() == (src / rel).read_bytes()
    if benchmark == "pixar":  # the truth mask: the planted box, at tau
        mask = np.asarray(ds[0]["mask"])
        x0, y0, x1, y1 = BOXES[ds[0]["id"]]
        assert mask[y0:y1, x0:x1].min() == 255 and mask.sum() == 255 * (x1 - x0) * (y1 - y0)
        assert not (back / "labels").exists()  # derived, not written back
    for rel in layout.files:
        if (src / rel).is_file():
            assert (back / rel).read_bytes() == (src / rel).read_bytes()
    facet = get(benchmark).facet(Dataset)
    assert facet is not None and facet.validate(back).errors == []


def test_release_tsv_format_and_unknown_format(demo: dict[str, Path], tmp_path: Path) -> None:
    res = _invoke("export-dataset", str(demo["forensics"]), "--format", "release-tsv",
                  "--out", str(tmp_path / "tsv"))  # fmt: skip
    assert res.exit_code == 0, res.output
    head = (tmp_path / "tsv" / "ForensicsBench.tsv").read_text().splitlines()[0].split("\t")
    assert head[:3] == ["index", "image", "question"]
    res = _invoke("export-dataset", str(demo["mandela"]), "--format", "release-tsv",
                  "--out", str(tmp_path / "x"))  # fmt: skip
    assert res.exit_code == 2 and "known: hf" in res.output


def test_existing_output_is_refused_and_missing_extra_named(
    demo: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "hf"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    res = _invoke("export-dataset", str(demo["mandela"]), "--format", "hf", "--out", str(out))
    assert res.exit_code == 2 and "not empty" in res.output
    assert [p.name for p in out.iterdir()] == ["keep.txt"]
    monkeypatch.setitem(sys.modules, "datasets", None)
    res = _invoke("export-dataset", str(demo["mandela"]), "--format", "hf", "--out",
                  str(tmp_path / "new"))  # fmt: skip
    assert res.exit_code == 2 and "pip install 'forgebench[datasets]'" in res.output
    assert not (tmp_path / "new").exists()


# -- hostile folders: the import refuses, writes nothing ------------------------------------------


def _png_header(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims ``width`` x ``height`` (a decompression bomb's shape)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
            + chunk(b"IDAT", zlib.compress(b"\0" * 16)) + chunk(b"IEND", b""))  # fmt: skip


def _rewrite(hf: Path, change: Any) -> None:
    """Apply ``change(rows)`` to the first shard of an export."""
    shard = sorted((hf / "data").glob("*.parquet"))[0]
    table = pq.read_table(shard)
    rows = table.to_pylist()
    change(rows)
    import pyarrow as pa

    pq.write_table(pa.Table.from_pylist(rows, schema=table.schema), shard)


def _hostile(demo: dict[str, Path], tmp_path: Path) -> Iterator[tuple[str, Any, str]]:
    def escape(rows: list[dict[str, Any]]) -> None:
        rows[0]["image"]["path"] = "../../escaped.png"

    def absolute(rows: list[dict[str, Any]]) -> None:
        rows[0]["image"]["path"] = "/tmp/absolute.png"

    def large(rows: list[dict[str, Any]]) -> None:
        rows[0]["image"]["bytes"] = _png_header(10000, 10000)

    def bomb(rows: list[dict[str, Any]]) -> None:
        rows[0]["image"]["bytes"] = _png_header(60000, 60000)

    def not_image(rows: list[dict[str, Any]]) -> None:
        rows[0]["image"]["bytes"] = b"<html>not an image</html>"

    def other_face(rows: list[dict[str, Any]]) -> None:
        row = next(r for r in rows if r["face_original"])
        row["face_original"]["path"] = "images/elsewhere.png"

    def twice(rows: list[dict[str, Any]]) -> None:
        row = next(r for r in rows if r["face_original"])
        buf = io.BytesIO()
        from PIL import Image

        Image.new("RGB", (4, 4)).save(buf, "PNG")
        row["face_original"]["bytes"] = buf.getvalue()

    def bad_json(rows: list[dict[str, Any]]) -> None:
        rows[0]["event"] = "{not json"

    yield "escape", escape, "leaves the dataset folder"
    yield "absolute", absolute, "must be a path relative"
    yield "large", large, "safe to decode"
    yield "bomb", bomb, "refused to decode"
    yield "not_image", not_image, "not a recognised image"
    yield "other_face", other_face, "are not the item's"
    yield "twice", twice, "given twice, differing"
    yield "bad_json", bad_json, "event: not JSON text"


def test_hostile_exports_are_refused_whole(demo: dict[str, Path], tmp_path: Path) -> None:
    clean = tmp_path / "hf"
    _export(demo["mandela"], clean)
    for name, change, message in _hostile(demo, tmp_path):
        hf = tmp_path / f"hf-{name}"
        shutil.copytree(clean, hf)
        _rewrite(hf, change)
        out = tmp_path / f"back-{name}"
        res = _invoke("import", str(hf), "--out", str(out))
        assert res.exit_code == 2, (name, res.output)
        assert message in res.output and "Traceback" not in res.output, (name, res.output)
        assert not out.exists(), name
        assert not (tmp_path / "escaped.png").exists()
        assert not list(tmp_path.glob(f".back-{name}*")), name


def test_side_file_leaving_the_export_is_refused(demo: dict[str, Path], tmp_path: Path) -> None:
    hf = tmp_path / "hf"
    _export(demo["mandela"], hf)
    meta = json.loads((hf / "forgebench.json").read_text())
    meta["files"] = ["../../../etc/passwd"]
    (hf / "forgebench.json").write_text(json.dumps(meta))
    res = _invoke("import", str(hf), "--out", str(tmp_path / "back"))
    assert res.exit_code == 2 and "leaves the dataset folder" in res.output
    assert not (tmp_path / "back").exists()


def test_interrupted_export_leaves_nothing(demo: dict[str, Path], tmp_path: Path) -> None:
    """An item whose image cannot be read stops the export after earlier rows were converted:
    no OUT, no hidden temporary folder."""
    src = tmp_path / "ds"
    shutil.copytree(demo["mandela"], src)
    last = _items(src / "items.jsonl")[-1]
    (src / last["image"]).unlink()
    out = tmp_path / "hf"
    res = _invoke("export-dataset", str(src), "--format", "hf", "--out", str(out))
    assert res.exit_code == 2 and last["image"] in res.output, res.output
    assert not out.exists() and [p.name for p in tmp_path.iterdir()] == ["ds"]


# -- hf://OWNER/NAME[@REVISION]: a pre-filled Hub cache, the Hub offline ------------------------

TOKEN = "hf_forgebenchTESTtoken0123456789"
"""An ``HF_TOKEN`` that must never be written or shown."""


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Two exports of a tiny Mandela dataset (1 seed, then 2, each with a kb.jsonl) as two
    commits of ``owner/tiny`` in a Hub cache: ``main`` is the second, tag ``v1`` the first."""
    import huggingface_hub

    from support.hub_cache import fill_hub_cache
    from support.mandela_data import write_mandela_dataset

    root = tmp_path_factory.mktemp("hub")
    home = root / "hf-home"
    commits = {}
    for name, seeds, refs in (("v1", 1, ["v1"]), ("v2", 2, ["main"])):
        ds = write_mandela_dataset(root / name, seeds=seeds)
        (ds / "kb.jsonl").write_text(json.dumps({"id": "Q1", "name": f"Apollo {name}"}) + "\n")
        _export(ds, root / f"hf-{name}")
        commits[name] = hashlib.sha1(name.encode()).hexdigest()
        fill_hub_cache(home / "hub", "owner/tiny", root / f"hf-{name}", commits[name], refs)
    scanned = huggingface_hub.scan_cache_dir(home / "hub")  # the library reads it as its own
    assert scanned.warnings == []
    (repo,) = scanned.repos
    assert (repo.repo_id, repo.repo_type) == ("owner/tiny", "dataset")
    assert {r.commit_hash: set(r.refs) for r in repo.revisions} == {
        commits["v1"]: {"v1"},
        commits["v2"]: {"main"},
    }
    return {"root": root, "home": home, "commits": commits}


def _hub_env(hub: dict[str, Any], **env: str) -> dict[str, str]:
    """The environment of a process that reads only the pre-filled cache."""
    out = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("HF_", "HUGGINGFACE_", "TRANSFORMERS_"))
    }
    home = str(hub["root"] / "home")  # HF_HOME: never the user's, whatever the test sets
    return {**out, "HF_HOME": home, "HF_HUB_OFFLINE": "1", "HF_TOKEN": TOKEN, **env}


def _same_dataset(back: Path, src: Path) -> None:
    assert _items(back / "items.jsonl") == _items(src / "items.jsonl")
    for item in _items(src / "items.jsonl"):
        assert (back / item["image"]).read_bytes() == (src / item["image"]).read_bytes()
    assert (back / "kb.jsonl").read_bytes() == (src / "kb.jsonl").read_bytes()
    facet = get("mandela").facet(Dataset)
    assert facet is not None and facet.validate(back).errors == []
    for f in back.rglob("*"):
        assert not f.is_file() or TOKEN.encode() not in f.read_bytes(), f


def test_hub_dataset_imports_from_the_cache_offline(hub: dict[str, Any], tmp_path: Path) -> None:
    """``forgebench import hf://owner/tiny`` in a process of its own (HF_HOME: the cache, the
    Hub offline, a token set): main's commit, the same items, bytes and side files as the
    dataset exported; the token nowhere."""
    back = tmp_path / "back"
    res = subprocess.run(
        [sys.executable, "-m", "forgebench.cli", "import", "hf://owner/tiny", "--out", str(back)],
        env=_hub_env(hub, HF_HOME=str(hub["home"])),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 0, res.stderr
    assert f"imported 4 mandela items from hf://owner/tiny (commit {hub['commits']['v2']})" in (
        res.stdout
    )
    assert TOKEN not in res.stdout + res.stderr
    _same_dataset(back, hub["root"] / "v2")


_REVISIONS = """
import json, sys
from typer.testing import CliRunner
from forgebench import api
from forgebench.cli import app
from forgebench.errors import UserError
out, commit = sys.argv[1], sys.argv[2]
said = {}
for name, ref in (("tag", "hf://owner/tiny@v1"), ("commit", "hf://owner/tiny@" + commit),
                  ("missing", "hf://owner/absent"), ("branch", "hf://owner/tiny@nope")):
    res = CliRunner().invoke(app, ["import", ref, "--out", out + "/" + name])
    said[name] = [res.exit_code, res.output]
try:
    api.import_("hf://owner/tiny@v1", out + "/api")
    api.import_("hf://owner/absent", out + "/api-missing")
except UserError as exc:
    said["api"] = str(exc)
print(json.dumps(said))
"""


def test_hub_revisions_and_a_dataset_not_in_the_cache(hub: dict[str, Any], tmp_path: Path) -> None:
    """``@REVISION`` picks a tag's or a commit's snapshot; a dataset or a revision the cache
    lacks while offline is one line, exit 2, nothing written (CLI and ``api.import_``, in one
    process whose HF_HUB_CACHE is the cache)."""
    res = subprocess.run(
        [sys.executable, "-c", _REVISIONS, str(tmp_path), hub["commits"]["v2"]],
        env=_hub_env(hub, HF_HUB_CACHE=str(hub["home"] / "hub")),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 0, res.stderr
    said = json.loads(res.stdout.splitlines()[-1])
    assert said["tag"][0] == 0 and "imported 2 mandela items" in said["tag"][1]
    _same_dataset(tmp_path / "tag", hub["root"] / "v1")
    assert said["commit"][0] == 0 and "imported 4 mandela items" in said["commit"][1]
    _same_dataset(tmp_path / "commit", hub["root"] / "v2")
    _same_dataset(tmp_path / "api", hub["root"] / "v1")
    for name, what in (("missing", "hf://owner/absent"), ("branch", "hf://owner/tiny@nope")):
        code, output = said[name]
        assert code == 2 and output.count("\n") == 1, output
        assert output.startswith(f"error: {what}: revision ") and "HF_HUB_OFFLINE is set" in output
        assert not (tmp_path / name).exists()
    assert said["api"].startswith("hf://owner/absent: revision 'main' is not in the Hugging Face")
    assert not (tmp_path / "api-missing").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    assert TOKEN not in res.stdout + res.stderr


@pytest.mark.parametrize(
    "ref",
    ["hf://", "hf://owner", "hf://owner/", "hf://owner/name/more", "hf://own er/name",
     "hf://owner/name@", "hf://owner/na--me", "hf://-owner/name", "hf://owner/name@../main",
     "hf://owner/name@a b", "hf://owner/name\n@main"],
)  # fmt: skip
def test_malformed_hub_ids_are_one_line(ref: str, tmp_path: Path) -> None:
    res = _invoke("import", ref, "--out", str(tmp_path / "out"))
    assert res.exit_code == 2 and res.output.count("\n") == 1, res.output
    assert "not a Hub dataset id (hf://OWNER/NAME or hf://OWNER/NAME@REVISION" in res.output
    assert not (tmp_path / "out").exists()


def test_hub_import_without_huggingface_hub_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "huggingface_hub", None)
    res = _invoke("import", "hf://owner/tiny@v1", "--out", str(tmp_path / "out"))
    assert res.exit_code == 2 and res.output.count("\n") == 1, res.output
    assert "import hf://OWNER/NAME needs the 'datasets' extra" in res.output
    assert "pip install 'forgebench[datasets]'" in res.output
    assert not (tmp_path / "out").exists()


def test_hub_token_is_the_librarys_and_a_refusal_is_one_line(
    hub: dict[str, Any], tmp_path: Path
) -> None:
    """Online, against a loopback Hub (HF_ENDPOINT) that answers 401 ``RepoNotFound``: the
    library sends HF_TOKEN as its bearer token; forgebench prints one line without it, exits 2
    and writes nothing."""
    import http.server
    import threading

    seen: list[tuple[str, str | None]] = []

    class Hub(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append((self.path, self.headers.get("Authorization")))
            body = b'{"error": "Repository Not Found"}'
            self.send_response(401)
            self.send_header("X-Error-Code", "RepoNotFound")
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_HEAD = do_GET

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hub)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    env = _hub_env(hub, HF_HUB_CACHE=str(hub["home"] / "hub"))
    del env["HF_HUB_OFFLINE"]
    env["HF_ENDPOINT"] = f"http://127.0.0.1:{server.server_port}"
    try:
        res = subprocess.run(
            [sys.executable, "-m", "forgebench.cli", "import", "hf://owner/private",
             "--out", str(tmp_path / "out")],
            env=env, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
    finally:
        server.shutdown()
        server.server_close()
    assert any(
        path.startswith("/api/datasets/owner/private") and auth == f"Bearer {TOKEN}"
        for path, auth in seen
    ), seen
    assert res.returncode == 2 and res.stdout == "", res.stdout
    assert res.stderr == (
        "error: hf://owner/private: no such dataset on the Hub (a private one needs HF_TOKEN)\n"
    )
    assert not (tmp_path / "out").exists()


def test_hub_side_files_resolve_into_blobs_only(hub: dict[str, Any], tmp_path: Path) -> None:
    """A snapshot's side file is a link into its repository's ``blobs/``: accepted there; one
    that resolves anywhere else is refused whole, as in any export folder."""
    from forgebench.interop.hf_import import HFImportError, import_hf

    layout = _layout("mandela")
    repo = hub["home"] / "hub" / "datasets--owner--tiny"
    snap = repo / "snapshots" / hub["commits"]["v1"]
    n = import_hf(snap, tmp_path / "ok", layout, links_into=repo / "blobs")
    assert (
        n == 2
        and (tmp_path / "ok" / "kb.jsonl").read_bytes()
        == (hub["root"] / "v1" / "kb.jsonl").read_bytes()
    )
    bad = tmp_path / "snap"
    shutil.copytree(snap, bad)  # the files themselves: links resolved
    outside = tmp_path / "elsewhere.jsonl"
    outside.write_text((bad / "files" / "kb.jsonl").read_text())
    (bad / "files" / "kb.jsonl").unlink()
    (bad / "files" / "kb.jsonl").symlink_to(outside)
    with pytest.raises(
        HFImportError, match=r"kb\.jsonl. resolves to .*, outside the dataset folder"
    ):
        import_hf(bad, tmp_path / "no", layout, links_into=repo / "blobs")
    assert not (tmp_path / "no").exists()
