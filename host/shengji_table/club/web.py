"""The club pages: an ASGI app on Starlette, served by uvicorn in a thread (the table face's stack,
``face/web/server.py``'s :class:`~shengji_table.face.web.server.WebServer`).

==================================  ================================================================
``GET /``                           the live overview of every table (public state only)
``GET /api/overview``               the same as JSON
``GET /standings``                  standings across sessions and per session, live
``GET /api/standings``              the same as JSON (``?scoring=levels|duplicate``: another scoring
                                    than the server's, ``club serve --scoring``)
``GET /events``                     server-sent events: ``standings`` (the standings JSON) and
                                    ``overview`` on every change
``GET /tables/<T>/sheet``           table T's score sheet, hand by hand (a print stylesheet)
``GET /round``                      the rounds' movement and table cards (printable)
``GET /organiser``                  the organiser's page (a PIN login form without a session)
``POST /organiser/login``           the PIN: a session cookie (HttpOnly, SameSite=Strict)
``POST /api/organiser/<action>``    ``start-round``, ``correct``, ``withdraw`` (``club/organiser.py``)
==================================  ================================================================

Everything but the organiser's routes is public and read-only.  The organiser's PIN is the
referee's mechanism and guards (``face/web/auth.py``, ``face/web/guard.py``: the scrypt PIN file,
five wrong PINs lock the client's address for 60 s, the anti-forgery token and the Origin check,
bodies of at most 256 KiB, ``application/json`` only): 401 without it, 429 while locked, 403 from
another origin or without the token, 400 with the reason for a malformed action.  Every action
tried with the PIN, the refused ones too, is an ``organiser`` row; a login once per session; wrong
PINs one summary row per address a minute (``docs/security.md``).
"""
from __future__ import annotations

import asyncio
import contextlib
import json
from importlib import resources

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..face.web.auth import RefereeGate
from ..face.web.guard import Door, Guard, Refused, address, read_json
from ..face.web.server import WebServer
from .organiser import OrganiserError, apply_action
from .server import ClubServer
from .standings import SCORINGS
from .views import overview, round_html, sheet_html, standings_json

__all__ = ["create_club_app", "start_club_web", "COOKIE"]

COOKIE = "shengji_organiser"
HEARTBEAT_S = 15.0
MAX_BODY = 256 * 1024     # the organiser's actions (a round's seating is the largest)
PRIVATE = ("/organiser", "/api/organiser")       # answered Cache-Control: no-store
REFRESH_S = 0.1      # the pages are recomputed at most ten times a second, however fast rows arrive
_STATIC = resources.files(__package__) / "static"


class _Sub:
    def __init__(self):
        self.wake = asyncio.Event()
        self.latest: list = []


