"""A small typed asyncio client over the generated senet.v1 stubs.

Every unary call has a deadline; failures raise :class:`~senet.client.errors.SenetRpcError`
with the server's ErrorInfo reason. Every call that is safe to repeat is retried
after UNAVAILABLE, DEADLINE_EXCEEDED and CANCELLED, moving to the next target
(another replica may answer): reads, and the writes that carry an idempotency
key (SubmitAction, CreateMatch, JoinMatch; the client draws a random key when the
caller gives none). gRPC answers CANCELLED under bursts of new streams before a
call reaches the server, with nothing logged anywhere; retrying it is what makes
those bursts invisible to callers. Streams reconnect by themselves and resume
from the last version they delivered, so a caller never misses an update and
never sees one twice; a stream is retried after CANCELLED only while it has
delivered nothing (afterwards CANCELLED may be a deliberate end).
"""

from __future__ import annotations

import asyncio
import json
import secrets
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Literal, TypeVar

import grpc

from senet.client.errors import SenetRpcError
from senet.client.streams import send_requests
from senet.client.turns import prompt_of
from senet.v1 import (
    bot_service_pb2,
    bot_service_pb2_grpc,
    games_pb2,
    match_pb2,
    match_service_pb2,
    match_service_pb2_grpc,
)

T = TypeVar("T")

DEFAULT_TIMEOUT_S = 10.0
DEFAULT_KEEPALIVE_S = 30.0

#: Channel options of every client channel.
#:
#: A subchannel pool of the channel's own: by default gRPC shares subchannels
#: (connections to one address) between every channel of the process, so a new
#: channel to an address that refused a connection earlier inherits that
#: subchannel's failure and its reconnect backoff (one second, growing), and fails
#: at once with the old "Connection refused" although a server now listens there.
#: Every retry of :meth:`SenetClient._call` opens a new channel, so without this it
#: would only ever meet the same stale failure until the backoff ran out.
#:
#: Round robin over every address the name resolves to: a ``dns:///`` target
#: naming a headless Kubernetes Service then spreads calls over all replicas
#: (gRPC's default, pick_first, would send everything to one); a name with one
#: address behaves as before.
CHANNEL_OPTIONS = (
    ("grpc.use_local_subchannel_pool", 1),
    ("grpc.service_config", json.dumps({"loadBalancingConfig": [{"round_robin": {}}]})),
)
_BACKOFF_START_S = 0.05
_BACKOFF_MAX_S = 2.0


@dataclass(frozen=True)
class Joined:
    """A claimed seat: its number and secret token, and what its player keeps to
    check the deal once the match is over (``senet verify``): the seed commitment
    seen when joining and the entropy the seat sent (empty when not known here)."""

    match_id: str
    seat: int
    token: str
    commitment: str = ""
    entropy: str = ""


def _options_to_proto(options: dict[str, bool | int | str]) -> dict[str, games_pb2.OptionValue]:
    out = {}
    for name, value in options.items():
        if isinstance(value, bool):
            out[name] = games_pb2.OptionValue(bool_value=value)
        elif isinstance(value, int):
            out[name] = games_pb2.OptionValue(int_value=value)
        else:
            out[name] = games_pb2.OptionValue(choice_value=str(value))
    return out


#: gRPC name schemes whose addresses may hold commas (``ipv4:a:1,b:2``): a target
#: naming one is handed to gRPC whole.
_SCHEMES = ("dns:", "ipv4:", "ipv6:", "unix:", "unix-abstract:", "vsock:", "xds:")


def split_targets(text: str) -> list[str]:
    """The servers a ``--server`` value names: ``host:port``, a comma-separated
    list of them (client-side failover, :class:`SenetClient`), or one gRPC target
    with its scheme (``dns:///name:port``, ``ipv4:10.0.0.1:50051,10.0.0.2:50051``:
    gRPC balances across those itself)."""
    text = text.strip()
    if text.startswith(_SCHEMES):
        return [text]
    return [part.strip() for part in text.split(",") if part.strip()]


