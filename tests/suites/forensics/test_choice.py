"""``--protocol choice``: MCQ_CHOICE asked of a loopback server that checks the constrained-answer
field of each form, its rejection and ignored paths, metrics rows and the side-by-side table."""

from __future__ import annotations

import csv
import importlib.util
import json
import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from forgebench import api
from forgebench.errors import UserError
from forgebench.models.choice import read_choice
from forgebench.models.spec import ModelConfig
from forgebench.run.generate import GenerationSettings
from forgebench.suites import detect
from forgebench.suites.base import SuiteError
from forgebench.suites.forensics.report_section import write_tables
from forgebench.suites.forensics.tsv_import import import_release_tsv

FREE = "The lighting is unusual for this scene."
"""The free-form reply to MCQ: the rules find no letter in it (Z)."""
FIELDS = ("structured_outputs", "guided_choice", "response_format")


def _shown(prompt: str) -> list[str]:
    """The option letters a prompt shows (``A. ...`` lines after ``Options:``)."""
    return re.findall(r"^([A-Z])\. ", prompt.split("Options:", 1)[1], re.M)


def _letters(body: dict[str, Any]) -> list[str]:
    """The option letters a chat-completions request's prompt shows."""
    content = body["messages"][0]["content"]
    return _shown(next(p["text"] for p in content if p.get("type") == "text"))


def _constraint(body: dict[str, Any]) -> tuple[str, list[str]] | None:
    """The form and letters a request constrains its answer to (None: free form)."""
    if "structured_outputs" in body:
        return "structured_outputs", body["structured_outputs"]["choice"]
    if "guided_choice" in body:
        return "guided_choice", body["guided_choice"]
    fmt = body.get("response_format")
    if fmt is not None:
        js = fmt["json_schema"]
        schema = js["schema"]
        assert fmt["type"] == "json_schema" and js["strict"] is True
        assert schema["required"] == ["answer"] and schema["additionalProperties"] is False
        return "json_schema", schema["properties"]["answer"]["enum"]
    return None


class ChatCompletions:
    """How an OpenAI-compatible server reads a request and words its answers (the default
    dialect of :class:`Checking`)."""

    @staticmethod
    def spec(url: str) -> str:
        return f"vlm=openai/m@{url}/v1"

    letters = staticmethod(_letters)
    constraint = staticmethod(_constraint)

    @staticmethod
    def reply(text: str) -> dict[str, Any]:
        message = {"role": "assistant", "content": text}
        return {"choices": [{"message": message, "finish_reason": "stop"}]}

    @staticmethod
    def rejection(body: dict[str, Any]) -> dict[str, Any]:
        """A 400 naming the field, as OpenAI does for an unknown argument."""
        field = next(f for f in FIELDS if f in body)
        return {"error": {"message": f"Unrecognized request argument supplied: {field}"}}


class GenerateContent:
    """How a Gemini ``generateContent`` server reads a request and words its answers."""

    @staticmethod
    def spec(url: str) -> str:
        return f"vlm=google/m@{url}"

    @staticmethod
    def letters(body: dict[str, Any]) -> list[str]:
        parts = body["contents"][0]["parts"]
        return _shown(next(p["text"] for p in parts if "text" in p))

    @staticmethod
    def constraint(body: dict[str, Any]) -> tuple[str, list[str]] | None:
        gen = body.get("generationConfig") or {}
        if "responseSchema" not in gen:
            return None
        assert (
            gen["responseMimeType"] == "text/x.enum" and gen["responseSchema"]["type"] == "STRING"
        )
        return "enum", gen["responseSchema"]["enum"]

    @staticmethod
    def reply(text: str) -> dict[str, Any]:
        content = {"role": "model", "parts": [{"text": text}]}
        return {"candidates": [{"content": content, "finishReason": "STOP"}]}

    @staticmethod
    def rejection(body: dict[str, Any]) -> dict[str, Any]:
        message = 'Invalid JSON payload received. Unknown name "responseSchema"'
        return {"error": {"code": 400, "message": message, "status": "INVALID_ARGUMENT"}}