class ClubHub:
    """Every change of the club database becomes the payloads the streams send; at most one
    recomputation in flight, so a burst of rows costs one standings query, not one per row."""

    def __init__(self, server: ClubServer, score=None, scoring: str = "levels"):
        self.server = server
        self.score = score
        self.scoring = scoring
        self.subs: set = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.dirty: asyncio.Event | None = None
        self.closed = False
        self.version = 0
        server.add_listener(self.changed)

    def changed(self, _table: str = "") -> None:
        loop, dirty = self.loop, self.dirty
        if loop is not None and dirty is not None and not loop.is_closed():
            loop.call_soon_threadsafe(dirty.set)

    def payloads(self) -> list:
        with self.server.lock:
            return [("standings", json.dumps(standings_json(self.server, self.score, self.scoring),
                                               ensure_ascii=False)),
                    ("overview", json.dumps(overview(self.server), ensure_ascii=False))]

    async def pump(self) -> None:
        assert self.dirty is not None
        while not self.closed:
            await self.dirty.wait()
            self.dirty.clear()
            latest = await asyncio.to_thread(self.payloads)
            self.version += 1
            for sub in list(self.subs):
                sub.latest = latest
                sub.wake.set()
            await asyncio.sleep(REFRESH_S)

    def close(self) -> None:
        """End every stream (the server is stopping): called from any thread."""
        self.closed = True
        loop = self.loop
        if loop is not None and not loop.is_closed():
            for sub in list(self.subs):
                loop.call_soon_threadsafe(sub.wake.set)

    def stream(self) -> StreamingResponse:
        async def body():
            sub = _Sub()
            sub.latest = await asyncio.to_thread(self.payloads)
            sub.wake.set()
            self.subs.add(sub)
            try:
                while not self.closed:
                    try:
                        await asyncio.wait_for(sub.wake.wait(), HEARTBEAT_S)
                    except TimeoutError:
                        yield ": heartbeat\n\n"
                        continue
                    sub.wake.clear()
                    if self.closed:
                        break
                    for event, data in sub.latest:
                        yield f"event: {event}\ndata: {data}\n\n"
            finally:
                self.subs.discard(sub)
        return StreamingResponse(body(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def _error(status: int, reason: str, headers: dict | None = None) -> JSONResponse:
    return JSONResponse({"error": reason}, status_code=status, headers=headers)


def _static(name: str, message: str = "") -> str:
    return (_STATIC / name).read_text(encoding="utf-8").replace("{{message}}", message)


class Organiser:
    """Who may act (a :class:`~shengji_table.face.web.guard.Door`), and the actions."""

    def __init__(self, server: ClubServer, gate: RefereeGate | None, secure: bool = False):
        self.server, self.gate = server, gate
        self.door = Door(gate, user="organiser", cookie=COOKIE, note=self._note, secure=secure,
                         login_page=lambda message: _static("organiser-login.html", message),
                         off="the organiser's actions are off: start the club with --organiser-pin-file FILE")

    def _note(self, action: str, accepted: bool, by: str, fields: dict) -> None:
        with self.server.lock, self.server.db.tx():
            self.server.db.note_organiser(action, accepted, by, fields)

    async def page(self, request: Request) -> Response:
        refusal = await asyncio.to_thread(self.door.refused, request, False)
        return refusal or HTMLResponse(_static("organiser.html").replace("{{csrf}}", self.door.csrf(request)))

    async def login(self, request: Request) -> Response:
        return await self.door.login(request, "/organiser")

    async def act(self, request: Request) -> Response:
        refusal = await asyncio.to_thread(self.door.refused, request, True)
        if refusal is not None:
            return refusal
        action = request.path_params["action"]
        by = f"organiser@{address(request)}"
        try:
            body = await read_json(request)
        except Refused as exc:
            await asyncio.to_thread(self._note, action[:40], False, by, {"why": exc.reason})
            return exc.response()

        def run():
            with self.server.lock:
                return apply_action(self.server.db, action, body, by)
        try:
            done = await asyncio.to_thread(run)
        except OrganiserError as exc:
            return _error(400, str(exc))
        self.server.changed("")
        return JSONResponse({"ok": True, "action": action, "done": done})


def create_club_app(server: ClubServer, gate: RefereeGate | None = None, score=None,
                    hub: ClubHub | None = None, scoring: str = "levels", secure: bool = False) -> Starlette:
    hub = hub or ClubHub(server, score, scoring)
    org = Organiser(server, gate, secure)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        hub.loop, hub.dirty = asyncio.get_running_loop(), asyncio.Event()
        task = asyncio.create_task(hub.pump())
        flusher = asyncio.create_task(org.door.flusher())
        yield
        hub.closed = True
        task.cancel()
        flusher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await flusher

    def locked(fn):
        async def handler(request: Request) -> Response:
            def read():
                with server.lock:
                    return fn(request)
            return await asyncio.to_thread(read)
        return handler

    def sheet(request: Request) -> Response:
        text = sheet_html(server, request.path_params["table"])
        return HTMLResponse(text) if text is not None else _error(404, "no such table")

    def api_standings(request: Request) -> Response:
        name = request.query_params.get("scoring", hub.scoring)
        if name not in SCORINGS:
            return _error(400, f"the scoring is {' or '.join(SCORINGS)}, not {name!r}")
        return JSONResponse(standings_json(server, score if name == hub.scoring else None, name))

    async def events(request: Request) -> Response:
        return hub.stream()

    return Starlette(routes=[
        Route("/", lambda r: HTMLResponse(_static("overview.html"))),
        Route("/standings", lambda r: HTMLResponse(_static("standings.html"))),
        Route("/api/overview", locked(lambda r: JSONResponse(overview(server)))),
        Route("/api/standings", locked(api_standings)),
        Route("/events", events),
        Route("/tables/{table}/sheet", locked(sheet)),
        Route("/round", locked(lambda r: HTMLResponse(round_html(server)))),
        Route("/organiser", org.page),
        Route("/organiser/login", org.login, methods=["POST"]),
        Route("/api/organiser/{action}", org.act, methods=["POST"]),
        Mount("/static", StaticFiles(directory=str(_STATIC)), name="static"),
    ], lifespan=lifespan, middleware=[Middleware(Guard, max_body=MAX_BODY, private=PRIVATE)])


def start_club_web(server: ClubServer, host: str = "127.0.0.1", port: int = 0, pin_hash: str | None = None,
                   score=None, scoring: str = "levels", tls: tuple | None = None) -> WebServer:
    """Serve the club pages at ``host:port`` (0: any free port) in a background thread; the
    standings scored by ``scoring`` (levels or duplicate) unless ``score`` is given; over HTTPS
    with ``tls=(CERT, KEY)``."""
    gate = RefereeGate(pin_hash) if pin_hash is not None else None
    hub = ClubHub(server, score, scoring)
    web = WebServer(create_club_app(server, gate, score, hub, scoring, secure=tls is not None), host, port, tls)
    web.hub = hub            # type: ignore[assignment]  # WebServer.stop closes the streams first
    return web.start()