def grpc_target(text: str) -> str:
    """One gRPC target for a ``--server`` value, for code that opens one channel
    itself (the web's gRPC-Web gateway, the ladder commands): the value as it is
    when it names one server or a gRPC target; a list of IPv4 addresses as gRPC's
    own list (``ipv4:a:1,b:2``, balanced by gRPC); any other list's first server."""
    targets = split_targets(text)
    if len(targets) <= 1:
        return targets[0] if targets else text
    hosts = [target.rpartition(":")[0] for target in targets]
    if all(_is_ipv4(host) for host in hosts):
        return "ipv4:" + ",".join(targets)
    return targets[0]


def _is_ipv4(host: str) -> bool:
    parts = host.split(".")
    return len(parts) == 4 and all(part.isdigit() and int(part) < 256 for part in parts)


class SenetClient:
    """A connection to a Senet server (or a load balancer in front of replicas).

    Args:
        target: ``host:port``, or a list of them: calls go to the first and move to
            the next when one is unavailable (client-side failover). One string is
            read by :func:`split_targets`, so ``"a:50051,b:50051"`` is such a list.
        admin_key: Sent as ``x-senet-admin-key`` where the server requires it.
        worker_key: Sent as ``x-senet-worker-key``: a bot worker's credential
            (BotService calls need it, or the admin key).
        timeout_s: Deadline of every unary call.
        tls_ca: PEM file of the CA that signed the server certificate; enables TLS.
        keepalive_s: Ping the server after this long without traffic, and drop the
            connection when the ping is not answered within as long again. A
            replica whose host or network died sends nothing, not even a reset:
            without pings a stream on it (WatchMatch, PlayMatch) would wait forever
            instead of failing over. Keep it above the server's ``heartbeat_s``
            (which resets the server's ping budget); None disables pings.
        interceptors: gRPC client interceptors every call goes through (the web
            client's sends each browser's address, :mod:`senet.web.callers`).
    """

    def __init__(
        self,
        target: str | Sequence[str],
        *,
        admin_key: str = "",
        worker_key: str = "",
        timeout_s: float = DEFAULT_TIMEOUT_S,
        tls_ca: str | None = None,
        max_attempts: int = 5,
        keepalive_s: float | None = DEFAULT_KEEPALIVE_S,
        interceptors: Sequence[grpc.aio.ClientInterceptor] = (),
    ) -> None:
        self.targets = split_targets(target) if isinstance(target, str) else list(target)
        if not self.targets:
            raise ValueError("at least one target is needed")
        self.admin_key = admin_key
        self.worker_key = worker_key
        self.timeout_s = timeout_s
        self.max_attempts = max_attempts
        self._credentials = (
            grpc.ssl_channel_credentials(Path(tls_ca).read_bytes()) if tls_ca else None
        )
        self._options: list[tuple[str, str | int]] = list(CHANNEL_OPTIONS)
        if keepalive_s is not None:
            keepalive_ms = max(1, round(keepalive_s * 1000))
            self._options += [
                ("grpc.keepalive_time_ms", keepalive_ms),
                ("grpc.keepalive_timeout_ms", keepalive_ms),
                ("grpc.http2.max_pings_without_data", 0),
            ]
        self._interceptors = list(interceptors) or None
        self._index = 0
        self._channel: grpc.aio.Channel | None = None
        self._stub: match_service_pb2_grpc.MatchServiceAsyncStub | None = None

    # ------------------------------------------------------------ plumbing
    async def __aenter__(self) -> SenetClient:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def close(self) -> None:
        if self._channel is not None:
            await self._channel.close(None)
        self._channel = None
        self._stub = None

    @property
    def stub(self) -> match_service_pb2_grpc.MatchServiceAsyncStub:
        """The stub for the current target (connecting lazily)."""
        if self._stub is None:
            target = self.targets[self._index % len(self.targets)]
            if self._credentials is not None:
                self._channel = grpc.aio.secure_channel(
                    target, self._credentials, self._options, interceptors=self._interceptors
                )
            else:
                self._channel = grpc.aio.insecure_channel(
                    target, self._options, interceptors=self._interceptors
                )
            self._stub = match_service_pb2_grpc.MatchServiceStub(self._channel)
        return self._stub

    async def _failover(self) -> None:
        """Move to the next target (or reconnect to the only one)."""
        await self.close()
        self._index += 1

    def metadata(self, token: str | None = None) -> tuple[tuple[str, str], ...]:
        pairs = []
        if token:
            pairs.append(("authorization", f"Bearer {token}"))
        if self.admin_key:
            pairs.append(("x-senet-admin-key", self.admin_key))
        if self.worker_key:
            pairs.append(("x-senet-worker-key", self.worker_key))
        return tuple(pairs)

    async def _call(
        self, invoke: Callable[[match_service_pb2_grpc.MatchServiceAsyncStub], Awaitable[T]]
    ) -> T:
        """Run a unary call; retry UNAVAILABLE, DEADLINE_EXCEEDED and CANCELLED
        with backoff and failover.

        Only calls that are safe to repeat go through the retry loop: reads, and
        writes with an idempotency key (submissions, creations, joins). A
        CANCELLED unary call may or may not have reached the server; for these
        calls that does not matter, a repeat returns the first result.
        """
        delay = _BACKOFF_START_S
        for attempt in range(self.max_attempts):
            try:
                return await invoke(self.stub)
            except grpc.aio.AioRpcError as exc:
                error = SenetRpcError.from_rpc_error(exc)
                again = error.retryable or error.code == grpc.StatusCode.CANCELLED
                if not again or attempt == self.max_attempts - 1:
                    raise error from None
            await self._failover()
            await asyncio.sleep(delay)
            delay = min(delay * 2, _BACKOFF_MAX_S)
        raise AssertionError("unreachable")

    async def _once(
        self, invoke: Callable[[match_service_pb2_grpc.MatchServiceAsyncStub], Awaitable[T]]
    ) -> T:
        """Run a unary call that must not be repeated blindly (it creates something)."""
        try:
            return await invoke(self.stub)
        except grpc.aio.AioRpcError as exc:
            raise SenetRpcError.from_rpc_error(exc) from None

    # ----------------------------------------------------------------- calls
    async def list_games(self) -> list[games_pb2.GameInfo]:
        response = await self._call(
            lambda s: s.ListGames(match_service_pb2.ListGamesRequest(), timeout=self.timeout_s)
        )
        return list(response.games)

    async def create_match(
        self,
        game_id: str,
        seats: int | Sequence[match_pb2.SeatPlan],
        *,
        options: dict[str, bool | int | str] | None = None,
        seed: int | None = None,
        bots: Sequence[str] = (),
        leave_policy: match_pb2.LeavePolicy.ValueType = match_pb2.LEAVE_POLICY_UNSPECIFIED,
        leave_bot_strategy: str = "",
        time_control: match_pb2.TimeControl | None = None,
        request_id: str | None = None,
        unlisted: bool = False,
    ) -> str:
        """Create a match; returns its id.

        ``seats`` is a count of open seats or explicit plans; ``bots`` appends bot
        seats with these strategies (played by bot workers). ``leave_policy``
        (with ``leave_bot_strategy`` for LEAVE_POLICY_BOT) says what happens to a
        seat whose player leaves once the match has started. ``time_control``
        gives the match turn clocks. ``request_id`` is the creation's idempotency
        key (random when None): retries, here or by the caller with the same key,
        return the same match and never create a second. An ``unlisted`` match is
        left out of the lobby: only those given its id find it.
        """
        plans = (
            [match_pb2.SeatPlan(kind=match_pb2.SEAT_KIND_OPEN) for _ in range(seats)]
            if isinstance(seats, int)
            else list(seats)
        )
        plans += [
            match_pb2.SeatPlan(kind=match_pb2.SEAT_KIND_BOT, bot_strategy=strategy)
            for strategy in bots
        ]
        request = match_service_pb2.CreateMatchRequest(
            game_id=game_id,
            seats=plans,
            options=_options_to_proto(options or {}),
            leave_policy=leave_policy,
            leave_bot_strategy=leave_bot_strategy,
            request_id=request_id or uuid.uuid4().hex,
            unlisted=unlisted,
        )
        if time_control is not None:
            request.time_control.CopyFrom(time_control)
        if seed is not None:
            request.seed = seed
        response = await self._call(
            lambda s: s.CreateMatch(request, timeout=self.timeout_s, metadata=self.metadata())
        )
        return response.match_id

    async def join(
        self,
        match_id: str,
        display_name: str,
        seat: int | None = None,
        *,
        request_id: str | None = None,
        entropy: str | None = None,
    ) -> SeatClient:
        """Claim a seat (the first open one when ``seat`` is None).

        ``request_id`` is the join's idempotency key (random when None): retries
        with it get the seat the first attempt claimed, with the same token.
        ``entropy`` is the seat's share of a fair match's deal (JoinMatchRequest.
        entropy); None draws 128 random bits here, so no server alone deals.
        """
        request = match_service_pb2.JoinMatchRequest(
            match_id=match_id,
            display_name=display_name,
            request_id=request_id or uuid.uuid4().hex,
            entropy=secrets.token_hex(16) if entropy is None else entropy,
        )
        if seat is not None:
            request.seat = seat
        response = await self._call(
            lambda s: s.JoinMatch(request, timeout=self.timeout_s, metadata=self.metadata())
        )
        joined = Joined(
            match_id, response.seat, response.token, response.match.seed_commitment, request.entropy
        )
        return SeatClient(self, joined)

    async def request_rematch(
        self, match_id: str, token: str, entropy: str | None = None
    ) -> SeatClient:
        """Ask for the rematch of a finished match with a seat's ``token``
        (RequestRematch): the seat kept there for that seat's player, in the
        rematch whoever asks first creates. Safe to retry: asking again gets the
        same seat and token. ``entropy`` as for :meth:`join`."""
        request = match_service_pb2.RequestRematchRequest(
            match_id=match_id, entropy=secrets.token_hex(16) if entropy is None else entropy
        )
        md = self.metadata(token)
        response = await self._call(
            lambda s: s.RequestRematch(request, timeout=self.timeout_s, metadata=md)
        )
        joined = Joined(
            response.match_id,
            response.seat,
            response.token,
            response.match.seed_commitment,
            request.entropy,
        )
        return SeatClient(self, joined)

    async def decline_rematch(self, match_id: str, token: str) -> match_pb2.MatchSummary:
        """Decline the rematch of a finished match for the player of the seat whose
        ``token`` this is (DeclineRematch): the finished match, the decline shown
        in its seats. Safe to retry."""
        request = match_service_pb2.DeclineRematchRequest(match_id=match_id)
        md = self.metadata(token)
        response = await self._call(
            lambda s: s.DeclineRematch(request, timeout=self.timeout_s, metadata=md)
        )
        return response.match

    def seat(
        self, match_id: str, seat: int, token: str, *, commitment: str = "", entropy: str = ""
    ) -> SeatClient:
        """A handle for a seat already claimed (resume after a restart); the seed
        commitment and the entropy sent, where known, let the player check the deal."""
        return SeatClient(self, Joined(match_id, seat, token, commitment, entropy))

    async def get(
        self, match_id: str, token: str | None = None
    ) -> match_service_pb2.GetMatchResponse:
        request = match_service_pb2.GetMatchRequest(match_id=match_id)
        return await self._call(
            lambda s: s.GetMatch(request, timeout=self.timeout_s, metadata=self.metadata(token))
        )

    async def export(self, match_id: str) -> match_service_pb2.ExportMatchResponse:
        request = match_service_pb2.ExportMatchRequest(match_id=match_id)
        return await self._call(lambda s: s.ExportMatch(request, timeout=self.timeout_s))

    # ----------------------------------------------------------------- lobby
    async def list_matches_page(
        self,
        *,
        game_id: str = "",
        status: MatchStatusName | None = None,
        has_open_seat: bool | None = None,
        page_size: int = 0,
        page_token: str = "",
        rated: bool | None = None,
    ) -> match_service_pb2.ListMatchesResponse:
        """One page of the lobby: public listings, newest first.

        Args:
            game_id: Only this game's matches ('' for every game).
            status: Only matches with this status.
            has_open_seat: True: only matches with a seat to join; False: only
                matches without one; None: both.
            page_size: At most this many (0: the server's default, 50; at most 200).
            page_token: The previous page's ``next_page_token`` ('' for the first),
                with the same filters.
            rated: True: only rated matches (their results settle into ratings);
                False: only casual ones; None: both.
        """
        request = _list_request(game_id, status, has_open_seat, page_size, page_token, rated)
        return await self._call(lambda s: s.ListMatches(request, timeout=self.timeout_s))

    async def list_matches(
        self,
        *,
        game_id: str = "",
        status: MatchStatusName | None = None,
        has_open_seat: bool | None = None,
        page_size: int = 0,
        limit: int | None = None,
        rated: bool | None = None,
    ) -> AsyncIterator[match_service_pb2.MatchListing]:
        """Every match of the lobby passing the filters, newest first, page after page.

        The arguments are those of :meth:`list_matches_page`; ``limit`` stops after
        that many matches. Matches created while iterating are not included (they
        are newer than the pages already read); no older match is skipped or
        repeated.
        """
        token = ""
        count = 0
        while limit is None or count < limit:
            page = await self.list_matches_page(
                game_id=game_id,
                status=status,
                has_open_seat=has_open_seat,
                page_size=page_size,
                page_token=token,
                rated=rated,
            )
            for listing in page.matches:
                if limit is not None and count >= limit:
                    return
                count += 1
                yield listing
            token = page.next_page_token
            if not token:
                return

    async def watch(
        self, match_id: str, token: str | None = None, from_version: int | None = None
    ) -> AsyncIterator[match_service_pb2.WatchMatchResponse]:
        """Stream a match, reconnecting and resuming after the last delivered version.

        Ends when the match is over (after the finishing update).
        """
        last = from_version
        delay = _BACKOFF_START_S
        while True:
            request = match_service_pb2.WatchMatchRequest(match_id=match_id)
            if last is not None:
                request.from_version = last
            call = self.stub.WatchMatch(request, metadata=self.metadata(token))
            delivered = False
            try:
                async for message in call:
                    delivered = True
                    delay = _BACKOFF_START_S
                    if message.HasField("snapshot"):
                        last = message.snapshot.match.version
                    elif message.HasField("update"):
                        last = message.update.version
                    yield message
                return
            except grpc.aio.AioRpcError as exc:
                error = SenetRpcError.from_rpc_error(exc)
                if not _stream_retryable(error, delivered):
                    raise error from None
            finally:
                call.cancel()
            await self._failover()
            await asyncio.sleep(delay)
            delay = min(delay * 2, _BACKOFF_MAX_S)


