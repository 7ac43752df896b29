"""The wire protocol, the host's end: the firmware's own ``protocol.py`` (``firmware/protocol.py``,
one source for both ends of the link; ``docs/protocol.md``).

This module *is* that module: ``from shengji_table.table import protocol as P`` gives the module
:mod:`shengji_table.firmware_src` loaded, ``shengji_table._firmware.protocol``.
"""
import sys
from typing import TYPE_CHECKING, Any

from .. import firmware_src

if TYPE_CHECKING:
    # The type checker does not follow the swap below: every name is the firmware's.
    def __getattr__(name: str) -> Any: ...

sys.modules[__name__] = firmware_src.load("protocol")
