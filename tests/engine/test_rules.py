"""One test (or a few) per rule of docs/RULES.md §4–§6, on small constructed positions."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from milligan import IllegalMoveError, Move, Position, Variant
from milligan.moves import DEAL, STOP

from .conftest import Builder, cards


@contextmanager
def refused(code: str, **params: object) -> Iterator[None]:
    """Expect a refusal with this code (and these params, when given)."""
    with pytest.raises(IllegalMoveError) as info:
        yield
    assert info.value.code == code, info.value
    assert {name: info.value.params[name] for name in params} == params, info.value.params


def moves_of(position: Position) -> list[str]:
    return [str(m) for m in position.legal_moves()]


def play(position: Position, *texts: str) -> Position:
    for text in texts:
        position = position.apply(Move.parse(text))
    return position


# -- §4.1 builds ----------------------------------------------------------------


def test_build_one_card(build: Builder) -> None:
    after = play(build(["TS", "9H", "AC"]), "2>1")
    assert after.columns[0] == cards("TS 9H")


def test_build_refusal_names_the_cards_and_the_need(build: Builder) -> None:
    position = build(["AC", "AC", "AC", "TS 9H", "AC", "8S"])
    with pytest.raises(IllegalMoveError) as info:
        position.apply(Move.parse("4>6"))
    assert str(info.value) == "4>6 is illegal: 9H cannot go on 8S (needs a black 10)"
    assert info.value.code == "not_one_lower"
    assert info.value.params == {"card": "9H", "target": "8S", "needs": ["TC", "TS"]}
    assert isinstance(info.value, ValueError)
    assert "4>6" not in moves_of(position)


def test_runs_move_as_units_and_from_the_middle(build: Builder) -> None:
    position = build(["KH QC JD TC 9D", "KD", "QS", "AS"])
    legal = moves_of(position)
    assert "1:4>2" in legal  # QC JD TC 9D onto the red King
    assert "1:3>3" in legal  # JD TC 9D, from the middle of the run, onto QS
    assert "1:5>2" not in legal  # a King goes only into an empty column
    after = play(position, "1:3>3")
    assert after.columns[0] == cards("KH QC")
    assert after.columns[2] == cards("QS JD TC 9D")


def test_a_group_that_is_not_a_run_does_not_build(build: Builder) -> None:
    with refused("not_a_run", upper="9D", lower="QC"):
        build(["KH QC 9D", "KS"]).apply(Move.parse("1:2>2"))


def test_face_down_cards_never_build(build: Builder) -> None:
    position = build(["TC 9D", "JD"], variant="improved", face_down=[1, 0])
    with refused("face_down_cards"):
        position.apply(Move.parse("1:2>2"))


def test_king_on_a_card_is_refused(build: Builder) -> None:
    with refused("king_needs_empty"):
        build(["KS", "AH"]).apply(Move.parse("1>2"))


# -- §4.2 empty columns -----------------------------------------------------


def test_empty_column_takes_king_led_runs_only(build: Builder) -> None:
    position = build(["QS KH QC", "9D"])
    assert "1:2>3" in moves_of(position)
    assert "2>3" not in moves_of(position)
    with pytest.raises(IllegalMoveError) as info:
        position.apply(Move.parse("2>3"))
    assert info.value.reason == "9D cannot go into empty column 3 (only a King-led run can)"
    assert (info.value.code, info.value.params) == ("empty_needs_king", {"card": "9D", "column": 3})
    after = play(position, "1:2>3")
    assert after.columns[2] == cards("KH QC") and after.reprieve is None


def test_whole_king_led_column_into_an_empty_column_opens_nothing(build: Builder) -> None:
    position = build(["KH QC", "9D"])
    assert "1:2>3" in moves_of(position)
    after = play(position, "1:2>3")
    assert after.reprieve is None and after.columns[0] == ()


def test_empty_column_takes_only_king_led_runs_during_a_reprieve_too(build: Builder) -> None:
    position = build(["9D", "8C", "", "KS"], reprieve=5)
    with refused("empty_needs_king"):
        position.apply(Move.parse("1>3"))
    assert all(
        m.target != 3 or m.source == 4 for m in position.legal_moves() if m.kind.value == "column"
    )
    after = play(position, "4>3")  # a build; column 3 is not the reprieve column
    assert after.reprieve == 5 and after.moved == {(3, 0)}


# -- §4.3 foundations ---------------------------------------------------------


def test_foundation_ace_first_then_next_rank(build: Builder) -> None:
    position = build(["AH", "2H", "3H", "9C"], variant="spanish")
    assert moves_of(position) == ["1>F"]
    with refused("foundation_needs_below", card="2H", suit="H", below="AH"):
        position.apply(Move.parse("2>F"))
    after = play(position, "1>F", "2>F", "3>F")
    assert after.foundations[2] == (0, 3)


def test_two_decks_copies_are_interchangeable(build: Builder) -> None:
    after = play(build(["2H", "2H", "9C"], foundations={"H": [1, 1]}), "1>F")
    assert after.reprieve == 1
    after = play(after, "2>F")
    assert after.foundations[2] == (2, 2)


def test_no_foundation_takes_a_third_ace(build: Builder) -> None:
    with refused("no_empty_foundation", card="AH", suit="H"):
        build(["AH", "9C"], foundations={"H": [1, 1]}).apply(Move.parse("1>F"))


def test_one_deck_has_one_foundation_per_suit(build: Builder) -> None:
    position = build(["AH", "AS"], variant="one-deck")
    assert position.foundations == ((0,), (0,), (0,), (0,))
    after = play(position, "1>F")
    assert after.foundations[2] == (1,)


# -- §4.4 deal ----------------------------------------------------------------------


def test_deal_puts_one_card_on_each_column_empty_ones_included(build: Builder) -> None:
    position = build(["KH", "", "9C"], stock="AS 2S 3S 4S 5S 6S 7S 8S 9S")
    after = position.apply(DEAL)
    assert [c[-1] for c in after.columns] == list(cards("AS 2S 3S 4S 5S 6S 7S 8S"))
    assert after.columns[1] == cards("2S") and after.stock == cards("9S")
    assert after.reprieve is None


def test_a_short_last_row_is_dealt_from_column_one_on(build: Builder) -> None:
    variant = Variant(decks=1, columns=5)
    assert variant.stock_size == 47  # 9 rows of 5 and one row of 2
    position = build(["KH", "KS", "KD", "KC", "QH"], variant=variant, stock="2C 3C")
    after = position.apply(DEAL)
    assert [len(c) for c in after.columns] == [2, 2, 1, 1, 1]
    assert not after.stock and DEAL not in after.legal_moves()


def test_deal_needs_cards_in_the_stock(build: Builder) -> None:
    position = build(["AS"])
    assert DEAL not in position.legal_moves()
    with refused("stock_empty"):
        position.apply(DEAL)
    assert DEAL in build(["9S"], stock="2C 3C 4C 5C 6C 7C 8C 9C").legal_moves()


# -- §4.5 face-down cards turn up ---------------------------------------------------


def test_face_down_card_turns_up_when_uncovered_by_a_build(build: Builder) -> None:
    position = build(["5D 9S 8H", "9C"], variant="improved", face_down=[2, 1])
    after = play(position, "1>2")
    assert after.columns[0] == cards("5D 9S") and after.face_down[0] == 1
    assert after.observe().columns[0] == (None, cards("9S")[0])


def test_face_down_card_turns_up_when_uncovered_by_a_foundation_move(build: Builder) -> None:
    position = build(["5D AH", "9C"], variant="improved", face_down=[1, 0])
    after = play(position, "1>F")
    assert after.face_down[0] == 0 and after.reprieve is None


# -- §5 the reprieve: opening ----------------------------------------------------------


def test_a_build_that_empties_a_column_opens_a_reprieve(build: Builder) -> None:
    after = play(build(["TS", "9H", "AC"]), "2>1")
    assert after.reprieve == 2 and after.moved == frozenset()


def test_a_foundation_move_that_empties_a_column_opens_a_reprieve(build: Builder) -> None:
    after = play(build(["TS", "AH", "AC"]), "2>F")
    assert after.reprieve == 2
    assert DEAL not in after.legal_moves() and STOP in after.legal_moves()


def test_spanish_never_opens_a_reprieve(build: Builder) -> None:
    after = play(build(["TS", "9H", "AC"], variant="spanish"), "2>1")
    assert after.reprieve is None
    assert "3>1" not in moves_of(after)  # no free moves


def test_deal_and_start_open_nothing(build: Builder) -> None:
    position = build(["", "", ""], stock="AS 2S 3S 4S 5S 6S 7S 8S")
    assert position.reprieve is None
    assert position.apply(DEAL).reprieve is None


def test_a_reprieve_column_left_empty_by_stop_needs_a_king_later(build: Builder) -> None:
    after = play(build(["TS", "AH", "9H"]), "2>F", "S")
    assert after.reprieve is None and after.columns[1] == ()
    with refused("empty_needs_king"):
        after.apply(Move.parse("3>2"))
    # A later emptying opens a new reprieve: one more empty column than before.
    assert play(after, "3>1").reprieve == 3


# -- §5 while open -------------------------------------------------------------------


def test_free_moves_take_any_card_with_everything_above_it(build: Builder) -> None:
    position = build(["9C 4D KS", "", "7H", "2S"], reprieve=2)
    legal = moves_of(position)
    for text in ("1>3", "1:2>3", "1:3>3", "1:3>4", "3>1", "4>1", "4>3"):
        assert text in legal
    after = play(position, "1:2>3")
    assert after.columns[0] == cards("9C") and after.columns[2] == cards("7H 4D KS")
    assert after.moved == {(3, 1), (3, 2)}


def test_free_moves_never_go_into_an_empty_column(build: Builder) -> None:
    position = build(["9C 4D", "", "7H", ""], reprieve=2)
    legal = moves_of(position)
    assert not [m for m in legal if m.endswith(">2") or m.endswith(">4")]
    with refused("empty_needs_king"):
        position.apply(Move.parse("1>4"))


def test_moved_marks_follow_the_physical_card(build: Builder) -> None:
    position = build(["9C 4D", "", "7H 6S", "5D"], reprieve=2)
    after = play(position, "1>3")  # 4D freely onto 6S
    assert after.moved == {(3, 2)}
    after = play(after, "3:2>1")  # 6S 4D back onto 9C: both moved now
    assert after.moved == {(1, 1), (1, 2)}
    after = play(after, "4>1")  # 5D builds on... 4D? no: 5D onto 4D is a free move
    assert (1, 3) in after.moved and after.columns[3] == ()
    # the second emptied column opens nothing
    assert after.reprieve == 2


def test_a_second_column_emptied_during_a_reprieve_stays_empty(build: Builder) -> None:
    position = build(["TS", "", "9H", "AC"], reprieve=2)
    after = play(position, "3>1")
    assert after.reprieve == 2 and after.columns[2] == ()
    after = play(after, "4>F")
    assert after.reprieve == 2 and after.columns[3] == ()
    after = play(after, "S")
    assert after.reprieve is None
    assert [len(c) for c in after.columns[:4]] == [2, 0, 0, 0]


def test_no_deal_while_a_reprieve_is_open(build: Builder) -> None:
    position = build(["TS"], reprieve=2, stock="AS 2S 3S 4S 5S 6S 7S 8S")
    assert DEAL not in position.legal_moves()
    with refused("no_deal_in_reprieve"):
        position.apply(DEAL)


def test_a_foundation_move_during_a_reprieve_drops_the_mark(build: Builder) -> None:
    position = build(["9C", "", "2H AH"], reprieve=2)
    after = play(position, "3>1")  # AH freely onto 9C: out of place
    assert after.unsettled() == ((1, 1),)
    after = play(after, "1>F")
    assert after.moved == frozenset() and after.is_settled()


# -- §5 settled, closing --------------------------------------------------------------


def test_stop_is_legal_only_when_settled_and_refusal_names_cards(build: Builder) -> None:
    position = build(["9C 4D", "", "7H", "5H"], reprieve=2)
    after = play(position, "4>1")  # 5H freely onto 4D: out of place
    assert "S" not in moves_of(after)
    with pytest.raises(IllegalMoveError) as info:
        after.apply(STOP)
    assert "5H in column 1" in info.value.reason
    assert info.value.code == "reprieve_unsettled"
    assert info.value.params == {"places": [["5H", 1]]}
    assert info.value.cards == ((1, 2),)
    settled = play(after, "1>3")  # 5H moves on: 5H onto 7H is still out of place
    assert settled.unsettled() == ((3, 1),)
    fixed = play(after, "1:2>3")  # 4D 5H onto 7H: both out of place now
    assert fixed.unsettled() == ((3, 1), (3, 2))


def test_refused_close_names_every_card_out_of_place(build: Builder) -> None:
    position = build(["9C", "", "7H", "5H 2S", "KD"], reprieve=2)
    after = play(position, "4>1", "4>3")
    with pytest.raises(IllegalMoveError) as info:
        after.apply(STOP)
    assert info.value.reason.endswith("2S in column 1, 5H in column 3")
    assert info.value.params == {"places": [["2S", 1], ["5H", 3]]}
    assert info.value.cards == ((1, 1), (3, 1))


def test_closing_king_led_run_into_the_reprieve_column(build: Builder) -> None:
    position = build(["9C KS QD", "", "7H", "5H"], reprieve=2)
    after = play(position, "1:2>2")
    assert after.reprieve is None and after.moved == frozenset()
    assert after.columns[1] == cards("KS QD")


def test_a_closing_king_run_may_itself_settle_the_position(build: Builder) -> None:
    position = build(["9C", "", "7H QD", "KS"], reprieve=2)
    after = play(position, "3>4")  # QD freely onto KS: a legal place already
    assert after.is_settled()
    after = play(position, "4>1")  # KS freely onto 9C: out of place
    assert after.unsettled() == ((1, 1),)
    closed = play(after, "1>2")  # KS into the reprieve column: settled by this very move
    assert closed.reprieve is None and closed.columns[1] == cards("KS")


def test_a_close_is_refused_when_other_cards_are_out_of_place(build: Builder) -> None:
    position = build(["9C", "", "7H", "KS", "4D"], reprieve=2)
    after = play(position, "5>1")  # 4D out of place on 9C
    assert "4>2" not in moves_of(after)
    with pytest.raises(IllegalMoveError) as info:
        after.apply(Move.parse("4>2"))
    assert info.value.cards == ((1, 1),) and "4D in column 1" in str(info.value)
    assert info.value.code == "reprieve_unsettled"
    assert after.apply(Move.parse("1>3")).unsettled() == ((3, 1),)


def test_a_moved_king_at_the_bottom_of_another_empty_column_is_settled(build: Builder) -> None:
    position = build(["9C KS", "", "", "7H"], reprieve=2)
    after = play(position, "1>3")  # KS into the other empty column: a build
    assert after.moved == {(3, 0)} and after.is_settled() and "S" in moves_of(after)


# -- §5 strict --------------------------------------------------------------------------


def test_strict_free_moves_take_face_up_cards_only(build: Builder) -> None:
    variant = Variant(opening_rows=3, face_down_rows=2, reprieve="strict")
    position = build(["5D 9S 8H", "", "4C"], variant=variant, face_down=[2, 0, 0], reprieve=2)
    assert "1:2>3" not in moves_of(position)
    with refused("strict_face_down"):
        position.apply(Move.parse("1:2>3"))
    assert "1>3" in moves_of(position)


def test_strict_free_moves_may_not_split_a_run(build: Builder) -> None:
    position = build(["KH QC JD", "", "4C", "QS"], variant="strict", reprieve=2)
    legal = moves_of(position)
    assert "1>3" not in legal and "1:2>3" not in legal
    assert "1:3>3" in legal  # the whole run, King included, splits nothing
    with refused("strict_splits_run", card="JD", lower="QC"):
        position.apply(Move.parse("1>3"))
    # Builds stay as in §4: they may take a run from the middle.
    assert play(position, "1>4").columns[3] == cards("QS JD")


def test_free_reprieve_may_split_runs(build: Builder) -> None:
    position = build(["KH QC JD", "", "4C"], reprieve=2)
    assert "1>3" in moves_of(position)


# -- §5 face-down cards during a reprieve -------------------------------------------


def test_a_face_down_card_moved_during_a_reprieve_turns_face_up(build: Builder) -> None:
    position = build(["5D 9S 8H", "", "4C"], variant="improved", face_down=[2, 0, 0], reprieve=2)
    after = play(position, "1:2>3")  # 9S (face down) and 8H freely onto 4C
    assert after.columns[2] == cards("4C 9S 8H") and after.face_down[2] == 0
    assert after.columns[0] == cards("5D") and after.face_down[0] == 0  # uncovered, turned up
    assert after.moved == {(3, 1), (3, 2)}
    assert None not in after.observe().columns[2]


# -- §6 end of game ----------------------------------------------------------------------


def test_won_when_every_card_is_up(build: Builder) -> None:
    position = build(
        ["KH"], variant="one-deck", foundations={"C": [13], "D": [13], "H": [12], "S": [13]}
    )
    assert not position.is_won()
    after = play(position, "1>F")
    assert after.is_won()


def test_plain_dead_end(build: Builder) -> None:
    dead = build(["9C 5D", "8C", "3S", "KD"], variant="one-deck")
    assert dead.dead_end() is True
    # a build reaches a foundation move: not dead
    alive = build(["9S", "AS 8D", "3C", "KD"], variant="one-deck")
    assert alive.dead_end() is False
    # a build that would open a reprieve: not dead
    opens = build(["9C", "8D", "3S", "KD"], variant="one-deck")
    assert opens.dead_end() is False
    # ...but in a variant without reprieves the same table is dead
    spanish = Variant(decks=1, columns=4, reprieve="none")
    assert build(["9C", "8D", "3S", "KD"], variant=spanish).dead_end() is True


def test_a_dead_end_never_depends_on_a_face_down_card(build: Builder) -> None:
    # moving 8D onto 9C turns column 1's face-down card up: an ace there
    # could go up, a five could not; the player cannot tell, so neither is
    # called a dead end (D16)
    variant = Variant(decks=1, columns=4, opening_rows=2, face_down_rows=1, reprieve="none")
    twins = [
        build([f"{hidden} 8D", "9C", "3S", "KD"], variant=variant, face_down=[1, 0, 0, 0])
        for hidden in ("AS", "5H")
    ]
    assert twins[0].observe() == twins[1].observe()
    assert [twin.dead_end() for twin in twins] == [None, None]
    # with the card already face up, the same table is a plain fact either way
    shown = [build([f"{card} 8D", "9C", "3S", "KD"], variant=variant) for card in ("AS", "5H")]
    assert [position.dead_end() for position in shown] == [False, True]


def test_not_dead_while_stock_or_reprieve_remains(build: Builder) -> None:
    assert build(["9C 5D", "8C", "3S", "KD"], variant="one-deck", stock="2C").dead_end() is False
    assert build(["9C 5D", "8C", "3S", ""], variant="one-deck", reprieve=4).dead_end() is False


def test_dead_end_search_stops_at_its_limit(build: Builder) -> None:
    position = build(["KH QC", "KD", "", "9S 5D"], variant="one-deck")
    assert position.dead_end(limit=1) is None
    assert position.dead_end() is True


def test_hopeless_reprieve_is_recognised(build: Builder) -> None:
    # 5H was moved onto 9C; no black 6 is on the table and the heart foundations are low.
    position = build(["9C 5H", "", "8D"], reprieve=2, moved=[(1, 1)])
    assert position.reprieve_hopeless()
    hopeful = build(["9C 5H", "", "6S"], reprieve=2, moved=[(1, 1)])
    assert not hopeful.reprieve_hopeless()
    by_foundation = build(
        ["9C 5H", "", "8D"], reprieve=2, moved=[(1, 1)], foundations={"H": [4, 0]}
    )
    assert not by_foundation.reprieve_hopeless()


def test_a_reprieve_with_no_legal_move_is_hopeless(build: Builder) -> None:
    # 5H was moved; 6S could take it but lies under it in the only other
    # column, so no build, free move or stop is left: hopeless, though a
    # parent for 5H is on the table.
    stuck = build(["6S 9C 5H", ""], reprieve=2, moved=[(1, 2)])
    assert not stuck.legal_moves()
    assert not stuck.observe().reprieve_hopeless()
    assert stuck.reprieve_hopeless()
    # With a third column a free move is left: not known to be hopeless.
    assert not build(["6S 9C 5H", "", "8D"], reprieve=2, moved=[(1, 2)]).reprieve_hopeless()


def test_hopeless_does_not_reveal_a_face_down_card(build: Builder) -> None:
    # Improved twins: 5H was moved onto 9C, and column 3 shows only 8D over one
    # face-down card, a black 6 in one twin and not in the other.  A black 6
    # could lie there for all the player knows: neither twin is hopeless.
    twins = [
        build(
            ["9C 5H", "", f"{hidden} 8D"],
            variant="improved",
            face_down=[0, 0, 1],
            reprieve=2,
            moved=[(1, 1)],
        )
        for hidden in ("6S", "2C")
    ]
    assert twins[0].observe() == twins[1].observe()
    assert [twin.reprieve_hopeless() for twin in twins] == [False, False]


def test_hopeless_whatever_the_face_down_cards_are(build: Builder) -> None:
    # Every black 6 is on a foundation, and the face-down card is one card:
    # too few to hold AH 2H 3H 4H.  Both twins are hopeless.
    twins = [
        build(
            ["9C 5H", "", f"{hidden} 8D"],
            variant="improved",
            face_down=[0, 0, 1],
            reprieve=2,
            moved=[(1, 1)],
            foundations={"C": [6, 6], "S": [6, 6]},
        )
        for hidden in ("AH", "QD")
    ]
    assert twins[0].observe() == twins[1].observe()
    assert [twin.reprieve_hopeless() for twin in twins] == [True, True]
    # With the hearts up to 3 on a foundation, a face-down 4H would do.
    hoping = build(
        ["9C 5H", "", "QD 8D"],
        variant="improved",
        face_down=[0, 0, 1],
        reprieve=2,
        moved=[(1, 1)],
        foundations={"C": [6, 6], "S": [6, 6], "H": [0, 3]},
    )
    assert not hoping.reprieve_hopeless()


# -- §7 legal move listing ---------------------------------------------------------------


def test_legal_moves_are_distinct_and_all_accepted(build: Builder) -> None:
    position = build(["KH QC JD", "", "4C", "QS", "AH"], reprieve=2)
    legal = list(position.legal_moves())
    assert len(legal) == len(set(legal))
    for move in legal:
        position.apply(move)
    assert position.legal_moves().count() == len(legal)
    assert bool(position.legal_moves())


def test_moves_to_missing_columns_are_illegal_not_malformed(build: Builder) -> None:
    with refused("no_such_column", column=9, columns=4):
        build(["KH"], variant="one-deck").apply(Move.parse("1>9"))
