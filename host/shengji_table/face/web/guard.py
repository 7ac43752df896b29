"""The web pages' guards against the room (``docs/security.md``), shared by the table's pages
(``app.py``) and the club's (``club/web.py``):

* :class:`Guard`, an ASGI middleware: a request body over the limit is refused with 413 before
  anything reads it (by its ``Content-Length``, or while it streams in, never held whole); a body
  that stalls is refused with 408; a state-changing request (POST…) whose ``Origin`` (or
  ``Referer``) is not the server's own, or that a browser marks cross-site, is refused with 403;
  every answer carries a Content-Security-Policy, ``frame-ancestors 'none'``/``X-Frame-Options``
  and ``nosniff``, and the private paths ``Cache-Control: no-store``.
* :func:`read_json`, :func:`read_form`: a body is parsed only in the one content type expected.
* :class:`Door`: who is let in (the session cookie, or HTTP Basic with the PIN) through a
  :class:`~.auth.RefereeGate`; a session's state-changing requests need its anti-forgery token;
  logins and the first read of the hands are noted once per session, wrong PINs only as the
  gate's summaries (one row per address per window).
"""
from __future__ import annotations

import asyncio
import ipaddress
import json
import urllib.parse
from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from .auth import RefereeGate, basic_credentials

__all__ = ["Guard", "Refused", "read_json", "read_form", "Door", "CSP", "MAX_BODY", "CSRF_HEADER"]

MAX_BODY = 16 * 1024          # the table's bodies: a PIN, a referee's action
BODY_TIMEOUT_S = 10.0         # a body that does not arrive within this is refused (408)
FLUSH_S = 10.0                # how often the wrong-PIN summaries are looked at
CSRF_HEADER = "x-csrf-token"
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
_HEADERS = [(b"content-security-policy", CSP.encode()), (b"x-frame-options", b"DENY"),
            (b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"same-origin")]
_SAFE = {"GET", "HEAD", "OPTIONS"}


class Refused(Exception):
    """A request refused before it reached its handler's work: the status and the reason."""

    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status, self.reason = status, reason

    def response(self) -> JSONResponse:
        return JSONResponse({"error": self.reason}, status_code=self.status)


class _Stop(Exception):
    def __init__(self, refused: Refused):
        self.refused = refused


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers") or ():
        if key == name:
            return value.decode("latin-1")
    return None


def _origin_problem(scope) -> str | None:
    """Why a state-changing request does not come from the server's own pages (None: it may)."""
    site = _header(scope, b"sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return f"a {site} request: only the server's own pages may change anything"
    origin = _header(scope, b"origin")
    if origin is None:
        referer = _header(scope, b"referer")
        if referer is None:
            return None                   # not a browser's: a script (it still needs the PIN)
        parts = urllib.parse.urlsplit(referer)
        origin = f"{parts.scheme}://{parts.netloc}"
    host = _header(scope, b"host")
    if host is None or origin != f"{scope.get('scheme', 'http')}://{host}":
        return f"the request comes from {origin}, not from this server's pages"
    return None


class Guard:
    """The ASGI middleware (module docstring); ``private``: path prefixes answered ``no-store``."""

    def __init__(self, app, max_body: int = MAX_BODY, private: tuple = (), body_timeout: float = BODY_TIMEOUT_S):
        self.app, self.max_body, self.private, self.body_timeout = app, max_body, private, body_timeout
        self.refused = {413: 0, 408: 0, 403: 0}          # counts, for the attack suite's figures

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        extra = list(_HEADERS)
        if any(path == p or path.startswith(p + "/") for p in self.private):
            extra.append((b"cache-control", b"no-store"))
        started = False

        async def send_(message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                have = {k.lower() for k, _ in message.get("headers", ())}
                message = {**message, "headers": list(message.get("headers", ()))
                           + [(k, v) for k, v in extra if k not in have]}
            await send(message)

        try:
            self._check_head(scope)
            await self.app(scope, self._receiver(receive), send_)
        except (_Stop, Refused) as exc:
            refused = exc.refused if isinstance(exc, _Stop) else exc
            self.refused[refused.status] = self.refused.get(refused.status, 0) + 1
            if not started:
                await refused.response()(scope, receive, send_)

    def _check_head(self, scope) -> None:
        length = _header(scope, b"content-length")
        if length is not None:
            if not length.isdigit():
                raise Refused(400, "a Content-Length that is not a number")
            if int(length) > self.max_body:
                raise Refused(413, f"the body is {int(length)} bytes; at most {self.max_body} are taken here")
        if scope["method"] not in _SAFE:
            problem = _origin_problem(scope)
            if problem:
                raise Refused(403, problem)

    def _receiver(self, receive):
        got, done = 0, False

        async def receive_():
            nonlocal got, done
            if done:
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), self.body_timeout)
            except TimeoutError:
                raise _Stop(Refused(408, f"the body did not arrive within {self.body_timeout:g} s")) from None
            if message["type"] == "http.request":
                got += len(message.get("body", b""))
                done = not message.get("more_body", False)
                if got > self.max_body:
                    raise _Stop(Refused(413, f"the body is over {self.max_body} bytes; at most that is taken here"))
            else:
                done = True
            return message
        return receive_


