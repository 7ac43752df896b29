"""The web server in a background thread of the table's own process: ``uvicorn.Server`` with its
config, run in a daemon thread; :meth:`WebServer.stop` ends the streams and the server cleanly.

Against slow clients (``docs/security.md``): a connection has :data:`HEADER_TIMEOUT_S` to send a
request's headers (the first, and each next one on a kept-alive connection), or it is closed; at
most :func:`max_connections` are open at once (well under the process's file limit), and a new one
beyond that closes the oldest still waiting for its headers (or, when every one is busy, itself);
uvicorn's ``limit_concurrency`` answers 503 beyond that.  ``tls=(CERT, KEY)`` serves HTTPS."""
from __future__ import annotations

import asyncio
import ssl
import threading
import time

from .app import create_app
from .auth import RefereeGate
from .hub import Hub

__all__ = ["WebServer", "parse_address", "start_web_server", "check_tls", "max_connections"]

HEADER_TIMEOUT_S = 10.0
KEEP_ALIVE_S = 5
MAX_CONNECTIONS = 200


def max_connections() -> int:
    """The connections kept open at once: :data:`MAX_CONNECTIONS`, or fewer when the process may
    open few files (half of them, less 64 for the log, the serial link and the rest)."""
    try:
        import resource
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (ImportError, OSError, ValueError):
        return MAX_CONNECTIONS
    if soft == resource.RLIM_INFINITY:
        return MAX_CONNECTIONS
    return max(8, min(MAX_CONNECTIONS, (soft - 64) // 2))


def check_tls(cert, key) -> str | None:
    """Why ``cert`` and ``key`` cannot serve HTTPS (None: they can), before anything starts."""
    import os
    for path in (cert, key):
        if not os.path.isfile(path):
            return f"--web-tls: no such file {path}"
    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(str(cert), str(key))
    except (ssl.SSLError, OSError, ValueError) as exc:
        return f"--web-tls: {cert} and {key} are not a PEM certificate and its key: {exc}"
    return None


def _guarded_protocol(limit: int, header_timeout: float):
    """uvicorn's h11 protocol with the header timeout and the connection cap (module docstring)."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Guarded(H11Protocol):
        evicted = [0]                     # connections closed to make room (shared, for the figures)
        _header_timer: asyncio.TimerHandle | None = None
        _since = 0.0

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            self._arm()
            if len(self.connections) > limit:
                waiting = [c for c in self.connections if c is not self and isinstance(c, Guarded) and c._waiting()]
                victim = min(waiting, key=lambda c: c._since) if waiting else self
                self.evicted[0] += 1
                victim.transport.close()

        def _waiting(self) -> bool:
            return self.conn.their_state is h11.IDLE and not self.transport.is_closing()

        def _arm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
            self._since = self.loop.time()
            self._header_timer = self.loop.call_later(header_timeout, self._header_timeout)

        def _header_timeout(self) -> None:
            self._header_timer = None
            if self._waiting():
                self.evicted[0] += 1
                self.transport.close()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._arm()

        def connection_lost(self, exc) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
            super().connection_lost(exc)
    return Guarded


def parse_address(text: str) -> tuple:
    """``"HOST:PORT"``, ``":PORT"`` or ``"PORT"`` → ``(host, port)``; the host defaults to 127.0.0.1."""
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = "", text
    host = host.strip("[]") or "127.0.0.1"
    try:
        number = int(port)
    except ValueError:
        raise ValueError(f"--web takes HOST:PORT (e.g. 127.0.0.1:8080), not {text!r}") from None
    if not 0 <= number <= 65535:
        raise ValueError(f"--web: port {number} is not 0…65535")
    return host, number


class WebServer:
    """One uvicorn server for one table's app."""

    def __init__(self, app, host: str = "127.0.0.1", port: int = 0, tls: tuple | None = None):
        import uvicorn
        limit = max_connections()
        self.protocol = _guarded_protocol(limit, HEADER_TIMEOUT_S)
        cert, key = tls if tls is not None else (None, None)
        self.config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False,
                                     lifespan="on", timeout_graceful_shutdown=1, ws="none", http=self.protocol,
                                     proxy_headers=False,       # no proxy in front: the peer's address counts
                                     limit_concurrency=limit + 8, timeout_keep_alive=KEEP_ALIVE_S,
                                     h11_max_incomplete_event_size=16 * 1024,
                                     ssl_certfile=cert, ssl_keyfile=key)
        self.scheme = "https" if tls is not None else "http"
        self.server = uvicorn.Server(self.config)
        self.thread = threading.Thread(target=self.server.run, name="shengji-web", daemon=True)
        self.host = host
        self.port = port
        self.hub: Hub | None = None

    def start(self, timeout: float = 10.0) -> WebServer:
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise OSError(f"the web server did not start on {self.host}:{self.port} "
                              f"(is the port in use?)")
            time.sleep(0.01)
        for srv in self.server.servers:
            for sock in srv.sockets:
                self.port = sock.getsockname()[1]
                break
        return self

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.scheme}://{host}:{self.port}/"

    def stop(self, timeout: float = 5.0) -> None:
        if self.hub is not None:
            self.hub.close()
        self.server.should_exit = True
        if self.thread.is_alive():
            self.thread.join(timeout)


def start_web_server(service, *, host: str = "127.0.0.1", port: int = 0, pin_hash: str | None = None,
                     names=None, spectator_delay: float = 0.0, clock=None,
                     tls: tuple | None = None) -> WebServer:
    """Serve ``service``'s table at ``host:port`` (0: any free port) in a background thread; over
    HTTPS with ``tls=(CERT, KEY)``.  ``names``: the players' names, in seat order or ``{seat: name}``."""
    hub = Hub(service, names=names, spectator_delay=spectator_delay)
    gate = None
    if pin_hash is not None:
        gate = RefereeGate(pin_hash, clock=clock) if clock is not None else RefereeGate(pin_hash)
    server = WebServer(create_app(hub, gate, secure=tls is not None), host, port, tls)
    server.hub = hub
    return server.start()