class SeatClient:
    """Acts for one seat of one match (holds the seat's token)."""

    def __init__(self, client: SenetClient, joined: Joined) -> None:
        self.client = client
        self.match_id = joined.match_id
        self.seat = joined.seat
        self.token = joined.token
        self.commitment = joined.commitment
        self.entropy = joined.entropy

    async def get(self) -> match_service_pb2.GetMatchResponse:
        return await self.client.get(self.match_id, self.token)

    async def legal_actions(self) -> match_service_pb2.ListLegalActionsResponse:
        request = match_service_pb2.ListLegalActionsRequest(match_id=self.match_id)
        md = self.client.metadata(self.token)
        return await self.client._call(
            lambda s: s.ListLegalActions(request, timeout=self.client.timeout_s, metadata=md)
        )

    async def submit(
        self,
        action: str | match_pb2.Action,
        *,
        expected_version: int | None = None,
        request_id: str | None = None,
    ) -> match_service_pb2.SubmitActionResponse:
        """Submit an action (notation or typed); retried safely with one request id."""
        request = match_service_pb2.SubmitActionRequest(
            match_id=self.match_id, request_id=request_id or uuid.uuid4().hex
        )
        if isinstance(action, str):
            request.notation = action
        else:
            request.typed.CopyFrom(action)
        if expected_version is not None:
            request.expected_version = expected_version
        md = self.client.metadata(self.token)
        return await self.client._call(
            lambda s: s.SubmitAction(request, timeout=self.client.timeout_s, metadata=md)
        )

    async def leave(self) -> match_service_pb2.LeaveMatchResponse:
        """Give up this seat for good (LeaveMatch); the token stops working.

        Not retried: a retry after a lost answer would be refused (BAD_TOKEN),
        the seat being left already.
        """
        request = match_service_pb2.LeaveMatchRequest(match_id=self.match_id)
        md = self.client.metadata(self.token)
        return await self.client._once(
            lambda s: s.LeaveMatch(request, timeout=self.client.timeout_s, metadata=md)
        )

    async def rematch(self, entropy: str | None = None) -> SeatClient:
        """Ask for the rematch of this finished match (see
        :meth:`SenetClient.request_rematch`)."""
        return await self.client.request_rematch(self.match_id, self.token, entropy)

    async def decline_rematch(self) -> match_pb2.MatchSummary:
        """Decline the rematch of this finished match (see
        :meth:`SenetClient.decline_rematch`)."""
        return await self.client.decline_rematch(self.match_id, self.token)

    def watch(
        self, from_version: int | None = None
    ) -> AsyncIterator[match_service_pb2.WatchMatchResponse]:
        """Watch with this seat's private view."""
        return self.client.watch(self.match_id, self.token, from_version)

    async def play(
        self,
        decide: Callable[[match_service_pb2.YourTurn], Awaitable[str | match_pb2.Action | None]],
        on_message: Callable[[match_service_pb2.PlayMatchResponse], Awaitable[None]] | None = None,
        compact: bool = True,
    ) -> match_service_pb2.PlayMatchResponse | None:
        """Play the seat over PlayMatch until the match ends; returns the last update.

        ``decide`` receives each YourTurn prompt and returns the action (or None to
        let the prompt pass). Submissions carry the prompt's version, so a late
        answer is refused (ABORTED) instead of applied to a newer position. The
        stream reconnects and resumes from the last version after UNAVAILABLE.

        ``compact`` (PlayHello.compact, the default) has the server send one
        message per committed action: prompts ride on updates (``turn``), and a
        committed submission's reply is its update (``request_id`` set) rather
        than a ``submitted`` message; ``on_message`` sees them so.
        """
        last_version: int | None = None
        last_update: match_service_pb2.PlayMatchResponse | None = None
        delay = _BACKOFF_START_S
        while True:
            outbox: asyncio.Queue[match_service_pb2.PlayMatchRequest] = asyncio.Queue()
            hello = match_service_pb2.PlayHello(match_id=self.match_id, compact=compact)
            if last_version is not None:
                hello.from_version = last_version
            await outbox.put(match_service_pb2.PlayMatchRequest(hello=hello))

            async def requests(
                queue: asyncio.Queue[match_service_pb2.PlayMatchRequest],
            ) -> AsyncIterator[match_service_pb2.PlayMatchRequest]:
                while True:
                    yield await queue.get()

            # Written by send_requests rather than grpc, so that a stream the
            # server ends mid-write still fails with the server's status.
            call = self.client.stub.PlayMatch(None, metadata=self.client.metadata(self.token))
            writer = asyncio.create_task(send_requests(call, requests(outbox)))
            delivered = False
            try:
                async for message in call:
                    delivered = True
                    delay = _BACKOFF_START_S
                    if on_message is not None:
                        await on_message(message)
                    kind = message.WhichOneof("message")
                    if kind == "snapshot":
                        last_version = message.snapshot.match.version
                    elif kind == "update":
                        last_version = message.update.version
                        last_update = message
                    turn = prompt_of(message)
                    if turn is not None:
                        action = await decide(turn)
                        if action is not None:
                            await outbox.put(_submission(self.match_id, action, turn.version))
                return last_update
            except grpc.aio.AioRpcError as exc:
                error = SenetRpcError.from_rpc_error(exc)
                if not _stream_retryable(error, delivered):
                    raise error from None
            finally:
                call.cancel()
                writer.cancel()
                if writer.done() and not writer.cancelled() and (bug := writer.exception()):
                    raise bug
            await self.client._failover()
            await asyncio.sleep(delay)
            delay = min(delay * 2, _BACKOFF_MAX_S)


