"""The outer layer of every request (a plain ASGI middleware: cheap on the hot path).

- an id for each request (the client's ``X-Request-ID`` when it is safe, a new one otherwise), echoed in the answer;
- one JSON log line per request, with its status: 499 when the client hung up before its answer, never a 500;
- the body's size: a ``Content-Length`` over the limit is answered 413 before a byte is read, and a body is counted
  while it streams; the time it may take: ``MJ_BODY_TIMEOUT_SECONDS`` for each piece, ``MJ_BODY_MAX_SECONDS`` in
  all (408 beyond);
- an answer sent before the body was read (413, 415 ...) is readable by the client: the rest of the body (up to
  ``DRAIN_BYTES``) is read and thrown away before the connection is closed, instead of resetting it mid-upload;
- the security headers (``api.headers``).
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
import uuid

import orjson
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api import headers
from api.config import Settings
from api.deps import ApiError
from api.errors import error_response

log = logging.getLogger("api")
access = logging.getLogger("api.access")

REQUEST_ID = "X-Request-ID"
PHOTO_PATHS = ("/v1/recognize", "/v1/score-photo")
MULTIPART_SLACK = 1_000_000  # the multipart envelope and the request part, beside the photo itself
DRAIN_BYTES = 64_000_000  # the most of an unread body read and dropped so that an early answer reaches the client
CLIENT_GONE = 499  # nginx's status for a client that closed the connection before its answer
_ID_OK = re.compile(r"[A-Za-z0-9._:-]{1,128}")


def body_limit(path: str, settings: Settings) -> int:
    """The largest body a path takes: a photo upload, a dataset archive, or JSON."""
    if path in PHOTO_PATHS or path.startswith("/v1/datasets/") and path.endswith("/photos"):
        return settings.max_upload_bytes + MULTIPART_SLACK
    if path.startswith("/v1/datasets/") and path.endswith("/import"):
        return settings.max_import_bytes + MULTIPART_SLACK
    return settings.max_json_bytes


class BodyTooLarge(ApiError):
    def __init__(self, limit: int) -> None:
        super().__init__(413, "too_large", f"the body is larger than {limit} bytes")


class BodyTimeout(ApiError):
    def __init__(self, message: str) -> None:
        super().__init__(408, "timeout", message)


class RequestMiddleware:
    """Request id, access log, body size and time limits, early answers drained, security headers."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings
        self.log = settings.access_log

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        rid, declared, has_body, expects_continue = _read_headers(scope["headers"])
        scope.setdefault("state", {})["request_id"] = rid
        path = scope["path"]
        limit = body_limit(path, self.settings)
        body = _Body(receive, limit, self.settings.body_timeout_seconds, self.settings.body_max_seconds, has_body)
        status = 0
        sent = 0
        drain = False

        async def send_with_headers(message: Message) -> None:
            nonlocal status, sent, drain
            if message["type"] == "http.response.start":
                status = message["status"]
                extra = [(b"x-request-id", rid.encode()), *self._security(message)]
                if not body.done:  # answered before the body was read: close after it, reading the rest first
                    extra.append((b"connection", b"close"))
                    drain = not (body.failed or expects_continue)
                message["headers"] = [*message.get("headers", ()), *extra]
            elif message["type"] == "http.response.body":
                sent += len(message.get("body", b""))
                if not message.get("more_body", False):
                    if drain:
                        await send({**message, "more_body": True})
                        await body.drain(DRAIN_BYTES)
                        message = {"type": "http.response.body", "body": b"", "more_body": False}
                    body.answered = True
            await send(message)

        try:
            if declared > limit:  # refused before a byte of the body is read
                msg = f"the body is larger than {limit} bytes"
                await error_response(413, "too_large", msg)(scope, body.receive, send_with_headers)
            else:
                await self.app(scope, body.receive, send_with_headers)
        except ClientDisconnect:
            status = CLIENT_GONE
        except Exception as exc:  # the catch-all: logged with its request id, answered with the error object
            if body.gone:
                status = CLIENT_GONE
            else:
                log.error("unhandled error in %s %s (request %s)", scope["method"], path, rid, exc_info=exc)
                if not status:
                    message = f"internal error; quote request id {rid}"
                    await error_response(500, "internal_error", message)(scope, body.receive, send_with_headers)
                status = status or 500
        finally:
            if body.gone:
                status = CLIENT_GONE
            if self.log:
                self._log(scope, rid, status, sent, started)

    @staticmethod
    def _security(start: Message) -> list[tuple[bytes, bytes]]:
        ctype = b""
        for name, value in start.get("headers", ()):
            name = name.lower()
            if name == b"content-security-policy":  # a page that wrote its own (the docs pages)
                return []
            if name == b"content-type":
                ctype = value
        return headers.STATIC if ctype.startswith(b"text/html") else headers.API

    @staticmethod
    def _log(scope: Scope, rid: str, status: int, sent: int, started: float) -> None:
        if not access.isEnabledFor(logging.INFO):
            return
        client = scope.get("client")
        line = orjson.dumps({
            "request_id": rid,
            "method": scope["method"],
            "path": scope["path"],
            "status": status,
            "ms": round((time.perf_counter() - started) * 1000, 2),
            "bytes": sent,
            "client": client[0] if client else None,
        }).decode()
        # one record made directly: logging.info would look for its caller's file and line, a fifth of the cost
        access.handle(access.makeRecord(access.name, logging.INFO, __file__, 0, line, None, None))


