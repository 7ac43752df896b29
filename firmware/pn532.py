"""PN532 NFC reader driver over SPI (mode 0) for MicroPython on the RP2040; CPython imports it too.

The PN532 talks SPI LSB-first; the rp2 port's ``machine.SPI`` is MSB-first only, so every byte is
bit-reversed in software through ``REV`` (a 256-byte table) on the way out and on the way in.
References are to NXP UM0701-02 (PN532 User Manual, rev. 02): frames §6.2.1, dialog §6.2.2,
SPI §6.2.5, commands §7.2/§7.3; NTAG READ/WRITE from the NTAG213/215/216 datasheet.

API (used by ``reader.py`` and the scan loop)::

    spi = machine.SPI(0, baudrate=1_000_000, polarity=0, phase=0, sck=.., mosi=.., miso=..)
    bus = PN532Bus(spi)          # one per SPI bus: the frame buffers every chip on it shares
    cs = machine.Pin(17, machine.Pin.OUT, value=1)
    pn = PN532(bus, cs, rst=machine.Pin(20, machine.Pin.OUT, value=1))   # rst optional
    fw = pn.begin()              # GetFirmwareVersion, SAMConfiguration, MaxRetries; fw = 0x32010607
    uid = bytearray(UID_MAX)     # caller-owned, allocated once
    page = bytearray(16)
    n = pn.list_passive_target(uid)   # 0 = no card (returns quickly thanks to MaxRetries)
    pn.targets                        # cards that answered: 2 = two cards on the antenna
    if n:
        pn.read_pages(4, page)        # NTAG READ: 16 bytes = pages 4..7 (the card code)
    pn.rf_field(False)                # field off so that only one reader radiates at a time; it
                                      # also unpowers the tags (no InRelease needed before it)

``PN532(spi, cs)`` with a bare SPI object works too (the chip then gets a bus of its own).

Every method either completes or raises a ``PN532Error`` subclass: ``PN532Timeout`` (the chip
never became ready: absent, unpowered, held in reset), ``PN532NoAck`` (something other than the ACK
frame came back), ``PN532BadFrame`` (preamble, length checksum, data checksum or reply code wrong),
``PN532CommandError`` (the chip's error frame, or a non-zero status byte; ``.code`` holds it).

Steady-state polling allocates nothing, and the buffers exist once per SPI bus, not once per
reader: frames are built in the bus's transmit buffer and replies land in its receive buffer
(``PN532Bus``); bytes cross the wire through one 32-byte scratch buffer in power-of-two chunks,
so six memoryviews made once serve every transfer length; results go into caller-supplied
buffers.  Sharing is safe because a transaction is never interleaved with another: every method
runs its command to the end (or raises) and copies what it returns out of the receive buffer
before the next chip is selected.
"""

from compat import const, sleep_ms, sleep_us, ticks_diff, ticks_ms

