"""Live pages: a match's WatchMatch stream turned into server-sent events of frames.

One gRPC stream per open page. Updates that arrive together are drawn once: each
batch appends its log lines, then one ``GetMatch`` (and, on the viewer's turn, one
``ListLegalActions``) fetches what to draw, so a page never falls behind a fast
match of bots. A seat's page sends its token; a spectator's never does, so it gets
the spectator view and the spectator's redacted events, never more.

A frame whose fetch fails is fetched again until it is drawn (the page also reopens
its stream when the frame of a move it made does not come, see ``app.js``): on the
viewer's own turn no other update would come to bring it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncGenerator
from typing import Any

from senet.client import SenetClient
from senet.client.errors import SenetRpcError
from senet.v1 import match_pb2, match_service_pb2
from senet.web.errors import human
from senet.web.frames import LogEntry, frame, log_entry, update_log
from senet.web.security import SeatCookie

#: Seconds between keep-alive comments on a quiet page (proxies drop idle streams).
KEEPALIVE_S = 15.0
#: Seconds before a frame that could not be drawn is tried again (doubling each
#: failure up to ``REDRAW_MAX_S``).
REDRAW_S = 1.0
REDRAW_MAX_S = 8.0
#: Actions since the viewer's last move kept for the headline (it shows the newest).
RECENT_KEPT = 100
_END = object()


def sse(event: str, data: Any) -> str:
    """One server-sent event (JSON data on one line)."""
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


async def frames(
    client: SenetClient, match_id: str, seat: SeatCookie | None
) -> AsyncGenerator[str, None]:
    """Server-sent events for one page: ``frame`` after every batch of updates, ``end``
    once the match is over, ``problem`` when the server refuses."""
    token = seat.token if seat is not None else None
    viewer = seat.seat if seat is not None else None
    inbox: asyncio.Queue[object] = asyncio.Queue()
    view = match_pb2.View()
    summary = match_pb2.MatchSummary()

    # What happened since the viewer's own last move (a spectator: since the last frame).
    recent: list[LogEntry] = []
    # The labels of the viewer's last offered actions, by notation: the log names
    # the viewer's own move in words (a move of another seat has only its notation:
    # describing it would need the mover's view).
    labels: dict[str, str] = {}

    async def draw(log: list[str], entries: list[LogEntry]) -> str:
        """Fetch what the viewer may see now, and the frame to send."""
        nonlocal summary, view
        response = await client.get(match_id, token)
        summary, view = response.match, response.view
        legal: list[match_pb2.LegalAction] = []
        if (
            seat is not None
            and summary.status == match_pb2.MATCH_STATUS_ACTIVE
            and summary.HasField("current_seat")
            and summary.current_seat == seat.seat
        ):
            legal = list(
                (await client.seat(match_id, seat.seat, seat.token).legal_actions()).actions
            )
            labels.clear()
            labels.update((action.notation, action.label) for action in legal)
        return sse("frame", frame(summary, view, viewer, legal, log, entries, recent))

    async def pump() -> None:
        # From version 0: the page's log starts with the match's whole history.
        try:
            async for message in client.watch(match_id, token, from_version=0):
                await inbox.put(message)
        except SenetRpcError as error:
            await inbox.put(error)
        finally:
            await inbox.put(_END)

    try:
        yield await draw([], [])
    except SenetRpcError as error:
        yield sse("problem", {"message": human(error)})
        yield sse("end", {})
        return
    reader = asyncio.create_task(pump())
    # What the batches since the last frame drawn add to the page's log: kept until
    # a frame is drawn, so a failed draw loses none of it.
    log: list[str] = []
    entries: list[LogEntry] = []
    # A batch could not be drawn (the server refused or was unreachable): the frame
    # is owed, and drawn again after ``delay`` unless another batch comes first,
    # since the match may not move again (the viewer's own turn) to bring one.
    owed = False
    delay = REDRAW_S
    try:
        while True:
            try:
                first = await asyncio.wait_for(inbox.get(), delay if owed else KEEPALIVE_S)
            except TimeoutError:
                if not owed:
                    yield ": keep-alive\n\n"
                    continue
                batch: list[object] = []
            else:
                batch = [first]
                while not inbox.empty():
                    batch.append(inbox.get_nowait())
            changed = owed
            finished = False
            for message in batch:
                if message is _END:
                    finished = True
                elif isinstance(message, SenetRpcError):
                    yield sse("problem", {"message": human(message)})
                    finished = True
                elif isinstance(message, match_service_pb2.WatchMatchResponse):
                    kind = message.WhichOneof("message")
                    if kind == "update":
                        lines = update_log(message.update, view, summary, viewer)
                        label = labels.get(message.update.notation)
                        if (
                            message.update.seat == viewer
                            and label
                            and lines
                            and lines[0].endswith(message.update.notation)
                        ):
                            lines[0] = f"{lines[0]} ({label})"
                        log += lines
                        entries.append(
                            log_entry(lines, message.update.seat, message.update.notation)
                        )
                        if message.update.seat == viewer:
                            recent.clear()
                        else:
                            recent.append(entries[-1])
                            del recent[:-RECENT_KEPT]
                    changed = changed or kind in ("snapshot", "update")
            if changed:
                try:
                    drawn = await draw(log, entries)
                except SenetRpcError as error:
                    if not owed:  # said once; the page keeps it until a frame comes
                        yield sse("problem", {"message": human(error)})
                    delay = min(delay * 2, REDRAW_MAX_S) if owed else REDRAW_S
                    owed = True
                else:
                    yield drawn
                    log, entries = [], []
                    owed = False
                    if viewer is None:  # a spectator's recent actions: since this frame
                        recent.clear()
            if finished:
                yield sse("end", {})
                return
    finally:
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await reader
