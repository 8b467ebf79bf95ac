"""The mjscore command: score, batch, serve's checks, and the photo commands (``mjscore PHOTO``, ``mjscore detect``)
on one photo with fake detectors (several photos and folders: ``tests/test_cli_folders.py``); and one end-to-end run
with the shipped weights (skipped while models/ has none)."""

from __future__ import annotations

import io
import itertools
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image

from api import pipeline
from api.cli import main, run_batch
from bench.eval_layout import normal
from scorer.request import score_request
from tests.api.support import FixedDetector, png, png_header_only, row

ROOT = Path(__file__).resolve().parents[1]
HAND = row("123m456p789s2233z 3z")  # 13 concealed tiles and the winning tile set apart
HAND_TEXT = "123m456p789s2233z +3z"


def test_score_prints_a_table(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["score", "[555z]123p789s456m5s+5s", "--discarder", "S"]) == 0
    out = capsys.readouterr().out
    assert "Mixed Straight" in out and "花龙" in out and "11  total" in out
    assert "minimum met: yes" in out and "E +35  S -19  W -8  N -8" in out


def test_score_json_is_the_contract_object(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["score", "[555z]123p789s456m5s+5s", "--self-draw", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["ok"] is True and answer["total"] == 12
    assert answer["payments"] == {"E": 60, "S": -20, "W": -20, "N": -20}


def test_score_bad_hand_is_one_line_and_exit_1(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["score", "[555z]123p789s456m5s5s+5s"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("mjscore: invalid_hand: wrong tile count")


def test_score_option_and_unknown_option(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["score", "123m345p789s66s11z+6s", "--seat", "S", "--round", "S", "--option", "minimum=2"]) == 0
    assert "minimum met: yes" in capsys.readouterr().out
    assert main(["score", "123m345p789s66s11z+6s", "--option", "minimun=2", "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "bad_request"


def test_batch_keeps_going_past_bad_lines() -> None:
    lines = io.StringIO(
        '{"rules": "mcr", "hand": "[555z]123p789s456m5s+5s", "self_draw": true}\n'
        "not json\n"
        "\n"
        '{"hand": "123m+1m"}\n'
        '{"hand": "[555z]123p789s456m5s+5s", "discarder": "S"}\n'
    )
    out = io.StringIO()
    failures = run_batch(lines, out, default_rules="mcr")
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert failures == 2 and len(answers) == 4
    assert [a["ok"] for a in answers] == [True, False, False, True]
    assert answers[1]["error"]["code"] == "bad_request" and answers[1]["error"]["message"].startswith("line 2:")
    assert answers[2]["error"]["code"] == "invalid_hand" and answers[2]["error"]["message"].startswith("line 4:")
    assert answers[3]["payments"]["S"] == -19


class _Pieces(io.StringIO):
    """A stream that notes the longest piece read from it at once."""

    longest = 0

    def readline(self, size: int | None = -1, /) -> str:
        piece = super().readline(size)
        self.longest = max(self.longest, len(piece))
        return piece


@pytest.mark.parametrize("end", ["\n", ""])
def test_a_batch_line_too_long_is_answered_unread(end: str) -> None:
    from api.cli import MAX_LINE

    hand = '{"hand": "[555z]123p789s456m5s+5s"}'
    fits = hand + " " * (MAX_LINE - len(hand) - 1) + "\n"  # MAX_LINE characters with its line break: read
    lines = _Pieces(f"{hand}\n{'9' * (5 * MAX_LINE)}\n{fits}{'[' * (MAX_LINE + 1)}{end}")
    out = io.StringIO()
    assert run_batch(lines, out, default_rules="mcr") == 2
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a["ok"] for a in answers] == [True, False, True, False]
    assert answers[1]["error"] == {"code": "bad_request", "message": f"line 2: longer than {MAX_LINE:,} characters, "
                                   "not read (a request is one JSON object of a few hundred)"}
    assert answers[3]["error"]["message"].startswith("line 4: longer than")
    assert lines.longest <= MAX_LINE + 1  # read in pieces, never a whole line of 5 * MAX_LINE


def test_batch_answers_json_python_cannot_read() -> None:
    hand = '"hand": "[555z]123p789s456m5s+5s"'
    lines = io.StringIO(f'{{{hand}, "honba": {"9" * 5000}}}\n' + "[" * 60_000 + f"\n{{{hand}}}\n")
    out = io.StringIO()
    assert run_batch(lines, out, default_rules="mcr") == 2
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a["ok"] for a in answers] == [False, False, True]
    assert answers[0]["error"] == {"code": "bad_request", "message": answers[0]["error"]["message"]}
    message = answers[0]["error"]["message"]
    assert message.startswith("line 1: not readable JSON") and "5000 digits" in message
    assert answers[1]["error"]["message"] == "line 2: JSON nested too deeply"


def test_console_command_runs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "api.cli", "batch", "--rules", "mcr"],
        input='{"hand": "[555z]123p789s456m5s+5s"}\n', capture_output=True, text=True, check=True,
    )
    assert json.loads(done.stdout)["total"] == 11


def test_rule_set_flags_reach_the_request() -> None:
    from api.cli import _parser, request_from_args

    args = _parser().parse_args(["score", "x", "--rules", "guangdong", "--kong-feeder", "N", "--human"])
    request = request_from_args(args, "x")
    assert request["guangdong"] == {"heavenly": False, "earthly": False, "human": True, "kong_feeder": "N",
                                    "twelve_feeder": None}
    args = _parser().parse_args(["score", "x", "--rules", "fuzhou", "--gold", "2m", "--robbing-gold"])
    assert request_from_args(args, "x")["fuzhou"] == {"gold": "2m", "dealer_streak": 0, "robbing_gold": True,
                                                      "heavenly": False}
    args = _parser().parse_args(["score", "x", "--rules", "riichi", "--riichi", "--dora", "3m", "--honba", "2"])
    riichi = request_from_args(args, "x")["riichi"]
    assert riichi["riichi"] is True and riichi["dora_indicators"] == "3m" and riichi["honba"] == 2


def test_guangdong_from_the_command_line(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["score", "[555z][666z]777z123m9p+9p", "--rules", "guangdong", "--discarder", "W", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["fans"][0]["id"] == "big_three_dragons" and answer["payments"]["W"] == -512


def test_photo_flags_reach_the_photo_request(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fake = FixedDetector(row("BBBB 123m456p789s12z"))  # no tile set apart; a concealed kong of four backs
    args = [str(png(tmp_path)), "--win-tile", "1z", "--concealed-kong", "9p", "--self-draw", "--json"]
    assert main(args, detector=fake) in (0, 1)
    out = json.loads(capsys.readouterr().out)
    assert out["recognition"]["hand"] == "(9999p) 123m456p789s2z +1z"
    assert out["result"] == score_request({"rules": "mcr", "hand": out["recognition"]["hand"], "self_draw": True,
                                           "seat_wind": "E", "round_wind": "E", "flowers": ""})
    main([str(png(tmp_path)), "--hand-override", HAND_TEXT, "--json"], detector=fake)
    out = json.loads(capsys.readouterr().out)
    assert out["result"] == score_request({"rules": "mcr", "hand": HAND_TEXT, "seat_wind": "E", "round_wind": "E",
                                           "self_draw": False, "flowers": ""})


# ------------------------------------------------------------------------------------------------ photos ----
@pytest.fixture
def fake() -> FixedDetector:
    return FixedDetector(HAND)


def test_photo_json(tmp_path: Path, fake: FixedDetector, capsys: pytest.CaptureFixture[str]) -> None:
    code = main([str(png(tmp_path)), "--rules", "mcr", "--discarder", "S", "--json"], detector=fake)
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["recognition"]["hand"] == HAND_TEXT
    assert out["result"] == score_request({"rules": "mcr", "hand": HAND_TEXT, "discarder": "S", "self_draw": False,
                                           "seat_wind": "E", "round_wind": "E", "flowers": ""})


def test_photo_readable(tmp_path: Path, fake: FixedDetector, capsys: pytest.CaptureFixture[str]) -> None:
    code = main([str(png(tmp_path)), "--discarder", "W"], detector=fake)
    out = capsys.readouterr().out
    assert code == 0
    assert "hand:  123m456p789s2233z +3z" in out
    assert "\U0001F007\U0001F008\U0001F009" in out  # 1m 2m 3m as tiles
    assert "total" in out and "minimum met" in out and "payments" in out


def test_photo_annotated(tmp_path: Path, fake: FixedDetector) -> None:
    out = tmp_path / "out.png"
    assert main([str(png(tmp_path)), "--annotated", str(out)], detector=fake) == 0
    img = Image.open(out)
    assert img.format == "PNG" and img.size == (900, 500)
    assert len(img.getcolors(maxcolors=100000) or ()) > 3  # something was drawn


def test_detect_json(tmp_path: Path, fake: FixedDetector, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["detect", str(png(tmp_path)), "--json"], detector=fake) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec == pipeline.recognize(png(tmp_path), fake)
    assert rec["hand"] == HAND_TEXT and len(rec["detections"]) == 14


def test_detect_readable_lists_every_tile(tmp_path: Path, fake: FixedDetector,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["detect", str(png(tmp_path))], detector=fake) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == "hand:  " + HAND_TEXT
    assert [line.split()[0] for line in out[-14:]] == [d.label for d in HAND]


def test_photo_unreadable_hand_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(png(tmp_path))], detector=FixedDetector(row("123m456p789s112z 3z"))) == 1
    assert "not scored: invalid_hand" in capsys.readouterr().out


def _bad_files(tmp_path: Path) -> dict[str, Path]:
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    text = tmp_path / "notes.jpg"
    text.write_text("not a photo at all\n")
    good = io.BytesIO()
    Image.new("RGB", (800, 600), (120, 50, 50)).save(good, format="JPEG")
    truncated = tmp_path / "cut.jpg"
    truncated.write_bytes(good.getvalue()[:400])
    folder = tmp_path / "folder.jpg"
    folder.mkdir()
    return {"empty": empty, "text": text, "truncated": truncated, "missing": tmp_path / "nope.jpg",
            "folder": folder}


@pytest.mark.parametrize("kind", ["empty", "text", "truncated", "missing", "folder"])
@pytest.mark.parametrize("command", [[], ["detect"]])
def test_bad_files_one_line_error(tmp_path: Path, fake: FixedDetector, capsys: pytest.CaptureFixture[str],
                                  kind: str, command: list[str]) -> None:
    path = _bad_files(tmp_path)[kind]
    assert main([*command, str(path)], detector=fake) == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("mjscore: bad_image: ") and "Traceback" not in err
    assert fake.calls == 0


def test_a_decompression_bomb_is_a_one_line_error_and_a_batch_goes_on(tmp_path: Path, fake: FixedDetector,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    bomb = tmp_path / "bomb.png"
    bomb.write_bytes(png_header_only(60_000, 60_000))
    assert main([str(bomb)], detector=fake) == 1
    err = capsys.readouterr().err
    assert err.startswith("mjscore: image_too_large: the image has more pixels than this reader decodes")
    assert len(err.strip().splitlines()) == 1 and fake.calls == 0
    good = png(tmp_path)
    assert main(["detect", str(bomb), str(good), "--json"], detector=fake) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["photo"] for line in lines] == [str(bomb), str(good)]
    assert lines[0]["error"]["code"] == "image_too_large" and len(lines[1]["detections"]) == len(HAND)


def test_bad_file_json_error(tmp_path: Path, fake: FixedDetector, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(_bad_files(tmp_path)["text"]), "--json"], detector=fake) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is False and out["error"]["code"] == "bad_image"


SHIPPED = ("tile_finder.onnx", "tile_classifier.onnx", "flower_reader.onnx", "character_reader.onnx")
WEIGHTS = [ROOT / "models" / f for f in SHIPPED]


@pytest.mark.parametrize("command", [[], ["detect"]])
def test_missing_weights_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch, command: list[str]) -> None:
    from vision.errors import ModelNotFoundError

    def no_model(weights: str | None = None) -> None:
        raise ModelNotFoundError("model weights not found: models/tile_finder.onnx")

    monkeypatch.setattr(pipeline, "default_detector", no_model)
    assert main([*command, str(png(tmp_path))]) == 1
    err = capsys.readouterr().err
    assert err.startswith("mjscore: model_not_found: ") and len(err.strip().splitlines()) == 1


# ------------------------------------------------------------------------------- the command line's edges ----
def test_photo_command_by_name(tmp_path: Path, fake: FixedDetector, capsys: pytest.CaptureFixture[str]) -> None:
    """``mjscore photo PHOTO``, as ``--help`` lists it, reads as ``mjscore PHOTO`` does."""
    assert main(["photo", str(png(tmp_path)), "--json"], detector=fake) == 0
    named = json.loads(capsys.readouterr().out)
    assert main([str(png(tmp_path)), "--json"], detector=fake) == 0
    assert named == json.loads(capsys.readouterr().out) and named["recognition"]["hand"] == HAND_TEXT


@pytest.mark.parametrize(("word", "near"), [("scor", "score"), ("detetc", "detect"), ("serv", "serve"),
                                             ("frobnicate", None)])
def test_unknown_command_names_itself(word: str, near: str | None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([word, "123m"]) == 2
    err = capsys.readouterr().err
    assert f"unknown command {word!r}" in err and "Traceback" not in err
    assert (f"did you mean {near!r}" in err) if near else "did you mean" not in err
    assert all(c in err for c in ("score", "batch", "photo", "detect", "serve"))


def test_a_missing_photo_is_still_a_photo(tmp_path: Path, fake: FixedDetector,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "nope.jpg")], detector=fake) == 1
    assert capsys.readouterr().err.startswith("mjscore: bad_image: no such file")


