"""A table reporting to the club: its event log's rows published over MQTT (QoS 1), from where
the club last acknowledged.

The table's SQLite log stays the source of truth; the publisher only reads it (its own read-only
connection, beside the table's writer: WAL lets both work at once) and keeps no state of its own
but two positions: ``sent`` (the last row handed to the broker) and ``acked`` (the last row the
club says it stored; the club's ack is retained, so a table that (re)connects learns it at once).

* connected: rows ``sent+1 …`` are published as they are committed (:meth:`notify`, called by the
  service after each commit), never more than ``window`` rows beyond ``acked``;
* a cut, a broker restart: paho reconnects by itself (every 1–2 s); on each connect the
  publisher waits for the club's retained ack (up to a second: a new club has none) and starts
  again from there: the rows the club missed are sent again, the rows it
  has are recognised and dropped there (de-duplicated by (table, match, seq));
* no ack progress for ``stall_s`` while rows are out: sent again from ``acked+1`` (a row lost
  between broker and club, a club restarted without its broker session);
* the club away: nothing blocks — the table goes on playing and logging; the rows wait in the log.

Every row carries the log's identity (``store/log.py``: the id its format row names), and the
club's ack names the log it is for: an ack for another log — the retained ack of the table's
previous log, after the table started a new one — is never taken as a position in this one, so
the new log is sent from its row 1.  The client id is the table's user name and a random part
(the club's broker uses the user name alone: ``broker.py``).
"""
from __future__ import annotations

import json
import logging
import pathlib
import secrets
import sqlite3
import threading
import time

from ..store.log import identity
from .mqtt_client import make_client
from .wire import BrokerURL, EventMessage, ack_topic, decode_ack, encode_event, events_topic

__all__ = ["TablePublisher"]

log = logging.getLogger("shengji_table.club.publisher")

ACK_WAIT_S = 1.0      # after a connect, how long to wait for the club's retained ack before sending


class TablePublisher:
    """Publish the log at ``log_path`` as table ``table`` to ``broker`` (user and password from
    ``broker``, else ``username``/``password``)."""

    def __init__(self, log_path, table: str, broker: BrokerURL, *, username: str | None = None,
                 password: str | None = None, window: int = 500, stall_s: float = 3.0):
        self.table = table
        self.broker = broker
        self.window = window
        self.stall_s = stall_s
        self.log_path = str(log_path)
        self._reader: sqlite3.Connection | None = None
        self.sent = 0
        self.acked = 0
        self.log_id: str | None = None        # the log's identity, read from its row 1
        self.connected = False
        self.published = 0
        self._progress = time.monotonic()
        self._hold_until = 0.0
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._mu = threading.Lock()
        user = broker.username or username or table
        pw = broker.password if broker.username else password
        self.client = make_client(f"{user}-{secrets.token_hex(8)}", broker, user, pw, inflight=100)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self._thread = threading.Thread(target=self._run, name=f"club-publisher-{table}", daemon=True)

    # ---- paho's thread --------------------------------------------------------------------------
    def _on_connect(self, client, userdata, flags, reason, properties):
        if reason.is_failure:
            log.warning("table %s: the broker refused the connection: %s", self.table, reason)
            return
        client.subscribe(ack_topic(self.table), qos=1)
        with self._mu:
            self.connected = True
            self.sent = self.acked            # start again from what the club has …
            self._hold_until = time.monotonic() + ACK_WAIT_S     # … once its retained ack said where
        self._wake.set()

    def _on_disconnect(self, client, userdata, flags, reason, properties):
        with self._mu:
            self.connected = False

    def _on_message(self, client, userdata, msg):
        ack = decode_ack(msg.payload)
        if ack is None:
            return
        seq, lid = ack
        with self._mu:
            if self.log_id is None or lid != self.log_id:
                return                        # another log's position (or none yet read): never ours
            if seq != self.acked:
                self._progress = time.monotonic()
            self.acked = seq
            self._hold_until = 0.0
            if msg.retain or seq > self.sent:  # the retained ack on (re)connect: resume exactly there
                self.sent = seq
        self._wake.set()

    # ---- ours -----------------------------------------------------------------------------------
    def start(self) -> TablePublisher:
        self._open()                          # the log's identity before the club's retained ack arrives
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=5)
        self.client.loop_start()
        self._thread.start()
        return self

    def notify(self, *_args) -> None:
        """A row was committed to the log (the service's listener)."""
        self._wake.set()

    def _open(self) -> sqlite3.Connection | None:
        """A read-only connection to the table's log (None: the log is not there yet)."""
        if self._reader is None:
            path = pathlib.Path(self.log_path)
            if not path.is_file():
                return None
            try:
                self._reader = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True,
                                               check_same_thread=False)
                first = self._reader.execute("SELECT kind, match, payload, hash FROM entries ORDER BY id "
                                             "LIMIT 1").fetchone()
            except sqlite3.Error as exc:         # the table has not made its log yet
                log.debug("table %s: log not readable yet: %s", self.table, exc)
                self._reader = None
                return None
            lid = identity(first)[1] if first is not None else None
            if lid is None:                      # no row 1 yet (or a log without the chain: never sent)
                self._reader.close()
                self._reader = None
                return None
            with self._mu:
                self.log_id = lid
        return self._reader

    def last_id(self) -> int:
        reader = self._open()
        return 0 if reader is None else (reader.execute("SELECT MAX(id) FROM entries").fetchone()[0] or 0)

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(0.2)
            self._wake.clear()
            reader = self._open()
            if reader is None:
                continue
            with self._mu:
                if not self.connected or time.monotonic() < self._hold_until:
                    continue
                if self.sent > self.acked and time.monotonic() - self._progress > self.stall_s:
                    self.sent = self.acked      # no ack for a while: send again from the club's position
                    self._progress = time.monotonic()
                start, limit = self.sent, self.acked + self.window
            self._send(reader, start, limit)

    def _send(self, reader: sqlite3.Connection, start: int, limit: int) -> None:
        last = start
        rows = reader.execute("SELECT id, match, kind, payload, at, hash, boot, seq FROM entries "
                              "WHERE id > ? AND id <= ? ORDER BY id", (start, limit)).fetchall()
        for rid, match, kind, payload, at, digest, boot, link in rows:
            if self._stop.is_set():
                break
            msg = EventMessage(self.table, match, rid, kind, json.loads(payload), at, digest, boot, link, self.log_id)
            info = self.client.publish(events_topic(self.table), encode_event(msg), qos=1)
            if info.rc != 0:                    # not connected any more: on_connect starts again
                break
            last = rid
            self.published += 1
        with self._mu:
            if last > self.sent:
                if self.sent <= self.acked:
                    self._progress = time.monotonic()
                self.sent = last
        if last >= limit:
            self._wake.set()

    def caught_up(self) -> bool:
        """Every row of the log is acknowledged by the club."""
        return self._open() is not None and self.acked >= self.last_id()

    def stop(self, drain_s: float = 3.0) -> None:
        """Stop; while connected, first wait up to ``drain_s`` for the club to acknowledge every row
        (rows left over are sent by the next start: the log keeps them)."""
        deadline = time.monotonic() + drain_s
        while self.connected and not self.caught_up() and time.monotonic() < deadline:
            self._wake.set()
            time.sleep(0.05)
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(5)
        self.client.disconnect()
        self.client.loop_stop()
        if self._reader is not None:
            self._reader.close()
            self._reader = None
