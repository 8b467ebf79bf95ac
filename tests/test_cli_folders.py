"""The mjscore command on several photos or a folder (``mjscore detect DIR --json``): a JSON line per photo with its
path, the progress on stderr, a photo that fails on its own line while the run goes on, the folder's photos (not its
hidden files), the pictures' folder, and a run ended early (a closed pipe, Ctrl-C)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from api.cli import main
from tests.api.support import FixedDetector, png
from tests.test_cli import HAND, HAND_TEXT


@pytest.fixture
def fake() -> FixedDetector:
    return FixedDetector(HAND)


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "photos"
    folder.mkdir()
    for name in ("b.jpg", "a.png"):
        png(folder, name, fmt="JPEG" if name.endswith("jpg") else "PNG")
    (folder / "c.jpg").write_text("not a photo\n")
    (folder / "notes.txt").write_text("not looked at\n")
    return folder


@pytest.mark.parametrize("command", [["detect"], [], ["photo"]])
def test_a_folder_gives_a_json_line_per_photo(tmp_path: Path, fake: FixedDetector,
                                              capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    """Each photo of a folder (by name, not its other files) gives one JSON line with its path; a photo that fails
    gives its error object on its line and the run goes on; the progress is on stderr, a line each off a terminal."""
    folder = _folder(tmp_path)
    assert main([*command, str(folder), "--json"], detector=fake) == 1  # one photo failed
    captured = capsys.readouterr()
    lines = [json.loads(line) for line in captured.out.splitlines()]
    assert [Path(line["photo"]).name for line in lines] == ["a.png", "b.jpg", "c.jpg"]
    hands = [(line.get("recognition") or line).get("hand") for line in lines[:2]]
    assert hands == [HAND_TEXT, HAND_TEXT]
    assert lines[2]["ok"] is False and lines[2]["error"]["code"] == "bad_image"
    progress = captured.err.splitlines()
    assert len(progress) == 3 and progress[0].startswith("photo 1/3 ") and "bad_image" in progress[2]


def test_several_photos_by_name(tmp_path: Path, fake: FixedDetector, capsys: pytest.CaptureFixture[str]) -> None:
    one, two = png(tmp_path, "one.png"), png(tmp_path, "two.png")
    assert main([str(one), str(two), "--json", "--annotated", str(tmp_path / "drawn")], detector=fake) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["photo"] for line in lines] == [str(one), str(two)]
    assert all(line["result"]["ok"] for line in lines)
    assert sorted(p.name for p in (tmp_path / "drawn").iterdir()) == ["one.jpg", "two.jpg"]


def test_a_folder_passes_over_hidden_files_and_names_a_link_to_a_photo_gone(
        tmp_path: Path, fake: FixedDetector, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _folder(tmp_path)
    (folder / "._b.jpg").write_bytes(b"\x00\x05\x16\x07 AppleDouble")  # a Mac's resource fork beside b.jpg
    (folder / "d.jpg").symlink_to(tmp_path / "gone.jpg")
    assert main(["detect", str(folder), "--json"], detector=fake) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [Path(line["photo"]).name for line in lines] == ["a.png", "b.jpg", "c.jpg", "d.jpg"]
    assert lines[3]["error"]["code"] == "bad_image" and "no such file" in lines[3]["error"]["message"]


def test_a_folder_read_as_text(tmp_path: Path, fake: FixedDetector, capsys: pytest.CaptureFixture[str]) -> None:
    """Without --json: each photo's summary under its path; a photo that fails is named on stderr."""
    assert main(["detect", str(_folder(tmp_path))], detector=fake) == 1
    captured = capsys.readouterr()
    heads = [line for line in captured.out.splitlines() if line.startswith("== ")]
    assert [Path(h[3:]).name for h in heads] == ["a.png", "b.jpg"]
    assert captured.out.count("hand:  " + HAND_TEXT) == 2
    assert "mjscore: bad_image: " in captured.err and "c.jpg" in captured.err


def test_several_photos_pictures_folder_that_cannot_be_made_is_refused_first(
        tmp_path: Path, fake: FixedDetector, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a-file").write_text("x")  # a traceback (NotADirectoryError) after the first photo was read
    with pytest.raises(SystemExit) as stop:
        main([str(_folder(tmp_path)), "--annotated", str(tmp_path / "a-file" / "drawn")], detector=fake)
    assert stop.value.code == 2 and fake.calls == 0
    assert "--annotated: cannot make the folder" in capsys.readouterr().err


def test_several_photos_want_a_folder_for_their_pictures(tmp_path: Path, fake: FixedDetector,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main([str(_folder(tmp_path)), "--annotated", str(tmp_path / "out.jpg")], detector=fake)
    assert stop.value.code == 2 and "a folder" in capsys.readouterr().err and fake.calls == 0


def test_progress_is_a_bar_on_a_terminal() -> None:
    from api.photos import Progress

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    stream = Tty()
    bar = Progress(2, stream)
    bar.step("x/a.jpg", "14 tile(s)")
    bar.step("x/b.jpg", "bad_image")
    text = stream.getvalue()
    assert text.count("\r") == 2 and text.endswith("2/2 b.jpg: bad_image\n") and "[" + "#" * 24 + "]" in text


def test_an_empty_folder_is_an_error(tmp_path: Path, fake: FixedDetector, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "empty").mkdir()
    assert main(["detect", str(tmp_path / "empty")], detector=fake) == 1
    assert "holds no photo" in capsys.readouterr().err


def test_a_closed_pipe_in_the_photo_commands(tmp_path: Path, fake: FixedDetector,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    read, write = os.pipe()
    os.close(read)
    stdout = os.fdopen(write, "w")
    monkeypatch.setattr(sys, "stdout", stdout)
    assert main(["detect", str(_folder(tmp_path)), "--json"], detector=fake) == 141
    stdout.close()


class InterruptedDetector(FixedDetector):
    """Ctrl-C pressed while it reads its second photo."""

    def detect(self, image: object) -> list:
        if self.calls == 1:
            raise KeyboardInterrupt
        return super().detect(image)


def test_ctrl_c_ends_a_folder_run_quietly_with_the_photos_answered_so_far(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _folder(tmp_path)
    assert main(["detect", str(folder), "--json"], detector=InterruptedDetector(HAND)) == 130  # as a shell says it
    captured = capsys.readouterr()
    assert [Path(json.loads(line)["photo"]).name for line in captured.out.splitlines()] == ["a.png"]
    assert captured.err.endswith("\nmjscore: interrupted\n") and "Traceback" not in captured.err


def test_a_photos_flags_are_checked_before_any_photo_is_read(tmp_path: Path, fake: FixedDetector,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(_folder(tmp_path)), "--rules", "riichi", "--honba", "-5"], detector=fake) == 1
    assert capsys.readouterr().err == "mjscore: bad_request: 'riichi.honba' must be a whole number from 0 to 99, " \
                                      "not -5\n"
    assert fake.calls == 0  # each photo was read, then refused the same way, before