# Bit reversal of every byte value: REV[b] is b with bit 7..0 mirrored (LSB-first wire <-> MSB SPI).
REV = (
    b"\x00\x80\x40\xc0\x20\xa0\x60\xe0\x10\x90\x50\xd0\x30\xb0\x70\xf0"
    b"\x08\x88\x48\xc8\x28\xa8\x68\xe8\x18\x98\x58\xd8\x38\xb8\x78\xf8"
    b"\x04\x84\x44\xc4\x24\xa4\x64\xe4\x14\x94\x54\xd4\x34\xb4\x74\xf4"
    b"\x0c\x8c\x4c\xcc\x2c\xac\x6c\xec\x1c\x9c\x5c\xdc\x3c\xbc\x7c\xfc"
    b"\x02\x82\x42\xc2\x22\xa2\x62\xe2\x12\x92\x52\xd2\x32\xb2\x72\xf2"
    b"\x0a\x8a\x4a\xca\x2a\xaa\x6a\xea\x1a\x9a\x5a\xda\x3a\xba\x7a\xfa"
    b"\x06\x86\x46\xc6\x26\xa6\x66\xe6\x16\x96\x56\xd6\x36\xb6\x76\xf6"
    b"\x0e\x8e\x4e\xce\x2e\xae\x6e\xee\x1e\x9e\x5e\xde\x3e\xbe\x7e\xfe"
    b"\x01\x81\x41\xc1\x21\xa1\x61\xe1\x11\x91\x51\xd1\x31\xb1\x71\xf1"
    b"\x09\x89\x49\xc9\x29\xa9\x69\xe9\x19\x99\x59\xd9\x39\xb9\x79\xf9"
    b"\x05\x85\x45\xc5\x25\xa5\x65\xe5\x15\x95\x55\xd5\x35\xb5\x75\xf5"
    b"\x0d\x8d\x4d\xcd\x2d\xad\x6d\xed\x1d\x9d\x5d\xdd\x3d\xbd\x7d\xfd"
    b"\x03\x83\x43\xc3\x23\xa3\x63\xe3\x13\x93\x53\xd3\x33\xb3\x73\xf3"
    b"\x0b\x8b\x4b\xcb\x2b\xab\x6b\xeb\x1b\x9b\x5b\xdb\x3b\xbb\x7b\xfb"
    b"\x07\x87\x47\xc7\x27\xa7\x67\xe7\x17\x97\x57\xd7\x37\xb7\x77\xf7"
    b"\x0f\x8f\x4f\xcf\x2f\xaf\x6f\xef\x1f\x9f\x5f\xdf\x3f\xbf\x7f\xff"
)

# Names with a leading underscore are folded into the code by the compiler (``const``) and take no
# RAM on the Pico; the public ones are what other modules and the benchmark import.

# SPI prefixes (UM0701-02 §6.2.5): first byte of every CS-low transaction.
_SPI_DATA_WRITE = const(0x01)
_SPI_STATUS_READ = const(0x02)
_SPI_DATA_READ = const(0x03)
_STATUS_READY = const(0x01)
_WIRE_STATUS_READ = const(0x40)  # REV[0x02]: the prefixes as they go out on MSB-first SPI
_WIRE_DATA_READ = const(0xC0)    # REV[0x03]

# Frame bytes (§6.2.1.1): 00 00 FF LEN LCS TFI data… DCS 00.
_TFI_HOST = const(0xD4)
_TFI_CHIP = const(0xD5)
_TFI_ERROR = const(0x7F)  # application-level error frame 00 00 FF 01 FF 7F 81 00 (§6.2.1.5)

# Commands (§7.2, §7.3).
_CMD_GET_FIRMWARE_VERSION = const(0x02)
_CMD_SAM_CONFIGURATION = const(0x14)
_CMD_RF_CONFIGURATION = const(0x32)
_CMD_IN_DATA_EXCHANGE = const(0x40)
_CMD_IN_LIST_PASSIVE_TARGET = const(0x4A)
_CMD_IN_RELEASE = const(0x52)

# NTAG21x commands carried by InDataExchange (NTAG213/215/216 datasheet §10).
_NTAG_READ = const(0x30)
_NTAG_WRITE = const(0xA2)

UID_MAX = const(10)  # ISO/IEC 14443-3 triple-size UID
_PAGE_BYTES = const(4)
READ_BYTES = const(16)  # READ returns 4 pages
FIRST_USER_PAGE = const(4)

