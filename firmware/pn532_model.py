"""Device model of an NXP PN532 on SPI, with a card field where tests place and lift NFC tags.

Written in the subset MicroPython and CPython share: it runs inside the virtual table's MicroPython
process (behind the fake ``machine.SPI``) and in CPython tests (behind Adafruit's driver).

Wire level: one byte in, one byte out per clock, as an MSB-first master sees them; the chip shifts
LSB first (UM0701-02 §6.2.5), so every byte is bit-reversed on the way in and out, exactly what a
real PN532 on rp2's MSB-only SPI would show.  ``select()``/``deselect()`` are the NSS edges.  The
first byte of a transaction is the prefix: 0x02 status read (every following byte returns the
status, bit 0 = RDY), 0x01 data write (the following bytes are a frame), 0x03 data read (the
following bytes are the ACK or the reply frame, then 0x00).

Frames (UM0701-02 §6.2.1): ``00 00 FF LEN LCS TFI data… DCS 00``.  A frame whose LEN/LCS or DCS is
wrong is ignored: no ACK (the host times out and resends, §6.2.3).  A frame with good checksums is
acknowledged (ACK ``00 00 FF 00 FF 00``) and then answered, or answered with the error frame
``00 00 FF 01 FF 7F 81 00`` (§6.2.1.5) when its content is wrong (TFI not D4, unknown command,
bad parameters).  The host's ACK aborts the command in progress; the host's NACK
``00 00 FF FF 00 00`` makes the chip send its last reply again (§6.2.1.4).  A new command aborts
one still running (§6.2.2).

Commands: GetFirmwareVersion (§7.2.2: IC 0x32, Ver 1, Rev 6, Support 7), SAMConfiguration
(§7.2.10), RFConfiguration items 0x01 RF field / 0x02 / 0x04 / 0x05 MaxRetries / 0x0A–0x0D
(§7.3.1), InListPassiveTarget 106 kbps type A (§7.3.5), InDataExchange (§7.3.8), InRelease
(§7.3.11).  Others get the error frame: the real chip knows more, the model does not.

Power-up state: SAM not configured, MxRtyPassiveActivation = 0xFF (retry forever), RF field off.
Model choice (the manual does not say what happens): RF commands before SAMConfiguration are
answered with the error frame, so a driver that skips SAMConfiguration fails loudly.
With MxRtyPassiveActivation = 0xFF and no card, InListPassiveTarget sends its ACK and then nothing
until a card arrives (or the host aborts); with n < 0xFF the chip tries n + 1 times and answers
NbTg = 0.

Two or more tags in the field: anticollision selects by UID bits (``_wins``: at the first bit
that differs, on air least significant bit first, the 1 wins), up to MaxTg (1 or 2) of them, so
the card named first is the same whichever was laid first; InListPassiveTarget with MaxTg 2
answers both (NbTg 2, Tg 1 and 2), as UM0701-02 §7.3.5 describes.

Tags follow the ISO/IEC 14443-3 type A state machine, reduced to IDLE / ACTIVE / HALT: each
activation attempt is a WUPA (wakes IDLE and HALT tags); an ACTIVE tag that receives it drops back
to IDLE without answering; InRelease halts the released tag (HLTA); switching the field off, or
lifting the tag, unpowers it (IDLE).  So polling a tag again without InRelease and with one
activation attempt (MaxRetries 0) misses it every second poll, the quirk docs/hardware-notes.md reports.

Fault injection: ``alive = False`` (never drives MISO: the host reads the idle level), ``drop_acks``
(the next n ACKs are lost and the reply takes their place), ``corrupt_replies`` (the next n replies
carry a bad DCS), ``corrupt_commands`` (the next n host frames arrive with a flipped bit),
``ack_gap_us`` (a status poll sooner than this after a command loses the ACK, as on boards that
need ~1 ms), ``cs_setup_us`` (while the chip wakes — after power-up, until it has taken a command
— a byte clocked sooner than this after NSS falls is lost; model choice after UM0701-02
§6.3.2.3, which asks for the oscillator start-up wait only when waking the chip),
``reply_delay_polls`` (status polls answered "busy" before a reply), and the RST line
(``set_rst(0)`` holds the chip in reset; the rising edge restarts it from power-up).

Observation: ``log`` (set to a list: every data-write transaction's bytes, chip order),
``commands`` (code -> count), ``frames``, ``bad_frames``, ``acks``, ``error_frames``, ``aborts``,
``last_ack_gap_us``, ``rf_on``.

The idle path (status polls, an empty InListPassiveTarget, RF off) and the card-held path
allocate nothing once warmed up, so heap figures measured under MicroPython are the firmware's own.

Section numbers are those of UM0701-02 rev. 02 as cited in public material (frames §6.2.1.x, the
15 ms ACK rule §6.2.3); the SPI (§6.2.5) and command (§7.x) numbers were not re-checked against the
PDF here.  What the manual leaves open is marked "model choice".
"""

