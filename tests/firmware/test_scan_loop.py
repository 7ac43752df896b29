"""The scan loop in CPython against simulated PN532s (pn532_model behind the fake machine.SPI):
taps are debounced per reader, one RF field at a time, readers in turn, dead readers reported while
the others keep working, buttons debounced, rings drawn from RING frames, snapshots answered."""
import json
import pathlib
import sys

import pytest

from shengji_table.sim.hw import machine, neopixel, world
from shengji_table.firmware_src import FIRMWARE_DIR
from shengji_table.firmware_src import pn532_model

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]
SimNTAG, SimPN532 = pn532_model.SimNTAG, pn532_model.SimPN532

# Appended, not prepended: firmware module names must not shadow installed packages (e.g. Blinka's `board`).
if str(FIRMWARE_DIR) not in sys.path:
    sys.path.append(str(FIRMWARE_DIR))
import protocol as P  # noqa: E402
import rings as R  # noqa: E402
from link import Link  # noqa: E402
from pn532 import PN532  # noqa: E402
from reader import Reader  # noqa: E402
from scan import Button, Scanner  # noqa: E402

UID = bytes.fromhex("04112233445566")
UID2 = bytes.fromhex("04aabbccddeeff")
CODE = b"SJ01H2\x00\x00" + bytes(8)


class Wire:
    """The link's stream: frames from the host queued in ``inp``; the Pico's bytes kept in ``out``."""

    def __init__(self):
        self.inp = bytearray()
        self.out = bytearray()
        self.dec = P.Decoder(P.TO_HOST)
        self.w = P.Writer(b"HOST")
        self.buf = bytearray(P.MAX_FRAME)

    def readinto(self, buf):
        n = min(len(buf), len(self.inp))
        buf[:n] = self.inp[:n]
        del self.inp[:n]
        return n

    def write(self, buf, off, n):
        self.out += bytes(buf[off:off + n])

    def frames(self, typ=None):
        """Decoded frames the Pico sent, as (type name, seq, fields); resends included."""
        out = []
        for b in self.out:
            if self.dec.push(b):
                payload = bytes(self.dec.payload[:self.dec.length])
                out.append((P.NAMES[self.dec.typ], self.dec.seq, P.decode(self.dec.typ, payload)))
        self.out.clear()
        self._seen = getattr(self, "_seen", []) + out
        return [f for f in self._seen if typ is None or f[0] == typ]

    def events(self, typ):
        """Distinct reliable events of ``typ`` (a resend carries the same seq)."""
        seen = {}
        for _name, seq, fields in self.frames(typ):
            seen.setdefault(seq, fields)
        return [seen[s] for s in sorted(seen)]

    def send(self, encode, *args):
        n = encode(self.w, self.buf, 1, *args)
        self.inp += self.buf[:n]


