"""Who a player is: signed identity tokens (JWT), verified with PyJWT.

Senet keeps no accounts and no passwords. A player is the subject (``sub``) of an
identity token signed either by the operator's identity provider (a shared HS256
secret, or RS256/ES256 keys published as a JWKS file or URL, with issuer and
audience checked) or, on a server without a provider, by the server itself:
:meth:`Identities.issue_guest` signs guest tokens with the server's own key (the
configured secret, or a key file made under the data folder on first start, so
replicas that share the folder or the secret accept each other's guests).

Guest tokens name the issuer :data:`GUEST_ISSUER`, which is how a token says which
key verifies it; a provider token naming that issuer would still have to be signed
by the guest key. Bots have identities too (:func:`bot_subject`), which no token
can claim. Nothing here knows gRPC: the face reads the ``x-senet-identity``
metadata and the one error mapping turns :class:`~senet.service.errors.BadIdentity`
into UNAUTHENTICATED.
"""

from __future__ import annotations

import asyncio
import os
import re
import secrets
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jwt

from senet.service import errors
from senet.service.settings import Settings

#: The issuer of the guest tokens a server signs itself.
GUEST_ISSUER = "senet-guest"
#: The file under the data folder that holds the guest signing key.
GUEST_KEY_FILE = "guest-signing.key"
#: Algorithms accepted from a JWKS (asymmetric only: a JWKS never holds the secret).
JWKS_ALGORITHMS = ["RS256", "ES256"]
#: Subjects no token may claim: bots are named by the server.
_RESERVED_PREFIXES = ("bot:",)
_MAX_SUBJECT = 128
_MAX_NAME = 32


@dataclass(frozen=True)
class Identity:
    """A verified player.

    Attributes:
        subject: Stable id (``guest:<uuid>`` for guests, the provider's ``sub``).
        name: The display name the token carries (may be empty).
        guest: Signed by this server rather than a provider.
    """

    subject: str
    name: str
    guest: bool


def bot_subject(strategy: str, version: str) -> str:
    """The identity of a bot strategy at a version, rated like any player."""
    return f"bot:{strategy}@{version}"


#: A name that reads as a bot's (``greedy bot``, ``MCTS-Bot``): the last word "bot".
_BOT_NAME = re.compile(r"(^|[\s_.-])bot$", re.IGNORECASE)


def check_display_name(name: str) -> str:
    """A name of 1-32 printable characters, trimmed.

    Raises:
        MalformedRequest: empty, too long or with control characters.
    """
    name = name.strip()
    if not name or len(name) > _MAX_NAME or not name.isprintable():
        raise errors.MalformedRequest(
            f"display_name must be 1-{_MAX_NAME} printable characters",
            {"field": "display_name", "limit": _MAX_NAME, "size": len(name)},
        )
    return name


def guest_key(settings: Settings) -> bytes:
    """The key guest tokens are signed with: the configured secret, else the key
    file under ``data_dir`` (made, readable by its owner only, on first start),
    else a key drawn for this process."""
    if settings.identity_secret:
        return settings.identity_secret.encode()
    if not settings.data_dir:
        return secrets.token_bytes(32)
    path = Path(settings.data_dir) / GUEST_KEY_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        # O_EXCL: of processes starting together, one writes the key, all read it.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_hex(32))
    for _ in range(50):  # another process may be writing it this instant
        text = path.read_text().strip()
        if text:
            return bytes.fromhex(text)
        time.sleep(0.01)
    raise RuntimeError(f"the guest key file {path} is empty")


