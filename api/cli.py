"""The ``mjscore`` command: score a hand, a batch of hands, or a photo.

    mjscore score "[555z]123p789s5s+5s" --rules mcr --discarder S [--json]
    mjscore batch --rules mcr < hands.jsonl > results.jsonl
    mjscore PHOTO --rules mcr [--self-draw ...] [--json] [--annotated out.jpg]    (or: mjscore photo PHOTO ...)
    mjscore detect PHOTO --json
    mjscore detect DIR --json        # several photos or a folder: one JSON line per photo, progress on stderr
    mjscore serve [--host --port --workers --http]
    mjscore train --data DATASET [--out DIR] [--minutes N] [--resume]   (the training extra)

``--weights DIR`` (or ``MJ_WEIGHTS``) reads photos with the weights ``mjscore train`` wrote; default: ``models/``.
"""

from __future__ import annotations

import argparse
import difflib
import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from api.render import score_table
from scorer import ScorerError
from scorer.request import RULE_SETS, answer_line, error_json, error_object, score_parsed

if TYPE_CHECKING:  # the photo pipeline (numpy, Pillow, ONNX Runtime) loads only for the photo commands
    from api.pipeline import Detector, Reading

COMMANDS = ("score", "batch", "photo", "detect", "serve", "train")
MAX_LINE = 65_536  # the longest line of a batch read (a request is a few hundred characters)
MAX_PORT = 65_535
TRAIN_EXTRA = ("torch", "ultralytics", "onnx")  # what `mjscore train` needs beyond the runtime


