"""The enrolment session on its own: progress kept after every card, resumed exactly where it
stopped, and partial files that do not belong to the command refused without being touched."""
import json

import pytest

from shengji_table.rules.cards import parse_copy
from shengji_table.table.card_code import encode_card_code
from shengji_table.table.enrollment_session import (Accepted, EnrollmentSession, Refused, load_order,
                                                    partial_path)
from shengji_table.table.registry import DeckSet, RegistryError, standard_order
from shengji_table.table.stations import TableStation, StationTap, END


def uid(n):
    return (b"\x04" + n.to_bytes(6, "big")).hex()


def test_enroll_resume_after_interruption_continues_at_the_next_card(tmp_path):
    path = tmp_path / "club.json"
    first = EnrollmentSession(path, "club", 2, deck_set_id=42)
    for n in range(40):
        assert isinstance(first.tap(StationTap(uid(n))), Accepted)
    first.undo()                                  # the 40th taken back: 39 stay
    del first                                     # the laptop dies here
    assert not path.exists() and partial_path(path).exists()
    again = EnrollmentSession(path, "club", 2)
    assert again.resumed and again.count == 39 and again.deck_set.id == 42
    assert again.expected == standard_order(2)[39]
    refused = again.tap(StationTap(uid(5)))              # a card enrolled before the interruption
    assert isinstance(refused, Refused) and f"already enrolled as {standard_order(2)[5]}" in refused.reason
    for n in range(39, 108):
        assert isinstance(again.tap(StationTap(uid(n))), Accepted)
    again.finish()
    ds = DeckSet.load(path)
    assert ds.complete and [ds.cards[uid(n)] for n in range(108)] == standard_order(2)
    assert not partial_path(path).exists()


def test_enroll_resume_refuses_another_name_deck_count_or_order_and_keeps_the_file(tmp_path):
    path = tmp_path / "club.json"
    s = EnrollmentSession(path, "club", 1, deck_set_id=1)
    s.tap(StationTap(uid(0)))
    before = partial_path(path).read_bytes()
    with pytest.raises(RegistryError, match="give the same --name and --decks"):
        EnrollmentSession(path, "other", 1)
    with pytest.raises(RegistryError, match="give the same --name and --decks"):
        EnrollmentSession(path, "club", 2)
    with pytest.raises(RegistryError, match="another enrolment order"):
        EnrollmentSession(path, "club", 1, order=list(reversed(standard_order(1))))
    with pytest.raises(RegistryError, match="deck set id 1, not 2"):
        EnrollmentSession(path, "club", 1, deck_set_id=2)
    assert partial_path(path).read_bytes() == before


def test_enroll_refuses_a_complete_or_broken_deck_set_file_without_touching_it(tmp_path):
    path = tmp_path / "club.json"
    path.write_text("{ not json")
    with pytest.raises(RegistryError, match="not JSON"):
        EnrollmentSession(path, "club", 1)
    assert path.read_text() == "{ not json" and not partial_path(path).exists()
    s = EnrollmentSession(tmp_path / "ok.json", "ok", 1, deck_set_id=3)
    for n in range(54):
        s.tap(StationTap(uid(n)))
    s.finish()
    with pytest.raises(RegistryError, match="already holds deck set 'ok' with 54 cards"):
        EnrollmentSession(tmp_path / "ok.json", "ok", 1)


def test_enroll_a_tag_coded_for_another_card_or_set_is_refused_when_not_writing(tmp_path):
    s = EnrollmentSession(tmp_path / "d.json", "d", 1, deck_set_id=7)
    wrong_card = StationTap(uid(1), encode_card_code(parse_copy("S9#1"), 7))
    r = s.tap(wrong_card)
    assert isinstance(r, Refused) and "carries the code of S9#1, but S2#1 is next" in r.reason
    foreign = StationTap(uid(2), encode_card_code(parse_copy("S2#1"), 8))
    r = s.tap(foreign)
    assert isinstance(r, Refused) and "deck set 8" in r.reason
    right = StationTap(uid(3), encode_card_code(parse_copy("S2#1"), 7))
    assert s.tap(right) == Accepted(parse_copy("S2#1"), uid(3))
    assert s.count == 1


def test_enroll_writing_codes_needs_a_station_that_can_write(tmp_path):
    station = TableStation(iter(()))
    with pytest.raises(RegistryError, match="cannot write card codes; use a Blinka station"):
        EnrollmentSession(tmp_path / "d.json", "d", 1, write_codes=True, station=station)


