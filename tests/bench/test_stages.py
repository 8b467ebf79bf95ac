"""``bench/stages.py``: each stage's own time, less the stages it calls; the stages put back after."""

from __future__ import annotations

import shutil
import time
from collections import defaultdict
from pathlib import Path

import pytest

RAW = Path(__file__).resolve().parents[3] / "shared" / "real" / "camerash" / "raw-images"


class _Work:
    def outer(self) -> None:
        time.sleep(0.02)
        self.inner()

    def inner(self) -> None:
        time.sleep(0.1)


def test_a_stage_counts_its_own_time_less_the_stages_it_calls() -> None:
    from bench.stages import timed

    own: dict[str, float] = defaultdict(float)
    outer, inner = _Work.outer, _Work.inner
    with timed([(_Work, "outer", "outer"), (_Work, "inner", "inner")], own):
        _Work().outer()
    assert 0.02 <= own["outer"] < 0.1 <= own["inner"]  # the outer's own 20 ms, not the inner's 100 as well
    assert _Work.outer is outer and _Work.inner is inner  # put back


def test_a_stage_that_raises_is_counted_and_put_back() -> None:
    from bench.stages import timed

    def fail(_self: _Work) -> None:
        raise ValueError

    own: dict[str, float] = defaultdict(float)
    _Work.failing = fail  # type: ignore[attr-defined]
    try:
        with pytest.raises(ValueError), timed([(_Work, "failing", "failing")], own):
            _Work().failing()  # type: ignore[attr-defined]
        assert "failing" in own and _Work.__dict__["failing"] is fail
    finally:
        del _Work.failing  # type: ignore[attr-defined]


@pytest.mark.skipif(not (RAW / "2-4.jpg").exists(), reason="../shared/real not beside")
def test_a_photos_time_is_told_by_stage(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    import api.pipeline
    import vision.relabel
    from bench.stages import main
    from vision.detector import TileDetector

    shutil.copy(RAW / "2-4.jpg", tmp_path)  # a row of tiles: found, named and laid out
    looked_at = TileDetector._looked_at
    assert main(["--photos", str(tmp_path), "--slowest", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("1 photos, 1 round(s): ")
    spent = {line[:35].strip(): float(line[35:].split("ms")[0]) for line in out[1:]}
    assert {"classifier", "layout and second choices", "decoding", "finders' looks", "the rest"} <= set(spent)
    total = float(out[0].split(": ")[1].split(" ms")[0])
    assert abs(sum(spent.values()) - total) <= 0.1 * len(spent) + 1  # the stages and the rest make up the read
    assert spent["classifier"] > 0 and spent["layout and second choices"] > 0
    assert TileDetector._looked_at is looked_at and api.pipeline.read_hand is vision.relabel.read_hand  # put back
    with pytest.raises(SystemExit):
        main(["--photos", str(tmp_path / "none")])
    with pytest.raises(SystemExit):
        main(["--photos", str(tmp_path), "--rounds", "0"])


@pytest.mark.skipif(not (RAW / "2-4.jpg").exists(), reason="../shared/real not beside")
def test_a_photo_that_cannot_be_read_is_left_out_and_named(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    from bench.stages import main

    good = RAW / "2-4.jpg"
    shutil.copy(good, tmp_path / "good.jpg")
    (tmp_path / "cut.jpg").write_bytes(good.read_bytes()[:4000])  # a JPEG cut short
    assert main(["--photos", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("1 photos, 1 round(s): ") and "left out" in err and "cut.jpg" in err
    (tmp_path / "good.jpg").unlink()
    with pytest.raises(SystemExit):  # none left to measure
        main(["--photos", str(tmp_path)])
    assert "none of the photos could be read" in capsys.readouterr().err
