"""A tile lying sideways that the finder boxed as two overlapping halves is read whole (``vision/halves.py``)."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

from vision.halves import JOIN_SURE, JOIN_SURER, SURE, halves, joined

MODELS = Path(__file__).resolve().parents[2] / "models"
SHIPPED = all((MODELS / f).exists() for f in ("tile_finder.onnx", "tile_classifier.onnx"))
W, H = 30.0, 40.0  # an upright tile's box


def _row(*kinds: str, y: float = 0.0) -> np.ndarray:
    """Boxes of a row, left to right: ``u`` an upright tile, ``s`` a sideways one, ``h`` a sideways tile boxed as two
    halves (each 0.6 of it, overlapping by a fifth of it), touching."""
    out, x = [], 0.0
    for k in kinds:
        if k == "u":
            out.append([x, y, x + W, y + H])
            x += W
        elif k == "s":
            out.append([x, y + H - W, x + H, y + H])
            x += H
        else:
            out += [[x, y + H - W, x + 0.6 * H, y + H], [x + 0.4 * H, y + H - W, x + H, y + H]]
            x += H
    return np.array(out)


def _sure(n: int) -> np.ndarray:
    return np.full((n, 3), 0.05) + np.eye(3)[np.arange(n) % 3] * 0.85


def test_two_overlapping_boxes_shaped_as_a_sideways_tile_are_its_halves() -> None:
    boxes = _row("u", "u", "h", "u", "u")
    pairs, unions = halves(boxes, _sure(len(boxes)), np.ones(len(boxes), bool), np.zeros(len(boxes), bool))
    assert pairs.tolist() == [[2, 3]]
    assert unions.tolist() == [[2 * W, H - W, 2 * W + H, H]]


def test_a_box_of_no_size_pairs_with_nothing_and_warns_nothing() -> None:
    boxes = np.r_[[[0.0, 0, 0, 0]], _row("u", "u", "h", "u", "u")]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pairs, _ = halves(boxes, _sure(len(boxes)), np.ones(len(boxes), bool), np.zeros(len(boxes), bool))
    assert pairs.tolist() == [[3, 4]]


def test_a_row_turned_a_quarter_is_split_along_its_length() -> None:
    boxes = _row("u", "u", "h", "u", "u")[:, [1, 0, 3, 2]]  # x and y swapped: the row runs down the photo
    pairs, unions = halves(boxes, _sure(len(boxes)), np.ones(len(boxes), bool), np.zeros(len(boxes), bool))
    assert pairs.tolist() == [[2, 3]]
    assert unions.tolist() == [[H - W, 2 * W, H, 2 * W + H]]


def test_upright_neighbours_whose_boxes_overlap_are_no_halves() -> None:
    boxes = _row("u", "u", "u", "u")
    boxes[2] -= [0.3 * W, 0, 0.3 * W, 0]  # overlapping its left neighbour by 0.3 of a tile: the union is 1.7 wide
    p = _sure(len(boxes))
    assert len(halves(boxes, p, np.ones(4, bool), np.zeros(4, bool))[0]) == 0
    # the same two boxes among tiles twice as long would be a sideways tile's halves
    big = np.r_[boxes, [[200.0, 0, 200 + 2 * W, 2 * H], [300, 0, 300 + 2 * W, 2 * H], [400, 0, 400 + 2 * W, 2 * H],
                        [500, 0, 500 + 2 * W, 2 * H]]]
    assert len(halves(big, _sure(8), np.ones(8, bool), np.zeros(8, bool))[0]) > 0


def test_a_face_named_surely_lying_sideways_is_whole() -> None:
    boxes = _row("u", "u", "h", "u", "u")
    sideways = np.zeros(len(boxes), bool)
    sideways[2] = True  # the first half is already a sure sideways face: the other box is spurious
    assert len(halves(boxes, _sure(len(boxes)), np.ones(len(boxes), bool), sideways)[0]) == 0
    unsure = _sure(len(boxes))
    unsure[2] = [0.5, 0.3, 0.2]
    assert len(halves(boxes, unsure, np.ones(len(boxes), bool), sideways)[0]) == 1


def test_the_surest_union_is_taken_each_box_once_and_only_named_surely_sideways() -> None:
    pairs = np.array([[0, 1], [1, 2], [3, 4], [5, 6]])
    q = np.array([[0.7, 0.3], [0.9, 0.1], [0.95, 0.05], [JOIN_SURE - 0.01, 0.0]])
    unsure = np.full((7, 2), 0.5)  # the boxes' own names
    assert joined(pairs, q, np.array([True, True, True, True]), unsure) == [2, 1]
    assert joined(pairs, q, np.array([True, False, False, True]), unsure) == [0]


def test_two_boxes_each_named_surely_are_one_tile_only_where_the_union_is_named_surer() -> None:
    # in a row shot low, two standing neighbours' boxes overlap; their union, read as one tile lying sideways, was
    # named 0.64 and 0.76 (bench.eval_cases' perspective kind), a sideways 4p boxed as two sure 2p 0.91
    pairs, sideways = np.array([[0, 1]]), np.array([True])
    sure = np.full((2, 2), [SURE, 1 - SURE])
    assert joined(pairs, np.array([[JOIN_SURER - 0.01, 0.0]]), sideways, sure) == []
    assert joined(pairs, np.array([[JOIN_SURER, 0.0]]), sideways, sure) == [0]
    one_unsure = sure.copy()
    one_unsure[1] = [0.5, 0.5]
    assert joined(pairs, np.array([[JOIN_SURE, 0.0]]), sideways, one_unsure) == [0]


@pytest.mark.skipif(not SHIPPED, reason="no shipped weights in models/")
def test_a_sideways_tile_the_finder_boxed_as_two_is_read_whole(art_dir: Path) -> None:
    from training import synth
    from vision.config import DetectorConfig
    from vision.detector import TileDetector

    styles = synth.load_styles(art_dir, include=["fluffy"] if (art_dir / "fluffy").exists() else None)
    read = tried = 0
    for index in range(40):  # hands photographed at about 1 MP: decoded as they are, boxes in the photo's pixels
        jpg, _lines, layout = synth.make_scene(synth.SceneSpec(index, 11, "test", 1.0, 1.0), styles)
        tiles = [t for t in layout["tiles"] if t["visible"] >= 0.9]
        # a face lying sideways in a row near the photo's axes (a row lying askew boxes each tile nearly square)
        side = [k for k, t in enumerate(tiles) if t["sideways"] and t["label"] != "back"
                and abs(layout["camera"]["rotation"] + 10) % 90 < 20]
        if not side or tried == 6:
            continue
        tried += 1
        true = np.array([t["box"] for t in tiles])
        quad = np.array(tiles[side[0]]["quad"])  # its face, as the finder boxes it, cut along its long side
        x0, y0, x1, y1 = face = np.r_[quad.min(0), quad.max(0)]
        if x1 - x0 >= y1 - y0:
            cut = [[x0, y0, x0 + 0.6 * (x1 - x0), y1], [x1 - 0.6 * (x1 - x0), y0, x1, y1]]
        else:
            cut = [[x0, y0, x1, y0 + 0.6 * (y1 - y0)], [x0, y1 - 0.6 * (y1 - y0), x1, y1]]
        boxes = np.r_[np.delete(true, side[0], 0), cut]

        def found(config: DetectorConfig, boxes: np.ndarray = boxes, jpg: bytes = jpg) -> list:
            det = TileDetector(config=config)
            det.find = lambda rgb: (boxes.copy(), np.full(len(boxes), 0.6))  # the finder's boxes, one tile halved
            return det.detect(jpg)

        halved = {tuple(np.round(b, 1)) for b in cut}
        assert halved <= {d.box for d in found(DetectorConfig(join_halves=False))}
        whole = {d.box: d for d in found(DetectorConfig())}
        assert {tuple(np.round(b, 1)) for b in np.delete(true, side[0], 0)} <= set(whole)  # the others as boxed
        union = tuple(np.round(face, 1))
        if union in whole:
            assert not halved & set(whole)
            read += whole[union].label == tiles[side[0]]["label"] and whole[union].sideways
    assert tried == 6 and read >= 4, (tried, read)
