"""Sim build: the Pico simulates its own PN532 readers and buttons, driven by the link's SIM frames.

A bare Pico (no readers wired), or the unix port, runs the real driver, reader health, debounce and
scan loop against ``SimPN532`` device models (``pn532_model``, a sim-only firmware module, copied
to the Pico by ``shengji-table flash --sim``): :class:`SimBus` stands in for ``machine.SPI`` and
hands each byte to the model whose :class:`SimSelect` chip-select is low, exactly as the wire
would.  SIM_PLACE / SIM_LIFT put and take NTAG tags on a reader (SIM_PLACE with ``SIM_ON_TOP``
lays a second tag on the first: a stack); SIM_BUTTON presses a seat button
(OR-ed with the real pin, so a wired button still works).
"""
from pn532_model import SimNTAG, SimPN532

import protocol as P

IDLE = 0x00  # MISO with no chip driving it
# The chip model's fault knobs a sim build takes from build.json ``faults`` ({reader name: {knob:
# value}}): counts from boot (drop_acks, corrupt_replies, corrupt_commands) or for good (ack_gap_us,
# reply_delay_polls); ``coupling`` (percent) is given to every tag laid on that reader.
FAULT_KNOBS = ("drop_acks", "corrupt_replies", "corrupt_commands", "ack_gap_us", "reply_delay_polls")


class SimBus:
    """``machine.SPI`` stand-in: bytes go to the selected model (already bit-reversed by the driver)."""

    def __init__(self):
        self.selected = None

    def write(self, buf):
        m = self.selected
        if m is not None:
            for i in range(len(buf)):
                m.exchange(buf[i])

    def write_readinto(self, out, into):
        m = self.selected
        for i in range(len(out)):
            b = m.exchange(out[i]) if m is not None else None
            into[i] = IDLE if b is None else b

    def readinto(self, buf, write=0):
        m = self.selected
        for i in range(len(buf)):
            b = m.exchange(write) if m is not None else None
            buf[i] = IDLE if b is None else b


class SimSelect:
    """A reader's chip-select line: low selects its model on the bus."""

    def __init__(self, bus, model):
        self.bus = bus
        self.model = model
        self.level = 1

    def value(self, v=None):
        if v is None:
            return self.level
        v = 1 if v else 0
        if v == self.level:
            return None
        self.level = v
        if v:
            self.model.deselect()
            if self.bus.selected is self.model:
                self.bus.selected = None
        else:
            self.bus.selected = self.model
            self.model.select()
        return None


class SimButton:
    """A seat button: pressed when the host said so (SIM_BUTTON) or the real pin is active."""

    def __init__(self, real=None):
        self.real = real
        self.down = False

    def pressed(self):
        return self.down or (self.real is not None and self.real.pressed())


class SimTable:
    """The models of a sim build: one SimPN532 per reader index, one SimButton per seat."""

    def __init__(self, board, real_buttons=None, dead=(), faults=None):
        self.bus = SimBus()
        self.models = []  # type: list
        self.selects = []  # type: list
        self.coupling = []  # type: list  # per reader: the coupling of every tag laid on it
        for i in range(len(board.readers)):
            pins = board.readers[i]
            self.coupling.append(100)
            if pins is None:
                self.models.append(None)
                self.selects.append(None)
                continue
            m = SimPN532(pins.name, lose_first=True)  # the first command after power-up is lost
            if pins.name in dead:
                m.alive = False     # never drives MISO: a reader without power or chip-select
            for knob, value in ((faults or {}).get(pins.name) or {}).items():
                if knob == "coupling":
                    self.coupling[i] = value    # a card at the edge of the field, detuned
                elif knob in FAULT_KNOBS:
                    setattr(m, knob, value)
            self.models.append(m)
            self.selects.append(SimSelect(self.bus, m))
        self.buttons = [SimButton(real_buttons[k] if real_buttons else None) for k in range(board.seats)]
        self.ignored = 0

    def on_sim(self, typ, fields):
        """The link's SIM callback."""
        if typ == P.SIM_PLACE:
            reader, uid, pages = fields
            m = self._model(reader & ~P.SIM_ON_TOP)
            if m is not None:
                if not reader & P.SIM_ON_TOP:
                    m.lift()
                tag = SimNTAG(uid, pages)
                tag.coupling = self.coupling[reader & ~P.SIM_ON_TOP]
                m.place(tag)
        elif typ == P.SIM_LIFT:
            m = self._model(fields)
            if m is not None:
                m.lift()
        elif typ == P.SIM_BUTTON:
            k, down = fields
            if 0 <= k < len(self.buttons):
                self.buttons[k].down = down
            else:
                self.ignored += 1

    def _model(self, reader):
        if 0 <= reader < len(self.models) and self.models[reader] is not None:
            return self.models[reader]
        self.ignored += 1
        return None
