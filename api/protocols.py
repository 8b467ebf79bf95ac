"""uvicorn's HTTP/1.1 protocols with a deadline for each request's head (its request line and headers).

uvicorn reads a request's head for as long as the client takes: a client that connects and sends nothing, or sends
its headers a byte every few seconds, holds a connection (and a file descriptor) for good, and a few hundred of them
leave nothing for anyone else. Here a request's head must arrive whole within ``MJ_HEAD_TIMEOUT_SECONDS`` of the
connection being made, or of its first byte on a connection kept alive; otherwise the client is answered 408
``timeout`` (the contract's error object), the connection is closed and a log line says so (``"event":
"head_timeout"``). Once the head is in, the body's own limits hold (``api.middleware``).

``protocol("auto" | "httptools" | "h11")`` gives the class to pass to uvicorn (``mjscore serve --http``); "auto" is
httptools where it is installed, as uvicorn's own choice is. The classes are module-level, so that uvicorn's worker
processes can be given them, and read the deadline from the service's settings (the environment) in each process.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import logging
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from api.config import get_settings

log = logging.getLogger("api")


def head_answer(seconds: float) -> bytes:
    """The whole 408 answer, bytes on the wire: the contract's error object, and the connection closed."""
    body = json.dumps({"ok": False, "error": {
        "code": "timeout",
        "message": f"the request's line and headers did not arrive within {seconds:g} s (MJ_HEAD_TIMEOUT_SECONDS)",
    }}).encode()
    return (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
            b"content-length: %d\r\nconnection: close\r\nx-content-type-options: nosniff\r\n\r\n" % len(body)) + body


class _HeadDeadline:
    """The deadline, for either protocol: armed when the connection is made and when a new request begins, put off
    when its head is complete, answered with ``head_answer`` when it passes first."""

    loop: asyncio.AbstractEventLoop
    transport: asyncio.Transport
    client: tuple[str, int] | None
    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        self._head_seconds = get_settings().head_timeout_seconds
        self._head_begun()

    def connection_lost(self, exc: Exception | None) -> None:
        self._head_done()
        super().connection_lost(exc)  # type: ignore[misc]

    def _head_begun(self) -> None:
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(self._head_seconds, self._head_late)

    def _head_done(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_late(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing():
            self.transport.write(head_answer(self._head_seconds))
            self.transport.close()
            log.info(json.dumps({"event": "head_timeout", "status": 408, "seconds": self._head_seconds,
                                 "client": self.client[0] if self.client else None}))


class H11HeadDeadline(_HeadDeadline, H11Protocol):
    """uvicorn's pure-Python protocol (h11), with the head's deadline: h11 leaves the client's state IDLE until a
    whole head has been read."""

    def data_received(self, data: bytes) -> None:
        if self.conn.their_state is h11.IDLE:
            self._head_begun()  # the first bytes of a request on a connection kept alive
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._head_done()


HTTPTOOLS: type[Any] | None = None  # the protocol on httptools, where it is installed (uvicorn[standard])
if importlib.util.find_spec("httptools") is not None:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class HttpToolsHeadDeadline(_HeadDeadline, HttpToolsProtocol):
        """uvicorn's protocol on httptools (the C parser), with the head's deadline: from the parser's callbacks."""

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._head_begun()

        def on_headers_complete(self) -> None:
            self._head_done()
            super().on_headers_complete()

    HTTPTOOLS = HttpToolsHeadDeadline

IMPLEMENTATIONS = ("auto", "httptools", "h11")


def protocol(http: str = "auto") -> type[Any]:
    """The protocol class for ``http``, one of ``IMPLEMENTATIONS``; "httptools" raises ImportError where it is not
    installed."""
    if http not in IMPLEMENTATIONS:
        msg = f"unknown HTTP implementation {http!r}: {', '.join(IMPLEMENTATIONS)}"
        raise ValueError(msg)
    if http == "h11" or (http == "auto" and HTTPTOOLS is None):
        return H11HeadDeadline
    if HTTPTOOLS is None:
        msg = "httptools is not installed (pip install 'uvicorn[standard]')"
        raise ImportError(msg)
    return HTTPTOOLS
