"""The web server in a background thread of the table's own process: ``uvicorn.Server`` with its
config, run in a daemon thread; :meth:`WebServer.stop` ends the streams and the server cleanly."""
from __future__ import annotations

import threading
import time

from .app import create_app
from .auth import RefereeGate
from .hub import Hub

__all__ = ["WebServer", "parse_address", "start_web_server"]


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

    def __init__(self, app, host: str = "127.0.0.1", port: int = 0):
        import uvicorn
        self.config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False,
                                     lifespan="on", timeout_graceful_shutdown=1, ws="none")
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
        return f"http://{host}:{self.port}/"

    def stop(self, timeout: float = 5.0) -> None:
        if self.hub is not None:
            self.hub.close()
        self.server.should_exit = True
        if self.thread.is_alive():
            self.thread.join(timeout)


def start_web_server(service, *, host: str = "127.0.0.1", port: int = 0, pin_hash: str | None = None,
                     names: dict | None = None, spectator_delay: float = 0.0, clock=None) -> WebServer:
    """Serve ``service``'s table at ``host:port`` (0: any free port) in a background thread."""
    hub = Hub(service, names=names, spectator_delay=spectator_delay)
    gate = None
    if pin_hash is not None:
        gate = RefereeGate(pin_hash, clock=clock) if clock is not None else RefereeGate(pin_hash)
    server = WebServer(create_app(hub, gate), host, port)
    server.hub = hub
    return server.start()
