"""Cards (§1), variants (§2) and deal numbers (§3) of docs/RULES.md."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from milligan import Game, InvalidDealError, InvalidMoveError, InvalidVariantError, Variant
from milligan.cards import SUIT_SYMBOLS, Card, Rank, Suit, canonical_deck
from milligan.deal import SplitMix64, deal_order
from milligan.position import Position
from milligan.variants import PRESETS

# Deal-number test vectors (SplitMix64 outputs, whole dealing orders) for
# docs/RULES.md §3; §3.5 there prints some of them.
VECTORS = json.loads((Path(__file__).parent / "deals.json").read_text())


@pytest.mark.parametrize(
    "text, expected",
    [
        ("AS", "AS"),
        ("TH", "TH"),
        ("10H", "TH"),
        ("10h", "TH"),
        ("qc", "QC"),
        ("K♠", "KS"),
        ("2♦", "2D"),
        ("j♥", "JH"),
        ("a♣", "AC"),
        (" 7d ", "7D"),
    ],
)
def test_card_text_forms(text: str, expected: str) -> None:
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize("text", ["", "A", "1S", "11H", "ZS", "AX", "10", "AS?"])
def test_bad_card_text(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        Card.parse(text)


@pytest.mark.parametrize(
    "text, char",
    [
        ("Aſ", "U+017F"),  # long s: "ſ".upper() == "S"
        ("\u212aS", "U+212A"),  # Kelvin sign: its lower() is "k"
        ("ıS", "U+0131"),  # dotless i: upper() is "I"
        ("１0H", "U+FF11"),  # fullwidth 1
        ("٥H", "U+0665"),  # Arabic-Indic 5
        ("\u00a0AS", "U+00A0"),  # no-break space
        ("A♠\ufe0f", "U+FE0F"),  # emoji variation selector
        ("Aﬆ", "U+FB06"),  # the "st" ligature
    ],
)
def test_cards_take_no_look_alikes(text: str, char: str) -> None:
    with pytest.raises(InvalidMoveError, match=re.escape(char)):
        Card.parse(text)


@given(
    st.text(min_size=1, max_size=4).filter(
        lambda t: any(not c.isascii() and c not in SUIT_SYMBOLS for c in t)
    )
)
def test_no_other_text_outside_ascii_is_a_card(text: str) -> None:
    with pytest.raises(InvalidMoveError, match="is not allowed"):
        Card.parse(text)


def test_colours_and_building() -> None:
    nine_h, ten_s, ten_d = Card.parse("9H"), Card.parse("TS"), Card.parse("TD")
    assert nine_h.is_red and not ten_s.is_red
    assert nine_h.can_go_on(ten_s) and not nine_h.can_go_on(ten_d)
    assert Card.parse("QC").can_go_on(Card.parse("KH"))
    assert not Card.parse("KC").can_go_on(Card.parse("QH"))


def test_canonical_deck_order() -> None:
    deck = canonical_deck(2)
    assert len(deck) == 104
    assert [str(c) for c in deck[:3]] == ["AC", "2C", "3C"]
    assert str(deck[13]) == "AD" and str(deck[51]) == "KS" and deck[52:] == deck[:52]
    assert deck[0] == Card(Rank.ACE, Suit.CLUBS)


def test_presets_are_the_table_of_rules() -> None:
    assert {
        name: (v.decks, v.columns, v.opening_rows, v.face_down_rows, v.reprieve, v.stock_size)
        for name, v in PRESETS.items()
    } == {
        "classic": (2, 8, 1, 0, "free", 96),
        "spanish": (2, 8, 1, 0, "none", 96),
        "improved": (2, 8, 3, 2, "free", 80),
        "one-deck": (1, 4, 1, 0, "free", 48),
        "strict": (2, 8, 1, 0, "strict", 96),
    }
    for name, variant in PRESETS.items():
        assert variant.name == name
        assert Variant.from_json(variant.to_json()) == variant


def test_the_rows_a_stock_deals() -> None:
    assert {name: v.stock_rows() for name, v in PRESETS.items()} == {
        "classic": 12,
        "spanish": 12,
        "improved": 10,
        "one-deck": 12,
        "strict": 12,
    }
    classic = Variant.named("classic")
    assert [classic.stock_rows(cards) for cards in (0, 1, 8, 9, 96)] == [0, 1, 1, 2, 12]
    # a custom deal whose last row is short: 52 - 6 = 46 cards in rows of 6
    assert Variant(decks=1, columns=6).stock_rows() == 8


def test_other_combinations_are_data() -> None:
    custom = Variant(decks=1, columns=6, opening_rows=2, face_down_rows=1, reprieve="strict")
    assert custom.name is None
    assert custom.to_json() == {
        "decks": 1,
        "columns": 6,
        "opening_rows": 2,
        "face_down_rows": 1,
        "reprieve": "strict",
    }
    assert Variant.from_json(custom.to_json()) == custom
    assert hash(custom) == hash(Variant.from_json(custom.to_json()))
    game = Game.new(custom, 7)
    assert [len(c) for c in game.position.columns] == [2] * 6
    assert game.position.face_down == (1,) * 6
    assert len(game.position.stock) == 40


@pytest.mark.parametrize(
    "settings",
    [
        {"decks": 3},
        {"columns": 0},
        {"columns": 14},
        {"opening_rows": 0},
        {"face_down_rows": 1},
        {"opening_rows": 7, "columns": 13, "decks": 1},
        {"reprieve": "sometimes"},
        {"decks": "2"},
        {"colour": "red"},
    ],
)
def test_impossible_variants(settings: dict[str, object]) -> None:
    with pytest.raises(InvalidVariantError):
        Variant.from_json(settings)


def test_variant_key_is_the_one_text_form() -> None:
    for name, variant in PRESETS.items():
        assert variant.key == name
        assert Variant.from_key(name) is variant
    custom = Variant(decks=1, columns=6, opening_rows=2, face_down_rows=1, reprieve="strict")
    assert custom.key == (
        '{"columns":6,"decks":1,"face_down_rows":1,"opening_rows":2,"reprieve":"strict"}'
    )
    assert Variant.from_key(custom.key) == custom
    # Settings that happen to be a preset's are keyed by the preset's name.
    assert Variant(reprieve="none").key == "spanish"


def test_variant_key_reads_older_spellings() -> None:
    # Saved games stored json.dumps(..., sort_keys=True), with spaces, before the key.
    custom = Variant(columns=7)
    spaced = json.dumps(custom.to_json(), sort_keys=True)
    assert spaced != custom.key
    assert Variant.from_key(spaced) == custom
    assert Variant.from_key(json.dumps({"reprieve": "none"})) == PRESETS["spanish"]
    assert Variant.from_key(" One-Deck ") == PRESETS["one-deck"]


@pytest.mark.parametrize(
    "text", ["freecell", "{", '{"decks": 3}', '{"colour": "red"}', "", '{"columns": 14}']
)
def test_bad_variant_keys(text: str) -> None:
    with pytest.raises(InvalidVariantError):
        Variant.from_key(text)


def test_variant_titles() -> None:
    assert {name: variant.title for name, variant in PRESETS.items()} == {
        "classic": "Miss Milligan",
        "spanish": "Spanish Patience",
        "improved": "Improved Miss Milligan",
        "one-deck": "One-deck Milligan",
        "strict": "Strict Milligan",
    }
    assert Variant(columns=7).title == "Custom Milligan"


def test_unknown_variant_name() -> None:
    with pytest.raises(InvalidVariantError, match="unknown variant 'freecell'"):
        Variant.named("freecell")


def test_splitmix64_vectors() -> None:
    assert SplitMix64(0).next() == 0xE220A8397B1DCDAF
    for seed, outputs in VECTORS["splitmix64"].items():
        rng = SplitMix64(int(seed))
        assert [rng.next() for _ in outputs] == outputs


@pytest.mark.parametrize("vector", VECTORS["deals"], ids=lambda v: f"{v['variant']}-{v['number']}")
def test_dealing_order_vectors(vector: dict[str, object]) -> None:
    variant = Variant.named(str(vector["variant"]))
    order = deal_order(variant, int(str(vector["number"])))
    assert [str(card) for card in order] == vector["order"]


def test_deal_42_opens_as_the_rules_say() -> None:
    position = Position.deal(Variant.named("classic"), 42)
    assert " ".join(str(c[-1]) for c in position.columns) == "QD 6C 9C 5H AD TD 8S 4H"


@pytest.mark.parametrize("number", [0, 1, 2**32, 2**63, 2**64 - 1])
def test_every_number_deals_a_full_deck(number: int) -> None:
    for variant in PRESETS.values():
        order = deal_order(variant, number)
        assert sorted(order, key=str) == sorted(canonical_deck(variant.decks), key=str)


@pytest.mark.parametrize("number", [-1, 2**64, 1.5, "3", True, None])
def test_deal_numbers_out_of_range(number: object) -> None:
    with pytest.raises(InvalidDealError):
        deal_order(PRESETS["classic"], number)  # type: ignore[arg-type]


def test_explicit_orders() -> None:
    variant = PRESETS["one-deck"]
    order = tuple(reversed(canonical_deck(1)))
    game = Game.from_order(variant, order)
    assert game.deal is None and game.order == order
    assert [str(c[-1]) for c in game.position.columns] == ["KS", "QS", "JS", "TS"]
    with pytest.raises(InvalidDealError):
        Game.from_order(variant, order[:-1])
    with pytest.raises(InvalidDealError):
        Game.from_order(variant, order[:-1] + (order[0],))
