"""The layout of whole tables: their walls of backs set aside, the hand read from its part, its kongs kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorer import is_complete_tiles
from tests.vision.support import HAND, HAND_TEXT, H, W, lay, normal, read_layout, shoot
from vision.detection import Detection

# three rows of discards far below the hand: with them a photo holds 40 tiles or more, a whole table
DISCARDS = lay("123456789m", y=600) + lay("12345678p", y=700) + lay("12345678s", y=800)


def test_a_wall_of_backs_beside_the_hand_is_no_part_of_it() -> None:
    # a whole table's wall lies in line with the hand and before it: 18 backs touching, more than the hand's tiles
    wall = lay("back" * 18, gap_in=0.0, y=H + 40, x=-200)
    layout = read_layout(shoot(HAND + wall, angle=15))
    assert layout.hand == HAND_TEXT, layout.to_dict()
    assert "18 tile(s) of the table's walls set aside (runs of more than 4 backs)" in layout.notes
    assert set(layout.loose) == set(range(len(HAND), len(HAND) + 18))
    # a run of six backs and two faces (not a wall before the boxes are measured: a fifth of it faces), grouped
    # apart from those: its group of backs is set aside after
    mixed = lay("backbackbackbackbackback", "19m", gaps=(0.3,), gap_in=0.0, y=H + 40, x=-200)
    layout = read_layout(shoot(HAND + mixed, angle=15))
    assert layout.hand == HAND_TEXT and "6 tile(s) of the table's walls set aside (runs of more than 4 backs)" in \
        layout.notes, layout.to_dict()
    # two walls, one of them in the hand's row
    layout = read_layout(shoot(lay("back" * 9, gap_in=0.0, x=-800) + HAND + wall, angle=15))
    assert layout.hand == HAND_TEXT, layout.to_dict()
    # four backs in a row are a concealed kong, still read (more than four are a wall)
    kong = lay("123m456p789s7z", "7z", "backbackbackback", gaps=(0.8,))
    assert read_layout(shoot(kong + wall)).hand_with(kong_tiles=["9p"]) == "(9999p) 123m456p789s7z +7z"


def test_three_backs_beside_a_tables_hand_are_a_walls_piece_not_a_kong() -> None:
    # in a photo of a hand three backs are a concealed kong whose fourth back was not found (``test_layout.py``); at a
    # whole table they may be a piece of a wall (two of eval_cases' tables were read wrong so)
    hand = lay("123m456p789s7z", "7z", "backbackback", gaps=(0.8,))
    assert read_layout(shoot(hand)).hand_with(kong_tiles=["9p"]) == "(9999p) 123m456p789s7z +7z"
    layout = read_layout(shoot(hand + DISCARDS + lay("99m", y=900)))  # 41 tiles
    assert not layout.melds and not any("not found" in n for n in layout.notes), layout.to_dict()




def _discards(columns: int, tiles: int, x: float, turned: bool) -> list[Detection]:
    """A table's discards: ``columns`` rows of ``tiles`` faces (not one hand's), left of ``x``, running down the photo
    when ``turned``."""
    names = ["1p", "9m", "4s", "7z", "2m", "6p", "8s", "3z"]
    rows = [lay("".join(names[(k + j) % 8][0] + names[(k + j) % 8][1] for j in range(tiles)), y=k * (H + 60),
                x=-200) for k in range(columns)]
    return [d for r in rows for d in shoot(r, angle=90 if turned else 0, offset=(x, 2000.0))]


def test_a_table_whose_rows_mostly_run_across_the_hand_is_read_a_quarter_turn_round() -> None:
    from vision.relabel import read_hand

    # four rows of eight discards running down the photo, and a complete hand across it: 46 tiles
    hand = shoot(lay("123m456p789s1112z", "2z", gaps=(0.8,)))
    dets = hand + _discards(4, 8, 600.0, turned=True)
    assert read_layout(dets).hand is None  # the rows measured run down the photo: the hand's tiles lie across them
    layout, _ = read_hand(dets, complete=is_complete_tiles)
    assert layout.hand == "123m456p789s1112z +2z", layout.to_dict()
    # a photo of fewer tiles is not turned round
    assert read_hand(hand + _discards(2, 8, 600.0, turned=True), complete=is_complete_tiles)[0].hand is None


def test_a_tables_hand_turned_its_own_way_is_read_from_its_part_alone() -> None:
    from vision.relabel import read_hand

    # four rows of eight discards along the photo, and far from them a complete hand turned 30 degrees: 46 tiles
    hand = shoot(lay("123m456p789s1112z", "2z", gaps=(0.8,)), angle=30, offset=(2000.0, 3500.0))
    dets = _discards(4, 8, 600.0, turned=False) + hand
    assert read_layout(dets).hand is None
    layout, _ = read_hand(dets, complete=is_complete_tiles)
    assert layout.hand == "123m456p789s1112z +2z", layout.to_dict()
    assert "the hand read from 14 of the table's 46 tiles, lying apart from the rest" in layout.notes
    # its indices are the whole photo's: the hand's detections, the discards loose
    taken = {*layout.concealed_detections, layout.win_detection}
    assert taken == set(range(32, 46)) and set(layout.loose) == set(range(32))


def test_a_tables_hand_turned_a_quarter_is_read_with_its_own_sideways_tiles() -> None:
    from dataclasses import replace

    from vision.relabel import read_hand

    # the detector flags a tile lying across the photo's commonest direction: the discards run along the photo, the
    # hand down it, so its upright faces come flagged sideways and its melds' sideways tiles upright
    hand = shoot(lay("1*23m", "4*56p", "789s1122z", "2z", gaps=(0.8, 0.8, 0.8)), angle=90, offset=(3000.0, 3500.0))
    flagged = [replace(d, sideways=not d.sideways, sideways_p=0.1 if d.sideways else 0.9) for d in hand]
    layout, _ = read_hand(_discards(4, 8, 600.0, turned=False) + flagged, complete=is_complete_tiles)
    assert layout.hand == "[123m] [456p] 789s1122z +2z", layout.to_dict()
    assert "the hand read from 14 of the table's 46 tiles, lying apart from the rest" in layout.notes


def test_a_layout_of_a_part_speaks_of_the_whole() -> None:
    part = read_layout(shoot(lay("123m456p789s1112z", "2z", gaps=(0.8,))))
    whole = part.of_part(range(10, 24), 30, "read apart")
    assert whole.hand == part.hand and whole.notes[-1] == "read apart"
    assert whole.concealed_detections == tuple(10 + i for i in part.concealed_detections)
    assert whole.win_detection == 10 + part.win_detection
    assert [r.detections for r in whole.rows] == [tuple(10 + i for i in r.detections) for r in part.rows]
    assert set(whole.loose) == set(range(10)) | set(range(24, 30))


def test_a_walls_end_touching_a_tables_hand_is_the_walls() -> None:
    # the hand's last concealed tile touches a back (a wall's end), its winning tile beyond; discards far off
    hand = lay("123m456p789s1122z" + "back", "3z", gaps=(0.8,))
    far = shoot(DISCARDS)
    dets = shoot(hand) + far
    assert len(dets) >= 40 and read_layout(dets).hand == HAND_TEXT
    # in a photo of fewer tiles (not a table) a back among the concealed tiles is a problem to show
    assert read_layout(shoot(hand)).problem is not None


def test_a_tables_concealed_kong_touching_a_meld_is_no_wall() -> None:
    # a pung and a concealed kong (a back, two faces, a back) touching, one group: in a photo of a whole table its
    # backs are the kong's, not a wall's ends amid the faces
    hand = lay("456p789s7z", "7z", "1*11pback99pback", gaps=(0.8, 0.8))
    far = shoot(DISCARDS)
    dets = shoot(hand) + far
    assert len(dets) >= 40 and read_layout(dets).hand == "[111p] (9999p) 456p789s7z +7z"


def test_a_tables_wall_the_finder_boxed_in_part_is_still_a_wall() -> None:
    # a wall whose every fifth back the finder missed: runs of four backs, each a concealed kong's worth, in line
    # with one tile's gap between them; the hand's own kong of four backs lies in front of it
    hand = lay("123m456p789s7z", "7z", "backbackbackback", gaps=(0.8, 0.8))
    wall = lay(*["back" * 4] * 4, gaps=(1.0,) * 3, gap_in=0.0, y=-H - 60, x=-100)
    far = DISCARDS
    layout = read_layout(shoot(hand + wall + far, angle=10))
    assert layout.hand_with(kong_tiles=["9p"]) == "(9999p) 123m456p789s7z +7z", layout.to_dict()
    assert "16 tile(s) of the table's walls set aside (runs of more than 4 backs)" in layout.notes
    # the wall half a tile behind the hand's row, the kong under its backs: a run is joined along its own line only,
    # so the kong (a run across from the wall's) stays the hand's
    behind = lay(*["back" * 4] * 4, gaps=(1.0,) * 3, gap_in=0.0, y=-H - 0.5 * W, x=-100)
    layout = read_layout(shoot(hand + behind + far))
    assert layout.hand_with(kong_tiles=["9p"]) == "(9999p) 123m456p789s7z +7z", layout.to_dict()
    assert "16 tile(s) of the table's walls set aside (runs of more than 4 backs)" in layout.notes
    # in a photo of a hand alone (fewer than 40 tiles) four backs in line with a gap are still two concealed kongs
    two = lay("123m456p789s7z", "7z", "backbackbackback", "backbackbackback", gaps=(0.8, 0.8, 1.0))
    assert read_layout(shoot(two)).unknown_kongs == 2


def test_a_white_backed_sets_wall_read_as_white_dragons_is_still_a_wall() -> None:
    from vision.layout.table import wall_tiles

    # a wall of a set whose backs are as white as its blank white dragons, every back read 5z: more of them in a run
    # than a set holds (four) is no hand's
    wall = lay("5z" * 18, gap_in=0.0, y=-H - 60, x=-100)
    whole = shoot(HAND + wall + DISCARDS, angle=10)
    layout = read_layout(whole)
    assert layout.hand == HAND_TEXT, layout.to_dict()
    assert "18 tile(s) of the table's walls set aside (runs of more than 4 backs)" in layout.notes
    # ... read partly as backs, alike; four white dragons in a row (a kong's worth) beside backs are no wall
    mixed = lay("5zback" * 9, gap_in=0.0, y=-H - 60, x=-100)
    assert len(wall_tiles(shoot(HAND + mixed + DISCARDS, angle=10))) == 18
    kong = lay("5z5z5z5zbackbackbackbackback", gap_in=0.0, y=-H - 60, x=-100)
    walls = wall_tiles(kong_photo := shoot(HAND + kong + DISCARDS, angle=10))
    assert [kong_photo[i].label for i in walls] == []
    # in a photo of a hand (fewer than 40 tiles) the rule is not asked
    assert wall_tiles(shoot(HAND + wall, angle=10)) == ()


def test_a_tables_concealed_kongs_against_its_wall_are_the_hands() -> None:
    # a hand laid down against its wall: a concealed kong shown with two faces up (a back, two faces, a back) whose
    # backs touch the wall's backs behind them; the kong stays the hand's, the wall is set aside
    hand = lay("123m456p789s7z", "7z", "back99pback", gaps=(0.8, 0.8))
    wall = lay("back" * 18, gap_in=0.0, y=-H, x=-100)
    far = DISCARDS
    layout = read_layout(shoot(hand + wall + far, angle=10))
    assert layout.hand == "(9999p) 123m456p789s7z +7z", layout.to_dict()
    assert "18 tile(s) of the table's walls set aside (runs of more than 4 backs)" in layout.notes
    # ... and a concealed kong of four backs laid against the wall: it touches the wall across, not along its line
    hand = lay("123m456p789s7z", "7z", "backbackbackback", gaps=(0.8, 0.8))
    layout = read_layout(shoot(hand + wall + far, angle=10))
    assert layout.hand_with(kong_tiles=["9p"]) == "(9999p) 123m456p789s7z +7z", layout.to_dict()
    assert "18 tile(s) of the table's walls set aside (runs of more than 4 backs)" in layout.notes
    # a wall that goes on past a back beside two like faces is still a wall, every back of it (two tiles lying on it)
    from vision.layout.table import wall_tiles

    on_wall = shoot(lay("back" * 9 + "55p" + "back" * 9, gap_in=0.0, x=-100) + far, angle=10)
    assert len(wall_tiles(on_wall)) == 18


def test_concealed_kongs_side_by_side_in_a_hands_photo_are_no_wall() -> None:
    # a concealed kong shown (a back, two faces, a back) touching one of four backs: six backs in a group of eight,
    # but in a photo of a hand (not a table) two concealed kongs side by side
    for kongs, given, text in (("back77sback" + "back" * 4, ["1p"], "(7777s) (1111p) 456m456p4z +4z"),
                               ("back" * 8, ["1p", "9s"], "(1111p) (9999s) 456m456p4z +4z")):
        tiles = lay("456m456p4z", "4z", kongs, gaps=(0.8, 0.8))
        layout = read_layout(shoot(tiles, angle=10))
        assert not any("walls" in note for note in layout.notes), layout.notes
        assert layout.hand_with(kong_tiles=given) == text and not layout.loose, layout.to_dict()
    # in a photo of a whole table, as before, a wall
    assert any("walls" in n for n in read_layout(shoot(tiles + DISCARDS, angle=10)).notes)


def test_a_kong_of_four_backs_beside_a_box_the_finder_doubted_is_no_wall() -> None:
    # a spurious back box (0.16) touching a concealed kong of four backs: five backs in a group, but a hand's photo
    # counts only the sure ones, so the kong is read (the doubtful box left out), not set aside as a wall
    hand = shoot(lay("123m456p789s7z", "7z", "backbackbackback", gaps=(0.8, 0.8)))
    x0, y0, x1, y1 = hand[-4].box
    doubt = Detection("back", 0.16, (x0 - 0.8 * W, y0, x1 - 0.8 * W, y1), False)
    from vision.relabel import read_hand

    first = read_layout([*hand, doubt])  # (with the box a fifth back in the kong's group: no wall either)
    assert not any("walls" in note for note in first.notes), first.notes
    layout, _ = read_hand([*hand, doubt], complete=is_complete_tiles)
    assert layout.hand_with(kong_tiles=["9p"]) == "(9999p) 123m456p789s7z +7z", layout.to_dict()
    # the same box named surely: five backs touching are a short wall, as before
    sure = read_layout([*hand, Detection("back", 0.9, doubt.box, False)])
    assert any("walls" in note for note in sure.notes), sure.notes


def test_a_tables_concealed_kong_split_by_a_gap_before_its_last_back_is_whole() -> None:
    # its last back boxed wider than the tile (a gap of a quarter tile before it): in a photo of a whole table, where
    # a back amid a group's faces is a wall's end, it is still the kong's
    hand = lay("123m456p789s7z", "7z", "back99p", "back", gaps=(0.8, 0.8, 0.25))
    far = DISCARDS
    assert read_layout(shoot(hand + far, angle=10)).hand == "(9999p) 123m456p789s7z +7z"


def test_a_renaming_asks_the_walls_again_only_where_it_may_change_them(monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import replace

    import vision.layout.frame as frames
    from vision.layout.frame import frame_of, reframe

    # nine backs in a row, a tenth box beside them named a face, and a hand far off
    wall = shoot(lay("back" * 9 + "1m", gap_in=0.0, x=-100) + lay("123m456p789s7z", "7z", gaps=(0.8,), y=400))
    frame = frame_of(wall)
    assert frame.walls == tuple(range(9)) and 9 in frame.by_backs and 12 not in frame.by_backs
    # the face touching the wall renamed a back: the wall takes it in
    assert reframe(frame, [*wall[:9], replace(wall[9], label="back"), *wall[10:]]).walls == tuple(range(10))
    # a back renamed a face: the wall is a run of eight, no wall
    assert reframe(frame, [*wall[:4], replace(wall[4], label="5p"), *wall[5:]]).walls == ()
    # a tile of the hand, far from every back, renamed: the walls are not asked again
    asked = []
    monkeypatch.setattr(frames, "wall_tiles", lambda dets: asked.append(1) or frame.walls)
    renamed = reframe(frame, [*wall[:12], replace(wall[12], label="4m"), *wall[13:]])
    assert renamed.walls == frame.walls and not asked
    reframe(frame, [*wall[:9], replace(wall[9], label="2m"), *wall[10:]])  # beside the wall: asked
    assert asked == [1]


def test_generated_tables_read_from_their_true_boxes(art_dir: Path) -> None:
    """Whole tables from the generator (walls, discards, the hand outside the walls; ``--table``): the walls of
    backs are set aside, and the hand is read in most of them (9 of these 12 with the fluffy art, 10 with the fetched
    sets; with the walls read as rows of the hand: none)."""
    from bench.eval_layout import four_back_kongs, true_detections
    from training import synth

    styles = synth.load_styles(art_dir, exclude=list(synth.HELD_OUT_STYLES))
    n, exact = 12, 0
    for index in range(n):
        _, _, sidecar = synth.make_scene(synth.SceneSpec(index, 5120, "val", 1.0, 1.0, table=120), styles)
        layout = read_layout(true_detections(sidecar))
        read = layout.hand_with(kong_tiles=four_back_kongs(sidecar)) if layout.unknown_kongs else layout.hand
        exact += normal(read) == normal(sidecar["hand"])
    assert exact >= n // 2, exact