class Table:
    """A table-4 board wired to simulated chips, with the real driver, readers, scanner and link."""

    def __init__(self, board="table-4.json"):
        self.raw = json.loads((REPO_ROOT / "boards" / board).read_text())
        world.setup_board(self.raw)
        seats = self.raw["seats"]
        order = sorted(self.raw["readers"], key=lambda r: seats if r["seat"] == "centre" else r["seat"])
        spi = machine.SPI(0, baudrate=1_000_000)
        self.readers = []
        for r in order:
            cs = machine.Pin(r["cs"], machine.Pin.OUT, value=1)
            rst = machine.Pin(r["rst"], machine.Pin.OUT, value=1) if r.get("rst") is not None else None
            self.readers.append(Reader(r["name"], PN532(spi, cs, rst)))
        self.names = [r["name"] for r in order]
        buttons = sorted(self.raw["buttons"], key=lambda b: b["seat"])
        self.button_pins = [b["pin"] for b in buttons]
        self.buttons = [Button(machine.Pin(b["pin"], machine.Pin.IN, machine.Pin.PULL_UP)) for b in buttons]
        ring_list = sorted(self.raw["leds"]["rings"], key=lambda x: seats if x["seat"] == "centre" else x["seat"])
        self.spans = [(x["first"], x["count"]) for x in ring_list]
        self.led_pin = self.raw["leds"]["pin"]
        pixels = max(a + b for a, b in self.spans)
        self.np = neopixel.NeoPixel(machine.Pin(self.led_pin), pixels)
        self.t = 0
        self.scanner = Scanner(self.readers, self.buttons, self.spans, self.np, "GRB", bright=256)
        self.wire = Wire()
        self.link = Link(self.wire, lambda: self.t, self.scanner.on_ring, None, firmware=b"0.1.0",
                         board=b"table-4", rings=len(self.spans), boot_id=b"\x01\x02\x03\x04")
        self.scanner.attach(self.link)
        self.scanner.start(self.t)

    def run(self, steps, dt=10):
        for _ in range(steps):
            self.t += dt
            self.scanner.step(self.t)

    def place(self, index, uid=UID, code=CODE):
        world.place(self.names[index], SimNTAG(uid, code))

    def lift(self, index):
        world.lift(self.names[index])


@pytest.fixture
def table():
    return Table()


def test_scan_card_held_is_one_tap_and_retap_is_a_second(table):
    table.run(10)
    table.place(2)
    table.run(40)                      # 8 laps of the 5 readers, card held throughout
    taps = table.wire.events("TAP")
    assert taps == [(2, UID, CODE)]
    table.lift(2)
    table.run(80)                      # 800 ms: absent longer than the 600 ms lift time
    assert len(table.wire.events("TAP")) == 1
    table.place(2)
    table.run(10)
    assert table.wire.events("TAP") == [(2, UID, CODE), (2, UID, CODE)]


def test_scan_one_rf_field_at_a_time(table):
    for i in range(5):
        table.place(i, uid=bytes([4, i, 2, 3, 4, 5, 6]))
    SimPN532.fields_max = 0
    for _ in range(25):
        table.run(1)
        assert len(world.fields_on()) <= 1
    assert SimPN532.fields_max == 1
    assert world.spi_conflicts == 0


def test_scan_readers_are_polled_in_turn(table):
    for i in range(5):
        table.place(i, uid=bytes([4, i, 2, 3, 4, 5, 6]))
    table.run(10)                      # two laps, each reader once a lap in index order: the second
    assert [t[0] for t in table.wire.events("TAP")] == [0, 1, 2, 3, 4]   # poll of a card taps it


def test_scan_card_swap_on_one_reader_is_a_new_tap(table):
    table.place(1)
    table.run(10)
    table.lift(1)
    table.place(1, uid=UID2)
    table.run(10)
    assert [t[1] for t in table.wire.events("TAP")] == [UID, UID2]


def test_scan_tag_without_ntag_memory_sends_uid_only(table):
    from shengji_table.firmware_src import pn532_model
    SimTag = pn532_model.SimTag
    world.place(table.names[3], SimTag(UID[:4]))
    table.run(10)
    assert table.wire.events("TAP") == [(3, UID[:4], None)]


def test_scan_dead_reader_is_reported_and_others_keep_working(table):
    world.reader("seat1").alive = False
    table.run(30)
    readers = table.wire.events("READER")
    assert (1, P.READER_DEAD, bytes(4)) in readers
    table.place(3)
    table.run(10)
    assert table.wire.events("TAP") == [(3, UID, CODE)]
    status, _, polls = table.scanner.snapshot()
    assert list(status) == [P.READER_ALIVE, P.READER_DEAD, P.READER_ALIVE, P.READER_ALIVE, P.READER_ALIVE]
    before = list(polls)
    table.run(20)                      # a dead reader's recovery steps and failed polls are not polls
    grown = [b - a for a, b in zip(before, polls)]
    assert grown[1] == 0 and all(g >= 4 for i, g in enumerate(grown) if i != 1), grown
    world.reader("seat1").alive = True
    table.run(200, dt=50)              # back-off retries bring it back
    assert table.wire.events("READER")[-1][:2] == (1, P.READER_ALIVE)


