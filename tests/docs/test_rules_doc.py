"""docs/RULES.md against the code: its test vectors, examples and citations.

Each block marked ``<!-- test-vector: NAME -->`` in docs/RULES.md is parsed
here and checked against the engine, so the specification cannot drift from
what the program does.
"""

from __future__ import annotations

import datetime
import json
import re
from pathlib import Path

from milligan import Game, Record, game_to_json
from milligan.cards import canonical_deck
from milligan.deal import SplitMix64, deal_order
from milligan.variants import TITLES, Variant

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "RULES.md"
TEXT = RULES.read_text(encoding="utf-8")

#: A marker comment, then the fenced block right after it.
_BLOCK = re.compile(
    r"^<!-- test-vector: (?P<name>[^\n]*?) -->\n```[a-z]*\n(?P<body>.*?)\n```$",
    re.MULTILINE | re.DOTALL,
)
VECTORS: dict[str, str] = {m["name"]: m["body"] for m in _BLOCK.finditer(TEXT)}
KINDS = ("splitmix64", "shuffle ", "order ", "record", "position ", "daily ")


def vectors(prefix: str) -> list[tuple[str, str]]:
    """The vector blocks whose name starts with ``prefix``: (rest of the name, body)."""
    found = [
        (name[len(prefix) :].strip(), body)
        for name, body in VECTORS.items()
        if name.startswith(prefix)
    ]
    assert found, f"docs/RULES.md has no test vector named {prefix!r}"
    return found


def test_every_vector_block_is_read() -> None:
    assert len(VECTORS) == TEXT.count("<!-- test-vector:"), "a marker without its block"
    for name in VECTORS:
        assert name.startswith(KINDS), f"no test reads the vector {name!r}"


def test_splitmix64_outputs() -> None:
    ((_, body),) = vectors("splitmix64")
    lines = body.splitlines()
    assert len(lines) >= 3
    for line in lines:
        seed_text, outputs = line.split(":")
        seed = int(seed_text.removeprefix("seed"))
        expected = [int(word, 16) for word in outputs.split()]
        generator = SplitMix64(seed)
        assert [generator.next() for _ in expected] == expected, f"seed {seed}"


def test_shuffle_steps() -> None:
    """Replay the documented Fisher–Yates steps by hand, from the canonical deck."""
    for name, body in vectors("shuffle "):
        variant_id, number_text = name.split()
        variant = Variant.named(variant_id)
        generator = SplitMix64(int(number_text))
        cards = list(canonical_deck(variant.decks))
        i = len(cards) - 1
        for line in body.splitlines():
            fields = dict(part.split("=") for part in line.split())
            assert int(fields["i"]) == i
            output = generator.next()
            assert output == int(fields["next"], 16), line
            j = output % (i + 1)
            assert j == int(fields["j"]), line
            cards[i], cards[j] = cards[j], cards[i]
            i -= 1
        # Finish the shuffle the same way: it must give the engine's order.
        while i > 0:
            j = generator.next() % (i + 1)
            cards[i], cards[j] = cards[j], cards[i]
            i -= 1
        assert tuple(cards) == deal_order(variant, int(number_text))


def test_dealing_orders() -> None:
    for name, body in vectors("order "):
        variant_id, number_text = name.split()
        variant = Variant.named(variant_id)
        order = [str(card) for card in deal_order(variant, int(number_text))]
        rows = [line.split() for line in body.splitlines()]
        assert all(len(row) == variant.columns for row in rows[:-1]), name
        written = [card for row in rows for card in row]
        assert written == order[: len(written)], name
        # The first row is the opening layout's top cards in a one-row variant.
        if variant.opening_rows == 1:
            game = Game.new(variant, int(number_text))
            assert [str(column[-1]) for column in game.position.columns] == rows[0]


def test_one_full_order_of_each_deck_size() -> None:
    sizes = set()
    for name, body in vectors("order "):
        variant = Variant.named(name.split()[0])
        if len(body.split()) == variant.deck_size:
            sizes.add(variant.decks)
    assert sizes == {1, 2}


