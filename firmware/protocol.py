"""The shengji-table wire protocol: ONE module, run by the Pico (MicroPython) and the host (CPython).

The host package imports this very file (``shengji_table.table.protocol`` is this module, loaded by
``shengji_table.firmware_src``), so the two ends can never disagree about a byte. It is written in
the subset both interpreters run: no annotations, no dataclasses, no f-string tricks, only ``array``
from the standard library.

Frame layout (docs/protocol.md has a byte-level example of every message)::

    body  = VER u8 | TYPE u8 | SENDER u32 LE | SEQ u16 LE | LEN u8 | PAYLOAD (LEN bytes) | CRC u16 LE
    frame = COBS(body) | 0x00

* CRC is CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) over VER..PAYLOAD, from a table built once.
* COBS framing: a frame never contains 0x00 except its final delimiter, so a receiver that lost
  sync (garbage, a cut cable, a reboot mid-frame) is back in step at the next 0x00.
* SENDER: the Pico's boot id (random at every boot) or the host's session id (random at every
  start). A receiver thus tells a restarted peer from a replay of the old one in every frame.
* SEQ: the Pico numbers its *reliable* events 1..65535 (wrapping, 0 skipped) per boot; frames that
  are not events (heartbeats, snapshots) carry SEQ 0. The host numbers all its frames the same way;
  the Pico uses that only to ignore a stale RING (every host->Pico message is idempotent).

Encoding never allocates: a :class:`Writer` owns a pre-allocated body buffer and COBS-encodes it into
a caller's pre-allocated ``out`` bytearray (``encode_*`` helpers return the frame length).
Decoding is streaming: :class:`Decoder.push` takes one byte at a time, never raises, and counts every
rejected frame by reason in ``Decoder.errors``. ``decode_*`` helpers turn a checked payload into
values (these allocate and are meant for the host; the Pico reads its few fields with ``u16``).
"""

from compat import const

from array import array

VERSION = const(1)

# ---- message types --------------------------------------------------------------------------
# Pico -> host
HELLO = const(0x01)       # reliable: first event of every boot
TAP = const(0x02)         # reliable
BUTTON = const(0x03)      # reliable
READER = const(0x04)      # reliable
SNAPSHOT = const(0x05)    # SEQ 0, answer to SNAPSHOT_REQUEST
HEARTBEAT = const(0x06)   # SEQ 0, every HEARTBEAT_MS
LOG = const(0x07)         # reliable
TAKE_BACK = const(0x08)   # reliable: a seat's button held long with a card on its reader
STACK = const(0x09)       # reliable: two cards on one reader, and when they are no longer
# host -> Pico
ACK = const(0x41)
RING = const(0x42)
SNAPSHOT_REQUEST = const(0x43)
HOST_HEARTBEAT = const(0x44)
# host -> Pico, obeyed only by a sim firmware build (virtual table / bare-Pico self test)
SIM_PLACE = const(0x60)
SIM_LIFT = const(0x61)
SIM_BUTTON = const(0x62)

NAMES = {
    HELLO: "HELLO", TAP: "TAP", BUTTON: "BUTTON", READER: "READER", SNAPSHOT: "SNAPSHOT",
    HEARTBEAT: "HEARTBEAT", LOG: "LOG", TAKE_BACK: "TAKE_BACK", STACK: "STACK", ACK: "ACK", RING: "RING",
    SNAPSHOT_REQUEST: "SNAPSHOT_REQUEST", HOST_HEARTBEAT: "HOST_HEARTBEAT",
    SIM_PLACE: "SIM_PLACE", SIM_LIFT: "SIM_LIFT", SIM_BUTTON: "SIM_BUTTON",
}

# Directions: a decoder accepts only the types that may travel towards it.
TO_HOST = const(1)
TO_PICO = const(2)

# BUTTON kinds
PRESS = const(1)
LONG_PRESS = const(2)
RELEASE = const(3)