def test_scan_button_press_long_press_release(table):
    pin = table.button_pins[2]
    table.run(5)
    world.press(pin)
    table.run(3)                       # 30 ms: settled, PRESS
    assert table.wire.events("BUTTON") == [(2, P.PRESS)]
    table.run(90)                      # held 900 ms: LONG_PRESS once
    assert table.wire.events("BUTTON") == [(2, P.PRESS), (2, P.LONG_PRESS)]
    _, buttons, _ = table.scanner.snapshot()
    assert buttons[2] == P.BUTTON_HELD
    world.release(pin)
    table.run(5)
    assert table.wire.events("BUTTON") == [(2, P.PRESS), (2, P.LONG_PRESS), (2, P.RELEASE)]


def test_scan_button_bounce_is_not_a_press(table):
    pin = table.button_pins[0]
    table.run(2)
    for _ in range(5):
        world.press(pin)
        table.run(1, dt=5)
        world.release(pin)
        table.run(1, dt=5)
    table.run(10)
    assert table.wire.events("BUTTON") == []


def ring_pixels(table, index):
    buf = world.pixels(table.led_pin)
    first, count = table.spans[index]
    return [(buf[3 * i + 1], buf[3 * i], buf[3 * i + 2]) for i in range(first, first + count)]


def test_scan_ring_command_is_drawn_on_its_ring_only(table):
    table.wire.send(P.encode_ring, 1, R.PENDING, 0, 200, 0, 3, 0)
    table.run(5)
    assert ring_pixels(table, 1) == [(0, 200, 0)] * 3 + [(0, 0, 0)] * 9
    for other in (0, 2, 3, 4):
        assert set(ring_pixels(table, other)) == {(0, 0, 0)}


def test_scan_animated_ring_keeps_moving_while_readers_are_scanned(table):
    table.wire.send(P.encode_ring, 0, R.TURN, 0, 0, 255, 0, 1200)
    table.place(4)
    writes = world.pixel_writes(table.led_pin)
    heads = set()
    for _ in range(30):
        table.run(2)                   # 20 ms a step pair, 40 ms a frame
        heads.add(max(range(12), key=lambda i: ring_pixels(table, 0)[i][2]))
    assert world.pixel_writes(table.led_pin) - writes >= 14   # a frame every 40 ms of 600 ms
    assert len(heads) >= 5                                      # the comet moved
    assert table.wire.events("TAP") == [(4, UID, CODE)]         # and the scan went on


def test_scan_repeated_ring_state_does_not_restart_or_redraw(table):
    table.wire.send(P.encode_ring, 3, R.SOLID, 9, 9, 9, 0, 0)
    table.run(5)
    writes = world.pixel_writes(table.led_pin)
    table.wire.send(P.encode_ring, 3, R.SOLID, 9, 9, 9, 0, 0)
    table.run(10)
    assert world.pixel_writes(table.led_pin) == writes


def test_scan_snapshot_request_is_answered(table):
    world.reader("centre").alive = False
    table.run(20)
    world.press(table.button_pins[1])
    table.run(5)
    table.wire.send(P.encode_snapshot_request)
    table.run(1)
    snaps = table.wire.frames("SNAPSHOT")
    assert len(snaps) == 1
    text = repr(snaps[0][2])
    assert "b'\\x01\\x01\\x01\\x01\\x02'" in text and "b'\\x00\\x01\\x00\\x00'" in text


def _hit_rate(reader):
    """Count the polls of ``reader`` that saw a card: (hits, polls)."""
    counts = [0, 0]
    inner = reader.poll

    def poll(now=None, known=None):
        n = inner(now, known)
        counts[1] += 1
        counts[0] += 1 if n else 0
        return n
    reader.poll = poll
    return counts