def test_daily_candidates() -> None:
    """§10: ``DATE/VARIANT/K seed=HEX deal=N``, the SHA-256 seed and SplitMix64's first output."""
    import hashlib

    from milligan.daily import candidate

    ((_, body),) = vectors("daily candidates")
    for line in body.splitlines():
        text, seed_field, deal_field = line.split()
        seed = int.from_bytes(hashlib.sha256(text.encode("ascii")).digest()[:8], "big")
        assert seed == int(seed_field.removeprefix("seed="), 16), line
        day, variant_id, k = text.split("/")
        number = int(deal_field.removeprefix("deal="))
        assert candidate(datetime.date.fromisoformat(day), variant_id, int(k)) == number, line


def test_daily_deals_match_the_shipped_data() -> None:
    """§10: ``DATE VARIANT k=K DEAL``, the K-th candidate and the shipped number."""
    from milligan.daily import candidate, shipped

    ((_, body),) = vectors("daily deals")
    lines = body.splitlines()
    assert len(lines) == 35  # a week of each of the five presets
    for line in lines:
        day, variant_id, k_field, number_text = line.split()
        number = int(number_text)
        assert shipped()[variant_id][day] == number, line
        k = int(k_field.removeprefix("k="))
        assert candidate(datetime.date.fromisoformat(day), variant_id, k) == number, line


def test_record_example_replays() -> None:
    ((_, body),) = vectors("record")
    data = json.loads(body)
    record = Record.from_dict(data)
    assert record.to_dict() == data
    game = record.replay()
    assert len(game.position.stock) == 88  # as the text under the example says
    assert game.position.reprieve is None


def test_position_examples() -> None:
    """``position VARIANT NUMBER: MOVES``: the JSON after those moves, key for key."""
    for name, body in vectors("position "):
        deal, _, moves = name.partition(":")
        variant_id, number_text = deal.split()
        game = Game.new(variant_id, int(number_text))
        for move in moves.split():
            game.play(move)
        assert game_to_json(game) == json.loads(body), name


def test_presets_table_matches_the_code() -> None:
    table = TEXT.split("### 2.2 The five presets", 1)[1].split("\n\n", 2)[1]
    rows = [line.split("|")[1:-1] for line in table.splitlines()[2:]]
    ids = []
    for cells in rows:
        ident, title, decks, columns, _, stock, reprieve = (cell.strip() for cell in cells)
        variant = Variant.named(ident.strip("`"))
        ids.append(variant.name)
        assert title == TITLES[ident.strip("`")], ident
        assert int(decks) == variant.decks and int(columns) == variant.columns, ident
        assert stock.startswith(f"{variant.stock_size} cards"), ident
        assert reprieve.strip("`") == variant.reprieve, ident
    assert sorted(ids) == sorted(("classic", "spanish", "improved", "one-deck", "strict"))


def test_section_numbers_cited_elsewhere_exist() -> None:
    headings = set(re.findall(r"^##+ (\d+(?:\.\d+)?)\.? ", TEXT, re.MULTILINE))
    for path in _published_files():
        if path.suffix not in (".py", ".md", ".pyx"):
            continue
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r"RULES\.md §(\d+(?:\.\d+)?)", text):
            assert match[1] in headings, f"{path.relative_to(ROOT)} cites a missing {match[0]}"


def test_links_to_rules_sections_resolve() -> None:
    anchors = {_anchor(h) for h in re.findall(r"^#+ (.+)$", TEXT, re.MULTILINE)}
    for path in _published_files():
        if path.suffix != ".md":
            continue
        for anchor in re.findall(r"RULES\.md#([\w-]+)", path.read_text(encoding="utf-8")):
            assert anchor in anchors, f"{path.relative_to(ROOT)} links to a missing #{anchor}"


def test_nothing_points_outside_the_repository() -> None:
    """Users only get the repository: no citation of the maintainers' shared files."""
    for path in _published_files():
        data = path.read_bytes()
        for needle in (b"../shared", b"shared/RULES"):
            assert needle not in data, f"{path.relative_to(ROOT)} mentions {needle.decode()}"


def _published_files() -> list[Path]:
    """README.md, CONTRIBUTING.md and every file under docs/ and src/ (no build products)."""
    files = [ROOT / "README.md", ROOT / "CONTRIBUTING.md"]
    for folder in ("docs", "src"):
        files += [
            path
            for path in (ROOT / folder).rglob("*")
            if path.is_file()
            and "__pycache__" not in path.parts
            and path.suffix not in (".so", ".c", ".pyc")
            and ".egg-info" not in str(path)
        ]
    return files


def _anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as '-'."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
