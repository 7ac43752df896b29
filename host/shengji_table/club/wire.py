"""What travels between a table and the club over MQTT: the topics, the event message, the ack.

==========================================  =============================================  ==========
topic                                       message                                        who writes
==========================================  =============================================  ==========
``shengji/club/tables/<T>/events``          one row of the table's event log (QoS 1)       table T
``shengji/club/tables/<T>/ack``             ``{"seq": n, "log": id}``: every row up to n   the club
                                            of log ``id`` is in the club's database (QoS 1,
                                            retained)
==========================================  =============================================  ==========

An event message is the log row as the table wrote it::

    {"v": 1, "table": "T3", "log": "9f3c…", "match": "table", "seq": 41, "kind": "game",
     "payload": {...}, "at": 1764580000.5, "hash": "…", "boot": null, "link": null}

``log`` is the log's identity (``store/log.py``: the random id its format row names, or for a log
of a build before the format row the first 32 hex digits of its row 1's hash): a table that starts
a new log starts a new stream at the club, and an ack names the log it is for, so a table never
takes another log's position as its own.  A message without ``hash`` or ``log`` (a build before
them) is refused with the reason: a row the club cannot check is never counted.

``hash`` is the row's link in the log's hash chain (``store/log.py``: SHA-256 over the previous
row's hash and the row's fields; ``boot``/``link`` are a physical event's link identity, part of
what is hashed), so the club checks that each row follows the one before it, as ``log verify``
does: a row altered on the way, or a log altered at the table, does not chain.

``seq`` is the row's id in the table's log: it rises by one per row over the whole log, so the
club takes a table's rows in order, one after the other, and the position it acknowledges says
everything before it arrived.  The club de-duplicates by (table, log, seq).
"""
from __future__ import annotations

import json
import re
import urllib.parse
from dataclasses import dataclass
from typing import Any

from ..store.rows import KINDS

__all__ = ["PREFIX", "events_topic", "ack_topic", "table_of", "EventMessage", "WireError", "decode_event",
           "encode_event", "encode_ack", "decode_ack", "parse_broker_url", "BrokerURL", "TABLE_ID",
           "check_table_id", "LOG_ID"]

PREFIX = "shengji/club/tables"
TABLE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$")
LOG_ID = re.compile(r"^[0-9a-f]{8,64}$")
MAX_MESSAGE = 256 * 1024


class WireError(ValueError):
    """A malformed message or address: the reason says what is wrong."""


def check_table_id(table: str) -> str:
    if not isinstance(table, str) or not TABLE_ID.match(table):
        raise WireError(f"a table id is 1-32 letters, digits, '-' or '_' (e.g. T3), not {table!r}")
    return table


def events_topic(table: str) -> str:
    return f"{PREFIX}/{check_table_id(table)}/events"


def ack_topic(table: str) -> str:
    return f"{PREFIX}/{check_table_id(table)}/ack"


def table_of(topic: str) -> tuple[str, str] | None:
    """``(table, "events"|"ack")`` of one of our topics; None for any other."""
    parts = topic.split("/")
    if len(parts) != 5 or "/".join(parts[:3]) != PREFIX or parts[4] not in ("events", "ack"):
        return None
    return parts[3], parts[4]


@dataclass(frozen=True)
class EventMessage:
    table: str
    match: str
    seq: int
    kind: str
    payload: Any
    at: float
    hash: str | None = None
    boot: int | None = None
    link: int | None = None
    log: str | None = None            # the identity of the table's log (store/log.py identity)


