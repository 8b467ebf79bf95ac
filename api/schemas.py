"""The wire shapes of CONTRACT.md as pydantic models: the only module of mjscore that uses pydantic.

The scorer checks request objects itself (``scorer.request.score_request`` names the wrong field), so the request
models here document the shapes in OpenAPI; the response models are what the endpoints promise.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Seat = Literal["E", "S", "W", "N"]


# --- examples (real answers of the scorer, CONTRACT.md shapes) -------------------------------------------------

SCORE_REQUEST_EXAMPLE: dict[str, Any] = {"rules": "mcr", "hand": "[555z]123p789s456m5s+5s", "discarder": "S"}
SCORE_RESULT_EXAMPLE: dict[str, Any] = {
    "ok": True,
    "rules": "mcr",
    "total": 11,
    "fans": [
        {"id": "mixed_straight", "name": "Mixed Straight", "name_zh": "花龙", "value": 8, "count": 1},
        {"id": "dragon_pung", "name": "Dragon Pung", "name_zh": "箭刻", "value": 2, "count": 1},
        {"id": "single_wait", "name": "Single Wait", "name_zh": "单钓将", "value": 1, "count": 1},
    ],
    "meets_minimum": True,
    "payments": {"E": 35, "S": -19, "W": -8, "N": -8},
    "decomposition": ["[555z]", "456m", "123p", "789s", "5s5s"],
}
RIICHI_REQUEST_EXAMPLE: dict[str, Any] = {
    "rules": "riichi",
    "hand": "234m456p34567s99s+8s",
    "discarder": "S",
    "riichi": {"riichi": True, "dora_indicators": "1m"},
}
RIICHI_RESULT_EXAMPLE: dict[str, Any] = {
    "ok": True,
    "rules": "riichi",
    "total": 2,
    "fans": [
        {"id": "riichi", "name": "Riichi", "name_zh": "立直", "value": 1, "count": 1},
        {"id": "pinfu", "name": "Pinfu", "name_zh": "平和", "value": 1, "count": 1},
    ],
    "meets_minimum": True,
    "payments": {"E": 2900, "S": -2900, "W": 0, "N": 0},
    "decomposition": ["234m", "456p", "345s", "678s", "9s9s"],
    "riichi": {"han": 2, "fu": 30, "limit": None, "points": 2900, "deposits": 0},
}
NOTATION_ERROR_EXAMPLE: dict[str, Any] = {
    "ok": False,
    "error": {"code": "bad_notation", "message": "'+' at column 5 must be followed by one tile, e.g. +5s"},
}
NOT_WINNING_EXAMPLE: dict[str, Any] = {
    "ok": False,
    "error": {"code": "not_winning", "message": "123456789m1234p +9s is not a winning hand: ..."},
}
RECOGNITION_EXAMPLE: dict[str, Any] = {
    "image": {"width": 3024, "height": 4032},
    "detections": [
        {"tile": "5z", "confidence": 0.97, "box": [412.0, 1210.5, 603.2, 1466.0], "sideways": False},
        {"tile": "5z", "confidence": 0.96, "box": [604.1, 1208.9, 795.0, 1465.2], "sideways": False},
    ],
    "hand": "[555z]123p789s456m5s+5s",
    "layout": {"rows": [], "melds": [], "win_tile_assumed": False, "notes": []},
}


# --- errors ------------------------------------------------------------------------------------------------------


class ErrorDetail(BaseModel):
    """What went wrong: a stable code and a message that can be shown to a user as it is."""

    code: str = Field(description="stable code, e.g. bad_notation, invalid_hand, not_winning, bad_request")
    message: str


class ErrorPublic(BaseModel):
    """The contract's error object."""

    model_config = ConfigDict(json_schema_extra={"examples": [NOTATION_ERROR_EXAMPLE]})

    ok: Literal[False] = False
    error: ErrorDetail


# --- scoring -----------------------------------------------------------------------------------------------------


class RiichiRequest(BaseModel):
    """The request's ``riichi`` object (Riichi only); every field is optional."""

    model_config = ConfigDict(extra="allow")

    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    open_riichi: bool = False
    dora_indicators: str = ""
    ura_indicators: str = ""
    honba: int = 0
    riichi_sticks: int = 0
    tenhou: bool = False
    chiihou: bool = False
    renhou: bool = False
    nagashi_mangan: bool = False


class FuzhouRequest(BaseModel):
    """The request's ``fuzhou`` object (Fuzhou only)."""

    model_config = ConfigDict(extra="allow")

    gold: str | None = Field(None, description="the gold (金) tile, e.g. 2m")
    dealer_streak: int = 0