def test_scan_flicker_card_seen_in_70_percent_of_polls_is_one_tap(table):
    """A card at the edge of the field, seen in only ~70 % of its reader's polls, is one tap for the
    whole time it lies there (lift is time-based: absent 600 ms), never TAP, TAP (a take-back)."""
    r = table.readers[2]
    r.activation_ms = 0              # the debounce alone: no second chance inside the poll
    counts = _hit_rate(r)
    tag = SimNTAG(UID, CODE)
    tag.coupling = 45                # 45 % of WUPAs, two tries a poll: seen in ~70 % of polls
    world.place(table.names[2], tag)
    table.run(1000, dt=20)           # 20 s, a lap of 100 ms as on a real table
    hits, polls = counts
    assert 0.6 < hits / polls < 0.8, (hits, polls)
    assert table.wire.events("TAP") == [(2, UID, CODE)]


def test_scan_reader_recovery_does_not_tap_the_card_again(table):
    """A reader that drops out and comes back with the same card on it sends no second TAP."""
    table.place(2)
    table.run(10)
    assert len(table.wire.events("TAP")) == 1
    world.reader("seat2").alive = False
    table.run(30)
    assert (2, P.READER_DEAD, bytes(4)) in table.wire.events("READER")
    world.reader("seat2").alive = True
    table.run(200, dt=50)            # back-off, reset pulse, begin(): alive again
    assert table.wire.events("READER")[-1][:2] == (2, P.READER_ALIVE)
    assert len(table.wire.events("TAP")) == 1


def test_scan_card_taken_while_reader_was_dead_taps_again_when_put_back(table):
    table.place(2)
    table.run(10)
    world.reader("seat2").alive = False
    table.run(30)
    table.lift(2)
    world.reader("seat2").alive = True
    table.run(200, dt=50)            # alive again, the empty reader: lifted
    table.place(2)
    table.run(10)
    assert len(table.wire.events("TAP")) == 2


# ---- deliberate gestures: the dwell, the take-back, two cards on a pad ---------------------------

def test_scan_card_passing_over_a_pad_is_no_tap(table):
    """R-4.1: a card seen by one poll of its reader (passed over the pad) is not played; laid
    down, it taps at its reader's second poll."""
    table.run(4)                       # reader 4 is next
    table.place(4)
    table.run(1)
    table.lift(4)
    table.run(20)
    assert table.wire.events("TAP") == []
    table.place(4)
    table.run(5)
    assert table.wire.events("TAP") == []
    table.run(5)
    assert table.wire.events("TAP") == [(4, UID, CODE)]


def hold(table, seat, steps):
    world.press(table.button_pins[seat])
    table.run(steps)


def test_scan_long_press_with_the_card_on_the_pad_is_a_take_back(table):
    """R-10.4: the card lying on seat 2's reader, its button held: TAKE_BACK with that card, no
    PRESS or LONG_PRESS before it; the release follows."""
    table.place(2)
    table.run(10)
    assert table.wire.events("TAP") == [(2, UID, CODE)]
    hold(table, 2, 50)
    assert table.wire.events("BUTTON") == [] and table.wire.events("TAKE_BACK") == []
    table.run(40)                      # 900 ms held
    assert table.wire.events("TAKE_BACK") == [(2, UID, CODE)]
    assert table.wire.events("BUTTON") == []
    world.release(table.button_pins[2])
    table.run(5)
    assert table.wire.events("BUTTON") == [(2, P.RELEASE)]
    assert len(table.wire.events("TAP")) == 1          # the card still lies there: no new tap


