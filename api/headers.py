"""Security headers: every answer gets ``nosniff`` and may not be framed; the pages get a Content Security Policy.

The static pages (the annotation page) get ``STATIC``: everything from this origin only, no inline code, no
``eval``, no plugin, no framing by any other page (``frame-ancestors 'none'``, clickjacking); the page is written
for it and tested under it in a browser (tests/browser). The docs pages, which Swagger UI and ReDoc write with an
inline script, get ``page_policy``: their inline scripts allowed by their SHA-256 hash (no ``'unsafe-inline'``
script), inline styles, images from ``data:``, ReDoc's ``blob:`` worker. JSON answers get ``default-src 'none'``.
"""

from __future__ import annotations

import base64
import hashlib
import re

_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.S | re.I)

COMMON = [(b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY"),
          (b"referrer-policy", b"no-referrer")]
API = [*COMMON, (b"content-security-policy", b"default-src 'none'; frame-ancestors 'none'")]
STATIC = [*COMMON, (b"content-security-policy",
                    b"default-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")]


def page_policy(html: str) -> str:
    """The Content Security Policy of a docs page: its inline scripts allowed by hash, nothing else inline but
    styles.

    >>> page_policy("<p>hi</p><script>go()</script>").split("; ")[1]
    "script-src 'self' 'sha256-5KYv+PUboo5h+0+YAtGRPbwv5d/QxzHslP4YGnUaxRw='"
    """
    hashes = " ".join(f"'sha256-{_digest(body)}'" for body in _SCRIPT.findall(html))
    return "; ".join([
        "default-src 'self'", f"script-src 'self' {hashes}".rstrip(), "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:", "connect-src 'self'", "worker-src 'self' blob:", "font-src 'self' data:",
        "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
    ])


def page_headers(html: str) -> dict[str, str]:
    """The headers of an HTML answer built by the service (``/docs``, ``/redoc``)."""
    return {"content-security-policy": page_policy(html),
            **{name.decode(): value.decode() for name, value in COMMON}}


def _digest(text: str) -> str:
    return base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
