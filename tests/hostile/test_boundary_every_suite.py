"""Every suite's images stay inside the dataset folder: ``validate``, ``run``, ``forensics
export`` and the release-TSV import refuse an absolute path, a ``..`` and a link out of it."""

from __future__ import annotations

import base64
import csv
import json
import os
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from support.forensics_data import write_forensics_release

from .conftest import cli, error_lines

SECRET_RGB = (201, 13, 77)


def _secret(tmp_path: Path) -> Path:
    secret = tmp_path / "outside" / "secret.png"
    secret.parent.mkdir()
    Image.new("RGB", (40, 30), SECRET_RGB).save(secret)
    return secret


def _hostile_forensics(tmp_path: Path, how: str) -> tuple[Path, Path]:
    ds, _ = write_forensics_release(tmp_path / "fb")
    secret = _secret(tmp_path)
    lines = [json.loads(x) for x in (ds / "items.jsonl").read_text().splitlines() if x.strip()]
    first = lines[0]["images"][0]
    if how == "symlink":
        target = ds / first
        target.unlink()
        os.symlink(secret, target)
    else:
        rel = os.path.relpath(secret, ds) if how == "dotdot" else str(secret)
        lines[0]["images"] = [rel]
    (ds / "items.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    return ds, secret


@pytest.mark.parametrize("how", ["symlink", "dotdot", "absolute"])
def test_forensics_validate_run_and_export_refuse_an_image_outside(
    how: str, tmp_path: Path, fake_openai: Any
) -> None:
    ds, _secret_file = _hostile_forensics(tmp_path, how)
    res = cli("validate", str(ds))
    assert res.exit_code == 2, res.output
    assert (
        "outside the dataset folder" in res.stderr
        or "leaves the dataset" in res.stderr
        or ("relative to the dataset" in res.stderr)
    ), res.stderr

    server = fake_openai()
    run = cli(
        "run", str(ds), "--model", f"openai/fake@{server.url}", "--out", str(tmp_path / "run"),
        "--cache-dir", str(tmp_path / "cache"), "--retry-base-delay", "0.01",
    )  # fmt: skip
    assert run.exit_code == 2, run.output
    assert server.hits == 0
    lines = error_lines(run.stderr)
    assert len(lines) == 1 and "secret.png" in lines[0] and "Traceback" not in run.output

    out = tmp_path / "out.tsv"
    exp = cli("forensics", "export", str(ds), "--out", str(out))
    assert exp.exit_code == 2, exp.output
    assert len(error_lines(exp.stderr)) == 1 and "secret.png" in exp.stderr
    assert not out.exists()


def _png_b64(rgb: tuple[int, int, int]) -> str:
    import io

    buf = io.BytesIO()
    Image.new("RGB", (16, 16), rgb).save(buf, "PNG")
    return base64.b64encode(buf.getvalue()).decode("ascii")


@pytest.mark.parametrize("how", ["dotdot", "absolute", "symlink"])
def test_a_release_tsv_image_path_outside_its_folder_is_not_copied(
    how: str, tmp_path: Path
) -> None:
    secret = _secret(tmp_path)
    folder = tmp_path / "release"
    folder.mkdir()
    if how == "symlink":
        os.symlink(secret, folder / "pic.png")
        path = "pic.png"
    else:
        path = "../outside/secret.png" if how == "dotdot" else str(secret)
    tsv = folder / "ForensicsBench.tsv"
    with tsv.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh, delimiter="\t", lineterminator="\n")
        w.writerow(["index", "image", "question", "A", "B", "answer", "category", "image_path"])
        cat = "human_entiresynthesis_diffusion_visibleimage_category"
        w.writerow(["0", _png_b64((1, 2, 3)), "Real?", "AI-generated", "no", "A", cat, ""])
        w.writerow(["1", "", "Real?", "AI-generated", "no", "A", cat, path])
    out = tmp_path / "ds"
    res = cli("import", str(tsv), "--out", str(out))
    assert res.exit_code == 2, res.output
    assert ("image_path" in res.stderr and "secret.png" in res.stderr) or "pic.png" in res.stderr
    assert "Traceback" not in res.output
    assert not out.exists() or not any(
        Image.open(p).getpixel((0, 0)) == SECRET_RGB for p in out.rglob("*.png")
    )


@pytest.mark.parametrize("how", ["symlink", "dotdot", "absolute"])
def test_a_suite_that_checks_nothing_still_sends_nothing_from_outside(
    how: str, tmp_path: Path, fake_openai: Any
) -> None:
    """The toy suite (tests/suites/toy) has no path checks of its own: the engine's image
    loading refuses the outside file for it."""
    from forgebench import suites
    from suites.test_seam import _toy, _toy_dataset

    suite = suites.register(_toy().ToySuite())
    try:
        ds = _toy_dataset(tmp_path / "toy")
        secret = _secret(tmp_path)
        rows = [json.loads(x) for x in (ds / "toy.jsonl").read_text().splitlines()]
        if how == "symlink":
            (ds / "img" / "1.png").unlink()
            os.symlink(secret, ds / "img" / "1.png")
        else:
            rows[1]["image"] = "../outside/secret.png" if how == "dotdot" else str(secret)
        (ds / "toy.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
        server = fake_openai()
        res = cli(
            "run", str(ds), "--model", f"openai/fake@{server.url}", "--out", str(tmp_path / "r"),
            "--cache-dir", str(tmp_path / "cache"),
        )  # fmt: skip
        assert res.exit_code == 2, res.output
        assert server.hits == 0
        lines = error_lines(res.stderr)
        assert len(lines) == 1 and "secret.png" in lines[0] and "outside" in lines[0]
    finally:
        suites.unregister(suite.name)
