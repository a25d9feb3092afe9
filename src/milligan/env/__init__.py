"""A Gymnasium environment for Miss Milligan (``pip install .[research]``).

Importing this module registers one environment id per preset,
``milligan/Classic-v0``, ``milligan/Spanish-v0``, ``milligan/Improved-v0``,
``milligan/OneDeck-v0`` and ``milligan/Strict-v0``, plus ``milligan/Milligan-v0``
that takes ``variant=`` (a preset name or a dict of docs/RULES.md §2 settings).
Gymnasium 1.x loads no plugins by itself: import this module first, or name it
in the id, ``gymnasium.make("milligan.env:milligan/Classic-v0")``.

>>> import gymnasium
>>> import milligan.env
>>> env = gymnasium.make("milligan/OneDeck-v0")
>>> observation, info = env.reset(seed=1)
>>> info["deal"], int(info["action_mask"].sum())
(4720721261117928063, 2)
>>> [str(milligan.env.action_to_move("one-deck", a)) for a in info["action_mask"].nonzero()[0]]
['1>F', 'D']

The layout of actions and observations is in :mod:`milligan.env.layout`;
docs/RESEARCH.md explains the choices.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from milligan.cards import Card
from milligan.env.layout import (
    CODES,
    FACE_DOWN,
    KEYS,
    Actions,
    action_to_move,
    as_variant,
    move_to_action,
    observation_text,
    shapes,
    stock_rows,
)
from milligan.moves import Move, MoveKind
from milligan.position import LegalMoves, Position
from milligan.record import Record
from milligan.variants import Variant

__all__ = [
    "ENV_IDS",
    "MilliganEnv",
    "action_to_move",
    "move_to_action",
    "status",
]

#: The registered ids, by preset.
ENV_IDS = {
    "classic": "milligan/Classic-v0",
    "spanish": "milligan/Spanish-v0",
    "improved": "milligan/Improved-v0",
    "one-deck": "milligan/OneDeck-v0",
    "strict": "milligan/Strict-v0",
}
#: Seeded resets draw deal numbers below this (explicit ones go to 2**64 - 1).
SEEDED_DEALS = 2**63
#: The step limit the registered ids put on an episode (Gymnasium's TimeLimit).
MAX_EPISODE_STEPS = 2000

ObsType = dict[str, np.ndarray]


def status(position: Position, legal: LegalMoves, *, dead_ends: bool = True) -> str:
    """``won``, ``lost`` (a dead end, docs/RULES.md §6), ``stuck`` (no legal move) or ``playing``.

    ``legal`` is the position's legal moves, already computed: most positions
    are settled from them without the dead-end search.  With ``dead_ends``
    false the search is skipped: a dead end with moves left stays ``playing``.
    """
    if position.is_won():
        return "won"
    if position.stock or position.reprieve is not None:
        # With a stock and no reprieve, D is legal: no move means a stuck reprieve.
        return "playing" if legal else "stuck"
    if not dead_ends:
        return "playing" if legal else "lost"
    opens = position.variant.has_reprieve
    columns = position.columns
    for move in legal:
        if move.kind is MoveKind.FOUNDATION:
            return "playing"
        if opens and move.count == len(columns[move.source - 1]) and columns[move.target - 1]:
            return "playing"  # it empties its column: a reprieve opens
    return "lost" if _dead_end(position) else "playing"


@functools.lru_cache(maxsize=4096)
def _dead_end(position: Position) -> bool:
    # Cached: an endgame that shuffles runs back and forth (a search even
    # more so) meets the same positions again and again.
    return position.dead_end() is True


class MilliganEnv(gymnasium.Env[ObsType, np.int64]):
    """One game of a Miss Milligan variant per episode, seen as the player sees it.

    - ``variant``: a preset name, a dict of settings or a :class:`Variant`.
    - ``shaping``: when true, each step also earns the cards it sent to the
      foundations divided by the deck size (a whole won game: +1 more).
    - ``illegal_reward``: what an illegal action earns; it changes nothing
      else (the position stays, ``info["illegal"]`` is true).
    - ``dead_ends``: when false, skip the dead-end search (RULES.md §6) that
      ends a lost game once the stock is empty; a lost game then runs on
      (shuffling runs) until the step limit.  Faster, chiefly in ``spanish``.

    ``reset(seed=...)`` deals a deal number drawn from the environment's
    random generator (below 2**63); ``reset(options={"deal": n})`` deals number ``n`` and
    ``options={"order": [...]}`` an explicit dealing order (cards or their
    text).  ``info`` holds ``action_mask`` (``int8``, 1 for each legal
    action, all 0 once the game is over), ``deal`` (None for an order),
    ``status`` and ``illegal``.
    An episode ends (``terminated``) when the game is won, a dead end, or
    has no legal move (a reprieve that cannot settle and has nothing left to
    move); the registered ids truncate it at 2,000 steps.
    """

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 (Gymnasium's own attribute)

    def __init__(
        self,
        variant: Variant | str | Mapping[str, Any] = "classic",
        *,
        shaping: bool = False,
        illegal_reward: float = 0.0,
        dead_ends: bool = True,
        render_mode: str | None = None,
    ) -> None:
        self.variant = as_variant(variant)
        self.actions = Actions.of(self.variant)
        self.shaping = shaping
        self.illegal_reward = illegal_reward
        self.dead_ends = dead_ends
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(self.actions.size)
        observation_space = spaces.Dict(
            {
                key: spaces.Box(0, high, shape, np.int8)
                for key, (shape, high) in shapes(self.variant).items()
            }
        )
        assert tuple(observation_space.spaces) == KEYS
        self.observation_space = observation_space  # type: ignore[assignment]
        self.deal: int | None = None
        self.order: tuple[Card, ...] = ()
        self.position = Position.deal(self.variant, 0)
        self.moves: list[Move] = []
        self._legal = self.position.legal_moves()
        self._mask = self.actions.mask(self._legal)
        self._status = "playing"
        self._rows: list[tuple[tuple[Card, ...], int, np.ndarray] | None] = [None] * (
            self.variant.columns
        )

    # -- the Gymnasium interface ----------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        """Deal a new game: a deal number from the generator, or the one ``options`` names."""
        super().reset(seed=seed)
        options = options or {}
        if options.get("order") is not None:
            order = [Card.parse(c) if isinstance(c, str) else c for c in options["order"]]
            self.deal = None
            self.position = Position.from_order(self.variant, order)
            self.order = tuple(order)
        else:
            deal = options.get("deal")
            if deal is None:
                # Below 2**63, so that vector environments can batch it as int64.
                deal = int(self.np_random.integers(0, SEEDED_DEALS))
            self.deal = int(deal)
            self.position = Position.deal(self.variant, self.deal)
            self.order = ()
        self.moves = []
        self._update()
        return self._observation(), self._info(illegal=False)

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play the action's move; an illegal one leaves the game as it was."""
        index = int(action)
        if not 0 <= index < self.actions.size or not self._mask[index]:
            done = self._status != "playing"
            return self._observation(), self.illegal_reward, done, False, self._info(illegal=True)
        before = self.position
        move = self.actions.moves[index]
        self.position = before.apply(move)
        self.moves.append(move)
        self._update()
        reward = 1.0 if self._status == "won" else 0.0
        if self.shaping and move.kind is MoveKind.FOUNDATION:
            reward += 1.0 / self.variant.deck_size
        terminated = self._status != "playing"
        return self._observation(), reward, terminated, False, self._info(illegal=False)

    def render(self) -> str | None:
        """The table as one line of text (``render_mode="ansi"``)."""
        if self.render_mode != "ansi":
            return None
        return observation_text(self.position.observe())

    # -- beyond Gymnasium -------------------------------------------------

    @property
    def legal_moves(self) -> LegalMoves:
        """The current position's legal moves (what the mask marks; none once the game is over)."""
        return self._legal

    def record(self) -> Record:
        """The episode so far as a game record (``milligan-record/1``)."""
        order = None if self.deal is not None else self.order
        return Record(self.variant, self.deal, order, tuple(self.moves))

    def _update(self) -> None:
        self._legal = self.position.legal_moves()
        self._status = status(self.position, self._legal, dead_ends=self.dead_ends)
        if self._status != "playing":
            self._legal = LegalMoves(())  # the game is over: nothing more to play
        self._mask = self.actions.mask(self._legal)

    def _observation(self) -> ObsType:
        """:func:`layout.encode` of ``position.observe()``, reusing unchanged columns.

        A move changes one or two columns; the codes of the others are kept
        from the last step (a test checks it against ``encode``).
        """
        position = self.position
        variant = self.variant
        n, height = variant.columns, variant.deck_size
        columns = np.zeros((n, height), np.int8)
        face_down = np.array(position.face_down, np.int8)
        rows = self._rows
        for c, cards in enumerate(position.columns):
            down = position.face_down[c]
            kept = rows[c]
            if kept is None or kept[0] is not cards or kept[1] != down:
                codes = [FACE_DOWN if i < down else CODES[card] for i, card in enumerate(cards)]
                kept = rows[c] = (cards, down, np.array(codes, np.int8))
            columns[c, : len(cards)] = kept[2]
        moved = np.zeros((n, height), np.int8)
        for column, index in position.moved:
            moved[column - 1, index] = 1
        return {
            "columns": columns,
            "face_down": face_down,
            "foundations": np.array(position.foundations, np.int8),
            "moved": moved,
            "reprieve": np.array([position.reprieve or 0], np.int8),
            "stock_rows": np.array([stock_rows(variant, len(position.stock))], np.int8),
        }

    def _info(self, *, illegal: bool) -> dict[str, Any]:
        return {
            "action_mask": self._mask.copy(),
            "deal": self.deal,
            "status": self._status,
            "illegal": illegal,
        }


def _register() -> None:
    for name, env_id in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                env_id,
                entry_point="milligan.env:MilliganEnv",
                kwargs={"variant": name},
                max_episode_steps=MAX_EPISODE_STEPS,
            )
    if "milligan/Milligan-v0" not in gymnasium.registry:
        gymnasium.register(
            "milligan/Milligan-v0",
            entry_point="milligan.env:MilliganEnv",
            max_episode_steps=MAX_EPISODE_STEPS,
        )


_register()
