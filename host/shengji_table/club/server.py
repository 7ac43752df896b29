"""The club server: subscribed to every table's events over MQTT, writing the club database.

paho's network thread only queues what arrives; one intake thread takes the queue in order
(:meth:`ClubServer.handle` → :class:`~.ingest.Ingest`), commits, and only then publishes each
table's ack (retained, QoS 1) — so a position acknowledged is a position stored, and a club killed
at any moment restarts from its database, the tables resending from the ack it last published.
On every (re)connect the club publishes every table's ack again (a restarted broker forgot them).

The web pages (:mod:`.web`) read the same database under :attr:`ClubServer.lock`.

One club server a database: it holds an exclusive lock on the file (``locks.py``) for its whole
run, so a second one on the same database fails at once naming the first, instead of the two
splitting the tables' rows between them.  Its broker client id is its user name and a random part:
with the club's broker config (``broker.py``: ``use_username_as_clientid``) the broker uses the
user name alone, so no table's credentials can take the club's connection over.
"""
from __future__ import annotations

import logging
import queue
import secrets
import threading
from collections.abc import Callable

from .. import locks
from .db import ClubDB, ClubDBError
from .ingest import Ingest, Taken
from .mqtt_client import make_client
from .wire import PREFIX, BrokerURL, WireError, ack_topic, decode_event, encode_ack, table_of

__all__ = ["ClubServer"]

log = logging.getLogger("shengji_table.club")

BURST = 500          # messages taken in one transaction at most


class ClubServer:
    """The club's intake for the database at ``db_path`` from ``broker`` (``broker`` None: no MQTT,
    rows come through :meth:`handle` — the tests)."""

    def __init__(self, db_path, broker: BrokerURL | None, *, username: str | None = None,
                 password: str | None = None):
        self.db = ClubDB(db_path)
        try:
            self._held: int | None = locks.hold(self.db.path)
        except locks.Busy as exc:
            self.db.close()
            raise ClubDBError(f"the club database {self.db.path} is in use by "
                              + (f"process {exc.pid}" if exc.pid is not None else "another program")
                              + ": one club server writes a club database at a time (stop it, or use another "
                                "--db)") from None
        self.lock = threading.RLock()
        self._listeners: list[Callable[[str], None]] = []
        self._touched: set = set()
        self.ingest = Ingest(self.db, on_change=self.changed)
        self.broker = broker
        self.queue: queue.Queue = queue.Queue()
        self.connected = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="club-intake", daemon=True)
        self.client = None
        if broker is not None:
            user = broker.username or username
            self.client = make_client(f"{user or 'club'}-{secrets.token_hex(8)}", broker, user,
                                      broker.password or password, inflight=200)
            self.client.on_connect = self._on_connect
            self.client.on_disconnect = lambda *a: self.connected.clear()
            self.client.on_message = lambda c, u, msg: self.queue.put((msg.topic, msg.payload))

    def add_listener(self, fn: Callable[[str], None]) -> None:
        """``fn(table)`` after a commit that changed what the pages show (called on the intake thread)."""
        self._listeners.append(fn)

    def changed(self, table: str) -> None:
        """``table``'s rows changed (``""``: the organiser's): tell the pages, once a burst commits."""
        if self.db.db.in_transaction:          # inside a burst: tell the pages once it committed
            self._touched.add(table)
            return
        for fn in self._listeners:
            fn(table)

    def _on_connect(self, client, userdata, flags, reason, properties):
        if reason.is_failure:
            log.error("the broker refused the club: %s", reason)
            return
        client.subscribe(f"{PREFIX}/+/events", qos=1)
        with self.lock:
            # a table with no row yet: position 0 of no log (a table takes only its own log's position)
            acks = {t: (self.db.last_seq(t, lid), lid) for t in self.db.tables() for lid in (self.db.latest_log(t),)}
        for table, (seq, lid) in acks.items():
            client.publish(ack_topic(table), encode_ack(seq, lid), qos=1, retain=True)
        self.connected.set()

    def start(self) -> ClubServer:
        self._thread.start()
        if self.client is not None and self.broker is not None:
            self.client.connect_async(self.broker.host, self.broker.port, keepalive=5)
            self.client.loop_start()
        return self

    def handle(self, topic: str, raw: bytes) -> Taken:
        """One message from the broker: refused (malformed, unknown table) or taken."""
        where = table_of(topic)
        if where is None or where[1] != "events":
            return self._refuse(f"a message on {topic!r}, not a table's events topic", raw)
        try:
            msg = decode_event(where[0], raw)
        except WireError as exc:
            return self._refuse(f"a malformed message from table {where[0]!r}: {exc}", raw, where[0])
        with self.lock:
            return self.ingest.take(msg)

    def _refuse(self, reason: str, raw: bytes, table: str | None = None) -> Taken:
        with self.lock:
            return self.ingest.refuse(reason, table=table, message=raw[:500].decode("utf-8", "replace"))

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                first = self.queue.get(timeout=0.2)
            except queue.Empty:
                continue
            burst = [first]
            while len(burst) < BURST:
                try:
                    burst.append(self.queue.get_nowait())
                except queue.Empty:
                    break
            acks = self._take_burst(burst)
            if self.client is not None:
                for (table, lid), seq in acks.items():
                    self.client.publish(ack_topic(table), encode_ack(seq, lid), qos=1, retain=True)

    def _take_burst(self, burst: list) -> dict:
        """A burst of messages in ONE transaction (one fsync, not one a row); the acks to publish
        once it committed.  Should anything fail, nothing of the burst is kept or acknowledged (the
        tables resend it) and the intake starts again from the database."""
        acks: dict = {}
        try:
            with self.lock, self.db.tx():
                for topic, raw in burst:
                    taken = self.handle(topic, raw)
                    where = table_of(topic)
                    if taken.ack is not None and where is not None:
                        acks.pop((where[0], taken.log), None)        # each log's position, the latest last:
                        acks[(where[0], taken.log)] = taken.ack      # the retained ack is the log sent last
        except Exception:
            log.exception("the intake failed on a burst of %d messages; it is taken again when resent", len(burst))
            with self.lock:
                self.ingest = Ingest(self.db, on_change=self.changed)
            return {}
        for table in self._touched:
            self.changed(table)
        self._touched.clear()
        return acks

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(5)
        if self.client is not None:
            self.client.disconnect()
            self.client.loop_stop()
        self.db.close()
        if self._held is not None:
            locks.release(self._held)
            self._held = None
