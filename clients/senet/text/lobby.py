"""The lobby in a terminal: a table of matches, and picking one to join or watch.

``senet matches`` prints :func:`listing_table`; ``senet play`` without ``--new``,
``--join``, ``--resume`` or ``--watch`` (or with ``--lobby``) runs :func:`pick`:
the matches still being played, newest first, numbered, one page at a time in
24 rows. Typing a number joins that match (or watches it when no seat is open),
``w`` and a number watches it, ``n`` shows the next page, ``r`` starts again
from the newest, ``q`` leaves.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from senet.client.client import SenetClient
from senet.client.errors import SenetRpcError
from senet.text import seat_names
from senet.text.seat_names import seat_words
from senet.v1 import games_pb2, match_pb2, match_service_pb2

#: Matches per page in the picker: with the table's header and the prompt, a
#: page fits a 24-row terminal.
PICK_PAGE = 12
_STATUS_NAME = {
    match_pb2.MATCH_STATUS_ACTIVE: "active",
    match_pb2.MATCH_STATUS_FINISHED: "finished",
    match_pb2.MATCH_STATUS_ABANDONED: "abandoned",
}


def open_seats(listing: match_service_pb2.MatchListing) -> int:
    """Seats a person may still join."""
    return len(seat_names.open_seats(listing))


def status_word(listing: match_service_pb2.MatchListing) -> str:
    """``waiting`` for an active match with an open seat, else the status."""
    status = _STATUS_NAME.get(listing.status, "?")
    if status == "active" and open_seats(listing):
        return "waiting"
    return status


def variant_names(games: Sequence[games_pb2.GameInfo]) -> dict[str, list[str]]:
    """Each game's variant options (from ListGames), to name the variants a match plays."""
    return {g.id: [o.name for o in g.options if o.variant] for g in games}


def game_words(
    listing: match_service_pb2.MatchListing, variants: Mapping[str, Sequence[str]]
) -> str:
    """The game and the variants switched on, and whether the match is rated:
    ``mykerinos+nile+quick``, ``archeos rated``."""
    on = [
        name
        for name in variants.get(listing.game_id, ())
        if name in listing.options and listing.options[name].bool_value
    ]
    return "+".join([listing.game_id, *on]) + (" rated" if listing.rated else "")


def age(created_time_ms: int, now: float | None = None) -> str:
    """How long ago, in one unit: ``45s``, ``12m``, ``3h``, ``2d``."""
    seconds = max(0, int((time.time() if now is None else now) - created_time_ms / 1000))
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


def listing_table(
    listings: Sequence[match_service_pb2.MatchListing],
    *,
    first_number: int | None = None,
    variants: Mapping[str, Sequence[str]] | None = None,
    ascii_only: bool = False,
    now: float | None = None,
) -> Table:
    """The matches as a table for 80 columns; numbered from ``first_number`` if set.

    ``variants`` (from :func:`variant_names`) names the variants each match plays.
    """
    table = Table(
        box=box.ASCII if ascii_only else box.SIMPLE_HEAD,
        pad_edge=False,
        show_edge=False,
        expand=True,  # the seats take what the other columns leave
        # The box's own column separator is the gap on the left; 80 columns are few.
        padding=(0, 1) if ascii_only else (0, 1, 0, 0),
    )
    if first_number is not None:
        table.add_column("#", justify="right", no_wrap=True, min_width=2)
    table.add_column("match", no_wrap=True, min_width=16)
    table.add_column("game", no_wrap=True, max_width=18, overflow="ellipsis")
    table.add_column("status", no_wrap=True, min_width=8)
    table.add_column("seats", no_wrap=True, ratio=1, min_width=8, overflow="ellipsis")
    table.add_column("moves", justify="right", no_wrap=True, min_width=5)
    table.add_column("age", justify="right", no_wrap=True, min_width=3)
    for index, listing in enumerate(listings):
        row = [
            listing.match_id,
            game_words(listing, variants or {}),
            status_word(listing),
            seat_words(listing),
            str(listing.version),
            age(listing.created_time_ms, now),
        ]
        if first_number is not None:
            row.insert(0, str(first_number + index))
        table.add_row(*(Text(cell) for cell in row))
    return table


# ------------------------------------------------------------------ the picker
@dataclass(frozen=True)
class Picked:
    """What the player chose: a seat joined (with its token), or a match to watch."""

    match_id: str
    seat: int | None = None
    token: str | None = None


def wanted(args: argparse.Namespace) -> bool:
    """Whether ``senet play`` starts in the lobby (asked for, or no other way given)."""
    named = args.new or args.join or args.resume or args.rematch or args.watch
    return bool(args.lobby) or not named


async def read_line() -> str | None:
    """A line from stdin without blocking the event loop (None at the end of input)."""
    line = await asyncio.to_thread(sys.stdin.readline)
    return line.rstrip("\r\n") if line else None


async def pick(
    client: SenetClient,
    console: Console,
    *,
    name: str,
    game_id: str = "",
    ascii_only: bool = False,
    read: Callable[[], Awaitable[str | None]] = read_line,
) -> Picked | None:
    """Show the lobby page by page until the player joins or watches a match (None: quit)."""

    def say(text: str, style: str = "") -> None:
        console.print(text, style=style or None, highlight=False, markup=False, soft_wrap=True)

    variants = variant_names(await client.list_games())
    token = ""
    first = 1
    while True:
        page = await client.list_matches_page(
            game_id=game_id, status="active", page_size=PICK_PAGE, page_token=token
        )
        shown = list(page.matches)
        where = f" of {game_id}" if game_id else ""
        if not shown:
            say(f"No match{where} is being played on this server.")
            say("Start one with: senet play --new GAME (see senet play --help)")
        else:
            say(f"Matches{where} being played, newest first:")
            table = listing_table(
                shown, first_number=first, variants=variants, ascii_only=ascii_only
            )
            console.print(table)
        more = " n next page," if page.next_page_token else ""
        while True:
            console.print(
                Text(f"Number to join, w NUMBER to watch,{more} r refresh, q quit > ", "bold"),
                end="",
            )
            console.file.flush()
            line = await read()
            if line is None:
                return None
            answer = line.strip().lower()
            if answer in ("q", "quit", "exit"):
                return None
            if answer in ("r", "refresh", ""):
                token, first = "", 1
                break
            if answer in ("n", "next") and page.next_page_token:
                token, first = page.next_page_token, first + len(shown)
                break
            watch = answer.startswith("w")
            number = answer.removeprefix("w").strip()
            index = int(number) - first if number.isdigit() else -1
            if not 0 <= index < len(shown):
                say("Type one of the numbers shown, w and a number, r or q.", "bold red")
                continue
            listing = shown[index]
            if watch or not open_seats(listing):
                if not watch:
                    say(f"Match {listing.match_id} has no open seat: watching it.")
                return Picked(listing.match_id)
            try:
                seat = await client.join(listing.match_id, name)
            except SenetRpcError as exc:
                say(f"Could not join: {exc.reason}: {exc.message}", "bold red")
                token, first = "", 1
                break
            return Picked(listing.match_id, seat.seat, seat.token)


__all__ = [
    "PICK_PAGE",
    "Picked",
    "age",
    "game_words",
    "listing_table",
    "pick",
    "variant_names",
    "wanted",
]
