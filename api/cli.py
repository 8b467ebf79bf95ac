"""The ``mjscore`` command: score a hand, a batch of hands, or a photo.

    mjscore score "[555z]123p789s5s+5s" --rules mcr --discarder S [--json]
    mjscore batch --rules mcr < hands.jsonl > results.jsonl
    mjscore PHOTO --rules mcr [--self-draw ...] [--json] [--annotated out.png]
    mjscore detect PHOTO --json
    mjscore serve [--host --port --workers]
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from scorer import ScorerError, ScoreResult
from scorer.request import RULE_SETS, error_object, score_parsed

COMMANDS = ("score", "batch", "detect", "serve")


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] not in COMMANDS and not argv[0].startswith("-"):
        argv.insert(0, "photo")
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    handler = {"score": _score, "batch": _batch, "photo": _photo, "detect": _detect, "serve": _serve}[args.command]
    return handler(args)


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
    p = sub.add_parser("photo", help="read a photo of a hand and score it")
    p.add_argument("photo")
    p.add_argument("--annotated", default=None, help="write the photo with boxes and groups drawn to this PNG")
    p.add_argument("--win-tile", default=None, help="the winning tile when none is set apart in the photo, e.g. 5s")
    p.add_argument("--concealed-kong", action="append", default=[], metavar="TILE",
                   help="the tile of a concealed kong shown as four backs, in reading order; repeatable")
    p.add_argument("--hand-override", default=None, help="score this hand (notation) instead of the reading")
    _context_flags(p)
    p = sub.add_parser("detect", help="find the tiles in a photo")
    p.add_argument("photo")
    p.add_argument("--json", action="store_true")
    p = sub.add_parser("serve", help="run the HTTP service")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--workers", type=int, default=None, help="worker processes (default: MJ_WORKERS, else 1)")
    return parser


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
    if args.rules == "riichi":
        riichi: dict[str, Any] = {k[2:]: v for k, v in vars(args).items() if k.startswith("r_")}
        riichi.update(dora_indicators=args.dora, ura_indicators=args.ura, honba=args.honba,
                      riichi_sticks=args.riichi_sticks)
        request["riichi"] = riichi
    if args.rules == "fuzhou":
        request["fuzhou"] = {"gold": args.gold, "dealer_streak": args.dealer_streak,
                             "robbing_gold": args.robbing_gold, "heavenly": args.heavenly}
    if args.rules == "guangdong":
        request["guangdong"] = {"heavenly": args.heavenly, "earthly": args.earthly, "human": args.human,
                                "kong_feeder": args.kong_feeder, "twelve_feeder": args.twelve_feeder}
    return request


def _score(args: argparse.Namespace) -> int:
    try:
        result = score_parsed(request_from_args(args, args.hand))
    except ScorerError as exc:
        return fail(exc.code, str(exc), args.json)
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        print(render(result))
    return 0


def fail(code: str, message: str, as_json: bool) -> int:
    """Report an error as one line on stderr (or the contract's error object on stdout) and give exit code 1."""
    if as_json:
        print(json.dumps(error_object(code, message), ensure_ascii=False))
    else:
        print(f"mjscore: {code}: {message}", file=sys.stderr)
    return 1


def render(result: ScoreResult) -> str:
    """A readable table of fans, total, minimum and payments."""
    lines = [f"rules: {result.rules}    reading: {' '.join(result.decomposition)}", ""]
    width = max((len(f.name) for f in result.fans), default=10)
    for fan in result.fans:
        times = f" x{fan.count}" if fan.count > 1 else ""
        lines.append(f"  {fan.value * fan.count:>4}  {fan.name:<{width}}  {fan.name_zh}{times}")
    lines.append(f"  {result.total:>4}  total")
    for key, value in result.details:
        lines.append(f"        {key}: {value}")
    lines.append("")
    lines.append(f"minimum met: {'yes' if result.meets_minimum else 'no'}")
    if result.payments:
        lines.append("payments: " + "  ".join(f"{seat} {amount:+d}" for seat, amount in result.payments))
    elif result.meets_minimum:
        lines.append("payments: name the discarder (--discarder) or --self-draw to see them")
    return "\n".join(lines)


def run_batch(lines: TextIO, out: TextIO, default_rules: str | None = None) -> int:
    """JSON Lines in, one result per line out; a bad line yields an error object and the batch goes on."""
    failures = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            answer = error_object("bad_request", f"line {number}: not JSON: {exc.msg} at column {exc.colno}")
        else:
            if default_rules and isinstance(obj, dict) and "rules" not in obj:
                obj = {**obj, "rules": default_rules}
            try:
                out.write(score_parsed(obj).to_json() + "\n")
                continue
            except ScorerError as exc:
                answer = error_object(exc.code, f"line {number}: {exc}")
        failures += 1
        out.write(json.dumps(answer, ensure_ascii=False) + "\n")
    return failures


def _batch(args: argparse.Namespace) -> int:
    run_batch(sys.stdin, sys.stdout, args.rules)
    return 0


def _photo(args: argparse.Namespace) -> int:
    from .photo import run_photo

    request = request_from_args(args, None)
    if args.win_tile:
        request["win_tile"] = args.win_tile
    if args.concealed_kong:
        request["concealed_kongs"] = args.concealed_kong
    return run_photo(args, request)


def _detect(args: argparse.Namespace) -> int:
    from .photo import run_detect

    return run_detect(args)


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from .config import get_settings

    workers = args.workers if args.workers is not None else get_settings().workers
    uvicorn.run("api.main:create_app", factory=True, host=args.host, port=args.port, workers=workers)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
