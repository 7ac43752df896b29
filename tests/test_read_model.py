"""The layers above the game read the hand in play only through its views (``game/views.py``:
``Match.public_view()``, ``Match.referee_view()``; a seat's ``SeatView`` for bots): none reads
``match.hand`` or imports the hand's modules.  The hidden-information policy lives in the views,
so code that reads the hand itself could leak what they hide."""
import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1] / "host" / "shengji_table"
ABOVE_GAME = ("store", "table", "hardware", "face", "club", "sim", "cli")
# The table's own card entry and the virtual table's bots still read the hand's entry state; this
# list only shrinks.
NOT_YET = {
    "table/gestures.py", "table/controller/core.py", "table/controller/dispatch.py", "table/controller/entry.py",
    "sim/players.py",
}


def hand_reads(path: pathlib.Path) -> list:
    """``line: what`` for each read of a match's hand or import of the hand's modules in ``path``."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr == "hand":
            v = node.value
            owner = v.id if isinstance(v, ast.Name) else v.attr if isinstance(v, ast.Attribute) else ""
            if owner in ("match", "m", "_match", "scratch", "again", "at"):
                out.append(f"{node.lineno}: {owner}.hand")
        elif isinstance(node, ast.ImportFrom) and node.module and (
                node.module.endswith("game.hand") or ".game.hand." in f".{node.module}."
                or node.module.startswith("hand")):
            out.append(f"{node.lineno}: from {node.module} import …")
    return out


def files():
    for layer in ABOVE_GAME:
        for p in sorted((ROOT / layer).rglob("*.py")):
            yield p.relative_to(ROOT).as_posix(), p


@pytest.mark.parametrize("name,path", list(files()), ids=lambda x: x if isinstance(x, str) else "")
def test_above_the_game_the_hand_is_read_through_its_views(name, path):
    reads = hand_reads(path)
    if name in NOT_YET:
        assert reads, f"{name} reads the hand only through its views now: take it off NOT_YET"
        return
    assert not reads, f"{name} reads the hand itself: {reads} (use Match.public_view() / referee_view())"


def test_the_check_sees_a_read_of_the_hand(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from ..game.hand.kitty import holder\n\ndef f(c):\n    return c.match.hand.pending\n")
    assert hand_reads(bad) == ["1: from game.hand.kitty import …", "4: match.hand"]
