"""Reading VLMEvalKit prediction files (xlsx, csv, tsv) into replay answers."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from forgebench.suites.forensics.predictions import read_predictions, write_replay
from forgebench.suites.forensics.problems import ForensicsDataError

FRAME = pd.DataFrame(
    {
        "index": [0, 1, 2, 10],
        "question": ["q0", "q1", "q2", "q10"],
        "A": ["AI-generated"] * 4,
        "B": ["non AI-generated"] * 4,
        "answer": ["A", "B", "A", "B"],
        "prediction": ["A", "non AI-generated", None, "I'm sorry, I cannot tell."],
    }
)


@pytest.mark.parametrize("suffix", [".xlsx", ".csv", ".tsv"])
def test_reads_index_and_prediction(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"GPT4o_ForensicsBench{suffix}"
    if suffix == ".xlsx":
        FRAME.to_excel(path, index=False)
    else:
        FRAME.to_csv(path, index=False, sep="\t" if suffix == ".tsv" else ",")
    assert read_predictions(path) == [
        ("0", "A"),
        ("1", "non AI-generated"),
        ("2", ""),
        ("10", "I'm sorry, I cannot tell."),
    ]
    dest = tmp_path / "replay.jsonl"
    assert write_replay(path, dest, model="gpt4o") == 4
    first = json.loads(dest.read_text().splitlines()[0])
    assert first == {
        "item_id": "0",
        "probe": "MCQ",
        "condition": "full",
        "text": "A",
        "model": "gpt4o",
    }


def test_bad_prediction_files(tmp_path: Path) -> None:
    no_pred = tmp_path / "x.csv"
    FRAME.drop(columns=["prediction"]).to_csv(no_pred, index=False)
    with pytest.raises(ForensicsDataError, match="missing column"):
        read_predictions(no_pred)
    dup = tmp_path / "d.csv"
    pd.concat([FRAME, FRAME.iloc[:1]]).to_csv(dup, index=False)
    with pytest.raises(
        ForensicsDataError, match=r"d.csv:6: index: duplicate '0' \(first on row 2\)"
    ):
        read_predictions(dup)
    with pytest.raises(ForensicsDataError, match="expected a VLMEvalKit prediction file"):
        read_predictions(tmp_path / "x.json")
    garbage = tmp_path / "g.xlsx"
    garbage.write_bytes(b"not a zip")
    with pytest.raises(ForensicsDataError, match="cannot read"):
        read_predictions(garbage)