# Timings (ms).  The ACK is due within 15 ms (§6.2.3: "the host controller should resend the same
# command frame" when no ACK came within 15 ms).  A status poll right after a command makes some
# boards drop the ACK, hence ACK_GAP_MS before the first poll.
ACK_GAP_MS = const(1)
ACK_TIMEOUT_MS = const(15)
# InListPassiveTarget "can be rather slow to respond (sometimes >100ms)" (Adafruit_CircuitPython_
# PN532#50); the board file's ``timing.reply_timeout_ms`` sets it per table.
REPLY_TIMEOUT_MS = const(100)
# Wait after chip-select goes low before the first clock while the chip wakes (UM0701-02 §6.3.2.3:
# the oscillator start-up, "typically a few 100 µs … up to 2 ms", only after power-down): used from
# ``begin()`` until the chip has answered, i.e. at power-up and in a recovery, not on every transfer
# (Adafruit's CircuitPython driver never waits; ``timing.cs_setup_us``).
CS_SETUP_US = const(1000)
MAX_TARGETS = const(2)  # InListPassiveTarget MaxTg: "2 targets maximum at once" (§7.3.5)
POLL_INTERVAL_MS = const(1)
RESET_LOW_MS = const(2)
RESET_BOOT_MS = const(10)
# MxRtyPassiveActivation for RFConfiguration item 0x05: 0xFF (the power-up default) retries
# forever, so an empty InListPassiveTarget would never answer; 1 = two tries, then "no target".
MAX_RETRIES_DEFAULT = const(1)

_TX_SIZE = const(32)   # prefix + 00 00 FF LEN LCS D4 cmd + up to 22 parameter bytes + DCS 00
_PARAMS = const(8)     # index of the first parameter byte in the transmit buffer
_HEAD = const(6)       # 00 00 FF LEN LCS TFI, read first; the rest (LEN - 1 + DCS + 00) follows
_TAIL_MAX = const(64)
_DATA = const(7)       # index in ``rx`` of the first data byte after the reply's command code
# Transfers go through one wire-order scratch buffer in power-of-two chunks (1, 2, 4 … 32 bytes),
# so that any length is sent or read with views made once (slicing a memoryview allocates).
_CHUNKS = const(6)
_CHUNK_MAX = const(32)  # 1 << (_CHUNKS - 1)
# Preamble: UM0701-02 §6.2.1.6 allows more than one leading 00, some chips send the short 00 FF
# (libnfc accepts 00 00 FF and 00 FF): up to this many 00 before the FF are skipped.
_PREAMBLE_ZEROS = const(6)
_READ_CYCLES = const(3)  # data reads (each its own CS cycle) that may show only 00 before the frame


class PN532Error(Exception):
    """Base class: the exchange with the PN532 failed."""


class PN532Timeout(PN532Error):
    """The chip did not become ready in time (absent, unpowered, held in reset, busy)."""


class PN532NoAck(PN532Error):
    """A frame other than ACK came back right after a command."""


class PN532BadFrame(PN532Error):
    """A reply frame failed its preamble, LEN/LCS, DCS, TFI or reply-code check."""


class PN532CommandError(PN532Error):
    """The chip answered with its error frame or a non-zero status byte (``code``, UM0701-02 §7.1)."""

    def __init__(self, code, msg="PN532 error status"):
        super().__init__(msg, code)
        self.code = code


class PN532Bus:
    """The transport shared by every PN532 on one SPI bus: the frame buffers and their views.

    Only one chip is ever in a transaction (the driver is synchronous and the scan loop polls one
    reader at a time: one RF field at a time), and every command copies what it needs out of
    ``rx`` before it returns, so the chips of a bus can share one set of buffers.  A chip's own
    state is its ``PN532`` object: chip-select, reset, last status.

    ``spi``: an initialised bus (mode 0, MSB first, ≤ 5 MHz), or anything with ``write``,
    ``readinto`` and ``write_readinto`` (the sim build's ``SimBus``).
    """

    def __init__(self, spi):
        self.spi = spi
        self.tx = bytearray(_TX_SIZE)            # the command being framed, chip byte order
        self.rx = bytearray(_HEAD + _TAIL_MAX)   # the last frame read, chip byte order
        wire = bytearray(_CHUNK_MAX)             # bit-reversed bytes on their way out or in
        view = memoryview(wire)
        self.chunks = tuple(view[:1 << k] for k in range(_CHUNKS))
        # The last card seen on this bus (UID, pages 4..7), for ``reader.Reader``: the result of one
        # poll, consumed by the scan loop before the next reader is polled, so it is shared too.
        self.uid = bytearray(UID_MAX)
        self.code = bytearray(READ_BYTES)

    def write(self, n):
        """Send ``tx[0:n]`` bit-reversed (the caller holds chip-select low)."""
        tx = self.tx
        chunks = self.chunks
        spi = self.spi
        i = 0
        k = _CHUNKS - 1
        while i < n:
            size = 1 << k
            if n - i < size:
                k -= 1
                continue
            c = chunks[k]
            for j in range(size):
                c[j] = REV[tx[i + j]]
            spi.write(c)
            i += size

    def read(self, start, n):
        """Read ``n`` bytes into ``rx[start:start+n]``, back in chip order (chip-select held low)."""
        rx = self.rx
        chunks = self.chunks
        spi = self.spi
        end = start + n
        k = _CHUNKS - 1
        while start < end:
            size = 1 << k
            if end - start < size:
                k -= 1
                continue
            c = chunks[k]
            spi.readinto(c, 0)
            for j in range(size):
                rx[start + j] = REV[c[j]]
            start += size