# STACK: cards on the reader (2: a stack; 0 or 1: cleared, that many cards left)
STACK_CARDS = const(2)

# reader status (READER.alive and the SNAPSHOT reader list)
READER_ABSENT = const(0)
READER_ALIVE = const(1)
READER_DEAD = const(2)

# button states in a SNAPSHOT
BUTTON_UP = const(0)
BUTTON_DOWN = const(1)
BUTTON_HELD = const(2)    # down long enough to have reported LONG_PRESS

# ---- sizes ----------------------------------------------------------------------------------
HEADER = const(9)                       # VER TYPE SENDER(4) SEQ(2) LEN
MAX_PAYLOAD = const(200)                # an NTAG213's whole user memory (144 B) + UID fits
MAX_BODY = const(211)                   # HEADER + MAX_PAYLOAD + CRC
MAX_FRAME = const(214)                  # COBS adds 1 byte per 254 (+1), then the delimiter
MAX_UID = const(10)                     # ISO 14443-3 triple-size UID
MAX_CODE = const(144)                   # NTAG213 user memory, pages 4..39
MAX_TEXT = const(120)                   # LOG text, bytes of UTF-8
RING_STATE = const(7)                   # pattern r g b count arg(2): one ring's state
HELLO_FIXED = const(3)                  # proto u8, fw len u8, board len u8

# Decoder.errors indexes: why a frame was rejected.
ERR_CRC = const(0)
ERR_LENGTH = const(1)      # too short, LEN disagrees with the frame, or over MAX_BODY
ERR_VERSION = const(2)
ERR_TYPE = const(3)        # unknown type, or one that does not travel in this direction
ERR_TRUNCATED = const(4)   # COBS block cut short by a delimiter (frame broken off mid-way)
ERR_PAYLOAD = const(5)     # payload fields inconsistent with the message type
N_ERRORS = const(6)
ERROR_NAMES = ("crc", "length", "version", "type", "truncated", "payload")

# ---- CRC-16/CCITT-FALSE ---------------------------------------------------------------------


def _crc_table():
    t = array("H", bytes(512))
    for i in range(256):
        c = i << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) if c & 0x8000 else (c << 1)
        t[i] = c & 0xFFFF
    return t


# Built once at import; the hot path only indexes it.
CRC_TABLE = _crc_table()


