"""Robustness of both ends of the PN532 link under random input (hypothesis, bounded profile in CI).

* The model acknowledges a host write if and only if it holds a frame with good LEN/LCS and DCS
  (UM0701-02 §6.2.1.1), judged here by an independent reference check; it never crashes.
* The driver, facing a chip that answers random bytes, fails only with PN532Error subclasses
  (never IndexError/ValueError), so Reader can count the failure and carry on.
"""
import sys

from hypothesis import given, strategies as st

from shengji_table.sim.hw import machine, world
from shengji_table.firmware_src import FIRMWARE_DIR
from shengji_table.firmware_src import pn532_model
REV, SimPN532 = pn532_model.REV, pn532_model.SimPN532

if str(FIRMWARE_DIR) not in sys.path:
    sys.path.append(str(FIRMWARE_DIR))
import pn532  # noqa: E402


def acknowledged(chip, data):
    """Write ``data`` (after the 0x01 prefix) and report whether the chip then offers an ACK."""
    chip.select()
    for b in b"\x01" + data:
        chip.exchange(REV[b])
    chip.deselect()
    chip.select()
    chip.exchange(REV[0x02])
    status = REV[chip.exchange(0)]
    chip.deselect()
    if not status & 1:
        return False
    chip.select()
    got = bytes(REV[chip.exchange(REV[b])] for b in b"\x03" + bytes(6))[1:]
    chip.deselect()
    return got == b"\x00\x00\xff\x00\xff\x00"


def reference_is_command_frame(data):
    """Independent reading of §6.2.1.1: zeros, 00 FF, LEN, LCS, LEN bytes, DCS (ACK/NACK excluded)."""
    i = 0
    while i < len(data) and data[i] == 0:
        i += 1
    if i == 0 or i + 2 >= len(data) or data[i] != 0xFF:
        return False
    length, lcs = data[i + 1], data[i + 2]
    if (length, lcs) in ((0x00, 0xFF), (0xFF, 0x00)):
        return False
    if (length + lcs) % 256 or length == 0xFF:
        return False
    body = data[i + 3:i + 3 + length + 1]
    return len(body) == length + 1 and sum(body) % 256 == 0


def frames_with_noise():
    """Mostly well-formed frames, some damaged: random bytes alone would almost never be frames."""
    def build(body, damage, cut):
        frame = bytearray([0, 0, 0xFF, len(body), (-len(body)) & 0xFF, *body, (-sum(body)) & 0xFF, 0])
        if damage is not None:
            pos, bit = damage
            frame[pos % len(frame)] ^= 1 << bit
        return bytes(frame[:cut]) if cut is not None else bytes(frame)
    return st.one_of(
        st.binary(max_size=64),
        st.builds(build, st.binary(min_size=1, max_size=40).map(lambda b: b"\xd4" + b),
                  st.none() | st.tuples(st.integers(0, 60), st.integers(0, 7)),
                  st.none() | st.integers(0, 50)),
    )


@given(frames_with_noise())
def test_pn532_robust_model_acks_exactly_the_valid_frames(data):
    chip = SimPN532("fuzz")
    chip.lose_first_command = False   # every frame is judged on its own
    assert acknowledged(chip, data) == reference_is_command_frame(data)


class GarbageChip:
    """A chip whose MISO is random bytes (a broken or wrongly wired reader)."""

    def __init__(self, stream):
        self.name = "garbage"
        self.rf_on = False
        self.stream = stream
        self.i = 0

    def select(self):
        pass

    def deselect(self):
        pass

    def exchange(self, wire):
        b = self.stream[self.i % len(self.stream)]
        self.i += 1
        return b


@given(st.binary(min_size=1, max_size=200))
def test_pn532_robust_driver_fails_only_with_pn532_errors(stream):
    world.reset()
    world.add_reader(17, model=GarbageChip(stream))
    d = pn532.PN532(machine.SPI(0), machine.Pin(17, machine.Pin.OUT, value=1), ack_gap_ms=0, ack_timeout_ms=1,
                    reply_timeout_ms=1)
    uid = bytearray(pn532.UID_MAX)
    for call in (d.firmware_version, lambda: d.list_passive_target(uid), lambda: d.read_pages(4, bytearray(16))):
        try:
            call()
        except pn532.PN532Error:
            pass
    world.reset()
