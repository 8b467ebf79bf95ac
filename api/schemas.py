"""The wire shapes of CONTRACT.md as pydantic models: the only module of mjscore that uses pydantic.

The scorer checks request objects itself (``scorer.request.score_request`` names the wrong field), so the request
models here document the shapes in OpenAPI; the response models are what the endpoints promise.
"""

from __future__ import annotations

import dataclasses
import importlib
import re
from typing import Annotated, Any, Literal, Union

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    RootModel,
    SerializerFunctionWrapHandler,
    create_model,
    model_serializer,
)

from scorer.request import MAX_TEXT, RULE_SETS, ranges, section_defaults

RANGES = ranges()

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


def field_docs(doc: str) -> dict[str, str]:
    """Each ````name```` paragraph of a config docstring, keyed by the first name it opens with.

    >>> field_docs('''Settings.
    ...
    ... ``minimum``: fans a hand needs.
    ... ``cap``: the most fans,
    ... within reason.''')
    {'minimum': '``minimum``: fans a hand needs.', 'cap': '``cap``: the most fans, within reason.'}
    """
    out: dict[str, str] = {}
    current: str | None = None
    for raw in doc.splitlines():
        line = raw.strip()
        match = re.match(r"``(\w+)``", line)
        if match:
            current = match.group(1)
            out.setdefault(current, line)
        elif not line:
            current = None
        elif current is not None and out.get(current):
            out[current] += " " + line
    return out


MAX_KONGS = 4  # a hand holds at most four kongs
Text = Annotated[str, Field(max_length=MAX_TEXT)]


def _number(where: str, name: str, description: str) -> Any:
    """A whole number with the range the scorer checks (``scorer.request.ranges()``), and its default."""
    bounds = RANGES[where][name]
    default = 0 if bounds.low <= 0 <= bounds.high else bounds.low
    return Field(default, ge=bounds.low, le=bounds.high, description=f"{description} ({bounds.low} to {bounds.high})")


def _text(default: str | None, description: str, **extra: Any) -> Any:
    return Field(default, max_length=MAX_TEXT, description=description, **extra)


class RiichiSection(BaseModel):
    """The request's ``riichi`` object (Riichi only); every field is optional."""

    model_config = ConfigDict(extra="forbid")

    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    open_riichi: bool = False
    dora_indicators: str = _text("", "dora indicator tiles, e.g. 3m7z (at most five)")
    ura_indicators: str = _text("", "ura dora indicator tiles (at most five)")
    honba: int = _number("riichi", "honba", "本场")
    riichi_sticks: int = _number("riichi", "riichi_sticks", "riichi sticks on the table")
    tenhou: bool = False
    chiihou: bool = False
    renhou: bool = False
    nagashi_mangan: bool = False
    paarenchan: int = _number("riichi", "paarenchan", "八连庄: how many yakuman it is worth (option has_paarenchan)")
    nuki_dora: int = _number("riichi", "nuki_dora", "norths set aside in three-player games, each a dora")
    pao: Seat | None = Field(None, description="the seat liable for a yakuman (役满包牌)")


class FuzhouSection(BaseModel):
    """The request's ``fuzhou`` object (Fuzhou only)."""

    model_config = ConfigDict(extra="forbid")

    gold: str | None = _text(None, "the gold (金) tile, e.g. 2m")
    dealer_streak: int = _number("fuzhou", "dealer_streak", "连庄数, the dealer's repeats")
    robbing_gold: bool = Field(False, description="抢金")
    heavenly: bool = Field(False, description="天和")


class GuangdongSection(BaseModel):
    """The request's ``guangdong`` object (Guangdong only): 天和/地和/人和 and the liable seats."""

    model_config = ConfigDict(extra="forbid")

    heavenly: bool = False
    earthly: bool = False
    human: bool = False
    kong_feeder: Seat | None = Field(None, description="杠开包牌: the seat whose kong gave the winning tile")
    twelve_feeder: Seat | None = Field(None, description="十二张落地包自摸: the seat that fed the fourth meld")


SECTIONS: dict[str, type[BaseModel]] = {"riichi": RiichiSection, "fuzhou": FuzhouSection, "guangdong": GuangdongSection}
_TITLES = {"mcr": "MCR", "riichi": "Riichi", "guangdong": "Guangdong", "fuzhou": "Fuzhou"}


def _at_defaults(section: str) -> type[BaseModel]:
    """A rule set's own object under another rule set: each field only at its default (``scorer.request``)."""
    fields: dict[str, Any] = {name: (None if value is None else Literal[value], value)  # type: ignore[valid-type]
                              for name, value in section_defaults()[section].items()}
    return create_model(f"{_TITLES[section]}AtDefaults", __config__=ConfigDict(extra="forbid"), __doc__=(
        f"The {section} object under another rule set, which does not read it: each field at its default, as the "
        "contract's request shows it (a fact there is refused, not ignored)."), **fields)


AT_DEFAULTS = {section: _at_defaults(section) for section in SECTIONS}


def _options_model(rules: str) -> type[BaseModel]:
    """A rule set's ``options``: each field of its config with its type, default and range (unknown names refused)."""
    config = importlib.import_module(f"scorer.{rules}").DEFAULT
    docs = field_docs(type(config).__doc__ or "")
    bounds = RANGES[f"options.{rules}"]
    fields: dict[str, Any] = {}
    for f in dataclasses.fields(config):
        default = getattr(config, f.name)
        limits = {"ge": bounds[f.name].low, "le": bounds[f.name].high} if f.name in bounds else {}
        fields[f.name] = (type(default), Field(default, description=docs.get(f.name, ""), **limits))
    return create_model(f"{_TITLES[rules]}Options", __config__=ConfigDict(extra="forbid"),
                        __doc__=f"The settings of {_TITLES[rules]} (GET /v1/rules lists them).", **fields)