def crc16(buf, n, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of ``buf[0:n]`` (check value of b"123456789" is 0x29B1)."""
    t = CRC_TABLE
    for i in range(n):
        crc = ((crc << 8) & 0xFF00) ^ t[((crc >> 8) ^ buf[i]) & 0xFF]
    return crc


def u16(buf, off):
    """Little-endian u16 at ``buf[off]``."""
    return buf[off] | (buf[off + 1] << 8)


def u32(buf, off):
    """Little-endian u32 at ``buf[off]`` (CPython/host use: may be a long int on MicroPython)."""
    return buf[off] | (buf[off + 1] << 8) | (buf[off + 2] << 16) | (buf[off + 3] << 24)


# ---- encoding -------------------------------------------------------------------------------


class Writer:
    """Builds one frame at a time in a pre-allocated body buffer; no allocation per frame.

    ``sender`` is the 4-byte id put in every frame's header (the Pico's boot id, the host's
    session id). ``begin(type, seq)``, then ``u8``/``u16``/``put``..., then ``end(out)`` writes the
    COBS frame (with its 0x00 delimiter) into ``out`` and returns its length. Field writers past
    MAX_PAYLOAD raise ValueError (a programming error, never a wire error).
    """

    def __init__(self, sender):
        if len(sender) != 4:
            raise ValueError("sender id must be 4 bytes")
        self.body = bytearray(MAX_BODY)
        for i in range(4):
            self.body[2 + i] = sender[i]
        self.n = 0

    def begin(self, typ, seq):
        b = self.body
        b[0] = VERSION
        b[1] = typ
        b[6] = seq & 0xFF
        b[7] = (seq >> 8) & 0xFF
        self.n = HEADER

    def _room(self, k):
        if self.n + k > HEADER + MAX_PAYLOAD:
            raise ValueError("payload too long")

    def u8(self, x):
        self._room(1)
        self.body[self.n] = x & 0xFF
        self.n += 1

    def u16(self, x):
        self._room(2)
        b = self.body
        n = self.n
        b[n] = x & 0xFF
        b[n + 1] = (x >> 8) & 0xFF
        self.n = n + 2

    def put(self, src, k=-1):
        """Append ``src[0:k]`` (all of ``src`` when k < 0)."""
        if k < 0:
            k = len(src)
        self._room(k)
        b = self.body
        n = self.n
        for i in range(k):
            b[n + i] = src[i]
        self.n = n + k

    def end(self, out):
        b = self.body
        n = self.n
        b[8] = n - HEADER
        c = crc16(b, n)
        b[n] = c & 0xFF
        b[n + 1] = c >> 8
        return cobs_encode(b, n + 2, out)


def cobs_encode(src, n, out):
    """COBS-encode ``src[0:n]`` into ``out`` followed by the 0x00 delimiter; returns the length."""
    code_at = 0
    o = 1
    code = 1
    for i in range(n):
        x = src[i]
        if x == 0:
            out[code_at] = code
            code_at = o
            o += 1
            code = 1
        else:
            out[o] = x
            o += 1
            code += 1
            if code == 0xFF:
                out[code_at] = code
                code_at = o
                o += 1
                code = 1
    out[code_at] = code
    out[o] = 0
    return o + 1


# ---- message encoders: each writes a whole frame into ``out`` and returns its length ----------


def encode_hello(w, out, seq, firmware, board):
    """HELLO: protocol version, firmware version and board name (bytes); the boot id is SENDER."""
    w.begin(HELLO, seq)
    w.u8(VERSION)
    w.u8(len(firmware))
    w.put(firmware)
    w.u8(len(board))
    w.put(board)
    return w.end(out)


def encode_tap(w, out, seq, reader, uid, uid_len=-1, code=None, code_len=-1):
    """TAP: a card arrived on ``reader``; ``code`` is the card code read from NTAG user memory, if any."""
    return _card_frame(w, out, TAP, seq, reader, uid, uid_len, code, code_len)


def encode_take_back(w, out, seq, reader, uid, uid_len=-1, code=None, code_len=-1):
    """TAKE_BACK: the seat's button was held long while ``reader`` held this card (payload as TAP)."""
    return _card_frame(w, out, TAKE_BACK, seq, reader, uid, uid_len, code, code_len)


def _card_frame(w, out, typ, seq, reader, uid, uid_len, code, code_len):
    if uid_len < 0:
        uid_len = len(uid)
    if code is None:
        code_len = 0
    elif code_len < 0:
        code_len = len(code)
    if not 4 <= uid_len <= MAX_UID or code_len > MAX_CODE:
        raise ValueError("bad uid/code length")
    w.begin(typ, seq)
    w.u8(reader)
    w.u8(uid_len)
    w.put(uid, uid_len)
    if code_len:
        w.put(code, code_len)
    return w.end(out)


def encode_stack(w, out, seq, reader, cards):
    """STACK: ``cards`` = 2, two cards answer on ``reader``; 0 or 1, the stack is cleared."""
    w.begin(STACK, seq)
    w.u8(reader)
    w.u8(cards)
    return w.end(out)


def encode_button(w, out, seq, seat, kind):
    """BUTTON: ``kind`` is PRESS, LONG_PRESS or RELEASE."""
    w.begin(BUTTON, seq)
    w.u8(seat)
    w.u8(kind)
    return w.end(out)


def encode_reader(w, out, seq, reader, status, fw):
    """READER: ``status`` READER_ALIVE/DEAD; ``fw`` the 4 bytes of PN532 GetFirmwareVersion (IC, Ver,
    Rev, Support), zeros when unknown."""
    w.begin(READER, seq)
    w.u8(reader)
    w.u8(status)
    w.put(fw, 4)
    return w.end(out)


