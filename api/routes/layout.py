"""POST /v1/layout: the hand that a set of boxes reads (the annotation page asks it after every edit).

The boxes are the contract's detections (``tile``, ``box`` xyxy pixels, ``sideways``; a recognition's detections as
they come, their ``stands`` read as the layout reads a photo's); the answer is the
recognition's ``hand`` and ``layout``, the melds and winning tile as labels fields (box indices), and when no hand
is read, ``reason``: why not, in words a person can act on.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from api import schemas
from api.datasets.errors import BadLabelsError
from api.datasets.labels import Labels, reading
from api.routes import datasets_docs as docs
from api.routes.score import ERRORS, read_json, score_pool
from scorer import is_complete_tiles
from vision.detection import Detection
from vision.layout import Layout
from vision.relabel import read_hand

router = APIRouter(prefix="/layout", tags=["photo"])

def read_layout(boxes: Labels) -> Layout:
    """The layout of the boxes (the one call into the layout stage), each standing as its ``stands`` says (the
    recognition's; None: not known)."""
    dets = [Detection(b.tile, 1.0, b.box, b.sideways, stands=b.stands) for b in boxes.boxes]
    return read_hand(dets, complete=is_complete_tiles)[0]


def why_no_hand(layout: Layout, count: int) -> str | None:
    """Why the layout reads no hand, or None when it reads one."""
    if layout.hand is not None:
        return None
    if count == 0:
        return "no tiles: draw a box around each tile"
    if layout.problem is not None:
        return f"{layout.problem.message} (read: {layout.reading() or 'nothing'})"
    if layout.unknown_kongs:
        return (f"{layout.unknown_kongs} concealed kong(s) show four backs, so their tile cannot be read from the "
                "photo: write the hand in the hand field")
    if layout.win_tile is None:
        return "no winning tile: set it apart from the concealed tiles (or mark its box with W)"
    return f"the tiles read {layout.reading()}, which is no hand"


@router.post("", summary="Read the hand from boxes", responses={
    200: {"content": {"application/json": {"examples": {"a hand": {"value": docs.LAYOUT},
                                                        "no hand": {"value": docs.NO_HAND}}}}},
    422: {"model": schemas.ErrorPublic, "description": "the boxes are not valid (`bad_labels`)"}, **ERRORS},
    openapi_extra=docs.json_body({"a concealed hand in one row": docs.LAYOUT_REQUEST}, docs.LAYOUT_SCHEMA))
async def layout(request: Request) -> dict[str, Any]:
    """Boxes in (``{"image": {width, height}, "detections": [...], "win": index or null}``); the hand out. The layout
    is read on a scoring thread (``api.scoring``: its queue and time budget): 500 boxes piled up take seconds, which
    on the event loop stalled every other request of the worker, ``/healthz`` too."""
    body = await read_json(request)
    if not isinstance(body, dict) or not isinstance(body.get("detections"), list):
        raise BadLabelsError('the body must be {"image": {"width", "height"}, "detections": [...]}')
    fields = {"image": body.get("image"), "boxes": body["detections"], "win": body.get("win")}
    boxes = Labels.from_json(fields, boxes_named="detections")
    return await score_pool(request).run(lambda deadline: hand_of(boxes))


def hand_of(boxes: Labels) -> dict[str, Any]:
    """The answer of ``POST /v1/layout`` for ``boxes``."""
    lay = read_layout(boxes)
    hand = lay.hand
    if boxes.win is not None:  # the winning tile named by the annotator, not set apart
        hand = lay.hand_with(win=boxes.boxes[boxes.win].tile)
    reason = why_no_hand(lay, len(boxes.boxes))
    if hand is None and reason is None and boxes.win is not None:
        reason = f"the winning tile {boxes.boxes[boxes.win].tile} is not among the concealed tiles"
    melds = reading(lay.to_dict())["melds"]
    win = boxes.win if boxes.win is not None else lay.win_detection
    return {"hand": hand, "reason": reason if hand is None else None, "melds": melds, "win": win,
            "layout": lay.to_dict()}
