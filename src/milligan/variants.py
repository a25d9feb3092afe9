"""Variants as data: one immutable settings object and five presets (docs/RULES.md §2).

>>> Variant.named("one-deck").columns
4
>>> Variant.named("classic").replace(reprieve="strict") == Variant.named("strict")
True
>>> Variant(decks=2, columns=8, opening_rows=1, face_down_rows=0, reprieve="none").name
'spanish'

A variant is written as text by its :attr:`~Variant.key` (the preset name, or
its settings as compact JSON with sorted keys) and read back by
:meth:`Variant.from_key`; saved games and survey results store that key.

>>> Variant(columns=7).key
'{"columns":7,"decks":2,"face_down_rows":0,"opening_rows":1,"reprieve":"free"}'
>>> Variant.from_key(Variant(columns=7).key).title
'Custom Milligan'
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, cast

from milligan.errors import InvalidVariantError

ReprieveRule = Literal["free", "strict", "none"]
REPRIEVE_RULES: tuple[ReprieveRule, ...] = ("free", "strict", "none")
SETTINGS = ("decks", "columns", "opening_rows", "face_down_rows", "reprieve")


@dataclass(frozen=True, slots=True)
class Variant:
    """The settings of a game.  Every combination that fits the deck is playable."""

    decks: int = 2
    columns: int = 8
    opening_rows: int = 1
    face_down_rows: int = 0
    reprieve: ReprieveRule = "free"

    def __post_init__(self) -> None:
        def bad(why: str) -> InvalidVariantError:
            return InvalidVariantError(f"impossible variant settings: {why}")

        for field in ("decks", "columns", "opening_rows", "face_down_rows"):
            value = getattr(self, field)
            if not isinstance(value, int) or isinstance(value, bool):
                raise bad(f"{field} must be a whole number, not {value!r}")
        if self.decks not in (1, 2):
            raise bad(f"decks must be 1 or 2, not {self.decks}")
        if not 1 <= self.columns <= 13:
            raise bad(f"columns must be from 1 to 13, not {self.columns}")
        if self.opening_rows < 1:
            raise bad(f"opening_rows must be at least 1, not {self.opening_rows}")
        if not 0 <= self.face_down_rows < self.opening_rows:
            raise bad("face_down_rows must be at least 0 and fewer than opening_rows")
        if self.opening_rows * self.columns > self.deck_size:
            raise bad(
                f"{self.opening_rows} rows of {self.columns} do not fit in {self.deck_size} cards"
            )
        if self.reprieve not in REPRIEVE_RULES:
            raise bad(f"reprieve must be free, strict or none, not {self.reprieve!r}")

    @property
    def deck_size(self) -> int:
        """52 cards per deck."""
        return 52 * self.decks

    @property
    def foundation_count(self) -> int:
        """One foundation per suit per deck."""
        return 4 * self.decks

    @property
    def stock_size(self) -> int:
        """The cards left after the opening rows."""
        return self.deck_size - self.opening_rows * self.columns

    def stock_rows(self, cards: int | None = None) -> int:
        """The rows a stock of ``cards`` cards deals, a short last row counting as one.

        Without ``cards``, the rows of the whole stock at the start of a game.
        """
        return -(-(self.stock_size if cards is None else cards) // self.columns)

    @property
    def has_reprieve(self) -> bool:
        """False when reprieves never open (``spanish``)."""
        return self.reprieve != "none"

    @property
    def name(self) -> str | None:
        """The preset's id when these settings are a named variant, else None."""
        for name, preset in PRESETS.items():
            if preset == self:
                return name
        return None

    @property
    def key(self) -> str:
        """The variant as text: its preset's id, else its settings as compact JSON, keys sorted.

        The one text form stored by saved games and survey results; equal
        variants always have equal keys.
        """
        value = self.to_json()
        if isinstance(value, str):
            return value
        return json.dumps(value, sort_keys=True, separators=(",", ":"))

    @property
    def title(self) -> str:
        """The display name: the preset's (``Miss Milligan``...), else ``Custom Milligan``."""
        name = self.name
        return TITLES[name] if name is not None else CUSTOM_TITLE

    def replace(self, **changes: Any) -> Variant:
        """A copy with some settings changed."""
        return dataclasses.replace(self, **changes)

    def to_json(self) -> str | dict[str, Any]:
        """The preset name, or an object of the settings when there is none."""
        name = self.name
        if name is not None:
            return name
        return {field: getattr(self, field) for field in SETTINGS}

    @classmethod
    def named(cls, name: str) -> Variant:
        """A preset by id: ``classic``, ``spanish``, ``improved``, ``one-deck``, ``strict``."""
        try:
            return PRESETS[name.strip().lower()]
        except (KeyError, AttributeError):
            known = ", ".join(PRESETS)
            raise InvalidVariantError(f"unknown variant {name!r} (known: {known})") from None

    @classmethod
    def from_json(cls, value: object) -> Variant:
        """Read a preset name or an object of settings (missing ones as ``classic``)."""
        if isinstance(value, str):
            return cls.named(value)
        if isinstance(value, Mapping):
            unknown = set(value) - set(SETTINGS)
            if unknown:
                raise InvalidVariantError(f"unknown variant settings: {', '.join(sorted(unknown))}")
            return cls(**cast(dict[str, Any], dict(value)))
        raise InvalidVariantError(f"a variant is a name or an object of settings, not {value!r}")

    @classmethod
    def from_key(cls, text: str) -> Variant:
        """The variant of a :attr:`key`: a preset id, or settings as a JSON object.

        Any JSON spacing and key order is read, so a key written before the
        form was fixed still reads (``{"columns": 7}`` as well as ``{"columns":7}``).
        Raises :class:`InvalidVariantError` for anything else.

        >>> Variant.from_key('{"reprieve": "none"}') == Variant.named("spanish")
        True
        """
        if not isinstance(text, str):
            raise InvalidVariantError(f"a variant key is text, not {text!r}")
        if not text.lstrip().startswith("{"):
            return cls.named(text)
        try:
            value = json.loads(text)
        except ValueError:
            raise InvalidVariantError(f"unreadable variant settings {text!r}") from None
        return cls.from_json(value)

    def __str__(self) -> str:
        name = self.name
        if name is not None:
            return name
        return ", ".join(f"{field}={getattr(self, field)}" for field in SETTINGS)


PRESETS: dict[str, Variant] = {
    "classic": Variant(),
    "spanish": Variant(reprieve="none"),
    "improved": Variant(opening_rows=3, face_down_rows=2),
    "one-deck": Variant(decks=1, columns=4),
    "strict": Variant(reprieve="strict"),
}

#: The display name of settings that are not a preset.
CUSTOM_TITLE = "Custom Milligan"

#: Display names of the presets.
TITLES: dict[str, str] = {
    "classic": "Miss Milligan",
    "spanish": "Spanish Patience",
    "improved": "Improved Miss Milligan",
    "one-deck": "One-deck Milligan",
    "strict": "Strict Milligan",
}
