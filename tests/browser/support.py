"""The service run for real (uvicorn on a free port) and Debian's Chromium driven by Playwright, for the page tests.

Chromium is launched from ``MJ_CHROMIUM`` (default ``/usr/bin/chromium``, Debian's package) with Playwright's
``executable_path``: nothing is downloaded. Each run gets a fresh user-data-dir.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path(os.environ.get("MJ_CHROMIUM", "/usr/bin/chromium"))
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# the Content-Security-Policy the page must work under: no inline script or style, no eval, nothing from elsewhere
CSP = "default-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def service(data_dir: Path, token: str, detector: str = "tests.api.support:FakeDetector",
            **env: str) -> Iterator[str]:
    """``mjscore``'s app under uvicorn on a free port, its data in ``data_dir``; yields the base URL."""
    port = free_port()
    environ = {**os.environ, "MJ_DATA_DIR": str(data_dir), "MJ_ANNOTATE_TOKEN": token, "MJ_DETECTOR": detector,
               "MJ_ACCESS_LOG": "false", "YOLO_OFFLINE": "1", **env}
    log = data_dir.parent / "service.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "--factory", "api.main:create_app", "--host",
                                 "127.0.0.1", "--port", str(port)], cwd=ROOT, env=environ, stdout=out,
                                stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(url + "/readyz", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the service did not start:\n{log.read_text()[-3000:]}")
            time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@contextlib.contextmanager
def browser(profile: Path, width: int = 1400, height: int = 900) -> Iterator[Any]:
    """A Chromium context (Playwright's) with a fresh profile, downloads allowed."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(profile), executable_path=str(CHROMIUM), args=ARGS, headless=True, accept_downloads=True,
            viewport={"width": width, "height": height})
        try:
            yield context
        finally:
            context.close()


def with_csp(page: Any) -> None:
    """Serve the page's HTML with ``CSP``, as a strict deployment does."""

    def add(route: Any) -> None:
        response = route.fetch()
        route.fulfill(response=response, headers={**response.headers, "content-security-policy": CSP})

    page.route("**/static/annotate.html*", add)


def open_page(page: Any, url: str, token: str, who: str, dataset: str) -> None:
    """Open the page under ``CSP``, sign in as ``who`` and create ``dataset``."""
    with_csp(page)
    page.goto(url + "/static/annotate.html")
    page.fill("#token", token)
    page.fill("#name", who)
    page.click("#signIn")
    page.wait_for_selector(f"#whoami:has-text('signed in as {who}')")
    page.fill("#newName", dataset)
    page.click("#create")
    page.wait_for_selector(f"#status:has-text('dataset {dataset} created')")