class ScoreRequest(BaseModel):
    """One hand and its context (CONTRACT.md). Only ``rules`` and ``hand`` are required."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [SCORE_REQUEST_EXAMPLE, RIICHI_REQUEST_EXAMPLE]},
    )

    rules: Literal["mcr", "riichi", "guangdong", "fuzhou"]
    hand: str = Field(description="the hand in notation, e.g. [555z]123p789s5s+5s", examples=["[555z]123p789s5s+5s"])
    self_draw: bool = Field(False, description="false: won on a discard")
    seat_wind: Seat = Field("E", description="the winner's seat; the dealer sits East")
    round_wind: Seat = Field("E", description="the prevalent wind")
    discarder: Seat | None = Field(None, description="who dealt in; needed for payments on a discard")
    last_tile: bool = Field(False, description="海底/河底")
    kong_replacement: bool = Field(False, description="杠上开花 / rinshan")
    robbing_kong: bool = Field(False, description="抢杠")
    last_of_kind: bool = Field(False, description="和绝张 (MCR)")
    flowers: str = Field("", description="flower tiles, e.g. 1f6f (they may also stand in hand)")
    riichi: RiichiRequest | None = None
    fuzhou: FuzhouRequest | None = None
    guangdong: dict[str, Any] | None = Field(None, description="Guangdong facts: heavenly, earthly, human, ...")
    options: dict[str, Any] = Field(default_factory=dict, description="rule-set settings, listed by GET /v1/rules")


class PhotoRequest(BaseModel):
    """The ``request`` part of /v1/score-photo: a request object whose hand comes from the photo."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [
        {"rules": "mcr", "discarder": "S"}, {"rules": "mcr", "self_draw": True, "concealed_kongs": ["9p"]}]})

    rules: Literal["mcr", "riichi", "guangdong", "fuzhou"]
    hand: str | None = Field(None, description="a corrected hand, scored instead of the photo's reading")
    concealed_kongs: str | list[str] | None = Field(
        None, description="the tiles of concealed kongs shown as four backs, in reading order, e.g. [\"9p\"]")
    win_tile: str | None = Field(None, description="the winning tile, when the photo sets none apart")
    self_draw: bool = False
    seat_wind: Seat = "E"
    round_wind: Seat = "E"
    discarder: Seat | None = None
    last_tile: bool = False
    kong_replacement: bool = False
    robbing_kong: bool = False
    last_of_kind: bool = False
    flowers: str = ""
    riichi: RiichiRequest | None = None
    fuzhou: FuzhouRequest | None = None
    guangdong: dict[str, Any] | None = None
    options: dict[str, Any] = Field(default_factory=dict)


class FanPublic(BaseModel):
    """One fan (yaku, point component) found in a hand."""

    id: str
    name: str
    name_zh: str
    value: int
    count: int = 1


class ScorePublic(BaseModel):
    """The contract's result object; a rule set may add an object named after itself (``riichi`` ...)."""

    model_config = ConfigDict(
        extra="allow", json_schema_extra={"examples": [SCORE_RESULT_EXAMPLE, RIICHI_RESULT_EXAMPLE]}
    )

    ok: Literal[True] = True
    rules: str
    total: int
    fans: list[FanPublic]
    meets_minimum: bool
    payments: dict[str, int]
    decomposition: list[str]
    riichi: dict[str, Any] | None = Field(None, description="Riichi only: han, fu, limit, points")


class BatchRequest(BaseModel):
    """Up to 1000 request objects, scored in order."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"hands": [SCORE_REQUEST_EXAMPLE, {"rules": "mcr", "hand": "123m+"}, RIICHI_REQUEST_EXAMPLE]}]
        }
    )

    hands: list[ScoreRequest] = Field(max_length=1000)


class BatchPublic(BaseModel):
    """One result or error object per hand, in the order of the request."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"results": [SCORE_RESULT_EXAMPLE, NOTATION_ERROR_EXAMPLE]}]}
    )

    results: list[ScorePublic | ErrorPublic]


# --- photos ------------------------------------------------------------------------------------------------------


class ImageSize(BaseModel):
    """The photo's size after EXIF orientation."""

    width: int
    height: int


class DetectionPublic(BaseModel):
    """One tile found in the photo; ``box`` is xyxy in pixels of the upright image."""

    tile: str = Field(description="a tile name (1m .. 8f) or back")
    confidence: float
    box: list[float] = Field(min_length=4, max_length=4)
    sideways: bool = False


class RecognitionPublic(BaseModel):
    """The contract's recognition object."""

    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [RECOGNITION_EXAMPLE]})

    image: ImageSize
    detections: list[DetectionPublic]
    hand: str | None = Field(description="the layout's reading in notation, or null")
    layout: dict[str, Any] = Field(description="rows, melds, win_tile_assumed, notes")


class ScorePhotoPublic(BaseModel):
    """The photo's recognition and the score of the hand read from it (or an error object)."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"recognition": RECOGNITION_EXAMPLE, "result": SCORE_RESULT_EXAMPLE}]}
    )

    recognition: RecognitionPublic
    result: ScorePublic | ErrorPublic


# --- rules and health --------------------------------------------------------------------------------------------


class RuleFanPublic(BaseModel):
    """One fan a rule set can award; ``value`` is null where it depends on the hand (e.g. point components)."""

    model_config = ConfigDict(extra="allow")

    id: str
    name: str
    name_zh: str
    value: int | None = None


class RuleOptionPublic(BaseModel):
    """One setting of a rule set (the request's ``options``), with its default."""

    name: str
    type: str
    default: Any = None
    description: str = ""


class RuleSetPublic(BaseModel):
    """What one rule set package exposes; ``missing`` names what it does not (yet)."""

    rules: str
    available: bool
    fans: list[RuleFanPublic] = Field(default_factory=list)
    options: list[RuleOptionPublic] = Field(default_factory=list)
    missing: list[str] = Field(default_factory=list)


class RulesPublic(BaseModel):
    """Every rule set, and the fields a request object may have."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "request_fields": ["discarder", "hand", "rules", "self_draw"],
                    "rule_sets": [
                        {
                            "rules": "mcr",
                            "available": True,
                            "fans": [{"id": "big_four_winds", "name": "Big Four Winds", "name_zh": "大四喜",
                                      "value": 88}],
                            "options": [{"name": "minimum", "type": "int", "default": 8, "description": ""}],
                            "missing": [],
                        }
                    ],
                }
            ]
        }
    )

    request_fields: list[str]
    rule_sets: list[RuleSetPublic]


class HealthPublic(BaseModel):
    """The process is up."""

    status: Literal["ok"] = "ok"


class ReadyPublic(BaseModel):
    """Whether this worker can answer every endpoint (scoring always; photos once the model is loaded)."""

    ready: bool
    score: bool = True
    photo: bool
    detail: str = ""
