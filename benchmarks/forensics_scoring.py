"""Time option extraction + scoring for 25 models x 63,292 answers (synthetic, seeded).

    PYTHONPATH=src python benchmarks/forensics_scoring.py [--models 25] [--items 63292]

Answers mix what models write (a bare letter, "B. text", "The answer is C.", option text alone,
"non AI-generated", refusals, two letters, long explanations; a fifth of them unique strings); type codes are drawn from the 112
codes of seed 002. Prints the extraction and the scoring time and the rate. Measured, not asserted.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
import pandas as pd

from forgebench.suites.forensics.extract import extract_batch
from forgebench.suites.forensics.scores import metric_rows

BINARY = {"A": "AI-generated", "B": "non AI-generated"}
FOUR = {"A": "Candidate 1", "B": "Candidate 2", "C": "Candidate 3", "D": "Candidate 4"}
CODES = [
    f"{s}-{m}-{t}-{ty}-{mo}"
    for s in ("HS", "GS")
    for m in ("RGB", "VID", "NIR", "RGB&TXT")
    for t in ("BC", "SLS", "SLD", "TL")
    for ty, mo in (("ES", "DF"), ("FE&FT", "ED&GR"), ("REAL", "REAL"), ("FSS", "ED"))
][:112]


def answers(rng: np.random.Generator, n: int) -> tuple[list[str], list[dict[str, str]], np.ndarray]:
    templates = [
        "{L}",
        "{L}. {T}",
        "The answer is {L}.",
        "{T}",
        "**Answer:** ({L}) {T}",
        "I'm sorry, but I can't determine whether this image has been manipulated.",
        "Either {L} or A could be right.",
        "Looking at the lighting near region {N}, shadows and the texture of the skin, there "
        "are no visible blending artifacts around the face; the reflections agree. So: {L}",
        "Region {N} shows {T} traits.",
    ]
    kinds = rng.integers(0, len(templates), size=n)
    four = rng.random(n) < 0.4
    picks = rng.integers(0, 4, size=n)
    texts, opts = [], []
    for k, f, p in zip(kinds, four, picks, strict=True):
        o = FOUR if f else BINARY
        letter = "ABCD"[p] if f else "AB"[p % 2]
        texts.append(templates[k].format(L=letter, T=o[letter], N=rng.integers(1_000_000)))
        opts.append(o)
    truth = np.where(four, np.array(list("ABCD"))[picks], np.array(list("AB"))[picks % 2])
    return texts, opts, truth


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--models", type=int, default=25)
    ap.add_argument("--items", type=int, default=63292)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    codes = np.array(CODES)[rng.integers(0, len(CODES), size=args.items)]
    frames = []
    t_extract = c_extract = 0.0
    for m in range(args.models):
        texts, opts, truth = answers(rng, args.items)
        t0, c0 = time.perf_counter(), time.process_time()
        letters, steps, _rules = extract_batch(texts, opts)
        t_extract += time.perf_counter() - t0
        c_extract += time.process_time() - c0
        frames.append(
            pd.DataFrame(
                {
                    "model": f"m{m:02d}",
                    "probe": "MCQ",
                    "condition": "full",
                    "item_id": np.arange(args.items).astype(str),
                    "type_code": codes,
                    "letter": letters,
                    "correct": letters == truth,
                    "step": steps,
                    "judge": "",
                }
            )
        )
    frame = pd.concat(frames, ignore_index=True)
    t0, c0 = time.perf_counter(), time.process_time()
    rows = metric_rows(frame)
    t_score, c_score = time.perf_counter() - t0, time.process_time() - c0
    n = len(frame)
    print(f"answers: {n:,} ({args.models} models x {args.items:,} items)")
    print(
        f"extraction: {t_extract:.2f} s wall, {c_extract:.2f} s CPU ({n / t_extract:,.0f} answers/s)"
    )
    print(f"scoring:    {t_score:.2f} s wall, {c_score:.2f} s CPU ({len(rows):,} metric rows)")
    print(f"total:      {t_extract + t_score:.2f} s wall, {c_extract + c_score:.2f} s CPU")
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
