"""The web face's options, shared by ``serve`` and ``demo``: ``--web HOST:PORT``,
``--referee-pin-file FILE``, ``--spectator-delay SECONDS``, ``--web-tls CERT KEY``.

    add_web_arguments(parser)          # in add_arguments
    web = start_web(args, service)     # once the service exists (None: no --web); web.stop() at exit

The pages and the console are ``shengji_table.face.web`` (``docs/table.md``, "Screens";
``docs/referee.md``).  Starlette and uvicorn come with the ``web`` extra.
"""
from __future__ import annotations

import sys
from collections.abc import Callable

__all__ = ["add_web_arguments", "start_web", "stop_web", "check_web_args", "bad_web_args", "tls_problem"]


def add_web_arguments(parser) -> None:
    g = parser.add_argument_group("web pages (the public table, the referee's console)")
    g.add_argument("--web", metavar="HOST:PORT",
                   help="serve the table's web pages here (e.g. 127.0.0.1:8080; the host defaults to 127.0.0.1)")
    g.add_argument("--referee-pin-file", metavar="FILE",
                   help="the referee's PIN or its hash (shengji-table referee set-pin FILE); without it the "
                        "referee's console is off")
    g.add_argument("--spectator-delay", metavar="SECONDS", type=float, default=0.0,
                   help="the public page and stream run this many seconds behind the table (default 0)")
    g.add_argument("--web-tls", nargs=2, metavar=("CERT", "KEY"),
                   help="serve the pages over HTTPS with this PEM certificate and key (e.g. made by "
                        "shengji-table club certs make), so the PIN does not cross the network in clear")


def tls_problem(args) -> str | None:
    """What is wrong with ``--web-tls`` (None: not given, or fine)."""
    if not getattr(args, "web_tls", None):
        return None
    from ..face.web.server import check_tls
    return check_tls(*args.web_tls)


def check_web_args(args) -> str | None:
    """A sentence saying what is wrong with the web options (None: fine), before anything starts."""
    from ..face.web.server import parse_address
    if getattr(args, "web", None) is None:
        if getattr(args, "referee_pin_file", None) or getattr(args, "spectator_delay", 0) or \
                getattr(args, "web_tls", None):
            return "--referee-pin-file, --spectator-delay and --web-tls need --web HOST:PORT"
        return None
    try:
        parse_address(args.web)
    except ValueError as exc:
        return str(exc)
    if not 0 <= args.spectator_delay <= 3600:
        return "--spectator-delay is 0…3600 seconds"
    if args.referee_pin_file:
        from ..face.web.auth import PinError, load_pin_file
        try:
            load_pin_file(args.referee_pin_file)
        except PinError as exc:
            return str(exc)
    return tls_problem(args)


def bad_web_args(args) -> bool:
    """Print what is wrong with the web options (True), or nothing (False)."""
    problem = check_web_args(args)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
    return bool(problem)


def stop_web(web) -> None:
    if web is not None:
        web.stop()


def start_web(args, service, say: Callable[[str], None] | None = None):
    """Start the web server for ``service`` when ``--web`` was given; the running server (call
    ``.stop()`` at exit) or None.  A bad option or a port in use: ``SystemExit(2)`` with the reason."""
    if getattr(args, "web", None) is None:
        return None
    problem = check_web_args(args)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        raise SystemExit(2)
    try:
        from ..face.web.server import parse_address, start_web_server
    except ImportError as exc:
        print(f"error: --web needs the web extra (pip install 'shengji-table[web]'): {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    from ..face.web.auth import load_pin_file
    host, port = parse_address(args.web)
    pin_hash = load_pin_file(args.referee_pin_file) if args.referee_pin_file else None
    try:
        web = start_web_server(service, host=host, port=port, pin_hash=pin_hash, names=getattr(args, "names", None),
                               spectator_delay=args.spectator_delay, tls=getattr(args, "web_tls", None))
    except OSError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    (say or print)(f"web: the table at {web.url}, the referee's console at {web.url}referee"
                   + ("" if pin_hash else " (off: no --referee-pin-file)"))
    return web
