"""The body limit (``face/web/guard.py``) for every way a body can arrive (hypothesis): driven
through the ASGI interface as uvicorn drives it, in chunks of any sizes, announced or not, a body
within the limit reaches the route whole, and one over it is refused with 413 having pulled at
most the limit plus one chunk — never the whole body."""
import asyncio

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("starlette")
from starlette.applications import Starlette  # noqa: E402
from starlette.middleware import Middleware  # noqa: E402
from starlette.responses import PlainTextResponse  # noqa: E402
from starlette.routing import Route  # noqa: E402

from shengji_table.face.web.guard import Guard  # noqa: E402

LIMIT = 4096


async def _length(request):
    return PlainTextResponse(str(len(await request.body())))


APP = Starlette(routes=[Route("/", _length, methods=["POST"])], middleware=[Middleware(Guard, max_body=LIMIT)])


def _post(chunks: list, announce: bool) -> tuple:
    """``(status, body, bytes pulled from the client)``."""
    total = sum(chunks)
    headers = [(b"host", b"t"), (b"content-type", b"application/octet-stream")]
    if announce:
        headers.append((b"content-length", str(total).encode()))
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": "/", "raw_path": b"/", "query_string": b"", "headers": headers, "client": ("10.0.0.9", 1),
             "server": ("t", 80), "root_path": ""}
    pending = list(chunks)
    pulled, sent = [0], []

    async def receive():
        if not pending:
            return {"type": "http.disconnect"}
        n = pending.pop(0)
        pulled[0] += n
        return {"type": "http.request", "body": b"x" * n, "more_body": bool(pending)}

    async def send(message):
        sent.append(message)

    asyncio.run(APP(scope, receive, send))
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return status, body, pulled[0]


@given(st.lists(st.integers(min_value=0, max_value=3000), min_size=1, max_size=12), st.booleans())
def test_a_body_within_the_limit_is_read_whole_and_one_over_it_is_refused_early(chunks, announce):
    status, body, pulled = _post(chunks, announce)
    total = sum(chunks)
    if total <= LIMIT:
        assert status == 200 and body == str(total).encode()
    else:
        assert status == 413 and b"bytes" in body
        assert pulled <= LIMIT + max(chunks) and (not announce or pulled == 0)
