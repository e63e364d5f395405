"""A software passkey authenticator for tests: P-256 keys, "none" attestation, the
browser's part too (clientDataJSON with the origin it runs on). Just enough WebAuthn to
drive the server's real verification (the `webauthn` package) without a browser."""

from __future__ import annotations

import hashlib
import json
import os
import struct
from dataclasses import dataclass, field
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url

UP_UV = 0x01 | 0x04  # user present, user verified
ATTESTED = 0x40


def b64(data: bytes) -> str:
    return bytes_to_base64url(data)


@dataclass
class Credential:
    id: bytes
    key: ec.EllipticCurvePrivateKey
    rp_id: str
    user_handle: bytes
    count: int = 0


@dataclass
class Authenticator:
    """Holds passkeys; `origin` is where its "browser" runs (what clientDataJSON names)."""

    origin: str = "http://testserver"
    credentials: list[Credential] = field(default_factory=list)

    def create(self, options: dict[str, Any]) -> dict[str, Any]:
        """navigator.credentials.create() answered, as PublicKeyCredential.toJSON()."""
        rp_id = options["rp"]["id"]
        key = ec.generate_private_key(ec.SECP256R1())
        cred = Credential(os.urandom(32), key, rp_id, base64url_to_bytes(options["user"]["id"]))
        self.credentials.append(cred)
        numbers = key.public_key().public_numbers()
        cose = cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"),
                            -3: numbers.y.to_bytes(32, "big")})
        auth_data = (hashlib.sha256(rp_id.encode()).digest() + bytes([UP_UV | ATTESTED])
                     + struct.pack(">I", 0) + bytes(16) + struct.pack(">H", len(cred.id))
                     + cred.id + cose)
        client_data = self._client_data("webauthn.create", options["challenge"])
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {"id": b64(cred.id), "rawId": b64(cred.id), "type": "public-key",
                "response": {"clientDataJSON": b64(client_data),
                             "attestationObject": b64(attestation),
                             "transports": ["internal"]},
                "clientExtensionResults": {}, "authenticatorAttachment": "platform"}

    def get(self, options: dict[str, Any], credential: Credential | None = None,
            *, challenge: str | None = None) -> dict[str, Any]:
        """navigator.credentials.get() answered with `credential` (default: the last)."""
        cred = credential or self.credentials[-1]
        cred.count += 1
        auth_data = (hashlib.sha256(cred.rp_id.encode()).digest() + bytes([UP_UV])
                     + struct.pack(">I", cred.count))
        client_data = self._client_data("webauthn.get", challenge or options["challenge"])
        signature = cred.key.sign(auth_data + hashlib.sha256(client_data).digest(),
                                  ec.ECDSA(hashes.SHA256()))
        return {"id": b64(cred.id), "rawId": b64(cred.id), "type": "public-key",
                "response": {"clientDataJSON": b64(client_data),
                             "authenticatorData": b64(auth_data), "signature": b64(signature),
                             "userHandle": b64(cred.user_handle)},
                "clientExtensionResults": {}, "authenticatorAttachment": "platform"}

    def _client_data(self, kind: str, challenge: str) -> bytes:
        return json.dumps({"type": kind, "challenge": challenge, "origin": self.origin,
                           "crossOrigin": False}).encode()
