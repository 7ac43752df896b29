"""The Pico's USB CDC serial port as rp2's MicroPython runs it, for tests of what the unix port's
pipes cannot show: the interrupt character and a host that stops reading.

* **Ctrl-C** (MicroPython's ``mp_usbd_cdc.c``, ``tud_cdc_rx_cb``): every received byte equal to
  the interrupt char (3 after boot) is taken out of the stream and raises KeyboardInterrupt in the
  running code, wherever it is, until ``micropython.kbd_intr(-1)``.  This module stands in for
  ``micropython`` (``const``, ``kbd_intr``): under MicroPython a test puts it in
  ``sys.modules["micropython"]`` before the firmware is imported (a loaded module wins over the
  built-in one); the real ``const`` folding is the compiler's and does not depend on it.
* **Host bytes arrive while the firmware does something else**: ``schedule(events, data)``
  delivers ``data`` at the ``events``-th time the firmware touches the hardware (makes a pin, drives
  an edge on chip-select or reset), so bytes land during ``boot()`` (the escape button's pin is
  its first) as well as inside the scan loop.
* **Writes** (``mp_usbd_cdc_tx_strn``): a ``TX_FIFO``-byte transmit FIFO the host drains when it
  reads; with the host not reading a write waits ``TX_TIMEOUT_MS`` (500, ``MICROPY_HW_USB_CDC_TX_
  TIMEOUT``) on the world clock for room, then gives up on the rest.  ``writable()`` is what
  ``select.poll`` reports as POLLOUT: room in the FIFO.

Use ``Port()`` as the link's stream (``readinto``/``write``/``writable``).
"""

try:
    from shengji_table.sim.hw import world  # CPython, package import
except ImportError:  # MicroPython: sim/hw is on MICROPYPATH (mypy checks the package import above)
    import world  # type: ignore[import-not-found, no-redef]

TX_FIFO = 256
TX_TIMEOUT_MS = 500

interrupt_char = 3
interrupts = 0          # KeyboardInterrupts raised
_schedule: list = []    # [edge number, bytes] in order
_edges = 0
port = None             # the Port bytes are delivered to


def const(x):
    return x


def kbd_intr(c):
    """``micropython.kbd_intr``: the interrupt char, -1 for none."""
    global interrupt_char
    interrupt_char = c


def schedule(edges, data):
    """Deliver ``data`` to the port at the ``edges``-th hardware event from now (0: the next)."""
    _schedule.append([_edges + edges, bytes(data)])


def pending():
    """Bytes scheduled and not delivered yet."""
    return sum(len(d) for _, d in _schedule)


def _on_edge():
    global _edges
    _edges += 1
    while _schedule and _schedule[0][0] <= _edges:
        data = _schedule.pop(0)[1]
        arrive(data)


def arrive(data):
    """Bytes from the host reach the Pico now (the interrupt char raises, as on rp2)."""
    global interrupts
    for i in range(len(data)):
        b = data[i]
        if b == interrupt_char:
            port.rx.extend(data[i + 1:])   # the rest is in the FIFO; the interrupt comes first
            interrupts += 1
            raise KeyboardInterrupt()
        port.rx.append(b)


class Port:
    """The CDC port: ``rx`` what the host sent and the firmware has not read, ``tx`` what the
    firmware wrote and the host has not read; ``host_reading`` False = port open, nobody reading."""

    def __init__(self):
        global port
        port = self
        self.rx = bytearray()
        self.tx = bytearray()
        self.sent = bytearray()   # everything the host has read
        self.host_reading = True
        self.timeouts = 0
        world.hw_hooks.append(_on_edge)

    def readinto(self, buf):
        n = min(len(buf), len(self.rx))
        for i in range(n):
            buf[i] = self.rx[i]
        self.rx = self.rx[n:]
        return n

    def _drain(self):
        if self.host_reading:
            self.sent.extend(self.tx)
            self.tx = bytearray()

    def writable(self):
        self._drain()
        return len(self.tx) < TX_FIFO

    def write(self, buf, off=0, n=-1):
        if n < 0:
            n = len(buf) - off
        self._drain()
        room = TX_FIFO - len(self.tx)
        if n > room:
            # rp2 waits for the host to make room, up to the transmit timeout, then drops the rest
            if world.sim_clock():
                world.advance(TX_TIMEOUT_MS)
            self._drain()
            room = TX_FIFO - len(self.tx)
            if n > room:
                self.timeouts += 1
                n = room
        self.tx.extend(buf[off:off + n])
        self._drain()
        return n


def reset():
    global interrupt_char, interrupts, _edges, port
    interrupt_char = 3
    interrupts = 0
    _edges = 0
    port = None
    _schedule.clear()
