"""Load test of the HTTP service on loopback: ``mjscore serve --workers N``, then bounded bursts of requests.

    python -m bench.load                       # /v1/score x 10,000 and /v1/score-photo x 200, 2 workers
    python -m bench.load --requests 20000 --concurrency 64 --photos 500 --json out.json
    python -m bench.load --detector bench.load:PacedDetector   # photos without shipped weights (see below)
    python -m bench.load --reference ../old --rounds 5 --concurrency 16   # this checkout against another one

It starts the server itself (``python -m api.cli serve`` in this checkout) on 127.0.0.1 (a free port), waits for
/healthz, reads the workers' resident memory
from /proc, and drives the load with a small keep-alive HTTP/1.1 client on asyncio (one connection per
concurrent caller; cheaper than httpx, so that the client takes less of the machine's CPU from the server).
Every phase is bounded in requests and in seconds, and the server is stopped at the end. Loopback only.

Reported per phase: requests, errors (any status other than the expected), requests per second, latency p50,
p90, p99, max, the summed RSS of the workers before, between the ten parts of the phase, and after, and the
latency of ``/healthz`` asked every 50 ms on a connection of its own while the phase runs (its p50, p99, max).
With ``--photo`` (or the generated photo) and the shipped weights, the detector's own time per photo is measured
in this process first (median of ``--detector-runs``), to set the service's share of a photo's time beside it.

``--reference DIR`` compares /v1/score with another checkout (e.g. ``git worktree add ../old main``): ``--rounds``
rounds, each starting this checkout's server and the reference's in turn (the same client, port, settings and
requests), and prints the medians of both and their ratios (this / reference). When
Debian's ``wrk`` is installed (``apt-get install wrk``), it drives /v1/score instead (``--client``): ten runs of
``--wrk-seconds`` each, its percentiles those of the median run (and the worst run's p99).

With no detector weights in models/ the photo phase is skipped (the service answers 503 there, by design)
unless ``--detector`` names another one: ``bench.load:PacedDetector`` decodes the photo as the real detector
does and then waits ``MJ_BENCH_DETECT_MS`` (default 150) ms, which measures the service's own photo path
(upload checks, thread hand-off, concurrency bound) at a known detector speed.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

HANDS = [  # valid hands of three rule sets, so that the scorer does real and varied work
    {"rules": "mcr", "hand": "[555z]123p789s456m5s+5s", "discarder": "S"},
    {"rules": "mcr", "hand": "234m456p34567s99s+8s", "self_draw": True},
    {"rules": "mcr", "hand": "11m22m33m44m55m66m7m+7m", "discarder": "W"},
    {"rules": "mcr", "hand": "19m19p19s1234567z+1m", "self_draw": True},
    {"rules": "mcr", "hand": "[123m][456m]789m11p99s+9s", "discarder": "N"},
    {"rules": "mcr", "hand": "123m123m123m456p5p+5p", "self_draw": True},
    {"rules": "riichi", "hand": "234m456p34567s99s+8s", "discarder": "S", "riichi": {"riichi": True}},
    {"rules": "riichi", "hand": "123m456m789m11p23s+4s", "self_draw": True},
    {"rules": "guangdong", "hand": "234m456p34567s99s+8s", "self_draw": True},
    {"rules": "guangdong", "hand": "19m19p19s1234567z+1m", "self_draw": True},
]


class PacedDetector:
    """A stand-in detector for load tests: decodes the photo like the real one, then takes a fixed time."""

    def __init__(self) -> None:
        self.seconds = float(os.environ.get("MJ_BENCH_DETECT_MS", "150")) / 1000

    def detect(self, image: Any) -> list[Any]:
        from vision.detection import Detection
        from vision.image import load_image

        rgb, scale = load_image(image, 2048)
        time.sleep(self.seconds)
        h, w = rgb.shape[:2]
        tiles = ["2m", "3m", "4m", "4p", "5p", "6p", "3s", "4s", "5s", "6s", "7s", "9s", "9s", "8s"]
        step = w / (len(tiles) + 2)
        return [Detection(t, 0.9, (((i + (i == 13)) * step) / scale, h * 0.4 / scale,
                                   ((i + (i == 13)) * step + step * 0.9) / scale, h * 0.6 / scale))
                for i, t in enumerate(tiles)]


# --- the client --------------------------------------------------------------------------------------------------


@dataclass
class Phase:
    name: str
    requests: int = 0
    errors: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    seconds: float = 0.0
    rss_before_mb: float = 0.0
    rss_after_mb: float = 0.0
    rss_curve_mb: list[float] = field(default_factory=list)
    note: str = ""
    client: str = "python"
    wrk_percentiles: dict[str, list[float]] = field(default_factory=dict)
    healthz: list[float] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        lat = sorted(self.latencies)

        def pct(p: float) -> float:
            if self.wrk_percentiles:  # wrk's own percentiles, one per run: the median run's
                values = self.wrk_percentiles.get(str(int(p * 100)), [])
                return round(statistics.median(values), 2) if values else 0.0
            return round(lat[min(len(lat) - 1, int(p * len(lat)))] * 1000, 2) if lat else 0.0

        return {
            "phase": self.name, "client": self.client, "requests": self.requests, "errors": self.errors,
            "statuses": {str(k): v for k, v in sorted(self.statuses.items())},
            "seconds": round(self.seconds, 2),
            "rps": round(self.requests / self.seconds, 1) if self.seconds else 0.0,
            "p50_ms": pct(0.50), "p90_ms": pct(0.90), "p99_ms": pct(0.99),
            "max_ms": round(lat[-1] * 1000, 2) if lat else None,
            "p99_worst_run_ms": round(max(self.wrk_percentiles["99"]), 2) if "99" in self.wrk_percentiles else None,
            "mean_ms": round(statistics.fmean(lat) * 1000, 2) if lat else 0.0,
            "rss_before_mb": round(self.rss_before_mb, 1), "rss_after_mb": round(self.rss_after_mb, 1),
            "rss_curve_mb": [round(x, 1) for x in self.rss_curve_mb], "note": self.note,
            "healthz_ms": _percentiles(self.healthz),
        }


def _percentiles(values: list[float]) -> dict[str, float]:
    """p50, p99 and max of latencies in seconds, in milliseconds."""
    if not values:
        return {}
    ordered = sorted(values)
    return {"p50": round(ordered[len(ordered) // 2] * 1000, 2),
            "p99": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] * 1000, 2),
            "max": round(ordered[-1] * 1000, 2), "n": len(ordered)}


def http_request(path: str, body: bytes, content_type: str) -> bytes:
    return (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {content_type}\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode() + body


async def _read_response(reader: asyncio.StreamReader) -> int:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = int(lines[0].split()[1])
    length = 0
    for line in lines[1:]:
        if line[:15].lower() == b"content-length:":
            length = int(line[15:])
    if length:
        await reader.readexactly(length)
    return status


async def drive(port: int, requests: list[bytes], total: int, concurrency: int, deadline: float, phase: Phase,
                expected: frozenset[int] = frozenset({200})) -> None:
    """Send ``total`` requests (cycling through ``requests``) over ``concurrency`` keep-alive connections."""
    counter = iter(range(total))
    started = time.perf_counter()

    async def worker() -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            for i in counter:
                if time.perf_counter() > deadline:
                    phase.note = "stopped at the time limit"
                    return
                t0 = time.perf_counter()
                writer.write(requests[i % len(requests)])
                try:
                    status = await _read_response(reader)
                except (asyncio.IncompleteReadError, ConnectionError):
                    phase.errors += 1
                    phase.requests += 1
                    writer.close()
                    reader, writer = await asyncio.open_connection("127.0.0.1", port)
                    continue
                phase.latencies.append(time.perf_counter() - t0)
                phase.requests += 1
                phase.statuses[status] = phase.statuses.get(status, 0) + 1
                if status not in expected:
                    phase.errors += 1
        finally:
            writer.close()

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    phase.seconds += time.perf_counter() - started


HEALTHZ = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


class HealthzProbe:
    """GET /healthz every ``every`` seconds on a connection of its own, from a process of its own (so that the
    load client's own work does not count), while the ``with`` block runs; ``latencies`` in seconds after it."""

    def __init__(self, port: int, every: float = 0.05) -> None:
        self.port = port
        self.every = every
        self.latencies: list[float] = []

    def __enter__(self) -> HealthzProbe:
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        self._stop = context.Event()
        self._ours, theirs = context.Pipe()
        self._proc = context.Process(target=_probe, args=(self.port, self.every, self._stop, theirs), daemon=True)
        self._proc.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._ours.poll(30):
            self.latencies = self._ours.recv()
        self._proc.join(10)


def _probe(port: int, every: float, stop: Any, pipe: Any) -> None:
    latencies: list[float] = []
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        reader = sock.makefile("rb")
        while not stop.wait(every):
            t0 = time.perf_counter()
            sock.sendall(HEALTHZ)
            length = 0
            while (line := reader.readline()) not in (b"\r\n", b""):
                if line[:15].lower() == b"content-length:":
                    length = int(line[15:])
            reader.read(length)
            latencies.append(time.perf_counter() - t0)
    pipe.send(latencies)


_WRK_LUA = """
local bodies = {%(bodies)s}
local i = 0
request = function()
  i = i + 1
  return wrk.format("POST", "%(path)s", {["Content-Type"] = "application/json"}, bodies[(i %% #bodies) + 1])
end
"""


def _ms(text: str) -> float:
    for unit, k in (("us", 0.001), ("ms", 1.0), ("s", 1000.0), ("m", 60_000.0)):
        if text.endswith(unit):
            return float(text[: -len(unit)]) * k
    return float(text)


def drive_wrk(port: int, path: str, bodies: list[bytes], concurrency: int, seconds: float, phase: Phase) -> None:
    """wrk for ``seconds`` (one thread, ``concurrency`` keep-alive connections); wrk runs for a time, not a count."""
    import re
    import tempfile

    lua = _WRK_LUA % {"bodies": ", ".join(json.dumps(b.decode()) for b in bodies), "path": path}
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(lua)
    try:
        out = subprocess.run(["wrk", "-t1", f"-c{concurrency}", f"-d{max(1, int(seconds))}s", "--latency", "-s",
                              f.name, f"http://127.0.0.1:{port}{path}"], capture_output=True, text=True,
                             timeout=seconds + 30).stdout
    finally:
        os.unlink(f.name)
    done = re.search(r"(\d+) requests in ([\d.]+)(\w+)", out)
    if not done:
        raise SystemExit(f"cannot read wrk's output:\n{out}")
    n = int(done.group(1))
    phase.requests += n
    phase.seconds += _ms(done.group(2) + done.group(3)) / 1000
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = int(bad.group(1)) if bad else 0
    socket_errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    if socket_errors:
        errors += sum(int(x) for x in socket_errors.groups())
    phase.errors += errors
    phase.statuses[200] = phase.statuses.get(200, 0) + n - errors
    for pct, value in re.findall(r"^\s+(50|75|90|99)%\s+(\S+)", out, re.M):
        phase.wrk_percentiles.setdefault(pct, []).append(_ms(value))
    phase.client = "wrk"


def measured(port: int, master: int, requests: list[bytes], total: int, concurrency: int, seconds: float,
             phase: Phase, chunks: int = 10, wrk_bodies: list[bytes] | None = None, wrk_seconds: int = 2) -> Phase:
    """``drive`` in ``chunks`` parts, the workers' RSS read before, between and after (the memory curve).

    With ``wrk_bodies``, each part is wrk for ``wrk_seconds`` instead of ``total / chunks`` requests."""
    deadline = time.perf_counter() + seconds
    phase.rss_before_mb = workers_rss(master)
    done = 0
    with HealthzProbe(port) as probe:
        for k in range(chunks):
            part = total * (k + 1) // chunks - done
            if wrk_bodies is not None:
                drive_wrk(port, "/v1/score", wrk_bodies, concurrency, wrk_seconds, phase)
            else:
                asyncio.run(drive(port, requests, part, concurrency, deadline, phase))
            done += part
            phase.rss_curve_mb.append(workers_rss(master))
    phase.healthz = probe.latencies
    phase.rss_after_mb = phase.rss_curve_mb[-1]
    return phase


# --- the server --------------------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def children(pid: int) -> list[int]:
    out: list[int] = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            text = (task / "children").read_text().split()
            out += [int(c) for c in text]
    except OSError:
        pass
    return out


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def workers_cpu(master: int) -> float:
    """CPU seconds (user and system) the server's workers have used so far."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in children(master):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


def workers_rss(master: int) -> float:
    """Summed RSS of the server's worker processes (uvicorn's children, not the supervisor)."""
    pids = [p for p in children(master) if "resource_tracker" not in _cmdline(p)]
    return sum(rss_mb(p) for p in pids)


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def get(port: int, path: str) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def start_server(port: int, workers: int, env: dict[str, str], log: Path, root: Path = ROOT) -> subprocess.Popen[bytes]:
    """``mjscore serve`` of the checkout at ``root`` (run as ``python -m api.cli`` there, so its own code serves)."""
    cmd = [sys.executable, "-m", "api.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
           "--workers", str(workers)]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.time() + 180
    while time.time() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server stopped at start-up; see {log}")
        try:
            if get(port, "/healthz")[0] == 200 and len(children(proc.pid)) >= workers:
                return proc
        except OSError:
            pass
        time.sleep(0.5)
    stop_server(proc)
    raise SystemExit(f"the server did not answer /healthz within 180 s; see {log}")


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)  # the group of the server this script started, and only that
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(5)


def photo_bytes(path: str | None) -> bytes:
    if path:
        return Path(path).read_bytes()
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (3024, 4032), (30, 110, 60))  # a phone-sized JPEG with tile-like shapes
    draw = ImageDraw.Draw(img)
    for i in range(14):
        x = 150 + i * 190 + (60 if i == 13 else 0)
        draw.rectangle([x, 1800, x + 170, 2050], fill=(240, 240, 230), outline=(20, 20, 20), width=6)
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=90)
    return buf.getvalue()


def multipart(photo: bytes, request: dict[str, Any]) -> tuple[bytes, str]:
    boundary = "mjscorebench0123456789"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"hand.jpg\"\r\n"
            f"Content-Type: image/jpeg\r\n\r\n").encode() + photo + (
        f"\r\n--{boundary}\r\nContent-Disposition: form-data; name=\"request\"\r\n\r\n"
        f"{json.dumps(request)}\r\n--{boundary}--\r\n").encode()
    return body, f"multipart/form-data; boundary={boundary}"


# --- main --------------------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--requests", type=int, default=10_000, help="/v1/score requests in the measured phase")
    p.add_argument("--concurrency", type=int, default=32, help="concurrent connections for /v1/score")
    p.add_argument("--client", choices=("auto", "wrk", "python"), default="auto",
                   help="/v1/score load from wrk (Debian's package; auto: when installed) or the asyncio client")
    p.add_argument("--wrk-seconds", type=int, default=2, help="length of each of the 10 wrk runs")
    p.add_argument("--photos", type=int, default=200, help="/v1/score-photo requests")
    p.add_argument("--photo-concurrency", type=int, default=4)
    p.add_argument("--photo-warmup", type=int, default=40, help="photos sent before the memory is read")
    p.add_argument("--photo", default=None, help="a photo to send (default: a generated 12 MP JPEG)")
    p.add_argument("--detector", default="", help="MJ_DETECTOR for the server, e.g. bench.load:PacedDetector")
    p.add_argument("--max-seconds", type=float, default=300, help="time limit of each phase")
    p.add_argument("--no-access-log", action="store_true", help="turn the per-request log line off")
    p.add_argument("--detector-runs", type=int, default=10, help="photos the detector reads alone first (0: none)")
    p.add_argument("--reference", default=None, help="another checkout: compare /v1/score with it, round by round")
    p.add_argument("--rounds", type=int, default=5, help="rounds of --reference (each starts both servers)")
    p.add_argument("--json", default=None, help="write the results to this file too")
    args = p.parse_args(argv)
    if args.reference:
        return _finish(compare(args), args.json)

    port = free_port()
    env = {**os.environ, "MJ_LOG_LEVEL": "WARNING" if args.no_access_log else "INFO",
           "MJ_ACCESS_LOG": "false" if args.no_access_log else "true",
           "MJ_PHOTO_QUEUE_SECONDS": "60"}
    if args.detector:
        env["MJ_DETECTOR"] = args.detector
    log = Path(os.environ.get("TMPDIR", "/tmp")) / f"mjscore-load-{port}.log"
    print(f"starting mjscore serve --workers {args.workers} on 127.0.0.1:{port} (log: {log})", file=sys.stderr)
    t0 = time.perf_counter()
    proc = start_server(port, args.workers, env, log)
    print(f"up in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    results: dict[str, Any] = {"workers": args.workers, "cpus": os.cpu_count(), "load": os.getloadavg(),
                               "phases": []}
    try:
        ready_status, ready = get(port, "/readyz")
        results["readyz"] = {"status": ready_status, **ready}
        score_reqs = [http_request("/v1/score", json.dumps(h).encode(), "application/json") for h in HANDS]

        warm = Phase("warm-up /v1/score")
        asyncio.run(drive(port, score_reqs, 1000, args.concurrency, time.perf_counter() + 60, warm))
        use_wrk = args.client == "wrk" or (args.client == "auto" and shutil.which("wrk"))
        bodies = [json.dumps(h).encode() for h in HANDS] if use_wrk else None
        what = f"wrk 10 x {args.wrk_seconds} s" if use_wrk else f"x{args.requests}"
        for label in ("", " again (memory flat?)"):
            phase = measured(port, proc.pid, score_reqs, args.requests, args.concurrency, args.max_seconds,
                             Phase(f"/v1/score {what}, {args.concurrency} connections{label}"),
                             wrk_bodies=bodies, wrk_seconds=args.wrk_seconds)
            results["phases"].append(phase.summary())
            _print(phase)

        if ready_status == 200 and args.photos:
            photo = photo_bytes(args.photo)
            if args.detector_runs and not args.detector:
                results["detector_ms"] = detector_ms(photo, args.detector_runs)
                print(f"the detector alone, in this process: {results['detector_ms']} ms per photo", file=sys.stderr)
            body, ctype = multipart(photo, {"rules": "mcr", "self_draw": True})
            photo_req = [http_request("/v1/score-photo", body, ctype)]
            warm = Phase("warm-up /v1/score-photo")
            asyncio.run(drive(port, photo_req, args.photo_warmup, args.photo_concurrency,
                              time.perf_counter() + 300, warm))
            phase = measured(port, proc.pid, photo_req, args.photos, args.photo_concurrency, args.max_seconds,
                             Phase(f"/v1/score-photo x{args.photos}, {args.photo_concurrency} connections, "
                                   f"{len(body) // 1000} kB each, after {args.photo_warmup} warm-up photos"))
            if args.detector:
                phase.note = (phase.note + "; " if phase.note else "") + f"detector {args.detector}"
            results["phases"].append(phase.summary())
            _print(phase)
        elif args.photos:
            note = f"photo phase skipped: /readyz answered {ready_status} ({ready.get('detail')})"
            results["phases"].append({"phase": "/v1/score-photo", "note": note})
            print(note, file=sys.stderr)
    finally:
        stop_server(proc)
    return _finish(results, args.json)


def _finish(results: dict[str, Any], path: str | None) -> int:
    text = json.dumps(results, indent=1, ensure_ascii=False)
    print(text)
    if path:
        Path(path).write_text(text + "\n")
    return 0


def detector_ms(photo: bytes, runs: int) -> dict[str, float]:
    """The shipped detector's own time on ``photo`` in this process (after two warm-up runs): median and spread."""
    from vision import default_detector

    detector = default_detector()
    for _ in range(2):
        detector.detect(photo)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        detector.detect(photo)
        times.append((time.perf_counter() - t0) * 1000)
    return {"median": round(statistics.median(times), 1), "min": round(min(times), 1), "max": round(max(times), 1)}


