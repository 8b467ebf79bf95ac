"""How the time to read a photo grows with its tiles: scenes of 14 to 250 tiles, the detector and the layout timed
apart, beside the baseline detector (PyPI ``mahjong-detector``) on the same photos in the same run.

    python -m bench.scale [--tiles 14 30 60 120 180 250] [--scenes 3] [--rounds 3] [--mp 12] [--no-baseline]
    python -m bench.scale --photos DIR [--rounds 3]      # also: the time of each photo of a folder, p50 / p90 / max
    python -m bench.scale --save DIR ... ; python -m bench.scale --load DIR ...   # the same photos another time

Each size is ``--scenes`` generated photos (``--mp`` megapixels, the training styles; seed 733): a hand alone at 14
tiles, beyond it a whole table around the hand (``python -m training synth --table N``: discards, walls, the other
hands). Each photo is read ``--rounds`` times, the two detectors taking turns; the medians are printed as a table:
tiles in the photo, tiles found, the share of the photos' tiles read right (the size's photos together: a detection
at IoU 0.5 or more naming the tile, ``training.measure.read_right``), milliseconds of the detector and of the layout
(``vision.relabel.read_hand``, second choices included), their sum per tile found, and the baseline's milliseconds.
The growth is linear when the milliseconds per tile stay flat as the tiles grow.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

from bench.photo import pct

SEED = 733
SUFFIXES = (".jpg", ".jpeg", ".png", ".webp")


Truth = list[tuple[str, tuple[float, ...]]]  # a photo's tiles that show (the generator's visible share 0.6 or more)


def scenes(tiles: int, count: int, mp: float, art: Path) -> list[tuple[bytes, int, Truth]]:
    """``count`` photos of about ``tiles`` tiles (the generator's hands at 20 or fewer, else whole tables), each
    with the number of tiles it shows (those labelled) and its true tiles (name, box)."""
    from training import synth

    styles = synth.load_styles(art, exclude=list(synth.HELD_OUT_STYLES))
    table = 0 if tiles <= 20 else tiles
    out = []
    for i in range(count):
        jpg, lines, layout = synth.make_scene(synth.SceneSpec(i, SEED + tiles, "val", mp, mp, table=table), styles)
        out.append((jpg, len(lines), [(t["label"], tuple(t["box"])) for t in layout["tiles"] if t["visible"] >= 0.6]))
    return out


def _time(fn: Any, *args: Any) -> tuple[float, Any]:
    t0 = time.perf_counter()
    out = fn(*args)
    return (time.perf_counter() - t0) * 1000, out


def read_one(detector: Any, photo: bytes | Path) -> tuple[float, float, list]:
    """Milliseconds of the detector and of the layout on one photo, and the detections."""
    from scorer import is_complete_tiles
    from vision.relabel import read_hand

    ms_det, dets = _time(detector.detect, photo)
    ms_lay, _ = _time(lambda: read_hand(dets, complete=is_complete_tiles))
    return ms_det, ms_lay, dets


def baseline() -> Any | None:
    """The baseline detector as ``bench.eval_vision`` calls it, or None when it is not installed."""
    try:
        from bench.eval_vision import Baseline

        return Baseline()
    except ImportError:
        return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tiles", type=int, nargs="+", default=[14, 30, 60, 120, 180, 250])
    ap.add_argument("--scenes", type=int, default=3, help="photos per size")
    ap.add_argument("--rounds", type=int, default=3, help="times each photo is read (the median is taken)")
    ap.add_argument("--mp", type=float, default=12.0, help="megapixels of the generated photos")
    ap.add_argument("--art", type=Path, default=None, help="tile art (default: the fetched faces)")
    ap.add_argument("--photos", type=Path, default=None, help="a folder of photos: the time of each, instead")
    ap.add_argument("--save", type=Path, default=None, help="keep the generated photos here (SIZE/N_TILES.jpg)")
    ap.add_argument("--load", type=Path, default=None, help="read the photos --save kept, instead of generating")
    ap.add_argument("--no-baseline", action="store_true")
    args = ap.parse_args(argv)

    from vision.detector import TileDetector

    detector = TileDetector()
    peer = None if args.no_baseline else baseline()
    if peer is None and not args.no_baseline:
        print("mahjong-detector not installed (the dev extra): the baseline is left out")
    if args.photos:
        return _photos(args, detector, peer)
    from training.paths import art

    faces = args.art or art() / "faces"
    print(f"{args.scenes} photo(s) per size, {args.mp:g} MP, each read {args.rounds} times (medians)")
    head = f"{'tiles':>6} {'found':>6} {'right':>6} {'detector ms':>12} {'layout ms':>10} {'ms/tile':>8}"
    print(head + (f" {'baseline ms':>12} {'ratio':>6}" if peer else ""))
    for size in args.tiles:
        made = _kept(args.load, size) if args.load else scenes(size, args.scenes, args.mp, faces)
        if args.save:
            _keep(args.save, size, made)
        photos, shown = [p for p, _, _ in made], [n for _, n, _ in made]
        det_ms, lay_ms, found, peer_ms, right = [], [], [], [], [0, 0]
        detector.detect(photos[0])  # warm
        for photo, (_, _, truth) in zip(photos, made, strict=True):
            rounds = []
            for _ in range(args.rounds):
                rounds.append(read_one(detector, photo))
                if peer:
                    peer_ms.append(_time(peer, photo)[0])
            det_ms.append(statistics.median(r[0] for r in rounds))
            lay_ms.append(statistics.median(r[1] for r in rounds))
            found.append(len(rounds[0][2]))
            if truth is not None:
                right = [a + b for a, b in zip(right, _right(truth, rounds[0][2]), strict=True)]
        d, la, n = statistics.median(det_ms), statistics.median(lay_ms), statistics.median(found)
        share = f"{right[0] / right[1]:>6.3f}" if right[1] else f"{'-':>6}"
        line = (f"{statistics.median(shown):>6.0f} {n:>6.0f} {share} {d:>12.0f} {la:>10.1f} "
                f"{(d + la) / max(n, 1):>8.2f}")
        if peer:
            p = statistics.median(peer_ms)
            line += f" {p:>12.0f} {(d + la) / p:>6.2f}"
        print(line, flush=True)
    return 0


def _right(truth: Truth, dets: list) -> tuple[int, int]:
    from training.measure import read_right

    return read_right(truth, [(d.label, d.confidence, d.box) for d in dets])


def _keep(folder: Path, size: int, made: list[tuple[bytes, int, Truth]]) -> None:
    """The photos as SIZE/I_N.jpg, their true tiles beside them as SIZE/I_N.json."""
    (folder / str(size)).mkdir(parents=True, exist_ok=True)
    for i, (jpg, n, truth) in enumerate(made):
        (folder / str(size) / f"{i:02d}_{n}.jpg").write_bytes(jpg)
        (folder / str(size) / f"{i:02d}_{n}.json").write_text(json.dumps(truth))


def _kept(folder: Path, size: int) -> list[tuple[bytes, int, Truth | None]]:
    """What ``_keep`` kept (the true tiles None where a photo was kept without them)."""
    out = []
    for p in sorted((folder / str(size)).glob("*.jpg")):
        truth = p.with_suffix(".json")
        out.append((p.read_bytes(), int(p.stem.split("_")[1]),
                    [(name, tuple(box)) for name, box in json.loads(truth.read_text())] if truth.exists() else None))
    return out


def _photos(args: argparse.Namespace, detector: Any, peer: Any | None) -> int:
    """The time of each photo of a folder (detector and layout), and its percentiles, the baseline beside."""
    paths = sorted(p for p in args.photos.rglob("*") if p.suffix.lower() in SUFFIXES)
    if not paths:
        print(f"no photos in {args.photos}")
        return 1
    detector.detect(paths[0])
    totals, peer_totals, rows = [], [], []
    for path in paths:
        rounds = [read_one(detector, path) for _ in range(args.rounds)]
        ms = statistics.median(r[0] + r[1] for r in rounds)
        totals.append(ms)
        line = (path.name, len(rounds[0][2]), ms, statistics.median(r[1] for r in rounds))
        if peer:
            data = path.read_bytes()
            peer_totals.append(statistics.median(_time(peer, data)[0] for _ in range(args.rounds)))
        rows.append(line)
    for name, n, ms, lay in sorted(rows, key=lambda r: -r[2])[:10]:
        print(f"  {name:<28} {n:>4} tiles {ms:>7.0f} ms (layout {lay:.1f} ms)")
    print(f"{len(paths)} photos: p50 {pct(totals, 0.5):.0f} ms, p90 {pct(totals, 0.9):.0f} ms, "
          f"max {max(totals):.0f} ms" + (f"; baseline p50 {pct(peer_totals, 0.5):.0f} ms, p90 "
                                         f"{pct(peer_totals, 0.9):.0f} ms, max {max(peer_totals):.0f} ms"
                                         if peer_totals else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
