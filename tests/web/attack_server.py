"""Test helper (not a test): a table's web face in a process of its own, for the attack suite to
measure from outside — a real controller, service and SQLite log (``webtable.make_table``) and the
real uvicorn server (``start_web_server``) on 127.0.0.1.

    python attack_server.py LOG [--nofile N] [--tls CERT KEY]

prints ``url <URL> pid <PID>`` once serving; when its stdin closes it stops and prints one line
``figures {json}``: the guard's refusals by status, the connections the server closed to make room
or for a stalled header, and the log's rows.  ``--nofile N`` lowers the process's open-file limit
first (as on a small machine), so an attack that holds connections open meets it."""
from __future__ import annotations

import json
import resource
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from webtable import PIN, feed_until, make_table, tricks  # noqa: E402


def _guard(app):
    """The :class:`Guard` instance inside Starlette's middleware stack (built on the first request)."""
    from shengji_table.face.web.guard import Guard
    node = app.middleware_stack
    while node is not None and not isinstance(node, Guard):
        node = getattr(node, "app", None)
    return node


def main(argv: list) -> int:
    log = argv[0]
    if "--nofile" in argv:
        n = int(argv[argv.index("--nofile") + 1])
        resource.setrlimit(resource.RLIMIT_NOFILE, (n, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
    tls = None
    if "--tls" in argv:
        i = argv.index("--tls")
        tls = (argv[i + 1], argv[i + 2])
    from shengji_table.face.web.auth import hash_pin
    from shengji_table.face.web.server import start_web_server
    svc, events = make_table(log, referee_undo=True)
    feed_until(svc, events, 0, tricks(2))
    web = start_web_server(svc, pin_hash=hash_pin(PIN), **({"tls": tls} if tls else {}))
    print(f"url {web.url} pid {__import__('os').getpid()}", flush=True)
    sys.stdin.read()
    guard = _guard(web.config.app)
    refused = dict(getattr(guard, "refused", {}))
    evicted = getattr(web, "protocol", None)
    web.stop()
    rows = len(list(svc.log.entries()))
    print("figures " + json.dumps({"refused": refused, "closed": evicted.evicted[0] if evicted else None,
                                   "rows": rows}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