def encode_heartbeat(w, out, base, next_seq, dropped, bad, host_alive):
    """Pico HEARTBEAT: ``base`` (oldest unacknowledged seq, or ``next_seq`` when none is pending),
    the next seq to be used, events dropped on overflow, bad frames received, host_alive."""
    w.begin(HEARTBEAT, 0)
    w.u16(base)
    w.u16(next_seq)
    w.u16(dropped)
    w.u16(bad)
    w.u8(host_alive)
    return w.end(out)


HEARTBEAT_LEN = const(9)


def encode_log(w, out, seq, text):
    """LOG: short UTF-8 text (``text`` bytes, cut to MAX_TEXT)."""
    w.begin(LOG, seq)
    n = len(text)
    w.put(text, n if n < MAX_TEXT else MAX_TEXT)
    return w.end(out)


def encode_snapshot(w, out, last_acked, base, next_seq, dropped, readers, buttons, rings, n_rings,
                    clock=0, polls=None):
    """SNAPSHOT: last acknowledged seq (0: none yet), base (as in HEARTBEAT), next seq, dropped
    count, per-reader status, per-button state, and ``n_rings`` ring states of RING_STATE bytes
    each (packed in ``rings``); then, when ``polls`` is given, the Pico's ``clock`` (ms) and each
    reader's poll counter (both modulo 2**30, like ticks_ms). Without ``polls``: the frame of
    firmware from before the counters, which a host still decodes."""
    w.begin(SNAPSHOT, 0)
    w.u16(last_acked)
    w.u16(base)
    w.u16(next_seq)
    w.u16(dropped)
    w.u8(len(readers))
    w.put(readers)
    w.u8(len(buttons))
    w.put(buttons)
    w.u8(n_rings)
    w.put(rings, n_rings * RING_STATE)
    if polls is not None:
        w.u16(clock & 0xFFFF)          # u32 as two u16: the values stay below 2**30 (small ints)
        w.u16(clock >> 16)
        n = len(polls)
        w.u8(n)
        for i in range(n):
            x = polls[i]
            w.u16(x & 0xFFFF)
            w.u16(x >> 16)
    return w.end(out)


def encode_ack(w, out, seq, acked, boot_id):
    """ACK (host): every event of Pico boot ``boot_id`` (4 bytes) up to and including ``acked`` is
    safely stored (cumulative). Naming the boot keeps an ACK meant for a previous boot (still on
    its way, or replayed) from acknowledging the new boot's events of the same seqs."""
    w.begin(ACK, seq)
    w.u16(acked)
    w.put(boot_id, 4)
    return w.end(out)


def encode_ring(w, out, seq, ring, pattern, r, g, b, count, arg):
    """RING (host): the whole state of ring ``ring`` (idempotent; pattern ids: firmware/rings.py)."""
    w.begin(RING, seq)
    w.u8(ring)
    w.u8(pattern)
    w.u8(r)
    w.u8(g)
    w.u8(b)
    w.u8(count)
    w.u16(arg)
    return w.end(out)


def encode_snapshot_request(w, out, seq):
    w.begin(SNAPSHOT_REQUEST, seq)
    return w.end(out)


def encode_host_heartbeat(w, out, seq):
    w.begin(HOST_HEARTBEAT, seq)
    return w.end(out)


SIM_ON_TOP = const(0x80)    # SIM_PLACE reader flag: on top of the tags already there (a stack)


def encode_sim_place(w, out, seq, reader, uid, pages):
    """SIM_PLACE (host, sim builds): put a tag with ``uid`` whose user memory (page 4 on) is ``pages``
    on ``reader`` (in place of what lies there; ``reader | SIM_ON_TOP``: on top of it)."""
    if not 4 <= len(uid) <= MAX_UID or len(pages) > MAX_CODE:
        raise ValueError("bad uid/pages length")
    w.begin(SIM_PLACE, seq)
    w.u8(reader)
    w.u8(len(uid))
    w.put(uid)
    w.put(pages)
    return w.end(out)


