"""The bots' decisions live in game/decisions.py, apart from the events that share their names."""
from shengji_table.game import decisions, events, view
from shengji_table.rules.cards import parse_card


def test_decisions_are_not_events_and_live_in_one_module():
    for name in ("Declare", "Bid", "NameTrump", "CallFriend"):
        assert getattr(decisions, name) is not getattr(events, name)
        assert not issubclass(getattr(decisions, name), events.Event)
    for name in decisions.__all__:
        assert not hasattr(view, name)                 # one definition: decisions.py


def test_decisions_are_frozen_values():
    call = decisions.CallFriend((decisions.FriendCall(parse_card("HA"), 2),))
    assert call == decisions.CallFriend((decisions.FriendCall(parse_card("HA"), 2),))
    assert hash(decisions.Bid(120)) == hash(decisions.Bid(120)) and decisions.Pass() == decisions.Pass()