def _read_headers(raw: list[tuple[bytes, bytes]]) -> tuple[str, int, bool, bool]:
    """(request id, declared length, whether a body follows, whether the client waits for 100 Continue)."""
    rid = ""
    declared = 0
    has_body = False
    expects = False
    for name, value in raw:
        if name == b"x-request-id":
            text = value.decode("latin-1")
            if _ID_OK.fullmatch(text):
                rid = text
        elif name == b"content-length":
            declared = int(value) if value.isdigit() else 0
            has_body = has_body or declared > 0
        elif name == b"transfer-encoding":
            has_body = True
        elif name == b"expect":
            expects = value.lower() == b"100-continue"
    return rid or uuid.uuid4().hex, declared, has_body, expects


class _Body:
    """The request body as the app receives it: counted against ``limit``, each piece awaited at most ``idle``
    seconds and the whole at most ``total``; knows whether it was read to its end or the client left."""

    def __init__(self, receive: Receive, limit: int, idle: float, total: float, has_body: bool) -> None:
        self._receive = receive
        self.limit = limit
        self.idle = idle
        self.deadline = time.monotonic() + total
        self.total = total
        self.received = 0
        self.done = not has_body
        self.gone = False  # the client disconnected before its answer was sent
        self.answered = False
        self.failed = False  # too slow: not worth draining

    async def receive(self) -> Message:
        if self.done:  # after the body (e.g. listening for a disconnect): no limit
            message = await self._receive()
        else:
            message = await self._next()
            self.received += len(message.get("body", b""))
            if self.received > self.limit:
                raise BodyTooLarge(self.limit)
        if message["type"] == "http.disconnect":
            self.gone = not self.answered
        elif not message.get("more_body", False):
            self.done = True
        return message

    async def _next(self) -> Message:
        wait = min(self.idle, self.deadline - time.monotonic())
        try:
            async with asyncio.timeout(max(wait, 0)):
                return await self._receive()
        except TimeoutError:
            self.failed = True
            if wait < self.idle:
                msg = f"the body took more than {self.total:g} s in all (MJ_BODY_MAX_SECONDS)"
            else:
                msg = f"the body stalled: no data for {self.idle:g} s (MJ_BODY_TIMEOUT_SECONDS)"
            raise BodyTimeout(msg) from None

    async def drain(self, most: int) -> None:
        """Read and drop the rest of the body (at most ``most`` bytes, within the body's time limits); a client that
        closes meanwhile has had its answer (it is sent before), so it is not counted as gone."""
        dropped = 0
        try:
            while not (self.done or self.gone) and dropped <= most:
                message = await self._next()
                dropped += len(message.get("body", b""))
                if message["type"] == "http.disconnect" or not message.get("more_body", False):
                    return
        except BodyTimeout:
            return

