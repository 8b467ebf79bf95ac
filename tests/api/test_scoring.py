"""api.scoring: scoring runs on threads of its own, under a queue bound and a time budget, off the event loop."""

from __future__ import annotations

import threading
import time

import pytest
from fastapi.testclient import TestClient

import api.scoring as scoring
from scorer.request import score_request
from tests.api.support import error_of, make_app

MCR = {"rules": "mcr", "hand": "[555z]123p789s456m5s+5s", "discarder": "S"}


class Gate:
    """Stands in for the scorer: each call waits until the gate opens (a hand that takes as long as we like)."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.entered = threading.Semaphore(0)
        self.calls = 0

    def __call__(self, obj):
        self.calls += 1
        self.entered.release()
        self.open.wait(10)
        return score_request(obj)


@pytest.fixture
def gate(monkeypatch):
    g = Gate()
    monkeypatch.setattr(scoring, "score_request", g)
    yield g
    g.open.set()


def _post_in_background(client, body):
    out = {}
    thread = threading.Thread(target=lambda: out.setdefault("r", client.post("/v1/score", json=body)), daemon=True)
    thread.start()
    return thread, out


def test_the_event_loop_answers_while_every_scoring_thread_is_held(gate):
    """Two score requests hold both scoring threads; /healthz and /v1/rules are answered meanwhile, and the scores
    arrive once the scorer is let go. Were scoring on the event loop, /healthz would wait for the gate."""
    with TestClient(make_app(None, score_threads=2)) as c:
        held = [_post_in_background(c, MCR) for _ in range(2)]
        for _ in held:
            assert gate.entered.acquire(timeout=5)
        t0 = time.perf_counter()
        assert c.get("/healthz").json() == {"status": "ok"}
        assert c.get("/v1/rules").status_code == 200
        assert time.perf_counter() - t0 < 2.0 and not gate.open.is_set()
        gate.open.set()
        for thread, out in held:
            thread.join(5)
            assert out["r"].status_code == 200 and out["r"].json() == score_request(MCR)


def test_a_request_past_its_budget_is_503_timeout(gate):
    with TestClient(make_app(None, score_seconds=0.3)) as c:
        t0 = time.perf_counter()
        r = c.post("/v1/score", json=MCR)
        assert error_of(r) == (503, "timeout")
        assert 0.3 <= time.perf_counter() - t0 < 3 and r.headers["retry-after"] == "2"
        assert "MJ_SCORE_SECONDS" in r.json()["error"]["message"]


def test_a_full_queue_is_503_busy_at_once(gate):
    with TestClient(make_app(None, score_threads=1, score_queue=1)) as c:
        first = _post_in_background(c, MCR)
        assert gate.entered.acquire(timeout=5)
        second = _post_in_background(c, MCR)  # waits for the thread
        time.sleep(0.2)
        t0 = time.perf_counter()
        r = c.post("/v1/score", json=MCR)
        assert error_of(r) == (503, "busy") and time.perf_counter() - t0 < 1.0
        gate.open.set()
        for thread, out in (first, second):
            thread.join(5)
            assert out["r"].status_code == 200


def test_a_batch_past_its_budget_stops_before_its_next_hand(monkeypatch):
    calls = []

    def slow(obj):
        calls.append(obj)
        time.sleep(0.02)
        return score_request(obj)

    monkeypatch.setattr(scoring, "score_request", slow)
    with TestClient(make_app(None, score_seconds=0.3)) as c:
        r = c.post("/v1/score/batch", json={"hands": [MCR] * 200})
        assert error_of(r) == (503, "timeout")
        time.sleep(0.2)
        assert 5 <= len(calls) < 60  # stopped at the budget, not after 200 hands (4 s)


def test_a_request_that_waited_past_its_budget_is_never_scored(gate):
    with TestClient(make_app(None, score_threads=1, score_seconds=0.3)) as c:
        first = _post_in_background(c, MCR)
        assert gate.entered.acquire(timeout=5)
        assert error_of(c.post("/v1/score", json={**MCR, "discarder": "W"})) == (503, "timeout")
        gate.open.set()
        first[0].join(5)
        time.sleep(0.2)
        assert gate.calls == 1
