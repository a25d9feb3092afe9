"""The win chance a hint shows: the share of samples won, corrected by what followed.

A decision of the fair player counts the sampled deals its plan wins when
each is solved with its stock known (``Plan.wins`` of ``Plan.samples``).
That share leans two ways at once: knowing the stock makes a solve win
more often than a player who does not know it, and a solve that runs out
of positions counts as not won.  How the two balance depends on the
variant (a reprieve makes knowing the stock worth less), on how far the
game has gone, and on how many solves ran out.

So the chance shown is corrected by a logistic model fitted, per variant,
on the study's own games: at decisions of the shipped player, the share
it showed beside whether its game, following those hints, was won
(``bench/chancefit.py``, on the decisions ``bench/calibration.py --dump``
writes; the figures are in docs/BENCHMARKS.md).  With

    s = log((wins + ½) / (samples − wins + ½))      the share, as log-odds
    u = unsettled / samples                           the solves that ran out
    d = 1 − rows left / rows                          how far the game has gone

the estimate is the logistic of ``intercept + share·s + unsettled·u +
played·d + late·s·d``.  Two ends stay as they are: no sample won gives 0
(the hint then says that nothing it tried won) and every sample won gives
1.  A variant without a fitted correction (a custom one) shows the share.

Only what the player sees goes in: the counts of the decision, and the
number of cards left in the stock.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from milligan.position import Observation


@dataclass(frozen=True, slots=True)
class Correction:
    """The coefficients of one variant's model (see the module's docstring)."""

    intercept: float
    share: float
    unsettled: float
    played: float
    late: float

    def __call__(self, wins: int, samples: int, unsettled: int, played: float) -> float:
        """The corrected chance for a share strictly between 0 and 1."""
        inputs = features(wins, samples, unsettled, played)
        weights = (self.intercept, self.share, self.unsettled, self.played, self.late)
        return 1 / (1 + math.exp(-sum(w * x for w, x in zip(weights, inputs, strict=True))))


def features(wins: int, samples: int, unsettled: int, played: float) -> tuple[float, ...]:
    """The model's inputs, in the order of :class:`Correction`'s fields: 1, s, u, d and s·d."""
    share = math.log((wins + 0.5) / (samples - wins + 0.5))
    return (1.0, share, unsettled / samples, played, share * played)


#: Fitted by ``bench/chancefit.py docs/data/chances/V-*.jsonl --held-out 401-1000``
#: on the decisions of the study's games of deals 1-1000 (7,000 a variant, 6,040
#: in improved): deals 1-400 at 4,000,000 and 2,000,000 positions and deals
#: 401-1000 at 2,000,000 (docs/BENCHMARKS.md has the runs and the held-out
#: tests).  One-deck, which the player almost never wins, shows the share.
CORRECTIONS: Mapping[str, Correction] = {
    "classic": Correction(
        intercept=-0.3069, share=0.3288, unsettled=0.5645, played=0.6241, late=0.784
    ),
    "spanish": Correction(
        intercept=-1.0936, share=0.1913, unsettled=0.2116, played=1.5394, late=1.0843
    ),
    "improved": Correction(
        intercept=-1.7912, share=0.5459, unsettled=0.5261, played=1.2166, late=0.773
    ),
    "strict": Correction(
        intercept=-0.5707, share=0.4126, unsettled=0.7339, played=0.7461, late=0.7082
    ),
}


def played(view: Observation) -> float:
    """How far the game of ``view`` has gone: 0 before the first deal, 1 once the stock is out."""
    return progress(view.variant.stock_rows(view.stock), view.variant.stock_rows())


def progress(rows_left: int, rows: int) -> float:
    """``d`` of the model: 1 − rows left / rows at the start (1 with no stock at all)."""
    return 1 - rows_left / rows if rows else 1.0


def estimate(view: Observation, wins: int, samples: int, unsettled: int) -> float:
    """The chance a hint at ``view`` shows when its plan won ``wins`` of ``samples``."""
    name = view.variant.name
    fitted = None if name is None else CORRECTIONS.get(name)
    return chance(fitted, wins, samples, unsettled, played(view))


def chance(
    fitted: Correction | None, wins: int, samples: int, unsettled: int, played: float
) -> float:
    """``fitted``'s chance, the ends (no sample won, every one won) kept; None: the share."""
    if samples <= 0 or wins <= 0:
        return 0.0
    if wins >= samples:
        return 1.0
    if fitted is None:
        return wins / samples
    return fitted(wins, samples, unsettled, played)


def in_words(estimate: float, wins: int, samples: int) -> str:
    """The chance a hint shows, in English words, as the browser words it."""
    shown = f"estimated chance of winning: {estimate:.0%}, from {_deals(samples)}"
    return counted(wins, samples) or shown


def counted(wins: int, samples: int) -> str | None:
    """The ends in words: no sample won, or every one; None between them.

    They are said as that count rather than as 0% or 100%, since neither is
    certain (docs/BENCHMARKS.md, "On 600 more deals").
    """
    if 0 < wins < samples:
        return None
    deals = _deals(samples)
    if samples == 1:
        return f"won in {deals}" if wins else f"no win in {deals}"
    return f"won in all {deals}" if wins > 0 else f"no win in any of {deals}"


def _deals(samples: int) -> str:
    return f"{samples} sampled deal" if samples == 1 else f"{samples} sampled deals"
