"""The chance a hint shows: the share of samples won, corrected per variant."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from milligan.position import Position
from milligan.solver import estimate as module
from milligan.solver.estimate import CORRECTIONS, Correction, estimate, played
from milligan.variants import Variant


def opening(name: str) -> Position:
    return Position.deal(Variant.named(name), 7)


def test_how_far_a_game_has_gone_is_read_from_the_stocks_count() -> None:
    start = opening("classic")
    assert played(start.observe()) == 0.0
    dealt = start.apply(next(m for m in start.legal_moves() if str(m) == "D"))
    assert played(dealt.observe()) == pytest.approx(1 / 12)


@pytest.mark.parametrize("name", ["classic", "spanish", "improved", "strict", "one-deck"])
def test_the_ends_stay_where_they_are(name: str) -> None:
    view = opening(name).observe()
    assert estimate(view, 0, 16, 0) == 0.0
    assert estimate(view, 0, 16, 16) == 0.0  # no sample won: the chance is 0, as the hint says
    assert estimate(view, 16, 16, 0) == 1.0
    assert estimate(view, 0, 0, 0) == 0.0


def test_the_variants_the_study_played_have_a_correction() -> None:
    assert {"classic", "spanish", "strict", "improved"} <= set(CORRECTIONS)


def test_a_custom_variant_shows_the_share() -> None:
    custom = Variant.named("classic").replace(columns=7)  # not a named variant
    view = Position.deal(custom, 7).observe()
    assert estimate(view, 5, 16, 3) == 5 / 16


def test_the_model_is_the_one_the_docstring_gives(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = Correction(intercept=0.5, share=2.0, unsettled=-1.0, played=0.25, late=1.5)
    monkeypatch.setattr(module, "CORRECTIONS", {"classic": fake})
    view = opening("classic").observe()
    s = math.log(5.5 / 11.5)
    logit = 0.5 + 2.0 * s - 1.0 * 3 / 16
    assert estimate(view, 5, 16, 3) == pytest.approx(1 / (1 + math.exp(-logit)))


@given(name=st.sampled_from(sorted(CORRECTIONS)), samples=st.integers(2, 64), data=st.data())
def test_more_samples_won_never_shows_less(name: str, samples: int, data: st.DataObject) -> None:
    fitted = CORRECTIONS[name]
    unsettled = data.draw(st.integers(0, samples - 2), label="unsettled")
    far = data.draw(st.floats(0, 1), label="played")
    chances = [fitted(wins, samples, unsettled, far) for wins in range(1, samples - unsettled)]
    assert all(0 < chance < 1 for chance in chances)
    assert chances == sorted(chances)


def test_the_chance_in_words_says_the_ends_as_counts() -> None:
    assert module.in_words(0.0, 0, 16) == "no win in any of 16 sampled deals"
    assert module.in_words(1.0, 16, 16) == "won in all 16 sampled deals"
    assert module.in_words(0.0, 0, 1) == "no win in 1 sampled deal"
    assert module.in_words(1.0, 2, 2) == "won in all 2 sampled deals"
    said = module.in_words(0.528, 11, 16)
    assert said == "estimated chance of winning: 53%, from 16 sampled deals"
    assert module.counted(11, 16) is None
    assert module.in_words(1.0, 1, 1) == "won in 1 sampled deal"
