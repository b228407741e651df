"""Redaction cost against text length: prints seconds per call for adversarial texts.

Usage: ``python benchmarks/redact_scale.py`` (sizes 30k, 300k, 10M characters). The old
backtracking URL pattern took ~5 s at 30k characters and grew with the square of the length.
"""

from __future__ import annotations

import time

from forgebench.util.redact import redact_text

SHAPES = {
    "letters": lambda n: "a" * n,
    "scheme+letters": lambda n: "http://" + "a" * n,
    "'://' repeated": lambda n: "://" * (n // 3),
    "header+spaces": lambda n: "Authorization:" + " " * n,
    "bearer repeated": lambda n: "Bearer " * (n // 7),
}


def main() -> None:
    for n in (30_000, 300_000, 10_000_000):
        for name, make in SHAPES.items():
            text = make(n)
            t0 = time.perf_counter()
            redact_text(text)
            print(f"{n:>10,} chars  {name:<16} {time.perf_counter() - t0:8.3f} s")


if __name__ == "__main__":
    main()