class Checking:
    """A loopback server that answers a constrained request with the first allowed letter in its
    form's shape, after checking the field carries exactly the options' letters (else 422), and
    a free-form one with :data:`FREE`. ``mode``: ``honour``, ``reject`` (400 naming the field)
    or ``ignore`` (free text to everything, as a server that drops unknown fields); ``dialect``:
    the API it speaks (:class:`ChatCompletions`, :class:`GenerateContent`)."""

    def __init__(self, mode: str = "honour", dialect: Any = ChatCompletions) -> None:
        self.mode = mode
        self.dialect = dialect
        self.bodies: list[dict[str, Any]] = []
        self.problems: list[str] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.bodies.append(body)
                status, reply = outer.answer(body)
                data = json.dumps(reply).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self.thread.start()
        self.root = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.spec = dialect.spec(self.root)
        """The model spec that asks this server (model name ``vlm``)."""

    def answer(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        held = self.dialect.constraint(body)
        shown = self.dialect.letters(body)
        if held is not None and held[1] != shown:
            self.problems.append(f"letters {held[1]} for options {shown}")
            return 422, {"error": {"message": "constraint letters differ from the options"}}
        if held is not None and self.mode == "reject":
            return 400, self.dialect.rejection(body)
        text = FREE
        if held is not None and self.mode == "honour":
            form, letters = held
            text = json.dumps({"answer": letters[0]}) if form == "json_schema" else letters[0]
        return 200, self.dialect.reply(text)

    def constrained(self) -> list[dict[str, Any]]:
        return [b for b in self.bodies if self.dialect.constraint(b) is not None]

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    monkeypatch.setenv("GOOGLE_API_KEY", "AIza-loopback-test")  # the google SDK asks for one
    made: list[Checking] = []

    def start(mode: str = "honour", dialect: Any = ChatCompletions) -> Checking:
        made.append(Checking(mode, dialect))
        return made[-1]

    yield start
    for s in made:
        s.close()


@pytest.fixture
def dataset(release_tsv: Path, tmp_path: Path) -> Path:
    ds = tmp_path / "ds"
    import_release_tsv(release_tsv, ds)
    return ds


def _choice(ds: Path, probes: str | None = None) -> GenerationSettings:
    suite = detect(ds)
    return GenerationSettings(selection=api.selection_for(suite, protocol="choice", probes=probes))


def _acc(run: Path) -> dict[tuple[str, str, str], float]:
    with (run / "metrics.csv").open() as fh:
        return {
            (r["model"], r["probe"], r["metric"]): float(r["value"])
            for r in csv.DictReader(fh)
            if r["condition"] == "full" and r["subset"] == "all"
        }


NEEDS_GOOGLE = pytest.mark.skipif(
    importlib.util.find_spec("google.genai") is None, reason="needs the google extra"
)


@pytest.mark.parametrize(
    ("form", "dialect"),
    [
        ("json_schema", ChatCompletions),
        ("structured_outputs", ChatCompletions),
        ("guided_choice", ChatCompletions),
        pytest.param("enum", GenerateContent, marks=NEEDS_GOOGLE, id="google-enum"),
    ],
)
def test_each_form_carries_the_letters_and_metrics_score_it_beside_mcq(
    form: str, dialect: Any, server: Any, dataset: Path, tmp_path: Path
) -> None:
    srv = server(dialect=dialect)
    run = tmp_path / "run"
    config = ModelConfig(spec=srv.spec, choice_form=form)
    result = api.run(dataset, run, [config], _choice(dataset))
    assert result.models[0].stats.fatal is None and srv.problems == []
    held = [dialect.constraint(b) for b in srv.constrained()]
    assert len(held) == 6 and len(srv.bodies) == 12  # every item: MCQ free, MCQ_CHOICE held
    assert {h[0] for h in held} == {form}
    # the two-option and four-option items carry their own letters
    assert sorted({len(h[1]) for h in held}) == [2, 4]
    api.metrics(run)
    m = _acc(run)
    # the server answers the first letter: right on items 0, 1 and 5 (truth A) of six
    assert m[("vlm", "MCQ_CHOICE", "acc")] == pytest.approx(50.0)
    assert m[("vlm", "MCQ_CHOICE", "by_letter")] == pytest.approx(100.0)
    assert m[("vlm", "MCQ_CHOICE", "z")] == 0.0
    assert m[("vlm", "MCQ", "acc")] == 0.0 and m[("vlm", "MCQ", "z")] == pytest.approx(100.0)
    if form == "json_schema":  # once: the report's side-by-side table
        _side_by_side(run, tmp_path)


def _side_by_side(run: Path, tmp_path: Path) -> None:
    """The report puts free-form and constrained accuracy side by side, only where both are."""
    from forgebench.results.metrics_csv import read_metrics

    metrics = read_metrics(run / "metrics.csv", benchmark="forensics")
    html = write_tables(metrics, tmp_path / "report")[2]["forensics_choice"]
    assert "MCQ (free form)" in html and "MCQ_CHOICE (constrained)" in html
    row = re.search(r"<tr[^>]*>\s*<t[dh][^>]*>vlm</t[dh]>(.*?)</tr>", html, re.S)
    assert row is not None, html
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row.group(1), re.S)
    numbers = [re.sub(r"<[^>]+>", "", c).strip() for c in cells]
    assert numbers[:3] == ["0.0", "50.0", "50.0"], numbers  # MCQ, MCQ_CHOICE, difference
    free = metrics[metrics["probe"] != "MCQ_CHOICE"]
    assert "forensics_choice" not in write_tables(free, tmp_path / "report2")[2]


