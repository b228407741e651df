"""The README's and the docs' picture of the report, made from the demo's report (``make docs`` runs
this, so a change to the report shows in the picture).

Runs the offline demo into ``demo_out`` where its report is missing (``make demo``'s folder; a
second demo reuses its builds), opens ``demo_out/run/report/index.html`` in Debian's Chromium
through Playwright (``executable_path``: ``playwright install`` is never needed) and writes
``docs/img/report.png``. Where chromium is absent it prints one line and leaves the picture as it
is (``apt-get install chromium`` gives it).

    python docs/screenshot.py [--demo-out DIR] [--out docs/img/report.png]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--demo-out", type=Path, default=ROOT / "demo_out")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "img" / "report.png")
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--height", type=int, default=860)
    args = ap.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print(f"screenshot: skipped, chromium not found; {args.out.name} kept as it is")
        return 0
    report = args.demo_out / "run" / "report" / "index.html"
    if not report.is_file():
        print(f"screenshot: running the demo into {args.demo_out} for its report")
        cmd = [sys.executable, "-m", "forgebench.cli", "demo", "--out", str(args.demo_out)]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    from playwright.sync_api import sync_playwright

    args.out.parent.mkdir(parents=True, exist_ok=True)
    flags = ["--headless", "--no-sandbox", "--disable-gpu"]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=flags, headless=True)
        page = browser.new_page(viewport={"width": args.width, "height": args.height})
        page.goto(report.resolve().as_uri())
        page.wait_for_load_state("networkidle")
        page.screenshot(path=str(args.out))
        browser.close()
    print(
        f"screenshot: {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
