"""Several photos on the command line: the photos named (folders opened), and the progress shown on stderr.

``mjscore detect DIR --json`` and ``mjscore PHOTO1 PHOTO2 ... --json`` print one JSON line per photo, each with
the photo's path; the progress goes to stderr, as ultralytics' ``predict`` writes its per-image lines whether or
not the stream is a terminal: on a terminal one bar redrawn in place, elsewhere one line per photo.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

# the photos a folder holds (the suffixes the photo reader opens), in name order
SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".heic", ".heif", ".bmp", ".tif", ".tiff")


class NoPhotosError(ValueError):
    """A folder named on the command line holds no photo."""


def photo_paths(names: list[str]) -> tuple[list[str], bool]:
    """The photos ``names`` stand for, a folder standing for the photos in it (not its subfolders, nor its hidden
    files: a Mac's ``._IMG_1.jpg`` beside each photo copied from it is no photo, and ``*`` in a shell or ultralytics'
    ``predict`` passes them over too; a link to a photo that is gone is listed, its line saying so), and whether
    they are several (more than one name, or a folder): each answer then carries the photo's path.
    ``NoPhotosError`` for a folder without photos."""
    out: list[str] = []
    several = len(names) > 1
    for name in names:
        path = Path(name)
        if not path.is_dir():
            out.append(name)
            continue
        several = True
        found = sorted(str(p) for p in path.iterdir() if (p.is_file() or p.is_symlink() and not p.exists())
                       and p.suffix.lower() in SUFFIXES and not p.name.startswith("."))
        if not found:
            msg = f"the folder {name} holds no photo (looked for {', '.join(SUFFIXES)})"
            raise NoPhotosError(msg)
        out += found
    return out, several


@dataclass
class Progress:
    """Progress through ``total`` photos on ``stream``: a bar redrawn in place on a terminal, else a line each."""

    total: int
    stream: TextIO = field(default_factory=lambda: sys.stderr)
    done: int = 0

    def step(self, photo: str, what: str) -> None:
        """One more photo done; ``what`` says what it read (or its error)."""
        self.done += 1
        if self._terminal():
            width = 24
            bar = "#" * (width * self.done // self.total)
            self.stream.write(f"\r\033[K[{bar:<{width}}] {self.done}/{self.total} {Path(photo).name}: {what}")
            if self.done == self.total:
                self.stream.write("\n")
        else:
            self.stream.write(f"photo {self.done}/{self.total} {photo}: {what}\n")
        self.stream.flush()

    def _terminal(self) -> bool:
        isatty = getattr(self.stream, "isatty", None)
        return bool(isatty and isatty())