def _stream_retryable(error: SenetRpcError, delivered: bool) -> bool:
    """Whether a failed stream should be reopened: after UNAVAILABLE or
    DEADLINE_EXCEEDED, and after CANCELLED while it had delivered nothing (gRPC
    cancels new streams under bursts before they reach the server)."""
    if error.retryable:
        return True
    return error.code == grpc.StatusCode.CANCELLED and not delivered


def _submission(
    match_id: str, action: str | match_pb2.Action, version: int
) -> match_service_pb2.PlayMatchRequest:
    submit = match_service_pb2.SubmitActionRequest(
        match_id=match_id, expected_version=version, request_id=uuid.uuid4().hex
    )
    if isinstance(action, str):
        submit.notation = action
    else:
        submit.typed.CopyFrom(action)
    return match_service_pb2.PlayMatchRequest(submit=submit)


MatchStatusName = Literal["active", "finished", "abandoned"]
#: Status names as the client library takes them, and their protocol values.
MATCH_STATUSES: dict[MatchStatusName, match_pb2.MatchStatus.ValueType] = {
    "active": match_pb2.MATCH_STATUS_ACTIVE,
    "finished": match_pb2.MATCH_STATUS_FINISHED,
    "abandoned": match_pb2.MATCH_STATUS_ABANDONED,
}


