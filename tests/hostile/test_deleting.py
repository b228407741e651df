"""forgebench deletes only what it can prove it wrote: ``--force`` replaces only a folder of its
own (never the current folder, a parent of a source, or a folder of the user's files),
``cache clean`` removes only the cache's own entries, and every writer of temporary files and
folders removes the ones a killed process left (and only those)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from forgebench.run.images import VariantCache
from forgebench.run.store import Store
from forgebench.util import owned
from forgebench.util.atomic import temp_name, write_text
from support import hand_run
from support.mandela_data import write_mandela_dataset

from .conftest import FB, cli, error_lines, write_tsv

TSV_ROW = ["0", "x", "Is it forged?", "yes", "no", "A", "Forgery Detection / BC"]


def _tree(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` (links not followed) and its bytes."""
    out = {}
    for p in sorted(root.rglob("*")):
        if p.is_file() and not p.is_symlink():
            out[str(p.relative_to(root))] = p.read_bytes()
    return out


@pytest.fixture
def dead_pid() -> int:
    """The PID of a process that has exited (reaped)."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


@pytest.fixture
def live_pid() -> Iterator[int]:
    """The PID of another process that runs while the test does."""
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    yield proc.pid
    proc.kill()
    proc.wait()


# --- --force -----------------------------------------------------------------------------------


def test_force_on_the_current_folder_deletes_nothing(tmp_path: Path) -> None:
    work = tmp_path / "work"
    (work / "sub").mkdir(parents=True)
    (work / "notes.txt").write_text("my notes")
    (work / ".git").mkdir()
    (work / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    write_tsv(work / "sub" / "t.tsv", [TSV_ROW])
    before = _tree(work)
    done = subprocess.run(
        [*FB.split(), "import", "sub/t.tsv", "--out", ".", "--force"],
        cwd=work, capture_output=True, text=True, timeout=120,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert error_lines(done.stderr) == [
        "error: .: is the current folder; forgebench never replaces it (give a new folder)"
    ]
    assert _tree(work) == before


def test_force_never_replaces_a_parent_of_a_source(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    tsv = write_tsv(data / "t.tsv", [TSV_ROW])
    before = _tree(tmp_path)
    res = cli("import", str(tsv), "--out", str(data), "--force")
    assert res.exit_code == 2
    assert error_lines(res.stderr) == [
        f"error: {data}: holds {tsv}, which this command reads; --force would delete it "
        "(choose another folder)"
    ]
    res = cli("import", str(tsv), "--out", str(tmp_path), "--force")  # a parent of a parent
    assert res.exit_code == 2 and "which this command reads" in res.stderr
    assert _tree(tmp_path) == before


def test_force_refuses_a_legacy_folder_holding_other_files(tmp_path: Path) -> None:
    ds = write_mandela_dataset(tmp_path / "src", seeds=1)
    table = tmp_path / "items.jsonl"
    table.write_text((ds / "items.jsonl").read_text())
    out = tmp_path / "out"
    (out / "images").mkdir(parents=True)
    (out / "items.jsonl").write_text("{}\n")
    (out / "images" / "a.png").write_bytes(b"png")
    (out / "thesis.tex").write_text("years of work")
    before = _tree(out)
    res = cli("import", str(table), "--out", str(out), "--images-root", str(ds), "--force")
    assert res.exit_code == 2
    (line,) = error_lines(res.stderr)
    assert "no .forgebench marker" in line and "thesis.tex" in line
    assert "nothing was deleted" in line
    assert _tree(out) == before
    (out / "thesis.tex").unlink()  # a link is never a file forgebench wrote either
    (out / "images" / "b.png").symlink_to(tmp_path / "elsewhere.png")
    res = cli("import", str(table), "--out", str(out), "--images-root", str(ds), "--force")
    assert res.exit_code == 2 and "images/b.png" in res.stderr
    (out / "images" / "b.png").unlink()
    res = cli("import", str(table), "--out", str(out), "--images-root", str(ds), "--force")
    assert res.exit_code == 0, res.output  # only a dataset's own files: replaced
    assert owned.is_owned(out, "dataset")
    assert not (out / "images" / "a.png").exists()
    assert [json.loads(x)["id"] for x in (out / "items.jsonl").read_text().splitlines()] == [
        json.loads(x)["id"] for x in table.read_text().splitlines()
    ]


def test_force_replaces_only_a_folder_marked_as_a_dataset(tmp_path: Path) -> None:
    tsv = write_tsv(tmp_path / "t.tsv", [TSV_ROW])
    run = tmp_path / "run"
    with Store.open(run):
        pass
    assert owned.is_owned(run, "run")  # a run directory made by forgebench carries its marker
    before = _tree(run)
    res = cli("import", str(tsv), "--out", str(run), "--force")
    assert res.exit_code == 2
    assert error_lines(res.stderr) == [
        f"error: {run}: is a forgebench run folder, not a dataset folder; not replaced"
    ]
    assert _tree(run) == before
    user = tmp_path / "mine"
    user.mkdir()
    (user / "notes.txt").write_text("x")
    assert not owned.claim(user, "run")  # never marked afterwards
    with pytest.raises(owned.NotOurs, match="link"):
        (tmp_path / "link").symlink_to(user)
        owned.replace_guard(tmp_path / "link", "dataset")
    assert (user / "notes.txt").read_text() == "x"


# --- cache clean -------------------------------------------------------------------------------


def test_cache_clean_removes_only_its_own_entries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "mine"
    (folder / "docs").mkdir(parents=True)
    (folder / "docs" / "letter.txt").write_text("dear")
    (folder / ".git" / "objects" / "ab").mkdir(parents=True)
    git_object = folder / ".git" / "objects" / "ab" / ("cd" * 19)
    git_object.write_bytes(b"blob")
    outside = tmp_path / "outside"
    (outside / "ab").mkdir(parents=True)
    (outside / "ab" / ("ab" * 32 + ".png")).write_bytes(b"not yours")
    (folder / "photos").symlink_to(outside)
    monkeypatch.setenv("FORGEBENCH_CACHE", str(folder))
    cache = VariantCache()
    variant = cache.path_for("ab" * 32)
    cache.write_variant(variant, b"\x89PNG variant")
    labels = folder / "pixar-labels" / "12" / ("12" * 20 + ".bin")
    labels.parent.mkdir(parents=True)
    labels.write_bytes(b"FBL2")
    tool = folder / "verifier-tools" / ("0" * 16) / "faces" / "ef" / ("ef" * 32 + ".json")
    tool.parent.mkdir(parents=True)
    tool.write_text("{}")
    (folder / "sources.sqlite").write_bytes(b"SQLite format 3\x00")
    assert not owned.is_owned(folder)  # the user's folder: never marked
    users = {k: v for k, v in _tree(folder).items() if not k.startswith(("ab", "pixar", "ver"))}
    users.pop("sources.sqlite")
    res = cli("cache", "clean")
    assert res.exit_code == 0, res.output
    assert not variant.exists() and not labels.exists() and not tool.exists()
    assert not (folder / "sources.sqlite").exists()
    assert _tree(folder) == users  # letter.txt and the .git object
    assert git_object.read_bytes() == b"blob"
    assert (folder / "photos").is_symlink() and _tree(outside) == {
        f"ab/{'ab' * 32}.png": b"not yours"
    }
    assert f"removed 4 files (0.0 MB) from {folder}" in res.stdout
    left = next(x for x in res.stdout.splitlines() if x.startswith("left "))
    assert left.startswith("left 3 entries that forgebench did not write: ")
    assert {".git/", "docs/letter.txt", "photos"} == set(left.split(": ", 1)[1].split(", "))


def test_a_cache_made_by_forgebench_is_marked_and_cleaned_away(tmp_path: Path) -> None:
    cache = VariantCache(tmp_path / "cache")
    cache.write_variant(cache.path_for("cd" * 32), b"x")
    assert owned.is_owned(tmp_path / "cache", "cache")
    done = cache.clean()
    assert (done.files, done.left) == (1, []) and not (tmp_path / "cache").exists()


# --- stale temporary files and folders ----------------------------------------------------------


def test_atomic_writers_remove_a_killed_writers_temp_files(
    tmp_path: Path, dead_pid: int, live_pid: int
) -> None:
    run, out = tmp_path / "run", tmp_path / "out"
    hand_run.build_run(run, [hand_run.make_item("a")], [("m", "a", "L0", "full", "FAKE")])
    out.mkdir()  # what a killed export left there (before this process wrote anything)
    stale = out / f".export-mandela.csv.{dead_pid}.140234.tmp"
    stale.write_text("half an export")
    live = out / f".export-mandela.csv.{live_pid}.140234.tmp"
    live.write_text("another process writing")
    other = out / f".notes.txt.{dead_pid}.140234.tmp"  # the temp of another target: not ours
    other.write_text("x")
    res = cli("export", str(run), "--format", "csv", "--out", str(out))
    assert res.exit_code == 0, res.output
    assert not stale.exists() and live.exists() and other.exists()
    assert (out / "export-mandela.csv").is_file()
    write_text(out / "notes.txt", "y")  # the one writer they all use
    assert not other.exists()


def test_redact_removes_a_killed_redactions_temp_file(
    tmp_path: Path, dead_pid: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = "sk-h37-delete-0123456789abcdef"
    monkeypatch.setenv("OPENAI_API_KEY", key)
    run = tmp_path / "run"
    hand_run.build_run(run, [hand_run.make_item("a")], [("m", "a", "L0", "full", "FAKE")])
    (run / "report").mkdir()
    (run / "report" / "index.html").write_text(f"<p>{key}</p>")
    stale = run / "report" / f".index.html.{dead_pid}.1.tmp"
    stale.write_text(f"<p>{key}</p>")  # what a killed redact left: the key itself
    res = cli("redact", str(run))
    assert res.exit_code == 0, res.output
    assert not stale.exists()
    assert key not in (run / "report" / "index.html").read_text()


def test_merge_and_import_remove_a_killed_runs_temp_folders(
    tmp_path: Path, dead_pid: int, live_pid: int
) -> None:
    runs = []
    for name, model in (("r1", "m1"), ("r2", "m2")):
        hand_run.build_run(
            tmp_path / name, [hand_run.make_item("a")], [(model, "a", "L0", "full", "FAKE")]
        )
        runs.append(str(tmp_path / name))
    stale = tmp_path / f".merged.merging-{dead_pid}"
    (stale / "sub").mkdir(parents=True)
    (stale / "run.sqlite").write_bytes(b"x" * 1000)
    live = tmp_path / f".merged.merging-{live_pid}"
    live.mkdir()
    res = cli("merge", *runs, "--out", str(tmp_path / "merged"))
    assert res.exit_code == 0, res.output
    assert not stale.exists() and live.exists()
    assert owned.is_owned(tmp_path / "merged", "run")

    tsv = write_tsv(tmp_path / "t.tsv", [TSV_ROW])
    stale = tmp_path / temp_name("ds", "importing").replace(str(os.getpid()), str(dead_pid))
    stale.mkdir()
    (stale / "items.jsonl").write_text("{}")
    live = tmp_path / f".ds.importing-{live_pid}-0123abcd"
    live.mkdir()
    res = cli("import", str(tsv), "--out", str(tmp_path / "ds"))  # refuses the TSV: still cleans
    assert not stale.exists() and live.exists()


# --- output paths -------------------------------------------------------------------------------


@pytest.mark.parametrize("verb", ["export", "tables"])
def test_an_output_path_that_cannot_be_written_is_one_line(tmp_path: Path, verb: str) -> None:
    run = tmp_path / "run"
    hand_run.build_run(run, [hand_run.make_item("a")], [("m", "a", "L0", "full", "FAKE")])
    afile = tmp_path / "afile"
    afile.write_text("mine")
    cases = {
        afile / "x": f"{afile / 'x'}: cannot write: {afile} is a file, not a folder",
        Path("/dev/null/x"): "/dev/null/x: cannot write: /dev/null is a device, not a folder",
        Path("/dev/null"): "/dev/null: is a device, not a folder or a file forgebench can write",
    }
    if Path("/proc/self").is_dir():
        cases[Path("/proc/self/x")] = "/proc/self/x: cannot write into /proc/self ("
    for out, message in cases.items():
        res = cli(verb, str(run), "--out", str(out))
        assert res.exit_code == 2, (out, res.output)
        (line,) = error_lines(res.stderr)
        assert line.startswith(f"error: {message}"), line
    assert afile.read_text() == "mine"