def main(argv: list[str] | None = None, *, detector: Detector | None = None) -> int:
    """Run one command; ``detector`` reads the photos (default: the shipped weights, loaded on first use). A
    reader that closes the pipe early (``mjscore detect DIR --json | head``) ends the run quietly; so does Ctrl-C,
    saying so, the photos and hands answered so far written."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        code = _main(args, detector)
        sys.stdout.flush()
    except BrokenPipeError:
        # the reader is gone: send what is left to nowhere, so that Python's own flush at exit does not fail too
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141  # as a shell reports a command ended by SIGPIPE
    except KeyboardInterrupt:
        resume = " (mjscore train ... --resume goes on from its last checkpoint)" if args[:1] == ["train"] else ""
        print(f"\nmjscore: interrupted{resume}", file=sys.stderr)
        return 130  # as a shell reports a command ended by SIGINT
    return code


def _main(argv: list[str], detector: Detector | None) -> int:
    if argv and argv[0] == "train":  # its options are the training wing's own (mjscore train --help)
        return _train(argv[1:])
    parser = _parser()
    if argv and argv[0] not in COMMANDS and not argv[0].startswith("-"):
        unknown = _unknown_command(argv[0])
        if unknown:
            parser.print_usage(sys.stderr)
            print(f"mjscore: error: {unknown}", file=sys.stderr)
            return 2
        argv.insert(0, "photo")
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    if getattr(args, "annotated", None):
        from api.render import FORMATS, picture_format

        target = Path(args.annotated)
        if len(args.photo) > 1 or Path(args.photo[0]).is_dir():
            if target.suffix.lower() in FORMATS:
                parser.error(f"--annotated: with several photos, a folder to write their pictures into, not "
                             f"{args.annotated!r}")
            try:  # made before any photo is read
                target.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                parser.error(f"--annotated: cannot make the folder {args.annotated!r}: {exc.strerror or exc}")
        else:
            try:
                picture_format(args.annotated)
            except ValueError as exc:
                parser.error(f"--annotated: {exc}")
            if not target.parent.is_dir():
                parser.error(f"--annotated: no folder {str(target.parent)!r} to write {target.name!r} into")
    if args.command == "photo":
        return _photo(args, detector)
    if args.command == "detect":
        return run_detect(args, detector)
    handler = {"score": _score, "batch": _batch, "serve": _serve}[args.command]
    return handler(args)


def _unknown_command(word: str) -> str | None:
    """The error for a first word that is neither a command nor a photo: a word with no suffix and no folder in
    it that names no file (``mjscore scor "123m"``), with the nearest command; None when it may be a photo."""
    if os.path.exists(word) or Path(word).suffix or os.sep in word or "/" in word:
        return None
    near = difflib.get_close_matches(word, COMMANDS, n=1, cutoff=0.5)
    hint = f"; did you mean {near[0]!r}?" if near else ""
    return (f"unknown command {word!r}{hint} (commands: {', '.join(COMMANDS)}; or give a photo's path: "
            "mjscore PHOTO)")


def _context_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", choices=RULE_SETS, default="mcr", help="rule set (default mcr)")
    p.add_argument("--self-draw", action="store_true", help="won by self-draw (default: on a discard)")
    p.add_argument("--seat", choices="ESWN", default="E", help="the winner's seat wind (the dealer is E)")
    p.add_argument("--round", choices="ESWN", default="E", help="the prevalent wind")
    p.add_argument("--discarder", choices="ESWN", help="the seat that dealt in, for payments on a discard")
    p.add_argument("--last-tile", action="store_true", help="last tile of the wall / last discard (海底)")
    p.add_argument("--kong-replacement", action="store_true", help="won on a kong's replacement tile (杠上开花)")
    p.add_argument("--robbing-kong", action="store_true", help="won by robbing a kong (抢杠)")
    p.add_argument("--last-of-kind", action="store_true", help="MCR 和绝张: the other three copies are visible")
    p.add_argument("--flowers", default="", help="flower tiles, e.g. 1f6f")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a rule-set option, e.g. minimum=8 (JSON values); repeatable")
    r = p.add_argument_group("riichi", "fields of the request's \"riichi\" object")
    for flag in ("riichi", "double-riichi", "ippatsu", "open-riichi", "tenhou", "chiihou", "renhou", "nagashi-mangan"):
        r.add_argument(f"--{flag}", action="store_true", dest=f"r_{flag.replace('-', '_')}")
    r.add_argument("--dora", default="", help="dora indicators, e.g. 3m7z")
    r.add_argument("--ura", default="", help="ura dora indicators (with riichi only)")
    r.add_argument("--honba", type=int, default=0)
    r.add_argument("--riichi-sticks", type=int, default=0)
    f = p.add_argument_group("fuzhou", "fields of the request's \"fuzhou\" object")
    f.add_argument("--gold", default=None, help="the gold (金) tile, e.g. 2m")
    f.add_argument("--dealer-streak", type=int, default=0)
    f.add_argument("--robbing-gold", action="store_true", help="抢金: won by taking in the revealed gold")
    g = p.add_argument_group("guangdong and fuzhou", "天和/地和/人和 and the liability seats of Guangdong")
    g.add_argument("--heavenly", action="store_true", help="天和 (Guangdong and Fuzhou)")
    g.add_argument("--earthly", action="store_true", help="地和 (Guangdong)")
    g.add_argument("--human", action="store_true", help="人和 (Guangdong)")
    g.add_argument("--kong-feeder", choices="ESWN", help="Guangdong 杠开包牌: who discarded the kong's tile")
    g.add_argument("--twelve-feeder", choices="ESWN", help="Guangdong 十二张落地: who fed the fourth meld")
    p.add_argument("--json", action="store_true", help="print the contract's JSON object")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mjscore", description="Read and score mahjong hands.")
    sub = parser.add_subparsers(dest="command")
    p = sub.add_parser("score", help="score a hand written in notation")
    p.add_argument("hand", help='e.g. "[555z]123p789s5s+5s"')
    _context_flags(p)
    p = sub.add_parser("batch", help="score JSON Lines requests from stdin, one result per line")
    p.add_argument("--rules", choices=RULE_SETS, default=None, help="rules for lines that name none")
    p = sub.add_parser("photo", help="read a photo of a hand and score it (also: mjscore PHOTO)")
    p.add_argument("photo", nargs="+", help="a photo, several, or a folder of photos (one JSON line each)")
    p.add_argument("--annotated", default=None,
                   help="write the photo with boxes, groups and a legend drawn to this file (.png, .jpg or .webp, by "
                        "its suffix); with several photos, a folder to write NAME.jpg into")
    p.add_argument("--win-tile", default=None, help="the winning tile when none is set apart in the photo, e.g. 5s")
    p.add_argument("--concealed-kong", action="append", default=[], metavar="TILE",
                   help="the tile of a concealed kong shown as four backs, in reading order; repeatable")
    p.add_argument("--hand-override", default=None, help="score this hand (notation) instead of the reading")
    _weights_flag(p)
    _context_flags(p)
    p = sub.add_parser("detect", help="find the tiles in a photo")
    p.add_argument("photo", nargs="+", help="a photo, several, or a folder of photos (one JSON line each)")
    p.add_argument("--json", action="store_true")
    _weights_flag(p)
    p = sub.add_parser("serve", help="run the HTTP service")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--workers", type=int, default=None, help="worker processes (default: MJ_WORKERS, else 1)")
    p.add_argument("--http", choices=("auto", "httptools", "h11"), default="auto",
                   help="uvicorn's HTTP/1.1 parser (auto: httptools where installed); either way a request's head "
                        "must arrive within MJ_HEAD_TIMEOUT_SECONDS")
    sub.add_parser("train", add_help=False, help="fine-tune the tile reader on a dataset of labelled photos (the "
                   "training extra; mjscore train --help)")
    return parser


def _weights_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--weights", metavar="DIR", default=os.environ.get("MJ_WEIGHTS") or None,
                   help="read with the weights in DIR, as mjscore train writes them (default: MJ_WEIGHTS, else the "
                        "shipped models/)")


def request_from_args(args: argparse.Namespace, hand: str | None) -> dict[str, Any]:
    """The contract's request object from the command-line flags."""
    request: dict[str, Any] = {
        "rules": args.rules,
        "self_draw": args.self_draw,
        "seat_wind": args.seat,
        "round_wind": args.round,
        "discarder": args.discarder,
        "last_tile": args.last_tile,
        "kong_replacement": args.kong_replacement,
        "robbing_kong": args.robbing_kong,
        "last_of_kind": args.last_of_kind,
        "flowers": args.flowers,
    }
    if hand is not None:
        request["hand"] = hand
    options: dict[str, Any] = {}
    for item in args.option:
        name, _, value = item.partition("=")
        try:
            options[name] = json.loads(value)
        except json.JSONDecodeError:
            options[name] = value
    if options:
        request["options"] = options
    facts: dict[str, dict[str, Any]] = {
        "riichi": {**{k[2:]: v for k, v in vars(args).items() if k.startswith("r_")}, "dora_indicators": args.dora,
                   "ura_indicators": args.ura, "honba": args.honba, "riichi_sticks": args.riichi_sticks},
        "fuzhou": {"gold": args.gold, "dealer_streak": args.dealer_streak, "robbing_gold": args.robbing_gold,
                   "heavenly": args.heavenly},
        "guangdong": {"heavenly": args.heavenly, "earthly": args.earthly, "human": args.human,
                      "kong_feeder": args.kong_feeder, "twelve_feeder": args.twelve_feeder},
    }
    for rules, fields in facts.items():
        if rules == args.rules:
            request[rules] = fields
            continue
        # another rule set's flags, given: passed on for the request to refuse by name (they were dropped unsaid);
        # --heavenly is both Guangdong's and Fuzhou's
        given = {k: v for k, v in fields.items() if v not in (False, "", None) and v != 0
                 and not (k == "heavenly" and args.rules in ("fuzhou", "guangdong"))}
        if given:
            request[rules] = given
    return request