class Identities:
    """Issues guest tokens and verifies every identity token."""

    def __init__(self, settings: Settings, key: bytes | None = None) -> None:
        self._settings = settings
        self._guest_key = key if key is not None else guest_key(settings)
        self._audience = settings.identity_audience or None
        self._jwk_client: jwt.PyJWKClient | None = None
        self._jwk_set: jwt.PyJWKSet | None = None
        source = settings.identity_jwks
        if source.startswith(("http://", "https://")):
            self._jwk_client = jwt.PyJWKClient(source, cache_keys=True, lifespan=300)
        elif source:
            self._jwk_set = jwt.PyJWKSet.from_json(Path(source).read_text())

    def issue_guest(self, display_name: str) -> tuple[str, Identity, int]:
        """A guest identity token for ``display_name``: (token, identity, expiry).

        Raises:
            MalformedRequest: a bad name, or one a bot is known by (``greedy bot``):
                a guest could stand on the leaderboards as the server's bot.
        """
        name = check_display_name(display_name)
        if _BOT_NAME.search(name):
            raise errors.MalformedRequest(
                "a guest's name may not end in 'bot': the server's bots go by such "
                "names ('greedy bot')",
                {"field": "display_name"},
            )
        now = int(time.time())
        expires = now + self._settings.guest_ttl_s
        identity = Identity(f"guest:{uuid.uuid4().hex}", name, guest=True)
        claims: dict[str, Any] = {
            "iss": GUEST_ISSUER,
            "sub": identity.subject,
            "name": name,
            "iat": now,
            "exp": expires,
        }
        if self._audience:
            claims["aud"] = self._audience
        return jwt.encode(claims, self._guest_key, algorithm="HS256"), identity, expires

    async def verify(self, token: str) -> Identity:
        """The identity a token proves.

        Raises:
            BadIdentity: malformed, expired, not yet valid, wrong issuer or
                audience, or not signed by a trusted key (the message says which).
        """
        try:
            unverified = jwt.decode(token, options={"verify_signature": False})
            issuer = unverified.get("iss")
            if issuer == GUEST_ISSUER:
                claims = self._decode(token, self._guest_key, ["HS256"], GUEST_ISSUER)
            else:
                key, algorithms = await self._provider_key(token)
                claims = self._decode(token, key, algorithms, self._settings.identity_issuer)
        except jwt.ExpiredSignatureError:
            raise errors.BadIdentity("identity token expired") from None
        except jwt.ImmatureSignatureError:
            raise errors.BadIdentity("identity token not valid yet") from None
        except jwt.InvalidIssuerError:
            raise errors.BadIdentity("identity token has the wrong issuer") from None
        except jwt.InvalidAudienceError:
            raise errors.BadIdentity("identity token has the wrong audience") from None
        except jwt.InvalidSignatureError:
            raise errors.BadIdentity("identity token signature does not verify") from None
        except jwt.PyJWKClientConnectionError as exc:
            raise errors.IdentityProviderUnavailable(
                f"the identity provider's keys could not be fetched; retry shortly ({exc})"
            ) from None
        except jwt.PyJWKClientError as exc:
            raise errors.BadIdentity(f"no trusted key for the identity token: {exc}") from None
        except jwt.DecodeError:
            # The library's words name its internals (a codec, a byte position).
            raise errors.BadIdentity(
                "malformed identity token: not a JWT (header.payload.signature, "
                "each base64url-encoded JSON)"
            ) from None
        except jwt.PyJWTError as exc:
            raise errors.BadIdentity(f"malformed identity token: {exc}") from None
        return _identity_of(claims, issuer == GUEST_ISSUER)

    def _decode(self, token: str, key: Any, algorithms: list[str], issuer: str) -> dict[str, Any]:
        required = ["sub", "exp"] + (["iss"] if issuer else [])
        claims: dict[str, Any] = jwt.decode(
            token,
            key,
            algorithms=algorithms,
            audience=self._audience,
            issuer=issuer or None,
            options={"require": required},
            leeway=5,
        )
        return claims

    async def _provider_key(self, token: str) -> tuple[Any, list[str]]:
        """The provider's key for ``token`` and the algorithms it may use."""
        if self._jwk_client is not None:
            # A fetch on a cache miss is blocking I/O: off the event loop.
            signing = await asyncio.to_thread(self._jwk_client.get_signing_key_from_jwt, token)
            return signing.key, JWKS_ALGORITHMS
        if self._jwk_set is not None:
            kid = jwt.get_unverified_header(token).get("kid")
            for jwk in self._jwk_set.keys:
                if kid is None or jwk.key_id == kid:
                    return jwk.key, JWKS_ALGORITHMS
            raise errors.BadIdentity("identity token signature does not verify: unknown key id")
        if self._settings.identity_secret:
            return self._settings.identity_secret.encode(), ["HS256"]
        raise errors.BadIdentity("this server accepts guest identities only")


def _identity_of(claims: dict[str, Any], guest: bool) -> Identity:
    subject = claims.get("sub")
    if not isinstance(subject, str) or not subject or len(subject) > _MAX_SUBJECT:
        raise errors.BadIdentity(f"identity token subject must be 1-{_MAX_SUBJECT} characters")
    if subject.startswith(_RESERVED_PREFIXES) or (subject.startswith("guest:") and not guest):
        raise errors.BadIdentity("identity token subject is reserved")
    name = claims.get("name") or claims.get("preferred_username") or ""
    name = name.strip()[:_MAX_NAME] if isinstance(name, str) and name.isprintable() else ""
    return Identity(subject, name, guest)