def compare(args: argparse.Namespace) -> dict[str, Any]:
    """/v1/score of this checkout and of ``args.reference``, one server after the other, ``args.rounds`` times
    (the order alternating), each warmed up with 1,000 requests; medians of the rounds and their ratios. The
    workers' CPU time per request is reported too: on a shared machine it says more than the rate does."""
    roots = {"this": ROOT, "reference": Path(args.reference).resolve()}
    env = {**os.environ, "MJ_LOAD_MODEL": "false", "MJ_ACCESS_LOG": "false" if args.no_access_log else "true"}
    score_reqs = [http_request("/v1/score", json.dumps(h).encode(), "application/json") for h in HANDS]
    runs: dict[str, list[dict[str, Any]]] = {"this": [], "reference": []}
    for number in range(args.rounds):
        order = ("reference", "this") if number % 2 == 0 else ("this", "reference")
        for label in order:
            port = free_port()
            log = Path(os.environ.get("TMPDIR", "/tmp")) / f"mjscore-load-{label}-{port}.log"
            proc = start_server(port, args.workers, env, log, roots[label])
            try:
                asyncio.run(drive(port, score_reqs, 1000, args.concurrency, time.perf_counter() + 60, Phase("warm")))
                phase = Phase(f"{label} round {number + 1}")
                cpu = workers_cpu(proc.pid)
                with HealthzProbe(port) as probe:
                    asyncio.run(drive(port, score_reqs, args.requests, args.concurrency,
                                      time.perf_counter() + args.max_seconds, phase))
                phase.healthz = probe.latencies
                cpu = workers_cpu(proc.pid) - cpu
            finally:
                stop_server(proc)
            summary = {**phase.summary(), "cpu_ms_per_request": round(1000 * cpu / max(phase.requests, 1), 3)}
            runs[label].append(summary)
            _print(phase)
            print(f"  the workers' CPU time: {summary['cpu_ms_per_request']} ms per request", file=sys.stderr)
    keys = ("rps", "p50_ms", "p99_ms", "cpu_ms_per_request")
    medians = {label: {key: statistics.median(r[key] for r in rows) for key in keys} for label, rows in runs.items()}
    ratios = {key: round(medians["this"][key] / medians["reference"][key], 3) for key in keys}
    print(f"medians of {args.rounds} rounds: this {medians['this']}, reference {medians['reference']}; "
          f"this / reference {ratios}", file=sys.stderr)
    return {"workers": args.workers, "concurrency": args.concurrency, "requests": args.requests,
            "load": os.getloadavg(), "reference": str(roots["reference"]), "medians": medians, "ratios": ratios,
            "runs": runs}


def _print(phase: Phase) -> None:
    s = phase.summary()
    print(f"{s['phase']} [{s['client']}]: {s['rps']} req/s, p50 {s['p50_ms']} ms, p99 {s['p99_ms']} ms, "
          f"errors {s['errors']}, statuses {s['statuses']}, /healthz meanwhile {s['healthz_ms']}, "
          f"workers' RSS {s['rss_before_mb']} -> {s['rss_after_mb']} MB (curve {s['rss_curve_mb']})", file=sys.stderr)


if __name__ == "__main__":
    raise SystemExit(main())
