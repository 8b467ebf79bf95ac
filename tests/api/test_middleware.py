"""api.middleware and api.protocols against a real uvicorn server and real sockets: early answers the client can
read, heads and bodies that stall, clients that hang up."""

from __future__ import annotations

import json
import select
import time

import pytest

from tests.api.live import Server, live_server, read_response

MCR = json.dumps({"rules": "mcr", "hand": "[555z]123p789s456m5s+5s", "discarder": "S"}).encode()


@pytest.fixture(scope="module", params=["httptools", "h11"])
def server(request, tmp_path_factory) -> Server:
    with live_server(tmp_path_factory.mktemp("live"), request.param, body_timeout_seconds="0.5",
                     body_max_seconds="2", head_timeout_seconds="1") as s:
        yield s


def _head(path: str, length: int | None, ctype: str, *extra: str) -> bytes:
    lines = [f"POST {path} HTTP/1.1", "Host: 127.0.0.1", f"Content-Type: {ctype}", *extra]
    lines.append(f"Content-Length: {length}" if length is not None else "Transfer-Encoding: chunked")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def _error(response: tuple[int, dict[str, str], bytes]) -> tuple[int, str]:
    status, headers, body = response
    answer = json.loads(body)
    assert answer["ok"] is False and set(answer["error"]) == {"code", "message"}
    return status, answer["error"]["code"]


def _wait_for_log(server: Server, needle: str, seconds: float = 5.0) -> str:
    deadline = time.monotonic() + seconds
    while needle not in server.log_text() and time.monotonic() < deadline:
        time.sleep(0.05)
    return server.log_text()


