"""The table's web pages, served by the table's own process: the public table (``/``, ``/api/table``,
``/events``) and the referee's console (``/referee``, ``/api/referee``), an ASGI app on Starlette run
by uvicorn in a background thread (``docs/table.md`` §9, ``docs/referee.md``).

==============  ====================================================================================
``state.py``    :func:`public_state` — the one function the public page, ``/api/table`` and the
                public stream are built from (public information only); the referee's state
``hub.py``      the service's listener: every logged outcome becomes the state the streams send
``auth.py``     the referee's PIN: its file and salted scrypt hash, the lockout per address, the
                sessions and their anti-forgery tokens, the wrong-PIN summaries
``guard.py``    the guards against the room (``docs/security.md``): body limits, Origin check,
                security headers (a middleware); content types; who is let in (shared with the club)
``actions.py``  the referee's actions: bodies checked, then one call on the service
``app.py``      the routes (Starlette)
``server.py``   uvicorn in a thread: :func:`start_web_server`; header timeout, connection cap, TLS
``static/``     the pages: plain HTML, CSS and JavaScript (no build step)
==============  ====================================================================================

Starlette and uvicorn are the ``web`` extra; nothing here is imported unless ``--web`` is given.
"""
