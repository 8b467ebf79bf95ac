"""``bench/captions_once.py``: a photo detected with its caption runs read once and every time, two at once and one
at a time, the same."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

RAW = Path(__file__).resolve().parents[3] / "shared" / "real" / "camerash" / "raw-images"


@pytest.mark.skipif(not (RAW / "6-2.png").exists(), reason="../shared/real not beside")
def test_a_photo_reads_the_same_with_its_captions_read_once(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    from bench.captions_once import main
    from vision.captions import CaptionReader

    shutil.copy(RAW / "6-2.png", tmp_path)  # a set of flowers and honours: its captions are read
    once = CaptionReader.remembering
    assert main(["--photos", str(tmp_path), "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert "1 photos, 1 rounds; detections differing: 0" in out and "ratio" in out
    assert CaptionReader.remembering is once  # put back
    with pytest.raises(SystemExit):
        main(["--photos", str(tmp_path / "none")])


@pytest.mark.skipif(not (RAW / "6-2.png").exists(), reason="../shared/real not beside")
def test_a_photo_reads_the_same_with_its_caption_runs_read_two_at_once(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture) -> None:
    import vision.captions
    from bench.captions_once import main

    shutil.copy(RAW / "6-2.png", tmp_path)
    runs = vision.captions.RUNS
    assert main(["--photos", str(tmp_path), "--rounds", "1", "--saving", "runs"]) == 0
    out = capsys.readouterr().out
    assert "1 photos, 1 rounds; detections differing: 0" in out and "two at once" in out and "one at a time" in out
    assert vision.captions.RUNS == runs == 2  # put back


@pytest.mark.skipif(not (RAW / "6-2.png").exists(), reason="../shared/real not beside")
@pytest.mark.parametrize(("saving", "option", "without"),
                         [("folds", "unfolded", "unfolded"), ("int8", "float", "float")])
def test_a_photo_reads_the_same_with_another_build_of_the_recogniser_swapped_in_and_back(
        tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch, saving: str, option: str,
        without: str) -> None:
    """``--saving folds`` reads each photo with the recogniser at ``--unfolded`` in the caption reader's place, then
    puts its own back, and ``--saving int8`` with the one at ``--float`` (here a copy of the shipped one stands in for
    the other build, which needs the OCR wheel)."""
    from bench.captions_once import main
    from training import paths
    from vision.detector import TileDetector

    shutil.copy(RAW / "6-2.png", tmp_path)
    other = shutil.copy(paths.MODELS / "caption_reader.onnx", tmp_path / f"{option}.onnx")
    kept = {}
    made = TileDetector.__init__

    def init(self: TileDetector, *args: object, **kwargs: object) -> None:
        made(self, *args, **kwargs)
        kept["reader"], kept["session"] = self._captions, self._captions._session

    monkeypatch.setattr(TileDetector, "__init__", init)
    with pytest.raises(SystemExit):  # --unfolded goes with --saving folds, and it with --unfolded (so --float, int8)
        main(["--photos", str(tmp_path), "--saving", saving])
    with pytest.raises(SystemExit):
        main(["--photos", str(tmp_path), f"--{option}", str(other)])
    assert main(["--photos", str(tmp_path), "--rounds", "1", "--saving", saving, f"--{option}", str(other)]) == 0
    out = capsys.readouterr().out
    assert "1 photos, 1 rounds; detections differing: 0" in out and f"{without}: p50" in out
    assert kept["reader"]._session is kept["session"]  # its own put back


@pytest.mark.skipif(not (RAW / "6-2.png").exists(), reason="../shared/real not beside")
def test_a_photo_reads_the_same_with_its_captions_carried_into_its_second_naming(
        tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    from bench.captions_once import main
    from vision.detector import TileDetector

    shutil.copy(RAW / "6-2.png", tmp_path)
    named = TileDetector._named
    assert main(["--photos", str(tmp_path), "--rounds", "1", "--saving", "carried"]) == 0
    out = capsys.readouterr().out
    assert "1 photos, 1 rounds; detections differing: 0" in out and "carried" in out and "read again" in out
    assert TileDetector._named is named  # put back