def encode_sim_lift(w, out, seq, reader):
    w.begin(SIM_LIFT, seq)
    w.u8(reader)
    return w.end(out)


def encode_sim_button(w, out, seq, button, down):
    w.begin(SIM_BUTTON, seq)
    w.u8(button)
    w.u8(1 if down else 0)
    return w.end(out)


# ---- payload validation (no allocation; the decoder calls it for every frame) ----------------


def _uid_and_data_ok(p, n):
    # TAP and SIM_PLACE: reader u8, uid length u8, the UID, then up to MAX_CODE bytes (code, pages)
    return n >= 6 and 4 <= p[1] <= MAX_UID and 2 + p[1] <= n and n - 2 - p[1] <= MAX_CODE


def _hello_ok(p, n):
    # proto u8, firmware length u8, firmware, board length u8, board
    if n < HELLO_FIXED:
        return False
    k = 2 + p[1]
    return k < n and k + 1 + p[k] == n


def _snapshot_ok(p, n):
    # four u16, then three counted lists: readers (1 byte each), buttons (1), rings (RING_STATE);
    # then either nothing (firmware before poll counters) or clock u32 and a counted list of u32
    k = 8
    if n < k + 3:
        return False
    k += 1 + p[k]           # readers
    if k >= n:
        return False
    k += 1 + p[k]           # buttons
    if k >= n:
        return False
    k += 1 + p[k] * RING_STATE
    return k == n or (k + 5 <= n and k + 5 + p[k + 4] * 4 == n)


# The types whose payload is a fixed length and has nothing else to check: type -> length.
_PAYLOAD_LENGTHS = {
    HEARTBEAT: HEARTBEAT_LEN, ACK: 6, RING: 8, SNAPSHOT_REQUEST: 0, HOST_HEARTBEAT: 0, SIM_LIFT: 1,
}


def payload_ok(typ, p, n):
    """True when payload ``p[0:n]`` is well formed for message ``typ`` (internal lengths agree)."""
    if typ == TAP or typ == SIM_PLACE or typ == TAKE_BACK:
        return _uid_and_data_ok(p, n)
    if typ == STACK:
        return n == 2 and p[1] <= STACK_CARDS
    if typ == HELLO:
        return _hello_ok(p, n)
    if typ == SNAPSHOT:
        return _snapshot_ok(p, n)
    if typ == LOG:
        return n <= MAX_TEXT
    if typ == BUTTON:
        return n == 2 and PRESS <= p[1] <= RELEASE
    if typ == READER:
        return n == 6 and p[1] <= READER_DEAD
    if typ == SIM_BUTTON:
        return n == 2 and p[1] <= 1
    return n == _PAYLOAD_LENGTHS.get(typ, -1)  # -1: an unknown type, no payload is well formed


def direction(typ):
    """TO_HOST, TO_PICO or 0 (unknown type)."""
    if HELLO <= typ <= STACK:
        return TO_HOST
    if ACK <= typ <= HOST_HEARTBEAT or SIM_PLACE <= typ <= SIM_BUTTON:
        return TO_PICO
    return 0


# ---- streaming decoder ----------------------------------------------------------------------


