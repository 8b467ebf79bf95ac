"""The layout stage's tuned numbers, in one table: lengths in tile sizes ``u`` (the photo's resolution does not
matter), shares and counts."""

from __future__ import annotations

ROW_GAP = 0.6  # rows: split where centres across the row direction are this many tile sizes apart
GROUP_GAP = 0.14  # groups: split where the free space along a row exceeds this many tile widths
BOX_DEPTH = 1.45  # an upright tile's box across the row, in tile widths (face 1.36 and some of its side)
U_FLOOR = 0.9  # the tile size is at least this share of the width its box implies
SIDEWAYS = 1.36  # a sideways tile's width along the row, in upright tile widths
NEAR_ROW = 3.6  # a second hand row lies within this many tile sizes of the main row
FAR_GAP = 2.6  # a single tile this far from the rest of its row is loose
SHAPE_TOL = 0.13  # a loose-looking single tile must match the hand's box shape within this share
ASKEW_WIN = 20.0  # ... or, near the hand (a winning tile set apart), an upright tile's turned up to this many degrees
DUP_IOU = 0.6  # boxes overlapping this much are the same tile
DUP_SHIFT = 0.3  # ... or one mostly inside the other, their centres this share of the smaller box's sides apart
BORDER = 0.3  # the winning tile and the melds are set apart by at least this gap; a narrower border costs
# a lone flower whose box is the hand's upright tiles' in one side and from this share of theirs in the other is not
# loose by its shape (``geometry.cut_short``: partly hidden behind the hand, or boxed short)
SHORT = 0.75
NEAR_GAP = 0.6  # a lone tile nearer than this to a group is not judged loose before the reading
WIN_GAP = 1.5  # a winning tile is set apart by at most this much
OVERLAP = 0.35  # neighbours in a row overlapping by this share of a tile width are one tile
OVERLAP_LOW = 0.55  # ... in a photo shot in perspective (boxes hold the sides that tiles show)
# a row whose tiles' spacing changes by more than this share along it is a row shot in perspective: its tiles are
# measured by the spacing's line, spacings within this share of it (``geometry.fit_scale``); from above: one size
PERSPECTIVE = 0.15
# a hand whose flowers' boxes are flatter than this share of its upright tiles' (height across the row over width
# along it) stands and is seen from low, its flowers lying flat (``geometry.seen_low``): its flowers are read as in a
# row shot in perspective
FLAT = 0.8
# ... or whose tiles, this many or more besides its flowers, the face network judged mostly standing
STANDS = 3
# ... and there a run of flowers past either end of the hand lies up to this many tile sizes past it (their boxes,
# lying flat and seen from low, are wide: measured from their middles they lie farther off). 40 standing hands seen
# from in front (bench.eval_cases' standing_front), true boxes: 25 / 27 / 27 / 27 of 40 at 2.7 / 3.1 / 3.4 / 3.8; 80
# rows shot low (seed 31) 64 / 65 / 65 / 65; layout_eval's detections 437 at each. 3.1 until the twentieth session:
# at 3.5, of 100 + 100 fresh rows shot low and standing hands from in front (``synth --camera low`` seed 7301,
# ``front`` 7312), true boxes, 2 + 1 more hands, through the detector 1 more; none lost in any set
BESIDE_LOW = 3.5
# a photo not shot in perspective: a row of MIN_ROW tiles or more whose boxes are NEARER times the photo's median box
# (or as much smaller) is measured at its own size (``geometry.nearer_rows``: melds lying before a standing hand seen
# from in front). True boxes of 40 standing hands seen from in front: 30 -> 32 at 1.05 to 1.1, 31 at 1.2 and 1.3;
# 500 layout_eval photos, with and without noise, 80 tables, 80 tables of 120 and 240 tiles alike at each
NEARER, MIN_ROW = 1.1, 3
# ... in rows of this many tiles or more (5 until the twentieth session: 4 read 4 more of 400 fresh rows standing, from
# their true boxes, none lost in any set)
MIN_FIT = 4
# ... whose boxes grow by more than this share along the row (box noise of 4% grows a short row 20%). 0.3 until the
# twentieth session: a row standing, seen from in front and to one side, whose spacing halves along it while its boxes
# (holding the near tiles' sides) shrink by a fifth, was measured at one size. Hands read from the true boxes of
# ``eval_cases``' standing from in front + shot low (40 + 40), and of fresh ones (``synth --camera front`` + ``low``,
# 100 + 100): at 0.3, 32 + 32 and 63 + 77; at 0.2, 33 + 34 and 73 + 79; at 0.15, 35 + 37 and 77 + 80; none lost. Through
# the detector 0.15 lost a hand from above (``layout_eval`` 000219, its boxes growing 16%) and a table of 120 tiles
GROWTH = 0.2
# ... or whose boxes grow by more than GROWTH_HIGH in height across the row (the near tiles of a row standing, seen
# from in front and to one side, turn their faces from the camera: their boxes grow higher, hardly bigger), steadily:
# the rise of the heights' line STEADY times their scatter about it or more (heights of boxes noisy by 8%, seen from
# above, rise 0.4 to 3.2 times their scatter; rows seen so, true boxes, 10 to 200). Twenty-fifth session, hands read
# from the true boxes of fresh standing from in front (``synth --camera front`` seed 7302): 74 without, 83 at 0.2
# (steady or not), 91 at 0.15, 92 at 0.1; at 0.1 ``layout_eval`` with box noise of 8% lost one (435 -> 434), at 0.15
# none in any set, noisy or through the detector; unsteady at 0.2, it lost 1 and 2 there (see docs/photo.md)
GROWTH_HIGH, STEADY = 0.15, 4.0
LINE_PAIRS = 24  # ... every pair of spacings tried in rows up to this long, beyond it some (a time linear in tiles)
# a table's walls (``table.py``): a group of a row with more backs than WALL_BACKS (a concealed kong shows four),
# mostly backs; and, before the boxes are measured, a run of more backs than WALL_RUN (two concealed kongs side by
# side show eight) touching (gaps under WALL_TOUCH tile sizes). On 40 generated tables of 240 tiles (their true
# boxes; runs of tiles, 0.8 of them backs) WALL_TOUCH 0.1 / 0.2 / 0.3 / 0.5 read 20 / 20 / 21 / 17 hands, of 120
# tiles 36 / 35 / 33 / 26 (runs of more than four backs; of 500 hand photos, 2 and 1 hands were lost: a concealed
# kong touching a meld and a loose back; more than six or eight backs lost none, and 35 or 34 tables of 120)
WALL_BACKS, WALL_RUN, WALL_TOUCH = 4, 8, 0.2
# ... in a photo of a hand, a back the finder gave less than this is not counted among a group's WALL_BACKS: a kong's
# four backs and a spurious box beside them (layout_eval's 188) are no wall
DOUBTED = 0.3
# ... in a photo of a whole table (TABLE_TILES detections or more), backs in line with a run within WALL_SKIP tile
# sizes (a tile the finder missed between them) are in it: on those 40 tables through the detector 20 -> 22 hands at
# 1.0 to 2.2 (a wall's runs of four no longer read as concealed kongs), of 120 tiles 28 -> 28; a hand photo is left
# as it was
WALL_SKIP = 1.3
# a photo of this many tiles or more, walls aside (more than a hand, its flowers and some loose tiles: a generated
# hand photo shows at most 31), is a whole table, whose tiles lie both ways: where its rows read no hand, they are
# read again a quarter turn round (``vision.relabel.read_hand``)
TABLE_TILES = 40
# ... and, where no rows read it, its parts are read one by one: tiles whose boxes lie within PART_GAP tile sizes are
# one part (a hand's winning tile lies 1.5 apart at most). On 40 generated tables of 240 tiles, 23 -> 29 hands read
# from their true boxes at 1.6 (28 at 1.0); through the detector 18 -> 19
PART_GAP = 1.6
HAND_SIZES = (14, 17)  # tiles in a hand, each kong counted as 3 (17: Fuzhou)