def _score(args: argparse.Namespace) -> int:
    try:
        result = score_parsed(request_from_args(args, args.hand))
    except ScorerError as exc:
        return fail(exc.code, str(exc), args.json)
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        print(score_table(result))
    return 0


def fail(code: str, message: str, as_json: bool) -> int:
    """Report an error as one line on stderr (or the contract's error object on stdout) and give exit code 1."""
    if as_json:
        print(json.dumps(error_object(code, message), ensure_ascii=False))
    else:
        print(f"mjscore: {code}: {message}", file=sys.stderr)
    return 1


def run_batch(lines: TextIO, out: TextIO, default_rules: str | None = None) -> int:
    """JSON Lines in, one result per line out; a bad line yields an error object and the batch goes on. A line is
    read MAX_LINE characters at most: a longer one (a file without line breaks, a gigabyte of digits) is skipped
    unread and answered so, in constant memory."""
    failures = 0
    for number, (line, whole) in enumerate(_lines(lines), start=1):
        if not whole:
            text, ok = error_json("bad_request", f"line {number}: longer than {MAX_LINE:,} characters, not read "
                                                 f"(a request is one JSON object of a few hundred)"), False
        elif not line.strip():
            continue
        else:
            text, ok = answer_line(line, number, default_rules)
        failures += not ok
        out.write(text + "\n")
    return failures