def encode_event(m: EventMessage) -> bytes:
    return json.dumps({"v": 1, "table": m.table, "log": m.log, "match": m.match, "seq": m.seq, "kind": m.kind,
                       "payload": m.payload, "at": m.at, "hash": m.hash,
                       "boot": m.boot, "link": m.link},
                      ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _field(data: dict, name: str, typ, what: str):
    value = data.get(name)
    if not isinstance(value, typ) or isinstance(value, bool):
        raise WireError(f"field {name!r} is {what}, not {value!r}")
    return value


def decode_event(topic_table: str, raw: bytes) -> EventMessage:
    """The message a table sent on its events topic; :class:`WireError` with the reason otherwise."""
    if len(raw) > MAX_MESSAGE:
        raise WireError(f"a message of {len(raw)} bytes (at most {MAX_MESSAGE})")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise WireError(f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise WireError(f"a message is a JSON object, not {type(data).__name__}")
    if data.get("v") != 1:
        raise WireError(f"message version {data.get('v')!r} (this club reads version 1)")
    table = _field(data, "table", str, "the table id")
    if table != topic_table:
        raise WireError(f"a message of table {table!r} on table {topic_table!r}'s topic")
    match = _field(data, "match", str, "the match's name")
    if not 0 < len(match) <= 64:
        raise WireError("the match's name is 1-64 characters")
    seq = _field(data, "seq", int, "a whole number (the row's id in the table's log)")
    if seq < 1:
        raise WireError(f"seq starts at 1, not {seq}")
    kind = _field(data, "kind", str, "the row's kind")
    if kind not in KINDS:
        raise WireError(f"kind {kind!r}; kinds are {', '.join(KINDS)}")
    at = data.get("at")
    if not isinstance(at, (int, float)) or isinstance(at, bool):
        raise WireError(f"field 'at' is the time in seconds, not {at!r}")
    digest, log = _chain_fields(data)
    if "payload" not in data:
        raise WireError("no 'payload'")
    ids = [data.get("boot"), data.get("link")]
    if any(v is not None and (not isinstance(v, int) or isinstance(v, bool)) for v in ids):
        raise WireError("fields 'boot' and 'link' are whole numbers or null")
    return EventMessage(table, match, seq, kind, data["payload"], float(at), digest, ids[0], ids[1], log)


def _chain_fields(data: dict) -> tuple[str, str]:
    """A message's ``hash`` and ``log``, both required: a row the club cannot check is refused."""
    digest = data.get("hash")
    if digest is None:
        raise WireError("no 'hash': a row without its link in the log's hash chain cannot be checked (a log "
                        "without the chain, or a row altered on its way), so it is refused")
    if not (isinstance(digest, str) and re.fullmatch(r"[0-9a-f]{64}", digest)):
        raise WireError("field 'hash' is 64 hex digits")
    log = data.get("log")
    if log is None:
        raise WireError("no 'log' (the identity of the table's log): the table runs a build before log "
                        "identities; upgrade it")
    if not (isinstance(log, str) and LOG_ID.match(log)):
        raise WireError(f"field 'log' is the log's identity, 8-64 hex digits, not {log!r}")
    return digest, log


def encode_ack(seq: int, log: str) -> bytes:
    return json.dumps({"seq": seq, "log": log}).encode()


def decode_ack(raw: bytes) -> tuple[int, str] | None:
    """``(position, log id)`` acknowledged, or None for anything else (an empty retained message
    clears it; an ack without a log id, from a club of an older build, names no log)."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    seq, log = data.get("seq"), data.get("log")
    if not (isinstance(seq, int) and not isinstance(seq, bool) and seq >= 0 and isinstance(log, str)):
        return None
    return seq, log


@dataclass(frozen=True)
class BrokerURL:
    """Where the broker is and who connects: ``tls`` for ``mqtts://``, checked against ``ca_file``
    (a PEM of the club's certificate authority; None: the system's trusted authorities)."""

    host: str
    port: int
    username: str | None = None
    password: str | None = None
    tls: bool = False
    ca_file: str | None = None

    def __str__(self) -> str:          # never the password: this is printed
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"


def parse_broker_url(url: str) -> BrokerURL:
    """``mqtt://[user:password@]HOST[:PORT]`` (port 1883 by default), or with TLS
    ``mqtts://[user:password@]HOST[:PORT][?ca=FILE]`` (port 8883; ``ca``: the club's CA certificate)."""
    parsed = urllib.parse.urlsplit(url)
    if parsed.scheme not in ("mqtt", "mqtts") or not parsed.hostname:
        raise WireError(f"a broker is mqtt://HOST:PORT or mqtts://HOST:PORT?ca=FILE (e.g. mqtt://127.0.0.1:1883), "
                        f"not {url!r}")
    tls = parsed.scheme == "mqtts"
    try:
        port = parsed.port or (8883 if tls else 1883)
    except ValueError:
        raise WireError(f"the port of {url!r} is not a number 1-65535") from None
    query = urllib.parse.parse_qs(parsed.query, keep_blank_values=True)
    unknown = sorted(set(query) - {"ca"})
    if unknown or (query and not tls):
        raise WireError(f"{parsed.scheme}:// takes {'only ?ca=FILE' if tls else 'no options'}, "
                        f"not ?{parsed.query} (in {_without_password(parsed)})")
    ca = query.get("ca", [None])[-1]
    if ca is not None and not ca:
        raise WireError("?ca= names the club's CA certificate file (PEM)")
    user = urllib.parse.unquote(parsed.username) if parsed.username else None
    pw = urllib.parse.unquote(parsed.password) if parsed.password else None
    return BrokerURL(parsed.hostname, port, user, pw, tls, ca)


def _without_password(parsed) -> str:
    return f"{parsed.scheme}://{parsed.hostname}{f':{parsed.port}' if parsed.port else ''}"
