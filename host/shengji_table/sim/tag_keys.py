"""Originality signatures for simulated NTAGs: what NXP's factory does for real tags, with a test key.

A real NTAG21x carries NXP's ECDSA signature (secp128r1) of its 7-byte UID, made with NXP's private
key; hosts verify it with NXP's public key (``table/registry.py``, :data:`NXP_NTAG21X_KEY`).  The
simulated tags (``firmware/pn532_model.py`` ``SimNTAG(signature=…)``) are signed here with
:data:`TEST_SECRET` instead, so a deck set whose ``signature_key`` is :data:`TEST_PUBLIC_KEY`
accepts them, and one with NXP's key (the default) refuses them, as it would a clone.
"""
from __future__ import annotations

import hashlib

__all__ = ["TEST_SECRET", "TEST_PUBLIC_KEY", "sign_uid", "public_key"]

TEST_SECRET = 0x5EED_0F_7AB1E_C0FFEE_0042       # any number below the curve's order; not secret at all


def _signing_key(secret: int):
    from ecdsa import SECP128r1, SigningKey
    return SigningKey.from_secret_exponent(secret, curve=SECP128r1)


def public_key(secret: int = TEST_SECRET) -> str:
    """The public key of ``secret`` as a deck set's ``signature_key``: hex of 04 ‖ X ‖ Y."""
    return _signing_key(secret).get_verifying_key().to_string("uncompressed").hex()


TEST_PUBLIC_KEY = public_key()


def sign_uid(uid: bytes, secret: int = TEST_SECRET) -> bytes:
    """The 32-byte originality signature (r ‖ s) of ``uid``, as READ_SIG returns it: ECDSA of the UID
    bytes themselves, unhashed (AN11350); the nonce deterministic (RFC 6979) so runs repeat."""
    from ecdsa.util import sigencode_string
    return _signing_key(secret).sign_digest_deterministic(bytes(uid), hashfunc=hashlib.sha256,
                                                          sigencode=sigencode_string)
