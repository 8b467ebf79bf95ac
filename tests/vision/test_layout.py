"""The layout stage on hand-made boxes (one test per rule) and on generated scenes whose true layout is recorded;
whole tables in ``test_layout_tables.py``, rows shot low and hands standing in ``test_layout_low.py``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from scorer import is_complete_tiles
from tests.vision.support import HAND, HAND_TEXT, H, W, lay, normal, read_layout, shoot
from vision.detection import Detection
from vision.layout import group_melds, meld_kind, tiles_notation


def test_one_row_upright() -> None:
    layout = read_layout(shoot(HAND))
    assert layout.hand == "123m456p789s1122z +3z"
    assert not layout.win_tile_assumed and layout.problem is None
    assert layout.win_tile == "3z"


@pytest.mark.parametrize("angle", [90, 180, 270, 12, -25, 135, 200, 315])
def test_any_orientation(angle: float) -> None:
    layout = read_layout(shoot(HAND, angle=angle, jitter=1.0, seed=angle % 7))
    assert layout.hand == "123m456p789s1122z +3z", layout.to_dict()


@pytest.mark.parametrize("tilt", [15, 30])
def test_tilted_camera_foreshortens_across_rows(tilt: float) -> None:
    tiles = lay("123m456p1z", "1z", gaps=(0.8,)) + lay("55*5z", "777*7m", y=-H - 30)
    layout = read_layout(shoot(tiles, angle=70, tilt=tilt))
    assert layout.hand == "[7777m] [555z] 123m456p1z +1z", layout.to_dict()


def test_perspective_scale_changes_nothing() -> None:
    for scale in (0.25, 1.0, 4.0):
        assert read_layout(shoot(HAND, angle=33, scale=scale)).hand == HAND_TEXT


def test_loose_tiles_and_clutter_are_ignored() -> None:
    rng = np.random.default_rng(1)
    clutter = [(str(rng.choice(["5m", "back", "9p", "1f"])), float(x), float(y), bool(s))
               for x, y, s in [(-200, -150, False), (900, 200, True), (300, 260, False), (-160, 0, True)]]
    dets = shoot(HAND + clutter, angle=20, jitter=1.0)
    # the loose tiles lie askew: turn them 30 degrees
    for i in range(len(HAND), len(dets)):
        x0, y0, x1, y1 = dets[i].box
        dets[i] = Detection(dets[i].label, 0.8, (x0 - 9, y0 - 7, x1 + 9, y1 + 7), dets[i].sideways)
    layout = read_layout(dets)
    assert layout.hand == HAND_TEXT
    assert set(layout.loose) == set(range(len(HAND), len(dets)))


def test_a_loose_tile_in_line_with_the_row_is_left_out() -> None:
    tiles = lay("9p", "123m456p789s1122z", "3z", gaps=(1.2, 0.8))
    assert read_layout(shoot(tiles)).hand == HAND_TEXT


def test_duplicate_boxes_are_merged() -> None:
    dets = shoot(HAND)
    x0, y0, x1, y1 = dets[4].box
    dets.append(Detection("4p", 0.5, (x0 + 2, y0 + 1, x1 + 1, y1 - 2), False))
    layout = read_layout(dets)
    assert layout.hand == HAND_TEXT
    assert layout.merged == (len(dets) - 1,)
    assert any("duplicate" in n for n in layout.notes)


def test_groups_split_by_gaps_relative_to_tile_size() -> None:
    # tiles touching (gap 0.02 of a width) stay one group; 0.3 of a width apart is a new group
    tiles = lay("123m456p789s1z", "1z", "99*9m", gaps=(0.3, 0.3), gap_in=0.8)
    for scale in (0.5, 3.0):
        layout = read_layout(shoot(tiles, scale=scale))
        assert layout.hand == "[999m] 123m456p789s1z +1z"
        assert [len(g) for g in layout.rows[0].groups] == [10, 1, 3]


def test_exposed_melds_chow_pung_kong_by_their_tiles() -> None:
    tiles = lay("5z", "5z", "4*56s", "77*7p", "1111*m", "333*z", gaps=(0.8, 0.5, 0.5, 0.5, 0.5))
    layout = read_layout(shoot(tiles, angle=180))
    assert [m.kind for m in layout.melds] == ["kong", "pung", "chow", "pung"]  # melds in mpsz order
    assert all(m.exposed for m in layout.melds)
    assert layout.hand == "[1111m] [777p] [456s] [333z] 5z +5z"


def test_exposed_meld_without_sideways_tile_after_the_winning_tile() -> None:
    tiles = lay("1234567m", "8m", "999p", "33*3z", gaps=(0.8, 0.5, 0.5))
    assert read_layout(shoot(tiles)).hand == "[999p] [333z] 1234567m +8m"
    assert read_layout(shoot(tiles, angle=180)).hand == "[999p] [333z] 1234567m +8m"


def test_concealed_kong_two_backs() -> None:
    tiles = lay("123m456s7z", "7z", "back55pback", "8*88s", gaps=(0.8, 0.5))
    layout = read_layout(shoot(tiles, angle=90))
    assert layout.hand == "[888s] (5555p) 123m456s7z +7z"
    assert [m.kind for m in layout.melds] == ["pung", "concealed_kong"]  # exposed melds first
    assert not layout.melds[1].exposed


def test_concealed_kong_four_backs_is_unknown() -> None:
    tiles = lay("123m456p789s7z", "7z", "backbackbackback", gaps=(0.8,))
    layout = read_layout(shoot(tiles))
    assert layout.hand is None and layout.problem is None
    assert layout.unknown_kongs == 1
    assert any("four backs" in n for n in layout.notes)
    assert layout.hand_with(kong_tiles=["9p"]) == "(9999p) 123m456p789s7z +7z"
    assert layout.to_dict()["melds"][0]["notation"] == "(????)"


def test_three_backs_are_a_concealed_kong_whose_fourth_back_was_not_found() -> None:
    # a kong of four dark backs on a dark cloth, one missed: the hand holds its three tiles' worth, read as four backs
    tiles = lay("123m456p789s7z", "7z", "backbackback", gaps=(0.8,))
    layout = read_layout(shoot(tiles, angle=30))
    assert layout.hand is None and layout.problem is None and layout.unknown_kongs == 1, layout.to_dict()
    assert layout.hand_with(kong_tiles=["9p"]) == "(9999p) 123m456p789s7z +7z"
    assert "3 backs in a row read as a concealed kong of four backs, one of them not found" in layout.notes
    assert sorted(layout.melds[0].detections) == [11, 12, 13]
    # two backs, or a back with two faces, are no kong: the hand lacks tiles
    for short in ("backback", "back99p"):
        layout = read_layout(shoot(lay("123m456p789s7z", "7z", short, gaps=(0.8,)), angle=30))
        assert layout.problem is not None and not layout.melds, (short, layout.to_dict())


def test_flowers_are_set_aside_wherever_they_lie() -> None:
    beside = lay("123m456p789s1122z", "3z", "1f6f", gaps=(0.8, 1.2))
    assert read_layout(shoot(beside)).hand == "123m456p789s1122z +3z 16f"
    above = HAND + lay("2f5f8f", y=-H - 40, x=100)
    layout = read_layout(shoot(above, angle=250))
    assert layout.hand == "123m456p789s1122z +3z 258f"
    assert [r.role for r in layout.rows].count("flowers") == 1


def test_flowers_past_either_end_where_the_melds_and_the_winning_tile_disagree_on_the_hands_right() -> None:
    """Melds lie on the side of the concealed row nearer the camera (a hand standing, seen from in front), so by the
    melds the photo is turned round; the winning tile, right of the concealed tiles, says it is not. Flowers beside
    either end of the hand's rows are then the hand's (before: those past the right end were loose; standing from in
    front, held-out 000019)."""
    conc = lay("2233z", "3z", gaps=(0.8,), x=60)
    for angle in (0, 20, 180):
        layout = read_layout(shoot(conc + lay("1*23m", "4*56p", "7*89s", "1f2f", y=H + 30, gaps=(0.5, 0.5, 0.8)),
                                   angle=angle))
        assert layout.hand == "[123m] [456p] [789s] 2233z +3z 12f" and layout.loose == (), layout.to_dict()
    # a lone flower in a row of its own, on the side the melds say is away from the player, stays loose
    lone = conc + lay("1*23m", "4*56p", "7*89s", y=H + 30, gaps=(0.5, 0.5)) + lay("6f", y=-2.3 * H, x=200)
    layout = read_layout(shoot(lone))
    assert layout.hand == "[123m] [456p] [789s] 2233z +3z" and layout.loose == (14,), layout.to_dict()


@pytest.mark.parametrize(("short", "kept"), [(1.0, True), (0.85, True), (0.78, True), (0.6, False)])
def test_a_lone_flower_partly_hidden_behind_the_hand_is_the_hands(short: float, kept: bool) -> None:
    """A flower lying alone just above the hand, partly hidden behind its tiles or boxed short: its box is the hand's
    tiles' in width and ``short`` of their height. Down to ``SHORT`` (0.75) its shape does not make it loose (before:
    loose from 0.87 down; fresh seated 000082, 000086 through the detector)."""
    dets = shoot(HAND + lay("4f", y=-H - 4, x=4 * W))
    x0, y0, x1, y1 = dets[-1].box
    dets[-1] = Detection("4f", 0.9, (x0, y1 - short * (y1 - y0), x1, y1), False)
    layout = read_layout(dets)
    assert layout.hand == (f"{HAND_TEXT} 4f" if kept else HAND_TEXT), layout.to_dict()
    assert layout.loose == (() if kept else (len(dets) - 1,))


def test_a_pair_beside_the_melds_is_the_hands_though_its_boxes_are_narrower() -> None:
    """A hand of four melds seen from a seat: the concealed tile and the winning tile beside it, a pair, lie in a row
    of their own past the melds' end, farther from the camera, their boxes 16% narrower than the melds'. Alone in
    their groups, the one judged by its shape was loose, and no hand was read; a tile beside another of its name is
    now not alone (before: loose; fresh seated 000001, whose kong then lost a tile to make the count)."""
    melds = lay("4*56p", "9999p", "7777m", "555z", gaps=(0.5, 0.5, 0.5))
    pair = lay("4p", "4p", x=melds[-1][1] + W, y=-0.9 * H, gaps=(0.2,))
    dets = shoot(melds + pair)
    for k in (-2, -1):  # narrower, about their middles
        x0, y0, x1, y1 = dets[k].box
        dets[k] = Detection("4p", 0.9, (x0 + 0.08 * (x1 - x0), y0, x1 - 0.08 * (x1 - x0), y1), False)
    layout = read_layout(dets)
    want = normal("[456p] [555z] [7777m] [9999p] 4p +4p")
    assert normal(layout.hand) == want and layout.loose == (), layout.to_dict()
    # two tiles of other names so placed are judged by their shape as before: loose
    dets[-1] = Detection("7s", 0.9, dets[-1].box, False)
    assert read_layout(dets).loose == (len(dets) - 2, len(dets) - 1)


def test_a_lone_flower_lying_askew_is_loose() -> None:
    dets = shoot(HAND + [("4f", 1100.0, 300.0, False)])
    x0, y0, x1, y1 = dets[-1].box
    dets[-1] = Detection("4f", 0.9, (x0 - 10, y0 - 6, x1 + 10, y1 + 6), False)
    layout = read_layout(dets)
    assert layout.hand == HAND_TEXT and layout.loose == (len(dets) - 1,)


def test_winning_tile_set_apart_at_either_end() -> None:
    # the photo turned round: the winning tile shows left of the concealed row
    assert read_layout(shoot(HAND, angle=180)).win_tile == "3z"
    two_rows = lay("123m456p789s1z", "1z", gaps=(0.8,)) + lay("55*5z", y=-H - 40)
    assert read_layout(shoot(two_rows, angle=180)).hand == "[555z] 123m456p789s1z +1z"


def test_no_tile_set_apart_gives_candidates() -> None:
    tiles = lay("123m456p789s11223z")
    layout = read_layout(shoot(tiles))
    assert layout.win_tile_assumed
    assert set(layout.win_candidates) == {"1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "2z", "3z"}
    assert layout.hand is not None and layout.hand.count("+") == 1
    assert layout.hand_with(win="5p") == "123m46p789s11223z +5p"
    assert layout.to_dict()["win_tile_assumed"] is True


def test_no_tile_set_apart_the_melds_beyond_the_concealed_tiles_need_no_sideways_tile() -> None:
    # the concealed tiles touch (the winning one among them), then the melds, one shown without a sideways tile,
    # before the one that shows one or after it
    for groups in (("123m456p11z", "777p", "2*34s"), ("123m456p11z", "2*34s", "777p")):
        layout = read_layout(shoot(lay(*groups, gaps=(0.8, 0.5))))
        assert layout.win_tile_assumed and layout.problem is None
        assert sorted(m.tiles for m in layout.melds) == [("2s", "3s", "4s"), ("7p", "7p", "7p")], layout.to_dict()
        assert layout.hand == "[777p] [234s] 123m456p1z +1z"
    # the melds left of the concealed tiles, or the photo turned round: read from the other end
    for groups in (("2*34s", "777p", "123m456p11z"), ("777p", "2*34s", "123m456p11z")):
        for angle in (0, 180):
            layout = read_layout(shoot(lay(*groups, gaps=(0.5, 0.8)), angle=angle))
            assert sorted(m.tiles for m in layout.melds) == [("2s", "3s", "4s"), ("7p", "7p", "7p")], layout.to_dict()
    # the same tiles, the pung not set apart from the concealed ones: it is theirs
    layout = read_layout(shoot(lay("123m456p11z777p", "2*34s", gaps=(0.8,))))
    assert [m.tiles for m in layout.melds] == [("2s", "3s", "4s")] and len(layout.concealed) == 10


def test_no_tile_set_apart_a_tile_far_beyond_the_row_is_loose() -> None:
    # 14 tiles touching; a tile in line with them farther off than a winning tile is set apart is a loose tile
    # (nearer, it is one set apart, and the hand holds one too many: ``test_extra_tile_says_too_many``)
    layout = read_layout(shoot(lay("123m456p789s11222z", "5p", gaps=(2.0,))))
    assert layout.problem is None and layout.win_tile_assumed, layout.to_dict()
    assert layout.hand_with(win="2z") == "123m456p789s1122z +2z"
    assert list(layout.loose) == [14]
    # past the hand's flowers, the tile's distance is measured from the hand's tiles, not the flowers
    layout = read_layout(shoot(lay("123m456p789s11222z", "12f", "5p", gaps=(0.8, 0.8))))
    assert layout.problem is None and layout.flowers == ("1f", "2f") and list(layout.loose) == [16], layout.to_dict()
    assert layout.hand_with(win="2z") == "123m456p789s1122z +2z 12f"


def test_two_rows_melds_above() -> None:
    tiles = lay("2m", "2m", gaps=(0.7,)) + lay("1*23s", "6*66z", "999*p", "44*44m", y=-H - 35, x=-20)
    layout = read_layout(shoot(tiles, angle=-80, jitter=1.0))
    assert layout.hand == "[4444m] [999p] [123s] [666z] 2m +2m"
    assert sorted(r.role for r in layout.rows) == ["concealed", "melds"]


def test_seventeen_tile_hand() -> None:
    tiles = lay("123m456p123789s4z", "4z", gaps=(0.8,)) + lay("7*77z", y=-H - 40)
    layout = read_layout(shoot(tiles, angle=45))
    assert layout.hand == "[777z] 123m456p123789s4z +4z", layout.to_dict()


def _set_askew(det: Detection, degrees: float) -> Detection:
    """``det`` with the box of an upright tile turned ``degrees`` about its centre (photo axes)."""
    import math
    from dataclasses import replace

    cx, cy = (det.box[0] + det.box[2]) / 2, (det.box[1] + det.box[3]) / 2
    c, s = abs(math.cos(math.radians(degrees))), abs(math.sin(math.radians(degrees)))
    w, h = W * c + H * s, W * s + H * c
    return replace(det, box=(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2))


def test_a_winning_tile_set_down_askew_is_the_winning_tile() -> None:
    # the winning tile set apart, turned 10 to 20 degrees from the row (set down casually): the winning tile, whichever
    # way the photo is turned; before a meld too
    for hand, text, win in ((HAND, HAND_TEXT, 13), (lay("123m456p789s1z", "1z", "7*77z", gaps=(0.8, 0.8)),
                                                    "[777z] 123m456p789s1z +1z", 10)):
        for angle in (0.0, 12.0, 90.0):
            for askew in (10.0, -15.0, 20.0):
                dets = shoot(hand, angle=angle)
                dets[win] = _set_askew(dets[win], angle + askew)
                layout = read_layout(dets)
                assert layout.hand == text and layout.win_detection == win, (angle, askew, layout.to_dict())
    # turned 35 degrees it is a loose tile, and the hand lacks one
    dets = shoot(HAND)
    dets[13] = _set_askew(dets[13], 35.0)
    assert read_layout(dets).loose == (13,)


def test_a_lone_back_touching_the_hands_end_is_left_out() -> None:
    # a box read as a back (the cloth, a shadow) touching either end of the hand: a concealed kong shows two backs or
    # four, so it is no part of the faces
    for tiles in (lay("back123m456p789s1122z", "3z", gaps=(0.8,)), lay("123m456p789s1122z", "3zback", gaps=(0.8,))):
        layout = read_layout(shoot(tiles, angle=20))
        assert layout.hand == HAND_TEXT and "1 tile(s) in line with the hand left out as loose" in layout.notes, \
            layout.to_dict()
        assert [tiles[i][0] for i in layout.loose] == ["back"]
    # no tile set apart: the back is left out however near it lies (it cannot be the winning tile)
    layout = read_layout(shoot(lay("back123m456p789s11222z"), angle=20))
    assert layout.problem is None and sorted([*layout.concealed, layout.win_tile]) == sorted(
        "1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 2z 2z 2z".split()) and layout.loose == (0,), layout.to_dict()
    # a concealed kong shows two backs: kept whole
    kong = lay("123m456p789s1z", "1z", "back99pback", gaps=(0.8, 0.8))
    assert read_layout(shoot(kong)).hand_with(kong_tiles=["9p"]) == "(9999p) 123m456p789s1z +1z"


def test_a_reading_leaves_no_sideways_tile_among_the_concealed_ones() -> None:
    # two chows shown touching beyond the winning tile, set apart from it by a little less than a border: read the
    # other way round, they and the 6m before them would be concealed tiles, two of them sideways, the pung and kong
    # melds, and the hand as complete; concealed tiles are never turned
    tiles = lay("6m", "6m", "6*78m5*67p", "4*44s", "9*999p", gaps=(1.0, 0.29, 0.8, 0.8))
    layout = read_layout(shoot(tiles, angle=75))
    assert layout.hand == "[678m] [567p] [9999p] [444s] 6m +6m", layout.to_dict()


def test_missing_tile_says_which_count_is_wrong() -> None:
    tiles = lay("123m456p789s112z", "3z", gaps=(0.8,))  # 12 + 1
    layout = read_layout(shoot(tiles))
    assert layout.hand is None
    assert layout.problem is not None and layout.problem.code == "tile_count"
    assert layout.problem.count == 13 and "1 tile(s) missing" in layout.problem.message
    assert len(layout.concealed) + (layout.win_tile is not None) == 13  # the reading is there for a client to fix


def test_extra_tile_says_too_many() -> None:
    tiles = lay("123m456p789s11222z", "3z", gaps=(0.8,))
    layout = read_layout(shoot(tiles))
    assert layout.problem is not None and "too many" in layout.problem.message


def test_fifth_copy() -> None:
    tiles = lay("11111m456p789s22z", "3z", gaps=(0.8,))
    layout = read_layout(shoot(tiles))
    assert layout.problem is not None and layout.problem.code == "fifth_copy"
    assert layout.problem.detections == (0, 1, 2, 3, 4)  # the five read 1m: the tiles it is about
    assert layout.to_dict()["problem"]["detections"] == [0, 1, 2, 3, 4]


def test_a_flower_read_twice_is_no_hand() -> None:
    tiles = lay("123m456p789s1122z", "3z", "1f6f6f", gaps=(0.8, 1.2))
    layout = read_layout(shoot(tiles))
    assert layout.problem is not None and layout.problem.code == "flower_copy", layout.to_dict()
    assert layout.problem.detections == (15, 16)  # the two read 6f
    assert "6f is read 2 times" in layout.problem.message
    assert read_layout(shoot(lay("123m456p789s1122z", "3z", "1f6f7f", gaps=(0.8, 1.2)))).problem is None


def test_a_fifth_copy_counted_in_a_concealed_kong_names_its_backs_too() -> None:
    # (back 3z 3z back) is four 3z: with the pung of 3z among the concealed tiles, seven
    tiles = lay("123m456p333z7s", "7s", "back", "33z", "back", gaps=(0.8, 0.8, 0.0, 0.0), gap_in=1.0)
    dets = shoot(tiles)
    layout = read_layout(dets)
    assert layout.problem is not None and layout.problem.code == "fifth_copy", layout.to_dict()
    assert [dets[i].label for i in layout.problem.detections] == ["3z", "3z", "3z", "back", "3z", "3z", "back"]


def test_a_face_down_tile_among_the_concealed_ones_is_the_problem_s_tile() -> None:
    tiles = lay("123m456pback789s22z1z", "1z", gaps=(0.8,))
    dets = shoot(tiles)
    layout = read_layout(dets)
    assert layout.problem is not None and layout.problem.message == "a face-down tile lies among the concealed tiles"
    assert layout.problem.detections == (6,) and dets[6].label == "back"


def test_a_problem_s_tiles_are_named_in_a_part_read_alone_as_in_the_whole() -> None:
    """``Layout.of_part``: a layout read from some of the detections names the problem's tiles among all of them."""
    dets = shoot(lay("11111m456p789s22z", "3z", gaps=(0.8,)))
    part = [k + 2 for k in range(len(dets))]  # the part's tiles are detections 2 on of the whole's
    layout = read_layout(dets).of_part(part, len(dets) + 2)
    assert layout.problem is not None and layout.problem.detections == (2, 3, 4, 5, 6)