def test_scan_short_press_with_the_card_on_the_pad_is_sent_at_its_release(table):
    table.place(2)
    table.run(10)
    hold(table, 2, 10)
    assert table.wire.events("BUTTON") == []
    world.release(table.button_pins[2])
    table.run(5)
    assert table.wire.events("BUTTON") == [(2, P.PRESS), (2, P.RELEASE)]
    assert table.wire.events("TAKE_BACK") == []


def test_scan_take_back_card_lifted_during_the_press_is_a_long_press_after_all(table):
    table.place(2)
    table.run(10)
    hold(table, 2, 10)
    table.lift(2)
    table.run(90)
    assert table.wire.events("BUTTON")[:2] == [(2, P.PRESS), (2, P.LONG_PRESS)]
    assert table.wire.events("TAKE_BACK") == []


def test_scan_take_back_needs_its_own_seat_card(table):
    """A card on another seat's reader does not make a long press a take-back."""
    table.place(3)
    table.run(10)
    hold(table, 2, 90)
    assert table.wire.events("BUTTON") == [(2, P.PRESS), (2, P.LONG_PRESS)]


def test_scan_two_cards_on_a_pad_are_one_stack_event_shown_on_its_ring(table):
    """A card laid on one already lying there: STACK (reader, 2) once, no tap of either while
    they lie there, the ring shows the stack over the host's state; clearing the pad sends
    STACK (reader, cards left) and the host's state comes back."""
    table.wire.send(P.encode_ring, 1, R.SOLID, 0, 0, 40, 0, 0)
    table.place(1)
    table.run(10)
    assert table.wire.events("TAP") == [(1, UID, CODE)]
    world.place(table.names[1], SimNTAG(UID2, CODE))
    table.run(30)
    assert table.wire.events("STACK") == [(1, 2)]
    assert table.wire.events("TAP") == [(1, UID, CODE)]
    px = ring_pixels(table, 1)
    assert (0, 0, 40) not in px and any(p[0] > 0 and p[2] == 0 for p in px)   # amber, not the host's
    world.reader("seat1").lift(world.reader("seat1").tags[1])               # the top card taken off
    table.run(15)
    assert table.wire.events("STACK") == [(1, 2), (1, 1)]
    assert table.wire.events("TAP") == [(1, UID, CODE)]                      # the card left is held
    assert set(ring_pixels(table, 1)) == {(0, 0, 40)}
    assert table.scanner.stack_count == 1


def test_scan_stack_cleared_to_the_other_card_taps_it(table):
    table.place(1)
    table.run(10)
    world.place(table.names[1], SimNTAG(UID2, CODE))
    table.run(10)
    world.reader("seat1").lift(world.reader("seat1").tags[0])               # the first card taken off
    table.run(30)
    assert table.wire.events("STACK") == [(1, 2), (1, 1)]
    assert [t[1] for t in table.wire.events("TAP")] == [UID, UID2]


def test_scan_seat_on_turn_is_polled_more_often(table):
    """The seat whose ring shows TURN gets an extra poll every third step; the others keep theirs."""
    table.run(10)
    before = list(table.scanner.polls)
    table.wire.send(P.encode_ring, 3, R.TURN, 200, 200, 200, 0, 0)
    table.run(120)
    grown = [b - a for a, b in zip(before, table.scanner.polls)]
    assert grown[3] > 2 * max(g for i, g in enumerate(grown) if i != 3)
    assert min(grown) >= 15
    w = table.wire
    w.inp += w.buf[:P.encode_ring(w.w, w.buf, 2, 3, R.PENDING, 0, 0, 255, 1, 0)]   # its turn is over
    table.run(5)
    before = list(table.scanner.polls)
    table.run(50)
    assert [b - a for a, b in zip(before, table.scanner.polls)] == [10] * 5


class Marker:
    def __init__(self):
        self.levels = []

    def value(self, v=None):
        self.levels.append(v)


def test_scan_marker_pin_is_high_during_each_poll(table):
    m = Marker()
    table.scanner.marker = m
    table.run(7)
    assert m.levels == [1, 0] * 7
