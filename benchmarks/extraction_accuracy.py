"""How well each extraction mode reads the labelled corpus of free-form answers.

    PYTHONPATH=src python benchmarks/extraction_accuracy.py [--split all|dev|held|fresh]
        [--no-embed] [--json FILE]

The corpus (``tests/suites/forensics/data/extraction_corpus.jsonl``) holds answers in the kinds
real VLMs write, each with its question, options and the letter a person reads (or ``Z``), and a
``split``: ``dev`` (what the rules were developed on), ``held`` (kept aside while developing),
``fresh``, ``fresh2``, ``fresh3`` (batches written after the rules, each scored once before any change). For each mode, per style and
overall: accuracy, wrong-letter rate and Z rate (percent of the answers):

- ``rules``: :func:`forgebench.suites.forensics.extract.extract_option`;
- ``rules+embed``: then ``builtin/embed`` on what the rules leave undecided (needs the ``text``
  extra; the model loads in about 11 s);
- ``release-rules``: the release's literal rule (:mod:`forgebench.suites.forensics.release_match`).

Prints a table and, with ``--json``, writes the same figures as JSON. Measured, not asserted.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from forgebench.suites.forensics.extract import extract_option
from forgebench.suites.forensics.extract_chain import undecided
from forgebench.suites.forensics.release_match import release_rules

CORPUS = Path(__file__).resolve().parents[1] / "tests/suites/forensics/data/extraction_corpus.jsonl"


def _rules(row: dict[str, Any]) -> str:
    return extract_option(row["answer"], row["options"], row["question"]).letter


def _rules_embed(row: dict[str, Any]) -> str:
    from forgebench.suites.forensics.embed_extract import choose

    got = extract_option(row["answer"], row["options"], row["question"])
    if not undecided(got):
        return got.letter
    return choose(row["answer"], row["options"]).letter


def _release(row: dict[str, Any]) -> str:
    return release_rules(row["answer"], row["options"]).letter


def score(rows: list[dict[str, Any]], letters: list[str]) -> dict[str, Any]:
    """Per style and overall: n, accuracy, wrong-letter rate, Z rate (percentages)."""
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for row, got in zip(rows, letters, strict=True):
        for key in (row["style"], "ALL"):
            t = tally[key]
            t[0] += 1
            t[1] += got == row["expected"]
            t[2] += got not in ("Z", row["expected"])
            t[3] += got == "Z"
    return {
        k: {"n": n, "accuracy": 100 * r / n, "wrong": 100 * w / n, "z": 100 * z / n}
        for k, (n, r, w, z) in sorted(tally.items(), key=lambda kv: (kv[0] == "ALL", kv[0]))
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--split", default="all", choices=["all", "dev", "held", "fresh", "fresh2", "fresh3"]
    )
    ap.add_argument("--no-embed", action="store_true", help="skip rules+embed")
    ap.add_argument("--json", type=Path, help="also write the figures here as JSON")
    args = ap.parse_args()
    rows = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]
    rows = [r for r in rows if args.split == "all" or r["split"] == args.split]
    modes: dict[str, Callable[[dict[str, Any]], str]] = {"rules": _rules}
    if not args.no_embed:
        modes["rules+embed"] = _rules_embed
    modes["release-rules"] = _release
    out: dict[str, Any] = {"split": args.split, "answers": len(rows), "modes": {}}
    letters: dict[str, list[str]] = {}
    for name, read in modes.items():
        t0 = time.perf_counter()
        letters[name] = [read(r) for r in rows]
        out["modes"][name] = score(rows, letters[name])
        out["modes"][name]["ALL"]["seconds"] = round(time.perf_counter() - t0, 2)
    pairs = zip(letters["rules"], letters["release-rules"], strict=True)
    both = [(a, b) for a, b in pairs if "Z" not in (a, b)]
    out["agreement_rules_release"] = {
        "both_decided": len(both),
        "agree": 100 * sum(a == b for a, b in both) / len(both) if both else None,
    }
    styles = list(out["modes"]["rules"])
    head = f"{'style':26} {'n':>4}" + "".join(f" | {m:^23}" for m in modes)
    print(head)
    print(f"{'':26} {'':>4}" + " | acc%   wrong%  Z%     " * len(modes))
    for st in styles:
        line = f"{st:26} {out['modes']['rules'][st]['n']:>4}"
        for m in modes:
            f = out["modes"][m][st]
            line += f" | {f['accuracy']:5.1f}  {f['wrong']:5.1f}  {f['z']:5.1f} "
        print(line)
    print(json.dumps({m: out["modes"][m]["ALL"] for m in modes}))
    print("rules vs release-rules where both read a letter:", out["agreement_rules_release"])
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
