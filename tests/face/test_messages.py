"""The table's words as data (face/messages.py, face/locale/*.po): every sentence shown or spoken
at the table — announcements, prompts, refusals, the referee's, the clock's — carries a message id
that both catalogs (en, zh) hold; the English catalog renders the game's own text byte for byte;
the Chinese names the players and never falls back to "请看屏幕"."""
import re
import sys
from pathlib import Path

import pytest

from shengji_table.face.messages import LANGS, catalog, line_text, render
from shengji_table.game.effects import Announce, Line
from shengji_table.rules.ruleset import PRESETS

sys.path.insert(0, str(Path(__file__).parent))
from views import play_at_table  # noqa: E402

NAMES = ("李明", "王芳", "赵强", "陈静", "刘洋", "杨帆")
FIELD = re.compile(r"\{(\w+)\}")


def test_both_catalogs_hold_the_same_messages_and_every_template_is_well_formed():
    import string
    en, zh = catalog("en"), catalog("zh")
    assert en and set(en) == set(zh)
    for lang, cat in (("en", en), ("zh", zh)):
        for msg, template in cat.items():
            fields = [f for _, f, _, _ in string.Formatter().parse(template) if f is not None]
            assert all(FIELD.fullmatch("{" + f + "}") for f in fields), (lang, msg, template)


def _check(text, players: int):
    msg = getattr(text, "msg", None)
    assert msg is not None, f"no message id: {text!r}"
    for lang in LANGS:
        assert msg in catalog(lang), f"{msg} missing in {lang}.po"
    assert render(msg, text.args, "en") == text, msg          # the English catalog is the game's text
    zh = line_text(text, "zh", NAMES[:players])
    assert "请看屏幕" not in zh and "{" not in zh and not re.search(r"\b[Ss]eat \d", zh), zh
    assert not re.search(r"\d号位", zh), f"a seat not named: {zh}"


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("mode", ["scanned", "open"])
def test_every_sentence_at_the_table_has_a_message_in_both_catalogs(preset, mode):
    c, texts = play_at_table(preset, mode)
    assert texts
    for text in texts:
        _check(text, c.ruleset.players)


def test_an_announcement_keeps_its_json_and_its_message_travels_as_a_line():
    a = Announce("trick", "Trick 1 to seat 2: seat 2 ♠A.", "R-5", msg="trick.won",
                 args={"trick": 1, "seat": 2, "plays": "seat 2 ♠A"})
    assert a.to_json() == {"type": "announce", "kind": "trick", "text": "Trick 1 to seat 2: seat 2 ♠A.", "rule": "R-5"}
    line = Line.of(a, "Trick 1 to seat 2 (赵强): seat 2 (赵强) ♠A.")
    assert line.startswith("Trick 1 to seat 2 (赵强)") and line.msg == "trick.won"
    assert line_text(line, "zh", NAMES[:4]) == "第1墩归赵强。"
    assert line_text(line, "en", NAMES[:4]) == "Trick 1 to seat 2 (赵强): seat 2 (赵强) ♠A."


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_announcement_of_whole_matches_renders_from_the_catalogs(preset):
    """Four hands of every preset played by bots: each announcement of the game carries a message
    both catalogs hold, the English renders its text byte for byte, the Chinese names the players."""
    from shengji_table.game.match import Match
    from shengji_table.rules.ruleset import Ruleset
    from shengji_table.sim.players import play_direct
    rs = Ruleset.from_preset(preset)
    for mode, seed in (("scanned", 3), ("open", 11)):
        ref = play_direct(rs, mode, seed, 4)
        live = Match(rs, mode)
        said = [f for e in ref.events for f in live.apply(e) if isinstance(f, Announce)]
        assert said
        for a in said:
            _check(Line.of(a), rs.players)
