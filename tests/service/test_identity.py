"""Identity tokens: the provider's (HS256, or RS256/ES256 from a JWKS served on
loopback or read from a file) and the server's own guest tokens.

Issue 36: "Bad, expired or wrongly signed tokens get UNAUTHENTICATED with a
reason; nothing else changes."
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import grpc
import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from jwt.algorithms import ECAlgorithm, RSAAlgorithm

from senet.service import errors
from senet.service.identity import GUEST_KEY_FILE, Identities, guest_key
from senet.service.records import SeatClaim
from senet.service.server import RunningServer
from senet.service.settings import Settings
from senet.v1 import match_service_pb2 as ms
from senet.v1 import player_service_pb2 as pb
from senet.v1 import player_service_pb2_grpc
from tests.conftest import http_serving, quiet_log
from tests.service.conftest import Deployment, expect_error, free_port

ISSUER = "https://id.example.test/"
AUDIENCE = "senet"
KID = "key-1"


def _rsa() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


@pytest.fixture(scope="module")
def provider_key() -> rsa.RSAPrivateKey:
    return _rsa()


@pytest.fixture(scope="module")
def jwks_url(provider_key: rsa.RSAPrivateKey) -> Iterator[str]:
    """The provider's JWKS, served over HTTP on loopback."""
    jwk = json.loads(RSAAlgorithm.to_jwk(provider_key.public_key()))
    body = json.dumps({"keys": [{**jwk, "kid": KID, "alg": "RS256", "use": "sig"}]}).encode()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        log_message = quiet_log

    with http_serving(Handler) as origin:
        yield f"{origin}/.well-known/jwks.json"


def _token(key: Any, algorithm: str = "RS256", kid: str = KID, **overrides: Any) -> str:
    now = int(time.time())
    claims: dict[str, Any] = {"iss": ISSUER, "aud": AUDIENCE, "sub": "user-42", "name": "Ada"}
    claims |= {"iat": now, "exp": now + 300}
    claims |= overrides
    return jwt.encode(claims, key, algorithm=algorithm, headers={"kid": kid})


def _identities(**settings: Any) -> Identities:
    config = Settings(identity_issuer=ISSUER, identity_audience=AUDIENCE, **settings)
    return Identities(config)


async def _refused(identities: Identities, token: str, words: str) -> None:
    with pytest.raises(errors.BadIdentity) as raised:
        await identities.verify(token)
    assert words in str(raised.value)


# ---------------------------------------------------------------- JWKS on loopback
async def test_a_provider_token_verified_against_its_jwks_url(
    jwks_url: str, provider_key: rsa.RSAPrivateKey
) -> None:
    identity = await _identities(identity_jwks=jwks_url).verify(_token(provider_key))
    assert (identity.subject, identity.name, identity.guest) == ("user-42", "Ada", False)


async def test_an_expired_provider_token_is_refused(
    jwks_url: str, provider_key: rsa.RSAPrivateKey
) -> None:
    past = int(time.time()) - 3600
    token = _token(provider_key, iat=past - 60, exp=past)
    await _refused(_identities(identity_jwks=jwks_url), token, "expired")


async def test_a_token_of_another_issuer_is_refused(
    jwks_url: str, provider_key: rsa.RSAPrivateKey
) -> None:
    token = _token(provider_key, iss="https://elsewhere.example.test/")
    await _refused(_identities(identity_jwks=jwks_url), token, "wrong issuer")


async def test_a_token_signed_by_another_key_is_refused(jwks_url: str) -> None:
    """Same key id, another private key: the signature does not verify."""
    await _refused(_identities(identity_jwks=jwks_url), _token(_rsa()), "signature")


async def test_a_token_naming_an_unknown_key_id_is_refused(
    jwks_url: str, provider_key: rsa.RSAPrivateKey
) -> None:
    await _refused(
        _identities(identity_jwks=jwks_url), _token(provider_key, kid="other"), "no trusted key"
    )


async def test_a_jwks_url_that_does_not_answer_is_unavailable_not_a_bad_token(
    provider_key: rsa.RSAPrivateKey,
) -> None:
    """The token may be good: the client is told to retry, not to get another."""
    closed = f"http://127.0.0.1:{free_port()}/jwks.json"
    with pytest.raises(errors.IdentityProviderUnavailable):
        await _identities(identity_jwks=closed).verify(_token(provider_key))


async def test_a_token_for_another_audience_is_refused(
    jwks_url: str, provider_key: rsa.RSAPrivateKey
) -> None:
    token = _token(provider_key, aud="another-app")
    await _refused(_identities(identity_jwks=jwks_url), token, "wrong audience")


async def test_a_provider_may_not_claim_a_bot_or_guest_subject(
    jwks_url: str, provider_key: rsa.RSAPrivateKey
) -> None:
    identities = _identities(identity_jwks=jwks_url)
    await _refused(identities, _token(provider_key, sub="bot:greedy@1"), "reserved")
    await _refused(identities, _token(provider_key, sub="guest:abc"), "reserved")


# ---------------------------------------------------------------- JWKS file, HS256
async def test_an_es256_token_verified_against_a_jwks_file(tmp_path: Path) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    jwk = json.loads(ECAlgorithm.to_jwk(key.public_key()))
    path = tmp_path / "jwks.json"
    path.write_text(json.dumps({"keys": [{**jwk, "kid": KID, "alg": "ES256"}]}))
    identities = _identities(identity_jwks=str(path))
    assert (await identities.verify(_token(key, "ES256"))).subject == "user-42"
    other = ec.generate_private_key(ec.SECP256R1())
    await _refused(identities, _token(other, "ES256"), "signature")