def test_riichi_table_leaves_out_a_limit_it_does_not_have(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "234m456p678s22z55p+5p", "--rules", "riichi", "--riichi", "--round", "E"]) in (0, 1)
    table = capsys.readouterr().out
    assert "han:" in table and "None" not in table and "limit" not in table
    assert main(["score", "111m999m111p999p1s+1s", "--rules", "riichi", "--self-draw"]) == 0
    assert "limit: triple_yakuman" in capsys.readouterr().out


@pytest.mark.parametrize(("suffix", "fmt"), [(".jpg", "JPEG"), (".JPEG", "JPEG"), (".png", "PNG"),
                                             (".webp", "WEBP")])
def test_annotated_format_follows_the_suffix(tmp_path: Path, fake: FixedDetector, suffix: str, fmt: str) -> None:
    out = tmp_path / f"out{suffix}"
    assert main([str(png(tmp_path)), "--annotated", str(out)], detector=fake) == 0
    assert Image.open(out).format == fmt


def test_annotated_unknown_suffix_is_a_usage_error(tmp_path: Path, fake: FixedDetector,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main([str(png(tmp_path)), "--annotated", str(tmp_path / "out.gif")], detector=fake)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "out.gif" in err and ".png, .jpg, .jpeg, .webp" in err
    assert fake.calls == 0 and not (tmp_path / "out.gif").exists()


@pytest.mark.parametrize(("where", "said"), [
    ("missing/out.png", "--annotated: no folder '{tmp}/missing' to write 'out.png' into"),
    ("a-file/out.png", "--annotated: no folder '{tmp}/a-file' to write 'out.png' into"),
])
def test_annotated_without_its_folder_is_refused_before_the_photo_is_read(
        tmp_path: Path, fake: FixedDetector, capsys: pytest.CaptureFixture[str], where: str, said: str) -> None:
    (tmp_path / "a-file").write_text("x")
    with pytest.raises(SystemExit) as stop:
        main([str(png(tmp_path)), "--annotated", str(tmp_path / where)], detector=fake)
    assert stop.value.code == 2 and fake.calls == 0
    assert capsys.readouterr().err.splitlines()[-1] == "mjscore: error: " + said.format(tmp=tmp_path)


def test_a_picture_asked_for_and_not_written_fails_the_run(tmp_path: Path, fake: FixedDetector,
                                                           capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    import api.render

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(api.render, "annotate", full)
    assert main([str(png(tmp_path)), "--annotated", str(tmp_path / "out.png")], detector=fake) == 1  # scored, 0 before
    captured = capsys.readouterr()
    assert captured.err == f"mjscore: cannot write {tmp_path / 'out.png'}: [Errno 28] No space left on device\n"
    assert "total" in captured.out and "annotated photo:" not in captured.out


def test_annotated_picture_has_a_legend(tmp_path: Path, fake: FixedDetector) -> None:
    """The legend in the bottom left corner shows a swatch of each role drawn: here the concealed tiles and the
    winning tile, no meld and no flower."""
    from api.render import _COLOURS

    out = tmp_path / "out.png"
    assert main([str(png(tmp_path)), "--annotated", str(out)], detector=fake) == 0
    img = Image.open(out).convert("RGB")
    corner = img.crop((0, img.height - 60, 200, img.height))
    colours = {c for _, c in corner.getcolors(maxcolors=100000) or ()}
    assert _COLOURS["concealed"] in colours and _COLOURS["win"] in colours
    assert not {_COLOURS["exposed"], _COLOURS["concealed_kong"], _COLOURS["flower"]} & colours


def test_a_closed_pipe_ends_quietly() -> None:
    """``mjscore ... | head -1``: the reader goes away early; the command ends without a traceback."""
    lines = '{"hand": "[555z]123p789s456m5s+5s"}\n' * 5000
    done = subprocess.run(f"{sys.executable} -m api.cli batch --rules mcr | head -1", shell=True, input=lines,
                          capture_output=True, text=True, check=False, cwd=ROOT)
    assert json.loads(done.stdout)["total"] == 11
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr, done.stderr


# ------------------------------------------------------------------------------------------- end to end ----
def _fresh_scenes(synth: object, styles: list, seed: int = 2026) -> Iterator[tuple[int, bytes, str]]:
    """Phone photos (3 MP) of a seed no training run used, without loose tiles, made as ``synth.make_scene``
    makes its scenes; those whose hand a photo can show whole (no concealed kong of four backs, no red five)."""
    import math

    import cv2
    import numpy as np

    for index in range(200):
        rng = np.random.default_rng([seed, index])
        style = styles[int(rng.integers(len(styles)))]
        groups, hand = synth.random_hand(rng, style.has_flowers)  # type: ignore[attr-defined]
        if any(any(g.red) for g in groups) or any(g.kind == "concealed_kong" and all(g.backs) for g in groups):
            continue
        w = int(math.sqrt(3e6 * 4 / 3))
        img, _, _ = synth.render_scene(rng, style, groups, w, int(3e6 / w), distractors=False)  # type: ignore
        ok, buf = cv2.imencode(".jpg", cv2.cvtColor(img, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 90])
        assert ok
        yield index, buf.tobytes(), hand


@pytest.mark.skipif(not all(p.exists() for p in WEIGHTS),
                    reason=f"models/ lacks shipped weights ({', '.join(SHIPPED)})")
def test_end_to_end_generated_photo(tmp_path: Path, capsys: pytest.CaptureFixture[str], art_dir: Path) -> None:
    """Freshly generated photos through ``mjscore PHOTO --json`` with the shipped weights: a photo read whole gives
    the generator's hand and its score."""
    from training import synth

    styles = synth.load_styles(art_dir, exclude=list(synth.HELD_OUT_STYLES))
    # the detector names every tile of a whole photo right in about a third to a half of the photos (see
    # docs/photo.md), so the first of the fresh scenes it reads whole is scored; at most 8 are tried
    tried = []
    for index, jpg, hand in itertools.islice(_fresh_scenes(synth, styles), 8):
        path = tmp_path / f"fresh{index}.jpg"
        path.write_bytes(jpg)
        code = main([str(path), "--rules", "mcr", "--self-draw", "--json"])
        out = json.loads(capsys.readouterr().out)
        assert set(out) == {"recognition", "result"} and code in (0, 1)
        tried.append((index, hand, out["recognition"]["hand"]))
        if normal(out["recognition"]["hand"]) != normal(hand):
            continue
        expected = score_request({"rules": "mcr", "self_draw": True, "hand": hand})
        assert out["result"].get("total") == expected.get("total")
        assert out["result"] == score_request({"rules": "mcr", "self_draw": True, "hand": out["recognition"]["hand"],
                                               "seat_wind": "E", "round_wind": "E", "flowers": ""})
        assert code == (0 if expected["ok"] else 1)
        return
    raise AssertionError(f"no fresh photo read whole: {tried}")


def test_serve_with_a_parser_not_installed_says_so(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    import api.protocols

    monkeypatch.setattr(api.protocols, "HTTPTOOLS", None)  # as where uvicorn's standard extra is missing
    assert main(["serve", "--http", "httptools", "--port", "1"]) == 2
    err = capsys.readouterr().err
    assert err == "mjscore serve: httptools is not installed (pip install 'uvicorn[standard]')\n"


@pytest.mark.parametrize(("flags", "said"), [
    (["--port", "99999"], "--port must be from 1 to 65535, not 99999"),  # uvicorn said it ran there, bound elsewhere
    (["--port", "0"], "--port must be from 1 to 65535, not 0"),
    (["--workers", "0"], "--workers must be from 1 to 64, not 0"),
    (["--workers", "1000"], "--workers must be from 1 to 64, not 1000"),  # a thousand processes, each with the model
])
def test_serve_refuses_a_port_or_workers_out_of_range_before_starting(
        flags: list[str], said: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: pytest.fail("the service was started"))
    assert main(["serve", *flags]) == 1
    assert capsys.readouterr().err == f"mjscore: bad_request: {said}\n"


def test_serve_names_each_wrong_setting_of_the_environment_without_a_secret(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import uvicorn

    from api.config import get_settings

    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: pytest.fail("the service was started"))
    monkeypatch.setenv("MJ_WORKERS", "500")
    monkeypatch.setenv("MJ_MAX_PIXELS", "many")
    monkeypatch.setenv("MJ_ANNOTATE_TOKEN", "short-secret")
    get_settings.cache_clear()
    try:
        assert main(["serve", "--workers", "2"]) == 1  # the flag does not hide a wrong environment
    finally:
        get_settings.cache_clear()
    err = capsys.readouterr().err
    assert err.startswith("mjscore: bad_request: the service's settings (MJ_* in the environment or .env) are wrong: ")
    assert "MJ_WORKERS='500': Input should be less than or equal to 64" in err
    assert "MJ_MAX_PIXELS='many': Input should be a valid integer" in err
    assert "MJ_ANNOTATE_TOKEN: Value error" in err and "short-secret" not in err
    assert len(err.splitlines()) == 1 and "Traceback" not in err


def test_ctrl_c_in_training_says_how_to_go_on(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    import api.cli

    def interrupted(argv: list[str]) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(api.cli, "_train", interrupted)
    assert main(["train", "--data", "x"]) == 130
    assert capsys.readouterr().err == "\nmjscore: interrupted (mjscore train ... --resume goes on from its last " \
                                      "checkpoint)\n"


@pytest.mark.parametrize(("flags", "named"), [
    (["--rules", "mcr", "--riichi"], "'riichi.riichi' is a fact of the riichi rules, which mcr does not read"),
    (["--rules", "mcr", "--dora", "1m"], "'riichi.dora_indicators' is a fact of the riichi rules"),
    (["--rules", "guangdong", "--gold", "2m"], "'fuzhou.gold' is a fact of the fuzhou rules, which guangdong"),
    (["--rules", "fuzhou", "--kong-feeder", "S"], "'guangdong.kong_feeder' is a fact of the guangdong rules"),
    (["--rules", "riichi", "--heavenly"], "'fuzhou.heavenly' is a fact of the fuzhou rules, which riichi"),
])
def test_another_rule_sets_flag_is_refused_not_dropped(flags: list[str], named: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "[555z]123p789s456m5s+5s", *flags]) == 1  # scored without it before, saying nothing
    assert capsys.readouterr().err.startswith(f"mjscore: bad_request: {named}")


def test_heavenly_is_guangdongs_and_fuzhous_alike(capsys: pytest.CaptureFixture[str]) -> None:
    for rules in ("guangdong", "fuzhou"):
        main(["score", "[555z]123p789s456m5s+5s", "--rules", rules, "--heavenly", "--self-draw"])
        assert "is a fact of the" not in capsys.readouterr().err


