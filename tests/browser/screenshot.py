"""The README's picture of the annotation page: the service with the shipped detector, one photo loaded.

    python -m tests.browser.screenshot PHOTO docs/annotate.png

It starts the service on a free port with a throw-away data folder, signs in, makes a dataset, adds PHOTO (the
detector labels it), selects a box, and saves a 1400 x 860 screenshot as a palette PNG.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
from pathlib import Path

from PIL import Image

from tests.browser.support import browser, open_page, service

TOKEN = "screenshot-token-0123456789"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("photo", type=Path)
    parser.add_argument("out", type=Path)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        with service(folder / "data", TOKEN, detector="") as url, browser(folder / "profile", 1400, 860) as context:
            page = context.new_page()
            open_page(page, url, TOKEN, "ana", "my-set")
            page.set_input_files("#files", [str(args.photo)])
            page.wait_for_selector("#status:has-text('added')", timeout=120_000)
            page.wait_for_selector("#reading:has-text('boxes read')")
            page.locator("#stage").focus()
            for _ in range(3):
                page.keyboard.press("Tab")
            page.wait_for_timeout(300)
            png = page.screenshot()
    img = Image.open(io.BytesIO(png)).convert("RGB").quantize(colors=128, method=Image.Quantize.MEDIANCUT)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    img.save(args.out, optimize=True)
    sys.stderr.write(f"{args.out}: {args.out.stat().st_size} bytes\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
