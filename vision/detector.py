"""The tile detector: a one-class YOLO finder boxes every tile, a small CNN names each crop, readers (the same
network, each trained on one family of tiles) read again, turned upright, the tiles that may be of their family, the
mark reader reads the index numeral a set may print on them, a text recogniser reads the English caption of a tile
that may be a flower (``vision/captions.py``), the seat reader the seat (1-4) of a tile named a flower, and the tiles
of the photo that look alike agree on their names (``vision/agreement.py``). A hand named unsurely may be seen from
a player's seat, and is named again as if seen from above (``vision/rectify.py``).

A photo of tiles standing may be named from each tile's face cut flat (``vision/faces.py``). The networks run in ONNX
Runtime (the finders by ``vision/finder.py``; a photo of a whole set laid out is looked at by a second finder, trained
on such photos too). Weights are passed in explicitly (the shipped ones: ``vision/shipped.py``, ``models/README.md``);
nothing is downloaded.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import NamedTuple

import numpy as np

from vision.agreement import agree
from vision.backs import (
    backs_to_look_for,
    coloured_backs,
    kong_backs,
    kong_ends,
    lone_pairs,
    missed_backs,
    pair_ends,
    seen,
    shown_backs,
    tops,
    unsure_boxes,
)
from vision.captions import CaptionReader
from vision.clearer import brightened, clearest, for_faults, sharpness, sureness
from vision.config import DetectorConfig
from vision.crops import (
    CROP,
    boxes_turned_back,
    crop_tiles,
    more_turns,
    network_input,
    photo_tilt,
    quarter_turned,
    shrunk_into,
    tile_sides,
    tilts,
    turned_straight,
)
from vision.detection import Detection
from vision.errors import ModelNotFoundError
from vision.faces import FaceReader, Faces
from vision.finder import Finder, finer_asked, finer_taken, median_side, parts_asked, parts_taken, with_lost
from vision.halves import with_halves
from vision.image import ImageInput, load_image
from vision.learnt import LearntSet
from vision.names import NAMES
from vision.readers import FLOWERS, MARK_OF, Reader, crop_side, mix_marks, mix_reading, mix_seats
from vision.rectify import rectified
from vision.regions import with_regions
from vision.sessions import classifier_session, fault_session, session, session_options
from vision.shipped import (
    CAPTION_WEIGHTS,
    CLASSIFIER_WEIGHTS,
    FACE_WEIGHTS,
    FINDER_WEIGHTS,
    READER_WEIGHTS,
    SET_FINDER_WEIGHTS,
    SHAKEN_CLASSIFIER_WEIGHTS,
    SOFT_CLASSIFIER_WEIGHTS,
)
from vision.upright import main_axis, sideways, turned_back, upright_turns

# a photo whose first look finds fewer than FEW tiles, or tiles whose median side is more than CLOSE of the photo's
# long side (synthetic hand photos: at most 0.155; camerash's close-ups of touching tiles 0.21 to 0.36), is a
# close-up, and is looked at again shrunk into a canvas of FELT (``DetectorConfig.zoom_out``). That look is taken
# when the finder is surer of it, its surest box FAR_SURE at least (held-out real close-ups 0.65 and more; 4 of 60
# empty tables gave boxes, the surest 0.33, 0.53, 0.58 and 0.76), and surer on average than of the first look. When
# it shows several tiles, or the first look found many big ones, the set finder (which learnt tiles that touch) looks
# at the photo shrunk CLOSE_ZOOMS times instead, and its surest look on average is taken
FEW, CLOSE, FAR_SURE, FELT = 10, 0.2, 0.6, (60, 90, 60)
CLOSE_ZOOMS = (2.0, 3.0, 4.0)
# those rules were measured on the finder's look at ``imgsz``: a first look at ``first_imgsz`` that finds fewer than
# FEW tiles or tiles with a median side above this share of the long side is taken again at ``imgsz`` (at 512 the
# largest of 360 synthetic hand photos, held-out and training styles, is 0.153; camerash's 1-5.jpg, 20 touching
# tiles, 0.186, a close-up at 416 only: 0.215)
CLOSE_HINT = 0.15
# a photo whose looks find SET_PROBE tiles or more, but fewer than ``DetectorConfig.set_tiles``, and of which the
# finder is unsure (its mean confidence below SET_UNSURE) may be a set of small touching tiles that the finder boxes
# poorly: the set finder looks once, and when it finds ``set_tiles`` or more the photo is a set (camerash's 3.png, a
# whole set: 28 tiles found at 0.466, the set finder 143; of 500 training-style hand photos 12 are probed, none
# routed; of the 60 held-out ones none is probed, the least sure at 0.637)
SET_PROBE, SET_UNSURE = 20, 0.55
# the photo's tilt (``DetectorConfig.turn_at``) is read from the squares of this many of the first look's surest boxes
TILT_PROBES = 16
RANKED = 4  # names kept per tile in Detection.ranked
RANKED_MIN = 0.01  # ... down to this probability


class Named(NamedTuple):
    """A photo's tiles named (``TileDetector._named``): the names' probabilities (N, 43), the up directions' (N, 4),
    the crops named (N, 3, S, S: each tile cut straight, as it lies), the tilts they were cut at (N, radians), the
    classifier that named them, and their faces where the face network found them (``vision/faces.py``)."""

    p: np.ndarray
    up: np.ndarray
    crops: np.ndarray
    tilt: np.ndarray
    classifier: object
    faces: Faces | None = None


class TileDetector:
    """Find and name every tile of a photo: ``TileDetector(finder, classifier).detect(photo)``."""

    def __init__(self, finder: Path = FINDER_WEIGHTS, classifier: Path = CLASSIFIER_WEIGHTS,
                 config: DetectorConfig | None = None, readers: Sequence[Path] = READER_WEIGHTS,
                 set_finder: Path | None = SET_FINDER_WEIGHTS, captions: Path | None = CAPTION_WEIGHTS,
                 learnt: tuple[Path, Path] | None = None, soft: Path | None = SOFT_CLASSIFIER_WEIGHTS,
                 shaken: Path | None = SHAKEN_CLASSIFIER_WEIGHTS, faces: Path | None = FACE_WEIGHTS) -> None:
        """``readers``: the readers' weights, applied in this order (none: the classifier names tiles alone);
        ``set_finder``: the finder for photos of many tiles (``DetectorConfig.set_tiles``; None: ``finder`` alone);
        ``captions``: the flowers' caption reader, read after them (None: none); ``learnt``: the learnt set of a
        fine-tuned ``classifier`` and the classifier that names the photos of other sets (``vision/learnt.py``;
        None: ``classifier`` names every photo); ``soft``, ``shaken``: the classifiers of the photos too soft for
        ``classifier`` and of those shaken (``DetectorConfig.soft_below``, ``shaken_below``; None, or with a learnt
        set: ``classifier`` names them too); ``faces``: the face network, by which a photo of tiles standing is named
        from their faces cut flat (``DetectorConfig.faces_below``; None: as they are boxed)."""
        for p in (finder, classifier, *readers, *filter(None, (set_finder, captions, soft, shaken, faces)),
                  *(learnt or ())):
            if not Path(p).exists():
                msg = f"model weights not found: {p}"
                raise ModelNotFoundError(msg)
        self.config = config or DetectorConfig()
        opts = session_options()
        self._finder = Finder(session(finder, opts.finding), finder)
        self._set_finder = Finder(session(set_finder, opts.finding), set_finder) if set_finder else None
        self._classifier = classifier_session(classifier, opts.naming)
        self._crop = crop_side(self._classifier)
        self._learnt, self._shipped = None, None
        self._soft, self._shaken = (None, None) if learnt is not None else \
            (fault_session(path, shipped, classifier, self._crop, opts.naming)
             for path, shipped in ((soft, SOFT_CLASSIFIER_WEIGHTS), (shaken, SHAKEN_CLASSIFIER_WEIGHTS)))
        if learnt is not None:
            self._shipped = classifier_session(learnt[1], opts.naming)
            if crop_side(self._shipped) != self._crop:
                msg = f"{learnt[1]} names crops of {crop_side(self._shipped)} px, {classifier} of {self._crop}"
                raise ModelNotFoundError(msg)
            self._learnt = LearntSet.load(learnt[0], self._classifier.get_outputs()[2].shape[-1])
        self._readers = [Reader.load(session(r, opts.naming), r) for r in readers]
        self._captions = CaptionReader(session(captions, opts.captions), captions) if captions else None
        self._faces = FaceReader(session(faces, opts.naming), faces) if faces else None

    @classmethod
    def from_parts(cls, classifier: object = None, *, crop: int = CROP, readers: Sequence[Reader] = (),
                   captions: CaptionReader | None = None, finder: object = None, set_finder: object = None,
                   config: DetectorConfig | None = None, learnt: LearntSet | None = None,
                   shipped: object = None, soft: object = None, shaken: object = None,
                   faces: FaceReader | None = None) -> TileDetector:
        """A detector from networks already loaded, or from stand-ins with their methods (to try one part without
        weights): ``classifier`` answers ``run(outputs, {"crops": x})`` as an ONNX Runtime session does, for crops of
        ``crop`` pixels; ``finder`` and ``set_finder`` answer ``boxes(rgb, imgsz, conf, iou, max_det)`` as
        ``vision.finder.Finder`` does; ``readers`` and ``captions`` as ``Reader.load`` and ``CaptionReader`` make
        them; ``learnt`` and ``shipped``: a learnt set and the classifier of the photos of other sets; ``soft``,
        ``shaken``: the classifiers of soft and of shaken photos; ``faces``: the face network (``FaceReader``)."""
        det = cls.__new__(cls)
        det.config = config or DetectorConfig()
        det._finder, det._set_finder = finder, set_finder
        det._classifier, det._crop = classifier, crop
        det._learnt, det._shipped, det._soft, det._shaken = learnt, shipped, soft, shaken
        det._readers, det._captions, det._faces = list(readers), captions, faces
        return det

    def find(self, rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Tile boxes (N, 4, xyxy px of ``rgb``) and the finder's confidences (N,).

        Two passes: the whole photo at ``first_imgsz`` (the set finder: ``imgsz``) shows where the tiles lie; that
        region (with a margin of ``zoom_margin`` tile sizes) is looked at again at ``zoom_imgsz`` when that gives its
        tiles ``zoom_gain`` times the pixels, so that small tiles in a big photo get more pixels (on 100 held-out
        photos, hands with every tile found: 69 in one pass, 92 in two; the first finder).
        When the first finds fewer tiles than a hand has, or big ones, the photo is a close-up and is also looked at
        shrunk (its tiles are bigger than any the finder learnt, and it boxes their parts or two at a time), and those
        boxes are taken when they are the surer (``_close_up``). When the two looks find ``set_tiles`` or more (or
        the set finder does, asked when they find ``SET_PROBE`` or more unsurely), the photo is a set laid out, and
        the set finder looks at it again, twice, and its boxes are taken.
        A photo of fewer tiles that lie tilted ``turn_at`` degrees or more is looked at again turned straight, as
        above, and those boxes are taken, turned back (the box of each turned box's corners), when they are the
        surer on average.
        """
        boxes, conf = self._find_as_it_lies(rgb, fine=True)
        c = self.config
        if not c.turn_at or len(boxes) < 3 or c.set_tiles and len(boxes) >= c.set_tiles:
            return boxes, conf
        tilt = photo_tilt(rgb, boxes[np.argsort(-conf)[:TILT_PROBES]])
        if abs(tilt) < np.radians(c.turn_at):
            return boxes, conf
        turned, back = turned_straight(rgb, tilt, FELT)
        boxes2, conf2 = self._find_as_it_lies(turned)
        boxes2, inside = boxes_turned_back(boxes2, back, rgb.shape)
        boxes2, conf2 = boxes2[inside], conf2[inside]
        if len(boxes2) and conf2.mean() > conf.mean():
            return with_lost(boxes, conf, boxes2, conf2, c.first_kept)
        return boxes, conf

    def _find_as_it_lies(self, rgb: np.ndarray, fine: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """``find``'s looks at ``rgb`` as it lies; with ``fine``, the fine look too where it may gain (``_fine``)."""
        size = self._first_size(rgb)
        first = self._predict(rgb, size, self._finder)
        boxes, conf = self._usual_looks(rgb, size, first)
        if fine:
            return self._fine(rgb, first, boxes, conf) or (boxes, conf)
        return boxes, conf

    def _usual_looks(self, rgb: np.ndarray, size: int, first: tuple[np.ndarray, np.ndarray]
                     ) -> tuple[np.ndarray, np.ndarray]:
        """The looks that follow the ``first`` at ``size``: a close-up's, the region's, the set finder's."""
        c = self.config
        h, w = rgb.shape[:2]
        if size != c.imgsz and _close(first[0], CLOSE_HINT * max(h, w)):
            size, first = c.imgsz, None  # perhaps a close-up: seen as the close-up rules were measured
        boxes, conf = self._looks(rgb, self._finder, size, first)
        if self._set_finder is None or not c.set_tiles:
            return boxes, conf
        if len(boxes) >= c.set_tiles:
            return self._looks(rgb, self._set_finder, c.imgsz)
        if len(boxes) >= SET_PROBE and conf.mean() < SET_UNSURE:  # perhaps small touching tiles, boxed poorly
            first = self._predict(rgb, c.imgsz, self._set_finder)
            if len(first[0]) >= c.set_tiles:
                return self._looks(rgb, self._set_finder, c.imgsz, first)
        return boxes, conf

    def _fine(self, rgb: np.ndarray, first: tuple[np.ndarray, np.ndarray], boxes: np.ndarray, conf: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray] | None:
        """The finder's look at the whole photo at ``fine_imgsz``, when asked after the ``first`` look and the usual
        looks (``boxes``, ``conf``) and taken in their place (``finder.finer_asked``, ``finer_taken``); else None."""
        c = self.config
        scale = c.fine_imgsz / max(rgb.shape[:2]) if c.fine_imgsz else 0.0  # the fine look's pixels a photo's pixel
        if not 0 < scale <= 1 or not finer_asked(first[1], boxes, conf, scale, FEW):
            return None
        fine, fine_conf = self._predict(rgb, c.fine_imgsz, self._finder)
        return (fine, fine_conf) if finer_taken(first[1], boxes, conf, fine, fine_conf, scale, FEW, c.set_tiles) \
            else None

    def _first_size(self, rgb: np.ndarray) -> int:
        """The size of the finder's first look at ``rgb``: ``first_imgsz``, or less for a small photo (enlarged, it
        shows nothing more)."""
        c = self.config
        return min(c.first_imgsz, max(c.imgsz, *rgb.shape[:2]))

    def _looks(self, rgb: np.ndarray, finder: Finder, size: int,
               first: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``find``'s looks by ``finder``, the first at ``size`` (``first``: that look, when taken already)."""
        c = self.config
        boxes, conf = first if first is not None else self._predict(rgb, size, finder)
        h, w = rgb.shape[:2]
        if c.zoom_out > 1 and _close(boxes, CLOSE * max(h, w)):  # a close-up: tiles bigger than any the finder learnt
            far, far_conf = self._close_up(rgb, finder, many_big=len(boxes) >= FEW)
            if len(far) and far_conf.max() >= FAR_SURE and (len(boxes) == 0 or far_conf.mean() > conf.mean()):
                return far, far_conf
        region = self._region(boxes, rgb.shape, size)
        if region is None:
            return boxes, conf
        x0, y0, x1, y1 = region
        boxes2, conf2 = self._predict(rgb[y0:y1, x0:x1], c.zoom_imgsz, finder)
        return with_lost(boxes, conf, boxes2 + np.array([x0, y0, x0, y0], np.float64), conf2, c.first_kept)

    def _region(self, boxes: np.ndarray, shape: tuple[int, ...], size: int) -> tuple[int, int, int, int] | None:
        """The region (x0, y0, x1, y1 px) holding ``boxes``, found by a look at ``size``, with a margin of
        ``zoom_margin`` tile sizes: looked at again at ``zoom_imgsz`` when that gives its tiles ``zoom_gain`` times
        the pixels (None: not)."""
        c = self.config
        if not c.zoom_imgsz or len(boxes) < 3:
            return None
        h, w = shape[:2]
        pad = c.zoom_margin * median_side(boxes)
        x0, y0 = (max(0, int(v - pad)) for v in boxes[:, :2].min(0))
        x1, y1 = int(min(w, boxes[:, 2].max() + pad)), int(min(h, boxes[:, 3].max() + pad))
        if c.zoom_imgsz * max(h, w) < c.zoom_gain * size * max(x1 - x0, y1 - y0):  # the region fills the photo
            return None
        return x0, y0, x1, y1

    def _close_up(self, rgb: np.ndarray, finder: Finder, many_big: bool) -> tuple[np.ndarray, np.ndarray]:
        """A close-up seen from further away: ``finder``'s look at it shrunk ``zoom_out`` times; or, when that look
        shows several tiles or the first look found ``many_big`` ones, the set finder's surest look on average shrunk
        ``CLOSE_ZOOMS`` times (of those whose surest box is ``FAR_SURE`` at least; the first of equals). On camerash's
        close-ups of 8, 8, 16 and 20 touching tiles (1-3 to 1-6) the finder boxed them in pairs, or some of them, at
        every zoom; the set finder boxes each, at 3 or 4 times. A single tile stays with ``finder``: the set finder
        boxes parts of some (held-out real close-ups named right 0.844 against 0.915)."""
        far = self._zoomed_out(rgb, finder, self.config.zoom_out)
        if self._set_finder is None or not (many_big or len(far[0]) >= 2):
            return far
        looks = [self._zoomed_out(rgb, self._set_finder, k) for k in CLOSE_ZOOMS]
        looks = [(b, p) for b, p in looks if len(b) and p.max() >= FAR_SURE]
        return max(looks, key=lambda look: look[1].mean()) if looks else far

    def _one_tile(self, rgb: np.ndarray, boxes: np.ndarray, conf: np.ndarray, named: Named
                  ) -> tuple[np.ndarray, np.ndarray, Named]:
        """The tiles found (``boxes``, ``conf``) and ``named``; or, where they may be the parts of one tile seen close
        (``parts_asked``: more of one face than a set holds), the tile finder's look at the photo shrunk ``zoom_out``
        times, named, when that boxes them as one (``parts_taken``)."""
        if self.config.zoom_out <= 1 or not parts_asked(named.p.argmax(1), NAMES.index("back"), FEW):
            return boxes, conf, named
        far, far_conf = self._zoomed_out(rgb, self._finder, self.config.zoom_out)
        if not parts_taken(boxes, conf, far, far_conf, FEW, FAR_SURE):
            return boxes, conf, named
        return far, far_conf, self._seen_from_above(rgb, far, self._named(rgb, far, conf=far_conf))

    def _zoomed_out(self, rgb: np.ndarray, finder: Finder, times: float) -> tuple[np.ndarray, np.ndarray]:
        """``finder``'s boxes on ``rgb`` shrunk ``times`` times into the middle of a canvas of felt green (unlike
        any tile's face; ``crops.shrunk_into``), mapped back to ``rgb`` and cut to it."""
        canvas, (left, top, sx, sy) = shrunk_into(rgb, times, self.config.imgsz, FELT)
        boxes, conf = self._predict(canvas, self.config.imgsz, finder)
        h, w = rgb.shape[:2]
        return np.clip((boxes - [left, top, left, top]) * [sx, sy, sx, sy], 0, [w, h, w, h]), conf

    def _predict(self, rgb: np.ndarray, imgsz: int, finder: Finder) -> tuple[np.ndarray, np.ndarray]:
        c = self.config
        return finder.boxes(rgb, imgsz, c.conf, c.iou, c.max_det)

    def classify(self, rgb: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per box: the probabilities of the names (N, 43) and of the up direction (N, 4: 0, 90, 180, 270 degrees
        clockwise from the image's up). The boxes are one photo's: its tiles that look alike agree on their names."""
        named = self._seen_from_above(rgb, boxes, self._named(rgb, boxes, clearer=True))
        return named.p, named.up

    def looks(self, rgb: np.ndarray, boxes: np.ndarray, crops: np.ndarray | None = None) -> np.ndarray:
        """The looks (N, F) of the tiles at ``boxes`` by the classifier: its features of each crop cut straight and
        turned upright, as the tiles of a photo compare them (``vision/agreement.py``) and a learnt set keeps them
        (``vision/learnt.py``). ``crops``: the tiles already cut (``cut``)."""
        if len(boxes) == 0:
            return np.zeros((0, self._classifier.get_outputs()[2].shape[-1]), np.float32)
        return self._looked_at(self.cut(rgb, boxes)[0] if crops is None else crops, self._classifier)[2]

    def cut(self, rgb: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The classifier's crops of the tiles at ``boxes`` (N, 3, S, S), each cut straight by its tilt, and the tilts
        (N, radians; zero when ``straighten`` is off: each box cut as it lies)."""
        tilt = tilts(rgb, boxes) if self.config.straighten else np.zeros(len(boxes))
        return network_input(crop_tiles(rgb, boxes, self._crop, tilt=tilt)), tilt

    def _named(self, rgb: np.ndarray, boxes: np.ndarray, classifier: object = None,
               conf: np.ndarray | None = None, seen: tuple | None = None, clearer: bool = False) -> Named:
        """``classify``'s names and up directions, with the crops named and the tilts they were cut at, by
        ``classifier`` (None: the photo's; with a learnt set, the fine-tuned classifier where the photo shows that
        set, else the shipped one: ``vision/learnt.py``). ``conf``: the finder's confidences in ``boxes`` (None: true
        boxes). ``seen``: the crops and tilts already cut (``cut``) and ``classifier``'s ``_looked_at`` of them.
        ``clearer``: the boxes are the photo's tiles, named by the soft or the shaken classifier where their crops
        are too soft or shaken (``clearer.for_faults``), their soft or dim crops maybe named clearer
        (``clearer.clearest``), a photo of tiles standing maybe named from their faces cut flat
        (``faces.FaceReader.flatter``); boxes named later (backs looked for, halves, kongs' ends) are as cut (a table's,
        levelled, lost 49 backs)."""
        if len(boxes) == 0:
            return Named(np.zeros((0, len(NAMES))), np.zeros((0, 4)), np.zeros((0, 3, self._crop, self._crop)),
                         np.zeros(0), classifier or self._classifier)
        c = self.config
        chosen, faces = classifier or self._classifier, None
        if seen is None:
            x, tilt = self.cut(rgb, boxes)
            sharp = sharpness(x) if clearer else None  # measured once, for the faults' classifiers and the views
            if clearer and classifier is None:
                chosen = for_faults(boxes, x, c, self._soft, self._shaken, sharp) or chosen
            name_by = partial(self._looked_at, classifier=chosen)
            x, looked = clearest(x, name_by, c, sharp) if clearer else (x, name_by(x))
            if clearer and self._faces is not None and self._faces.sees(boxes, c) and \
                    FEW <= len(boxes) < (c.set_tiles or np.inf):  # a hand's tiles standing: their faces cut flat
                x, looked, faces = self._faces.flatter(rgb, boxes, tilt, x, looked, name_by, c)
            seen = x, tilt, looked
        x, tilt, (p, up, look) = seen
        if classifier is None and self._learnt is not None and not self._shows_learnt(look, conf):
            chosen = self._shipped  # a photo of another set
            p, up, look = self._looked_at(x, chosen)
        learnt = self._learnt is not None and chosen is self._classifier  # named by the fine-tuned classifier
        half = np.full(len(p), np.nan)  # the flower reader's probability that a crop turned upright is upside down
        for reader in (r for r in self._readers if not r.seats):
            p, upside = self._read(reader, rgb, boxes, tilt, x, p, up)
            if reader.flowers:
                half = np.where(np.isnan(upside), half, upside)
        if self._captions is not None:
            p = self._captions.named(rgb, boxes, tilt, p, up, half, self._asked(p, FLOWERS, c.caption_unsure), c)
        for reader in (r for r in self._readers if r.seats):  # after the captions, which it would make seem sure
            p = self._read(reader, rgb, boxes, tilt, x, p, up)[0]
        if c.learnt_agree or not learnt:
            p = agree(p, look, c.alike, c.alike_weight, FLOWERS if c.flowers_once else None)
        if c.backs_by_colour or c.kong_backs:  # backs and white dragons told apart (``vision/backs.py``)
            centres, widths = (boxes[:, :2] + boxes[:, 2:]) / 2, tile_sides(boxes, tilt).min(1)
            if c.backs_by_colour:  # a back is coloured, a face is not
                p = coloured_backs(p, x, centres, widths, learnt and self._learnt.backs_coloured is True)
            if c.kong_backs:  # white, X, X, white is no meld but a concealed kong
                p = kong_backs(p, centres, widths)
        return Named(p, up, x, tilt, chosen, faces)

    def _seen_from_above(self, rgb: np.ndarray, boxes: np.ndarray, named: Named) -> Named:
        """``named`` (the photo's tiles at ``boxes`` as named), or, where the photo may be a hand seen from a player's
        seat (named unsurely, ``rectify_below``; FEW tiles or more, fewer than ``set_tiles``), averaged with its names
        read again as from above: the photo turned upright (each way its faces' up directions split between,
        ``turn_split``), stretched by each of ``stretches`` and cut to the faces (``vision/rectify.py``), or each face
        cut flat by its own corners (``faces_look``, ``vision/faces.py``): the look the classifier alone names most
        surely named in full, and taken when surer on average. The crops and tilts stay the photo's own."""
        c = self.config
        sure = sureness(named.p) if len(boxes) else 1.0
        if sure >= c.rectify_below or len(boxes) < FEW or c.set_tiles and len(boxes) >= c.set_tiles:
            return named  # named surely; a close-up, or a photo of few tiles; a set laid out or a table
        face = named.p.argmax(1) != NAMES.index("back")
        best = None  # each turn and stretch judged by the classifier alone (a fifth of the whole naming's time)
        for angle in upright_turns(named.up, face, photo_tilt(rgb, boxes), c.turn_split):
            for stretch in c.stretches:
                img, faces = rectified(rgb, boxes, named.tilt, angle, stretch)
                x, tilt = self.cut(img, faces)
                looked = self._looked_at(x, named.classifier)
                if best is None or sureness(looked[0]) > best[0]:  # (the first of equals; one photo kept)
                    best = sureness(looked[0]), angle, img, faces, (x, tilt, looked)
        if c.faces_look and self._faces is not None and self._faces.sees(boxes, c):  # each face cut flat: a look more
            found = named.faces if named.faces is not None else self._faces.faces(rgb, boxes, named.tilt)
            x = self._faces.flat(rgb, found, self._crop)
            looked = self._looked_at(x, named.classifier)
            if sureness(looked[0]) > best[0]:
                best = sureness(looked[0]), 0.0, rgb, boxes, (x, named.tilt, looked)
        _, angle, img, faces, seen = best
        again = self._named(img, faces, named.classifier, seen=seen)  # the whole naming goes on from that look
        if sureness(again.p) <= sure:
            return named
        return named._replace(p=(named.p + again.p) / 2, up=(named.up + turned_back(again.up, angle)) / 2)

    def _shows_learnt(self, look: np.ndarray, conf: np.ndarray | None) -> bool:
        """Whether a photo whose tiles have the looks ``look`` (N, F) shows the learnt set, counting the tiles found
        with ``learnt_sure`` or more (``conf``; all where none is, or on true boxes: None)."""
        c = self.config
        sure = np.ones(len(look), bool) if conf is None else conf >= c.learnt_sure
        return self._learnt.shows(look[sure] if sure.any() else look, c)

    def _looked_at(self, x: np.ndarray, classifier: object) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The crops ``x`` (N, 3, S, S) named by ``classifier``: the names' probabilities (N, 43), the up directions'
        (N, 4) and the looks of the crops turned upright (N, F)."""
        c = self.config
        logits, up, look = classifier.run(None, {"crops": x})
        p, up = _softmax(logits), _softmax(up)
        upright = up.argmax(1)  # quarter turns that make each crop upright
        again = np.flatnonzero(p.max(1) < c.turn_sure) if c.turns > 1 else np.zeros(0, int)
        # one more batch: the crops named unsurely seen turned (``crops.more_turns``), their names' probabilities then
        # averaged; and the crops not yet seen upright, turned upright for their look only
        sure_up = up.max(1) >= c.upright_sure
        views = [(int(i), k) for i in again for k in more_turns(c.turns, int(upright[i]) if sure_up[i] else 0)]
        named = len(views)
        if c.alike < 1.0:  # looks are compared (``vision/agreement.py``)
            seen = set(views)
            views += [(int(i), int(k)) for i, k in enumerate(upright) if k and (i, int(k)) not in seen]
        if views:
            crops, turns = zip(*views, strict=True)
            logits2, _, look2 = classifier.run(None, {"crops": quarter_turned(x[list(crops)], turns)})
            if named:
                np.add.at(p, list(crops[:named]), _softmax(logits2[:named]))
                p[again] /= c.turns
            for (i, k), v in zip(views, look2, strict=True):
                if k == upright[i]:
                    look[i] = v
        return p, up, look

    def _read(self, reader: Reader, rgb: np.ndarray, boxes: np.ndarray, tilt: np.ndarray, crops: np.ndarray,
              p: np.ndarray, up: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``p`` with ``reader``'s names averaged in, for the tiles the classifier thinks may be of its family and does
        not name surely; and, for those tiles, the probability the reader gives to their being upside down as turned
        (NaN for the others).

        Each is read once, turned upright by the classifier's up direction. That head is wrong by half a turn on a
        third of an unseen style's flowers, so the readers learnt to read tiles either way up (``models/README.md``)."""
        c = self.config
        ask = self._asked(p, MARK_OF >= 0 if reader.marks else reader.ids)
        if reader.seats:  # a tile named a flower: its flowers' share, gathered on one, would outweigh a back's
            ask = ask[np.isin(p[ask].argmax(1), FLOWERS)]
        upside = np.full(len(p), np.nan)
        if len(ask) == 0:
            return p, upside
        x = crops[ask] if reader.side == self._crop else network_input(
            crop_tiles(rgb, boxes[ask], reader.side, tilt=tilt[ask]))
        # bin k: the art's up is k quarter turns clockwise; k turns back make it upright
        names, turns = reader.session.run(None, {"crops": quarter_turned(x, up[ask].argmax(1))})
        q, turns = _softmax(names), _softmax(turns)
        upside[ask] = turns[:, 2] / (turns[:, 0] + turns[:, 2])
        out = p.copy()
        out[ask] = (mix_marks(p[ask], q, c.mark_weight) if reader.marks else mix_seats(p[ask], q, c.seat_weight)
                    if reader.seats else mix_reading(p[ask], q, reader.ids, c.reader_weight))
        return out, upside

    def _asked(self, p: np.ndarray, family: np.ndarray, gate: float | None = None) -> np.ndarray:
        """The tiles a reader of ``family`` (names' ids or a mask) reads: those the names ``p`` give the family
        ``gate`` (None: ``reader_gate``) or more, and their own name less than ``reader_sure``."""
        gate = self.config.reader_gate if gate is None else gate
        return np.flatnonzero((p[:, family].sum(1) >= gate) & (p.max(1) < self.config.reader_sure))

    def _missed_backs(self, rgb: np.ndarray, boxes: np.ndarray, conf: np.ndarray, named: Named
                      ) -> tuple[np.ndarray, ...]:
        """``boxes``, ``conf`` and their names and up directions (``named``), with the backs the finder
        was unsure of (``unsure_backs`` to ``conf``), where the photo shows its set's backs and the finder doubted
        those it found (``backs_to_look_for`` and ``missed_backs`` in ``vision/backs.py``); else with the ends of the
        concealed kongs whose both backs it missed (``_kong_ends``), and where there are none, in a photo of a learnt
        set that shows fewer than two backs, with the backs of that set's colour it was unsure of (``learnt_backs``)."""
        p, up, crops = named.p, named.up, named.crops
        colour = backs_to_look_for(p, crops, conf, self.config.one_back, (boxes[:, :2] + boxes[:, 2:]) / 2,
                                   tile_sides(boxes, named.tilt).min(1))
        if colour is not None:
            return self._backs_of(colour, rgb, boxes, conf, named)
        out = self._kong_ends(rgb, boxes, conf, named) if self.config.lone_pairs else (boxes, conf, p, up)
        if len(out[0]) == len(boxes) and self.config.learnt_backs and named.classifier is self._classifier and \
                self._learnt is not None and self._learnt.back is not None and shown_backs(p).sum() < 2:
            return self._backs_of(self._learnt.back, rgb, boxes, conf, named)
        return out

    def _backs_of(self, colour: np.ndarray, rgb: np.ndarray, boxes: np.ndarray, conf: np.ndarray, named: Named
                  ) -> tuple[np.ndarray, ...]:
        """``boxes``, ``conf`` and their names and up directions (``named``), with the boxes the finder, looking
        again, was unsure of that are backs of ``colour`` in a row with them (``unsure_boxes``, ``missed_backs``), and
        then the backs of ``colour`` it did not box, or boxed two at a time, found by their tops (``back_regions``,
        ``vision/regions.py``)."""
        p, up = named.p, named.up
        low, low_conf = self._looked_again(rgb, boxes)
        pick = unsure_boxes(boxes, p, low, low_conf)
        if len(pick):
            q = self._named(rgb, low[pick], named.classifier)  # named as the photo's tiles were
            take = missed_backs(boxes, p, tile_sides(boxes, named.tilt).min(1), low[pick], q.p, tops(q.crops), colour)
            boxes, conf = np.concatenate([boxes, low[pick[take]]]), np.concatenate([conf, low_conf[pick[take]]])
            p, up = np.r_[p, q.p[take]], np.r_[up, q.up[take]]
        if not self.config.back_regions:
            return boxes, conf, p, up
        return with_regions(rgb, colour, boxes, conf, p, up, lambda more: self._named(rgb, more, named.classifier),
                            self.config.conf)

    def _kong_ends(self, rgb: np.ndarray, boxes: np.ndarray, conf: np.ndarray, named: Named
                   ) -> tuple[np.ndarray, ...]:
        """``boxes``, ``conf`` and their names and up directions (``named``), with both ends of each concealed kong
        whose two backs the finder missed: a lone pair of faces, whose ends, placed a step beyond it, are named back
        surely, are of one colour that is not the faces', and are boxed by the finder looking again (``lone_pairs``,
        ``pair_ends``, ``kong_ends`` and ``seen`` in ``vision/backs.py``). An end takes the confidence of the finder's
        box nearest it."""
        p, up = named.p, named.up
        pairs = lone_pairs(p, (boxes[:, :2] + boxes[:, 2:]) / 2, tile_sides(boxes, named.tilt).min(1))
        ends = pair_ends(boxes, pairs)
        middles = (ends[..., :2] + ends[..., 2:]) / 2
        ends = ends[((middles >= 0) & (middles < rgb.shape[1::-1])).all((1, 2))]  # both ends on the photo
        if len(ends) == 0:
            return boxes, conf, p, up
        q = self._named(rgb, ends.reshape(-1, 4), named.classifier)
        kongs = kong_ends(p, named.crops, q.p.reshape(len(ends), 2, -1), tops(q.crops).reshape(len(ends), 2, 3))
        if not kongs.any():
            return boxes, conf, p, up
        low, low_conf = self._looked_again(rgb, boxes)
        near = seen(ends.reshape(-1, 4), low)
        take = np.repeat(kongs, 2) & (near >= 0).reshape(-1, 2).all(1).repeat(2)
        return (np.concatenate([boxes, ends.reshape(-1, 4)[take]]), np.concatenate([conf, low_conf[near[take]]]),
                np.concatenate([p, q.p[take]]), np.concatenate([up, q.up[take]]))

    def _looked_again(self, rgb: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The boxes (M, 4) the finder is unsure of (``unsure_backs`` to ``conf``) and their confidences (M,), looking
        again as ``find`` looked: at the region holding the tiles (``boxes``) where that gains, else at the whole
        photo."""
        c = self.config
        size = self._first_size(rgb)
        region = self._region(boxes, rgb.shape, size)
        if region is None:
            low, low_conf = self._finder.boxes(rgb, size, c.unsure_backs, c.iou, c.max_det)
        else:
            x0, y0, x1, y1 = region
            low, low_conf = self._finder.boxes(rgb[y0:y1, x0:x1], c.zoom_imgsz, c.unsure_backs, c.iou, c.max_det)
            low = low + np.array([x0, y0, x0, y0], np.float64)
        unsure = low_conf < c.conf
        return low[unsure], low_conf[unsure]

    def detect(self, image: ImageInput) -> list[Detection]:
        """All tiles of ``image`` (a path, bytes or PIL image), boxes in pixels of the upright full image."""
        rgb, scale = load_image(image, self.config.work_side)
        rgb = brightened(rgb, self.config.dark_below)
        boxes, conf = self.find(rgb)
        named = self._seen_from_above(rgb, boxes, self._named(rgb, boxes, conf=conf, clearer=True))
        boxes, conf, named = self._one_tile(rgb, boxes, conf, named)
        probs, up = named.p, named.up
        if self.config.unsure_backs:
            boxes, conf, probs, up = self._missed_backs(rgb, boxes, conf, named)
        if self.config.join_halves:  # a sideways tile the finder boxed as two halves (``vision/halves.py``)
            cls = probs.argmax(1)
            boxes, conf, probs, up = with_halves(boxes, conf, probs, up, sideways(cls, up)[0], main_axis(cls, up),
                                                 lambda unions: self._named(rgb, unions, named.classifier)[:2])
        side, side_p = sideways(probs.argmax(1), up)
        out = []
        for b, c, p, s, sp in zip(boxes / scale, conf, probs, side, side_p, strict=True):
            x0, y0, x1, y1 = (round(float(v), 1) for v in b)
            order = [int(k) for k in np.argsort(-p)[:RANKED] if k == p.argmax() or p[k] >= RANKED_MIN]
            ranked = tuple((NAMES[k], round(float(p[k]), 4)) for k in order)
            out.append(Detection(NAMES[order[0]], round(float(c * p[order[0]]), 4), (x0, y0, x1, y1), bool(s),
                                 ranked, round(float(sp), 4)))
        out.sort(key=lambda d: (d.box[0], d.box[1]))
        return out


def _close(boxes: np.ndarray, big: float) -> bool:
    """A look that may be a close-up: fewer tiles than a hand has (FEW), or tiles whose median side is above ``big``
    pixels."""
    return len(boxes) < FEW or median_side(boxes) > big


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)
