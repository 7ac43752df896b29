"""One reader's health: poll a PN532, notice when it stops answering, bring it back.

API (used by the scan loop)::

    def changed(reader, alive, firmware):      # alive->dead: (r, False, 0); dead->alive: (r, True, fw)
        ...
    r = Reader("seat0", PN532(bus, cs, rst), on_change=changed)   # bus: the SPI bus's PN532Bus
    r.start()                 # first bring-up; reports dead at once if the chip is missing
    n = r.poll(now, known)    # UID length (card present) or 0 (no card, reader dead or a failed poll)
    r.polled                  # True when that 0 means "no card": the chip was asked and answered
    r.targets                 # cards that answered (2: two cards on the reader)
    if n:
        r.uid[:n]             # the first card's UID; r.code[:16] holds pages 4..7 when r.code_ok
                              # (read them before polling another reader on the bus: the buffers
                              # are the bus's)

``known`` (optional, e.g. the scan loop's ``debounce.TapDebounce``): its ``knows(uid, n)`` says
the card's code was read already (the card held, or dwelling): it is not read again.  Nor is a
code read while two cards answer.

``poll()`` never raises a PN532 error: a failed exchange counts against the reader
(``failures`` consecutive, ``errors`` in total); after ``fail_limit`` consecutive failures the
reader is dead and reported once.  A dead reader is retried with exponential back-off
(``backoff_ms`` doubling up to ``backoff_max_ms``); when RST is wired each retry first pulses it low
and waits for the chip to boot, spread over successive polls so that the scan loop never sleeps
for it.  A single failed poll returns 0 like "no card": the scan loop's debounce absorbs it.

No flapping: a reader that comes back is only trusted again after ``_STABLE_POLLS`` good polls in
a row; until then its back-off keeps doubling, so a chip that answers ``begin()`` but fails every
poll is reported dead and alive at ever longer intervals (up to ``backoff_max_ms``), not four
times a second.

Activation window: when the previous poll saw a card and this one sees none, InListPassiveTarget
is tried again until ``activation_ms`` have passed since the first try (ESPHome retries within a
window after field-on): a card at the edge of the field, or slow to power up after field-on, is
found again rather than counted missing.  An empty reader costs one try, as before.
After each poll the reader's RF field is switched off, so that only the reader being polled
radiates (readers side by side would otherwise detune each other).  The field going off unpowers
the tags, so no InRelease precedes it (a reader whose field stays on, ``field_off=False``,
releases the card instead: polled again un-released, some tags answer every second poll).

No allocation in the steady state: ``uid`` and ``code`` are the bus's buffers (``PN532Bus``), made
once and shared by the readers of a bus, since the scan loop consumes a reader's card before it
polls the next reader.
"""

from compat import const, ticks_add, ticks_diff, ticks_ms

from pn532 import (FIRST_USER_PAGE, RESET_BOOT_MS, RESET_LOW_MS, PN532CommandError,
                   PN532Error)

_FAIL_LIMIT = const(3)
_BACKOFF_MS = const(250)
_BACKOFF_MAX_MS = const(8000)
_STABLE_POLLS = const(20)   # good polls in a row before a recovered reader's back-off starts over
_ACTIVATION_MS = const(100)

# Recovery phases of a dead reader.
_RETRY = const(0)      # next step: pulse RST (if wired) or call begin()
_RST_LOW = const(1)    # RST held low; next step: release it
_BOOTING = const(2)    # RST released; next step: begin()


