"""Passkeys through the `webauthn` package: the options a browser needs to create or use
one, and the verification of its answer.

A challenge is kept in the database (auth_challenges, keyed by its sha256) between the
begin and the finish, since in a cluster another instance may get the finish; the finish
reads the challenge the browser signed (in clientDataJSON), consumes that row (so an
answer replayed, or answered twice, finds none) and only then verifies. The relying party
(RP id and origin) comes from PUBLIC_URL's origin, else from the request's own host and scheme:
an answer made for another site (another origin or RP id) fails verification.

`webauthn` (with cryptography, pyOpenSSL and pyasn1: about a tenth of the server's import)
is imported by the functions of a ceremony, at the first one, not at every server start.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy.ext.asyncio import AsyncSession

if TYPE_CHECKING:
    from webauthn.helpers.structs import AuthenticatorSelectionCriteria

from . import store
from .errors import AccountError
from .store import PasskeyInfo

CHALLENGE_TTL = timedelta(minutes=5)
RP_NAME = "Coffee Rush Online"
# Purposes of a challenge: a new account with a passkey, a passkey for a signed-in
# account, a sign-in.
SIGN_UP, ADD_PASSKEY, SIGN_IN = "sign_up", "add_passkey", "sign_in"


@dataclass(frozen=True, slots=True)
class RelyingParty:
    rp_id: str  # the site's host name
    origin: str  # scheme://host[:port], what the browser's clientDataJSON must name


@dataclass(frozen=True, slots=True)
class NewPasskey:
    credential_id: str
    public_key: bytes
    sign_count: int
    transports: tuple[str, ...]


def rejected(why: str = "the passkey's answer was not accepted") -> AccountError:
    return AccountError("passkey_rejected", why, 400)


def challenge_id(challenge: bytes) -> str:
    return hashlib.sha256(challenge).hexdigest()


def _selection() -> AuthenticatorSelectionCriteria:
    from webauthn.helpers.structs import (
        AuthenticatorSelectionCriteria,
        ResidentKeyRequirement,
        UserVerificationRequirement,
    )

    return AuthenticatorSelectionCriteria(
        resident_key=ResidentKeyRequirement.REQUIRED,
        user_verification=UserVerificationRequirement.REQUIRED,
    )


async def begin_registration(session: AsyncSession, rp: RelyingParty, purpose: str,
                             account_id: int | None, user_id: bytes, user_name: str,
                             exclude: list[str], data: dict[str, Any],
                             now: datetime) -> dict[str, Any]:
    """The creation options for the browser (JSON-ready); the challenge is stored."""
    from webauthn import generate_registration_options
    from webauthn.helpers import base64url_to_bytes, options_to_json_dict
    from webauthn.helpers.structs import PublicKeyCredentialDescriptor

    options = generate_registration_options(
        rp_id=rp.rp_id, rp_name=RP_NAME, user_name=user_name, user_id=user_id,
        user_display_name=user_name, authenticator_selection=_selection(),
        exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(c))
                             for c in exclude],
    )
    await store.put_challenge(session, challenge_id(options.challenge), purpose, account_id,
                              data, now + CHALLENGE_TTL, now)
    return options_to_json_dict(options)


async def begin_authentication(session: AsyncSession, rp: RelyingParty,
                               now: datetime) -> dict[str, Any]:
    """Request options for a discoverable passkey (no name asked); the challenge stored."""
    from webauthn import generate_authentication_options
    from webauthn.helpers import options_to_json_dict
    from webauthn.helpers.structs import UserVerificationRequirement

    options = generate_authentication_options(
        rp_id=rp.rp_id, user_verification=UserVerificationRequirement.REQUIRED)
    await store.put_challenge(session, challenge_id(options.challenge), SIGN_IN, None, {},
                              now + CHALLENGE_TTL, now)
    return options_to_json_dict(options)


def signed_challenge(credential: dict[str, Any]) -> bytes:
    """The challenge a browser's answer claims to sign (checked again by verification)."""
    from webauthn.helpers import base64url_to_bytes

    try:
        client_data = json.loads(base64url_to_bytes(credential["response"]["clientDataJSON"]))
        return base64url_to_bytes(client_data["challenge"])
    except (KeyError, TypeError, ValueError) as e:
        raise rejected("the passkey's answer is not readable") from e


async def take(session: AsyncSession, credential: dict[str, Any], purpose: str,
               now: datetime) -> tuple[bytes, int | None, dict[str, Any]]:
    """Consume the challenge the answer signed: (challenge, account_id, data). Refused when
    it is unknown, used already, expired or of another purpose."""
    challenge = signed_challenge(credential)
    found = await store.take_challenge(session, challenge_id(challenge), purpose, now)
    if found is None:
        raise rejected("this passkey request is unknown, used already or expired: start again")
    return challenge, *found


def verify_registration(rp: RelyingParty, credential: dict[str, Any],
                        challenge: bytes) -> NewPasskey:
    from webauthn import verify_registration_response
    from webauthn.helpers import bytes_to_base64url
    from webauthn.helpers.exceptions import WebAuthnException

    try:
        verified = verify_registration_response(
            credential=credential, expected_challenge=challenge, expected_rp_id=rp.rp_id,
            expected_origin=rp.origin, require_user_verification=True)
    except (WebAuthnException, KeyError, TypeError, ValueError) as e:
        raise rejected(f"the new passkey was not accepted: {str(e)[:120]}") from e
    transports = credential.get("response", {}).get("transports") or []
    return NewPasskey(bytes_to_base64url(verified.credential_id),
                      verified.credential_public_key, verified.sign_count,
                      tuple(str(t) for t in transports if isinstance(t, str))[:8])


def credential_id(credential: dict[str, Any]) -> str:
    value = credential.get("rawId") or credential.get("id")
    if not isinstance(value, str) or not 0 < len(value) <= 1400:
        raise rejected("the passkey's answer names no credential")
    return value


def verify_assertion(rp: RelyingParty, credential: dict[str, Any], challenge: bytes,
                     passkey: PasskeyInfo) -> int:
    """The new signature count of a verified sign-in answer."""
    from webauthn import verify_authentication_response
    from webauthn.helpers.exceptions import WebAuthnException

    try:
        verified = verify_authentication_response(
            credential=credential, expected_challenge=challenge, expected_rp_id=rp.rp_id,
            expected_origin=rp.origin, credential_public_key=passkey.public_key,
            credential_current_sign_count=passkey.sign_count, require_user_verification=True)
    except (WebAuthnException, KeyError, TypeError, ValueError) as e:
        raise rejected(f"the passkey's answer was not accepted: {str(e)[:120]}") from e
    return verified.new_sign_count
