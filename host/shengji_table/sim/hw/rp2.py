"""Fake ``rp2``: only what the firmware uses.  ``bootsel_button()`` reads ``world.bootsel``."""

try:
    from shengji_table.sim.hw import world
except ImportError:  # MicroPython: sim/hw is on MICROPYPATH (mypy checks the package import above)
    import world  # type: ignore[import-not-found, no-redef]


def bootsel_button():
    """1 while the BOOTSEL button is held (set ``world.bootsel`` in a test), else 0."""
    return world.bootsel
