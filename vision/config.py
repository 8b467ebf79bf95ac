"""The tile detector's settings (``vision/detector.py``), each beside what it was chosen on: the finder's looks,
the classifier's turns, the readers and captions, look-alike agreement, backs and white dragons, a learnt set.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DetectorConfig:
    conf: float = 0.3  # finder confidence threshold
    iou: float = 0.5  # NMS IoU (class-agnostic)
    imgsz: int = 416  # finder input size (long side), as trained: the set finder's first look, close-ups' far looks
    # the hand finder's first look at the whole photo, at this size (held-out hands read right 0.970 at 416, when the
    # region look followed every time, 0.973 at 512, the region looked at again only when it gains ``zoom_gain``)
    first_imgsz: int = 512
    zoom_imgsz: int = 512  # second look at the region holding the tiles, at this size (0: one pass only)
    # ... taken only when its tiles get this many times the pixels they had in the first look: a hand that fills the
    # photo is seen as well by one look at 512 (on the held-out hands 1.1 / 1.2 / 1.3 read alike: 0.974 / 0.973 /
    # 0.974, looking again at 27 / 23 / 22 of 60; the set finder's first look, at 416, gains 1.23 at least)
    zoom_gain: float = 1.2
    zoom_margin: float = 1.5  # that region's margin around the tiles found first, in tile sizes
    # a photo of many small tiles (a whole table: walls, discards, hands) is looked at whole at this size when the
    # first look was unsure of it, and that look is taken when it finds more small tiles, more surely
    # (``finder.finer_asked``, ``finer_taken``; 0: never)
    fine_imgsz: int = 1024
    # a close-up (the first look finds fewer tiles than a hand has, or big ones) is looked at again shrunk this many
    # times into a plain canvas (0 or 1: not; ``find``): its tiles are bigger than any the finder learnt (held-out
    # real photos of a tile filling the photo, named right: not 0.009; 4 / 5 / 6 times 0.698 / 0.915 / 0.910)
    zoom_out: float = 5.0
    # a photo in which the finder's two looks find this many tiles or more (more than a hand, its flowers and a few
    # loose tiles: a synthetic hand photo shows at most 31, and the looks found at most 30 on 260 of them) is a set
    # laid out, and the set finder looks at it again (0: never). On the first look alone the hand finder found 12 to
    # 25 of the 144 tiles of some held-out sets
    set_tiles: int = 32
    # ... and where they lie apart (a whole table: walls, discards, hands; ``finding.TABLE_FILL``), the region holding
    # them is looked at again in this many slices a side, each at ``zoom_imgsz`` (0 or 1: never), by the hand finder,
    # and those boxes are taken where small (``Finding.find``): on 80 generated tables of 120 to 250 tiles (12 MP,
    # ``bench.eval_cases`` many_tiles, two draws) hands read exactly 53 -> 63 (1: 53; ``docs/photo.md``)
    table_slices: int = 2
    # a photo of fewer tiles whose tiles lie tilted this many degrees or more off its axes (a row near 45 degrees: each
    # tile's box holds parts of its neighbours, and the finder, which learnt rows near the axes, boxes two at once or
    # none) is looked at again turned straight (``crops.photo_tilt``), and that look's boxes, turned back, are taken
    # when the finder is surer of them on average (0: never). See ``find``. On 60 generated hands (3-12 MP) of each of
    # kd_jade, kd_traditional and gn_postmodern, 4 lying 33 to 42 degrees off, tiles read right 1064 / 1072 / 1052 ->
    # 1092 / 1086 / 1062 of 1113; ``bench.eval_layout --detector`` 408 -> 433 of 500 exact. At 20 degrees the
    # held-out hands read a tile fewer (one lying 21.5 degrees off) and the layout 434; at 30, 427 (both measured
    # before the canvas was felt)
    turn_at: float = 25.0
    # a tile the first look found with this much or more, which the boxes of the region's look or of the look turned
    # straight (the look taken) do not cover (``finder.lost``: at most ``LOST_COVER`` of it), is kept beside them (above
    # 1: never): a tile lying alone away from the hand, a plain back, which the closer look at the hand no longer
    # boxes (bench.learn's dr_58, 60 hands: 3 such backs found at 0.56 to 0.69 by the first look and lost)
    first_kept: float = 0.5
    work_side: int = 1600  # the photo is decoded to at most this long side (JPEG DCT scaling); crops come from it
    # a photo whose brightest grey (its luma's 99.9th percentile) is below this (0: never) is brightened to 250 before
    # it is read (``clearer.brightened``): held-out hands in a third of the light measure 75 to 94, the benchmarks'
    # sound photos 182 and more (``layout_eval``, ``eval_cases``, camerash's raw and single-tile photos;
    # ``docs/photo.md``)
    dark_below: float = 128.0
    # the most tiles a look keeps (ultralytics' default): a whole set laid out is 144 tiles (at 120 the surest 120
    # were kept and the rest of the set's photo lost)
    max_det: int = 300
    # name each crop from this many quarter turns of it (1 to 4), averaged: 1 as it lies, 2 also turned a quarter; two
    # keep most of four's gain at half the naming time (`models/README.md`)
    turns: int = 2
    # ... the further turns only for the crops named, as they lie, with less than this (above 1: every crop); on the
    # true boxes of the held-out style and of the training styles 0.9 named them as all turns did, turning a fifth
    # of the training styles' crops again and seven tenths of the held-out style's
    turn_sure: float = 0.9
    # ... the first of them its upright view when the up head names that direction with at least this probability
    # (above 1: a quarter turn always), which is then also its look: a view saved (on the evaluation's 12 MP photo 50
    # -> 45 crops). Held-out true boxes 26 -> 25 / 26 / 27 mistakes at 0.8 / 0.9 / 0.5, the training styles' 119 ->
    # 119 / 118 / 120, held-out real photos alike (a second view always upright, ninth session: real photos in a
    # scene 0.420 -> 0.406, the up head trusted where it was unsure)
    upright_sure: float = 0.8
    # a photo of ``detector.FEW`` (10) to ``set_tiles`` tiles (a hand's) named with less than this on average (their
    # likeliest names' probabilities; 0: never) may be seen from a player's seat: it is turned upright (``turn_split``),
    # stretched up-down by each of ``stretches``, each box cut to its face (``vision/rectify.py``); the look whose crops
    # the classifier alone names most surely is named in full, and where that reading is surer on average than the
    # first, each tile's names are the two readings' mean. 200 seated photos (``docs/photo.md``): tiles named right on
    # their true boxes 3363 -> 3543 of 3596, hands read exactly through the detector 129 -> 157; 2,160 other photos
    # (from above, standing, in perspective) 2 hands gained, none lost. Measured with each look named in full and one
    # turn: at 0.9 seated 154, the others a hand more, and the 12 MP speed photo (0.87) looked at again in vain; looked
    # at always, 1 seated hand more. With a stretch of 1 among them (turned and cut only): seated 158, the others 6
    # hands gained and 10 lost. Now, each look named in full, not picked by the classifier alone: 1 seated hand more,
    # the fresh seated photos' p90 384 -> 540 ms. Real photos of one tile were read worse (held-out, in a scene: 0.967
    # -> 0.958) until photos of fewer than ``FEW`` tiles were left alone
    rectify_below: float = 0.85
    stretches: tuple[float, ...] = (1.3, 1.6)
    # ... turned each way its faces' up directions may point: the commonest, and the next where it is a quarter from it
    # and holds this many times its faces or more (``upright.upright_turns``; seen steeply, an upright face shortened as
    # much as it is wide looks like one lying across: seed 9696's 000011, at 53 degrees, 7 and 8). Seated hands 155 ->
    # 158 of 200 (each look named in full), the 2,160 others alike
    turn_split: float = 0.6
    # a photo of a hand (``detector.FEW`` tiles or more, fewer than ``set_tiles``, their median long side
    # ``faces_side`` pixels or more) named unsurely (their likeliest names' mean probability below ``faces_below``; 0:
    # never) of whose tiles ``faces_standing`` or more stand on their edges, as the face network finds them
    # (``vision/faces.py``), is named again from its faces cut flat, and that reading is taken where the classifier
    # names it surer by ``faces_gain``. A tile's parts seen close, boxed one by one, hold no face (camerash's
    # close-ups of one tile: 11 to 31 boxes about 9 px long, ``finder.parts_asked``). The share found standing
    # (``docs/photo.md``): ``eval_cases``' rows standing 0.3 or more in 66 of 79 photos (0.15 or more in 70); of the
    # photos of tiles lying, ``eval_cases``' seated ones 0.125 at most, ``layout_eval``'s 3 of 150 0.3 or more (0.47
    # at most), ``eval_vision``'s held-out hands 1 of 60 (0.38), shaken by 0.6% one 0.29 (at 0.15 it was cut flat and
    # lost a tile), camerash's raw photos of a hand's size 0.14 at most
    faces_below: float = 0.9
    faces_standing: float = 0.3
    faces_side: float = 16.0
    faces_gain: float = 0.02
    # the faces the face network finds, wherever it is asked, whose short side is under ``refine_thinner`` of their
    # long one (a face seen at a grazing angle, a thin strip of its box; seen square on, 0.75), found again this many
    # times by the face refiner (0: never; ``vision/faces.py``): cut flat with a margin into a square, each is found
    # at its own scale. Every face refined read 6 more hands of the fresh photos but lost two of ``layout_eval``'s,
    # whose boxes straddle two tiles (``docs/photo.md``)
    faces_refined: int = 1
    refine_thinner: float = 0.6
    # ... and a photo so named (unsurely, a hand's) of whose tiles this share or more stand (0: never) is looked at
    # again by the row finder (``shipped.ROW_FINDER_WEIGHTS``: the finder fine-tuned on rows standing too), and its
    # boxes are named and taken in place of the tile finder's. ``eval_cases``' rows standing: 65 of 80 photos so looked
    # at; at 0.3, ``layout_eval``'s 000219 (0.39 found standing, from above) was too, and read 678p for its 789p
    # (``docs/photo.md``)
    rows_standing: float = 0.4
    # ... and a hand photo (FEW to ``rows_most`` boxes) whose boxes the tile finder is unsure of (their median
    # confidence under ``rows_unsure``) is looked at by the row finder too, and its boxes taken where they are a hand's
    # (fewer than ``set_tiles``) and ``rows_parts`` or more of them hold one of the tile finder's boxes as a part
    # (``finder.parts_held``): the tile finder boxed the characters, circles or sticks of tiles standing, whose faces
    # are then not seen standing (fresh rows shot low: 28 of 100 photos, 18 the face network left, their hand tiles
    # found 0.723 -> 0.815; of ``layout_eval``'s 500, 28 asked and none taken, nor any of ``eval_cases``' seated,
    # sixteen, win_agreement or tables; ``docs/photo.md``)
    rows_unsure: float = 0.72
    rows_most: int = 80
    rows_parts: float = 0.2
    # ... or where the row finder is the surer of the two (``finder.surer``: its boxes' median confidence the higher,
    # or more of them boxed 0.4 or more), it boxes a hand (FEW or more, fewer than ``set_tiles``: none where that is 0)
    # and the face network finds this share of the tiles or more standing (0: never): rows standing on a busy cloth,
    # of which the tile finder boxed the cloth's squares, or half the tiles (fresh rows from in front, shot low and
    # seated, 500 photos: 23 so read, 87 tiles more read right and 2 fewer, 3 hands more; ``layout_eval``'s 500 hands
    # as many; ``docs/photo.md``)
    rows_surer: float = 0.05
    # ... but a photo of whose tiles the face network, looking, finds fewer than ``rows_surer`` standing, boxed by the
    # tile finder at a median confidence of ``rows_lying_doubt`` or more (1: always asked), is not looked at by the
    # row finder for either rule: tiles lying, doubted a little. Of 33 such photos asked (the fresh ones,
    # ``eval_cases``', ``layout_eval``'s), the row finder's boxes were taken in two, boxed at 0.56 and 0.565
    # (``eval_cases``' perspective 000009, boxed as parts; fv_low 000049); 29 of the others were boxed at 0.6 to 0.72.
    # Boxed parts too small for the face network to look at (``faces_side``), and tiles named surely
    # (``faces_below``), are still asked (``docs/photo.md``)
    rows_lying_doubt: float = 0.6
    # ... and a photo in which the tile finder found half a hand's tiles or more but fewer than a hand's (FEW // 2 to
    # FEW - 1 boxes), of which the face network finds ``rows_standing`` or more standing, is looked at by the row finder
    # too (where ``rows_few``), and its boxes taken where they are a hand's (FEW or more, fewer than ``set_tiles``): a
    # row standing of which the tile finder found 6 to 9 tiles (fresh photos, 500: 5 so read, 31 tiles more read right,
    # none fewer); camerash's raw close-up of 8 tiles lying, 0.12 standing, is not asked (``docs/photo.md``)
    rows_few: bool = True
    # ... and a photo boxed, by either finder, in more pieces than a hand photo shows and fewer than ``rows_most``
    # (``set_tiles`` or more), their median confidence under ``rows_unsure``, is looked at by the tile finder shrunk
    # this many times into a plain canvas (0 or 1: not), and that look is taken where it boxes a hand's tiles (FEW to
    # ``set_tiles``) as surely on average, ``shrunk_parts`` or more of them holding a box found before as a part
    # (``finder.parts_held``): tiles standing near a low camera, bigger than any the finders learnt, boxed by their
    # circles and sticks (51 to 78 boxes of 14 or 15 tiles, none of them named right). On the 1360 guard photos
    # three were so read, 23 tiles more named right, none read otherwise (``docs/photo.md``); asked of every photo
    # of FEW boxes or more so doubted it lost 219 tiles (taken on 50 photos, 40 of them read worse)
    shrunk: float = 1.5
    shrunk_parts: float = 0.2
    # a hand photo's tile the finder missed in a row (``vision/gaps.py``): a box it was unsure of (``unsure_backs`` to
    # ``conf``) filling a one-tile gap in a row that goes on beyond both its neighbours is a tile where it is named a
    # face with this much or more (1: never). On the 1360 guard photos it read one tile and one hand more
    # (``layout_eval`` 000052's 8s, boxed at 0.22), nothing else otherwise; a gap is found in some 14% of hand photos,
    # each then looked at again (``layout_eval``'s first 100: 1.026 times the time; ``docs/photo.md``)
    gap_sure: float = 0.8
    # ... and a photo looked at as from above (``rectify_below``) is also looked at with its faces cut flat, each by
    # its own corners (not only tiles standing): that look is weighed with the photo turned and stretched, the surest
    # named in full. eval_cases' seated hands 15 + 16 -> 16 + 15 of 40 (the one lost: a loose flower, named surer, read
    # into the hand), standing from in front 6 + 5 -> 6 + 6, ``layout_eval`` 460 -> 462 of 500, none lost;
    # ``eval_degraded`` 27 tiles gained, 4 lost (``docs/photo.md``)
    faces_look: bool = True
    # ... and a tile that look (its face cut flat) names with this much or more, surer than its crop as cut, takes
    # that name where the photo's names give it another (1: never): a tile lying, seen at a grazing angle, its face
    # a thin strip of its box. The five fresh sets 10 tiles gained, none lost, every hand alike; ``layout_eval``,
    # ``eval_cases``, ``eval_vision``, ``eval_tile_sets`` and camerash's raw photos alike but for one tile gained. At
    # 0.9: 17 tiles gained, but ``layout_eval`` 000411's 9s read 6s and its hand lost (``docs/photo.md``)
    flat_sure: float = 0.95
    # ... but a photo of tiles standing (``faces_standing`` of them or more, as the face network finds them) is not
    # looked at turned and stretched, only with its faces cut flat: that look undoes the shortening of faces lying,
    # seen from a seat. On the 1360 guard photos every hand read alike; the rows shot low of ``eval_cases``' held-out
    # style 0.735 -> 0.757 of their hand tiles read right, the fresh ones from in front 0.855 -> 0.858; the fresh low
    # photos 1.09 times faster (``docs/photo.md``)
    standing_not_stretched: bool = True
    # a photo whose crops' median sharpness (``vision/clearer.py``) is below this (0: never) is soft: its crops are
    # named sharpened too, by each (amount, sigma in crop pixels) of ``sharpen``; one whose crops' median range of grey
    # is below ``dim_below`` (0: never) is dim: its crops are named levelled too; those the classifier alone names
    # most surely on average are named in full where it names them surer by ``clearer_gain`` than the crops as cut
    # (``clearer.clearest``; ``docs/photo.md``)
    sharpen_below: float = 0.15
    sharpen: tuple[tuple[float, float], ...] = ((1.0, 1.5), (2.0, 2.0))
    dim_below: float = 0.4
    clearer_gain: float = 0.025
    # a photo whose crops' median sharpness is below this (0: never) is named by the soft classifier
    # (``detector.SOFT_CLASSIFIER_WEIGHTS``), sharpened or not as above: held-out hands in daylight 0.065 and more,
    # blurred by 0.25% of the long side 0.001 to 0.021, by 0.1% 0.005 to 0.24; at 0.008 blurred 0.1% lost a tile
    # (``docs/photo.md``); when its tiles' median long side is ``soft_side`` pixels or more (of the photo decoded at
    # ``work_side``; blurred by 0.25%: 73 to 239): a smaller tile's crop is soft from its enlarging, as the shipped
    # classifier learnt them
    soft_below: float = 0.006
    soft_side: float = 64.0
    # a photo whose crops' median streak (``clearer.streak``: sharp across a shake, soft along it) is below this (0:
    # never), its tiles' median long side ``soft_side`` pixels or more, and not too soft (above), is named by the
    # shaken classifier (``detector.SHAKEN_CLASSIFIER_WEIGHTS``): held-out hands as drawn 0.106 and more, shaken by
    # 0.3% of the long side 0.039 and more, by 0.6% 0.014 to 0.20; the softest sound photos are seen from a seat
    # (``eval_cases`` 0.052 and 0.062, ``layout_eval`` 0.066), which the shaken classifier reads no worse (seated
    # hands 29 -> 31 of 40; at 0.04 none asked, shaken 0.6% 0.8574 against 0.8910; ``docs/photo.md``)
    shaken_below: float = 0.08
    # a reader reads the tiles to which the classifier gives at least this probability of the reader's family (above
    # 1: none); for the flower reader 0.05, 0.1, 0.2 and 0.3 named the training styles' true boxes alike (0.9852 to
    # 0.9853), 0.2 reads the fewest
    reader_gate: float = 0.2
    # ... and that it names with less than this (a tile named surely is not read again: on the true boxes of the
    # held-out style and of the training styles 0.7, 0.8 and 1.01 named them alike, 0.8 reading a tenth of the tiles
    # of the training styles that 1.01 reads; fifteenth session, with the mark reader: 0.8 / 0.7 / 0.6 read 25 / 25 /
    # 26 held-out tiles wrong, 119 / 118 / 118 of the training styles', the 12 MP photo's readers 18 / 11 / 8 crops)
    reader_sure: float = 0.7
    reader_weight: float = 0.5  # a reader's share when its names and the classifier's are averaged
    # the share of the flower its caption names when a tile left unsure may be a flower (``caption_unsure``,
    # ``reader_sure``) and its caption is read (``vision/captions.py``; on the held-out style's true boxes 25 -> 15
    # mistakes, 12 of its 13 flowers read wrong now right; the training styles' 118 -> 117; a gate of 0.3 / 0.5: 13 /
    # 17 with the next rule; reading the two likeliest flowers first, the others only when one shows a caption: 14)
    caption_weight: float = 0.8
    # ... and when a tile of the photo has its caption read, the set captions its flowers: the flowers' probabilities of
    # a tile asked whose caption is not read are taken this many times (the held-out style's 1s, a bird printing "1",
    # read 5f: true boxes 15 -> 12 mistakes at 0.5, 13 at 0.25; training styles 117 alike; ``caption_weight`` 0.6 and
    # 0.95 read as 0.8)
    uncaptioned: float = 0.5
    # ... read at both ends (the up head is wrong by half a turn as often as right on unseen captioned flowers, even
    # where it gives 0.98), or at one where the flower reader tells which way up the tile is with at least this (it
    # told 52 of 53 right where it gave 0.8 or more; true boxes: 0.8 / 0.9 / 0.95 13 / 11 / 11 held-out mistakes, 11
    # at both ends; ``layout_eval`` 117 at each; the 12 MP photo's bands 6 -> 3 / 4 at 0.9 / 0.95). 0.9 until
    # 2026-11-25: at 0.95 the held-out hands read 0.9946 -> 0.9955 (a captioned flower, AUT, read at the one end the
    # reader gave 0.905 and not at the other, where its caption is), every other figure of ``bench.eval_vision``,
    # ``eval_layout --detector`` and ``eval_tile_sets`` alike, the 12 MP photo's time too (0.999 of 0.9's)
    caption_sure: float = 0.95
    # the caption reader reads the tiles named unsurely (``reader_sure``) to which the names give at least this of the
    # flowers: under the other readers' gate. A PLUM named 6s (0.39) or 4s (0.30), 5f 0.11, lying loose in a photo
    # with no other flower: bench.learn's seed 1 folder 0.9927 -> 0.9936; seeds 0, 2 and 3, bench.eval_vision,
    # eval_tile_sets and the 12 MP photo's time (0.997 times) alike; camerash's raw photos, the detector alone, p50
    # 204 -> 228 ms, p90 361 -> 370 ms (0.2 against 0.1 taking turns)
    caption_unsure: float = 0.1
    # ... and when a tile's English caption is read (the set captions its flowers), the other tiles not named a flower
    # whose flowers the names give at least this are read for their captions too (1: none): a FALL named 9s (0.43,
    # flowers 0.15) beside a Spring and a Summer read by their captions. bench.learn's dr_58 with the learnt folders
    # of seeds 0 / 1 / 2 / 3: 0.9901 / 0.9918 / 0.9909 / 0.9835 -> 0.9919 / 0.9927 / 0.9927 / 0.9853 with the next
    # rule too (seed 3 0.9844 with this one alone); the held-out sets 0.971 -> 0.9754 (this rule's). At 0.02 the
    # 12 MP photo took 1.93 times as long (its captioned set: ten tiles more read at both ends), at 0.05 1.11 times,
    # at 0.1 alike (0.96); at 0.02 seed 3's folder read dr_42 0.9161, at 0.1 0.9088
    caption_gate: float = 0.1
    # ... and a tile whose caption names no flower, where the up head gives its likeliest turn less than this and its
    # second is a quarter turn from it, is read at both ends of the second turn too (0: never): a FALL lying sideways
    # that the up head took for upright at 0.60, a quarter turn on at 0.27 (seed 3's folder 0.9844 -> 0.9853; every
    # other figure alike, the 12 MP photo too: 1.003 times)
    caption_across: float = 0.8
    # ... and when a tile's flower character is read (梅, 春 ...: the set prints its flowers' characters), the other
    # tiles whose flowers the names give at least this are read for their characters too, named surely or not (1:
    # none). The held-out picture flowers read right through the detector (``bench.eval_tile_sets``, characters
    # read from 0.5): 1 / 0.2 / 0.05 / 0.01: 0.7927 / 0.8031 / 0.8238 / 0.8238 (the networks alone 0.5285)
    character_gate: float = 0.05
    mark_weight: float = 1.0  # the power the mark reader's reading is taken to (``mix_marks``)
    # ... and the suits' tiles named surely (``reader_sure`` or more) are read by it too, and those it reads with a
    # numeral not their name's weighed by it, where the set prints indices: ``marks_least`` or more such tiles, and
    # ``marks_agree`` of them (above 1: never asked) read with their own name's numeral (``readers.marks_printed``),
    # as the first ``marks_sample`` read it (the others are read only then; the sample's first two are read in the
    # unsure tiles' run, and where both say no, the rest of it is not, ``readers.marks_first``: a set without indices
    # costs two crops more). A held-out set printing six as 陸 beside an index 6 had its 6m named 5m at 0.86 to 0.99,
    # unread; asked of every tile named surely, in every set, the reader read 6s as 8 and 3f as 1 in a jade set
    # without indices (``docs/photo.md``)
    marks_agree: float = 0.8
    marks_least: int = 4
    marks_sample: int = 8
    seat_weight: float = 1.0  # ... and the seat reader's (``mix_seats``)
    # each tile is cut turned straight by its tilt (``vision/crops.py``): on the true boxes of the held-out style 11 ->
    # 6 mistakes of 1101 (its white dragons read 8s 6 -> 1, 8m read 9m 3 -> 0), of the training styles 116 -> 66 of 8979
    straighten: bool = True
    # tiles of a photo whose looks (the classifier's features, crops turned upright) have a cosine above this vote
    # for each other's names (``vision/agreement.py``; above 1: none), each vote counted ``alike_weight`` times
    # (cosine - alike) / (1 - alike); chosen on the training styles' true boxes (0.83 / 0.85 / 0.87 / 0.9 with weight
    # 1: 108 / 106 / 108 / 110 mistakes of 8979, none 117; at 0.85 weight 0.5 / 1.5: 107 / 109)
    alike: float = 0.85
    alike_weight: float = 1.0
    # ... but a tile read as a flower casts no vote: a set holds one of each, no copy (``agree``'s ``once``)
    flowers_once: bool = True
    # a tile named back whose top is the colour of the photo's faces is a blank white dragon where the photo shows its
    # set's backs coloured or the tile lies beside a white dragon, and a tile named 5z whose top is coloured is a back
    # (``vision/backs.py``)
    backs_by_colour: bool = True
    # a tile read 5z that ends a row of four alone, white, X, X and a back or 5z, is a concealed kong's back
    # (``vision/backs.py``): in a set whose backs are white, the fine-tuned classifiers of ``mjscore train`` read them
    # as its blank white dragon (bench/learn.py's dr_58, 60 hands: 10 of 13 backs read 5z were such ends)
    kong_backs: bool = True
    # ... and a tile the colour so renamed in the photo's own look keeps that name where its names are averaged with a
    # second look at the photo (``rectify_below``) and the average names it the other of the two: the second look
    # judged other crops, and the average undid the verdict (fr_seat 000004: a white dragon named back 0.49 and 5z
    # 0.46, made a 5z by its white top beside the set's pale pink backs, named back 0.91 seen as from above, read back)
    backs_after_average: bool = True
    # a box named back holding a round thing (a coin, a chip, a counter: ``vision/discs.py``) is no tile. On the 1360
    # guard photos (``docs/photo.md``) 78 of the 571 boxes named back where no tile is, and none of the 12,108 backs
    # that are tiles; asked of every name, it took 5 faces (a 1p's circle, a round flower)
    round_backs: bool = True
    # a box the finder gives this much or more, but less than ``conf``, is a back it missed where the photo shows its
    # set's backs and the box is one more of them (``missed_backs`` in ``vision/backs.py``; 0: never). Face-down kongs
    # on a red-and-green check (``bench.learn``'s dr_58, purple backs) are boxed at 0.11 to 0.28 and named back at
    # 0.99; the finder looks again only where the photo shows two backs or more (one: ``one_back``) and it doubted
    # them (``backs.DOUBTED_BACKS``)
    unsure_backs: float = 0.1
    # ... and, where the photo shows no such backs, the finder looks again for both ends of a concealed kong whose two
    # backs it missed, shown as a lone pair (``lone_pairs`` and ``kong_ends`` in ``vision/backs.py``)
    lone_pairs: bool = True
    # ... taken where the finder, looking again, boxes something at this many of its two ends (1 or 2): on a busy
    # cloth it may box one (fr_seat 000048: back, 7s, 7s, back on a purple and green check, the ends named back 0.98,
    # one boxed); where it boxes neither, the table named back is not taken (``docs/photo.md``)
    kong_ends_seen: int = 1
    # ... and where a lone pair's ends are taken, the photo shows its set's backs: the other backs of their colour the
    # finder missed are looked for as where it shows them (``unsure_backs``, ``back_regions``; fr_seat 000048: four
    # backs of a concealed kong shown face down above the 7s kong, boxed by the finder at 0.1 once)
    backs_after_kong_ends: bool = True
    # ... and the set's backs are looked for where the photo shows one back only, named surely and doubted by the
    # finder, of no colour of the faces (a concealed kong of four purple backs, one found at 0.31, three boxed at 0.26
    # to 0.30: ``bench.eval_layout --detector``'s photo 486). That photo reads right now, every other of the 500 alike;
    # the 120-tile tables one tile more right, the 240-tile ones alike; bench.learn's folders alike. So too where the
    # backs shown are of several colours: the one beside the most tiles is the set's (a thing on the table read as a
    # back, beside a kong's back: bench.eval_layout's photo 207)
    one_back: bool = True
    # ... and, where it looks for them, for the flat patches of their colour as big as a back's top: a back the finder
    # missed, or boxed together with the next back of its kong (``vision/regions.py``)
    back_regions: bool = True
    # ... and, in a photo of a learnt set (``vision/learnt.py``) that shows fewer than two backs, for backs of the
    # colour the set's labelled backs showed (``LearntSet.back``): a concealed kong, four backs on a busy cloth, boxed
    # at 0.1 to 0.3 with no back found to say which colour to look for (bench.learn's dr_58, seed 3)
    learnt_backs: bool = True
    # a tile lying sideways that the finder boxed as two overlapping halves is taken whole where the union of the two
    # is named a face surely, lying sideways (``vision/halves.py``): ``bench.eval_layout --detector`` 453 -> 458 of 500
    # (fluffystuff's sideways tiles, most of them), every hand read right before read right
    join_halves: bool = True
    # with a learnt set (``vision/learnt.py``), a photo is named by the fine-tuned classifier when this share of its
    # tiles at least look more like a learnt tile than like any tile of the other sets it keeps (the replay's), else
    # by the shipped one. bench.learn's dr_58 folders (2026-11-28, 300 replay photos' looks): the set's photos show
    # 0.14 to 0.87 (5% of them under 0.26), the held-out style's 0 to 0.24 (run 25's at 0.211 was taken at 0.2 and
    # read a tile worse), dr_55's (drawn alike) 0 to 0.43, real photos in a scene 0 but for one; at 0.3 the set
    # reads 2 to 5 tiles worse (``docs/annotate.md``)
    learnt_nearer: float = 0.25
    # ... or at least this share where ``learnt_share`` of them have a look within ``learnt_alike`` of a learnt
    # tile's: the held-out style's photos over 0.19 show 0.12 to 0.42 so, the set's photos between 0.2 and 0.25
    # 0.76 to 0.89 but one (0.39, read 2 tiles worse by the shipped classifier); seed 1's folder reads 3 tiles better
    # so than at 0.25 alone
    learnt_nearer_alike: float = 0.2
    # ... or when this share of them at least have a look within ``learnt_alike`` of a learnt tile's: two photos of
    # the set, 1.0 so and 0.14 nearer, are read one tile better each; dr_55's photos show 0.85 at most, the held-out
    # style's 0.57
    learnt_close: float = 0.95
    # ... where it keeps none, when this share of its tiles at least have a look within this cosine of a learnt
    # tile's. On bench.learn's
    # dr_58 (run 8's classifier): 120 of 122 of its photos' namings took the fine-tuned one, 3 of 62 of the held-out
    # style's, 37 of 212 real photos (one tile each) in a scene; the set read 0.9847 as with the fine-tuned one alone,
    # the held-out style and the real photos as shipped (0.9973, 0.9623); 0.85 and 0.7 read alike. Run 10 (trained
    # so): the set 0.8796 -> 0.9820, the held-out style and the real photos no worse; run 12, with the next two
    # settings: 0.9883 (``docs/annotate.md``)
    learnt_alike: float = 0.9
    learnt_share: float = 0.6
    # ... counting only the tiles the finder found with this confidence or more (all, where it found none so): the boxes
    # it doubts in a row lying askew hold parts of two tiles, whose looks are no tile's. Run 11's 60 photos of the set
    # then give 0.60 to 1.0 (all of them 0.54 to 1.0: one, lying at 45 degrees, named by the shipped classifier and
    # read 3 tiles worse), the held-out style's 0 to 0.55 (all: up to 0.60)
    learnt_sure: float = 0.7
    # ... and its tiles' looks do not vote for each other's names (``alike``) unless this is set: the looks are the
    # shipped classifier's features, which the fine-tune keeps, and they take the set's look-alikes for one tile where
    # the fine-tuned classifier tells them apart (dr_58's 6s and 9s, three sticks each: run 11, 3 of its 4 such
    # mistakes made by the votes)
    learnt_agree: bool = False

    def __post_init__(self) -> None:
        if self.turns not in (1, 2, 3, 4):
            msg = f"DetectorConfig.turns must be 1 to 4 quarter turns, got {self.turns!r}"
            raise ValueError(msg)
        if not 0.0 <= self.reader_weight <= 1.0:
            msg = f"DetectorConfig.reader_weight must be 0 to 1, got {self.reader_weight!r}"
            raise ValueError(msg)
        for name in ("alike_weight", "mark_weight", "seat_weight", "turn_split", "clearer_gain", "soft_below",
                     "soft_side", "shaken_below", "dark_below"):
            if getattr(self, name) < 0.0:
                msg = f"DetectorConfig.{name} must be 0 or more, got {getattr(self, name)!r}"
                raise ValueError(msg)
        if not 0.0 <= self.unsure_backs <= self.conf:
            msg = f"DetectorConfig.unsure_backs must be 0 (never) to conf ({self.conf}), got {self.unsure_backs!r}"
            raise ValueError(msg)
        if not all(len(v) == 2 and v[0] > 0.0 and v[1] > 0.0 for v in self.sharpen):
            msg = f"DetectorConfig.sharpen must be (amount, sigma) pairs, each above 0, got {self.sharpen!r}"
            raise ValueError(msg)
        if not 1 <= self.marks_least <= self.marks_sample:
            msg = (f"DetectorConfig.marks_least must be 1 or more and marks_sample at least as many, got "
                   f"{self.marks_least!r} and {self.marks_sample!r}")
            raise ValueError(msg)
        if self.faces_refined < 0:
            msg = f"DetectorConfig.faces_refined must be 0 (never) or more, got {self.faces_refined!r}"
            raise ValueError(msg)
        if self.kong_ends_seen not in (1, 2):
            msg = f"DetectorConfig.kong_ends_seen must be 1 or 2 (of a kong's two ends), got {self.kong_ends_seen!r}"
            raise ValueError(msg)
        if not self.stretches or not all(v > 0.0 for v in self.stretches):
            msg = f"DetectorConfig.stretches must be one or more, each above 0, got {self.stretches!r}"
            raise ValueError(msg)
        for name in ("learnt_nearer", "learnt_nearer_alike", "learnt_close", "learnt_share", "learnt_sure",
                     "character_gate", "caption_unsure", "caption_gate", "caption_across", "shrunk_parts", "gap_sure",
                     "flat_sure", "refine_thinner"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                msg = f"DetectorConfig.{name} must be 0 to 1, got {getattr(self, name)!r}"
                raise ValueError(msg)