import time

try:
    # MicroPython folds ``_X = const(...)`` at compile time: such names take no RAM.  The model
    # imports no firmware module (not even ``compat``): it stays a witness of its own, and the
    # heap it holds is the simulated world's, never counted as the firmware's.
    from micropython import const
except ImportError:  # CPython
    def const(x):  # type: ignore[misc]
        return x

try:
    # MicroPython's time; CPython's has neither (mypy checks this file against the rp2 stubs).
    _ticks_us = time.ticks_us  # type: ignore[attr-defined]
    _ticks_diff = time.ticks_diff  # type: ignore[attr-defined]
except AttributeError:  # CPython
    def _ticks_us():
        return time.perf_counter_ns() // 1000  # type: ignore[attr-defined]  # CPython's time

    def _ticks_diff(a, b):
        return a - b


def _reverse_table():
    t = bytearray(256)
    for i in range(256):
        r = 0
        v = i
        for _ in range(8):
            r = (r << 1) | (v & 1)
            v >>= 1
        t[i] = r
    return bytes(t)


REV = _reverse_table()  # REV[b]: b with its bit order reversed

# SPI prefixes (UM0701-02 §6.2.5)
SPI_DATA_WRITE = 0x01
SPI_STATUS_READ = 0x02
SPI_DATA_READ = 0x03

ACK_FRAME = b"\x00\x00\xff\x00\xff\x00"         # §6.2.1.3
NACK_FRAME = b"\x00\x00\xff\xff\x00\x00"        # §6.2.1.4
ERROR_FRAME = b"\x00\x00\xff\x01\xff\x7f\x81\x00"  # §6.2.1.5, application-level error

# Status codes (UM0701-02 §7.1, Table 4)
ERR_TIMEOUT = 0x01    # the target has not answered
ERR_MIFARE = 0x14     # model choice: how a tag's 4-bit NAK is reported (§7.1 lists no NAK code;
                      # 0x14 is the MIFARE error a NAK to a MIFARE command surfaces as).  Unverified.
ERR_CONTEXT = 0x27    # not acceptable in the current context (e.g. unknown target number)

# Tag states (ISO/IEC 14443-3, reduced)
IDLE = 0
ACTIVE = 1
HALT = 2

NAK = -1     # SimTag.command: the tag answered with a 4-bit NAK
SILENT = -2  # SimTag.command: the tag did not answer

# Command codes (UM0701-02 §7), the model's own: it is a witness independent of the driver under
# test (firmware/pn532.py), so it names them itself rather than importing the driver's.
_CMD_GET_FIRMWARE_VERSION = const(0x02)     # §7.2.2
_CMD_SAM_CONFIGURATION = const(0x14)        # §7.2.10
_CMD_RF_CONFIGURATION = const(0x32)         # §7.3.1
_CMD_IN_DATA_EXCHANGE = const(0x40)         # §7.3.8
_CMD_IN_LIST_PASSIVE_TARGET = const(0x4A)   # §7.3.5
_CMD_IN_RELEASE = const(0x52)               # §7.3.11

# RFConfiguration items the model acts on
_RF_FIELD = const(0x01)
_RF_MAX_RETRIES = const(0x05)

# RFConfiguration item -> number of ConfigurationData bytes (§7.3.1)
_RF_ITEMS = {0x01: 1, 0x02: 3, 0x04: 1, 0x05: 3, 0x0A: 11, 0x0B: 8, 0x0C: 3, 0x0D: 9}

# Transaction modes
_M_NONE = 0     # not selected
_M_PREFIX = 1   # selected, waiting for the prefix byte
_M_STATUS = 2
_M_WRITE = 3
_M_READ = 4
_M_IGNORE = 5   # unknown prefix: the rest of the transaction is ignored

_SRC_NONE = 0
_SRC_ACK = 1
_SRC_REPLY = 2

_BUF = 300  # longer than any normal information frame (LEN ≤ 255)

# Chip time per command (µs, ``chip_time``): from the command's frame to its reply being ready.
# UM0701-02 gives no figures; these follow the air interface, ISO/IEC 14443-2/-3 type A at
# 106 kbit/s (a byte with parity ≈ 85 µs, frame delay ≈ 90 µs), plus the chip's own handling, and
# are estimates until the bench measures them (docs/firmware.md, "Chip model"):
CHIP_US_COMMAND = 400      # GetFirmwareVersion, SAMConfiguration, RFConfiguration items but the field
CHIP_US_FIELD = 500        # RFConfiguration item 1: RF field on or off
CHIP_US_FIELD_ON = 5000    # field-on guard before the first WUPA: a PICC must answer within 5 ms of
                           # the field coming on (ISO/IEC 14443-3 §6), so a PCD waits that long