class Reader:
    """A PN532 with a health record.  ``name`` is the board file's reader name.

    Settings equal to the defaults stay class attributes (no per-reader RAM); only a reader's own
    state (health, back-off, the last card's UID and code) lives on the instance.
    """

    fail_limit = _FAIL_LIMIT
    backoff_ms = _BACKOFF_MS
    backoff_max_ms = _BACKOFF_MAX_MS
    read_code = True
    field_off = True
    activation_ms = _ACTIVATION_MS

    def __init__(self, name, pn532, on_change=None, fail_limit=_FAIL_LIMIT, backoff_ms=_BACKOFF_MS,
                 backoff_max_ms=_BACKOFF_MAX_MS, read_code=True, field_off=True,
                 activation_ms=_ACTIVATION_MS):
        self.name = name
        self.pn = pn532
        self.on_change = on_change
        if fail_limit != _FAIL_LIMIT:
            self.fail_limit = fail_limit
        if backoff_ms != _BACKOFF_MS:
            self.backoff_ms = backoff_ms
        if backoff_max_ms != _BACKOFF_MAX_MS:
            self.backoff_max_ms = backoff_max_ms
        if not read_code:
            self.read_code = False
        if not field_off:
            self.field_off = False
        if activation_ms != _ACTIVATION_MS:
            self.activation_ms = activation_ms
        self.alive = False
        self.firmware = 0
        self.failures = 0       # consecutive failed polls
        self.errors = 0         # failed exchanges since start (polls and recovery attempts)
        self.recoveries = 0     # dead -> alive transitions after the first start
        self.good = 0           # good polls in a row
        self.polled = False     # the last poll() asked the chip and got an answer (card or none)
        self.targets = 0        # cards that answered the last poll
        self.retried = 0        # polls that found the card again inside the activation window
        self._proven = False
        # The bus's buffers: valid right after this reader's poll, until the next reader is polled.
        bus = pn532.bus
        self.uid = bus.uid
        self.uid_len = 0
        self.code = bus.code
        self.code_ok = False
        self._backoff = backoff_ms
        self._retry_at = 0
        self._phase = _RETRY
        self._started = False

    def _report(self, alive):
        if self.on_change is not None:
            self.on_change(self, alive, self.firmware)

    def _up(self):
        """Try begin(); on success mark alive and report.  Returns True when the reader is up."""
        try:
            fw = self.pn.begin()
        except PN532Error:
            self.errors += 1
            return False
        if self._started:
            self.recoveries += 1
        self._started = True
        self.alive = True
        self.firmware = fw
        self.failures = 0
        self.good = 0       # the back-off starts over only once it has proved itself (poll)
        self._proven = False
        self._report(True)
        return True

    def _down(self, now):
        if self.recoveries and not self._proven:
            # back, then down again before it proved itself: a flapping chip waits longer each time
            self._backoff = min(self._backoff * 2, self.backoff_max_ms)
        self.alive = False
        self.firmware = 0
        self.uid_len = 0
        self._phase = _RETRY
        self._retry_at = ticks_add(now, self._backoff)
        self._report(False)

    def start(self, now=None):
        """First bring-up (blocking: one begin()).  Returns ``alive``; a missing chip is reported dead."""
        if now is None:
            now = ticks_ms()
        if not self._up():
            self._started = True
            self._down(now)
        return self.alive

    def poll(self, now=None, known=None):
        """One scan step for this reader: UID length of the (first) card on it, or 0."""
        if now is None:
            now = ticks_ms()
        self.polled = False
        self.targets = 0
        if not self.alive:
            self._recover(now)   # a recovery step, even a successful one, is no evidence of a card
            return 0
        pn = self.pn
        try:
            n = self._list()
            self.code_ok = False
            if n:
                if (self.read_code and pn.targets == 1
                        and (known is None or not known.knows(self.uid, n))):
                    try:
                        pn.read_pages(FIRST_USER_PAGE, self.code)
                        self.code_ok = True
                    except PN532CommandError:
                        pass  # not an NTAG (e.g. MIFARE Classic), or lifted mid-read: UID only
                if not self.field_off:
                    # Releasing halts the tag; polled again un-released, some tags drop out every
                    # second poll (docs/hardware-notes.md, PN532: the InListPassiveTarget quirk).
                    pn.release()
            if self.field_off:
                pn.rf_field(False)
        except PN532Error:
            self.errors += 1
            self.failures += 1
            self.good = 0
            self.uid_len = 0
            if self.failures >= self.fail_limit:
                self._down(now)
            return 0
        self.failures = 0
        self.polled = True
        self.good += 1
        if self.good == _STABLE_POLLS:
            self._backoff = self.backoff_ms
            self._proven = True
        self.uid_len = n
        self.targets = pn.targets if n else 0
        return n

    def _list(self):
        """InListPassiveTarget; retried within the activation window when a card was there."""
        pn = self.pn
        n = pn.list_passive_target(self.uid)
        if n or not self.uid_len or not self.activation_ms:
            return n
        start = ticks_ms()
        while not n and ticks_diff(ticks_ms(), start) < self.activation_ms:
            n = pn.list_passive_target(self.uid)
        if n:
            self.retried += 1
        return n

    def _recover(self, now):
        if ticks_diff(now, self._retry_at) < 0:
            return
        rst = self.pn.rst
        if rst is not None and self._phase == _RETRY:
            rst.value(0)
            self._phase = _RST_LOW
            self._retry_at = ticks_add(now, RESET_LOW_MS)
            return
        if self._phase == _RST_LOW:
            rst.value(1)
            self._phase = _BOOTING
            self._retry_at = ticks_add(now, RESET_BOOT_MS)
            return
        self._phase = _RETRY
        if not self._up():
            self._backoff = min(self._backoff * 2, self.backoff_max_ms)
            self._retry_at = ticks_add(now, self._backoff)
