"""The notation: a strict parser whose errors name the column, and a canonical formatter."""

from __future__ import annotations

import random

import pytest

from scorer import Hand, Meld, MeldKind, NotationError, Tile, format_hand, format_tiles, parse_hand, parse_tiles
from scorer.tiles import Suit


def test_runs_share_the_letter() -> None:
    assert parse_tiles("123m") == parse_tiles("1m2m3m")


def test_red_five_equals_five_but_keeps_its_mark() -> None:
    red = Tile.parse("0p")
    assert red == Tile.parse("5p") and red.red and str(red) == "0p"


def test_contract_example() -> None:
    hand = parse_hand("[555z] [1111m] (9999p) 123p789s5s +5s  1f6f")
    assert [m.kind for m in hand.melds] == [MeldKind.PUNG, MeldKind.KONG, MeldKind.KONG]
    assert [m.concealed for m in hand.melds] == [False, False, True]
    assert hand.win_tile == Tile(Suit.SOU, 5)
    assert hand.flowers == (Tile(Suit.FLOWER, 1), Tile(Suit.FLOWER, 6))
    assert len(hand.all_tiles) == 19


def test_spaces_are_optional() -> None:
    spaced = parse_hand("[555z] [1111m] (9999p) 123p789s5s +5s 1f6f")
    assert parse_hand("[555z][1111m](9999p)123p789s5s+5s1f6f") == spaced


def test_flowers_may_stand_anywhere() -> None:
    assert parse_hand("1f123p789s[555z]5s+5s") == parse_hand("[555z]123p789s5s+5s 1f")


@pytest.mark.parametrize(
    ("text", "position", "words"),
    [
        ("123m+", 4, "followed by one tile"),
        ("123x+1m", 3, "unexpected 'x'"),
        ("123+1m", 0, "no suit letter"),
        ("m123+1m", 0, "no digits before it"),
        ("[123m+1m", 5, "not closed"),
        ("[123m", 0, "never closed"),
        ("123m]+1m", 4, "no meld is open"),
        ("[124m]+1m", 0, "is no chow"),
        ("(111m)+1m", 0, "concealed kongs"),
        ("[1f2f3f]+1m", 0, "flower inside"),
        ("123m+1m+2m", 7, "second winning tile"),
        ("123m", 4, "no winning tile"),
        ("", 0, "the hand is empty"),
        ("  ", 2, "the hand is empty"),
        ("123m+1f", 4, "is a flower"),
        ("8z+1m", 0, "no tile 8z"),
        ("0z+1m", 0, "red five"),
        ("123m+12m", 4, "followed by one tile"),
        ("1m" * 200 + "+1m", 256, "a hand is written in at most 256"),
    ],
)
def test_errors_name_the_column(text: str, position: int, words: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_hand(text)
    assert info.value.code == "bad_notation"
    assert info.value.position == position
    assert words in str(info.value)


def test_canonical_format() -> None:
    hand = parse_hand("5s 987s 321p [555z] (9999p) +5s 6f1f")
    assert format_hand(hand) == "[555z] (9999p) 123p5789s +5s 16f"
    assert format_tiles(parse_tiles("5s0s5s1m")) == "1m550s"


def _random_hand(rng: random.Random) -> Hand:
    melds = []
    for _ in range(rng.randint(0, 2)):
        suit = rng.choice([Suit.MAN, Suit.PIN, Suit.SOU])
        start = rng.randint(1, 7)
        melds.append(Meld(MeldKind.CHOW, tuple(Tile(suit, start + k) for k in range(3))))
    if rng.random() < 0.5:
        melds.append(Meld(MeldKind.KONG, (Tile(Suit.HONOR, rng.randint(1, 7)),) * 4, concealed=rng.random() < 0.5))
    tiles = [Tile(s, r, red=(r == 5 and rng.random() < 0.3)) for s in (Suit.MAN, Suit.PIN) for r in range(1, 10)]
    concealed = tuple(rng.sample(tiles, rng.randint(0, 7)))
    flowers = tuple(Tile(Suit.FLOWER, r) for r in rng.sample(range(1, 9), rng.randint(0, 3)))
    return Hand(concealed, tuple(melds), Tile(Suit.SOU, rng.randint(1, 9)), flowers)


def test_parse_of_format_is_identity() -> None:
    rng = random.Random(7)
    for _ in range(500):
        hand = _random_hand(rng)
        again = parse_hand(format_hand(hand))
        assert again == hand
        assert [t.red for t in again.concealed] == [t.red for t in hand.concealed]


def test_quick_reading_agrees_with_the_column_by_column_reader() -> None:
    # parse_hand reads well-formed strings by one pattern and falls back to the precise reader for
    # anything else; on random strings and damaged hands both must give the same parts or the same error
    from scorer import hand as notation

    def precise(text: str) -> object:
        try:
            return notation._read(text)
        except NotationError as exc:
            return str(exc), exc.position

    rng = random.Random(11)
    alphabet = "0123456789mpszf []()+\t"
    for i in range(4000):
        if i % 2:
            text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 30)))
        else:
            text = "[555z] [1111m] (9999p) 123p789s5s +5s 1f6f"
            at = rng.randrange(len(text))
            text = text[:at] + rng.choice(alphabet) + text[at + 1:]
        quick = notation._read_quickly(text) if notation._HAND.fullmatch(text) else None
        assert (quick if quick is not None else precise(text)) == precise(text), text
