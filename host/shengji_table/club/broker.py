"""The broker side: mosquitto's password file and ACL for the club, and a local mosquitto to run.

Each table has its own broker user (its table id) and password, written to mosquitto's password
file with mosquitto's own ``mosquitto_passwd`` (salted hashes; we never write that format
ourselves).  The ACL (:func:`acl_text`) lets a table write only its own events topic and read only
its own ack; the club's user reads and writes every table's topics.  Client ids are tied to users:
the broker uses each client's user name as its client id (``use_username_as_clientid``), so one
user's credentials cannot take over another's connection (MQTT drops the older of two connections
with the same client id).  Mosquitto (the Debian package
``mosquitto``) is the broker: small, packaged, the reference MQTT broker.
"""
from __future__ import annotations

import os
import pathlib
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
import time

from .wire import PREFIX, check_table_id

__all__ = ["BrokerError", "CLUB_USER", "acl_text", "add_user", "Mosquitto", "mosquitto_missing", "free_port"]

CLUB_USER = "club"


class BrokerError(RuntimeError):
    """mosquitto or mosquitto_passwd is missing or failed: the reason says which."""


def mosquitto_missing() -> str | None:
    """Why a local broker cannot run here (None: it can)."""
    for tool in ("mosquitto", "mosquitto_passwd"):
        if shutil.which(tool) is None and not pathlib.Path(f"/usr/sbin/{tool}").exists():
            return (f"{tool} is not installed (the Debian package mosquitto: sudo apt-get install mosquitto; "
                    f"make venv installs it when run as root)")
    return None


def _tool(name: str) -> str:
    found = shutil.which(name) or (f"/usr/sbin/{name}" if pathlib.Path(f"/usr/sbin/{name}").exists() else None)
    if found is None:
        raise BrokerError(mosquitto_missing() or f"{name} is missing")
    return found


def acl_text() -> str:
    """The broker's ACL: a table publishes on its own events topic only, reads its own ack only."""
    return (f"user {CLUB_USER}\ntopic readwrite {PREFIX}/#\n\n"
            f"pattern write {PREFIX}/%u/events\npattern read {PREFIX}/%u/ack\n")


def add_user(passwd_file, user: str, password: str | None = None) -> str:
    """Add (or replace) ``user`` in mosquitto's password file (made when missing); the password
    (a fresh random one unless given)."""
    if user != CLUB_USER:
        check_table_id(user)
    password = password or secrets.token_urlsafe(18)
    path = pathlib.Path(passwd_file)
    args = [_tool("mosquitto_passwd"), "-b"] + (["-c"] if not path.exists() else []) + [str(path), user, password]
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        raise BrokerError(f"mosquitto_passwd failed for {user}: {(done.stderr or done.stdout).strip()}")
    os.chmod(path, 0o600)
    return password


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Mosquitto:
    """A local mosquitto on 127.0.0.1:``port``: with ``passwd_file`` it takes only the users there and
    applies the club's ACL (:func:`acl_text`); without, anonymous and unrestricted (tests).  With
    ``tls=(certfile, keyfile)`` (``club certs make``) it speaks TLS only (``mqtts://``)."""

    def __init__(self, port: int | None = None, *, passwd_file=None, workdir=None, tls: tuple | None = None):
        self.port = port or free_port()
        self.tls = tls
        self._tmp = tempfile.TemporaryDirectory(prefix="shengji-mosquitto-") if workdir is None else None
        self.dir = pathlib.Path(workdir or self._tmp.name)      # type: ignore[union-attr]
        self.passwd_file = passwd_file
        self.proc: subprocess.Popen | None = None
        conf = [f"listener {self.port} 127.0.0.1"]
        if tls is not None:                       # this listener's own settings follow its line
            cert, key = (pathlib.Path(p).resolve() for p in tls)
            conf += [f"certfile {cert}", f"keyfile {key}", "tls_version tlsv1.2"]
        conf += ["persistence false", "log_type error", "log_type warning", "max_queued_messages 100000"]
        if os.getuid() == 0:
            # started as root, mosquitto would switch to the user "mosquitto", who cannot read our
            # 0600 password file: it stays the user who started it (the files are that user's)
            conf.append(f"user {pwd.getpwuid(os.getuid()).pw_name}")
        if passwd_file is not None:
            (self.dir / "acl").write_text(acl_text())
            # the broker takes each client's user name as its client id: a table's credentials can
            # only ever take over that table's own connection, never the club's or another table's
            conf += ["allow_anonymous false", f"password_file {pathlib.Path(passwd_file).resolve()}",
                     f"acl_file {(self.dir / 'acl').resolve()}", "use_username_as_clientid true"]
        else:
            conf.append("allow_anonymous true")
        self.conf = self.dir / "mosquitto.conf"
        self.conf.write_text("\n".join(conf) + "\n")

    def start(self, timeout: float = 10.0) -> Mosquitto:
        problem = mosquitto_missing()
        if problem:
            raise BrokerError(problem)
        self.proc = subprocess.Popen([_tool("mosquitto"), "-c", str(self.conf)], stdout=subprocess.DEVNULL,
                                     stderr=open(self.dir / "mosquitto.log", "ab"))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise BrokerError(f"mosquitto exited ({self.proc.returncode}): "
                                  f"{(self.dir / 'mosquitto.log').read_text()[-500:]}")
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                return self
            except OSError:
                time.sleep(0.05)
        raise BrokerError(f"mosquitto did not listen on port {self.port} within {timeout} s")

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://127.0.0.1:{self.port}"

    def kill(self) -> None:
        """Kill the broker at once (a broker crash: every connection is cut)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
