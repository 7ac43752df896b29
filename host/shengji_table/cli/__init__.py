"""The ``shengji-table`` command.

Each subcommand lives in its own module of this package and exposes ``add_arguments(parser)`` and
``run(args) -> int``.  Modules are imported lazily so that ``shengji-table judge`` never pays for the
serial or firmware tooling.  A subcommand whose module is not part of this build is not offered.
"""
import argparse
import importlib
import importlib.util
import os
import sys

# name -> (module, one-line help)
COMMANDS = {
    "judge": ("judge", "rule on a trick, a declaration or a settlement given as JSON"),
    "play": ("play", "play a match with bots in the terminal"),
    "league": ("league", "two bots in a duplicate league: net levels, standard error, sign test"),
    "replay": ("replay", "print a match from its JSON record"),
    "demo": ("demo", "a virtual table playing a match (the main job)"),
    "serve": ("serve", "run a real table"),
    "log": ("log", "read the event log; export the match record"),
    "enroll": ("enroll", "register a deck's tags as physical cards"),
    "deck": ("deck", "check a deck: missing, duplicate and foreign cards"),
    "flash": ("flash", "compile the firmware with mpy-cross and copy it with mpremote"),
    "hardware": ("hardware", "check schematics, board file and firmware pins agree"),
    "selftest": ("selftest", "walk a freshly built table: rings, readers, buttons"),
    "virtual-table": ("virtual_table", "a virtual table on a pseudo-terminal, driven by tap/lift/press commands"),
    "club": ("club", "the club server over MQTT, standings, tables, a demo evening"),
    "referee": ("referee", "the referee's console: set-pin writes the PIN file"),
}


def _available():
    for name, (module, helptext) in COMMANDS.items():
        if importlib.util.find_spec(f"{__name__}.{module}") is not None:
            yield name, module, helptext


def build_parser(only=None):
    """The argument parser; with ``only``, just that subcommand's module is imported."""
    parser = argparse.ArgumentParser(prog="shengji-table", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, module, helptext in _available():
        p = sub.add_parser(name, help=helptext, description=helptext)
        p.set_defaults(command_module=module)
        if only is None or name == only:
            importlib.import_module(f"{__name__}.{module}").add_arguments(p)
    return parser


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    first = argv[0] if argv and argv[0] in COMMANDS else None
    args = build_parser(only=first).parse_args(argv)
    module = importlib.import_module(f"{__name__}.{args.command_module}")
    try:
        return module.run(args)
    except BrokenPipeError:
        return closed_pipe()


def closed_pipe() -> int:
    """The reader of stdout went away (``replay … | head``): stop quietly, no traceback, with the
    status a shell gives a program killed by SIGPIPE.  Python's documented recipe: point stdout at
    /dev/null so the flush at exit cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return 141


if __name__ == "__main__":
    sys.exit(main())