def test_no_detections() -> None:
    layout = read_layout([])
    assert layout.hand is None and layout.problem is not None and layout.problem.code == "no_tiles"
    assert layout.to_dict()["rows"] == []


def test_deterministic_and_order_independent() -> None:
    dets = shoot(HAND + lay("1f", y=-H - 40, x=200), angle=77, jitter=1.0)
    first = read_layout(dets).to_dict()
    rev = read_layout(dets[::-1])
    assert read_layout(dets).to_dict() == first
    assert rev.hand == read_layout(dets).hand


def test_helpers() -> None:
    assert tiles_notation(["2z", "9m", "1m", "5f"]) == "19m2z5f"
    assert meld_kind(["7s", "9s", "8s"]) == "chow" and meld_kind(["8z", "9z", "1z"]) is None


def test_the_check_of_a_complete_hand_is_the_callers() -> None:
    """The layout writes no rules: of two legal readings (either end tile left out as loose), it keeps the one the
    check it is given calls complete, and without a check it does not read at all."""
    dets = shoot(lay("1z", "123m456p789s555z", "1z", "7z", gaps=(0.8, 0.8, 0.8)))
    asked: list[tuple[str, ...]] = []

    def check(names: list[str]) -> bool:
        asked.append(tuple(names))
        return is_complete_tiles(names)

    layout = group_melds(dets, complete=check)
    assert layout.hand == "123m456p789s1555z +1z" and layout.loose == (14,)
    assert ("1z", "1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "5z", "5z", "5z", "1z") in asked
    assert group_melds(dets, complete=lambda names: False).hand == "123m456p789s1555z +7z"
    with pytest.raises(TypeError):
        group_melds(dets)  # type: ignore[call-arg]


def test_generated_scenes_read_from_their_true_boxes(art_dir: Path) -> None:
    """Scenes from the generator (rotation, tilt, perspective, loose tiles, clutter): the whole hand read from
    the true boxes matches the recorded one in nearly every scene."""
    from bench.eval_layout import four_back_kongs, true_detections
    from training import synth

    styles = synth.load_styles(art_dir, exclude=list(synth.HELD_OUT_STYLES))
    n, exact, wrong = 30, 0, []
    for index in range(n):
        _, _, sidecar = synth.make_scene(synth.SceneSpec(index, 99, "val", 0.3, 0.4), styles)
        layout = read_layout(true_detections(sidecar))
        read = layout.hand_with(kong_tiles=four_back_kongs(sidecar)) if layout.unknown_kongs else layout.hand
        if normal(read) == normal(sidecar["hand"]):
            exact += 1
        else:
            wrong.append((sidecar["hand"], read, layout.problem))
    assert exact >= n - 2, wrong


def test_a_meld_short_of_a_tile_is_named() -> None:
    tiles = lay("2m", "2m", gaps=(0.7,)) + lay("1*23s", "6*6z", "999*p", "44*44m", y=-H - 35, x=-20)
    layout = read_layout(shoot(tiles, angle=160))
    assert layout.hand is None and layout.problem is not None and layout.problem.code == "bad_group"
    assert "(2 tiles)" in layout.problem.message and "6z*" in layout.problem.message
    tiles = lay("2m", "2m", gaps=(0.7,)) + lay("1*23s", "6*z", "999*p", "44*44m", y=-H - 35, x=-20)
    layout = read_layout(shoot(tiles, angle=160))
    assert layout.problem is not None and "the group 6z* (1 tile) among the melds" in layout.problem.message
    (i,) = layout.problem.detections  # the tile it is about
    assert layout.to_dict()["problem"]["detections"] == [i] and tiles[i][0] == "6z" and tiles[i][3]


def test_a_box_over_the_seam_of_two_tiles_is_dropped() -> None:
    dets = shoot(HAND)
    a, b = dets[5].box, dets[6].box
    mid = (a[0] + b[0]) / 2
    dets.append(Detection("7s", 0.3, (mid, a[1], mid + (a[2] - a[0]), a[3]), False))  # half over each
    layout = read_layout(dets)
    assert layout.hand == HAND_TEXT and len(dets) - 1 in layout.merged


def test_melds_split_or_joined_by_noisy_gaps_still_read() -> None:
    # the chow's sideways tile stands 0.3 apart from its two mates; the pung and kong touch with no gap
    tiles = lay("2m", "2m", gaps=(0.7,)) + lay("1*s", "23s", "999*p44*44m", "6*66z", gaps=(0.3, 0.5, 0.5),
                                               y=-H - 35, x=-20)
    layout = read_layout(shoot(tiles, angle=30))
    assert layout.hand == "[4444m] [999p] [123s] [666z] 2m +2m", layout.to_dict()


def test_a_run_split_into_melds_once_is_split_alike_again_until_its_tiles_change() -> None:
    """``melds.segment`` remembers each run it split on the measured tiles (the reading search asks again for each way
    it reads the rows); each answer is the caller's own, and a tile renamed, or the tiles measured again, asks anew."""
    from dataclasses import replace

    from vision.layout.frame import frame_of
    from vision.layout.melds import segment

    t = frame_of(shoot(lay("123m", "456p", "789s", gaps=(0.8, 0.8)))).tiles
    run = [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    first = segment(t, run)
    assert [kind for kind, _ in first] == ["chow"] * 3 and len(t.segments) == 1
    first[0][1].append(99)  # the caller's own: the next answer is as split
    assert segment(t, run) == [("chow", [0, 1, 2]), ("chow", [3, 4, 5]), ("chow", [6, 7, 8])]
    renamed = replace(t, labels=["1m", "1m", "1m", *t.labels[3:]])
    assert renamed.segments == {} and segment(renamed, run)[0] == ("pung", [0, 1, 2])
    t.scale = t.scale * 1.0  # measured again: forgotten
    assert t.segments == {}
    assert segment(replace(t, labels=["1m", "5m", "9m", *t.labels[3:]]), run) is None


def test_each_row_read_one_way_once_reads_as_when_read_anew() -> None:
    """``reading.read_rows`` remembers each row read one way (``Tiles.row_reads``), as the search reads it again for
    every way it reads the other rows: every way of reading a hand's two rows, a loose tile at either end, reads as
    it does with nothing remembered; each answer is the caller's own; the tiles measured again are read anew."""
    from itertools import product

    from vision.layout.frame import frame_of
    from vision.layout.reading import drop_ways, read_rows

    tiles = lay("123m456p789s1z", "1z", gaps=(1.2,)) + lay("1*s23s", "9m", gaps=(2.5,), y=-H - 35, x=-20)
    f = frame_of(shoot(tiles))
    t, rows = f.tiles, [[list(g) for g in gs] for gs in f.groups]
    ways = [(conc, reverse, drops) for conc in range(len(rows)) for reverse in (False, True)
            for drops in product(*(drop_ways(gs, reverse and r == conc) for r, gs in enumerate(rows)))]
    assert len(rows) >= 2 and any(any(d) for *_, d in ways)  # rows read with a loose end tile left out too
    read = [read_rows(t, rows, *way) for way in ways]
    assert t.row_reads and any(p is not None and p.win is not None for p in read)
    for way, p in zip(ways, read, strict=True):
        t.row_reads.clear()
        assert read_rows(t, rows, *way) == p, way
    way = next(way for way, p in zip(ways, read, strict=True) if p is not None and p.melds)
    first = read_rows(t, rows, *way)
    first.melds[0][1].append(99)  # the caller's own: the next answer is as read
    first.rows[0][1][0].append(99)
    again = read_rows(t, rows, *way)
    assert 99 not in again.melds[0][1] and 99 not in again.rows[0][1][0]
    t.xy = t.xy + 0.0  # measured again: forgotten
    assert t.row_reads == {}