def _lines(stream: TextIO) -> Iterator[tuple[str, bool]]:
    """Each line of ``stream`` and True, or, for a line over MAX_LINE characters, "" and False (the line read
    through in pieces and dropped)."""
    while line := stream.readline(MAX_LINE + 1):
        if len(line) <= MAX_LINE or line.endswith("\n"):
            yield line, True
            continue
        while (rest := stream.readline(MAX_LINE)) and not rest.endswith("\n"):
            pass
        yield "", False


def _batch(args: argparse.Namespace) -> int:
    run_batch(sys.stdin, sys.stdout, args.rules)
    return 0


def _photo(args: argparse.Namespace, detector: Detector | None) -> int:
    from api.pipeline import PHOTO_FIELDS
    from scorer.request import check_request

    request = request_from_args(args, None)
    if args.win_tile:
        request["win_tile"] = args.win_tile
    if args.concealed_kong:
        request["concealed_kongs"] = args.concealed_kong
    if args.hand_override:
        request["hand"] = args.hand_override
    try:  # the flags checked once, before any photo is read (as the service checks its request part)
        check_request(request, frozenset(PHOTO_FIELDS))
    except ScorerError as exc:
        return fail(exc.code, str(exc), args.json)
    return run_photo(args, request, detector)


class _Failed(Exception):
    """A photo that cannot be read: its error code and message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _each_photo(args: argparse.Namespace, detector: Detector | None,
                answer: Callable[[str, Reading], tuple[dict[str, Any], str, bool]],
                request: dict[str, Any] | None = None) -> int:
    """Read each photo of ``args.photo`` (a folder: the photos in it) and print what ``answer(path, reading)``
    makes of it: (its JSON object, its text, ok). With several photos each JSON line carries ``"photo"``, a photo
    that fails gives its error and the run goes on, and the progress goes to stderr (``api.photos``). Exit code:
    0 when every photo answered ok, else 1."""
    from api.photos import NoPhotosError, Progress, photo_paths

    try:
        paths, several = photo_paths(args.photo)
    except NoPhotosError as exc:
        return fail("bad_image", str(exc), args.json)
    progress = Progress(len(paths)) if several else None
    failures = 0
    for path in paths:
        try:
            detector = detector or _detector(path, args.weights)
            obj, text, ok = answer(path, _read(path, detector, request))
        except _Failed as exc:
            if not several:
                return fail(exc.code, str(exc), args.json)
            obj, text, ok = error_object(exc.code, str(exc)), "", False
            if not args.json:
                print(f"mjscore: {exc.code}: {path}: {exc}", file=sys.stderr)
            if exc.code == "model_not_found":  # no photo can be read: stop here
                if args.json:
                    print(json.dumps({"photo": path, **obj}, ensure_ascii=False))
                return 1
        failures += not ok
        if args.json:
            print(json.dumps({"photo": path, **obj} if several else obj, ensure_ascii=False), flush=several)
        elif text:
            print(f"\n== {path}\n{text}" if several else text, flush=several)
        if progress:
            progress.step(path, _summary(obj))
    return 1 if failures else 0


def _summary(obj: dict[str, Any]) -> str:
    """A few words on one photo's answer, for the progress display."""
    if obj.get("ok") is False and "error" in obj:
        return f"{obj['error']['code']}"
    rec = obj.get("recognition", obj)
    n = len(rec.get("detections", []))
    return f"{n} tile(s), " + (f"hand {rec['hand']}" if rec.get("hand") else "no hand")


def _detector(path: str, weights: str | None) -> Detector:
    """The detector of the weights folder ``weights`` (None: the shipped one), loaded once ``path`` proves to be a
    photo (a bad file fails before the model loads)."""
    from api.pipeline import default_detector, image_size
    from vision.errors import BadImageError, VisionError

    try:
        image_size(path)
        return default_detector(weights)
    except VisionError as exc:
        if isinstance(exc, BadImageError):  # (too large, too)
            raise _Failed(exc.code, str(exc)) from exc
        where = "" if weights else "; the tile detector's weights are not installed (see models/)"
        raise _Failed(exc.code, f"{exc}{where}") from exc


