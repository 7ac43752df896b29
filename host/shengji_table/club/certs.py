"""The club's TLS certificates, made with the ``openssl`` command (Debian's ``openssl`` package):
a certificate authority of the club's own, and the broker's certificate signed by it for the names
and addresses the tables reach the broker by.

    paths = make_certs("club-tls", hosts=["192.168.1.10", "club.local"])
    # paths.ca (give to every table: mqtts://…?ca=ca.pem), paths.cert + paths.key (mosquitto's)

The CA's key stays with the organiser; the tables only need ``ca.pem``.  Nothing is overwritten:
a directory that already holds certificates is refused.
"""
from __future__ import annotations

import ipaddress
import os
import pathlib
import shutil
import subprocess
from dataclasses import dataclass

__all__ = ["CertError", "CertPaths", "make_certs", "openssl_missing"]

DAYS = 825            # the longest server certificate lifetime common clients accept


class CertError(RuntimeError):
    """openssl is missing or failed, or the names or the directory are not usable."""


@dataclass(frozen=True)
class CertPaths:
    ca: pathlib.Path          # the club's CA certificate: every table gets a copy
    ca_key: pathlib.Path      # the CA's private key: the organiser keeps it
    cert: pathlib.Path        # the broker's certificate (mosquitto's certfile)
    key: pathlib.Path         # the broker's private key (mosquitto's keyfile)


def openssl_missing() -> str | None:
    """Why certificates cannot be made here (None: they can)."""
    if shutil.which("openssl") is None:
        return "openssl is not installed (the Debian package openssl: sudo apt-get install openssl)"
    return None


def _san(hosts) -> str:
    names = []
    for h in hosts:
        h = h.strip()
        if not h or any(c in h for c in ",/ ="):
            raise CertError(f"a broker host is a name or an IP address, not {h!r}")
        try:
            names.append(f"IP:{ipaddress.ip_address(h)}")
        except ValueError:
            names.append(f"DNS:{h}")
    if not names:
        raise CertError("name at least one host the tables use to reach the broker (--host)")
    return ",".join(names)


def _run(args: list, what: str) -> None:
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        raise CertError(f"openssl failed making {what}: {(done.stderr or done.stdout).strip()[-400:]}")


def make_certs(directory, hosts, *, club: str = "shengji club") -> CertPaths:
    """Make the CA and the broker's certificate (for ``hosts``) in ``directory``."""
    problem = openssl_missing()
    if problem:
        raise CertError(problem)
    san = _san(hosts)
    d = pathlib.Path(directory)
    paths = CertPaths(d / "ca.pem", d / "ca.key", d / "broker.pem", d / "broker.key")
    existing = [p.name for p in vars(paths).values() if p.exists()]
    if existing:
        raise CertError(f"{d} already holds {', '.join(existing)}: nothing was changed (choose an empty directory)")
    d.mkdir(parents=True, exist_ok=True)
    csr = d / "broker.csr"
    _run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
          "-keyout", str(paths.ca_key), "-out", str(paths.ca), "-days", str(DAYS * 4), "-subj", f"/CN={club} CA",
          "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"],
         "the club's CA")
    _run(["openssl", "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
          "-keyout", str(paths.key), "-out", str(csr), "-subj", f"/CN={hosts[0]}"], "the broker's key")
    ext = d / "broker.ext"
    ext.write_text(f"subjectAltName={san}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n")
    _run(["openssl", "x509", "-req", "-in", str(csr), "-CA", str(paths.ca), "-CAkey", str(paths.ca_key),
          "-CAcreateserial", "-out", str(paths.cert), "-days", str(DAYS), "-extfile", str(ext)],
         "the broker's certificate")
    for tmp in (csr, ext, d / "ca.srl"):
        tmp.unlink(missing_ok=True)
    for key in (paths.ca_key, paths.key):
        os.chmod(key, 0o600)
    return paths