async def test_a_shared_secret_verifies_hs256_and_refuses_none() -> None:
    identities = _identities(identity_secret="s" * 32)
    assert (await identities.verify(_token("s" * 32, "HS256"))).subject == "user-42"
    await _refused(identities, _token("t" * 32, "HS256"), "signature")
    claims = {"iss": ISSUER, "aud": AUDIENCE, "sub": "x", "exp": 2**40}
    unsigned = jwt.encode(claims, None, "none")  # type: ignore[arg-type]
    await _refused(identities, unsigned, "malformed")
    await _refused(identities, "not-a-jwt", "malformed")
    # A trial's garbage token read "'utf-8' codec can't decode byte 0xb7": the
    # message says what a token must be, not what the library tripped on.
    with pytest.raises(errors.BadIdentity) as raised:
        await identities.verify("abc.def.ghi")
    assert str(raised.value) == (
        "malformed identity token: not a JWT (header.payload.signature, each "
        "base64url-encoded JSON)"
    )


# ---------------------------------------------------------------- guests
async def test_a_guest_token_is_verified_by_the_server_that_signed_it() -> None:
    identities = Identities(Settings())
    token, guest, expires = identities.issue_guest("  Ada ")
    assert guest.subject.startswith("guest:") and guest.name == "Ada"
    assert expires > time.time()
    assert await identities.verify(token) == guest
    await _refused(Identities(Settings()), token, "signature")


async def test_the_guest_key_file_is_made_once_and_kept(tmp_path: Path) -> None:
    settings = Settings(data_dir=str(tmp_path / "data"))
    first = guest_key(settings)
    assert guest_key(settings) == first
    assert (tmp_path / "data" / GUEST_KEY_FILE).stat().st_mode & 0o777 == 0o600
    token, guest, _ = Identities(settings).issue_guest("Ada")
    assert await Identities(settings).verify(token) == guest  # a restarted server


async def test_a_guest_name_must_be_printable_and_short() -> None:
    identities = Identities(Settings())
    for bad in ("", "   ", "x" * 33, "a\nb"):
        with pytest.raises(errors.MalformedRequest):
            identities.issue_guest(bad)
    # A trial stood on the leaderboard as "greedy bot", beside the real one.
    for bot_like in ("greedy bot", "Random Bot", "mcts-bot", "BOT"):
        with pytest.raises(errors.MalformedRequest, match="may not end in 'bot'"):
            identities.issue_guest(bot_like)
    for fine in ("Abbot", "Botticelli", "robot fan"):
        assert identities.issue_guest(fine)[1].name == fine


# ---------------------------------------------------------------- over gRPC
def _players(
    deployment: Deployment, server: RunningServer
) -> player_service_pb2_grpc.PlayerServiceStub:
    return player_service_pb2_grpc.PlayerServiceStub(deployment.channel(server))


async def test_identity_errors_over_grpc(deployment: Deployment, server: RunningServer) -> None:
    stub = player_service_pb2_grpc.PlayerServiceStub(deployment.channel(server))
    guest = await stub.RegisterGuest(pb.RegisterGuestRequest(display_name="Ada"))
    mine = (("x-senet-identity", guest.identity_token),)
    me = await stub.GetPlayer(pb.GetPlayerRequest(), metadata=mine)
    assert (me.subject, me.display_name) == (guest.subject, "Ada")
    await expect_error(
        stub.GetPlayer(pb.GetPlayerRequest()), grpc.StatusCode.UNAUTHENTICATED, "IDENTITY_REQUIRED"
    )
    failure = await expect_error(
        stub.GetPlayer(pb.GetPlayerRequest(), metadata=(("x-senet-identity", "junk"),)),
        grpc.StatusCode.UNAUTHENTICATED,
        "BAD_IDENTITY",
    )
    assert "malformed" in failure.message
    stream = stub.FindMatch(
        pb.FindMatchRequest(ticket=pb.TicketSpec(game_id="mykerinos")),
        metadata=(("x-senet-identity", guest.identity_token + "x"),),
    )
    await expect_error(stream.read(), grpc.StatusCode.UNAUTHENTICATED, "BAD_IDENTITY")
    await expect_error(
        stub.RegisterGuest(pb.RegisterGuestRequest(display_name="")),
        grpc.StatusCode.INVALID_ARGUMENT,
        "MALFORMED_REQUEST",
    )


async def test_a_seat_joined_with_an_identity_records_its_subject(
    deployment: Deployment, server: RunningServer
) -> None:
    """A bad identity token refuses the join and leaves the seat open."""
    stub = player_service_pb2_grpc.PlayerServiceStub(deployment.channel(server))
    guest = await stub.RegisterGuest(pb.RegisterGuestRequest(display_name="Ada"))
    client = deployment.client(server)
    match_id = (await client.create(2, game_id="pebbles")).match_id
    bad = (("x-senet-identity", guest.identity_token[:-2]),)
    join = ms.JoinMatchRequest(match_id=match_id, seat=0, display_name="Ada")
    await expect_error(
        client.stub.JoinMatch(join, metadata=bad), grpc.StatusCode.UNAUTHENTICATED, "BAD_IDENTITY"
    )
    assert (await server.store.load(match_id)).seats == {}
    mine = (("x-senet-identity", guest.identity_token),)
    await client.stub.JoinMatch(join, metadata=mine)
    await client.stub.JoinMatch(ms.JoinMatchRequest(match_id=match_id, display_name="Bob"))
    seats = (await server.store.load(match_id)).seats
    assert {s: SeatClaim.from_json(c).subject for s, c in seats.items()} == {
        0: guest.subject,
        1: "",
    }