class Decoder:
    """Streaming COBS frame decoder for one direction (``TO_HOST`` or ``TO_PICO``).

    Feed bytes one at a time with :meth:`push` (no allocation) or a chunk with :meth:`feed`
    (CPython convenience). When ``push`` returns True a checked frame is available in
    ``typ``, ``seq``, ``payload`` (a memoryview of the receive buffer, valid until the next push),
    ``length`` and the sender id (:meth:`sender`, :meth:`same_sender`). Nothing raises on garbage;
    each rejected frame adds 1 to ``errors[reason]`` (ERR_*) and to ``bad``. Empty frames (two
    delimiters in a row) are line idle, not errors.
    """

    def __init__(self, accept):
        self.accept = accept
        self.buf = bytearray(MAX_BODY + 1)
        self.payload = memoryview(self.buf)[HEADER:]
        self.errors = [0] * N_ERRORS
        self.bad = 0
        self.good = 0
        self.typ = 0
        self.seq = 0
        self.length = 0
        self._n = 0          # decoded bytes in buf
        self._left = 0       # bytes left in the current COBS block
        self._zero = False   # the current block ends with an implicit 0x00
        self._over = False   # frame longer than MAX_BODY: discard up to the delimiter
        self._started = False

    def sender(self):
        """The current frame's SENDER as an int (host use)."""
        return u32(self.buf, 2)

    def same_sender(self, ident):
        """Does the current frame come from 4-byte id ``ident``? (no allocation)"""
        b = self.buf
        return b[2] == ident[0] and b[3] == ident[1] and b[4] == ident[2] and b[5] == ident[3]

    def _reject(self, why):
        self.errors[why] += 1
        self.bad += 1

    def push(self, x):
        """Consume one byte; True when it completed a valid frame."""
        if x == 0:
            return self._finish()
        if not self._started:
            self._started = True
            self._left = 0
        if self._over:
            return False
        if self._left == 0:
            # a code byte; the previous block's implicit zero (if any) is real data now
            if self._zero:
                self._store(0)
            self._left = x - 1
            self._zero = x != 0xFF
            return False
        self._store(x)
        self._left -= 1
        return False

    def _store(self, x):
        if self._n > MAX_BODY:
            self._over = True
            return
        self.buf[self._n] = x
        self._n += 1

    def _finish(self):
        started = self._started
        n = self._n
        left = self._left
        over = self._over
        self._n = 0
        self._left = 0
        self._zero = False
        self._over = False
        self._started = False
        if not started:
            return False
        if over or n > MAX_BODY:
            self._reject(ERR_LENGTH)
            return False
        if left != 0:
            self._reject(ERR_TRUNCATED)
            return False
        b = self.buf
        if b[0] != VERSION:
            # VER is byte 0 in every version of the protocol, so a peer speaking another version
            # is recognised as such whatever its layout (a corrupted byte 0 counts here too)
            self._reject(ERR_VERSION)
            return False
        if n < HEADER + 2:
            self._reject(ERR_LENGTH)
            return False
        plen = b[8]
        if HEADER + plen + 2 != n:
            self._reject(ERR_LENGTH)
            return False
        c = crc16(b, n - 2)
        if (c & 0xFF) != b[n - 2] or (c >> 8) != b[n - 1]:
            self._reject(ERR_CRC)
            return False
        typ = b[1]
        if direction(typ) != self.accept:
            self._reject(ERR_TYPE)
            return False
        if not payload_ok(typ, self.payload, plen):
            self._reject(ERR_PAYLOAD)
            return False
        self.typ = typ
        self.seq = b[6] | (b[7] << 8)
        self.length = plen
        self.good += 1
        return True

    def feed(self, data):
        """Decode a chunk; returns ``(type, sender, seq, payload bytes)`` for each valid frame."""
        frames = []
        for x in data:
            if self.push(x):
                frames.append((self.typ, self.sender(), self.seq, bytes(self.payload[:self.length])))
        return frames


# ---- payload decoders (host side; they allocate) ----------------------------------------------


def decode_hello(p):
    """-> (protocol version, firmware str, board str)"""
    k = 2 + p[1]
    return (p[0], _text(p[2:k]), _text(p[k + 1:k + 1 + p[k]]))


def decode_tap(p):
    """-> (reader, uid bytes, code bytes or None)"""
    k = 2 + p[1]
    code = bytes(p[k:])
    return (p[0], bytes(p[2:k]), code if code else None)


def decode_stack(p):
    """-> (reader, cards)"""
    return (p[0], p[1])