@pytest.mark.parametrize(
    ("form", "dialect", "field", "words"),
    [
        ("structured_outputs", ChatCompletions, "structured_outputs", "Unrecognized request"),
        pytest.param(
            "enum", GenerateContent, "response_schema", "Unknown name", marks=NEEDS_GOOGLE
        ),
    ],
)
def test_a_server_that_rejects_the_field_stops_the_model_after_one_request(
    form: str,
    dialect: Any,
    field: str,
    words: str,
    server: Any,
    dataset: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    srv = server("reject", dialect)
    run = tmp_path / "run"
    config = ModelConfig(spec=srv.spec, choice_form=form, concurrency=8)
    result = api.run(dataset, run, [config], _choice(dataset, probes="MCQ_CHOICE"))
    assert len(srv.constrained()) == 1  # nothing more sent after the first was refused
    from forgebench._cli.running import _outcome

    assert _outcome(result, progress_shown=True) == 1
    lines = [x for x in capsys.readouterr().err.splitlines() if x.strip()]
    assert len(lines) == 1, lines
    assert lines[0].startswith("error: model vlm: the server rejected")
    assert f'field {field} (choice_form = "{form}")' in lines[0] and words in lines[0]


def test_a_server_that_ignores_the_field_stops_the_model_after_one_answer(
    server: Any, dataset: Path, tmp_path: Path
) -> None:
    srv = server("ignore")
    config = ModelConfig(spec=srv.spec)
    run = tmp_path / "run"
    result = api.run(dataset, run, [config], _choice(dataset, probes="MCQ_CHOICE"))
    fatal = result.models[0].stats.fatal or ""
    assert len(srv.constrained()) == 1
    assert "ignored the constrained-answer field response_format" in fatal, fatal


def test_a_backend_that_cannot_constrain_is_refused_before_anything_is_sent(
    dataset: Path, tmp_path: Path
) -> None:
    with pytest.raises(
        UserError, match=r"builtin/artefact .*cannot constrain.*: anthropic, google"
    ):
        api.run(dataset, tmp_path / "run", ["builtin/artefact"], _choice(dataset))
    with pytest.raises(SuiteError, match="part of --protocol choice"):
        api.tasks(dataset, api.selection_for(detect(dataset), probes="MCQ_CHOICE"))


def test_read_choice_takes_only_an_allowed_letter() -> None:
    assert read_choice("B", "AB") == "B" and read_choice(' "B". ', "AB") == "B"
    assert read_choice('{"answer": "A"}', "AB") == "A"
    assert read_choice('```json\n{"answer": "B"}\n```', "AB") == "B"
    for text in ("C", "The answer is B", '{"answer": "C"}', "{not json", "", "A or B"):
        assert read_choice(text, "AB") is None, text


def test_replicas_of_one_model_share_the_first_request(
    server: Any, dataset: Path, tmp_path: Path
) -> None:
    a, b = server("reject"), server("reject")
    spec = f"vlm=openai/m@{a.root}/v1,{b.root}/v1"
    config = ModelConfig(spec=spec, choice_form="guided_choice", concurrency=8)
    result = api.run(dataset, tmp_path / "run", [config], _choice(dataset, probes="MCQ_CHOICE"))
    assert len(a.constrained()) + len(b.constrained()) == 1  # not one per replica
    assert "field guided_choice" in (result.models[0].stats.fatal or "")
