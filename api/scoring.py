"""Scoring off the event loop: a pool of a few threads of its own, a bounded queue and a time budget per request.

The event loop only moves bytes: a score request's body goes to a scoring thread as it came, and the thread reads
the JSON, checks it, scores it and writes the answer. So however heavy the requests, the loop keeps answering
``/healthz`` and the other connections (given a core, it waits for the GIL one switch interval, 5 ms, at most).

Each hand is bounded (every string and number of a request has a range, ``scorer.request.check_request``), so a
hand takes milliseconds and a batch at most ``MJ_MAX_BATCH`` times that. Beyond that:

- the queue: more than ``MJ_SCORE_QUEUE`` requests waiting for a thread in this worker are answered 503 ``busy``
  at once, with ``Retry-After``;
- the budget: a request not answered within ``MJ_SCORE_SECONDS`` of its arrival is answered 503 ``timeout``. A
  request still waiting for a thread is then dropped; a batch being scored stops before its next hand; a single
  hand, already bounded, runs to its end and its answer is thrown away.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from api.deps import ApiError
from api.jsonio import NotJSON, dumps, loads
from scorer.bounds import shown
from scorer.request import error_object, score_request

log = logging.getLogger(__name__)

T = TypeVar("T")
Answer = tuple[int, bytes]  # (status, JSON body)


class Expired(Exception):
    """The request's time budget ran out before (or while) its work was done."""


class ScorePool:
    """``threads`` scoring threads per process, ``queue`` requests waiting at most, ``budget`` seconds each."""

    def __init__(self, threads: int, queue: int, budget: float, retry_after: int) -> None:
        self.threads = threads
        self.queue = queue
        self.budget = budget
        self.retry_after = retry_after
        self.in_work = 0  # requests handed to the pool and not yet answered
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="score")

    async def run(self, job: Callable[[float], T]) -> T:
        """``job(deadline)`` on a scoring thread (``deadline`` on ``time.monotonic``'s clock)."""
        if self.in_work >= self.threads + self.queue:
            msg = f"{self.in_work} score requests are already in work in this worker; retry in {self.retry_after} s"
            raise ApiError(503, "busy", msg, {"Retry-After": str(self.retry_after)})
        deadline = time.monotonic() + self.budget
        self.in_work += 1
        try:
            async with asyncio.timeout(self.budget):
                return await asyncio.get_running_loop().run_in_executor(self._pool, _within, deadline, job)
        except (TimeoutError, Expired):
            msg = f"scoring took more than its budget of {self.budget:g} s (MJ_SCORE_SECONDS); retry, or send less"
            raise ApiError(503, "timeout", msg, {"Retry-After": str(self.retry_after)}) from None
        finally:
            self.in_work -= 1

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


def _within(deadline: float, job: Callable[[float], T]) -> T:
    if time.monotonic() > deadline:  # waited past its budget: the client has had its 503
        raise Expired
    return job(deadline)


# --- the jobs: bytes in, (status, bytes) out -----------------------------------------------------------------------


def score_body(body: bytes, deadline: float) -> Answer:
    """POST /v1/score: one request object in, its result (200) or error object (4xx) out."""
    try:
        obj = loads(body)
    except NotJSON as exc:
        return 400, dumps(error_object("bad_request", str(exc)))
    answer = score_one(obj)
    if answer["ok"]:
        return 200, dumps(answer)
    return (500 if answer["error"]["code"] == "internal_error" else 422), dumps(answer)


def score_batch_body(body: bytes, deadline: float, max_batch: int) -> Answer:
    """POST /v1/score/batch: ``{"hands": [...]}`` in, one result or error object per hand out, in order (200)."""
    try:
        obj = loads(body)
    except NotJSON as exc:
        return 400, dumps(error_object("bad_request", str(exc)))
    if not isinstance(obj, dict) or not isinstance(obj.get("hands"), list):
        return 422, dumps(error_object("bad_request", 'the body must be {"hands": [request, ...]}'))
    if set(obj) != {"hands"}:
        field = sorted(set(obj) - {"hands"})[0][:40]
        return 422, dumps(error_object("bad_request", f'unknown field {field!r}; the body is {{"hands": [...]}}'))
    hands = obj["hands"]
    if len(hands) > max_batch:
        return 422, dumps(error_object("too_many_hands", f"{len(hands)} hands in one batch; at most {max_batch}"))
    results = []
    for number, hand in enumerate(hands):
        if time.monotonic() > deadline:
            raise Expired
        answer = score_one(hand)
        if not answer["ok"]:
            answer["error"]["message"] = f"hand {number}: {answer['error']['message']}"
        results.append(answer)
    return 200, dumps({"results": results})


def score_one(obj: Any) -> dict[str, Any]:
    """``score_request`` that turns a scorer bug into an error object (logged), so that a batch goes on."""
    try:
        return score_request(obj)
    except Exception:  # a bug in a rule set must not take the other hands of a batch with it
        log.exception("the scorer failed on %s", shown(obj))
        return error_object("internal_error", "the scorer failed on this hand; it has been logged")
