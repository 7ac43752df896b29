"""The bots' decisions live in game/decisions.py, apart from the events that share their names."""
from shengji_table.game import decisions, events, view
from shengji_table.rules.cards import parse_card


def test_decisions_are_not_events_and_view_still_re_exports_them():
    for name in ("Declare", "Bid", "NameTrump", "CallFriend"):
        assert getattr(decisions, name) is not getattr(events, name)
        assert not issubclass(getattr(decisions, name), events.Event)
    for name in decisions.__all__:
        assert getattr(view, name) is getattr(decisions, name)     # until game/driver.py imports decisions


def test_decisions_are_frozen_values():
    call = decisions.CallFriend((decisions.FriendCall(parse_card("HA"), 2),))
    assert call == decisions.CallFriend((decisions.FriendCall(parse_card("HA"), 2),))
    assert hash(decisions.Bid(120)) == hash(decisions.Bid(120)) and decisions.Pass() == decisions.Pass()
