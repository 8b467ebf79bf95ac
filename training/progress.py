"""A progress bar on stderr: ``with Bar(total, "what") as bar: bar.update()``. In a terminal one line is redrawn;
elsewhere (a log file) a line is written every ``LOG_SECONDS`` and at the end.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

WIDTH = 24
DRAW_SECONDS = 0.2
LOG_SECONDS = 10.0


def _clock(seconds: float) -> str:
    """``m:ss``.

    >>> _clock(75.4), _clock(3600)
    ('1:15', '60:00')
    """
    m, s = divmod(int(seconds), 60)
    return f"{m}:{s:02d}"


class Bar:
    """Progress through ``total`` steps of ``what``, with the time spent, the time left and a note (a loss)."""

    def __init__(self, total: int, what: str, stream: TextIO | None = None) -> None:
        self.total, self.what = max(0, total), what
        self.stream = stream or sys.stderr
        self.done, self.note = 0, ""
        self.tty = self.stream.isatty()
        self.started = self.drawn = time.monotonic()
        self._shown = -1  # the steps done when last drawn
        self._skipped = 0  # steps done before this session (a resumed run): not counted in the rate

    def __enter__(self) -> Bar:
        self._draw(force=True)
        return self

    def __exit__(self, *exc: object) -> None:
        self._draw(force=True)
        if self.tty:
            self.stream.write("\n")
        self.stream.flush()

    def skip(self, steps: int) -> None:
        """``steps`` were done already (a resumed run)."""
        self.done += steps
        self._skipped += steps

    def update(self, steps: int = 1, note: str | None = None) -> None:
        self.done += steps
        if note is not None:
            self.note = note
        self._draw()

    def line(self) -> str:
        """The bar as shown."""
        share = self.done / self.total if self.total else 1.0
        filled = round(WIDTH * min(share, 1.0))
        spent = time.monotonic() - self.started
        rate = (self.done - self._skipped) / spent if spent > 0 else 0.0
        left = f" <{_clock((self.total - self.done) / rate)}" if rate > 0 and self.done < self.total else ""
        note = f"  {self.note}" if self.note else ""
        return (f"{self.what} [{'#' * filled}{'.' * (WIDTH - filled)}] {self.done}/{self.total} "
                f"{_clock(spent)}{left}{note}")

    def _draw(self, force: bool = False) -> None:
        now = time.monotonic()
        if self.done == self._shown and not self.tty or not force and now - self.drawn < (
                DRAW_SECONDS if self.tty else LOG_SECONDS):
            return
        self.drawn, self._shown = now, self.done
        self.stream.write(f"\r{self.line()}\x1b[K" if self.tty else f"{self.line()}\n")
        self.stream.flush()