CHIP_US_ATTEMPT = 1000     # one activation attempt without a card: WUPA, the ATQA timeout, the pause before the next
CHIP_US_ACTIVATE = 2500    # a card found: WUPA/ATQA, two cascade levels of anticollision + SELECT
CHIP_US_EXCHANGE = 2500    # InDataExchange READ: 4 bytes out, 18 back at 106 kbit/s, plus handling
CHIP_US_RELEASE = 1000     # InRelease: HLTA


class SimTag:
    """An ISO/IEC 14443-3 type A tag: UID (4, 7 or 10 bytes), SENS_RES (ATQA), SEL_RES (SAK).

    The defaults describe a MIFARE Classic 1K with a 4-byte NUID (ATQA 00 04, SAK 08); it answers
    no command without authentication (READ gets a NAK).

    ``coupling``: the percentage of activation attempts the tag hears (100: always).  Below 100 it
    is a card at the edge of the field, under a hovering hand or detuned by a neighbour: each WUPA
    reaches it or not by a fixed pseudo-random sequence (the same in CPython and MicroPython).
    """

    coupling = 100

    def __init__(self, uid, sens_res=b"\x00\x04", sel_res=0x08):
        if len(uid) not in (4, 7, 10):
            raise ValueError("UID must be 4, 7 or 10 bytes")
        self.uid = bytes(uid)
        self.sens_res = bytes(sens_res)
        self.sel_res = sel_res
        self.state = IDLE
        self.resp = bytearray(32)  # the last answer's bytes (pre-allocated: answering allocates nothing)
        self._rng = 1

    def wakeup(self):
        """WUPA + anticollision + SELECT.  True when the tag answered and is now ACTIVE."""
        if self.coupling < 100:
            self._rng = (self._rng * 75 + 74) % 65537   # ZX81's generator: small ints on any port
            if self._rng % 100 >= self.coupling:
                return False  # the WUPA did not reach it: no answer, state unchanged
        if self.state == ACTIVE:
            self.state = IDLE  # an unexpected frame in ACTIVE: back to IDLE, no answer
            return False
        self.state = ACTIVE
        return True

    def halt(self):
        self.state = HALT

    def unpower(self):
        self.state = IDLE

    def command(self, buf, start, n):
        """Answer the command ``buf[start:start+n]``: the answer's length in ``resp`` (0 = the 4-bit
        ACK), ``NAK`` or ``SILENT``."""
        self.state = IDLE
        return NAK


# NTAG21x (NTAG213/215/216 datasheet): kind -> (total pages, CC size byte, GET_VERSION storage byte)
_NTAG = {213: (45, 0x12, 0x0F), 215: (135, 0x3E, 0x11), 216: (231, 0x6D, 0x13)}


