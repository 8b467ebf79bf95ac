"""A back is coloured, a face is not: a tile named ``back`` whose top is the colour of the photo's faces is a blank
white dragon (``5z``), and a tile named ``5z`` whose top is coloured otherwise is a back.

Many sets print the white dragon as a plain white face, with no frame, which the classifier can take for a back (the
generator's sets include white-backed ones, where the two are alike but for the tile's place). A face-down tile shows
the coloured back of its set; its face layer, white, lies underneath. So a tile's top, the middle of its face cut
straight, is compared with the ground of the photo's faces (the commonest colour of the middles of the tiles named
surely as faces): a white top has the ground's shares of the three channels at about its brightness (the light falls
unevenly), a coloured one has not, or is much darker.

The colour alone does not tell a back of a white-backed set from a blank white dragon (nor a white thing on the
table from either), so a white ``back`` the classifier doubts (``WHITE_DOUBT``) becomes a ``5z`` only where the photo
tells which: two other tiles read as backs are of one colour, not white (the set's backs are coloured: clearly, or
named surely and not white, as a pale pink back beside ivory faces), or the tile lies in a row beside a tile read
``5z`` (its pung; not the end of a row of four, back, 5z, 5z and a back or a ``5z``: a concealed kong of white dragons
in a white-backed set, one end perhaps misread). No more white dragons are read than a set holds (four).

The other way round, where colour cannot tell: a tile read ``5z`` that ends a row of four alone on the photo, round
two tiles of one other name, is a back (``kong_backs``). White, X, X, white is no meld; a concealed kong shows so.

A back the finder is unsure of is still a back of the set (``missed_backs``): face-down kongs on a busy cloth (dark
backs on a bright check) are boxed at 0.1 to 0.3, below the finder's threshold, and named back at 0.99. Where the
photo shows its set's backs (two named surely, of one colour that is not the faces') and the finder doubted those it
found (``backs_to_look_for``), such a box is taken when it is one more of them: named a back surely, of their
colour, as big as they are, covering no tile found, and in a row with the tiles found.
"""

from __future__ import annotations

import numpy as np

from vision import names
from vision.names import CLASS_ID

BACK, WHITE = CLASS_ID[names.BACK], CLASS_ID[names.WHITE]  # class ids
GROUND_BIN = 0.02  # the faces' ground is their commonest colour, channels' shares binned so (``ground``)
MIDDLE = 0.15  # the middle of a crop, as a share of its side either way of its centre: inside any tile's face
SURE_FACE = 0.8  # a tile named a face with this much shows the photo's face ground
# a top is white (the faces' colour) when its shares of the three channels are within WHITE_CHROMA of the ground's
# (each channel's share of their sum; JPEG noise on a dark ground's weak channels is kept from dividing by
# CHROMA_FLOOR) and its brightness is within a factor LIGHT of the ground's (the light falls unevenly across a photo);
# it is coloured when its shares differ by more than COLOURED_CHROMA, or it is darker than DARK times the ground
# (grey and navy backs beside white faces); between the two, neither is said
WHITE_CHROMA, COLOURED_CHROMA, LIGHT, DARK, CHROMA_FLOOR = 0.04, 0.07, 1.6, 0.5, 0.02
# a tile named 5z with at least this probability of a back becomes one when its top is coloured; a tile named back
# becomes a 5z only with at least WHITE_DOUBT of a 5z (a white disk on the table, read a back, has 0.05 where the
# held-out sets' blank white dragons read back have 0.12 or more: bench/eval_tile_sets.py)
BACK_DOUBT, WHITE_DOUBT = 0.02, 0.1
NEIGHBOUR = 1.15  # two tiles lie side by side in a row when their centres are less than this many tile widths apart
SET_COPIES = 4
# ``missed_backs``: the backs shown are those named back with at least SURE_BACK; a box the finder is unsure of is one
# more when it is named back with as much, is as big as they are within a factor of BACK_SIZE (the square root of its
# area against their median's), covers at most OVERLAP of its area with a tile found (or a surer such box), and its
# centre lies within ROW of the backs' widths of a tile found or of a box taken so (a row of face-down kongs, each
# box beside the next)
SURE_BACK, BACK_SIZE, OVERLAP, ROW = 0.9, 1.33, 0.3, 1.6
# ... looked for only where the finder was unsure of the backs it found (their median confidence below DOUBTED_BACKS):
# of 58 photos showing backs (the dr_58 set's, the held-out style's hands, tables), those where backs were missed and
# taken so showed 0.32 to 0.56, the others but one (0.598) 0.6 or more; then (2026-11-28) bench.learn's dr_58 hands
# showed a kong's third back boxed at 0.17 beside backs found at a median of 0.66 and 0.72, so 0.75 (docs/photo.md)
DOUBTED_BACKS = 0.75
# ``lone_pairs``, ``pair_ends``, ``kong_ends``: a concealed kong shown back, X, X, back whose two backs the finder
# missed leaves a lone pair, two faces named alike surely whose centres lie within PAIR_NEAR of their widths (a meld's
# tiles may lie a little apart: bench.learn's dr_58, a 7m and a 7m at 1.10 and 1.15 of either's), with no other tile
# so near either. Its ends lie a step beyond each of its tiles, and they are taken when both are named back surely, are
# of one colour that is not the faces', and the finder, looking again, boxed something there (a box's centre within
# END_NEAR of a tile's width of the end's: that photo's backs on a red-and-green check were boxed at 0.18 and 0.30,
# the right one half again too big)
PAIR_NEAR, END_NEAR = 1.4, 0.5


