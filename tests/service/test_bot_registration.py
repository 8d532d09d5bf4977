"""Who may register remote bots (and so seat them on the ladders of their games):
the operator's policy, ``Settings.bot_registration``.

Registering always needs an identity. ``guests`` lets any identity in (the
default without an admin key); ``players`` refuses guests (the default with
one); ``listed`` lets in only ``bot_owners``; ``admin`` only the admin key. The
admin key always may; an owner holds at most ``bot_max_per_owner`` bots.
Refusals go through the one error mapping: PERMISSION_DENIED with reason
BOT_REGISTRATION_REFUSED, RESOURCE_EXHAUSTED with QUOTA_EXCEEDED.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable

import jwt
import pytest

from senet.service import errors
from senet.service.identity import Identity
from senet.service.remote_bots import RegistrationPolicy
from senet.service.settings import Settings
from senet.v1 import ladder_service_pb2 as lpb
from senet.v1 import ladder_service_pb2_grpc, player_service_pb2_grpc
from senet.v1 import player_service_pb2 as ppb
from tests.service.conftest import Client, Code, Deployment, expect_error

GAME = "pebbles"
SECRET = "s" * 32
ADMIN = "the-admin-key"
GUEST = Identity("guest:1", "g", guest=True)
ADA = Identity("ada", "Ada", guest=False)


def provider_token(subject: str) -> str:
    """An identity token of the operator's provider (HS256 with the shared secret)."""
    now = int(time.time())
    claims = {"sub": subject, "name": subject, "aud": "senet", "iat": now, "exp": now + 300}
    return jwt.encode(claims, SECRET, algorithm="HS256")


async def guest_token(client: Client) -> str:
    players = player_service_pb2_grpc.PlayerServiceStub(client.channel)
    return (await players.RegisterGuest(ppb.RegisterGuestRequest(display_name="g"))).identity_token


def register(
    client: Client, token: str, name: str = "b1", admin: bool = False
) -> Awaitable[lpb.RegisterBotResponse]:
    stub = ladder_service_pb2_grpc.LadderServiceStub(client.channel)
    metadata = [("x-senet-identity", token)] + ([("x-senet-admin-key", ADMIN)] if admin else [])
    return stub.RegisterBot(
        lpb.RegisterBotRequest(name=name, game_ids=[GAME]), metadata=tuple(metadata)
    )


@pytest.mark.parametrize(
    ("settings", "who"),
    [
        (Settings(), "guests"),
        (Settings(admin_key=ADMIN), "players"),
        (Settings(admin_key=ADMIN, bot_registration="guests"), "guests"),
        (Settings(bot_registration="listed", bot_owners=" ada, bob ,"), "listed"),
    ],
)
def test_the_policy_defaults_by_whether_the_server_has_an_admin_key(
    settings: Settings, who: str
) -> None:
    assert RegistrationPolicy.of(settings).who == who


def test_an_unknown_policy_stops_the_server_from_starting() -> None:
    with pytest.raises(ValueError, match="SENET_BOT_REGISTRATION='everyone' is not one of"):
        RegistrationPolicy.of(Settings(bot_registration="everyone"))


@pytest.mark.parametrize(
    ("who", "let_in"),
    [
        ("guests", {"guest", "ada", "bob"}),
        ("players", {"ada", "bob"}),
        ("listed", {"ada"}),
        ("admin", set()),
    ],
)
def test_each_policy_lets_in_whom_it_says(who: str, let_in: set[str]) -> None:
    policy = RegistrationPolicy(who, frozenset({"ada"}), admin_key_set=True)
    callers = {"guest": GUEST, "ada": ADA, "bob": Identity("bob", "Bob", guest=False)}
    admitted = set()
    for label, identity in callers.items():
        try:
            policy.check(identity, is_admin=False)
            admitted.add(label)
        except errors.BotRegistrationRefused as refused:
            assert refused.facts == {"policy": who}
        policy.check(identity, is_admin=True)  # the admin key always may
    assert admitted == let_in


def test_without_an_admin_key_everyone_counting_as_admin_does_not_open_the_policy() -> None:
    policy = RegistrationPolicy("listed", frozenset({"ada"}), admin_key_set=False)
    with pytest.raises(errors.BotRegistrationRefused, match="bob is not one of them"):
        policy.check(Identity("bob", "Bob", guest=False), is_admin=True)


@pytest.mark.parametrize("store_kind", ["memory"])
async def test_a_server_with_an_admin_key_refuses_guests_by_default(
    deployment: Deployment,
) -> None:
    server = await deployment.start(admin_key=ADMIN, identity_secret=SECRET)
    client = deployment.client(server)
    guest = await guest_token(client)
    refused = await expect_error(
        register(client, guest), Code.PERMISSION_DENIED, "BOT_REGISTRATION_REFUSED"
    )
    assert refused.facts == {"policy": "players"} and "not guests" in refused.message
    done = await register(client, provider_token("ada"))
    assert done.bot.subject == "bot:ada/b1"
    by_admin = await register(client, guest, "b2", admin=True)
    assert by_admin.bot.owner.startswith("guest:")


@pytest.mark.parametrize("store_kind", ["memory"])
async def test_listed_owners_only_and_a_bounded_number_of_bots_each(
    deployment: Deployment,
) -> None:
    server = await deployment.start(
        identity_secret=SECRET,
        bot_registration="listed",
        bot_owners="ada",
        bot_max_per_owner=2,
    )
    client = deployment.client(server)
    await expect_error(
        register(client, provider_token("bob")),
        Code.PERMISSION_DENIED,
        "BOT_REGISTRATION_REFUSED",
    )
    ada = provider_token("ada")
    first = await register(client, ada, "one")
    await register(client, ada, "two")
    too_many = await expect_error(
        register(client, ada, "three"),
        Code.RESOURCE_EXHAUSTED,
        "QUOTA_EXCEEDED",
    )
    assert too_many.facts == {"quota": "bots_per_owner", "limit": "2"}
    again = await register(client, ada, "one")
    assert again.bot.bot_id == first.bot.bot_id and again.bot_key != first.bot_key
    stub = ladder_service_pb2_grpc.LadderServiceStub(client.channel)
    await expect_error(
        stub.RegisterBot(lpb.RegisterBotRequest(name="x", game_ids=[GAME])),
        Code.UNAUTHENTICATED,
        "IDENTITY_REQUIRED",
    )
