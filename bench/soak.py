"""Soak test of the HTTP service: ordinary requests with the hostile ones of issue 29 mixed in, every answer checked.

    python -m bench.soak                              # 20,000 score requests and 500 photos, 2 workers
    python -m bench.soak --scores 2000 --photos 50    # a short run
    python -m bench.soak --detector bench.load:PacedDetector   # photos without shipped weights

It starts ``mjscore serve`` of this checkout on a free loopback port (``bench.load``'s server), then runs at once:
``--score-concurrency`` connections sending score requests, ``--photo-concurrency`` connections sending photos,
a ``/healthz`` probe every 50 ms on a connection of its own, and a reader of the workers' resident memory every
second. One score request in ``--hostile-every`` (10) and one photo in ``--photo-hostile-every`` (5) is hostile
(see ``score_cases`` and ``photo_cases``): ranges blown, huge integers, text/plain, rule sets mixed, batches of
them, broken JSON, bodies over the limit, a head that stalls, a 16-bit RGBA decompression bomb, a JPEG whose header
lies, a 25 MB upload, bodies that stall and clients that hang up mid-body.

The /healthz figure is the client's: on a machine whose cores are shared (load above the core count) it holds the
time the server's processes wait for a core, which no design inside them removes; compare with the same run of
another checkout (``--hostile-every 1000000 --photo-hostile-every 1000000`` for one that falls over on them).

Every answer is checked against what docs/api.md documents for its case (status and error code, the result's
shape); the summary counts answers per case, any that differ, any 5xx, the server's tracebacks and log lines, the
/healthz latency (p50, p99, max) and the memory (after warm-up -> end, growth in %). It exits 1 when an answer
differs, a 5xx came, a traceback was logged, /healthz took 100 ms or more, or the memory grew 10% or more.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.hostile import lying_jpeg, png_zeros
from bench.load import (
    HANDS,
    HealthzProbe,
    free_port,
    http_request,
    multipart,
    photo_bytes,
    start_server,
    stop_server,
    workers_rss,
)

HEALTHZ_LIMIT_MS = 100.0
GROWTH_LIMIT = 0.10
STALL_SECONDS = 2  # MJ_BODY_TIMEOUT_SECONDS and MJ_HEAD_TIMEOUT_SECONDS of the soak's server: a stall costs 2 s


@dataclass(frozen=True)
class Case:
    """One kind of request and the answer docs/api.md gives it: ``status`` and, for an error, its ``code``."""

    name: str
    request: bytes
    status: int
    code: str | None = None
    behaviour: str = "ask"  # ask: send it all and read; hang_up: send part and close; stall: send part and wait


@dataclass
class Tally:
    answers: Counter[tuple[str, int, str | None]] = field(default_factory=Counter)
    wrong: list[str] = field(default_factory=list)
    latencies: dict[str, list[float]] = field(default_factory=dict)
    server_errors: int = 0

    def record(self, case: Case, status: int, code: str | None, seconds: float, problem: str | None) -> None:
        self.answers[(case.name, status, code)] += 1
        self.latencies.setdefault(case.name, []).append(seconds)
        if status >= 500 and not (status == 503 and code in ("busy", "timeout")):
            self.server_errors += 1
        if problem:
            self.wrong.append(f"{case.name}: {problem}")


# --- the cases ---------------------------------------------------------------------------------------------------


def _json(path: str, obj: Any, ctype: str = "application/json") -> bytes:
    return http_request(path, obj if isinstance(obj, bytes) else json.dumps(obj).encode(), ctype)


def score_cases() -> tuple[list[Case], list[Case]]:
    """(ordinary, hostile) score requests."""
    ordinary = [Case(f"score {h['rules']}", _json("/v1/score", h), 200) for h in HANDS]
    ordinary.append(Case("batch of 100", _json("/v1/score/batch", {"hands": HANDS * 10}), 200))
    aotenjou = {"rules": "riichi", "hand": "234m456p34567s99s+8s", "discarder": "S", "options": {"aotenjou": True},
                "riichi": {"riichi": True, "nuki_dora": 10**10}}
    orphans = {"rules": "guangdong", "hand": "19m19p19s1234567z+1m", "self_draw": True, "options": {"cap": 10**9}}
    mcr = {"rules": "mcr", "hand": "[555z]123p789s456m5s+5s", "discarder": "S"}
    fuzhou = {"rules": "fuzhou", "hand": "13m456m789m456p789p99s+2m", "self_draw": True, "fuzhou": {"gold": "2m"}}
    hostile = [
        Case("aotenjou nuki_dora 1e10", _json("/v1/score", aotenjou), 422, "bad_request"),
        Case("guangdong cap 1e9", _json("/v1/score", orphans), 422, "bad_request"),
        Case("honba of 5000 digits", _json("/v1/score", b'{"rules": "riichi", "hand": "234m456p34567s99s+8s", '
                                                        b'"riichi": {"honba": ' + b"9" * 5000 + b"}}"),
             422, "bad_request"),
        Case("text/plain", _json("/v1/score", mcr, "text/plain"), 415, "unsupported_media_type"),
        Case("mcr negative base", _json("/v1/score", {**mcr, "options": {"base_points": -8, "minimum": -1}}),
             422, "bad_request"),
        Case("fuzhou streak 1e7", _json("/v1/score", {**fuzhou, "fuzhou": {"gold": "2m", "dealer_streak": 10**7}}),
             422, "bad_request"),
        Case("guangdong object under fuzhou", _json("/v1/score", {**fuzhou, "guangdong": {"heavenly": True}}),
             422, "bad_request"),
        Case("batch of 1000 hostile", _json("/v1/score/batch", {"hands": [aotenjou, orphans] * 500}), 200),
        Case("not JSON", _json("/v1/score", b'{"rules": "mcr", "hand": '), 400, "bad_request"),
        Case("5 MB body", _json("/v1/score", b" " * 5_000_000 + json.dumps(mcr).encode()), 413, "too_large"),
        Case("hang-up mid-body", _json("/v1/score", json.dumps(mcr).encode() * 100), 0, behaviour="hang_up"),
        Case("stalled head", b"POST /v1/score HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + b"a" * 200, 408, "timeout",
             behaviour="stall"),
    ]
    return ordinary, hostile


def photo_cases(photo: bytes) -> tuple[list[Case], list[Case]]:
    """(ordinary, hostile) photo requests."""
    request = {"rules": "mcr", "self_draw": True}

    def upload(data: bytes) -> bytes:
        body, ctype = multipart(data, request)
        return http_request("/v1/score-photo", body, ctype)

    ordinary = [Case("photo", upload(photo), 200)]
    hostile = [
        Case("16-bit RGBA bomb", upload(png_zeros(9999, 9999, 16, 6)), 413, "image_too_large"),
        Case("lying JPEG 9000x11000", upload(lying_jpeg(9000, 11000)), 400, "bad_image"),
        Case("25 MB upload", upload(b"\xff\xd8\xff" + b"\0" * 25_000_000), 413, "too_large"),
        Case("PDF", upload(b"%PDF-1.4 " + b"0" * 1000), 415, "unsupported_media_type"),
        Case("hang-up mid-upload", upload(photo), 0, behaviour="hang_up"),
        Case("stalled upload", upload(photo), 408, "timeout", behaviour="stall"),
    ]
    return ordinary, hostile


def mixed(ordinary: list[Case], hostile: list[Case], total: int, every: int) -> list[Case]:
    """``total`` cases: each ``every``-th one hostile (in turn), the others ordinary (in turn)."""
    good, bad = itertools.cycle(ordinary), itertools.cycle(hostile)
    return [next(bad) if i % every == every - 1 else next(good) for i in range(total)]


# --- the client --------------------------------------------------------------------------------------------------


async def _response(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], bytes]:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:] if x)}
    body = await reader.readexactly(int(headers.get("content-length", "0")))
    return int(lines[0].split()[1]), headers, body


def check(case: Case, status: int, body: bytes) -> tuple[str | None, str | None]:
    """(the answer's error code, what differs from the documented answer or None)."""
    try:
        answer = json.loads(body)
    except ValueError:
        return None, f"{status} with a body that is not JSON: {body[:80]!r}"
    code = answer["error"]["code"] if isinstance(answer, dict) and answer.get("ok") is False else None
    if (status, code) != (case.status, case.code):
        return code, f"expected {case.status} {case.code}, got {status} {code}: {body[:160]!r}"
    if status != 200:
        return code, None if set(answer) == {"ok", "error"} else f"not the error envelope: {body[:160]!r}"
    results = answer.get("results") or [answer.get("result", answer)]
    for result in results:
        if result.get("ok") and set(result["payments"]) != {"E", "S", "W", "N"}:
            return code, f"payments without the four seats: {result['payments']}"
    return code, None


async def run_cases(port: int, cases: list[Case], concurrency: int, tally: Tally) -> None:
    queue = iter(cases)

    async def worker() -> None:
        conn: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        for case in queue:
            t0 = time.perf_counter()
            if case.behaviour != "ask":
                await _misbehave(port, case, tally, t0)
                continue
            if conn is None:
                conn = await asyncio.open_connection("127.0.0.1", port)
            reader, writer = conn
            try:
                writer.write(case.request)
                status, headers, body = await _response(reader)
            except (ConnectionError, asyncio.IncompleteReadError) as exc:
                tally.record(case, -1, None, time.perf_counter() - t0, f"connection failed: {exc!r}")
                writer.close()
                conn = None
                continue
            code, problem = check(case, status, body)
            tally.record(case, status, code, time.perf_counter() - t0, problem)
            if headers.get("connection") == "close":
                writer.close()
                conn = None
        if conn is not None:
            conn[1].close()

    await asyncio.gather(*(worker() for _ in range(concurrency)))


async def _misbehave(port: int, case: Case, tally: Tally, t0: float) -> None:
    """Send a third of the request, then hang up (no answer expected) or wait for the server to cut it (408)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(case.request[: len(case.request) // 3])
        await writer.drain()
        if case.behaviour == "hang_up":
            await asyncio.sleep(0.05)
            tally.record(case, 0, None, time.perf_counter() - t0, None)
            return
        status, _, body = await asyncio.wait_for(_response(reader), STALL_SECONDS * 5)
        code, problem = check(case, status, body)
        tally.record(case, status, code, time.perf_counter() - t0, problem)
    finally:
        writer.close()


async def sample_memory(master: int, curve: list[float], every: float = 1.0) -> None:
    while True:
        curve.append(workers_rss(master))
        await asyncio.sleep(every)


async def soak(port: int, master: int, scores: list[Case], photos: list[Case], args: argparse.Namespace,
               tally: Tally, healthz: list[float], curve: list[float]) -> None:
    memory = asyncio.create_task(sample_memory(master, curve))
    try:
        with HealthzProbe(port) as probe:
            await asyncio.gather(run_cases(port, scores, args.score_concurrency, tally),
                                 run_cases(port, photos, args.photo_concurrency, tally))
        healthz += probe.latencies
    finally:
        memory.cancel()


# --- main --------------------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--scores", type=int, default=20_000, help="score requests (single hands and batches)")
    p.add_argument("--photos", type=int, default=500, help="photo requests")
    p.add_argument("--score-concurrency", type=int, default=16)
    p.add_argument("--photo-concurrency", type=int, default=4)
    p.add_argument("--hostile-every", type=int, default=10, help="one score request in this many is hostile")
    p.add_argument("--photo-hostile-every", type=int, default=5, help="one photo in this many is hostile")
    p.add_argument("--warm-up", type=float, default=0.2, help="share of the run before the memory baseline")
    p.add_argument("--photo", default=None, help="a photo to send (default: a generated 12 MP JPEG)")
    p.add_argument("--detector", default="", help="MJ_DETECTOR for the server, e.g. bench.load:PacedDetector")
    p.add_argument("--json", default=None, help="write the summary to this file too")
    args = p.parse_args(argv)

    score_ordinary, score_hostile = score_cases()
    photo_ordinary, photo_hostile = photo_cases(photo_bytes(args.photo))
    scores = mixed(score_ordinary, score_hostile, args.scores, args.hostile_every)
    photos = mixed(photo_ordinary, photo_hostile, args.photos, args.photo_hostile_every)

    port = free_port()
    env = {**os.environ, "MJ_BODY_TIMEOUT_SECONDS": str(STALL_SECONDS), "MJ_HEAD_TIMEOUT_SECONDS": str(STALL_SECONDS),
           "MJ_PHOTO_QUEUE_SECONDS": "60"}
    if args.detector:
        env["MJ_DETECTOR"] = args.detector
    log = Path(os.environ.get("TMPDIR", "/tmp")) / f"mjscore-soak-{port}.log"
    print(f"starting mjscore serve --workers {args.workers} on 127.0.0.1:{port} (log: {log})", file=sys.stderr)
    proc = start_server(port, args.workers, env, log)
    tally, healthz, curve = Tally(), [], []
    started = time.perf_counter()
    try:
        asyncio.run(soak(port, proc.pid, scores, photos, args, tally, healthz, curve))
    finally:
        stop_server(proc)
    seconds = time.perf_counter() - started
    summary = summarize(tally, healthz, curve, log, seconds, args)
    text = json.dumps(summary, indent=1, ensure_ascii=False)
    print(text)
    if args.json:
        Path(args.json).write_text(text + "\n")
    return 0 if summary["passed"] else 1


def summarize(tally: Tally, healthz: list[float], curve: list[float], log: Path, seconds: float,
              args: argparse.Namespace) -> dict[str, Any]:
    text = log.read_text(errors="replace")
    lines = [json.loads(x) for x in text.splitlines() if x.startswith('{"request_id"')]
    statuses = Counter(line["status"] for line in lines)
    ordered = sorted(healthz)
    health = {"p50_ms": round(ordered[len(ordered) // 2] * 1000, 1),
              "p99_ms": round(ordered[int(0.99 * (len(ordered) - 1))] * 1000, 1),
              "max_ms": round(ordered[-1] * 1000, 1), "n": len(ordered)} if ordered else {}
    base = curve[int(len(curve) * args.warm_up)] if curve else 0.0
    growth = (curve[-1] - base) / base if base else 0.0
    answers: dict[str, dict[str, int]] = {}
    for (name, status, code), n in sorted(tally.answers.items()):
        answers.setdefault(name, {})[f"{status} {code}" if code else str(status)] = n
    latency = {name: round(statistics.median(v) * 1000, 1) for name, v in tally.latencies.items()}
    passed = (not tally.wrong and not tally.server_errors and "Traceback" not in text
              and health.get("max_ms", 0) < HEALTHZ_LIMIT_MS and growth < GROWTH_LIMIT)
    return {
        "passed": passed, "seconds": round(seconds, 1), "load": os.getloadavg(),
        "requests": sum(tally.answers.values()), "differing": len(tally.wrong), "examples": tally.wrong[:10],
        "server_errors": tally.server_errors, "tracebacks": text.count("Traceback"),
        "server_statuses": {str(k): v for k, v in sorted(statuses.items())}, "log_lines": len(text.splitlines()),
        "healthz": health,
        "memory_mb": {"after_warm_up": round(base, 1), "end": round(curve[-1], 1) if curve else 0.0,
                      "growth_pct": round(100 * growth, 1),
                      "curve": [round(x) for x in curve[:: max(1, len(curve) // 30)]]},
        "answers": answers, "median_ms": latency,
    }


if __name__ == "__main__":
    raise SystemExit(main())