def tops(crops: np.ndarray) -> np.ndarray:
    """Per crop (N, 3, S, S, values 0..1, a tile cut straight in its middle): the median colour of its middle (N, 3)."""
    return np.median(_middles(crops), axis=2)


def ground(crops: np.ndarray) -> np.ndarray:
    """The faces' ground (3,) from crops of faces (N, 3, S, S): the commonest colour of their middles, as shares of
    the channels (in bins of GROUND_BIN) at their median brightness. The ground lies on every face, an ink on some
    (an ivory set's red and green, a jade set's white on its dark red): the commonest is the ground."""
    px = _middles(crops).transpose(0, 2, 1).reshape(-1, 3)
    chroma = _chroma(px)
    bins = np.floor(chroma[:, :2] / GROUND_BIN).astype(np.int64)
    keys = bins[:, 0] * 1000 + bins[:, 1]  # (shares are 0 to 1: keys 0 to 50050; the first of equals, the least)
    common = keys == np.bincount(keys).argmax()
    return px[common].mean(0) / max(float(px[common].sum(1).mean()), 1e-6) * float(np.median(px[common].sum(1)))


def _middles(crops: np.ndarray) -> np.ndarray:
    """The middles of crops (N, 3, S, S), MIDDLE of the side either way of the centre, as (N, 3, pixels)."""
    s = crops.shape[-1]
    a, b = round(s * (0.5 - MIDDLE)), round(s * (0.5 + MIDDLE))
    return crops[:, :, a:b, a:b].reshape(len(crops), 3, -1)