def decode_button(p):
    """-> (seat, kind)"""
    return (p[0], p[1])


def decode_reader(p):
    """-> (reader, status, firmware 4 bytes)"""
    return (p[0], p[1], bytes(p[2:6]))


def decode_heartbeat(p):
    """-> (base, next seq, dropped, bad frames, host_alive)"""
    return (u16(p, 0), u16(p, 2), u16(p, 4), u16(p, 6), p[8])


def decode_log(p):
    """-> text (undecodable bytes replaced, never raises)"""
    return _text(p)


def _text(p):
    try:
        return bytes(p).decode()
    except UnicodeError:
        return "".join([chr(x) if 32 <= x < 127 else "?" for x in p])


def decode_snapshot(p):
    """-> (last acked, base, next seq, dropped, readers bytes, buttons bytes, ring states, clock ms,
    poll counters)

    Ring states are a list of ``(pattern, r, g, b, count, arg)``; the poll counters a tuple, one
    per reader. Clock and counters are None from firmware that sends no counters.
    """
    k = 8
    readers = bytes(p[k + 1:k + 1 + p[k]])
    k += 1 + p[k]
    buttons = bytes(p[k + 1:k + 1 + p[k]])
    k += 1 + p[k]
    rings = []
    for i in range(p[k]):
        o = k + 1 + i * RING_STATE
        rings.append((p[o], p[o + 1], p[o + 2], p[o + 3], p[o + 4], u16(p, o + 5)))
    k += 1 + p[k] * RING_STATE
    clock = polls = None
    if k < len(p):
        clock = u32(p, k)
        polls = tuple([u32(p, o) for o in range(k + 5, len(p), 4)])
    return (u16(p, 0), u16(p, 2), u16(p, 4), u16(p, 6), readers, buttons, rings, clock, polls)


def decode_ack(p):
    """-> acknowledged seq (the boot it is for: :func:`ack_boot`)"""
    return u16(p, 0)


def ack_boot(p):
    """-> the boot id an ACK is for"""
    return u32(p, 2)


def decode_ack_fields(p):
    """-> (acknowledged seq, boot id)"""
    return (u16(p, 0), u32(p, 2))


def decode_ring(p):
    """-> (ring, pattern, r, g, b, count, arg)"""
    return (p[0], p[1], p[2], p[3], p[4], p[5], u16(p, 6))


def decode_sim_place(p):
    """-> (reader, uid bytes, pages bytes)"""
    k = 2 + p[1]
    return (p[0], bytes(p[2:k]), bytes(p[k:]))


def decode_sim_lift(p):
    """-> reader"""
    return p[0]


def decode_sim_button(p):
    """-> (button, down bool)"""
    return (p[0], p[1] == 1)


DECODERS = {
    HELLO: decode_hello, TAP: decode_tap, TAKE_BACK: decode_tap, STACK: decode_stack, BUTTON: decode_button,
    READER: decode_reader,
    SNAPSHOT: decode_snapshot, HEARTBEAT: decode_heartbeat, LOG: decode_log, ACK: decode_ack_fields,
    RING: decode_ring, SIM_PLACE: decode_sim_place, SIM_LIFT: decode_sim_lift,
    SIM_BUTTON: decode_sim_button,
}


def decode(typ, p):
    """Fields of a checked payload ``p`` of message ``typ`` (None for field-less messages)."""
    f = DECODERS.get(typ)
    return f(p) if f else None


def seq_distance(a, b):
    """How many events from seq ``b`` forward to seq ``a`` (seqs run 1..65535, 0 is skipped)."""
    return (a - b) % 65535


def seq_after(a, b):
    """True when seq ``a`` comes after ``b`` (serial-number arithmetic over 1..65535)."""
    return 0 < (a - b) % 65535 < 0x8000


def next_seq(s):
    """The seq after ``s``: 1..65535, then 1 again (0 means "not an event")."""
    s = (s + 1) & 0xFFFF
    return s if s else 1
