"""Player names (game/names.py): one rendering of a seat for people, "Seat 1 (Wang)"; the list of
names is checked against the players."""
import pytest

from shengji_table.game.names import PlayerNamesError, check_names, names_from_text, with_names

NAMES = ("Li", "Wang", "Zhao", "Chen")


@pytest.mark.parametrize("text, shown", [
    ("Seat 1: refused — must follow ♦ (R-4.4)", "Seat 1 (Wang): refused — must follow ♦ (R-4.4)"),
    ("Seat 2 shows S2 S2: seat 2 overcalls", "Seat 2 (Zhao) shows S2 S2: seat 2 (Zhao) overcalls"),
    ("Next dealer: seat 3.", "Next dealer: seat 3 (Chen)."),
    ("Seat 0's call stands", "Seat 0 (Li)'s call stands"),
    ("Seat 1 (Wang) already named", "Seat 1 (Wang) already named"),
    ("seat 12 is no seat; seats 1 and 2", "seat 12 is no seat; seats 1 and 2"),
    ("Reader 2 stopped answering", "Reader 2 stopped answering"),
    ("trick 10 → seat 0 +10", "trick 10 → seat 0 (Li) +10"),
])
def test_with_names_adds_the_name_after_every_seat(text, shown):
    assert with_names(text, NAMES) == shown
    assert with_names(shown, NAMES) == shown          # twice is once


def test_without_names_the_text_is_unchanged():
    assert with_names("Seat 2: refused", ()) == "Seat 2: refused"
    assert with_names("Seat 2: refused", None) == "Seat 2: refused"


def test_names_are_checked_against_the_players():
    assert names_from_text(" Li , Wang,Zhao,Chen ", 4) == NAMES
    assert check_names(["a", "b", "c"], 3, "preset 'three-players'") == ("a", "b", "c")
    with pytest.raises(PlayerNamesError, match="3 player name.s. given .* preset 'x' has 4 players"):
        names_from_text("a,b,c", 4, "preset 'x'")
    with pytest.raises(PlayerNamesError, match="given twice: a"):
        check_names(["a", "b", "a"], 3)
    with pytest.raises(PlayerNamesError, match="empty"):
        check_names(["a", " ", "c"], 3)
    with pytest.raises(PlayerNamesError, match="are text"):
        check_names(["a", 2, "c"], 3)
    with pytest.raises(PlayerNamesError, match="a list of 3 names"):
        check_names("abc", 3)
