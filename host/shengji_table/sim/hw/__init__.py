"""Simulated Pico hardware: fake ``machine``, ``neopixel`` and ``rp2`` modules over one ``world``,
and ``usb_cdc``, rp2's USB serial port (Ctrl-C on a received 0x03, a transmit FIFO the host may
stop draining) standing in for ``micropython`` in the tests that need it.

Under MicroPython this folder goes first on ``MICROPYPATH`` (then ``firmware/``, which holds the
PN532 model ``pn532_model`` the world puts behind each chip-select), so that the firmware's
``import machine`` gets the fake.  Under CPython import them as
``shengji_table.sim.hw.machine`` etc.  How a test sets up a world from a board file: see
``world.py``'s docstring.
"""
import pathlib

HW_DIR = pathlib.Path(__file__).resolve().parent
