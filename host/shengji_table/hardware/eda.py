"""skidl, loaded quietly, and a way to collect what it reports.

skidl announces on import that it found no KiCad symbol libraries (we need none: every part is
defined in :mod:`.parts`), prints each message to stderr and writes ``<script>.log``/``.erc`` files
into the working directory.  This module imports it once inside a scratch directory with stderr
captured, removes its console and file handlers, and offers :func:`collect` to gather the warnings
and errors of one step (ERC, netlist) as data, so the caller decides what is shown and what fails.
"""
from __future__ import annotations

import contextlib
import io
import logging
import os
import inspect
import tempfile
import types
from types import ModuleType
from collections.abc import Iterator

__all__ = ["skidl", "collect", "Message"]

_skidl: ModuleType | None = None


def skidl() -> ModuleType:
    """The ``skidl`` module, imported without console noise or stray files."""
    global _skidl
    if _skidl is None:
        here = os.getcwd()
        with tempfile.TemporaryDirectory(prefix="skidl-") as scratch, \
                contextlib.redirect_stderr(io.StringIO()):
            os.chdir(scratch)   # its log files are created (and removed) here, not in the caller's folder
            try:
                import skidl as module
                from skidl.logger import erc_logger, rt_logger, stop_log_file_output
                stop_log_file_output(True)
                _install_fast_trace()
                for logger in (rt_logger, erc_logger):
                    for handler in list(logger.handlers):
                        if isinstance(handler, logging.StreamHandler) and not isinstance(
                                handler, logging.FileHandler):
                            logger.removeHandler(handler)
            finally:
                os.chdir(here)
        _skidl = module
    return _skidl


def _fast_trace() -> list[tuple[str, str]]:
    """skidl's ``get_skidl_trace`` (where in user code a part or net was made), without
    ``inspect.stack()``: that reads the source of every frame for each part and net, which makes a
    table's circuit take seconds under a deep call stack (pytest).  Same result: the callers'
    (file, line) from the outermost frame inwards, skidl's own frames left out."""
    import skidl.scriptinfo
    skidl_dir = os.path.dirname(skidl.scriptinfo.__file__)
    trace = []
    here = inspect.currentframe()
    frame: types.FrameType | None = here.f_back if here is not None else None
    while frame is not None:
        filename = frame.f_code.co_filename
        if not filename.startswith(skidl_dir):
            trace.append((os.path.abspath(filename), str(frame.f_lineno)))
        frame = frame.f_back
    trace.reverse()
    return trace


def _install_fast_trace() -> None:
    import skidl.circuit
    import skidl.logger
    import skidl.node
    for module in (skidl.circuit, skidl.node, skidl.logger):
        module.get_skidl_trace = _fast_trace   # each imported the name; replace it where it is used


class Message(tuple):
    """``(level, text)`` of one skidl report line, e.g. ``("WARNING", "Unconnected pin: …")``."""

    @property
    def level(self) -> str:
        return self[0]

    @property
    def text(self) -> str:
        return self[1]


class _Collector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.messages: list[Message] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(Message((record.levelname, record.getMessage())))


@contextlib.contextmanager
def collect() -> Iterator[list[Message]]:
    """Within the block, skidl's warnings and errors are appended to the yielded list."""
    skidl()
    from skidl.logger import erc_logger, rt_logger
    handler = _Collector()
    for logger in (rt_logger, erc_logger):
        logger.addHandler(handler)
    try:
        yield handler.messages
    finally:
        for logger in (rt_logger, erc_logger):
            logger.removeHandler(handler)

