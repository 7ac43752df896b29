"""The web pages as an ASGI app (Starlette): the public table and the referee's console.

==============================  ==================================================================
``GET /``                       the public table page (``static/table.html``)
``GET /api/table``              the public state (:func:`~.state.public_state`)
``GET /events``                 the public state as server-sent events, on every change
``GET /referee``                the referee's console (a login form without a session)
``POST /referee/login``         the PIN from the form: a session cookie (HttpOnly, SameSite=Strict)
``POST /referee/logout``        ends the session
``GET /api/referee``            hands, kitty, rulings, the event log (PIN)
``POST /api/referee/<action>``  ``undo``, ``penalty``, ``end-hand``, ``adjust``, ``pause``, ``resume`` (PIN)
``GET /referee/events``         a ping on every change, for the console to fetch again (PIN)
==============================  ==================================================================

Answers: 401 without the PIN (HTTP Basic, user ``referee``, or the session cookie), 429 while the
client's address is locked after five wrong PINs, 403 for a state-changing request from another
origin or a session's request without its anti-forgery token (``X-CSRF-Token``), 413 for a body
over 16 KiB, 415 for a body in another content type than the route takes, 400 with a reason for a
malformed body or an unknown action, 409 with the game's reason for an action it refuses now; no
refusal changes anything.  The guards are ``guard.py``'s (``docs/security.md``).
"""
from __future__ import annotations

import asyncio
import contextlib
from importlib import resources

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .actions import ActionError, parse_action
from .auth import RefereeGate
from .guard import Door, Guard, Refused, read_json
from .hub import Hub
from .state import referee_state

__all__ = ["create_app", "COOKIE"]

COOKIE = "shengji_referee"
HEARTBEAT_S = 15.0
PRIVATE = ("/referee", "/api/referee")          # answered Cache-Control: no-store
_STATIC = resources.files(__package__) / "static"


def _page(name: str, **subst) -> str:
    text = (_STATIC / name).read_text(encoding="utf-8")
    for key, value in subst.items():
        text = text.replace("{{" + key + "}}", value)
    return text


class Console:
    """The referee's side: who is let in (a :class:`~.guard.Door`), and what an action does."""

    def __init__(self, hub: Hub, gate: RefereeGate | None, secure: bool = False):
        self.hub = hub
        self.service = hub.service
        self.gate = gate
        self.door = Door(gate, user="referee", cookie=COOKIE, note=self._note, secure=secure,
                         login_page=lambda message: _page("login.html", message=message),
                         off="the referee's console is off: start the table with --referee-pin-file FILE")

    def _note(self, action: str, accepted: bool, by: str, fields: dict) -> None:
        self.service.note_referee(action, accepted, by, **fields)

    def act(self, action: str, body, by: str) -> Response:
        svc = self.service
        try:
            call = parse_action(action, body, svc)
        except ActionError as exc:
            svc.note_referee(action[:40], False, by, why=str(exc))
            return _error(400, str(exc))
        out = call(by)
        if out.refusals:
            r = out.refusals[0]
            return JSONResponse({"error": r.reason, "rule": r.rule, "action": action}, status_code=409)
        return JSONResponse({"ok": True, "action": action, "texts": list(out.texts)})


def _error(status: int, reason: str, headers: dict | None = None) -> JSONResponse:
    return JSONResponse({"error": reason}, status_code=status, headers=headers)


def _stream(hub: Hub, audience: str, event: str) -> StreamingResponse:
    async def body():
        sub = hub.subscribe(audience)
        try:
            while not sub.closed and not hub.closed:
                try:
                    await asyncio.wait_for(sub.wake.wait(), HEARTBEAT_S)
                except TimeoutError:
                    yield ": heartbeat\n\n"
                    continue
                sub.wake.clear()
                if sub.closed:
                    break
                yield f"event: {event}\ndata: {sub.latest}\n\n"
        finally:
            hub.unsubscribe(sub)
    return StreamingResponse(body(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


class Pages(Console):
    """The routes' handlers."""

    def index(self, request: Request) -> Response:
        return HTMLResponse(_page("table.html"))

    def api_table(self, request: Request) -> Response:
        if self.hub.delay:
            return Response(self.hub.public_text(), media_type="application/json")
        with self.service.lock:
            return JSONResponse(self.hub.state())

    async def events(self, request: Request) -> Response:
        return _stream(self.hub, "public", "state")

    async def referee_page(self, request: Request) -> Response:
        refusal = await asyncio.to_thread(self.door.refused, request, False)
        return refusal or HTMLResponse(_page("referee.html", csrf=self.door.csrf(request)))

    async def login(self, request: Request) -> Response:
        return await self.door.login(request, "/referee")

    async def logout(self, request: Request) -> Response:
        return await self.door.logout(request, "/referee")

    async def api_referee(self, request: Request) -> Response:
        refusal = await asyncio.to_thread(self.door.refused, request, True)
        if refusal is not None:
            return refusal
        await asyncio.to_thread(self.door.note_once, request, "read")

        def read():
            with self.service.lock:
                return referee_state(self.service, self.hub.names, list(self.hub.announcements))
        state = await asyncio.to_thread(read)
        state["csrf"] = self.door.csrf(request)
        return JSONResponse(state)

    async def api_action(self, request: Request) -> Response:
        refusal = await asyncio.to_thread(self.door.refused, request, True)
        if refusal is not None:
            return refusal
        try:
            body = await read_json(request)
        except Refused as exc:
            return exc.response()
        return await asyncio.to_thread(self.act, request.path_params["action"], body, self.door.who(request))

    async def referee_events(self, request: Request) -> Response:
        refusal = await asyncio.to_thread(self.door.refused, request, True)
        return refusal or _stream(self.hub, "referee", "changed")


def create_app(hub: Hub, gate: RefereeGate | None = None, *, secure: bool = False) -> Starlette:
    """The app for one table's :class:`Hub` (and its service); ``gate``: the referee's PIN (None:
    the console is off); ``secure``: served over TLS (the session cookie is then ``Secure``)."""
    pages = Pages(hub, gate, secure)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        hub.attach(asyncio.get_running_loop())
        flusher = asyncio.create_task(pages.door.flusher())
        yield
        flusher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await flusher
        hub.close()

    return Starlette(routes=[
        Route("/", pages.index), Route("/api/table", pages.api_table), Route("/events", pages.events),
        Route("/referee", pages.referee_page), Route("/referee/login", pages.login, methods=["POST"]),
        Route("/referee/logout", pages.logout, methods=["POST"]),
        Route("/api/referee", pages.api_referee),
        Route("/api/referee/{action}", pages.api_action, methods=["POST"]),
        Route("/referee/events", pages.referee_events),
        Mount("/static", StaticFiles(directory=str(_STATIC)), name="static"),
    ], lifespan=lifespan, middleware=[Middleware(Guard, private=PRIVATE)])