def colours(top: np.ndarray, ground: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Whether each top (N, 3) is the colour of the faces' ``ground`` (3,) under some light (white), and whether it is
    clearly another colour (coloured); a top may be neither.

    >>> white, coloured = colours(np.array([[0.8, 0.78, 0.7], [0.2, 0.5, 0.3], [0.92, 0.9, 0.81], [0.3, 0.3, 0.28]]),
    ...                           np.array([0.9, 0.88, 0.8]))
    >>> white.tolist(), coloured.tolist()
    ([True, False, True, False], [False, True, False, True])
    """
    chroma, light = _chroma(top), top.sum(1)
    differ = np.abs(chroma - _chroma(ground[None])).max(1)
    shade = light / max(float(ground.sum()), 1e-6)
    white = (differ < WHITE_CHROMA) & (shade > 1 / LIGHT) & (shade < LIGHT)
    return white, (differ > COLOURED_CHROMA) | (shade < DARK)


def _chroma(rgb: np.ndarray) -> np.ndarray:
    """Each colour's (N, 3) channels as shares of their sum, steadied on dark colours by ``CHROMA_FLOOR``."""
    return (rgb + CHROMA_FLOOR) / (rgb.sum(1, keepdims=True) + 3 * CHROMA_FLOOR)


def coloured_backs(p: np.ndarray, crops: np.ndarray, centres: np.ndarray, widths: np.ndarray,
                   set_coloured: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The names ``p`` (N, names) with backs and white dragons told apart by colour: ``crops`` are the tiles cut
    straight (N, 3, S, S, 0..1), ``centres`` their boxes' centres (N, 2) and ``widths`` their faces' widths (N,), in
    pixels of the photo; ``set_coloured``: the set's backs are known to be coloured (a learnt set's,
    ``vision/learnt.py``), as two coloured backs shown tell. A name changed swaps the two names' probabilities.
    And which tiles their colour alone renamed (N, bool): a coloured top named 5z made a back, a white top named back
    made a 5z where the set's backs are coloured (not where it lies beside a white dragon: its set's backs may be
    white)."""
    named = p.argmax(1)
    faces = (named != BACK) & (p.max(1) >= SURE_FACE)
    told = np.zeros(len(p), bool)
    if faces.sum() < 2 or not np.isin(named, (BACK, WHITE)).any():
        return p, told
    # the tops of the tiles named back or 5z, the only ones asked of below (the others: neither white nor coloured)
    either = np.isin(named, (BACK, WHITE))
    top, is_white, is_coloured = np.zeros((len(p), 3), crops.dtype), np.zeros(len(p), bool), np.zeros(len(p), bool)
    top[either] = tops(crops[either])
    is_white[either], is_coloured[either] = colours(top[either], ground(crops[faces]))
    out = p.copy()
    to_back = (named == WHITE) & is_coloured & (p[:, BACK] >= BACK_DOUBT)
    out[to_back], told[to_back] = swapped(out[to_back]), True
    named = out.argmax(1)
    backs = named == BACK
    # the set's backs are coloured: two of one colour, clearly coloured or named surely and not white
    set_colour = set_coloured or _pair(top[backs & (is_coloured | ~is_white & (p[:, BACK] >= SURE_BACK))])
    near = _near(centres, widths)
    beside_white = (near & (named == WHITE)[None]).any(1) & ~_kong_ends(near, named, backs & is_white)
    room = SET_COPIES - int((named == WHITE).sum())
    candidates = np.flatnonzero(backs & is_white & (set_colour | beside_white) & (p[:, WHITE] >= WHITE_DOUBT))
    for i in candidates[np.argsort(-p[candidates, WHITE])][:max(room, 0)]:
        out[i], told[i] = swapped(out[i]), set_colour
    return out, told


def backs_coloured(crops: np.ndarray, backs: np.ndarray) -> bool | None:
    """Whether a photo's backs are coloured, from its tiles cut straight (N, 3, S, S, 0..1) of which ``backs`` (N,
    bool) are backs, the others faces: the median top of its backs is clearly another colour than the faces' ground
    (``colours``); None where it shows no back or fewer than two faces, or its backs are neither white nor coloured.

    >>> faces, purple = np.full((2, 3, 8, 8), 0.9), np.tile(np.array([0.4, 0.2, 0.5])[:, None, None], (1, 1, 8, 8))
    >>> backs_coloured(np.concatenate([faces, purple]), np.array([False, False, True]))
    True
    >>> backs_coloured(np.concatenate([faces, faces[:1]]), np.array([False, False, True]))
    False
    >>> print(backs_coloured(faces, np.zeros(2, bool)))
    None
    """
    if not backs.any() or (~backs).sum() < 2:
        return None
    white, coloured = colours(np.median(tops(crops[backs]), axis=0)[None], ground(crops[~backs]))
    return True if coloured[0] else False if white[0] else None


def kong_backs(p: np.ndarray, centres: np.ndarray, widths: np.ndarray) -> np.ndarray:
    """The names ``p`` (N, names) with a tile read ``5z`` made a back where it ends a row of four, alone on the photo,
    whose two middle tiles are read as one face (not a white dragon) and whose other end is read a back or ``5z``: a
    concealed kong shown with its ends face down, in a set whose backs are as white as its blank white dragon (no
    meld reads white, X, X, white). ``centres`` and ``widths`` as in ``coloured_backs``. A name changed swaps the two
    names' probabilities.

    >>> p = np.zeros((5, BACK + 1)); p[[0, 3], WHITE] = 0.9; p[[1, 2, 4], 7] = 0.9  # 5z 8m 8m 5z, then an 8m
    >>> row = np.array([[0.0, 0], [60, 0], [120, 0], [180, 0], [240, 0]])
    >>> kong_backs(p[:4], row[:4], np.full(4, 60.0)).argmax(1).tolist() == [BACK, 7, 7, BACK]
    True
    >>> kong_backs(p, row, np.full(5, 60.0)).argmax(1).tolist() == [WHITE, 7, 7, WHITE, 7]  # a row of five
    True
    """
    named = p.argmax(1)
    ends = np.isin(named, (BACK, WHITE))
    if (named == WHITE).sum() == 0 or ends.sum() < 2 or len(p) < 4:
        return p
    near = _near(centres, widths)
    count = near.sum(1)
    out = p.copy()
    for i in np.flatnonzero((named == WHITE) & (count == 1)):
        j = int(np.flatnonzero(near[i])[0])
        k = [int(k) for k in np.flatnonzero(near[j]) if k != i]
        if count[j] != 2 or len(k) != 1 or count[k[0]] != 2 or named[j] != named[k[0]] or ends[j]:
            continue
        last = [int(m) for m in np.flatnonzero(near[k[0]]) if m != j]
        if len(last) == 1 and count[last[0]] == 1 and ends[last[0]]:
            out[i] = swapped(out[i])
    return out


def _near(centres: np.ndarray, widths: np.ndarray) -> np.ndarray:
    """(N, N): whether two tiles lie side by side in a row (their centres less than NEIGHBOUR widths apart)."""
    far = np.linalg.norm(centres[:, None] - centres[None], axis=2) / np.maximum(widths[:, None], 1e-6)
    np.fill_diagonal(far, np.inf)
    return far < NEIGHBOUR


def _kong_ends(near: np.ndarray, named: np.ndarray, white_backs: np.ndarray) -> np.ndarray:
    """Per white back, whether it ends a row of four: itself, two tiles read 5z, then another white back or a tile read
    5z (the classifier may read a white back so): a concealed kong of white dragons shown with its ends face down, in a
    set whose backs are white (``near``: (N, N) tiles side by side; ``named``: the names read).

    >>> near = np.eye(4, k=1, dtype=bool) | np.eye(4, k=-1, dtype=bool)  # four tiles in a row
    >>> _kong_ends(near, np.array([BACK, WHITE, WHITE, BACK]), np.array([True, False, False, True])).tolist()
    [True, False, False, True]
    >>> _kong_ends(near, np.array([WHITE, WHITE, WHITE, BACK]), np.array([False, False, False, True])).tolist()
    [False, False, False, True]
    >>> _kong_ends(near, np.array([BACK, WHITE, WHITE, 0]), np.array([True, False, False, False])).tolist()
    [False, False, False, False]
    >>> _kong_ends(near[:3, :3], np.array([BACK, WHITE, WHITE]), np.array([True, False, False])).tolist()  # a pung
    [False, False, False]
    """
    out = np.zeros(len(named), bool)
    whites = named == WHITE
    for i in np.flatnonzero(white_backs):
        for j in np.flatnonzero(near[i] & whites):
            for k in np.flatnonzero(near[j] & whites):
                if k != i and (near[k] & (white_backs | whites) & ~near[i] & (np.arange(len(named)) != i)).any():
                    out[i] = True
    return out


def shown_backs(p: np.ndarray) -> np.ndarray:
    """Which tiles of a photo (its names ``p``, N x names) show a back surely (SURE_BACK)."""
    return (p.argmax(1) == BACK) & (p.max(1) >= SURE_BACK)


def backs_to_look_for(p: np.ndarray, crops: np.ndarray, conf: np.ndarray, one: bool = False,
                      centres: np.ndarray | None = None, widths: np.ndarray | None = None) -> np.ndarray | None:
    """The colour of the set's backs (3,) where the finder may have missed some, from a photo's names ``p`` (N,
    names), its tiles cut straight (N, 3, S, S) and the finder's confidences (N,): the median of the tops of the tiles
    named back surely (``shown_backs``), when two of them are of one colour (``_pair``), or where ``one`` the only one
    is, that is not the colour of the faces named surely (white backs are not told from white faces by colour), and
    the finder doubted them (their median confidence below DOUBTED_BACKS); None otherwise. Where ``one`` and the
    backs shown are of several colours, the one that lies beside the most tiles (``centres`` and faces' ``widths``,
    N x 2 and N: ``_near``), and beside one at least, is the set's (the others, things on the table read as backs).

    >>> p, conf = np.eye(BACK + 1)[[3, 3, 3, BACK, BACK]], np.array([0.9, 0.9, 0.9, 0.4, 0.4])
    >>> crops = np.full((5, 3, 8, 8), 0.9); crops[3, :] = np.array([0.4, 0.2, 0.5])[:, None, None]; crops[4, :] = 0.1
    >>> row = np.array([[0.0, 0], [60, 0], [120, 0], [180, 0], [900, 500]])  # a purple back in a row, a black off
    >>> print(backs_to_look_for(p, crops, conf, one=True))  # two colours: which is the set's?
    None
    >>> backs_to_look_for(p, crops, conf, True, row, np.full(5, 60.0)).round(2).tolist()
    [0.4, 0.2, 0.5]
    """
    backs, faces = shown_backs(p), (p.argmax(1) != BACK) & (p.max(1) >= SURE_FACE)
    if backs.sum() < (1 if one else 2) or faces.sum() < 2 or np.median(conf[backs]) >= DOUBTED_BACKS:
        return None
    shown = tops(crops[backs])
    if len(shown) > 1 and not _pair(shown):
        if not one or centres is None or widths is None:
            return None
        beside = _near(centres, widths)[backs].sum(1)
        if beside.max() < 1 or (beside == beside.max()).sum() > 1:
            return None
        shown = shown[[int(beside.argmax())]]
    colour = np.median(shown, axis=0)
    return colour if colours(colour[None], ground(crops[faces]))[1][0] else None


def unsure_boxes(found: np.ndarray, p: np.ndarray, boxes: np.ndarray, conf: np.ndarray) -> np.ndarray:
    """Of ``boxes`` (M, 4) the finder is unsure of (``conf``, M), the indices of those that may be a back it missed:
    as big as the backs shown (the tiles ``found``, N x 4, named back surely by ``p``; the square root of the area;
    the tiles found where none is) within a factor of BACK_SIZE, and covering at most OVERLAP of their area with a
    tile found or a surer box so taken.

    >>> found, p = np.array([[0.0, 0, 60, 80], [-60, 0, 0, 80]]), np.eye(BACK + 1)[[BACK, BACK]]
    >>> boxes = np.array([[61.0, 0, 121, 80], [70, 0, 130, 80], [0, 90, 10, 100], [30, 0, 90, 80]])
    >>> unsure_boxes(found, p, boxes, np.array([0.2, 0.15, 0.2, 0.25])).tolist()
    [0]
    """
    shown = shown_backs(p)
    side = float(np.median(_sides(found[shown] if shown.any() else found))) if len(found) else 0.0
    sides = _sides(boxes) / max(side, 1e-6)
    kept, out = found.reshape(-1, 4), []
    for i in np.argsort(-conf, kind="stable"):
        if 1 / BACK_SIZE < sides[i] < BACK_SIZE and (len(kept) == 0 or _covered(boxes[i], kept).max() <= OVERLAP):
            out.append(int(i))
            kept = np.concatenate([kept, boxes[i:i + 1]])
    return np.array(out, int)


def missed_backs(found: np.ndarray, p: np.ndarray, widths: np.ndarray, boxes: np.ndarray, q: np.ndarray,
                 box_tops: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """Which of ``boxes`` (M, 4, ``unsure_boxes``'), named ``q`` (M, names), with tops ``box_tops`` (M, 3), are
    backs the finder missed: named back surely (SURE_BACK), of the set's ``colour`` (``backs_to_look_for``, or a
    learnt set's), and in a row with the tiles ``found`` (N, 4, named ``p``; their faces' ``widths``, N): a box's
    centre lies within ROW times the backs' median width (the tiles' where no back is shown) of a tile found, or of a
    box taken so (a row of backs, one beside the next).

    >>> found, p = np.array([[0.0, 0, 60, 80], [60, 0, 120, 80]]), np.eye(BACK + 1)[[BACK, BACK]]
    >>> boxes = np.array([[120.0, 0, 180, 80], [180, 0, 240, 80], [400, 0, 460, 80], [240, 0, 300, 80]])
    >>> q = np.eye(BACK + 1)[[BACK, BACK, BACK, 3]]; purple = np.array([0.4, 0.2, 0.5])
    >>> missed_backs(found, p, np.full(2, 60.0), boxes, q, np.tile(purple, (4, 1)), purple).tolist()
    [True, True, False, False]
    """
    backs = shown_backs(p)
    width = float(np.median(widths[backs] if backs.any() else widths)) if len(widths) else 0.0
    ok = (q.argmax(1) == BACK) & (q.max(1) >= SURE_BACK) & _alike(box_tops, colour[None])[:, 0]
    centres, near = _centres(boxes), _centres(found)
    taken = np.zeros(len(boxes), bool)
    while len(near):
        new = ok & ~taken & (np.linalg.norm(centres[:, None] - near[None], axis=2).min(1) < ROW * width)
        if not new.any():
            break
        taken |= new
        near = centres[new]  # the next boxes of the row lie beside these
    return taken


def lone_pairs(p: np.ndarray, centres: np.ndarray, widths: np.ndarray) -> np.ndarray:
    """The lone pairs (K, 2: indices, the first the leftmost) of a photo's tiles (names ``p``, N x names; ``centres``,
    N x 2; their faces' ``widths``, N): two faces named alike surely (SURE_FACE) side by side (their centres within
    PAIR_NEAR of their widths), with no other tile so near either.

    >>> p, widths = np.eye(BACK + 1)[[3, 3, 5, 5, 5, 7, 8]], np.full(7, 60.0)
    >>> centres = np.array([[150.0, 40], [90, 40], [400, 40], [460, 40], [520, 40], [800, 40], [860, 40]])
    >>> lone_pairs(p, centres, widths).tolist()
    [[1, 0]]
    """
    far = np.linalg.norm(centres[:, None] - centres[None], axis=2) / np.maximum((widths[:, None] + widths) / 2, 1e-6)
    np.fill_diagonal(far, np.inf)
    named, near = p.argmax(1), far < PAIR_NEAR
    alone, faces = near.sum(1) == 1, (named != BACK) & (p.max(1) >= SURE_FACE)
    pairs = [sorted((int(i), int(j)), key=lambda k: tuple(centres[k])) for i, j in zip(*np.nonzero(np.triu(near)),
                                                                                         strict=True)
             if faces[i] and faces[j] and named[i] == named[j] and alone[i] and alone[j]]
    return np.array(pairs, int).reshape(-1, 2)


def pair_ends(boxes: np.ndarray, pairs: np.ndarray) -> np.ndarray:
    """Where a concealed kong's two ends lie beside each of its lone ``pairs`` (K, 2) of ``boxes`` (N, 4): K x 2
    boxes, each a step (from one tile's centre to the other's) beyond a tile of the pair, as big as that tile.

    >>> pair_ends(np.array([[60.0, 0, 120, 80], [120, 0, 180, 80]]), np.array([[0, 1]])).tolist()
    [[[0.0, 0.0, 60.0, 80.0], [180.0, 0.0, 240.0, 80.0]]]
    """
    centres = _centres(boxes)
    step = centres[pairs[:, 1]] - centres[pairs[:, 0]]
    shift = np.stack([-step, step], axis=1)  # K, 2, 2
    return boxes[pairs] + np.concatenate([shift, shift], axis=2)


def kong_ends(p: np.ndarray, crops: np.ndarray, q: np.ndarray, end_tops: np.ndarray) -> np.ndarray:
    """Which pairs of ends (K, ``pair_ends``'), named ``q`` (K, 2, names) with tops ``end_tops`` (K, 2, 3), may be a
    concealed kong's backs: both named back surely (SURE_BACK), of one colour that is not the colour of the faces (the
    photo's tiles named ``p``, N x names, cut straight: ``crops``, N x 3 x S x S; a white back is not told from a white
    face by its colour).

    >>> q = np.eye(BACK + 1)[[[BACK, BACK], [BACK, 3]]]; purple = np.array([0.4, 0.2, 0.5])
    >>> faces = np.full((2, 3, 20, 20), 0.9); faces[:, 2] = 0.8
    >>> kong_ends(np.eye(BACK + 1)[[3, 3]], faces, q, np.tile(purple, (2, 2, 1))).tolist()
    [True, False]
    """
    faces = (p.argmax(1) != BACK) & (p.max(1) >= SURE_FACE)
    if len(q) == 0 or not faces.any():
        return np.zeros(len(q), bool)
    backs = ((q.argmax(2) == BACK) & (q.max(2) >= SURE_BACK)).all(1)
    alike = _alike(end_tops[:, 0], end_tops[:, 1]).diagonal()
    coloured = colours(end_tops.reshape(-1, 3), ground(crops[faces]))[1].reshape(-1, 2).all(1)
    return backs & alike & coloured


def seen(ends: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Per end (``ends``, M x 4), the index of the box of ``boxes`` (the finder's, looking again, K x 4) whose centre
    lies nearest the end's, within END_NEAR of the end's width (its shorter side), whatever its size (-1: none).

    >>> seen(np.array([[0.0, 0, 60, 80], [200, 0, 260, 80]]), np.array([[10.0, -10, 90, 100], [0, 0, 50, 70]])).tolist()
    [1, -1]
    """
    if len(boxes) == 0:
        return np.full(len(ends), -1)
    width = np.maximum((ends[:, 2:] - ends[:, :2]).min(1), 1e-6)
    off = np.linalg.norm(_centres(ends)[:, None] - _centres(boxes)[None], axis=2) / width[:, None]
    return np.where(off.min(1) < END_NEAR, off.argmin(1), -1)