def test_enroll_order_file_must_name_every_card_once(tmp_path):
    f = tmp_path / "order.txt"
    order = list(reversed(standard_order(1)))
    f.write_text("\n".join(map(str, order)))
    assert load_order(f, 1) == order
    f.write_text(json.dumps([str(c) for c in order]))
    assert load_order(f, 1) == order
    f.write_text(" ".join(map(str, order[:-1])))
    with pytest.raises(RegistryError, match="leaves out 1 card"):
        load_order(f, 1)
    f.write_text(" ".join(map(str, order + order[:1])))
    with pytest.raises(RegistryError, match="names BJ#1 twice"):
        load_order(f, 1)
    f.write_text(" ".join(map(str, order[:-1])) + " S2#2")
    with pytest.raises(RegistryError, match="S2#2, which is not in 1 deck"):
        load_order(f, 1)
    f.write_text("[not json")
    with pytest.raises(RegistryError, match="not JSON"):
        load_order(f, 1)


def test_enroll_table_station_passes_on_taps_of_the_chosen_reader_with_their_code():
    """Kind (b): taps from the table link as (reader, uid, code); the firmware may read more of the
    tag's memory than the code, only the first 16 bytes are the code."""
    code = encode_card_code(parse_copy("HA#2"), 5)
    taps = [(0, bytes.fromhex(uid(1)), None), (4, bytes.fromhex(uid(2)), code + bytes(32)),
            (4, bytes.fromhex(uid(3)), b"\x00" * 4)]
    station = TableStation(taps, reader=4)
    got = []
    while (item := station.poll(1.0)) is not END:
        got.append(item)
    assert got == [StationTap(uid(2), code, 4), StationTap(uid(3), None, 4)]
    assert got[0].card_code() == (5, parse_copy("HA#2"))


def test_enroll_table_link_taps_are_acknowledged_then_handed_on_and_other_events_skipped():
    """``link_taps`` over a SerialLink-shaped object: each batch of events is flushed (the ACKs go
    out) before its taps are yielded, buttons and link notes are skipped."""
    import threading
    from shengji_table.table import session as S
    from shengji_table.table.stations import link_taps

    class Link:
        def __init__(self):
            self.calls = []
            self.batches = [[S.Button(9, 1, 0, 1), S.LinkTap(9, 2, 3, bytes.fromhex(uid(1)), None)], [],
                            [S.LinkTap(9, 3, 3, bytes.fromhex(uid(2)), b"x" * 16)]]

        def poll(self):
            self.calls.append("poll")
            return self.batches.pop(0) if self.batches else []

        def flush(self):
            self.calls.append("flush")

        def close(self):
            self.calls.append("close")

    link = Link()
    stop = threading.Event()
    it = link_taps(link, stop=stop)
    assert next(it) == (3, bytes.fromhex(uid(1)), None)
    assert link.calls == ["poll", "flush"]
    assert next(it) == (3, bytes.fromhex(uid(2)), b"x" * 16)
    assert link.calls == ["poll", "flush"] * 3
    stop.set()
    assert list(it) == [] and link.calls[-1] == "close"     # stopped: the link is closed, by its user


def test_enroll_keyboard_u_undoes_and_q_stops_between_taps_of_a_hardware_station(tmp_path):
    """What a person types while a reader waits: ``u`` + Enter undoes, ``q`` + Enter stops (the
    progress stays in the partial file). Typed into a real pipe, read without blocking."""
    import os
    import threading
    from shengji_table.cli.station_args import Keyboard, feed

    r, w = os.pipe()
    keys = os.fdopen(r, "r")
    session = EnrollmentSession(tmp_path / "k.json", "k", 1, deck_set_id=5)
    arrived, done = threading.Event(), threading.Event()

    def taps():
        yield (4, bytes.fromhex(uid(1)), None)
        yield (4, bytes.fromhex(uid(2)), None)
        arrived.wait(10)                           # the reader is quiet while the person types
        os.write(w, b"u\n")
        for _ in range(1000):
            if session.count == 1:
                break
            done.wait(0.01)
        os.write(w, b"q\n")
        done.wait(10)                              # and stays quiet: the stream does not end

    station = TableStation(taps())

    def on_tap(tap):
        session.tap(tap)
        if session.count == 2:
            arrived.set()

    why = feed(station, on_tap, session.undo, lambda: session.done, keyboard=Keyboard(keys), poll_s=0.02)
    done.set()
    assert why == "quit"
    assert session.count == 1 and str(session.expected) == "S3#1"
    saved = json.loads(partial_path(tmp_path / "k.json").read_text())
    assert saved["cards"] == {uid(1): "S2#1"}
    os.close(w)
    keys.close()
