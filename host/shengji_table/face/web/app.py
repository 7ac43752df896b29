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
console is locked after five wrong PINs, 400 with a reason for a malformed body or an unknown
action, 409 with the game's reason for an action it refuses now; no refusal changes anything.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import urllib.parse
from importlib import resources

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .actions import ActionError, parse_action
from .auth import RefereeGate, basic_credentials
from .hub import Hub
from .state import referee_state

__all__ = ["create_app", "COOKIE"]

COOKIE = "shengji_referee"
HEARTBEAT_S = 15.0
_STATIC = resources.files(__package__) / "static"


def _page(name: str, **subst) -> str:
    text = (_STATIC / name).read_text(encoding="utf-8")
    for key, value in subst.items():
        text = text.replace("{{" + key + "}}", value)
    return text


def _client(request: Request) -> str:
    return request.client.host if request.client is not None else "?"


class Console:
    """The referee's side: who is let in, and what an action does."""

    def __init__(self, hub: Hub, gate: RefereeGate | None):
        self.hub = hub
        self.service = hub.service
        self.gate = gate

    def refused(self, request: Request, api: bool) -> Response | None:
        """None when the request carries the referee's session or PIN; else the refusal."""
        if self.gate is None:
            return _error(403, "the referee's console is off: start the table with --referee-pin-file FILE")
        if self.gate.session_ok(request.cookies.get(COOKIE)):
            return None
        try:
            basic = basic_credentials(request.headers.get("authorization", ""))
        except ValueError as exc:
            return _error(400, str(exc))
        if basic is not None:
            user, pin = basic
            if user != "referee":
                return _challenge("the user is 'referee'")
            return self.try_pin(pin, request, "basic")
        if api:
            return _challenge("the referee's PIN is needed (HTTP Basic, user 'referee', or log in at /referee)")
        return HTMLResponse(_page("login.html", message=""), status_code=401)

    def try_pin(self, pin: str, request: Request, how: str) -> Response | None:
        assert self.gate is not None
        verdict = self.gate.check(pin)
        if verdict == "ok":
            return None
        if verdict == "locked":
            wait = int(self.gate.locked_for() + 0.999)
            self.service.note_referee("login", False, f"{how}@{_client(request)}", why="locked")
            return _error(429, f"five wrong PINs: the console is locked for {wait} s",
                          headers={"Retry-After": str(wait)})
        self.service.note_referee("login", False, f"{how}@{_client(request)}", why="wrong PIN")
        if self.gate.locked_for() > 0:
            return _error(429, f"wrong PIN; five wrong PINs lock the console for {int(self.gate.lock_s)} s",
                          headers={"Retry-After": str(int(self.gate.lock_s))})
        return _challenge("wrong PIN") if how == "basic" else _error(401, "wrong PIN")

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


def _challenge(reason: str) -> JSONResponse:
    return _error(401, reason, headers={"WWW-Authenticate": 'Basic realm="referee", charset="UTF-8"'})


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

    def referee_page(self, request: Request) -> Response:
        return self.refused(request, api=False) or HTMLResponse(_page("referee.html"))

    async def login(self, request: Request) -> Response:
        gate = self.gate
        if gate is None:
            return _error(403, "the referee's console is off: start the table with --referee-pin-file FILE")
        form = urllib.parse.parse_qs((await request.body()).decode("utf-8", "replace"))
        pin = (form.get("pin") or [""])[0]
        refusal = await asyncio.to_thread(self.try_pin, pin, request, "form")
        if refusal is not None:
            why = json.loads(bytes(refusal.body)).get("error", "refused")
            return HTMLResponse(_page("login.html", message=_html_escape(why)), status_code=refusal.status_code)
        self.service.note_referee("login", True, f"form@{_client(request)}")
        resp = RedirectResponse("/referee", status_code=303)
        resp.set_cookie(COOKIE, gate.open_session(), httponly=True, samesite="strict", path="/")
        return resp

    def logout(self, request: Request) -> Response:
        if self.gate is not None:
            self.gate.close_session(request.cookies.get(COOKIE))
        resp = RedirectResponse("/referee", status_code=303)
        resp.delete_cookie(COOKIE, path="/")
        return resp

    def api_referee(self, request: Request) -> Response:
        refusal = self.refused(request, api=True)
        if refusal is not None:
            return refusal
        with self.service.lock:
            return JSONResponse(referee_state(self.service, self.hub.names, list(self.hub.announcements)))

    async def api_action(self, request: Request) -> Response:
        refusal = await asyncio.to_thread(self.refused, request, True)
        if refusal is not None:
            return refusal
        raw = await request.body()
        try:
            body = json.loads(raw.decode("utf-8")) if raw.strip() else {}
        except (UnicodeDecodeError, ValueError) as exc:
            return _error(400, f"the body is not JSON: {exc}")
        by_session = self.gate is not None and self.gate.session_ok(request.cookies.get(COOKIE))
        by = f"{'session' if by_session else 'basic'}@{_client(request)}"
        return await asyncio.to_thread(self.act, request.path_params["action"], body, by)

    async def referee_events(self, request: Request) -> Response:
        refusal = await asyncio.to_thread(self.refused, request, True)
        return refusal or _stream(self.hub, "referee", "changed")


def create_app(hub: Hub, gate: RefereeGate | None = None) -> Starlette:
    """The app for one table's :class:`Hub` (and its service); ``gate``: the referee's PIN (None:
    the console is off)."""
    pages = Pages(hub, gate)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        hub.attach(asyncio.get_running_loop())
        yield
        hub.close()

    return Starlette(routes=[
        Route("/", pages.index), Route("/api/table", pages.api_table), Route("/events", pages.events),
        Route("/referee", pages.referee_page), Route("/referee/login", pages.login, methods=["POST"]),
        Route("/referee/logout", pages.logout, methods=["POST"]),
        Route("/api/referee", pages.api_referee),
        Route("/api/referee/{action}", pages.api_action, methods=["POST"]),
        Route("/referee/events", pages.referee_events),
        Mount("/static", StaticFiles(directory=str(_STATIC)), name="static"),
    ], lifespan=lifespan)


def _html_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
