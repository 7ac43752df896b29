"""The paho client both ends of the club's wire use — a table's publisher and the club's intake:
its credentials, its reconnect pacing and, for ``mqtts://``, TLS that checks the broker's
certificate and host name against the club's CA (``?ca=FILE``) or the system's authorities.

    client = make_client("table-T3", parse_broker_url("mqtts://T3:pw@club.local?ca=ca.pem"),
                         "T3", None, inflight=100)

TLS is what keeps the rows off the club's network in the clear: a table's log holds every card
dealt, so the hands travel in those rows (``docs/club.md`` §3).
"""
from __future__ import annotations

import logging
import ssl

from .wire import BrokerURL, WireError

__all__ = ["make_client", "check_ca"]

log = logging.getLogger("shengji_table.club")


def check_ca(path: str) -> None:
    """Raise :class:`WireError` unless ``path`` is a readable PEM of at least one CA certificate."""
    try:
        ssl.create_default_context(cafile=path)
    except FileNotFoundError:
        raise WireError(f"the club's CA certificate {path} does not exist (?ca=FILE: club certs make writes ca.pem)") \
            from None
    except (OSError, ssl.SSLError) as exc:
        raise WireError(f"{path} is not a CA certificate in PEM form ({exc})") from None


def _connect_failed(broker: BrokerURL):
    """paho's ``on_connect_fail``: say once why the broker cannot be reached (paho retries)."""
    said: list[bool] = []

    def failed(client, userdata) -> None:
        if not said:
            said.append(True)
            hint = (" — with TLS, check that ?ca= is the club's CA and that the broker's certificate names "
                    f"{broker.host}" if broker.tls else "")
            log.warning("cannot connect to the broker at %s%s; retrying", broker, hint)
    return failed


def make_client(client_id: str, broker: BrokerURL, username: str | None, password: str | None, *,
                inflight: int):
    """A paho client for ``broker`` (not connected yet)."""
    import paho.mqtt.client as mqtt
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=True)
    client.username_pw_set(username, password)
    client.reconnect_delay_set(min_delay=1, max_delay=2)
    client.max_inflight_messages_set(inflight)
    client.on_connect_fail = _connect_failed(broker)
    if broker.tls:
        if broker.ca_file is not None:
            check_ca(broker.ca_file)
        # verifies the certificate chain and that it names broker.host (paho's default: CERT_REQUIRED)
        client.tls_set(ca_certs=broker.ca_file)
    return client