def _content_type(request: Request) -> str:
    return request.headers.get("content-type", "").split(";")[0].strip().lower()


async def read_json(request: Request):
    """The body as JSON (empty: ``{}``), sent as ``application/json`` and nothing else."""
    if _content_type(request) != "application/json":
        raise Refused(415, "send the body as application/json")
    raw = await request.body()
    try:
        return json.loads(raw.decode("utf-8")) if raw.strip() else {}
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise Refused(400, f"the body is not JSON: {str(exc)[:200] or 'nested too deeply'}") from None


async def read_form(request: Request) -> dict:
    """The body as an HTML form (``application/x-www-form-urlencoded``): ``{name: first value}``."""
    if _content_type(request) != "application/x-www-form-urlencoded":
        raise Refused(415, "send the form as application/x-www-form-urlencoded")
    try:
        form = urllib.parse.parse_qs((await request.body()).decode("utf-8", "replace"), max_num_fields=8)
    except ValueError as exc:
        raise Refused(400, f"a malformed form: {exc}") from None
    return {k: v[0] for k, v in form.items()}


def address(request: Request) -> str:
    return request.client.host if request.client is not None else "?"


def throttled(host: str) -> str:
    """What the lockout counts by: the IPv4 address, or an IPv6 address's /64 (one machine can hold
    a whole /64)."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if ip.version == 6 and ip.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip.ipv4_mapped or ip) if ip.version == 6 else host


class Door:
    """Who is let in through ``gate`` (None: the door is shut, every request 403 ``off``).

    ``note(action, accepted, by, fields)`` writes one row of the record (the referee's meta row,
    the club's organiser row); ``login_page(message)`` is the form's HTML."""

    def __init__(self, gate: RefereeGate | None, *, user: str, cookie: str, note: Callable,
                 login_page: Callable[[str], str], off: str, secure: bool = False):
        self.gate, self.user, self.cookie, self.note = gate, user, cookie, note
        self.login_page, self.off, self.secure = login_page, off, secure

    def _challenge(self, reason: str, status: int = 401) -> JSONResponse:
        return JSONResponse({"error": reason}, status_code=status,
                            headers={"WWW-Authenticate": f'Basic realm="{self.user}", charset="UTF-8"'})

    def refused(self, request: Request, api: bool) -> Response | None:
        """None when the request carries a session (and, to change anything, its anti-forgery
        token) or the PIN; else the refusal.  Compares a PIN (scrypt): call it in a thread."""
        if self.gate is None:
            return Refused(403, self.off).response()
        token = request.cookies.get(self.cookie)
        if self.gate.session_ok(token):
            if request.method not in _SAFE and not self.gate.csrf_ok(token, request.headers.get(CSRF_HEADER)):
                return Refused(403, f"the anti-forgery token is missing or wrong (the {CSRF_HEADER} header): "
                                    f"reload the page").response()
            return None
        try:
            basic = basic_credentials(request.headers.get("authorization", ""))
        except ValueError as exc:
            return Refused(400, str(exc)).response()
        if basic is not None:
            user, pin = basic
            if user != self.user:
                return self._challenge(f"the user is '{self.user}'")
            refusal = self.try_pin(pin, request, "basic")
            if refusal is None and self.gate.once("login", "basic", address(request)):
                self.note("login", True, f"basic@{address(request)}", {})
            return refusal
        if api:
            return self._challenge(f"the {self.user}'s PIN is needed (HTTP Basic, user '{self.user}', or log in "
                                   f"with the form)")
        return HTMLResponse(self.login_page(""), status_code=401)

    def try_pin(self, pin: str, request: Request, how: str) -> Response | None:
        assert self.gate is not None
        where = throttled(address(request))
        self.flush()                      # the summaries due before this attempt
        verdict = self.gate.check(pin, where, how)
        if verdict == "ok":
            return None
        wait = int(self.gate.locked_for(where) + 0.999)
        if wait > 0:
            said = "wrong PIN; " if verdict == "wrong" else ""
            return JSONResponse({"error": f"{said}too many wrong PINs from {where}: this address is locked for "
                                          f"{wait} s (open sessions and other addresses are not)"},
                                status_code=429, headers={"Retry-After": str(wait)})
        return self._challenge("wrong PIN") if how == "basic" else Refused(401, "wrong PIN").response()

    def flush(self, force: bool = False) -> int:
        """Write the gate's wrong-PIN summaries that are due (all with ``force``); how many."""
        if self.gate is None:
            return 0
        rows = self.gate.summaries(force)
        for s in rows:
            self.note("login", False, s.pop("address"), {"why": "wrong PINs", **s})
        return len(rows)

    async def flusher(self) -> None:
        """Write the summaries as they fall due, until cancelled (then the rest)."""
        try:
            while True:
                await asyncio.sleep(FLUSH_S)
                await asyncio.to_thread(self.flush)
        finally:
            await asyncio.to_thread(self.flush, True)

    def who(self, request: Request) -> str:
        by_session = self.gate is not None and self.gate.session_ok(request.cookies.get(self.cookie))
        return f"{'session' if by_session else 'basic'}@{address(request)}"

    def note_once(self, request: Request, action: str) -> None:
        """Note ``action`` (e.g. the first read of the hands) once per session, or per address for
        HTTP Basic."""
        assert self.gate is not None
        token = request.cookies.get(self.cookie)
        key = ("session", token) if self.gate.session_ok(token) else ("basic", address(request))
        if self.gate.once(action, *key):
            self.note(action, True, self.who(request), {})

    def csrf(self, request: Request) -> str:
        """The anti-forgery token of the request's session ("" without one)."""
        return (self.gate.csrf_token(request.cookies.get(self.cookie)) if self.gate else None) or ""

    async def login(self, request: Request, then: str) -> Response:
        if self.gate is None:
            return Refused(403, self.off).response()
        try:
            form = await read_form(request)
        except Refused as exc:
            return HTMLResponse(self.login_page(_html_escape(exc.reason)), status_code=exc.status)
        refusal = await asyncio.to_thread(self.try_pin, form.get("pin", ""), request, "form")
        if refusal is not None:
            why = json.loads(bytes(refusal.body)).get("error", "refused")
            return HTMLResponse(self.login_page(_html_escape(why)), status_code=refusal.status_code,
                                headers={k: v for k, v in refusal.headers.items() if k == "retry-after"})
        await asyncio.to_thread(self.note, "login", True, f"form@{address(request)}", {})
        resp = RedirectResponse(then, status_code=303)
        resp.set_cookie(self.cookie, self.gate.open_session(), httponly=True, samesite="strict", path="/",
                        secure=self.secure)
        return resp

    async def logout(self, request: Request, then: str) -> Response:
        token = request.cookies.get(self.cookie)
        if self.gate is not None and self.gate.session_ok(token):
            try:
                form = await read_form(request)
            except Refused as exc:
                return exc.response()
            if not self.gate.csrf_ok(token, form.get("csrf") or request.headers.get(CSRF_HEADER)):
                return Refused(403, "the anti-forgery token is missing or wrong: reload the page").response()
            self.gate.close_session(token)
        resp = RedirectResponse(then, status_code=303)
        resp.delete_cookie(self.cookie, path="/")
        return resp


def _html_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