def test_a_25_mb_upload_gets_a_413_the_client_can_read(server):
    """The whole body is sent, as a phone's HTTP client does before it reads; the answer is there, not a reset."""
    size = 25_000_000
    with server.connect() as sock:
        sock.sendall(_head("/v1/recognize", size, "multipart/form-data; boundary=x"))
        chunk = b"\0" * 1_000_000
        for _ in range(size // len(chunk)):
            sock.sendall(chunk)
        response = read_response(sock)
    assert _error(response) == (413, "too_large")
    assert response[1]["connection"] == "close"


def test_a_streamed_body_over_the_limit_gets_a_readable_413(server):
    """No Content-Length: the body is counted as it arrives; the rest is read and dropped before closing."""
    piece = b"[" + b"1," * 250_000 + b"1]"
    with server.connect() as sock:
        sock.sendall(_head("/v1/score/batch", None, "application/json"))
        for _ in range(12):  # 6 MB against MJ_MAX_JSON_BYTES 4 MB
            sock.sendall(b"%x\r\n" % len(piece) + piece + b"\r\n")
        sock.sendall(b"0\r\n\r\n")
        assert _error(read_response(sock)) == (413, "too_large")


def test_an_early_answer_to_a_client_that_waits_for_100_continue_comes_at_once(server):
    with server.connect() as sock:
        sock.sendall(_head("/v1/recognize", 25_000_000, "multipart/form-data; boundary=x", "Expect: 100-continue"))
        status, headers, body = read_response(sock)  # before any body is sent; no "100 Continue" first
        assert (status, json.loads(body)["error"]["code"]) == (413, "too_large")


def test_a_415_before_the_body_is_read_is_readable_too(server):
    body = MCR * 20_000  # 2 MB of text/plain: refused by its type, then read and dropped
    with server.connect() as sock:
        sock.sendall(_head("/v1/score", len(body), "text/plain") + body)
        assert _error(read_response(sock)) == (415, "unsupported_media_type")


def test_a_body_that_stalls_is_cut_after_the_documented_time(server):
    with server.connect() as sock:
        sock.sendall(_head("/v1/score", 1000, "application/json") + MCR[:10])
        t0 = time.monotonic()
        response = read_response(sock)
        waited = time.monotonic() - t0
        assert _error(response) == (408, "timeout") and 0.4 < waited < 5
        assert "MJ_BODY_TIMEOUT_SECONDS" in json.loads(response[2])["error"]["message"]
        assert sock.recv(10) == b""  # and the connection is closed


def test_a_body_that_trickles_is_cut_after_its_total_time(server):
    with server.connect() as sock:
        sock.sendall(_head("/v1/score", 1000, "application/json"))
        t0 = time.monotonic()
        while not select.select([sock], [], [], 0.2)[0] and time.monotonic() - t0 < 10:
            sock.sendall(b" ")  # a byte every 0.2 s: never idle for MJ_BODY_TIMEOUT_SECONDS (0.5 s)
        response = read_response(sock)
    assert _error(response) == (408, "timeout") and 1.5 < time.monotonic() - t0 < 6
    assert "MJ_BODY_MAX_SECONDS" in json.loads(response[2])["error"]["message"]


@pytest.mark.parametrize(("path", "ctype"), [("/v1/score", "application/json"),
                                             ("/v1/score-photo", "multipart/form-data; boundary=x")])
def test_a_client_that_hangs_up_mid_body_is_logged_as_499(server, path, ctype):
    with server.connect() as sock:
        sock.sendall(_head(path, 100_000, ctype, "X-Request-ID: hangup-" + path.strip("/").replace("/", "-"))
                     + b"--x\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.jpg\"\r\n\r\n" + b"0" * 500)
        time.sleep(0.1)
    rid = "hangup-" + path.strip("/").replace("/", "-")
    log = _wait_for_log(server, f'"request_id":"{rid}"')
    line = next(json.loads(x) for x in log.splitlines() if f'"request_id":"{rid}"' in x)
    assert line["status"] == 499
    assert "Traceback" not in log and "unhandled error" not in log


def _timed_out(sock, since: float) -> float:
    """The head's 408 read from ``sock``, the connection then closed; the seconds it took from ``since``."""
    response = read_response(sock)
    waited = time.monotonic() - since
    assert _error(response) == (408, "timeout") and response[1]["connection"] == "close"
    assert "MJ_HEAD_TIMEOUT_SECONDS" in json.loads(response[2])["error"]["message"]
    assert sock.recv(10) == b""
    return waited


def test_a_client_that_connects_and_sends_nothing_is_answered_408_and_let_go(server):
    t0 = time.monotonic()
    with server.connect() as sock:
        assert 0.9 < _timed_out(sock, t0) < 5
    line = json.loads(next(x for x in _wait_for_log(server, "head_timeout").splitlines() if "head_timeout" in x))
    assert line == {"event": "head_timeout", "status": 408, "seconds": 1.0, "client": "127.0.0.1"}


def test_a_head_that_trickles_is_cut_after_its_time(server):
    """A byte of the head every 0.2 s: the connection is never idle, and still its head must be in within 1 s."""
    head = _head("/v1/score", len(MCR), "application/json")
    with server.connect() as sock:
        t0 = time.monotonic()
        for k in range(len(head)):
            if select.select([sock], [], [], 0.2)[0]:
                break
            sock.sendall(head[k:k + 1])
        assert 0.9 < _timed_out(sock, t0) < 5


def test_the_heads_time_runs_per_request_on_a_connection_kept_alive(server):
    """Two requests on one connection, 0.7 s apart (1.4 s in all, more than the head's 1 s), both answered; a third
    whose head stops half way is answered 408."""
    whole = _head("/v1/score", len(MCR), "application/json") + MCR
    with server.connect() as sock:
        for _ in range(2):
            time.sleep(0.7)
            sock.sendall(whole)
            status, _, body = read_response(sock)
            assert status == 200 and json.loads(body)["total"] == 11
        sock.sendall(whole[:20])
        t0 = time.monotonic()
        assert 0.9 < _timed_out(sock, t0) < 5


def test_the_server_still_scores_after_all_this(server):
    with server.connect() as sock:
        sock.sendall(_head("/v1/score", len(MCR), "application/json") + MCR)
        status, headers, body = read_response(sock)
    assert status == 200 and json.loads(body)["total"] == 11
    assert headers["x-content-type-options"] == "nosniff"


def test_serve_takes_the_head_deadline_with_either_parser():
    from uvicorn.protocols.http.h11_impl import H11Protocol

    from api.protocols import H11HeadDeadline, protocol

    assert protocol("h11") is H11HeadDeadline and issubclass(H11HeadDeadline, H11Protocol)
    assert protocol("auto") is protocol("httptools") and protocol("auto").__name__ == "HttpToolsHeadDeadline"
    with pytest.raises(ValueError, match="auto, httptools, h11"):
        protocol("h2")
