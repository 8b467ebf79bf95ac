"""From tile detections to a hand: rows, groups, melds, the winning tile and flowers. Pure and deterministic.

``group_melds(detections, complete=scorer.is_complete_tiles) -> Layout``; ``layout.hand`` is the contract's notation
(or None when the tiles make no legal hand, with ``layout.problem`` saying which count is wrong). The rules of
mahjong are not written here: ``complete`` (tile names -> a complete hand?) is the scorer's, passed in by ``api``.

How it reads a photo (every length is relative to the tile size ``u``, so the photo's resolution does not matter):

1. Duplicate boxes (the same tile found twice) are merged, keeping the most confident.
2. The row direction is the most common direction from each tile to its nearest neighbour (tiles in a row touch,
   rows are further apart), so a photo turned 90 or 180 degrees or tilted reads the same. Coordinates are turned
   so rows run along x; ``u`` is the median spacing of neighbouring upright tiles along a row.
3. Rows: tiles sorted across the row direction, split where consecutive centres are more than ``ROW_GAP * u``
   apart. Groups: tiles along a row, split where the free space between two tiles (their centre distance less
   their widths, a sideways tile being ``SIDEWAYS`` times as wide) is more than ``GROUP_GAP * u``.
4. The hand is the row with the most tiles in groups, alone or with one neighbouring row (the melds' row);
   every way of reading it (which row is the concealed one, which way round it reads, an end tile left out as a
   loose tile) is tried, and the reading that makes a legal hand (14 or 17 tiles, kongs counted as 3) and a
   complete one wins.
5. Groups of 3 or 4 with a sideways tile are exposed melds (chow, pung or kong by their tiles); 4 with 2 or 4
   ``back`` tiles are concealed kongs (4 backs: the tile is unknown). In the concealed row, the winning tile is a
   single tile set apart after the concealed tiles (3k+1 of them); groups beyond it are exposed melds shown
   without a sideways tile. Where no tile is set apart, the concealed tiles (3k+2) come first, and the groups after
   them are melds if they all split into melds; an end tile in line is left out as loose only when it lies farther
   off than a winning tile is set apart (``WIN_GAP``), measured from the hand's tiles, past its flowers. Flowers
   (``f``) are set aside wherever they lie, in the hand's rows or in their own row near it; a flower lying askew,
   alone, away from the hand is a loose tile. A single tile near the hand may lie turned up to ``ASKEW_WIN`` degrees
   from the row (a winning tile set down casually); turned further, or far from the hand, a tile alone is loose. A
   lone back touching either end of a group of faces is split off (a concealed kong shows two backs or four), and the
   reading may leave it out as loose however near it lies, where no winning tile is set apart too (a back cannot be
   the winning tile).

Rows shot in perspective (tiles standing, shot low and from the side) are measured in each tile's own size along
the row (``geometry.fit_scale``): gaps, overlaps, shapes and flowers' distances, so that a row whose tiles grow,
bend and overlap reads as one seen from above.

The rooms, in the order a photo passes them: ``geometry`` (steps 1-3; ``frame`` measures the boxes once per photo,
reused when second choices rename tiles), ``melds`` (what a group of tiles shows),
``reading`` (one way of reading the rows and its rank), ``flowers``, ``search`` (step 4, and the ``Layout`` built
from the best reading); ``result`` holds the answer's types, ``notation`` the names as notation and ``tuning`` the
tuned numbers.
"""

from __future__ import annotations

from vision.layout.geometry import DetectionLike
from vision.layout.melds import meld_kind
from vision.layout.notation import tiles_notation
from vision.layout.reading import Complete
from vision.layout.result import Layout, Meld, Problem, Row
from vision.layout.search import group_melds

__all__ = ["Complete", "DetectionLike", "Layout", "Meld", "Problem", "Row", "group_melds", "meld_kind",
           "tiles_notation"]