class SimNTAG(SimTag):
    """An NTAG213/215/216 (``kind``): 7-byte UID, user memory from page 4 (144/504/888 bytes).

    ``user``: initial user memory (shorter is zero-padded).  Commands: READ (0x30: 16 bytes = 4
    pages from the address, rolling over to page 0 past the end; PWD and PACK read as 00), WRITE
    (0xA2, pages 4 up), READ_SIG (0x3C 00: the 32-byte originality signature), GET_VERSION (0x60).
    An address past the last page gets a NAK.
    """

    def __init__(self, uid, user=b"", kind=213, signature=None):
        if len(uid) != 7:
            raise ValueError("NTAG21x UIDs are 7 bytes")
        if kind not in _NTAG:
            raise ValueError("kind must be 213, 215 or 216")
        SimTag.__init__(self, uid, b"\x00\x44", 0x00)
        self.kind = kind
        total, cc_size, self._version_size = _NTAG[kind]
        self.total_pages = total
        self.user_pages = total - 9  # pages 4 .. total-6; then dynamic lock, CFG0, CFG1, PWD, PACK
        if len(user) > self.user_pages * 4:
            raise ValueError("NTAG%d holds %d user bytes" % (kind, self.user_pages * 4))
        self.signature = bytes(signature) if signature is not None else bytes(32)
        if len(self.signature) != 32:
            raise ValueError("the originality signature is 32 bytes")
        m = bytearray(total * 4)
        u = self.uid
        m[0:4] = bytes((u[0], u[1], u[2], 0x88 ^ u[0] ^ u[1] ^ u[2]))   # BCC0 includes CT 0x88
        m[4:8] = u[3:7]
        m[8:12] = bytes((u[3] ^ u[4] ^ u[5] ^ u[6], 0x48, 0x00, 0x00))  # BCC1, internal, static lock
        m[12:16] = bytes((0xE1, 0x10, cc_size, 0x00))                    # capability container
        m[16:16 + len(user)] = user
        cfg = (total - 5) * 4
        m[cfg:cfg + 4] = b"\x00\x00\x00\xbd"         # dynamic lock bytes
        m[cfg + 4:cfg + 8] = b"\x04\x00\x00\xff"     # CFG0: AUTH0 = FF (no password protection)
        m[cfg + 8:cfg + 12] = b"\x00\x05\x00\x00"    # CFG1
        self.memory = m  # PWD and PACK (last two pages) stay 00 here and always read as 00
        self._version = bytes((0x00, 0x04, 0x04, 0x02, 0x01, 0x00, self._version_size, 0x03))

    def user_memory(self):
        return bytes(self.memory[16:16 + self.user_pages * 4])

    def command(self, buf, start, n):
        op = buf[start] if n else -1
        total = self.total_pages
        resp = self.resp
        mem = self.memory
        if op == 0x30 and n == 2:
            page = buf[start + 1]
            if page >= total:
                self.state = IDLE
                return NAK
            for i in range(4):
                p = (page + i) % total
                for k in range(4):
                    resp[4 * i + k] = mem[4 * p + k] if p < total - 2 else 0  # PWD, PACK read 00
            return 16
        if op == 0xA2 and n == 6:
            page = buf[start + 1]
            if page < 4 or page >= total:
                self.state = IDLE
                return NAK
            for k in range(4):
                mem[4 * page + k] = buf[start + 2 + k]
            return 0
        if op == 0x3C and n == 2 and buf[start + 1] == 0:
            for k in range(32):
                resp[k] = self.signature[k]
            return 32
        if op == 0x60 and n == 1:
            for k in range(8):
                resp[k] = self._version[k]
            return 8
        self.state = IDLE
        return NAK


def _cascade_byte(uid, i):
    """Byte ``i`` of what a tag sends through the anticollision loop, cascade level after level
    (ISO/IEC 14443-3 §6.5.3): a 4-byte UID as it is; 7 bytes as CT (0x88), UID0-2, UID3-6; 10
    bytes as CT, UID0-2, CT, UID3-5, UID6-9.  -1 past the end."""
    n = len(uid)
    if n == 4:
        return uid[i] if i < 4 else -1
    if n == 7:
        return 0x88 if i == 0 else (uid[i - 1] if i < 8 else -1)
    if i == 0 or i == 4:
        return 0x88
    return uid[i - 1] if i < 4 else (uid[i - 2] if i < 12 else -1)


def _wins(a, b):
    """True when UID ``a`` is selected before ``b``: at the first bit where the two differ, in the
    order the bits go on air (byte by byte, least significant bit first), the PCD takes the
    branch of the 1 (model choice: NXP reader ICs' anticollision reference code does; what
    matters to a driver is that the pick follows the UIDs, not the order the cards were laid)."""
    for i in range(12):
        x = _cascade_byte(a, i)
        y = _cascade_byte(b, i)
        if x < 0 or y < 0:
            return y < 0 and x >= 0
        d = x ^ y
        if d:
            return x & (d & -d) != 0
    return False


