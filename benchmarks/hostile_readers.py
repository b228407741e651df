"""Peak memory and time of reading hostile VLMEvalKit prediction files at full size (issue 37):
an ``.xlsx`` of about 0.5 MB holding one 512 MB shared string, and one of 3M rows (a 2-column
sheet, and a compact one whose XML is under the size limit; the default limits of ``forgebench.util.input_limits``). Each file is read in a
fresh process (``read_predictions``); the figures are its wall time and peak RSS, and the one
line it ended with. Before issue 37 these took 2.5 GB, and 3.2 GB and 108 s.

    .venv/bin/python benchmarks/hostile_readers.py [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from support.raw_xlsx import shared_xml, sheet_xml, write_xlsx  # noqa: E402

CHILD = """
import json, sys, time
from pathlib import Path
from forgebench.suites.forensics.predictions import read_predictions
from forgebench.errors import UserError
t = time.perf_counter()
try:
    out = f"read {len(read_predictions(Path(sys.argv[1])))} rows"
except UserError as exc:
    out = f"error: {exc}"
hwm = next(x for x in open("/proc/self/status") if x.startswith("VmHWM"))  # fresh at exec
print(json.dumps({"s": time.perf_counter() - t, "out": out, "rss_mb": int(hwm.split()[1]) / 1024}))
"""


def compact(n: int) -> Iterator[str]:
    """A sheet of ``n`` rows without cell references (the leanest XML: about 50 bytes a row)."""
    yield '<?xml version="1.0"?><worksheet><sheetData><row><c t="s"><v>0</v></c>'
    yield '<c t="s"><v>1</v></c></row>'
    for i in range(n):
        yield f'<row><c><v>{i}</v></c><c t="s"><v>2</v></c></row>'
    yield "</sheetData></worksheet>"


def measure(path: Path) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(path)], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--keep", type=Path, help="write the files here (kept)")
    args = ap.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="hostile-readers-"))
    folder.mkdir(parents=True, exist_ok=True)
    piece = "A" * 2**20
    cases = {
        "one 512 MB shared string": lambda p: write_xlsx(
            p,
            sheet_xml([[0, 1], ["1", 2]]),
            shared_xml(["index", "prediction", (piece for _ in range(512))]),
        ),
        "one 200 MB shared string (under the size limit)": lambda p: write_xlsx(
            p,
            sheet_xml([[0, 1], ["1", 2]]),
            shared_xml(["index", "prediction", (piece for _ in range(200))]),
        ),
        "3M rows": lambda p: write_xlsx(
            p,
            sheet_xml([[0, 1], *(([str(i), 2]) for i in range(3_000_000))]),
            shared_xml(["index", "prediction", "A"]),
        ),
        "3M rows, compact XML (under the size limit)": lambda p: write_xlsx(
            p,
            compact(3_000_000),
            shared_xml(["index", "prediction", "A"]),
        ),
    }
    for name, make in cases.items():
        path = folder / (name.replace(" ", "_") + ".xlsx")
        t = time.perf_counter()
        make(path)
        built = time.perf_counter() - t
        m = measure(path)
        print(f"{name}: file {path.stat().st_size / 1e6:.2f} MB (built in {built:.0f} s); "
              f"read {m['s']:.2f} s, peak RSS {m['rss_mb']:.0f} MB; {m['out']}")  # fmt: skip


if __name__ == "__main__":
    main()