def _centres(boxes: np.ndarray) -> np.ndarray:
    return (boxes[:, :2] + boxes[:, 2:]) / 2


def _sides(boxes: np.ndarray) -> np.ndarray:
    """The square root of each box's area (N, 4 -> N)."""
    return np.sqrt(np.prod(np.maximum(boxes[:, 2:] - boxes[:, :2], 0), axis=1))


def _covered(box: np.ndarray, others: np.ndarray) -> np.ndarray:
    """The share of ``box``'s area (4,) that each of ``others`` (N, 4) covers."""
    lo, hi = np.maximum(box[:2], others[:, :2]), np.minimum(box[2:], others[:, 2:])
    area = max(float(np.prod(np.maximum(box[2:] - box[:2], 0))), 1e-6)
    return np.prod(np.clip(hi - lo, 0, None), axis=1) / area


def _alike(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(N, M): whether colours ``a`` (N, 3) and ``b`` (M, 3) are one colour under some light."""
    la, lb = np.maximum(a.sum(1), 1e-6), np.maximum(b.sum(1), 1e-6)
    return (np.abs(_chroma(a)[:, None] - _chroma(b)[None]).max(2) < WHITE_CHROMA) & (
        np.abs(np.log(la[:, None] / lb[None])) < np.log(LIGHT))


def _pair(tops: np.ndarray) -> bool:
    """Whether two of ``tops`` (N, 3) are of one colour (a set shows its backs two or four at a time, a kong's; one
    box read as a back may be something else on the table): their channels' shares within WHITE_CHROMA of each other,
    their brightness within a factor of LIGHT.

    >>> _pair(np.array([[0.2, 0.5, 0.3], [0.9, 0.3, 0.3], [0.25, 0.6, 0.35]])), _pair(np.array([[0.2, 0.5, 0.3]]))
    (True, False)
    """
    near = _alike(tops, tops)
    np.fill_diagonal(near, False)
    return bool(near.any())


def told_kept(p: np.ndarray, first: np.ndarray, told: np.ndarray) -> np.ndarray:
    """``p`` (names averaged with a second look) where the tiles ``told`` (N, bool: renamed by colour alone,
    ``coloured_backs``) keep their ``first`` names' choice between back and 5z that the average turned to the other."""
    flipped = (p.argmax(1) != first.argmax(1)) & np.isin(p.argmax(1), (BACK, WHITE))
    undone = np.flatnonzero(told & flipped)
    p = p.copy()
    p[undone] = swapped(p[undone])
    return p


def swapped(q: np.ndarray) -> np.ndarray:
    """``q`` with the probabilities of back and 5z exchanged (rows or one row)."""
    q = q.copy()
    q[..., [BACK, WHITE]] = q[..., [WHITE, BACK]]
    return q
