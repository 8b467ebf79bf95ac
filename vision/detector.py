"""The tile detector: a one-class YOLO finder boxes every tile, a small CNN names each crop, readers (the same
network, each trained on one family of tiles) read again, turned upright, the tiles that may be of their family, the
mark reader reads the index numeral a set may print on them, a text recogniser reads the English caption of a tile
that may be a flower (``vision/captions.py``), the seat reader the seat (1-4) of a tile named a flower, and the tiles
of the photo that look alike agree on their names (``vision/agreement.py``). A hand named unsurely may be seen from
a player's seat, and is named again as if seen from above (``vision/rectify.py``).

A photo of tiles standing may be named from each tile's face cut flat (``vision/faces.py``). A box named back that
holds a round thing (a coin, a chip) is no tile (``vision/discs.py``). The networks run in ONNX
Runtime (the finders by ``vision/finder.py``; where they look at a photo: ``vision/finding.py``, a photo of a whole
set laid out looked at by a second finder, trained on such photos too). Weights are passed in explicitly (the
shipped ones: ``vision/shipped.py``, ``models/README.md``); nothing is downloaded.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext
from functools import partial
from pathlib import Path

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
    told_kept,
    tops,
    unsure_boxes,
)
from vision.captions import CaptionReader, Verdicts
from vision.clearer import brightened, clearest, for_faults, sharpness, sureness
from vision.config import DetectorConfig
from vision.crops import (
    CROP,
    crop_tiles,
    more_turns,
    network_input,
    photo_tilt,
    quarter_turned,
    tile_sides,
    tilts,
)
from vision.detection import Detection
from vision.discs import round_boxes
from vision.errors import ModelNotFoundError
from vision.faces import FaceReader, FaceRefiner, flat_named, stands_of
from vision.finder import Finder, parts_asked, parts_held, parts_taken, surer
from vision.finding import FAR_SURE, FEW, Finding
from vision.gaps import gap_boxes, row_gaps
from vision.halves import with_halves
from vision.image import ImageInput, load_image
from vision.learnt import LearntSet
from vision.names import NAMES
from vision.naming import Named, Seen
from vision.readers import FLOWERS, Reader, asked, crop_side, read_again, softmax
from vision.rectify import rectified
from vision.regions import with_regions
from vision.sessions import classifier_session, fault_session, session, session_options
from vision.shipped import (
    CAPTION_WEIGHTS,
    CLASSIFIER_WEIGHTS,
    FACE_WEIGHTS,
    FINDER_WEIGHTS,
    READER_WEIGHTS,
    REFINER_WEIGHTS,
    ROW_FINDER_WEIGHTS,
    SET_FINDER_WEIGHTS,
    SHAKEN_CLASSIFIER_WEIGHTS,
    SOFT_CLASSIFIER_WEIGHTS,
)
from vision.upright import main_axis, sideways, turned_back, upright_turns

RANKED = 4  # names kept per tile in Detection.ranked
RANKED_MIN = 0.01  # ... down to this probability


class TileDetector:
    """Find and name every tile of a photo: ``TileDetector(finder, classifier).detect(photo)``."""

    def __init__(self, finder: Path = FINDER_WEIGHTS, classifier: Path = CLASSIFIER_WEIGHTS,
                 config: DetectorConfig | None = None, readers: Sequence[Path] = READER_WEIGHTS,
                 set_finder: Path | None = SET_FINDER_WEIGHTS, captions: Path | None = CAPTION_WEIGHTS,
                 learnt: tuple[Path, Path] | None = None, soft: Path | None = SOFT_CLASSIFIER_WEIGHTS,
                 shaken: Path | None = SHAKEN_CLASSIFIER_WEIGHTS, faces: Path | None = FACE_WEIGHTS,
                 row_finder: Path | None = ROW_FINDER_WEIGHTS, refiner: Path | None = REFINER_WEIGHTS) -> None:
        """``readers``: the readers' weights, applied in this order (none: the classifier names tiles alone);
        ``set_finder``: the finder for photos of many tiles (``DetectorConfig.set_tiles``; None: ``finder`` alone);
        ``captions``: the flowers' caption reader, read after them (None: none); ``learnt``: the learnt set of a
        fine-tuned ``classifier`` and the classifier that names the photos of other sets (``vision/learnt.py``;
        None: ``classifier`` names every photo); ``soft``, ``shaken``: the classifiers of the photos too soft for
        ``classifier`` and of those shaken (``DetectorConfig.soft_below``, ``shaken_below``; None, or with a learnt
        set: ``classifier`` names them too); ``faces``: the face network, by which a photo of tiles standing is named
        from their faces cut flat (``DetectorConfig.faces_below``; None: as they are boxed); ``row_finder``: the
        finder that looks again at a photo of tiles standing (``DetectorConfig.rows_standing``; None, or without
        ``faces``: ``finder`` alone); ``refiner``: the face refiner, by which the thin faces the face network finds
        (seen at a grazing angle) are found again before they are cut flat (``DetectorConfig.faces_refined``; None:
        as the face network finds them)."""
        for p in (finder, classifier, *readers,
                  *filter(None, (set_finder, captions, soft, shaken, faces, row_finder, faces and refiner)),
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
        refine = FaceRefiner(session(refiner, opts.naming), refiner) if faces and refiner else None
        self._faces = FaceReader(session(faces, opts.naming), faces, refine) if faces else None
        self._row_finder = Finder(session(row_finder, opts.finding), row_finder) if row_finder else None

    @classmethod
    def from_parts(cls, classifier: object = None, *, crop: int = CROP, readers: Sequence[Reader] = (),
                   captions: CaptionReader | None = None, finder: object = None, set_finder: object = None,
                   config: DetectorConfig | None = None, learnt: LearntSet | None = None,
                   shipped: object = None, soft: object = None, shaken: object = None,
                   faces: FaceReader | None = None, row_finder: object = None) -> TileDetector:
        """A detector from networks already loaded, or from stand-ins with their methods (to try one part without
        weights): ``classifier`` answers ``run(outputs, {"crops": x})`` as an ONNX Runtime session does, for crops of
        ``crop`` pixels; ``finder`` and ``set_finder`` answer ``boxes(rgb, imgsz, conf, iou, max_det)`` as
        ``vision.finder.Finder`` does; ``readers`` and ``captions`` as ``Reader.load`` and ``CaptionReader`` make
        them; ``learnt`` and ``shipped``: a learnt set and the classifier of the photos of other sets; ``soft``,
        ``shaken``: the classifiers of soft and of shaken photos; ``faces``: the face network (``FaceReader``);
        ``row_finder``: the finder of rows of tiles standing, answering as ``finder`` does."""
        det = cls.__new__(cls)
        det.config = config or DetectorConfig()
        det._finder, det._set_finder = finder, set_finder
        det._classifier, det._crop = classifier, crop
        det._learnt, det._shipped, det._soft, det._shaken = learnt, shipped, soft, shaken
        det._readers, det._captions, det._faces, det._row_finder = list(readers), captions, faces, row_finder
        return det

    def find(self, rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Tile boxes (N, 4, xyxy px of ``rgb``) and the finder's confidences (N,): ``Finding.find``'s looks."""
        return self._finding.find(rgb)

    @property
    def _finding(self) -> Finding:
        return Finding(self._finder, self._set_finder, self.config)

    def _standing(self, rgb: np.ndarray, boxes: np.ndarray, conf: np.ndarray, seen: Seen | None
                  ) -> tuple[np.ndarray, np.ndarray, Seen | None]:
        """The tiles found (``boxes``, ``conf``) and ``seen``; or, where the face network found ``rows_standing`` of
        them or more standing (a hand named unsurely: ``_seen``), or where the tile finder, unsure, may have boxed their
        parts (``rows_parts``) or the row finder is the surer of the two and some tiles stand (``rows_surer``), or where
        it found fewer than a hand's tiles, standing, and the row finder a hand's (``rows_few``), the row finder's
        boxes, seen (before either is read and named in full: the first boxes' reading would be thrown away). Where
        the face network looked and finds fewer than ``rows_surer`` standing, and the tile finder doubted its boxes
        only a little (``rows_lying_doubt``), that doubt alone does not ask the row finder."""
        c = self.config
        if self._row_finder is None:
            return boxes, conf, seen
        looked = seen is not None and seen.faces is not None  # the face network looked at the tiles
        share = seen.faces.standing if looked else 0.0
        standing = bool(c.rows_standing) and share >= c.rows_standing
        doubt = float(np.median(conf)) if len(conf) else 1.0
        lying = looked and share < c.rows_surer and doubt >= c.rows_lying_doubt
        unsure = bool(c.rows_parts or c.rows_surer) and FEW <= len(boxes) < c.rows_most and doubt < c.rows_unsure \
            and not lying
        few = self._few_standing(rgb, boxes, seen)
        if not standing and not unsure and not few:
            return boxes, conf, seen
        rows, rows_conf = Finding(self._row_finder, None, c).find(rgb)
        if few:  # a row standing of which the tile finder found fewer than a hand's tiles
            taken = FEW <= len(rows) < c.set_tiles
        else:
            taken = standing or self._rows_taken(boxes, conf, rows, rows_conf, share)
        if not taken:
            return boxes, conf, seen
        return rows, rows_conf, self._seen(rgb, rows, clearer=True) if len(rows) else None

    def _few_standing(self, rgb: np.ndarray, boxes: np.ndarray, seen: Seen | None) -> bool:
        """Whether the tile finder found half a hand's tiles or more but fewer than a hand's (FEW // 2 to FEW - 1
        ``boxes``) and the face network finds ``rows_standing`` of them or more standing (``rows_few``): a row standing
        of which it missed tiles, not a close-up of a few tiles lying."""
        c = self.config
        if not (c.rows_few and c.rows_standing and self._faces is not None and seen is not None and
                FEW // 2 <= len(boxes) < FEW):
            return False
        return self._faces.faces(rgb, boxes, seen.tilt).standing >= c.rows_standing

    def _rows_taken(self, boxes: np.ndarray, conf: np.ndarray, rows: np.ndarray, rows_conf: np.ndarray,
                    share: float) -> bool:
        """Whether the row finder's boxes (``rows``, ``rows_conf``) are taken in place of the tile finder's unsure ones
        (``boxes``, ``conf``), ``share`` of whose tiles the face network found standing: where they are a hand's (fewer
        than ``set_tiles``) and hold the tile finder's as parts (``rows_parts``), or where they are the surer
        (``finder.surer``), FEW or more, and ``rows_surer`` of the tiles or more stand."""
        c = self.config
        if len(rows) >= (c.set_tiles or np.inf):
            return False
        if c.rows_parts and parts_held(boxes, rows, rows_conf) >= c.rows_parts:
            return True
        return bool(c.rows_surer and c.set_tiles) and share >= c.rows_surer and len(rows) >= FEW and \
            surer(rows_conf, conf)

    def _shrunk(self, rgb: np.ndarray, boxes: np.ndarray, conf: np.ndarray, seen: Seen | None
                ) -> tuple[np.ndarray, np.ndarray, Seen | None]:
        """The tiles found (``boxes``, ``conf``) and ``seen``; or, where they may be the parts of tiles bigger than
        the finders learnt (more boxes than a hand photo shows, doubted), the tile finder's look at the photo shrunk
        (``shrunk``), seen, when it boxes a hand's tiles whole (``shrunk_parts``)."""
        c = self.config
        if c.shrunk <= 1 or not 0 < c.set_tiles <= len(boxes) < c.rows_most or float(np.median(conf)) >= c.rows_unsure:
            return boxes, conf, seen
        far, far_conf = self._finding.zoomed_out(rgb, self._finder, c.shrunk)
        if not (FEW <= len(far) < c.set_tiles and far_conf.mean() >= conf.mean()
                and parts_held(boxes, far, far_conf) >= c.shrunk_parts):
            return boxes, conf, seen
        return far, far_conf, self._seen(rgb, far, clearer=True)

    def _one_tile(self, rgb: np.ndarray, boxes: np.ndarray, conf: np.ndarray, named: Named
                  ) -> tuple[np.ndarray, np.ndarray, Named]:
        """The tiles found (``boxes``, ``conf``) and ``named``; or, where they may be the parts of one tile seen close
        (``parts_asked``: more of one face than a set holds), the tile finder's look at the photo shrunk ``zoom_out``
        times, named, when that boxes them as one (``parts_taken``)."""
        if self.config.zoom_out <= 1 or not parts_asked(named.p.argmax(1), NAMES.index("back"), FEW):
            return boxes, conf, named
        far, far_conf = self._finding.zoomed_out(rgb, self._finder, self.config.zoom_out)
        if not parts_taken(boxes, conf, far, far_conf, FEW, FAR_SURE):
            return boxes, conf, named
        return far, far_conf, self._seen_from_above(rgb, far, self._named(rgb, far, conf=far_conf))

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
               conf: np.ndarray | None = None, seen: Seen | None = None, clearer: bool = False,
               captions: Verdicts | None = None) -> Named:
        """``classify``'s names and up directions, with the crops named and the tilts they were cut at, by
        ``classifier`` (None: the photo's; with a learnt set, the fine-tuned classifier where the photo shows that
        set, else the shipped one: ``vision/learnt.py``). ``conf``: the finder's confidences in ``boxes`` (None: true
        boxes). ``seen``: the tiles already cut and looked at (``_seen``; None: ``_seen`` with ``classifier`` and
        ``clearer``). ``captions``: what an earlier naming of these tiles read of their captions (not read again)."""
        if len(boxes) == 0:
            return Named(np.zeros((0, len(NAMES))), np.zeros((0, 4)), np.zeros((0, 3, self._crop, self._crop)),
                         np.zeros(0), classifier or self._classifier)
        c = self.config
        x, tilt, (p, up, look), chosen, faces = seen or self._seen(rgb, boxes, classifier, clearer)
        if classifier is None and self._learnt is not None and not self._shows_learnt(look, conf):
            chosen = self._shipped  # a photo of another set
            p, up, look = self._looked_at(x, chosen)
        learnt = self._learnt is not None and chosen is self._classifier  # named by the fine-tuned classifier
        looked = p
        half = np.full(len(p), np.nan)  # the flower reader's probability that a crop turned upright is upside down
        for reader in (r for r in self._readers if not r.seats):
            p, upside = self._read(reader, rgb, boxes, tilt, x, p, up)
            if reader.flowers:
                half = np.where(np.isnan(upside), half, upside)
        read = None
        if self._captions is not None:
            p, read = self._captions.named(rgb, boxes, tilt, p, up, half, asked(p, FLOWERS, c, c.caption_unsure),
                                           c, faces, captions)
        for reader in (r for r in self._readers if r.seats):  # after the captions, which it would make seem sure
            p = self._read(reader, rgb, boxes, tilt, x, p, up)[0]
        if c.learnt_agree or not learnt:
            p = agree(p, look, c.alike, c.alike_weight, FLOWERS if c.flowers_once else None)
        told = None
        if c.backs_by_colour or c.kong_backs:  # backs and white dragons told apart (``vision/backs.py``)
            centres, widths = (boxes[:, :2] + boxes[:, 2:]) / 2, tile_sides(boxes, tilt).min(1)
            if c.backs_by_colour:  # a back is coloured, a face is not
                p, told = coloured_backs(p, x, centres, widths, learnt and self._learnt.backs_coloured is True)
            if c.kong_backs:  # white, X, X, white is no meld but a concealed kong
                p = kong_backs(p, centres, widths)
        return Named(p, up, x, tilt, chosen, faces, read, told, looked)

    def _seen(self, rgb: np.ndarray, boxes: np.ndarray, classifier: object = None, clearer: bool = False) -> Seen:
        """The tiles at ``boxes`` (one or more) cut straight (``cut``) and looked at by ``classifier`` (None: the
        photo's, as ``_named`` says). ``clearer``: the boxes are the photo's tiles, looked at by the soft or the
        shaken classifier where their crops are too soft or shaken (``clearer.for_faults``), their soft or dim crops
        maybe looked at clearer (``clearer.clearest``), a photo of tiles standing maybe looked at as their faces cut
        flat (``faces.FaceReader.flatter``); boxes named later (backs looked for, halves, kongs' ends) are as cut (a
        table's, levelled, lost 49 backs)."""
        c = self.config
        chosen, faces = classifier or self._classifier, None
        x, tilt = self.cut(rgb, boxes)
        sharp = sharpness(x) if clearer else None  # measured once, for the faults' classifiers and the views
        if clearer and classifier is None:
            chosen = for_faults(boxes, x, c, self._soft, self._shaken, sharp) or chosen
        name_by = partial(self._looked_at, classifier=chosen)
        x, looked = clearest(x, name_by, c, sharp) if clearer else (x, name_by(x))
        if clearer and self._faces is not None and self._faces.sees(boxes, c) and \
                FEW <= len(boxes) < (c.set_tiles or np.inf):  # a hand's tiles standing: their faces cut flat
            x, looked, faces = self._faces.flatter(rgb, boxes, tilt, x, looked, name_by, c)
        return Seen(x, tilt, looked, chosen, faces)

    def _seen_from_above(self, rgb: np.ndarray, boxes: np.ndarray, named: Named) -> Named:
        """``named`` (the photo's tiles at ``boxes`` as named), or, where the photo may be a hand seen from a player's
        seat (named unsurely, ``rectify_below``; FEW tiles or more, fewer than ``set_tiles``), averaged with its names
        read again as from above: the photo turned upright (each way its faces' up directions split between,
        ``turn_split``), stretched by each of ``stretches`` and cut to the faces (``vision/rectify.py``), or each face
        cut flat by its own corners (``faces_look``, ``vision/faces.py``; that look alone where its tiles stand,
        ``standing_not_stretched``): the look the classifier alone names most surely named in full, and taken when
        surer on average. The crops and tilts stay the photo's own."""
        c = self.config
        sure = sureness(named.p) if len(boxes) else 1.0
        if sure >= c.rectify_below or len(boxes) < FEW or c.set_tiles and len(boxes) >= c.set_tiles:
            return named  # named surely; a close-up, or a photo of few tiles; a set laid out or a table
        face = named.p.argmax(1) != NAMES.index("back")
        best = None  # each turn and stretch judged by the classifier alone (a fifth of the whole naming's time)
        standing = named.faces is not None and named.faces.standing >= c.faces_standing
        turns = [] if standing and c.standing_not_stretched else \
            upright_turns(named.up, face, photo_tilt(rgb, boxes), c.turn_split)
        for angle in turns:
            for stretch in c.stretches:
                img, faces = rectified(rgb, boxes, named.tilt, angle, stretch)
                x, tilt = self.cut(img, faces)
                looked = self._looked_at(x, named.classifier)
                if best is None or sureness(looked[0]) > best[0]:  # (the first of equals; one photo kept)
                    best = sureness(looked[0]), angle, img, faces, Seen(x, tilt, looked, named.classifier)
        found, flat = named.faces, None  # (kept: which tiles stand, ``Detection.stands``)
        if c.faces_look and self._faces is not None and self._faces.sees(boxes, c):  # each face cut flat: a look more
            found = found if found is not None else self._faces.refined(
                rgb, self._faces.faces(rgb, boxes, named.tilt), c)
            x = self._faces.flat(rgb, found, self._crop)
            looked = flat = self._looked_at(x, named.classifier)
            if best is None or sureness(looked[0]) > best[0]:
                best = sureness(looked[0]), 0.0, rgb, boxes, Seen(x, named.tilt, looked, named.classifier,
                                                                   found._replace(flat=True))
        named = named._replace(faces=found)
        if best is None:
            return named
        _, angle, img, faces, seen = best
        # the whole naming goes on from that look, its tiles' captions as the first naming read them
        again = self._named(img, faces, named.classifier, seen=seen, captions=named.captions)
        if sureness(again.p) > sure:
            p = (named.p + again.p) / 2
            if c.backs_after_average and named.told is not None:  # the photo's own look named these by colour alone
                p = told_kept(p, named.p, named.told)
            named = named._replace(p=p, up=(named.up + turned_back(again.up, angle)) / 2)
        if flat is None or named.looked is None or c.flat_sure >= 1:
            return named
        return named._replace(p=flat_named(named.p, flat[0], named.looked, c.flat_sure))

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
        p, up = softmax(logits), softmax(up)
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
                np.add.at(p, list(crops[:named]), softmax(logits2[:named]))
                p[again] /= c.turns
            for (i, k), v in zip(views, look2, strict=True):
                if k == upright[i]:
                    look[i] = v
        return p, up, look

    def _read(self, reader: Reader, rgb: np.ndarray, boxes: np.ndarray, tilt: np.ndarray, crops: np.ndarray,
              p: np.ndarray, up: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``p`` with ``reader``'s reading mixed in, and the probability it gives each tile read of being upside down
        as turned (``readers.read_again``); the classifier's ``crops`` of the tiles at ``boxes`` serve a reader of its
        crop side, others are cut by ``tilt``."""
        def cut(read: np.ndarray, side: int) -> np.ndarray:
            return crops[read] if side == self._crop else network_input(
                crop_tiles(rgb, boxes[read], side, tilt=tilt[read]))

        return read_again(reader, cut, p, up, self.config)

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
        if self.config.lone_pairs:
            more, more_conf, grown, colour, looked = self._kong_ends(rgb, boxes, conf, named)
            if colour is not None:  # the photo shows its set's backs now
                return self._backs_of(colour, rgb, more, more_conf, grown, looked) \
                    if self.config.backs_after_kong_ends else (more, more_conf, grown.p, grown.up)
        if self.config.learnt_backs and named.classifier is self._classifier and \
                self._learnt is not None and self._learnt.back is not None and shown_backs(p).sum() < 2:
            return self._backs_of(self._learnt.back, rgb, boxes, conf, named)
        return boxes, conf, p, up

    def _missed_in_rows(self, rgb: np.ndarray, boxes: np.ndarray, conf: np.ndarray, p: np.ndarray, up: np.ndarray,
                        classifier: object) -> tuple[np.ndarray, ...]:
        """``boxes``, ``conf``, their names ``p`` and up directions ``up``, with the tiles the finder missed in a
        hand's rows: a box it was unsure of, looking again, that fills a one-tile gap in a row (``vision/gaps.py``),
        named a face with ``gap_sure`` or more by ``classifier``."""
        c = self.config
        if c.gap_sure >= 1 or not FEW <= len(boxes) < (c.set_tiles or np.inf):
            return boxes, conf, p, up
        gaps = row_gaps(boxes)
        if not len(gaps):
            return boxes, conf, p, up
        low, low_conf = self._finding.unsure(rgb, boxes)
        pick = gap_boxes(gaps, boxes, low)
        if not len(pick):
            return boxes, conf, p, up
        q = self._named(rgb, low[pick], classifier)
        take = (q.p.max(1) >= c.gap_sure) & (q.p.argmax(1) != NAMES.index("back"))
        return (np.concatenate([boxes, low[pick[take]]]), np.concatenate([conf, low_conf[pick[take]]]),
                np.r_[p, q.p[take]], np.r_[up, q.up[take]])

    def _backs_of(self, colour: np.ndarray, rgb: np.ndarray, boxes: np.ndarray, conf: np.ndarray, named: Named,
                  looked: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, ...]:
        """``boxes``, ``conf`` and their names and up directions (``named``), with the boxes the finder, looking
        again, was unsure of that are backs of ``colour`` in a row with them (``unsure_boxes``, ``missed_backs``), and
        then the backs of ``colour`` it did not box, or boxed two at a time, found by their tops (``back_regions``,
        ``vision/regions.py``). ``looked``: the boxes it was unsure of and their confidences, where it has looked
        again already (None: it looks)."""
        p, up = named.p, named.up
        low, low_conf = looked or self._finding.unsure(rgb, boxes)
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
                   ) -> tuple[np.ndarray, np.ndarray, Named, np.ndarray | None, tuple | None]:
        """``boxes``, ``conf`` and their names (``named``: its names, up directions, crops and tilts), with both ends
        of each concealed kong whose two backs the finder missed: a lone pair of faces, whose ends, placed a step
        beyond it, are named back surely, are of one colour that is not the faces', and of which ``kong_ends_seen``
        are boxed by the finder looking again (``lone_pairs``, ``pair_ends``, ``kong_ends`` and ``seen`` in
        ``vision/backs.py``). An end takes the confidence of the finder's box nearest it (one it did not box: its
        other end's). And the colour of the ends taken (3,: the median of their tops) and the finder's boxes looking
        again with their confidences, None where none is taken."""
        none = boxes, conf, named, None, None
        pairs = lone_pairs(named.p, (boxes[:, :2] + boxes[:, 2:]) / 2, tile_sides(boxes, named.tilt).min(1))
        ends = pair_ends(boxes, pairs)
        middles = (ends[..., :2] + ends[..., 2:]) / 2
        ends = ends[((middles >= 0) & (middles < rgb.shape[1::-1])).all((1, 2))]  # both ends on the photo
        if len(ends) == 0:
            return none
        q = self._named(rgb, ends.reshape(-1, 4), named.classifier)
        kongs = kong_ends(named.p, named.crops, q.p.reshape(len(ends), 2, -1), tops(q.crops).reshape(len(ends), 2, 3))
        if not kongs.any():
            return none
        low, low_conf = self._finding.unsure(rgb, boxes)
        near = seen(ends.reshape(-1, 4), low).reshape(-1, 2)
        take = np.repeat(kongs & ((near >= 0).sum(1) >= self.config.kong_ends_seen), 2)
        if not take.any():
            return none
        near = np.where(near >= 0, near, near.max(1, keepdims=True)).reshape(-1)  # an end unseen: as its other end
        grown = Named(*(np.concatenate([a, b[take]]) for a, b in zip(named[:4], q[:4], strict=True)), named.classifier)
        return (np.concatenate([boxes, ends.reshape(-1, 4)[take]]), np.concatenate([conf, low_conf[near[take]]]),
                grown, np.median(tops(q.crops[take]), axis=0), (low, low_conf))

    def detect(self, image: ImageInput) -> list[Detection]:
        """All tiles of ``image`` (a path, bytes or PIL image), boxes in pixels of the upright full image."""
        with self._captions.remembering() if self._captions is not None else nullcontext():  # named more than once
            return self._detect(image)

    def _detect(self, image: ImageInput) -> list[Detection]:
        rgb, scale = load_image(image, self.config.work_side)
        rgb = brightened(rgb, self.config.dark_below)
        boxes, conf = self.find(rgb)
        seen = self._seen(rgb, boxes, clearer=True) if len(boxes) else None  # the row finder's gate asks this first
        boxes, conf, seen = self._standing(rgb, boxes, conf, seen)
        boxes, conf, seen = self._shrunk(rgb, boxes, conf, seen)
        named = self._seen_from_above(rgb, boxes, self._named(rgb, boxes, conf=conf, seen=seen, clearer=True))
        boxes, conf, named = self._one_tile(rgb, boxes, conf, named)
        probs, up = named.p, named.up
        faced = boxes  # the boxes whose faces the face network may have found (``Detection.stands``)
        if self.config.unsure_backs:
            boxes, conf, probs, up = self._missed_backs(rgb, boxes, conf, named)
            boxes, conf, probs, up = self._missed_in_rows(rgb, boxes, conf, probs, up, named.classifier)
        if self.config.join_halves:  # a sideways tile the finder boxed as two halves (``vision/halves.py``)
            cls = probs.argmax(1)
            boxes, conf, probs, up = with_halves(boxes, conf, probs, up, sideways(cls, up)[0], main_axis(cls, up),
                                                 lambda unions: self._named(rgb, unions, named.classifier)[:2])
        if self.config.round_backs and len(boxes):  # a coin or a chip named back is no tile (``vision/discs.py``)
            backs = np.flatnonzero(probs.argmax(1) == NAMES.index("back"))
            tile = np.ones(len(boxes), bool)
            tile[backs[round_boxes(rgb, boxes[backs])]] = False
            boxes, conf, probs, up = boxes[tile], conf[tile], probs[tile], up[tile]
        side, side_p = sideways(probs.argmax(1), up)
        stands = stands_of(boxes, faced, named.faces)
        out = []
        for b, c, p, s, sp, st in zip(boxes / scale, conf, probs, side, side_p, stands, strict=True):
            x0, y0, x1, y1 = (round(float(v), 1) for v in b)
            order = [int(k) for k in np.argsort(-p)[:RANKED] if k == p.argmax() or p[k] >= RANKED_MIN]
            ranked = tuple((NAMES[k], round(float(p[k]), 4)) for k in order)
            out.append(Detection(NAMES[order[0]], round(float(c * p[order[0]]), 4), (x0, y0, x1, y1), bool(s),
                                 ranked, round(float(sp), 4), None if np.isnan(st) else round(float(st), 4)))
        out.sort(key=lambda d: (d.box[0], d.box[1]))
        return out
