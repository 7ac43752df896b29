"""Fake ``rp2``: only what the firmware uses.  ``bootsel_button()`` reads ``world.bootsel``."""

try:
    from shengji_table.sim.hw import world
except ImportError:
    import world


def bootsel_button():
    """1 while the BOOTSEL button is held (set ``world.bootsel`` in a test), else 0."""
    return world.bootsel
