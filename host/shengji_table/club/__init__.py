"""The club: many tables reporting over MQTT to one club server, and duplicate Shengji
(``docs/club.md``, ``docs/club-duplicate.md``).

==================  ==============================================================================
``wire.py``         the topics, the event message, the ack, the broker's address
``db.py``           the club database (SQLite) and its numbered migrations
``ingest.py``       one table row at a time into the database, the rules re-run on every hand
``standings.py``    results, standings (with the scoring as a function), score sheets
``organiser.py``    the organiser's actions: start a round, correct a result, withdraw a table
``server.py``       the club server: MQTT subscription → intake → acks
``publisher.py``    a table's side: its log's rows published from the club's last ack
``broker.py``       mosquitto: the password file, the ACL, a local broker
``views.py``        what the pages show (the overview uses the table face's public state)
``web.py``          the club pages (Starlette, uvicorn)
``soft_table.py``   a software table (bots, no firmware) for the tests and the benchmark
``movement.py``     pure: round robin and Swiss movements, table assignment, seating, table cards
``boards.py``       pure: duplicate boards (a fixed deal, dealer, level), their file and checksums
``deck_check.py``   pure: a stacked board's deck checked card by card, refusing a wrong card
``duplicate.py``    pure: a board's results compared across tables, in IMPs
``rounds.py``       the join: a round of a movement seated at the club's tables, with its boards
==================  ==============================================================================

The movement, board and duplicate-scoring modules plug in through the ``boards`` and ``seatings``
tables and the scoring function :func:`.standings.standings` takes (``levels`` or ``duplicate``).  paho-mqtt and
caissify-pairings are the ``club`` extra.
"""
