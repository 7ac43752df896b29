"""Three taps, three names: the game event ``Tap`` (records: "tap"), the link's ``LinkTap`` (a card on
a reader, from the Pico) and a station's ``StationTap`` (a tag at an enrolment station)."""
from shengji_table.game import events as ev
from shengji_table.table import session, stations


def test_tap_names_say_what_each_tap_is():
    assert session.LinkTap is not stations.StationTap and session.LinkTap is not ev.Tap
    assert ev.Tap.type == "tap"
    assert session.LinkTap(1, 2, 3, b"\x04\x01", None).reader == 3
    assert stations.StationTap("04a1b2c3d4e5f6").code is None
    assert "LinkTap" in session.__all__ and "StationTap" in stations.__all__


def test_tap_one_name_per_tap():
    assert not hasattr(session, "Tap") and not hasattr(stations, "Tap")
