"""Miss Milligan as an OpenSpiel game, ``python_milligan`` (``pip install .[research]``).

Importing this module registers the game with OpenSpiel::

    import pyspiel
    import milligan.openspiel_game  # registers "python_milligan"

    game = pyspiel.load_game("python_milligan", {"variant": "one-deck"})

Parameters: ``variant``, a preset name or docs/RULES.md §2 settings written
``name:value`` and joined by ``;`` (``"decks:1;columns:6;reprieve:strict"``;
the others as in ``classic``: OpenSpiel's game strings take no commas), and
``max_moves``, the player
moves after which an unfinished game ends with return 0 (OpenSpiel needs a
bounded game; default 1,000).

One player and chance.  The shuffle is the first ``deck size`` moves, all
chance: each deals the next card of the dealing order, its outcomes the
card identities still in the pack (probability: copies left over cards
left).  After that the player moves, with the Gymnasium environment's action
numbers (:mod:`milligan.env.layout`); the return is 1 for a win, else 0.
Information states are the player's whole view: the cards they saw turn up,
in order, and their moves.  The observation tensor is the Gymnasium
observation flattened.  :meth:`MilliganState.resample_from_infostate` shuffles
the unseen cards (stock and face-down) and replays the moves, so OpenSpiel's
IS-MCTS bot can play.  docs/RESEARCH.md says why the shuffle is dealt this way.

>>> import pyspiel
>>> game = pyspiel.load_game("python_milligan", {"variant": "one-deck"})
>>> state = deal_state(game, 1)
>>> [state.action_to_string(a) for a in state.legal_actions()]
['4>2', 'D']
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from milligan.cards import CARDS, Card
from milligan.deal import deal_order
from milligan.env import status
from milligan.env.layout import (
    KEYS,
    Actions,
    as_variant,
    encode,
    observation_size,
    observation_text,
    shapes,
)
from milligan.moves import MoveKind
from milligan.position import LegalMoves, Position
from milligan.variants import Variant

__all__ = ["GAME_TYPE", "MilliganGame", "MilliganState", "deal_state"]

#: Chance outcomes are card identities: ``13 * suit + rank - 1``.
CARD_OF_OUTCOME: tuple[Card, ...] = tuple(card for cards in CARDS for card in cards)
OUTCOME_OF_CARD: dict[Card, int] = {card: i for i, card in enumerate(CARD_OF_OUTCOME)}
DEFAULT_MAX_MOVES = 1000
NO_MOVES = LegalMoves(())

GAME_TYPE = pyspiel.GameType(
    short_name="python_milligan",
    long_name="Python Miss Milligan",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=1,
    min_num_players=1,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"variant": "classic", "max_moves": DEFAULT_MAX_MOVES},
)


@functools.cache
def _variant(text: str) -> Variant:
    """A preset name, or settings as ``decks:1;columns:6;reprieve:strict``."""
    if ":" not in text:
        return as_variant(text)
    settings: dict[str, Any] = {}
    for item in text.split(";"):
        name, _, value = item.partition(":")
        name, value = name.strip(), value.strip()
        settings[name] = int(value) if value.isdigit() else value
    return as_variant(settings)


class MilliganGame(pyspiel.Game):  # type: ignore[misc]
    """The game object: a variant and a move limit."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        variant = _variant(str(params.get("variant", "classic")))
        max_moves = int(params.get("max_moves", DEFAULT_MAX_MOVES))
        if max_moves < 1:
            raise ValueError(f"max_moves must be at least 1, not {max_moves}")
        info = pyspiel.GameInfo(
            num_distinct_actions=Actions.of(variant).size,
            max_chance_outcomes=len(CARD_OF_OUTCOME),
            num_players=1,
            min_utility=0.0,
            max_utility=1.0,
            max_game_length=max_moves,
        )
        super().__init__(GAME_TYPE, info, params)

    # OpenSpiel may rebuild a game object without calling __init__ (a copy
    # made in C++), so the settings are read from its parameters each time.

    @property
    def variant(self) -> Variant:
        """The variant the game was loaded with."""
        return _variant(str(self.get_parameters()["variant"]))

    @property
    def max_moves(self) -> int:
        """The player moves after which an unfinished game ends."""
        return int(self.get_parameters()["max_moves"])

    def new_initial_state(self) -> MilliganState:
        """The state before the shuffle: chance deals every card first."""
        return MilliganState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> MilliganObserver:
        """The observer of observations (default) or information states (perfect recall)."""
        if params:
            raise ValueError(f"python_milligan observers take no parameters, got {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return MilliganObserver(self.variant, perfect_recall)


@dataclass(frozen=True, slots=True)
class _Now:
    """Everything a state holds, immutable: OpenSpiel's clone (a deep copy) shares it."""

    variant: Variant
    actions: Actions
    max_moves: int
    order: tuple[Card, ...] = ()
    counts: tuple[int, ...] = ()
    position: Position | None = None
    legal: LegalMoves = NO_MOVES
    status: str = "playing"
    played: tuple[int, ...] = ()
    #: What the player has seen: cards turned up, in order, and their moves.
    seen: tuple[str, ...] = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> _Now:
        return self


class MilliganState(pyspiel.State):  # type: ignore[misc]
    """A deal being dealt, then played."""

    def __init__(self, game: MilliganGame) -> None:
        super().__init__(game)
        variant = game.variant
        self._now = _Now(
            variant,
            Actions.of(variant),
            game.max_moves,
            counts=(variant.decks,) * len(CARD_OF_OUTCOME),
        )

    # -- the OpenSpiel state interface ------------------------------------

    def current_player(self) -> int:
        """The player (0), chance while dealing, or terminal."""
        now = self._now
        if now.position is None:
            return int(pyspiel.PlayerId.CHANCE)
        if now.status != "playing":
            return int(pyspiel.PlayerId.TERMINAL)
        return 0

    def is_terminal(self) -> bool:
        """Won, lost, stuck (no legal move) or out of moves."""
        return self._now.position is not None and self._now.status != "playing"

    def returns(self) -> list[float]:
        """1 for a won game, else 0."""
        return [1.0 if self._now.status == "won" else 0.0]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards that may come next, each with its share of the cards left."""
        now = self._now
        left = now.variant.deck_size - len(now.order)
        return [(code, count / left) for code, count in enumerate(now.counts) if count]

    def _legal_actions(self, player: int) -> list[int]:
        index = self._now.actions.index
        return sorted(index(move) for move in self._now.legal)

    def _apply_action(self, action: int) -> None:
        now = self._now
        if now.position is None:
            self._deal_card(CARD_OF_OUTCOME[action])
            return
        move = now.actions.moves[action]
        before = now.position
        after = before.apply(move)
        seen = [str(move)]
        if move.kind is MoveKind.DEAL:
            seen.extend(str(card) for card in before.stock[: now.variant.columns])
        else:
            # Only the source column turns cards up: those between its old and
            # new face-down counts.
            a = move.source - 1
            turned = before.columns[a][after.face_down[a] : before.face_down[a]]
            seen.extend(str(card) for card in turned)
        self._now = self._settle(
            replace(now, position=after, played=(*now.played, action), seen=now.seen + tuple(seen))
        )

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {CARD_OF_OUTCOME[action]}"
        return str(self._now.actions.moves[action])

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> MilliganState:
        """A state the player cannot tell from this one: the unseen cards reshuffled.

        Unseen are the stock and the face-down cards (a face-down card has never
        moved: a move turns it up).  ``probability_sampler()`` gives uniform
        numbers in [0, 1).  The new state replays the moves from the new deal.
        """
        fresh: MilliganState = self.get_game().new_initial_state()
        now = self._now
        position = now.position
        if position is None:
            return fresh  # nothing is seen while dealing
        n = now.variant.columns
        hidden = [
            index * n + column
            for column, down in enumerate(position.face_down)
            for index in range(down)
        ]
        hidden += range(len(now.order) - len(position.stock), len(now.order))
        cards = [now.order[i] for i in hidden]
        for i in range(len(cards) - 1, 0, -1):
            j = min(int(probability_sampler() * (i + 1)), i)
            cards[i], cards[j] = cards[j], cards[i]
        order = list(now.order)
        for slot, card in zip(hidden, cards, strict=True):
            order[slot] = card
        for card in order:
            fresh.apply_action(OUTCOME_OF_CARD[card])
        for action in now.played:
            fresh.apply_action(action)
        return fresh

    def __str__(self) -> str:
        """The whole state, hidden cards included (for debugging)."""
        now = self._now
        if now.position is None:
            return f"dealing: {' '.join(str(card) for card in now.order)}"
        position = now.position
        columns = "|".join(
            " ".join(str(card).lower() if i < down else str(card) for i, card in enumerate(cards))
            for cards, down in zip(position.columns, position.face_down, strict=True)
        )
        stock = " ".join(str(card) for card in position.stock)
        return f"{observation_text(position.observe())} table |{columns}| stock [{stock}]"

    # -- beyond OpenSpiel --------------------------------------------------

    @property
    def variant(self) -> Variant:
        """The variant played."""
        return self._now.variant

    @property
    def position(self) -> Position | None:
        """The position, hidden cards included (None while chance deals)."""
        return self._now.position

    @property
    def status(self) -> str:
        """``playing``, ``won``, ``lost``, ``stuck`` or ``out of moves``."""
        return self._now.status

    def information_text(self) -> str:
        """The information state: the variant, then every card seen and every move."""
        return f"{self._now.variant}: {' '.join(self._now.seen)}"

    def _deal_card(self, card: Card) -> None:
        now = self._now
        code = OUTCOME_OF_CARD[card]
        if not now.counts[code]:
            raise ValueError(f"no {card} is left to deal")
        counts = list(now.counts)
        counts[code] -= 1
        now = replace(now, order=(*now.order, card), counts=tuple(counts))
        if len(now.order) == now.variant.deck_size:
            position = Position.from_order(now.variant, now.order)
            seen = tuple(
                "??" if card is None else str(card)
                for cards in position.observe().columns
                for card in cards
            )
            now = self._settle(replace(now, position=position, seen=seen))
        self._now = now

    @staticmethod
    def _settle(now: _Now) -> _Now:
        """``now`` with the legal moves and status of its position."""
        assert now.position is not None
        legal = now.position.legal_moves()
        state = status(now.position, legal)
        if state == "playing" and len(now.played) >= now.max_moves:
            state = "out of moves"
        return replace(now, legal=legal, status=state)


class MilliganObserver:
    """Observations (the Gymnasium layout, flattened) or information states (text only)."""

    def __init__(self, variant: Variant, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        size = 0 if perfect_recall else observation_size(variant)
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        if not perfect_recall:
            start = 0
            for key, (shape, _) in shapes(variant).items():
                length = int(np.prod(shape))
                self.dict[key] = self.tensor[start : start + length].reshape(shape)
                start += length

    def set_from(self, state: MilliganState, player: int) -> None:
        """Fill the tensor with what the player sees (zeros while dealing)."""
        self.tensor.fill(0)
        if self.perfect_recall or state.position is None:
            return
        arrays = encode(state.position.observe())
        for key in KEYS:
            self.dict[key][...] = arrays[key]

    def string_from(self, state: MilliganState, player: int) -> str:
        """The observation as text, or the information state with perfect recall."""
        if self.perfect_recall:
            return state.information_text()
        if state.position is None:
            return "dealing"
        return observation_text(state.position.observe())


def deal_state(game: MilliganGame, number: int) -> MilliganState:
    """A state of ``game`` after chance dealt deal ``number`` (docs/RULES.md §3)."""
    state: MilliganState = game.new_initial_state()
    for card in deal_order(state.variant, number):
        state.apply_action(OUTCOME_OF_CARD[card])
    return state


pyspiel.register_game(GAME_TYPE, MilliganGame)
