"""``shengji-table referee set-pin FILE``: write the referee's PIN file (its salted scrypt hash).

    shengji-table referee set-pin referee.pin            # asks for the PIN twice (not echoed)
    echo 24681357 | shengji-table referee set-pin referee.pin
    shengji-table referee set-pin referee.pin --pin "red lanterns 5319"

A PIN has at least 8 characters (a number, or a passphrase of a few words; ``auth.pin_problem``).

The file holds ``scrypt$n$r$p$salt_hex$hash_hex`` and is written owner-only (mode 600); the PIN is
never printed.  ``serve``/``demo --referee-pin-file FILE`` read it (``docs/referee.md``).
"""
from __future__ import annotations

import getpass
import os
import sys

__all__ = ["add_arguments", "run"]


def add_arguments(parser) -> None:
    sub = parser.add_subparsers(dest="referee_command", metavar="ACTION")
    sub.required = True
    p = sub.add_parser("set-pin", help="write the referee's PIN file (a salted hash)")
    p.add_argument("file", metavar="FILE", help="the PIN file to write (replaced if present)")
    p.add_argument("--pin", help="the PIN (default: read from stdin, or asked for twice in a terminal)")


def _read_pin(args) -> str | None:
    if args.pin is not None:
        return args.pin
    if sys.stdin.isatty():
        first = getpass.getpass("referee PIN: ")
        if getpass.getpass("again: ") != first:
            print("error: the two PINs differ; nothing written", file=sys.stderr)
            return None
        return first
    return sys.stdin.readline().strip()


def run(args) -> int:
    from ..face.web.auth import hash_pin, pin_problem
    pin = _read_pin(args)
    if pin is None:
        return 2
    pin = pin.strip()
    problem = pin_problem(pin)
    if problem:
        print(f"error: {problem}; nothing written", file=sys.stderr)
        return 2
    tmp = f"{args.file}.tmp{os.getpid()}"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(hash_pin(pin) + "\n")
        os.replace(tmp, args.file)
    except OSError as exc:
        print(f"error: cannot write {args.file}: {exc.strerror or exc}", file=sys.stderr)
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return 2
    print(f"referee PIN hash written to {args.file}")
    return 0
