"""shengji-table: the host side of an RFID card table for Shengji (升级 / Tractor / 80分).

Layers, imports pointing down only (tests/test_layers.py checks every import):

    rules → game → store → table / hardware → face → club → sim → cli

1. ``rules``    — pure rules: cards, trump order, units, throws, following, tricks, declarations,
   kitty bonus, settlement, presets.  No I/O, no clock, no randomness.
2. ``game``     — hand and match as event-sourced state machines; bots; records.
3. ``store``    — the append-only SQLite event log.
4. ``table``    — serial link to the Pico, wire protocol, card registry, controller, service,
   self-test; and, beside it (neither imports the other), ``hardware`` — circuits as code,
   drawings, BOM, the pin check, firmware builds.
5. ``face``     — what people at the table see and hear: the terminal view, the voice, the web
   pages and the referee's console; the same for a real table and the virtual one.
6. ``club``     — many tables, one club server: MQTT intake, the club database, standings, the
   club pages, a table's publisher, movements, boards, duplicate scoring (``docs/club.md``).
7. ``sim``      — the virtual table (real firmware under real MicroPython, simulated PN532s).
8. ``cli``      — the ``shengji-table`` command.

Below every layer, the package root's modules, which import only each other: ``board`` (board
files: where they are, loading and validating one), ``firmware_src`` (the firmware's files,
installed as package data, and the firmware modules the host shares: ``protocol``, ``rings``),
``micropython`` (running the real MicroPython interpreter).
"""

__version__ = "0.1.0"