OPTIONS = {rules: _options_model(rules) for rules in RULE_SETS}


class _Request(BaseModel):
    """The fields every rule set shares (CONTRACT.md)."""

    model_config = ConfigDict(extra="forbid")

    self_draw: bool = Field(False, description="false: won on a discard")
    seat_wind: Seat | None = Field("E", description="the winner's seat; the dealer sits East (null: E)")
    round_wind: Seat | None = Field("E", description="the prevalent wind (null: E)")
    discarder: Seat | None = Field(None, description="who dealt in; needed for payments on a discard")
    last_tile: bool = Field(False, description="海底/河底")
    kong_replacement: bool = Field(False, description="杠上开花 / rinshan")
    robbing_kong: bool = Field(False, description="抢杠")
    last_of_kind: bool = Field(False, description="和绝张 (MCR)")
    flowers: str = _text("", "flower tiles, e.g. 1f6f (they may also stand in hand)")


class _HandRequest(_Request):
    hand: str = _text(..., "the hand in notation, e.g. [555z]123p789s456m5s+5s",
                      examples=["[555z]123p789s456m5s+5s"])


class _PhotoRequest(_Request):
    hand: str | None = _text(None, "a corrected hand, scored instead of the photo's reading")
    concealed_kongs: Text | Annotated[list[Text], Field(max_length=MAX_KONGS)] | None = Field(
        None, description="the tiles of concealed kongs shown as four backs, in reading order, e.g. [\"9p\"]")
    win_tile: str | None = _text(None, "the winning tile, when the photo sets none apart")


def _per_rule_set(base: type[BaseModel], suffix: str) -> Any:
    """One model per rule set (``rules`` its constant; its own object beside it, the others' only at their
    defaults), as a union told apart by ``rules``."""
    models = []
    for rules in RULE_SETS:
        sections: dict[str, Any] = {name: ((model if name == rules else AT_DEFAULTS[name]) | None, None)
                                    for name, model in SECTIONS.items()}
        models.append(create_model(
            f"{_TITLES[rules]}{suffix}", __base__=base, __doc__=f"A {_TITLES[rules]} {suffix[:-7].lower() or 'score'} "
                                                                 "request.",
            rules=(Literal[rules], ...),  # type: ignore[valid-type]
            options=(OPTIONS[rules] | None, Field(None, description="rule-set settings, listed by GET /v1/rules")),
            **sections))
    return Annotated[Union[tuple(models)], Field(discriminator="rules")]  # noqa: UP007 - a tuple of types


class ScoreRequest(RootModel[_per_rule_set(_HandRequest, "Request")]):  # type: ignore[misc]
    """One hand and its context (CONTRACT.md). Only ``rules`` and ``hand`` are required; a rule set's own object
    (``riichi``, ``fuzhou``, ``guangdong``) comes only with that rule set."""

    model_config = ConfigDict(json_schema_extra={"examples": [SCORE_REQUEST_EXAMPLE, RIICHI_REQUEST_EXAMPLE]})


class PhotoRequest(RootModel[_per_rule_set(_PhotoRequest, "PhotoRequest")]):  # type: ignore[misc]
    """The ``request`` part of /v1/score-photo, as JSON: a request object without ``hand`` (read from the photo;
    a ``hand`` given here corrects the reading), plus ``concealed_kongs`` and ``win_tile`` where the photo cannot
    show them."""

    model_config = ConfigDict(json_schema_extra={"examples": [
        {"rules": "mcr", "discarder": "S"}, {"rules": "mcr", "self_draw": True, "concealed_kongs": ["9p"]}]})


class FanPublic(BaseModel):
    """One fan (yaku, point component) found in a hand."""

    id: str
    name: str
    name_zh: str
    value: int
    count: int = 1


class Payments(BaseModel):
    """The net change of each seat, summing to 0; a seat that neither pays nor is paid shows 0."""

    E: int
    S: int
    W: int
    N: int


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
    payments: Payments
    decomposition: list[str]
    riichi: dict[str, Any] | None = Field(None, description="Riichi only: han, fu, limit, points")


class BatchRequest(BaseModel):
    """Up to 1000 request objects (MJ_MAX_BATCH), scored in order. Each is checked on its own: one that is not a
    ScoreRequest gets its error object in its place, and the batch still answers 200."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"hands": [SCORE_REQUEST_EXAMPLE, {"rules": "mcr", "hand": "123m+"}, RIICHI_REQUEST_EXAMPLE]}]
        },
    )

    hands: list[Any] = Field(max_length=1000, description="request objects (ScoreRequest); any JSON value is "
                                                          "answered in its place")


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


class AlternativePublic(BaseModel):
    """A next likeliest name of a tile, and its probability."""

    tile: str
    p: float


class DetectionPublic(BaseModel):
    """One tile found in the photo; ``box`` is xyxy in pixels of the upright image. What the detector does not know
    is left out (not null)."""

    tile: str = Field(description="a tile name (1m .. 8f) or back")
    confidence: float
    box: list[float] = Field(min_length=4, max_length=4)
    sideways: bool = False
    alternatives: list[AlternativePublic] | None = Field(
        None, description="the classifier's next likeliest names, down to p = 0.01")
    sideways_p: float | None = Field(None, description="the probability that the tile lies sideways")
    stands: float | None = Field(None, description="the probability that the tile stands on its edge, where the "
                                                   "face network was asked (a hand standing, seen from in front)")

    @model_serializer(mode="wrap")
    def _known(self, handler: SerializerFunctionWrapHandler):  # (unannotated: the schema stays the fields')
        return {k: v for k, v in handler(self).items() if v is not None}


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