def _list_request(
    game_id: str,
    status: MatchStatusName | None,
    has_open_seat: bool | None,
    page_size: int,
    page_token: str,
    rated: bool | None = None,
) -> match_service_pb2.ListMatchesRequest:
    request = match_service_pb2.ListMatchesRequest(
        game_id=game_id, page_size=page_size, page_token=page_token
    )
    if status is not None:
        request.status = MATCH_STATUSES[status]
    if has_open_seat is not None:
        request.has_open_seat = has_open_seat
    if rated is not None:
        request.rated = rated
    return request


def describe_error(exc: BaseException) -> str:
    """One line for people, from any client error."""
    if isinstance(exc, SenetRpcError):
        return f"{exc.reason}: {exc.message}"
    return f"{type(exc).__name__}: {exc}"


# ------------------------------------------------------------ bot decisions
class BotClient:
    """A bot worker's calls of senet.v1.BotService, over a :class:`SenetClient`'s
    connection (its admin key, TLS and failover).

    Leasing calls are not retried here: a lost answer to AcquireBotDecisions only
    leaves a lease to expire, and the worker's next round asks again.
    """

    def __init__(self, client: SenetClient, worker_id: str) -> None:
        self.client = client
        self.worker_id = worker_id

    def _stub(self) -> bot_service_pb2_grpc.BotServiceAsyncStub:
        self.client.stub  # noqa: B018 - connects the channel lazily
        assert self.client._channel is not None
        return bot_service_pb2_grpc.BotServiceStub(self.client._channel)

    async def _once(
        self, invoke: Callable[[bot_service_pb2_grpc.BotServiceAsyncStub], Awaitable[T]]
    ) -> T:
        try:
            return await invoke(self._stub())
        except grpc.aio.AioRpcError as exc:
            error = SenetRpcError.from_rpc_error(exc)
            if error.retryable:
                await self.client._failover()
            raise error from None

    async def acquire(
        self, capacity: int, lease_ms: int, wait_ms: int = 0
    ) -> list[bot_service_pb2.BotDecision]:
        """Lease up to ``capacity`` due decisions, waiting up to ``wait_ms`` for one."""
        request = bot_service_pb2.AcquireBotDecisionsRequest(
            worker_id=self.worker_id, capacity=capacity, lease_ms=lease_ms, wait_ms=wait_ms
        )
        timeout = self.client.timeout_s + wait_ms / 1000
        md = self.client.metadata()
        response = await self._once(
            lambda s: s.AcquireBotDecisions(request, timeout=timeout, metadata=md)
        )
        return list(response.decisions)

    async def renew(
        self, decisions: Sequence[bot_service_pb2.BotDecisionRef], lease_ms: int
    ) -> list[bot_service_pb2.BotDecisionRef]:
        """Extend the leases still held; returns those (the others are lost)."""
        request = bot_service_pb2.RenewBotDecisionsRequest(
            worker_id=self.worker_id, decisions=decisions, lease_ms=lease_ms
        )
        md = self.client.metadata()
        response = await self._once(
            lambda s: s.RenewBotDecisions(request, timeout=self.client.timeout_s, metadata=md)
        )
        return list(response.decisions)

    async def release(self, decisions: Sequence[bot_service_pb2.BotDecisionRef]) -> None:
        """Drop decisions the worker is done with."""
        request = bot_service_pb2.ReleaseBotDecisionsRequest(
            worker_id=self.worker_id, decisions=decisions
        )
        md = self.client.metadata()
        await self._once(
            lambda s: s.ReleaseBotDecisions(request, timeout=self.client.timeout_s, metadata=md)
        )


def decision_ref(decision: bot_service_pb2.BotDecision) -> bot_service_pb2.BotDecisionRef:
    """The reference that renews or releases a leased decision."""
    return bot_service_pb2.BotDecisionRef(
        match_id=decision.match_id, seat=decision.seat, version=decision.version
    )


__all__ = [
    "MATCH_STATUSES",
    "BotClient",
    "Joined",
    "MatchStatusName",
    "SeatClient",
    "SenetClient",
    "decision_ref",
    "describe_error",
    "grpc_target",
    "split_targets",
]
