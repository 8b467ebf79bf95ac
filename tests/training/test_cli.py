"""``python -m training``: every command with its own help, the data commands run end to end on small inputs, and a
command's bad input refused with the option it names."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from training import cli

COMMANDS = ("fetch-art", "drawn-art", "synth", "show", "finder", "finetune", "export", "classifier", "ship", "reader",
            "ship-reader", "corners", "ship-corners", "refiner", "ship-refiner", "requantize", "compact", "caption",
            "card", "all")


def _commands() -> dict[str, argparse.ArgumentParser]:
    sub = next(a for a in cli.parser()._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def test_python_m_training_lists_every_command() -> None:
    done = subprocess.run([sys.executable, "-m", "training", "--help"], capture_output=True, text=True, check=True,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.stdout.startswith("usage: python -m training")
    assert all(f"    {c}" in done.stdout for c in COMMANDS)
    assert tuple(_commands()) == COMMANDS


@pytest.mark.parametrize("command", COMMANDS)
def test_each_command_has_its_own_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        cli.main([command, "--help"])
    out = capsys.readouterr().out
    assert done.value.code == 0 and out.startswith(f"usage: python -m training {command}")
    own = {"synth": "--min-mp", "reader": "--hard-others", "ship": "--calibration", "card": "--reader-runs",
           "export": "--set-finder", "drawn-art": "--decoys", "finder": "--imgsz", "all": "--classifiers",
           "corners": "--corners-run", "refiner": "--faces", "ship-refiner": "--refiner-run"}
    assert own.get(command, "--help") in out


def test_the_defaults_follow_the_cache_root(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MJ_CACHE", str(tmp_path / "c"))
    monkeypatch.setenv("MJ_SHARED", str(tmp_path / "s"))
    commands = _commands()
    assert commands["finder"].parse_args([]).data == tmp_path / "c" / "datasets" / "hands"
    assert commands["classifier"].parse_args([]).runs == tmp_path / "c" / "runs"
    assert commands["classifier"].parse_args([]).real == tmp_path / "s" / "real" / "camerash"
    assert commands["synth"].parse_args(["--out", "x"]).art == tmp_path / "c" / "art" / "faces"



@pytest.mark.parametrize(("extra", "device", "leave_out", "faults"), [
    ([], "cpu", (), (0.0, 0.0, None, (0.6, 4.0))),
    (["--device", "cuda", "--leave-out", "5z", "back", "--faults", "0.35", "--distil", "1", "--fault-kinds", "1", "0",
      "0", "--fault-blur", "2", "4"], "cuda", ("5z", "back"), (0.35, 1.0, (1.0, 0.0, 0.0), (2.0, 4.0))),
])
def test_the_classifier_trains_on_the_cpu_unless_told_and_leaves_out_the_names_given(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        extra: list[str], device: str, leave_out: tuple, faults: tuple) -> None:
    from training import classifier

    seen: list[tuple] = []
    monkeypatch.setattr(classifier, "train_classifier", lambda *a: seen.append(a[-6:]) or {})
    assert cli.main(["classifier", "--runs", str(tmp_path), *extra]) == 0
    assert seen == [(device, leave_out, *faults)]
    with pytest.raises(SystemExit):
        cli.main(["classifier", "--runs", str(tmp_path), "--leave-out", "9z"])
    assert "invalid choice: '9z'" in capsys.readouterr().err


def test_synth_and_show_run_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "ds"
    assert cli.main(["synth", "--out", str(out), "--train", "2", "--val", "1", "--seed", "4", "--art", "plain",
                     "--min-mp", "0.2", "--max-mp", "0.3"]) == 0
    assert capsys.readouterr().out.strip() == f"wrote {out / 'data.yaml'}"
    assert len(list((out / "images" / "train").glob("*.jpg"))) == 2
    assert (out / "layout" / "val" / "000002.json").exists()
    drawn = tmp_path / "shown.png"
    assert cli.main(["show", str(out / "images" / "val" / "000002.jpg"), str(drawn)]) == 0
    assert drawn.stat().st_size > 1000
    hand = json.loads((out / "layout" / "val" / "000002.json").read_text())["hand"]
    assert hand is None or "+" in hand


def test_a_run_not_there_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["ship", "--runs", str(tmp_path), "--classifier-run", "gone", "--models", str(tmp_path / "m")])
    assert f"{tmp_path / 'gone' / 'summary.json'} not found" in capsys.readouterr().err
    assert cli.main(["synth", "--out", str(tmp_path / "d"), "--art", str(tmp_path / "no-art"), "--train", "1"]) == 2
    assert "no tile styles under" in capsys.readouterr().err
    (tmp_path / "rows1").mkdir()
    (tmp_path / "rows1" / "summary.json").write_text("{}")
    with pytest.raises(SystemExit):  # a network for rows standing goes beside a face network that is not there
        cli.main(["ship-corners", "--rows", "--runs", str(tmp_path), "--corners-run", "rows1", "--models",
                  str(tmp_path / "m")])
    assert "which is not there (ship one first)" in capsys.readouterr().err
    with pytest.raises(SystemExit):  # the refiner learns to find again the faces of a face network that is not there
        cli.main(["refiner", "--runs", str(tmp_path), "--faces", str(tmp_path / "none.onnx")])
    assert f"--faces {tmp_path / 'none.onnx'}: no such file" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["ship-refiner", "--runs", str(tmp_path), "--refiner-run", "gone", "--models", str(tmp_path / "m")])
    assert f"{tmp_path / 'gone' / 'summary.json'} not found" in capsys.readouterr().err


def test_styles_there_but_none_asked_for_are_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The held-out style is left out by default: asked for alone, nothing is left, and the message says why (it said
    "no tile styles under ...; run python -m training fetch-art", with the styles there)."""
    art = tmp_path / "faces"
    (art / "kd_traditional").mkdir(parents=True)
    (art / "fluffy").mkdir()
    out = tmp_path / "d"
    assert cli.main(["synth", "--out", str(out), "--art", str(art), "--train", "1", "--styles", "kd_traditional"]) == 2
    err = capsys.readouterr().err
    assert "both asked for (kd_traditional) and not left out (kd_traditional" in err
    assert "the styles there: fluffy, kd_traditional" in err


