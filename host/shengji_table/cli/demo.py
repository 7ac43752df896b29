"""``shengji-table demo``: the main job — a virtual table playing a match with bots.

The real firmware runs under the real MicroPython interpreter with simulated PN532 readers, rings
and buttons; the host talks to it over a pseudo-terminal; bots play by laying cards on the
simulated readers.  See :mod:`shengji_table.sim.demo` for the options.  (``shengji-table play`` is
the same match in software only.)
"""
from ..sim.demo import add_arguments, run  # noqa: F401  (the subcommand's interface)
