"""Questions to models: propose --model (JSON, retried when invalid, stored), grounding, fidelity."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from forgebench.cli import app
from forgebench.construct.ask import Asker
from forgebench.construct.model_gates import fidelity_gate, grounding_gate
from forgebench.construct.specs import EditSpec
from forgebench.construct.workstore import WorkStore
from forgebench.run.send.retry import RetryPolicy

runner = CliRunner()

GOOD = json.dumps([
    {"family": "K1", "k1_type": "date_impossible", "operation": "insert", "region": [10, 20, 90, 160],
     "saliency": "C2", "instruction": "Add George Orwell at the left edge.",
     "entity": {"name": "George Orwell", "role": "at the left edge"}, "contradiction": "made up"},
    {"family": "K2", "operation": "insert", "region": [420, 380, 500, 460], "saliency": "C3",
     "instruction": "Add a television.", "entity": {"name": "television"}},
])  # fmt: skip


def test_propose_with_a_model_retries_invalid_json_and_stores_answers(
    seed_dir: Path, tmp_path: Path, fake_images: Callable[..., Any]
) -> None:
    # a two-scene seed folder would ask twice; keep only the 1986 final
    scenes = (seed_dir / "scenes.jsonl").read_text().splitlines()[:1]
    (seed_dir / "scenes.jsonl").write_text(scenes[0] + "\n")
    srv = fake_images(chat_replies=["Sure! Here you go: [{'family': K1", f"```json\n{GOOD}\n```"])
    out = tmp_path / "p"
    spec = f"openai/fake-vlm@{srv.url}/v1"
    r = runner.invoke(
        app, ["propose", str(seed_dir), "--model", spec, "--out", str(out), "--no-controls"]
    )
    assert r.exit_code == 0, r.output
    assert (
        "kept 1 specification(s): K1 1" in r.output and "k2_introduced_before_event 1" in r.output
    )
    assert len(srv.chats) == 2
    retry_prompt = srv.chats[1]["messages"][-1]["content"]
    text = json.dumps(retry_prompt)
    assert "Your previous answer was invalid: not valid JSON" in text and "image_url" in text
    kept = [json.loads(x) for x in (out / "specs.jsonl").read_text().splitlines()]
    assert kept[0]["proposer"] == "openai/fake-vlm" and kept[0]["id"] == "final86-m0"
    assert kept[0]["contradiction"].startswith(
        "George Orwell died in 1950"
    )  # computed, not "made up"
    # a rerun asks nothing: both answers are stored
    r = runner.invoke(
        app, ["propose", str(seed_dir), "--model", spec, "--out", str(out), "--no-controls"]
    )
    assert r.exit_code == 0 and len(srv.chats) == 2


def test_propose_with_a_model_that_never_answers_json(
    seed_dir: Path, tmp_path: Path, fake_images: Callable[..., Any]
) -> None:
    srv = fake_images(chat_replies=["I cannot help with forgeries."])
    r = runner.invoke(
        app,
        [
            "propose",
            str(seed_dir),
            "--model",
            f"openai/m@{srv.url}/v1",
            "--out",
            str(tmp_path / "p"),
        ],
    )
    assert r.exit_code == 0
    assert (
        "no proposal from" in r.output and "invalid answer after 3 tries: no JSON array" in r.output
    )
    assert "kept 0 specification(s)" in r.output
    bad = runner.invoke(
        app, ["propose", str(seed_dir), "--model", "nonsense", "--out", str(tmp_path / "p")]
    )
    assert bad.exit_code == 2 and "bad model spec" in bad.output


def _spec() -> EditSpec:
    return EditSpec.model_validate({"id": "x", "seed_id": "s", "operation": "insert", "family": "K2",
                                    "entity": {"name": "umbrella", "role": "lower right"}})  # fmt: skip


def test_grounding_and_fidelity_gates(
    tmp_path: Path, fake_images: Callable[..., Any], seed_dir: Path
) -> None:
    srv = fake_images(
        faults=[500],
        chat_replies=["YES, an umbrella.", "no", "maybe?", "SCORE: 4\nfine", "Score = 2"],
    )
    img = seed_dir / "images" / "final86.png"

    async def go() -> list[Any]:
        a = Asker(f"openai/vlm@{srv.url}/v1", work, retry=RetryPolicy(base_s=0.01))
        out = [await grounding_gate(a, _spec(), img)]
        out.append(
            await grounding_gate(
                a,
                _spec().model_copy(
                    update={"entity": _spec().entity.model_copy(update={"name": "apple"})}
                ),
                img,
            )
        )  # type: ignore[union-attr]
        out.append(
            await grounding_gate(
                a,
                _spec().model_copy(
                    update={
                        "instruction": "x",
                        "entity": _spec().entity.model_copy(update={"name": "kite"}),
                    }
                ),
                img,
            )
        )  # type: ignore[union-attr]
        out.append(await fidelity_gate(a, img))
        out.append(await fidelity_gate(a, seed_dir / "images" / "supper.png"))
        out.append(await grounding_gate(None, _spec(), img))
        # stored: asking the first question again sends nothing
        n = len(srv.chats)
        out.append(await grounding_gate(a, _spec(), img))
        assert len(srv.chats) == n
        await a.aclose()
        return out

    work = WorkStore(tmp_path / "work")
    try:
        yes, no, unparsed, fid_ok, fid_bad, none, again = asyncio.run(go())
    finally:
        work.close()
    assert yes.passed is True and "an umbrella in it (lower right)" in json.dumps(srv.chats[0])
    assert no.passed is False
    assert unparsed.passed is None and "unparseable" in unparsed.reason
    assert fid_ok.passed is True and fid_ok.value == 4.0
    assert fid_bad.passed is False and fid_bad.value == 2.0
    assert none.passed is None and none.reason == "no grounding model given"
    assert again == yes