class SimPN532:
    """One simulated PN532 on SPI.  See the module docstring for behaviour and knobs."""

    fields_now = 0   # RF fields on at this moment, across all instances in the process
    fields_max = 0   # the most ever on at once (world.reset() zeroes it)

    def __init__(self, name="pn532", firmware=b"\x32\x01\x06\x07", strict=True, lose_first=False):
        # Everything set here survives a power cycle (the chip, its antenna's tags, the knobs, the
        # counters); the chip's own state is set by _power_up alone, called last: the one reset.
        self.name = name
        self.firmware = bytes(firmware)
        self.alive = True
        self.tags = []
        self.rst_low = False
        # Created here for _power_up: the target list it clears, the field it switches off (off
        # already, so that first switch-off counts nothing).
        self.targets = []
        self.rf_on = False
        # fault injection
        self.drop_acks = 0
        self.corrupt_replies = 0
        self.corrupt_commands = 0
        self.ack_gap_us = 0
        self.reply_delay_polls = 0
        # strictness: what a real chip does that a kind model would not.  The chip's time is on by
        # default; losing the first command is asked for (the firmware's simulated readers do: the
        # simulated world and the sim build's models), since a host driver that never retries it
        # would fail at once (Adafruit's constructor sends its SAMConfiguration as that command).
        self.chip_time = strict           # replies take the command's time (CHIP_US_*), not 0
        self.short_preamble = False       # send 00 FF instead of 00 00 FF
        self.extra_zeros = 0              # more 00s before the preamble (UM0701-02 §6.2.1.6 allows them)
        self.zero_reads = 0               # the next n data reads of a ready frame show only 00s
        # a byte clocked sooner than this after NSS falls is lost while the chip wakes (after
        # power-up, until it has taken a command: UM0701-02 §6.3.2.3, the oscillator start-up)
        self.cs_setup_us = 0
        self.lose_first_command = lose_first  # the first frame after power-up gets no ACK
        self.lost = 0                   # frames lost that way
        self.missed_prefixes = 0        # transactions lost to a short CS setup time
        self._sel_at = 0
        # observation
        self.log = None
        # Pre-seeded with the modelled commands: counting them never grows the dict (no allocation).
        self.commands = {}
        for cmd in SimPN532._HANDLERS:
            self.commands[cmd] = 0
        self.frames = 0
        self.bad_frames = 0
        self.acks = 0
        self.error_frames = 0
        self.aborts = 0
        self.last_ack_gap_us = None
        self._in = bytearray(_BUF)
        self._out = bytearray(_BUF)
        self._last = bytearray(_BUF)
        self._mode = _M_NONE
        self._power_up()

    # ---- power, reset, field ---------------------------------------------------------------
    def _power_up(self):
        """The chip's state after power-up (construction, power_cycle, the RST line's rising edge)."""
        self.sam_ok = False
        self.max_retries = 0xFF   # MxRtyPassiveActivation after power-up (§7.3.1)
        self._set_field(False)
        self.targets.clear()
        self._n_in = 0
        self._ack_pending = False
        self._reply_len = 0
        self._last_len = 0
        self._n_out = 0
        self._delay = 0
        self._pending = 0
        self._pending_maxtg = 1
        self._src = _SRC_NONE
        self._rd = 0
        self._pos = 0              # bytes of the current frame already read, across CS cycles
        self._pos_src = _SRC_NONE  # which frame _pos counts (a new one starts at 0)
        self._ready_at = 0
        self._busy_us = 0
        self._awake = False        # the first command after power-up is lost (lose_first_command)
        self._listening = False    # awake: has taken a command since power-up (cs_setup_us no longer applies)
        self._gap_open = False
        self._cmd_end = 0

    def power_cycle(self):
        """Power off and on: back to the power-up state."""
        self._power_up()

    def set_rst(self, level):
        """The RSTPDN pin: 0 holds the chip in reset (silent, field off); 0 -> 1 restarts it."""
        if not level:
            self.rst_low = True
            self._mode = _M_NONE
            self._set_field(False)
        elif self.rst_low:
            self.rst_low = False
            self._power_up()

    def _set_field(self, on):
        on = bool(on)
        if on == self.rf_on:
            return
        self.rf_on = on
        if on:
            SimPN532.fields_now += 1
            if SimPN532.fields_now > SimPN532.fields_max:
                SimPN532.fields_max = SimPN532.fields_now
        else:
            SimPN532.fields_now -= 1
            for t in self.tags:  # tags lose power with the field
                t.unpower()

    # ---- the card field ------------------------------------------------------------------
    def place(self, tag):
        """Put ``tag`` on the antenna (it arrives unpowered: IDLE)."""
        if tag in self.tags:
            raise ValueError("tag already on this reader")
        tag.unpower()
        self.tags.append(tag)
        self._progress()

    def lift(self, tag=None):
        """Take ``tag`` (None: every tag) off the antenna."""
        if tag is None:
            for t in self.tags:
                t.unpower()
            self.tags.clear()
        else:
            self.tags.remove(tag)
            tag.unpower()

    # ---- SPI -----------------------------------------------------------------------------
    def select(self):
        """NSS falling edge."""
        if self.alive and not self.rst_low:
            if self.cs_setup_us:
                self._sel_at = _ticks_us()  # type: ignore[assignment]  # a ticks value, kept as an int
            self._mode = _M_PREFIX
            self._n_in = 0
            self._rd = 0

    def deselect(self):
        """NSS rising edge: a data write is parsed now; a data read that reached the frame's end
        (its DCS; the postamble may go unread) consumes it, a shorter one leaves the rest for the
        next read, which goes on where this one stopped."""
        mode = self._mode
        self._mode = _M_NONE
        if not self.alive or self.rst_low:
            return
        if mode == _M_WRITE and self._n_in:
            if self.log is not None:
                self.log.append(bytes(self._in[:self._n_in]))
            self._frame_in(self._n_in)
        elif mode == _M_READ and self._rd and self._src != _SRC_NONE and self._pos >= self._flen() - 1:
            self._pos_src = _SRC_NONE
            if self._src == _SRC_ACK:
                self._ack_pending = False
                self.acks += 1
                self._delay = self.reply_delay_polls
            elif self._src == _SRC_REPLY:
                self._out, self._last = self._last, self._out
                self._last_len = self._reply_len
                self._reply_len = 0

    def exchange(self, wire):
        """Clock one byte: ``wire`` on MOSI in, the MISO byte out (None: MISO not driven)."""
        mode = self._mode
        if mode == _M_NONE or not self.alive or self.rst_low:
            return None
        b = REV[wire]
        if mode == _M_STATUS:
            return REV[self._status()]
        if mode == _M_WRITE:
            if self._n_in < _BUF:
                self._in[self._n_in] = b
                self._n_in += 1
            return 0
        if mode == _M_READ:
            self._rd += 1
            return REV[self._next()]
        if mode == _M_PREFIX:
            return self._prefix(b)
        return 0

    def _prefix(self, b):
        """The transaction's first byte: status read, data write or data read (the MISO byte)."""
        if (self.cs_setup_us and not self._listening
                and _ticks_diff(_ticks_us(), self._sel_at) < self.cs_setup_us):
            self._mode = _M_IGNORE  # not listening yet: the prefix is lost, the rest is noise
            self.missed_prefixes += 1
            return 0
        if b == SPI_STATUS_READ:
            self._mode = _M_STATUS
        elif b == SPI_DATA_WRITE:
            self._mode = _M_WRITE
        elif b == SPI_DATA_READ:
            self._mode = _M_READ
            if self._ack_pending:
                src = _SRC_ACK
            elif self._reply_len and not self._delay and self._due():
                src = _SRC_REPLY
            else:
                src = _SRC_NONE
            if src != _SRC_NONE and self.zero_reads:
                self.zero_reads -= 1
                src = _SRC_NONE     # ready, but this read shows 00s only: the frame comes later
            self._src = src
            if src != self._pos_src and src != _SRC_NONE:   # a frame read for the first time
                self._pos_src = src
                self._pos = 0
            elif src != _SRC_NONE and self._pos:
                # A continued read: the chip already shifts out the frame's next byte while
                # the prefix comes in (libnfc pn532_spi.c and pn532pi rely on it).
                return REV[self._next()]
        else:
            self._mode = _M_IGNORE
        return 0

    def _next(self):
        """The next byte of the frame being read (00 past its end); the short preamble drops the
        first 00 of ``00 00 FF``."""
        src = self._src
        if src == _SRC_NONE:
            return 0
        k = self._pos - self._lead()
        self._pos += 1
        if k < 0:
            return 0
        if src == _SRC_ACK:
            return ACK_FRAME[k] if k < 6 else 0
        if src == _SRC_REPLY:
            return self._out[k] if k < self._reply_len else 0
        return 0

    def _lead(self):
        """Bytes sent before the frame's own first byte (-1: its first 00 is left out)."""
        return self.extra_zeros - (1 if self.short_preamble else 0)

    def _flen(self):
        """Bytes in the frame being read, as sent."""
        return (6 if self._src == _SRC_ACK else self._reply_len) + self._lead()

    def _due(self):
        """The reply's processing time (``chip_time``) has passed."""
        return not self.chip_time or _ticks_diff(_ticks_us(), self._ready_at) >= 0

    def irq_level(self):
        """The P70_IRQ pin (SAMConfiguration's IRQ use, on by default): 0 while a frame (the ACK
        or a reply) is ready for the host, else 1; an absent or unpowered chip leaves it high (the
        pull-up).  Reading the pin is no SPI transaction: an early look loses no ACK."""
        if not self.alive or self.rst_low:
            return 1
        if self._pending:
            self._progress()
        if self._ack_pending:
            return 0
        if self._reply_len:
            if self._delay:
                self._delay -= 1
                return 1
            return 0 if self._due() else 1
        return 1

    def _status(self):
        """The status byte for one status-read clock: 0x01 when a frame is ready."""
        if self._gap_open:
            self._gap_open = False
            waited = _ticks_diff(_ticks_us(), self._cmd_end)
            self.last_ack_gap_us = waited
            if self._ack_pending and waited < self.ack_gap_us:
                self._ack_pending = False  # polled too soon: this board loses the ACK
        if self._pending:
            self._progress()
        if self._ack_pending:
            return 1
        if self._reply_len:
            if self._delay:
                self._delay -= 1
                return 0
            return 1 if self._due() else 0
        return 0

    # ---- frames --------------------------------------------------------------------------
    def _frame_in(self, n):
        buf = self._in
        if self.corrupt_commands and n > 1:
            self.corrupt_commands -= 1
            buf[n - 2] ^= 0x10  # line noise on the way in: the DCS no longer matches
        i = 0
        while i < n and buf[i] == 0:
            i += 1
        if i == 0 or i + 2 >= n or buf[i] != 0xFF:
            self.bad_frames += 1  # no start code 00 FF: not a frame, no ACK
            return
        length = buf[i + 1]
        lcs = buf[i + 2]
        if length == 0 and lcs == 0xFF:  # the host's ACK: abort the command in progress
            self.aborts += 1
            self._pending = 0
            self._ack_pending = False
            self._reply_len = 0
            return
        if length == 0xFF and lcs == 0x00:  # the host's NACK: send the last reply again
            if self._last_len:
                self._out, self._last = self._last, self._out
                self._reply_len = self._last_len
                self._delay = 0
                self._pos_src = _SRC_NONE
            return
        if (length + lcs) & 0xFF or length == 0xFF:
            self.bad_frames += 1  # LCS wrong (or an extended frame, not modelled): silence
            return
        start = i + 3  # TFI
        if start + length >= n:
            self.bad_frames += 1  # truncated: the DCS never came
            return
        s = 0
        for k in range(start, start + length + 1):
            s += buf[k]
        if s & 0xFF:
            self.bad_frames += 1  # DCS wrong: silence, the host resends after 15 ms
            return
        if self.lose_first_command and not self._awake:
            self._awake = True
            self.lost += 1  # model choice: the chip was still waking up; the host resends
            return
        self._awake = True
        self._listening = True
        self.frames += 1
        # A new command aborts whatever was running (§6.2.2).
        self._pending = 0
        self._reply_len = 0
        self._delay = 0
        self._pos_src = _SRC_NONE
        if self.drop_acks:
            self.drop_acks -= 1
            self._ack_pending = False
        else:
            self._ack_pending = True
        self._gap_open = True
        self._cmd_end = _ticks_us()  # type: ignore[assignment]  # a ticks value, kept as an int
        if length < 2 or buf[start] != 0xD4:
            self._error()
            return
        cmd = buf[start + 1]
        self.commands[cmd] = self.commands.get(cmd, 0) + 1
        self._busy_us = CHIP_US_COMMAND
        self._command(cmd, start + 2, length - 2)
        self._ready_at = self._cmd_end + self._busy_us

    def _error(self):
        out = self._out
        for k in range(8):
            out[k] = ERROR_FRAME[k]
        self._reply_len = 8
        self.error_frames += 1

    def _begin(self, cmd):
        out = self._out
        out[0] = 0x00
        out[1] = 0x00
        out[2] = 0xFF
        out[5] = 0xD5
        out[6] = cmd + 1
        self._n_out = 7

    def _put(self, b):
        self._out[self._n_out] = b
        self._n_out += 1

    def _end(self):
        out = self._out
        n = self._n_out
        length = n - 5
        out[3] = length
        out[4] = (-length) & 0xFF
        s = 0
        for k in range(5, n):
            s += out[k]
        out[n] = (-s) & 0xFF
        if self.corrupt_replies:
            self.corrupt_replies -= 1
            out[n] ^= 0x01
        out[n + 1] = 0x00
        self._reply_len = n + 2

    # ---- commands ------------------------------------------------------------------------
    # One method per modelled command, found in _HANDLERS by its code (below the methods); each
    # gets the parameters' offset ``p`` in the input buffer and their count ``np``.
    def _command(self, cmd, p, np):
        handler = SimPN532._HANDLERS.get(cmd)
        if handler is None:
            return self._error()  # not modelled
        return handler(self, p, np)

    def _get_firmware_version(self, p, np):
        if np:
            return self._error()
        self._begin(_CMD_GET_FIRMWARE_VERSION)
        for b in self.firmware:
            self._put(b)
        return self._end()

    def _sam_configuration(self, p, np):
        # Mode [Timeout [IRQ]]
        if not 1 <= np <= 3 or not 1 <= self._in[p] <= 4:
            return self._error()
        self.sam_ok = True
        self._begin(_CMD_SAM_CONFIGURATION)
        return self._end()

    def _rf_configuration(self, p, np):
        # CfgItem ConfigurationData
        buf = self._in
        if np < 1 or _RF_ITEMS.get(buf[p], -1) != np - 1:
            return self._error()
        item = buf[p]
        if item == _RF_FIELD:
            self._busy_us = CHIP_US_FIELD
            self._set_field(buf[p + 1] & 0x01)
            if not self.rf_on:
                self.targets.clear()
        elif item == _RF_MAX_RETRIES:
            self.max_retries = buf[p + 3]  # MxRtyATR, MxRtyPSL, MxRtyPassiveActivation
        self._begin(_CMD_RF_CONFIGURATION)
        return self._end()

    def _in_list_passive_target(self, p, np):
        # MaxTg BrTy [InitiatorData]
        buf = self._in
        if np < 2 or buf[p] not in (1, 2) or buf[p + 1] > 4 or not self.sam_ok:
            return self._error()
        self.targets.clear()
        if buf[p + 1] != 0x00:  # only 106 kbps type A tags exist in this model
            return self._list_reply()
        if not self.rf_on:
            self._busy_us += CHIP_US_FIELD_ON
        self._set_field(True)
        self._pending_maxtg = buf[p]
        tries = self.max_retries + 1
        if self.max_retries == 0xFF:
            self._pending = _CMD_IN_LIST_PASSIVE_TARGET  # retry forever: re-attempted on every status poll
            tries = 1
        for _ in range(tries):
            if self._activate():
                self._busy_us += CHIP_US_ACTIVATE
                self._pending = 0
                return self._list_reply()
            self._busy_us += CHIP_US_ATTEMPT
        if not self._pending:
            return self._list_reply()
        return None

    def _in_data_exchange(self, p, np):
        # Tg DataOut
        if np < 1 or not self.sam_ok:
            return self._error()
        buf = self._in
        tg = buf[p] & 0x0F  # bit 6 is the MI (more information) flag
        self._begin(_CMD_IN_DATA_EXCHANGE)
        if not 1 <= tg <= len(self.targets):
            self._put(ERR_CONTEXT)
            return self._end()
        tag = self.targets[tg - 1]
        self._busy_us = CHIP_US_EXCHANGE
        if not self.rf_on or tag not in self.tags or tag.state != ACTIVE:
            self._put(ERR_TIMEOUT)
            return self._end()
        n = tag.command(buf, p + 1, np - 1)
        if n == SILENT:
            self._put(ERR_TIMEOUT)
        elif n == NAK:
            self._put(ERR_MIFARE)
        else:
            self._put(0x00)
            resp = tag.resp
            for k in range(n):
                self._put(resp[k])
        return self._end()

    def _in_release(self, p, np):
        # Tg (0 = all)
        if np != 1 or not self.sam_ok:
            return self._error()
        tg = self._in[p]
        self._busy_us = CHIP_US_RELEASE
        self._begin(_CMD_IN_RELEASE)
        if tg == 0:
            for t in self.targets:
                self._hlta(t)
            self.targets.clear()
            self._put(0x00)
        elif tg <= len(self.targets):
            self._hlta(self.targets.pop(tg - 1))
            self._put(0x00)
        else:
            self._put(ERR_CONTEXT)
        return self._end()

    # command code -> its method, called as handler(self, p, np)
    _HANDLERS = {
        _CMD_GET_FIRMWARE_VERSION: _get_firmware_version,
        _CMD_SAM_CONFIGURATION: _sam_configuration,
        _CMD_RF_CONFIGURATION: _rf_configuration,
        _CMD_IN_DATA_EXCHANGE: _in_data_exchange,
        _CMD_IN_LIST_PASSIVE_TARGET: _in_list_passive_target,
        _CMD_IN_RELEASE: _in_release,
    }

    def _hlta(self, tag):
        if self.rf_on and tag in self.tags and tag.state == ACTIVE:
            tag.halt()

    def _activate(self):
        """One WUPA round: every tag in the field hears it; of those that answer, anticollision
        selects up to MaxTg in UID order (``_wins``), whatever order they were laid in; a tag it
        does not select is left IDLE."""
        found = False
        targets = self.targets
        for t in self.tags:
            if t.wakeup():
                k = 0
                while k < len(targets) and _wins(targets[k].uid, t.uid):
                    k += 1
                targets.insert(k, t)
                found = True
                if len(targets) > self._pending_maxtg:
                    targets.pop().state = IDLE  # lost the anticollision: not selected
        return found

    def _list_reply(self):
        self._begin(_CMD_IN_LIST_PASSIVE_TARGET)
        self._put(len(self.targets))
        for k in range(len(self.targets)):
            t = self.targets[k]
            self._put(k + 1)
            self._put(t.sens_res[0])
            self._put(t.sens_res[1])
            self._put(t.sel_res)
            self._put(len(t.uid))
            for b in t.uid:
                self._put(b)
        self._end()

    def _progress(self):
        """A running InListPassiveTarget (retry forever) completes when a tag answers."""
        if self._pending == _CMD_IN_LIST_PASSIVE_TARGET and self.rf_on and self._activate():
            self._pending = 0
            self._ready_at = _ticks_us()  # type: ignore[assignment]  # a ticks value, kept as an int
            self._list_reply()
            self._delay = 0 if self._ack_pending else self.reply_delay_polls