class PN532:
    """One PN532 on an SPI bus, selected by its own chip-select pin.

    ``bus``: the :class:`PN532Bus` shared by the chips of one SPI bus (a bare SPI object gets a
    bus of its own; either way it is the ``bus`` attribute); ``cs``: output Pin, idle high;
    ``rst``: output Pin on RSTPDN or None.  Nothing is sent until ``begin()``.  The timeouts are
    class attributes unless overridden.
    """

    ack_gap_ms = ACK_GAP_MS
    ack_timeout_ms = ACK_TIMEOUT_MS
    reply_timeout_ms = REPLY_TIMEOUT_MS
    cs_setup_us = CS_SETUP_US

    def __init__(self, bus, cs, rst=None, ack_gap_ms=ACK_GAP_MS, ack_timeout_ms=ACK_TIMEOUT_MS,
                 reply_timeout_ms=REPLY_TIMEOUT_MS, cs_setup_us=CS_SETUP_US, irq=None):
        self.bus = bus if isinstance(bus, PN532Bus) else PN532Bus(bus)
        self._cs = cs
        self.rst = rst
        self.irq = irq        # input Pin on P70_IRQ (low: a frame is ready), or None: status reads
        # Per-instance only when they differ from the class defaults: no RAM for the usual case.
        if ack_gap_ms != ACK_GAP_MS:
            self.ack_gap_ms = ack_gap_ms
        if ack_timeout_ms != ACK_TIMEOUT_MS:
            self.ack_timeout_ms = ack_timeout_ms
        if reply_timeout_ms != REPLY_TIMEOUT_MS:
            self.reply_timeout_ms = reply_timeout_ms
        if cs_setup_us != CS_SETUP_US:
            self.cs_setup_us = cs_setup_us
        # Set here, not left to the class: a first assignment while polling would grow the
        # instance's attribute table, an allocation in the scan loop.
        self.last_status = 0  # InDataExchange status byte of the last exchange
        self.sens_res = 0     # SENS_RES (ATQA) and SEL_RES (SAK) of the last card listed
        self.sel_res = 0
        self.targets = 0      # NbTg of the last InListPassiveTarget (2: two cards on the antenna)
        self.waking = True    # the CS setup wait applies until the chip has answered begin()
        cs.value(1)
        if rst is not None:
            rst.value(1)

    # ---- low level -------------------------------------------------------------------------
    def _select(self):
        """Chip-select low, then (only while the chip wakes: ``waking``) the setup time."""
        self._cs.value(0)
        if self.waking:
            us = self.cs_setup_us
            if us:
                sleep_us(us)

    def _send(self, cmd, nparams):
        """Frame and send ``cmd`` with ``nparams`` bytes already at ``bus.tx[_PARAMS:]``."""
        bus = self.bus
        tx = bus.tx
        length = nparams + 2  # TFI + command + parameters
        tx[0] = _SPI_DATA_WRITE
        tx[1] = 0x00
        tx[2] = 0x00
        tx[3] = 0xFF
        tx[4] = length
        tx[5] = (-length) & 0xFF
        tx[6] = _TFI_HOST
        tx[7] = cmd
        s = _TFI_HOST + cmd
        end = _PARAMS + nparams
        for i in range(_PARAMS, end):
            s += tx[i]
        tx[end] = (-s) & 0xFF
        tx[end + 1] = 0x00
        self._select()
        try:
            bus.write(end + 2)
        finally:
            self._cs.value(1)

    def ready(self):
        """True when the chip has a frame for us: its IRQ line low where one is wired (no SPI
        transaction; not while it wakes, when the line may not be driven yet), else one status read
        (prefix 0x02)."""
        irq = self.irq
        if irq is not None and not self.waking:
            return irq.value() == 0
        bus = self.bus
        c = bus.chunks[1]
        c[0] = _WIRE_STATUS_READ
        c[1] = 0
        self._select()
        try:
            bus.spi.write_readinto(c, c)  # one buffer both ways: allowed by machine.SPI
        finally:
            self._cs.value(1)
        return REV[c[1]] & _STATUS_READY != 0

    def _wait_ready(self, timeout_ms, what):
        start = ticks_ms()
        while not self.ready():
            if ticks_diff(ticks_ms(), start) >= timeout_ms:
                raise PN532Timeout(what)
            sleep_ms(POLL_INTERVAL_MS)

    def _read_frame(self):
        """Read one frame (prefix 0x03) into ``bus.rx``; return LEN (0 for the ACK frame).

        ``rx`` always holds ``00 00 FF LEN LCS TFI …`` whatever preamble came: leading 00s (one
        or more, at most ``_PREAMBLE_ZEROS``) are skipped up to the FF.  A read that shows only 00s
        ends its CS cycle and the next one reads on (a chip continues its frame across reads).
        """
        bus = self.bus
        for cycle in range(_READ_CYCLES):
            self._select()
            try:
                c = bus.chunks[0]
                c[0] = _WIRE_DATA_READ
                bus.spi.write(c)
                if self._preamble(cycle):
                    return self._frame_rest()
            finally:
                self._cs.value(1)
        raise PN532BadFrame("preamble")

    def _preamble(self, zeros_before):
        """Skip the 00s before the FF (chip-select low); False when only 00s came.  ``zeros_before``:
        an earlier read of this frame showed 00s (a continued read may begin with the FF)."""
        bus = self.bus
        rx = bus.rx
        for k in range(_PREAMBLE_ZEROS + 1):
            bus.read(2, 1)
            b = rx[2]
            if b == 0xFF and (k or zeros_before):
                rx[0] = 0
                rx[1] = 0
                return True
            if b:
                raise PN532BadFrame("preamble")
        return False

    def _frame_rest(self):
        """LEN LCS and the rest of the frame after the preamble (chip-select low); return LEN."""
        bus = self.bus
        rx = bus.rx
        bus.read(3, 2)
        length = rx[3]
        if length == 0 and rx[4] == 0xFF:
            bus.read(5, 1)  # the ACK's postamble: 00 00 FF 00 FF 00 (§6.2.1.3)
            return 0
        if (length + rx[4]) & 0xFF or length == 0 or length == 0xFF:
            # LEN 0 is only the ACK; LEN FF opens an extended frame, which we never ask for.
            raise PN532BadFrame("LEN/LCS")
        if length + 1 > _TAIL_MAX:
            raise PN532BadFrame("too long")
        bus.read(_HEAD - 1, length + 2)  # TFI, data, DCS, postamble
        s = 0
        for i in range(_HEAD - 1, _HEAD + length):
            s += rx[i]
        if s & 0xFF:
            raise PN532BadFrame("DCS")
        return length

    def _call(self, cmd, nparams, reply_timeout_ms):
        """Send a command, take its ACK, return the reply's data length (data at ``bus.rx[_DATA:]``)."""
        self._send(cmd, nparams)
        sleep_ms(self.ack_gap_ms)
        self._wait_ready(self.ack_timeout_ms, "no ACK")
        if self._read_frame() != 0:
            raise PN532NoAck("reply instead of ACK")
        try:
            self._wait_ready(reply_timeout_ms, "no reply")
        except PN532Timeout:
            self.abort()
            raise
        length = self._read_frame()
        rx = self.bus.rx
        if length == 1 and rx[5] == _TFI_ERROR:
            raise PN532CommandError(_TFI_ERROR, "error frame (syntax)")
        if length < 2 or rx[5] != _TFI_CHIP or rx[6] != cmd + 1:
            raise PN532BadFrame("reply code")
        return length - 2

    def abort(self):
        """Send the ACK frame, which aborts the command in progress (UM0701-02 §6.2.2)."""
        bus = self.bus
        tx = bus.tx
        tx[0] = _SPI_DATA_WRITE
        tx[1] = 0x00
        tx[2] = 0x00
        tx[3] = 0xFF
        tx[4] = 0x00
        tx[5] = 0xFF
        tx[6] = 0x00
        self._select()
        try:
            bus.write(7)
        finally:
            self._cs.value(1)

    # ---- commands -------------------------------------------------------------------------
    def reset(self):
        """Pulse RSTPDN low (blocking, ~12 ms) when wired: back to the power-up state."""
        if self.rst is None:
            return False
        self.rst.value(0)
        sleep_ms(RESET_LOW_MS)
        self.rst.value(1)
        sleep_ms(RESET_BOOT_MS)
        return True

    def firmware_version(self):
        """GetFirmwareVersion (§7.2.2): IC << 24 | Ver << 16 | Rev << 8 | Support (0x32010607)."""
        n = self._call(_CMD_GET_FIRMWARE_VERSION, 0, self.reply_timeout_ms)
        if n != 4:
            raise PN532BadFrame("firmware length")
        rx = self.bus.rx
        return rx[_DATA] << 24 | rx[_DATA + 1] << 16 | rx[_DATA + 2] << 8 | rx[_DATA + 3]

    def sam_configuration(self):
        """SAMConfiguration (§7.2.10): normal mode, 1 s virtual-card timeout, IRQ used."""
        tx = self.bus.tx
        tx[_PARAMS] = 0x01
        tx[_PARAMS + 1] = 0x14
        tx[_PARAMS + 2] = 0x01
        self._call(_CMD_SAM_CONFIGURATION, 3, self.reply_timeout_ms)

    def set_max_retries(self, passive_activation=MAX_RETRIES_DEFAULT):
        """RFConfiguration item 0x05 (§7.3.1): MxRtyATR FF, MxRtyPSL 01, MxRtyPassiveActivation."""
        tx = self.bus.tx
        tx[_PARAMS] = 0x05
        tx[_PARAMS + 1] = 0xFF
        tx[_PARAMS + 2] = 0x01
        tx[_PARAMS + 3] = passive_activation
        self._call(_CMD_RF_CONFIGURATION, 4, self.reply_timeout_ms)

    def rf_field(self, on):
        """RFConfiguration item 0x01 (§7.3.1): switch the RF field on or off (Auto RFCA off)."""
        tx = self.bus.tx
        tx[_PARAMS] = 0x01
        tx[_PARAMS + 1] = 0x01 if on else 0x00
        self._call(_CMD_RF_CONFIGURATION, 2, self.reply_timeout_ms)

    def begin(self, max_retries=MAX_RETRIES_DEFAULT):
        """Bring the chip up: wake, GetFirmwareVersion, SAMConfiguration, MaxRetries.

        Returns the firmware word (see ``firmware_version``).  SAMConfiguration is mandatory after
        power-up or reset: the PN532 C106 starts in "Low battery" mode (AN10609, p. 21).
        """
        # A falling CS edge wakes the chip from power-down; give it a moment before the first frame.
        self.waking = True
        self._cs.value(0)
        sleep_ms(2)
        self._cs.value(1)
        try:
            fw = self.firmware_version()
        except PN532Error:
            # The first command after power-up is often lost while the chip wakes (Adafruit's
            # Arduino begin() sends a dummy for it, ESPHome retries): once more before giving up.
            fw = self.firmware_version()
        self.sam_configuration()
        self.set_max_retries(max_retries)
        self.waking = False
        return fw

    def list_passive_target(self, uid, max_targets=MAX_TARGETS):
        """InListPassiveTarget (§7.3.5), up to ``max_targets`` (1 or 2), 106 kbps type A; the first
        card's UID into ``uid``, return its length; ``targets`` is how many cards answered.

        0 means no card.  The reply is NbTg, then per target Tg, SENS_RES(2), SEL_RES,
        NFCIDLength, NFCID1… (and ATS for ISO 14443-4 cards, after the first card: not read);
        ``sens_res``/``sel_res`` of the first card are kept on the object.  Which card is first is
        the chip's anticollision's choice (by UID bits), not the order the cards were laid.
        """
        tx = self.bus.tx
        tx[_PARAMS] = max_targets
        tx[_PARAMS + 1] = 0x00
        self.targets = 0
        n = self._call(_CMD_IN_LIST_PASSIVE_TARGET, 2, self.reply_timeout_ms)
        rx = self.bus.rx
        if n < 1:
            raise PN532BadFrame("InListPassiveTarget length")
        nb = rx[_DATA]
        if nb == 0:
            return 0
        if nb > max_targets:
            raise PN532BadFrame("InListPassiveTarget NbTg")
        if n < 6:
            raise PN532BadFrame("InListPassiveTarget length")
        ulen = rx[_DATA + 5]
        if ulen > len(uid) or 6 + ulen > n:
            raise PN532BadFrame("UID length")
        self.sens_res = rx[_DATA + 2] << 8 | rx[_DATA + 3]
        self.sel_res = rx[_DATA + 4]
        for i in range(ulen):
            uid[i] = rx[_DATA + 6 + i]
        self.targets = nb
        return ulen

    def _exchange(self, nparams):
        """InDataExchange (§7.3.8) to target 1; params after Tg at ``_tx[_PARAMS+1:]``."""
        self.bus.tx[_PARAMS] = 0x01
        n = self._call(_CMD_IN_DATA_EXCHANGE, nparams + 1, self.reply_timeout_ms)
        if n < 1:
            raise PN532BadFrame("InDataExchange length")
        status = self.bus.rx[_DATA]
        self.last_status = status
        if status & 0x3F:  # bits 6/7 are MI and NAD flags, not errors
            raise PN532CommandError(status & 0x3F)
        return n - 1

    def read_pages(self, page, out):
        """NTAG READ: 16 bytes (pages ``page``..``page+3``) into ``out`` (len ≥ 16)."""
        tx = self.bus.tx
        tx[_PARAMS + 1] = _NTAG_READ
        tx[_PARAMS + 2] = page
        if self._exchange(2) != READ_BYTES:
            raise PN532BadFrame("READ length")
        rx = self.bus.rx
        for i in range(READ_BYTES):
            out[i] = rx[_DATA + 1 + i]

    def write_page(self, page, data):
        """NTAG WRITE: 4 bytes of ``data`` into ``page`` (for enrolment on the table's reader)."""
        tx = self.bus.tx
        tx[_PARAMS + 1] = _NTAG_WRITE
        tx[_PARAMS + 2] = page
        for i in range(_PAGE_BYTES):
            tx[_PARAMS + 3 + i] = data[i]
        self._exchange(6)

    def release(self):
        """InRelease (§7.3.11) of all targets: the tag is halted, the next poll wakes it cleanly."""
        self.bus.tx[_PARAMS] = 0x00
        n = self._call(_CMD_IN_RELEASE, 1, self.reply_timeout_ms)
        if n < 1:
            raise PN532BadFrame("InRelease length")
        status = self.bus.rx[_DATA]
        if status & 0x3F:
            raise PN532CommandError(status & 0x3F)
