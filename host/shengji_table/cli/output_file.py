"""What ``play`` and ``demo`` share for the files they write after a match (``--record``, ``--log``):
check the path can be written *before* the match is played, and write the record atomically, so a
bad path is a clear error up front and a crash never leaves half a record.  (Not a subcommand.)"""
from __future__ import annotations

import os
import pathlib
import secrets
import tempfile


def unwritable(path: str, what: str) -> str | None:
    """Why ``path`` cannot be written (``what`` names it in the message, e.g. ``"record"``), or None.

    The folder must exist and take a new file (tried for real: a permission check alone is wrong
    for root and for read-only mounts); the path itself must not be a folder."""
    target = pathlib.Path(path)
    folder = target.parent
    if target.is_dir():
        return f"cannot write {what} {path}: it is a folder"
    if not folder.is_dir():
        return f"cannot write {what} {path}: folder {folder} does not exist"
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=f".{target.name}.", suffix=".probe"):
            pass
    except OSError as exc:
        return f"cannot write {what} {path}: {exc.strerror or exc}"
    return None


def write_atomically(path: str, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder and ``os.replace``:
    the file is either the old one or the whole new one.  Raises ``OSError``."""
    target = pathlib.Path(path)
    tmp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
    # os.open with 0o666 lets the umask decide the mode, as a plain open() would (mkstemp: 0600)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
