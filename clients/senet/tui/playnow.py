"""Play now from the terminal lobby: queue a rated ticket, print the wait, take the seat.

The lobby's ``p`` picks a game; :func:`queued_session` then registers a guest
identity under the player's name, follows the FindMatch stream (one line per
report, rewritten in place on a terminal: the wait and the players found) and
returns the matched seat as a :class:`~senet.text.app.Session` for the play
screen. Bots fill the empty seats
after :data:`BOT_WAIT_S`; Ctrl+C leaves the queue (closing the stream cancels
the ticket).
"""

from __future__ import annotations

from contextlib import nullcontext

from rich.console import Console

from senet.client.client import SenetClient
from senet.client.errors import SenetRpcError
from senet.client.players import PlayerClient
from senet.text.app import Session
from senet.text.errors import for_people
from senet.v1 import games_pb2
from senet.v1 import player_service_pb2 as pb

#: Seconds in the queue before bots fill the empty seats.
BOT_WAIT_S = 30.0


async def queued_session(
    client: SenetClient, server: str, name: str, game: games_pb2.GameInfo, console: Console
) -> tuple[Session | None, str]:
    """The seat the queue found (None and the reason when it failed)."""
    players = PlayerClient(client)
    try:
        await players.register_guest(name or "Guest")
        seats = (game.min_seats, game.min_seats)
        _say(
            console,
            f"Queuing for a rated {game.name} match of {game.min_seats} "
            f"(bots fill the empty seats after {BOT_WAIT_S:.0f} s; Ctrl+C leaves the queue).",
        )
        with (
            console.status("Waiting for players.") if console.is_terminal else nullcontext() as wait
        ):
            async for progress in players.find_match(
                game.id, seats=seats, rated=True, bot_fill_after_s=BOT_WAIT_S
            ):
                if progress.stage == pb.TICKET_STAGE_MATCHED:
                    seat = players.seat(progress)
                    _say(console, f"Matched: match {progress.match_id}, seat {progress.seat}.")
                    return Session(client, server, progress.match_id, seat), ""
                if progress.stage == pb.TICKET_STAGE_AWAITING_ENTROPY:
                    words = "Found: adding your entropy to the match's seed."
                else:
                    found = (
                        f", {progress.players_found} players found"
                        if progress.stage == pb.TICKET_STAGE_PLAYERS_FOUND
                        else ""
                    )
                    words = f"Waiting for players: {progress.waited_s:.0f} s{found}."
                if wait is None:
                    _say(console, words)
                else:
                    wait.update(words)
    except SenetRpcError as exc:
        return None, f"Play now failed: {for_people(exc, server)}"
    return None, "The queue closed before a match was found."


def _say(console: Console, words: str) -> None:
    console.print(words, highlight=False, markup=False)
