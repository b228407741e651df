"""Keys, base URLs, redirects, flags, temp files, ``view``, huge images,
TeX in model names."""

from __future__ import annotations

import http.client
import subprocess
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from PIL import Image, ImageFile

from forgebench.suites.mandela.validate import validate_dataset
from support.mandela_data import write_mandela_dataset

from .conftest import Server, cli, error_lines, read_items, run_args, write_items


def _one_error(res: Any, code: int = 2) -> str:
    assert res.exit_code == code, res.output
    assert "Traceback" not in res.output
    lines = error_lines(res.stderr)
    assert len(lines) == 1, res.stderr
    return lines[0]


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("notaurl", "must start with http:// or https://"),
        ("http://127.0.0.1:99999/v1", "not a valid URL"),
        ("ftp://example.com/v1", "must start with http:// or https://"),
        ("http:///v1", "has no host"),
        ("http://bob:hunter2@127.0.0.1:8000/v1", "user:password@"),
    ],
)
def test_base_urls_are_checked_before_anything_runs(
    url: str, expected: str, tmp_path: Path
) -> None:
    ds = write_mandela_dataset(tmp_path / "ds")
    res = cli(*run_args(ds, tmp_path / "run", f"m=openai/x@{url}"))
    line = _one_error(res)
    assert expected in line and "hunter2" not in line
    assert not (tmp_path / "run").exists()


