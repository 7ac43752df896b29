"""shengji-table: the host side of an RFID card table for Shengji (升级 / Tractor / 80分).

Layers, dependencies pointing downwards only (README.md "Layout"; one page per subsystem in docs/):

1. ``rules``  — pure rules: cards, trump order, units, throws, following, tricks, declarations,
   kitty bonus, settlement, presets.  No I/O, no clock, no randomness.
2. ``game``   — hand and match as event-sourced state machines; bots; records.
3. ``table``  — serial link to the Pico, wire protocol, card registry, controller.
4. ``store``  — the append-only SQLite event log.
5. ``cli``    — the ``shengji-table`` command.
6. ``sim``    — the virtual table (real firmware under real MicroPython, simulated PN532s).
"""

__version__ = "0.1.0"
