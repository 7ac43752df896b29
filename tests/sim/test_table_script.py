"""The virtual table's command language (sim/table_script.py): each verb, readers by number or
``centre``, card copies with their ``#`` kept apart from comments, and a clear error for every
line that means nothing."""
import pytest

from shengji_table.rules.cards import parse_copy
from shengji_table.sim.table_script import Action, ScriptError, parse_line, parse_script


@pytest.mark.parametrize("line, action", [
    ("tap 2 SA#1", Action("tap", 2, parse_copy("SA#1"))),
    ("  tap centre HQ#2   # the kitty", Action("tap", 4, parse_copy("HQ#2"))),
    ("lift 4", Action("lift", 4)),
    ("press 0", Action("press", 0)),
    ("long 3", Action("long", 3)),
    ("wait 250", Action("wait", ms=250)),
    ("QUIT", Action("quit")),
])
def test_each_verb(line, action):
    assert parse_line(line, seats=4) == action


@pytest.mark.parametrize("line", ["", "   ", "# only a comment", "\t# tap 2 SA#1"])
def test_blank_and_comment_lines_do_nothing(line):
    assert parse_line(line, seats=4) is None


@pytest.mark.parametrize("line, words", [
    ("tap 5 SA#1", "a reader must be a number from 0 to 4, not '5'"),
    ("tap 2 SA", "names a face; a physical card needs its deck"),
    ("tap 2 SA#3", "SA#3 is of deck 3; the virtual deck set has 2 deck(s)"),
    ("tap 2", "tap takes 2 arguments: tap READER CARD"),
    ("press 4", "a seat must be a number from 0 to 3, not '4'"),
    ("press centre", "a seat must be a number"),
    ("lift -1", "a reader must be a number"),
    ("wait soon", "wait's milliseconds must be a number"),
    ("dance 2", "unknown command 'dance'"),
])
def test_bad_lines_say_what_is_wrong(line, words):
    with pytest.raises(ScriptError) as err:
        parse_line(line, seats=4)
    assert words in str(err.value)


def test_a_script_names_its_first_bad_line():
    with pytest.raises(ScriptError, match="taps.txt line 3: unknown command 'tpa'"):
        parse_script("tap 0 SA#1\n\ntpa 1 SK#1\nlift 0\n", seats=4, source="taps.txt")
    assert [a.verb for a in parse_script("tap 0 SA#1\nlift 0\n", seats=4)] == ["tap", "lift"]
