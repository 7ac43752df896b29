"""What MicroPython has and CPython lacks, for the firmware's modules when CPython runs them (the
host shares ``protocol`` and ``rings``, its checks and tests run the others): ``micropython.const``
and ``time``'s millisecond ticks and sleeps.  On the Pico every name here is MicroPython's own.

    from compat import const, ticks_diff

``const`` is still folded at compile time: MicroPython and ``mpy-cross`` fold ``X = const(...)`` by
the name ``const`` wherever it was imported from, so ``_X = const(1)`` takes no RAM on the Pico and
``X = const(1)`` is a plain module global, exactly as with ``from micropython import const``.
"""
try:
    from micropython import const
except ImportError:  # CPython (the host, tests, the host's hardware check)
    def const(x):  # type: ignore[misc]
        return x

try:
    from time import sleep_ms, sleep_us, ticks_add, ticks_diff, ticks_ms
except ImportError:  # CPython: same names, same meaning; the host's millisecond clock does not wrap
    import time as _time

    def ticks_ms():  # type: ignore[no-redef]
        return int(_time.monotonic() * 1000)  # type: ignore[attr-defined]

    def ticks_add(a, b):  # type: ignore[no-redef,misc]
        return a + b

    def ticks_diff(a, b):  # type: ignore[no-redef]
        return a - b

    def sleep_ms(ms):  # type: ignore[no-redef,misc]
        _time.sleep(ms / 1000)

    def sleep_us(us):  # type: ignore[no-redef,misc]
        _time.sleep(us / 1_000_000)