def test_all_runs_classifier_ship_finder_and_card_in_turn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    from training import card, classifier, finder, ship

    monkeypatch.setenv("MJ_CACHE", str(tmp_path / "c"))
    steps: list[tuple] = []

    def train_classifier(data: list, real: Path, run: Path, epochs: int, *rest: object) -> dict:
        steps.append(("classifier", data, epochs))
        run.mkdir(parents=True)
        (run / "summary.json").write_text("{}")
        return {}

    def train_finder(data: Path, runs: Path, epochs: int, imgsz: int, batch: int, hours: float) -> Path:
        steps.append(("finder", data, epochs, imgsz))
        return runs / "finder" / "weights" / "best.pt"

    monkeypatch.setattr(classifier, "train_classifier", train_classifier)
    monkeypatch.setattr(ship, "ship_run", lambda run, dest, calibration: steps.append(("ship", dest.name)) or dest)
    monkeypatch.setattr(finder, "train_finder", train_finder)
    monkeypatch.setattr(finder, "export_finder", lambda best, models: steps.append(("export", best.name)) or best)
    monkeypatch.setattr(card, "write_card",
                        lambda models, runs, *rest, **kw: steps.append(("card", *rest, kw)) or models)
    data, models = tmp_path / "d", tmp_path / "m"
    assert cli.main(["all", "--data", str(data), "--runs", str(tmp_path / "r"), "--models", str(models),
                     "--imgsz", "320", "--classifiers", "c1", "c2"]) == 0
    assert steps == [("classifier", [data], 8), ("ship", "tile_classifier.onnx"), ("finder", data, 12, 320),
                     ("export", "best.pt"), ("card", [], ["c1", "c2"], tmp_path / "c" / "bench" / "eval_vision.json",
                                             [], None, None, None, None, [], None, None, {"allow_missing": False})]
    assert "card: " in capsys.readouterr().out


def test_the_card_refuses_by_name_runs_whose_records_are_gone(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    models = tmp_path / "m"
    models.mkdir()
    assert cli.main(["card", "--runs", str(tmp_path / "r"), "--models", str(models), "--classifiers", "gone"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("card: the records of finder, gone are neither under") and "--allow-missing" in err
    assert not (models / "README.md").exists()
    assert cli.main(["card", "--runs", str(tmp_path / "r"), "--models", str(models), "--classifiers", "gone",
                     "--bench", str(tmp_path / "none.json"), "--allow-missing"]) == 0
    assert "no classifier run recorded under `gone`" in (models / "README.md").read_text()


def test_training_without_the_train_extra_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    def no_torch(args: argparse.Namespace) -> int:
        raise ModuleNotFoundError("No module named 'torch'", name="torch")

    monkeypatch.setattr(cli, "_classifier", no_torch)
    assert cli.main(["classifier", "--runs", str(tmp_path)]) == 2
    assert capsys.readouterr().err == ("python -m training classifier: torch is not installed; training needs the "
                                       "train extra: pip install -e '.[train]'\n")


@pytest.mark.parametrize(("extra", "shipped_as"), [([], "tile_classifier.onnx"), (["--soft"], "soft_classifier.onnx"),
                                                          (["--shaken"], "shaken_classifier.onnx")])
def test_a_classifier_run_ships_as_the_tile_soft_or_shaken_classifier(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                     extra: list[str], shipped_as: str) -> None:
    from training import card, ship

    (tmp_path / "r" / "c1").mkdir(parents=True)
    (tmp_path / "r" / "c1" / "summary.json").write_text("{}")
    shipped: list[str] = []
    monkeypatch.setattr(ship, "ship_run", lambda run, dest, calibration: shipped.append(dest.name) or dest)
    monkeypatch.setattr(card, "keep_records", lambda *a: [])
    assert cli.main(["ship", "--runs", str(tmp_path / "r"), "--classifier-run", "c1", "--models", str(tmp_path / "m"),
                     *extra]) == 0
    assert shipped == [shipped_as]
