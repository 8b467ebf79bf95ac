"""The mjscore command: score and batch (the photo commands are tested with the photo pipeline)."""

from __future__ import annotations

import io
import json
import subprocess
import sys

from api.cli import main, run_batch


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


def test_photo_flags_reach_the_photo_request(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import api.photo

    seen = {}

    def fake_run_photo(args, request):  # type: ignore[no-untyped-def]
        seen.update(request)
        return 0

    monkeypatch.setattr(api.photo, "run_photo", fake_run_photo)
    assert main(["hand.jpg", "--rules", "mcr", "--win-tile", "5s", "--concealed-kong", "9p", "--self-draw"]) == 0
    assert seen["win_tile"] == "5s" and seen["concealed_kongs"] == ["9p"] and seen["self_draw"] is True
    assert "hand" not in seen
