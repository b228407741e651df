"""``vlmevalkit/FILE``: a VLMEvalKit prediction file (xlsx, csv, tsv) as a replay model.

Each row's ``prediction`` answers the item whose id is the row's ``index``, under probe ``MCQ``
and condition ``full`` (the release's questions as asked); :mod:`.predictions` reads the file and
the engine's replay backend answers from it, so ``forgebench run fb --model
gpt4o=vlmevalkit/GPT4o_ForensicsBench.xlsx`` re-scores predictions made elsewhere with our
extraction, metrics and report. A task without a row is an error of that task (never an invented
answer). Registered by the Forensics suite.
"""

from __future__ import annotations

from pathlib import Path

from forgebench.models.replay import ReplayModel, ReplayRow
from forgebench.models.spec import ModelConfig, SpecError
from forgebench.suites.forensics.predictions import read_predictions
from forgebench.suites.forensics.problems import ForensicsDataError


def create(config: ModelConfig) -> ReplayModel:
    """The replay model of a ``vlmevalkit/FILE`` spec (the file is read and checked now)."""
    path = Path(config.parsed.model).expanduser()
    try:
        pairs = read_predictions(path)
    except ForensicsDataError as exc:
        raise SpecError(f"vlmevalkit: {exc}") from None
    rows = [
        (n, ReplayRow(text=text, item_id=index, probe="MCQ", condition="full"))
        for n, (index, text) in enumerate(pairs, start=2)
    ]
    return ReplayModel(config.name, path, rows)