def test_a_key_with_a_control_character_is_one_line(
    tmp_path: Path, monkeypatch: Any, fake_openai: Any
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-abc\ndef")
    server = fake_openai()
    res = cli(
        *run_args(
            write_mandela_dataset(tmp_path / "ds"), tmp_path / "run", f"openai/x@{server.url}"
        )
    )
    line = _one_error(res, 1)
    assert "OPENAI_API_KEY contains a control character" in line
    assert "Task exception" not in res.output and "ValueError" not in res.output
    assert server.hits == 0


def test_a_redirect_to_another_host_is_refused(
    tmp_path: Path, fake_openai: Any, hostile_server: Callable[..., Server]
) -> None:
    other = fake_openai(reply_text="REAL. from the other host")

    async def moved(request: web.Request) -> web.Response:
        # localhost and 127.0.0.1 are different hosts to a browser and to this check
        target = other.url.replace("127.0.0.1", "localhost") + "/chat/completions"
        return web.Response(status=307, headers={"Location": target})

    server = hostile_server({"/v1/chat/completions": moved})
    run_dir = tmp_path / "run"
    res = cli(
        *run_args(write_mandela_dataset(tmp_path / "ds"), run_dir, f"openai/x@{server.url}/v1")
    )
    line = _one_error(res, 1)
    assert "refused a redirect" in line and "another host" in line
    assert other.hits == 0


def test_a_redirect_on_the_same_host_is_followed(
    tmp_path: Path, hostile_server: Callable[..., Server]
) -> None:
    async def moved(request: web.Request) -> web.Response:
        return web.Response(status=308, headers={"Location": "/v2/chat/completions"})

    async def answer(request: web.Request) -> web.Response:
        message = {"role": "assistant", "content": "REAL. Nothing is wrong."}
        choice = {"index": 0, "message": message, "finish_reason": "stop"}
        return web.json_response({"choices": [choice], "usage": {}})

    server = hostile_server({"/v1/chat/completions": moved, "/v2/chat/completions": answer})
    res = cli(
        *run_args(
            write_mandela_dataset(tmp_path / "ds"), tmp_path / "r", f"openai/x@{server.url}/v1"
        )
    )
    assert res.exit_code == 0, res.output
    assert server.hits.count("/v2/chat/completions") == 2


@pytest.mark.parametrize("flag", ["--probes", "--conditions"])
def test_a_list_flag_naming_nothing_is_a_usage_error(flag: str, tmp_path: Path) -> None:
    ds = write_mandela_dataset(tmp_path / "ds")
    args = run_args(ds, tmp_path / "run", "builtin/artefact")
    args[args.index(flag) + 1] = ",,"
    assert "no " in _one_error(cli(*args))


def test_metrics_removes_a_killed_writers_temp_file(tmp_path: Path) -> None:
    ds = write_mandela_dataset(tmp_path / "ds")
    run_dir = tmp_path / "run"
    assert cli(*run_args(ds, run_dir, "builtin/artefact")).exit_code == 0
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = run_dir / f".metrics.csv.{dead.pid}.140000.tmp"
    stale.write_text("model,probe\nhalf a fi")
    assert cli("metrics", str(run_dir)).exit_code == 0
    assert not stale.exists() and (run_dir / "metrics.csv").is_file()
    assert not list(run_dir.glob(".metrics.csv.*.tmp"))


def test_view_checks_the_host_header_and_lists_no_directory(tmp_path: Path) -> None:
    ds = write_mandela_dataset(tmp_path / "ds")
    run_dir = tmp_path / "run"
    assert cli(*run_args(ds, run_dir, "builtin/artefact")).exit_code == 0
    proc = subprocess.Popen(
        [sys.executable, "-m", "forgebench.cli", "view", str(run_dir), "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = ""
        while "serving" not in line:
            line = proc.stdout.readline()
            assert line, "view exited without serving"
        port = int(line.split("127.0.0.1:")[1].split("/")[0])

        def get(path: str, host: str) -> tuple[int, bytes]:
            con = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            con.putrequest("GET", path, skip_host=True)
            con.putheader("Host", host)
            con.endheaders()
            resp = con.getresponse()
            return resp.status, resp.read()

        assert get("/index.html", f"127.0.0.1:{port}")[0] == 200
        assert get("/index.html", f"localhost:{port}")[0] == 200
        status, body = get("/index.html", f"attacker.example:{port}")
        assert status == 421 and b"forgebench" not in body
        assert get("/", f"127.0.0.1:{port}")[0] in (200, 404)  # index.html, never a listing
        status, body = get("/data/", f"127.0.0.1:{port}")
        assert status == 404 and b"Directory listing" not in body
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_a_huge_image_is_one_line_from_its_header(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ds = write_mandela_dataset(tmp_path / "ds")
    Image.new("1", (13000, 13000)).save(ds / "images" / "huge.png")
    items = read_items(ds)
    items[0]["image"] = "images/huge.png"
    write_items(ds, items)

    small_load = ImageFile.ImageFile.load

    def load_small_only(self: Any) -> Any:
        if self.size[0] * self.size[1] > 10_000_000:
            raise AssertionError(f"decoded the {self.size} image")
        return small_load(self)

    monkeypatch.setattr(ImageFile.ImageFile, "load", load_small_only)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # Pillow's raw DecompressionBombWarning would fail here
        report = validate_dataset(ds)
    msgs = [str(p) for p in report.errors if "huge" in str(p)]
    assert len(msgs) == 1 and "13000x13000 pixels" in msgs[0], msgs
    monkeypatch.undo()
    res = cli(*run_args(ds, tmp_path / "run", "builtin/artefact"))
    assert "13000x13000 pixels" in _one_error(res)


def test_tex_in_a_model_name_prints_as_written_in_the_report(
    tmp_path: Path, fake_openai: Any
) -> None:
    server = fake_openai(reply_text="FAKE. A wristwatch was added.")
    ds = write_mandela_dataset(tmp_path / "ds", seeds=2)
    run_dir = tmp_path / "run"
    name = r"openai/m$\frac{1}$"
    args = run_args(ds, run_dir, f"{name}@{server.url}", probes="L0,L1")
    assert cli(*args).exit_code == 0
    assert cli("judge", str(run_dir), "--judge", "builtin/rules").exit_code == 0
    assert cli("metrics", str(run_dir)).exit_code == 0, "metrics"
    res = cli("report", str(run_dir))
    assert res.exit_code == 0, res.output
    assert (run_dir / "report" / "index.html").is_file()
    assert list((run_dir / "report" / "figures").glob("*.svg"))
