"""Fake ``neopixel``: the same API and byte layout as MicroPython's frozen ``neopixel`` module.

``write()`` hands a copy of the pixel buffer to ``world`` (``world.pixels(pin)``) instead of driving
the data line.  ``buf`` holds the pixels in wire order (GRB for ``bpp=3``), as on the board.
"""

try:
    from shengji_table.sim.hw import world
except ImportError:  # MicroPython: sim/hw is on MICROPYPATH (mypy checks the package import above)
    import world  # type: ignore[import-not-found, no-redef]


class NeoPixel:
    ORDER = (1, 0, 2, 3)  # (r, g, b, w) -> byte offset in a pixel: GRB(W) on the wire

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.timing = timing
        self.buf = bytearray(n * bpp)
        pin.init(pin.OUT)

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        offset = i * self.bpp
        for j in range(self.bpp):
            self.buf[offset + self.ORDER[j]] = v[j]

    def __getitem__(self, i):
        offset = i * self.bpp
        return tuple(self.buf[offset + self.ORDER[j]] for j in range(self.bpp))

    def fill(self, v):
        b = self.buf
        for i in range(self.bpp):
            c = v[i]
            for j in range(self.ORDER[i], len(b), self.bpp):
                b[j] = c

    def write(self):
        world.neopixel_written(self.pin.id, self.buf, self.n, self.bpp)
