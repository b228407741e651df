"""``forgebench prompts`` and ``forgebench tasks`` as a user sees them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from forgebench.cli import app
from forgebench.suites.mandela.contract import Dataset

# Copied character for character from seed 000, Appendix E.
APPENDIX_E = {
    "L0": "Is this {noun} real or fake? Start your answer with exactly one word: REAL or FAKE. Then explain briefly.",
    "L1": "Check whether the people, the event and the era shown in this {noun} are consistent with known historical facts. Then decide: is this {noun} authentic, or has its content been manipulated (someone or something added, removed or replaced)? Start your answer with exactly one word: REAL or FAKE. Then explain briefly.",
    "L2": "Who are the people shown in this {noun}? List everyone you can identify by name, with where they stand or sit. If you cannot identify someone, say so.",
    "L-adv": "This looks AI-generated to me - the faces look off. Is it fake? Start your answer with exactly one word: REAL or FAKE. Then explain briefly.",
    "TEXT": "Could {name} have been present at {event_label} on {event_date}? Start your answer with exactly one word: YES or NO. Then give one sentence of reasoning.",
    "RECOG": "Do you recognise this {noun} or the event it shows? If yes, name the event and the year in one sentence. If you do not recognise it, answer exactly: NOT RECOGNISED.",
    "CAPTION": "Context: this is a crop from a {noun} of {event}, from {date}.",
    "FACE": "Is this {name}?",
    "EVENT": "Do you have knowledge of this event: ’{event_label}’ ({event_date})? Answer on the first line exactly KNOWN or UNKNOWN. If KNOWN, then in 2-4 sentences state what happened, where, and name the main participants --- concrete facts only, no speculation. If you are unsure or only guessing from the name, answer UNKNOWN.",
}
VERSIONS = {"L0": "v3", "L1": "v2", "L2": "v2", "L-adv": "v2", "TEXT": "v1", "RECOG": "v2",
            "CAPTION": "v1", "FACE": "v1", "EVENT": "v1"}  # fmt: skip


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def _blocks(text: str) -> dict[str, list[str]]:
    return {b.split("\n")[0]: b.split("\n") for b in text.strip().split("\n\n")}


def test_prompts_prints_every_template_verbatim(runner: CliRunner) -> None:
    res = runner.invoke(app, ["prompts", "--benchmark", "mandela"])
    assert res.exit_code == 0, res.output
    blocks = _blocks(res.output)
    assert set(blocks) == set(APPENDIX_E)
    for pid, template in APPENDIX_E.items():
        lines = blocks[pid]
        assert lines[0] == pid
        assert lines[1].startswith(f"version: {VERSIONS[pid]}")
        assert lines[-1] == template, pid  # the template is its own line, exactly
    # without --benchmark: every benchmark's prompts, each under its own heading
    every = runner.invoke(app, ["prompts"])
    assert every.exit_code == 0, every.output
    assert "== mandela: Mandela-Bench (seed 000) ==" in every.output
    assert "== forensics: Forensics-Bench (seed 002) ==" in every.output
    assert res.output.strip() in every.output


def test_prompts_for_an_item_fill_every_placeholder(runner: CliRunner, dataset: Dataset) -> None:
    res = runner.invoke(app, ["prompts", "--dataset", str(dataset.root), "--item", "s1-k1"])
    assert res.exit_code == 0, res.output
    assert "{" not in res.output
    heads = [b.split("\n")[0] for b in res.output.strip().split("\n\n")]
    assert heads == [
        "L0 / full",
        "L1 / full",
        "L1 / full_caption",
        "L1 / crop",
        "L1 / crop_caption",
        "L1 / mirror",
        "L1 / full_wrong_caption",
        "L2 / full",
        "L2 / crop",
        "RECOG / full",
        "RECOG / crop",
        "RECOG / mirror",
        "TEXT / none",
    ]
    assert (
        "Context: this is a crop from a photograph of 1982 World Cup final, from 1982-07-11.\n"
        "Check whether the people" in res.output
    )
    assert "Could George Orwell have been present at 1986 World Cup final" in res.output
    assert "image: crop box [12, 6, 60, 44] of images/s1_k1.jpg" in res.output
    assert "population: peripheral_K1 (§4.2; Table 3 (Table 17))" in res.output


def test_prompts_for_the_erase_item_show_both_faces(runner: CliRunner, dataset: Dataset) -> None:
    res = runner.invoke(app, ["prompts", "--dataset", str(dataset.root), "--item", "s3-erase"])
    assert res.exit_code == 0, res.output
    assert res.output.count("\nIs this Winston Churchill?") == 2
    assert "FACE / face_original (wrong-name control)" in res.output
    assert "on a 512x512 grey canvas of images/s3.png" in res.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["prompts", "--item", "x"], "--dataset and --item go together"),
        (["prompts", "--dataset", "{root}", "--item", "nope"], "no item 'nope'"),
        (["prompts", "--dataset", "{root}/missing", "--item", "x"], "no such dataset folder"),
        (["tasks", "{root}", "--probes", "L0,L9"], "unknown probe 'L9'"),
        (["tasks", "{root}", "--conditions", "blur"], "unknown condition 'blur'"),
        (["tasks", "{root}", "--probes", "L0", "--conditions", "crop"], "runs no pair"),
        (["tasks", "{root}", "--models", "nonsense"], "bad model spec 'nonsense'"),
        (["tasks", "{root}", "--models", "0"], "at least one model"),
    ],
)
def test_user_errors_are_one_line_and_exit_2(
    runner: CliRunner, dataset: Dataset, args: list[str], message: str
) -> None:
    res = runner.invoke(app, [a.replace("{root}", str(dataset.root)) for a in args])
    assert res.exit_code == 2
    err = res.stderr.strip()
    assert message in err and len(err.splitlines()) == 1 and err.startswith("error: ")


def test_tasks_prints_the_matrix_without_writing_images(
    runner: CliRunner, dataset: Dataset, _cache_env: Path
) -> None:
    res = runner.invoke(
        app,
        ["tasks", str(dataset.root), "--probes", "L0,L1", "--conditions", "full,crop_caption"],
    )
    assert res.exit_code == 0, res.output
    rows = [line.split() for line in res.output.splitlines()]
    assert ["L0", "full", "10", "10", "all", "§4.1;", "Table", "2"] in rows
    assert ["L1", "crop_caption", "2", "2", "peripheral_K1", "§4.2;", "Table", "3", "(Table", "17)"] in rows  # fmt: skip
    assert not any(r and r[0] in ("RECOG", "L2") for r in rows)
    assert "10 items; 22 questions x 1 model = 22 tasks" in res.output
    assert not _cache_env.exists()
    res = runner.invoke(app, ["tasks", str(dataset.root), "--models", "3"])
    assert res.exit_code == 0 and "69 questions x 3 models = 207 tasks" in res.output
    res = runner.invoke(app, ["tasks", str(dataset.root), "--models", "a=openai/x,openai/y"])
    assert "69 questions x a, openai/y = 138 tasks" in res.output
    assert not _cache_env.exists()


def test_tasks_on_a_dataset_with_a_missing_image_fails_clearly(
    runner: CliRunner, dataset: Dataset
) -> None:
    (dataset.root / "images" / "s2_k2.png").unlink()
    res = runner.invoke(app, ["tasks", str(dataset.root)])
    assert res.exit_code == 2
    assert "s2_k2.png" in res.stderr and "cannot read image" in res.stderr


def test_run_protocol_table12_adds_its_tasks(dataset: Dataset, tmp_path: Path) -> None:
    base = ["run", str(dataset.root), "--model", "m=openai/fake@http://127.0.0.1:9/v1",
            "--out", str(tmp_path / "RUN"), "--probes", "L1", "--dry-run",
            "--cache-dir", str(tmp_path / "c")]  # fmt: skip
    plain = CliRunner().invoke(app, base)
    more = CliRunner().invoke(app, [*base, "--protocol", "table12"])
    assert plain.exit_code == 0 and more.exit_code == 0, plain.stderr + more.stderr
    n = [int(re.search(r"model m: (\d+) tasks", r.stdout).group(1)) for r in (plain, more)]  # type: ignore[union-attr]
    assert n[1] == n[0] + 4
    bad = CliRunner().invoke(app, [*base, "--protocol", "table99"])
    assert bad.exit_code == 2 and "table99" in bad.stderr