def _read(path: str, detector: Detector, request: dict[str, Any] | None = None) -> Reading:
    """The photo at ``path`` read (for ``request``: ``api.pipeline.read_photo``); ``_Failed`` when it cannot be."""
    from api.pipeline import read_photo
    from vision.errors import VisionError

    try:
        return read_photo(path, detector, request)
    except VisionError as exc:
        raise _Failed(exc.code, str(exc)) from exc


def run_detect(args: argparse.Namespace, detector: Detector | None = None) -> int:
    """``mjscore detect PHOTO... [--json]``: the recognition object, or a readable summary, of each photo."""
    from api.render import describe, detection_lines

    def answer(path: str, reading: Reading) -> tuple[dict[str, Any], str, bool]:
        rec = reading.recognition
        return rec, "\n".join([describe(rec, path), *detection_lines(rec)]), True

    return _each_photo(args, detector, answer)


def run_photo(args: argparse.Namespace, request: dict[str, Any], detector: Detector | None = None) -> int:
    """``mjscore PHOTO... --rules ...``: read each photo, score it, print the reading and the score (or JSON)."""
    from api.pipeline import score_reading
    from api.render import annotate, describe
    from vision.errors import VisionError

    def answer(path: str, reading: Reading) -> tuple[dict[str, Any], str, bool]:
        scored = score_reading(reading, request)
        rec, result = scored.recognition, scored.result
        annotated = _annotated_path(args.annotated, path, several=len(args.photo) > 1 or Path(args.photo[0]).is_dir())
        written = True
        if annotated:
            try:
                annotate(path, rec, annotated)
            except (OSError, ValueError, VisionError) as exc:  # asked for and not written: the run fails (exit 1)
                print(f"mjscore: cannot write {annotated}: {exc}", file=sys.stderr)
                annotated, written = None, False
        lines = [describe(rec, path), ""]
        if scored.score is not None:
            lines.append(score_table(scored.score))
        else:
            lines.append(f"not scored: {result['error']['code']}: {result['error']['message']}")
        if annotated:
            lines.append(f"\nannotated photo: {annotated}")
        return {"recognition": rec, "result": result}, "\n".join(lines), bool(result["ok"]) and written

    return _each_photo(args, detector, answer, request)


def _annotated_path(annotated: str | None, photo: str, several: bool) -> str | None:
    """Where the annotated picture of ``photo`` goes: ``annotated`` itself, or with several photos the folder
    ``annotated`` (made before the first photo was read) and the photo's name as a JPEG."""
    if not annotated or not several:
        return annotated
    return str(Path(annotated) / (Path(photo).stem + ".jpg"))


def _train(argv: list[str]) -> int:
    """``mjscore train ...``: the training wing's command (``python -m training.learn``), run as a process of its
    own (this one never imports PyTorch or the training wing), when the training extra is installed; else how to
    install it (exit 2)."""
    missing = [name for name in TRAIN_EXTRA if importlib.util.find_spec(name) is None]
    if missing:
        print(f"mjscore train: {', '.join(missing)} not installed; training needs the training extra: "
              f"pip install 'mjscore[train]'", file=sys.stderr)
        return 2
    return subprocess.call([sys.executable, "-m", "training.learn", *argv])


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from .config import MAX_WORKERS, SettingsError, get_settings
    from .protocols import protocol

    try:  # read here, before uvicorn starts a worker that would fail on them
        settings = get_settings()
    except SettingsError as exc:
        return fail(exc.code, str(exc), False)
    workers = args.workers if args.workers is not None else settings.workers
    if not 1 <= workers <= MAX_WORKERS:  # (uvicorn would start one for 0, and try a thousand)
        return fail("bad_request", f"--workers must be from 1 to {MAX_WORKERS}, not {workers}", False)
    if not 1 <= args.port <= MAX_PORT:  # (uvicorn would say it runs on port 99999, bound to another)
        return fail("bad_request", f"--port must be from 1 to {MAX_PORT}, not {args.port}", False)
    try:
        http = protocol(args.http)
    except ImportError as exc:  # --http httptools where it is not installed
        print(f"mjscore serve: {exc}", file=sys.stderr)
        return 2
    uvicorn.run("api.main:create_app", factory=True, host=args.host, port=args.port, workers=workers, http=http)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
