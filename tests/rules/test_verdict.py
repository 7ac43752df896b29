"""One Verdict for every rules check; the renamed modules keep their entry points."""
from shengji_table.rules import Verdict as PackageVerdict
from shengji_table.rules.cards import parse_cards
from shengji_table.rules.follow import check_follow
from shengji_table.rules.order import TrumpOrder
from shengji_table.rules.penalties import check_kitty_size, undo_policy
from shengji_table.rules.ruleset import Ruleset
from shengji_table.rules.throw import check_lead
from shengji_table.rules.verdict import Verdict

CLASSIC = Ruleset.from_preset("classic")


def test_verdict_is_one_class_for_follow_throw_and_penalties():
    order = TrumpOrder(CLASSIC, 2, "S")
    assert PackageVerdict is Verdict
    h3, h4, c5 = parse_cards("H3 H4 C5")
    assert type(check_follow((h3,), (h4,), (h4, c5), order)) is Verdict
    assert type(check_lead((h3,), order)) is Verdict
    assert type(check_kitty_size(CLASSIC, CLASSIC.kitty_size)) is Verdict
    assert type(undo_policy(CLASSIC)) is Verdict


def test_verdict_is_true_exactly_when_ok_R_10_4():
    assert bool(Verdict(True, "R-4.4", "fine")) is True
    refused = undo_policy(CLASSIC)
    assert not refused and refused.rule == "R-10.4"


def test_the_R10_rulings_live_in_penalties_alone():
    import importlib

    import pytest
    from shengji_table.rules import penalties
    for name in ("check_hand_size", "check_kitty_size", "revoke", "throw_penalty", "undo_policy", "wrong_count"):
        assert callable(getattr(penalties, name))
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("shengji_table.rules.rulings")
