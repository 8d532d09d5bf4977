"""Start the full-screen UI from the ``senet play`` arguments.

With ``--new``, ``--join``, ``--resume`` or ``--watch`` the match is created, joined
or resumed first, in the terminal as it is (so the match id, token and resume
command stay printed above). Without them (or with ``--lobby``) the lobby screen
comes first (:class:`senet.tui.lobby.LobbyApp`, fed by ``ListMatches``): the pick is
joined (its first open seat), watched or created, then the play screen takes the
whole terminal. When it closes, the player has either left for good (the outcome
is printed) or paused (the resume command is printed while the match goes on).
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Awaitable, Callable, Sequence

from rich.console import Console

from senet.client.client import SenetClient
from senet.client.errors import SenetRpcError
from senet.text import drawing
from senet.text.app import Session, announce_seat, begin, open_session
from senet.text.cli import program
from senet.text.errors import for_people, reach
from senet.tui.app import PlayApp
from senet.tui.lobby import LobbyApp, LobbyChoice
from senet.tui.newmatch import NewMatchChoices
from senet.tui.playnow import queued_session
from senet.v1 import games_pb2, match_pb2, match_service_pb2

#: Matches the lobby lists (newest first); older ones are a ``senet matches`` away.
LOBBY_LIMIT = 200


def _say(console: Console, text: str) -> None:
    console.print(text, highlight=False, markup=False, soft_wrap=True)


async def _run_lobby(app: LobbyApp) -> LobbyChoice | None:
    return await app.run_async()


async def lobby_session(
    args: argparse.Namespace,
    client: SenetClient,
    console: Console,
    run: Callable[[LobbyApp], Awaitable[LobbyChoice | None]] = _run_lobby,
) -> Session | None:
    """Show the lobby until the player joins, watches or starts a match (None: quit).

    A join that fails (someone took the last seat meanwhile) comes back to the
    lobby with the reason. ``run`` runs the lobby's app (tests drive it with a pilot).
    """

    async def load() -> Sequence[match_service_pb2.MatchListing]:
        listings = client.list_matches(game_id=args.game, status="active", limit=LOBBY_LIMIT)
        return [listing async for listing in listings]

    async def games() -> Sequence[games_pb2.GameInfo]:
        return await client.list_games()

    note = ""
    while True:
        choice = await run(LobbyApp(load, games=games, note=note, where=args.server))
        if choice is None:
            return None
        if choice.how == "watch":
            _say(console, f"Watching match {choice.match_id}.")
            return Session(client, args.server, choice.match_id)
        if choice.how == "queue":
            known = {g.id: g for g in await client.list_games()}
            queued, note = await queued_session(
                client, args.server, args.name, known[choice.game_id], console
            )
            if queued is not None:
                return queued
            continue
        if choice.how == "new":
            if not choice.game_id:
                _say(console, f"Start a match with: {program()} play --new GAME")
                _say(console, "(the games: senet play --help and the README)")
                return None
            known = {g.id: g for g in await client.list_games()}
            fewest = known[choice.game_id].min_seats if choice.game_id in known else 2
            new = _new_match_args(args, choice.game_id, fewest)
            if choice.new is not None:
                new = _form_args(new, choice.new)
            try:
                return await open_session(new, client, console)
            except SenetRpcError as exc:  # the form's choices were refused: say why
                note = f"Could not start the match: {for_people(exc, args.server)}"
                continue
        try:
            seat = await client.join(choice.match_id, args.name)
        except SenetRpcError as exc:
            note = f"Could not join {choice.match_id}: {for_people(exc, args.server)}"
            continue
        session = Session(client, args.server, choice.match_id, seat)
        _say(console, f"Joined match {choice.match_id}.")
        announce_seat(session, console)
        return session


def _new_match_args(args: argparse.Namespace, game_id: str, fewest: int) -> argparse.Namespace:
    """``args`` as if ``--new GAME`` had been typed; with no seats asked for, the
    player and bots up to the game's fewest seats (at least one: a match that
    starts at once)."""
    new = argparse.Namespace(**vars(args))
    new.new = game_id
    new.lobby = False
    if not (args.bots or args.seats is not None or args.players is not None):
        new.bots = max(2, fewest) - 1
    return new


def _form_args(args: argparse.Namespace, form: NewMatchChoices) -> argparse.Namespace:
    """``args`` with the new-match form's answers, as the command line would give them."""
    new = argparse.Namespace(**vars(args))
    new.players = None
    new.seats = form.people
    new.bots = len(form.bots)
    new.bot_strategies = list(form.bots)
    new.option = list(form.options)
    new.decision_s, new.reserve_s, new.increment_s = (
        form.decision_s,
        form.reserve_s,
        form.increment_s,
    )
    new.seed = form.seed
    new.unlisted = form.unlisted
    return new


async def amain(args: argparse.Namespace) -> int:
    console = drawing.make_console(no_color=args.no_color)
    problem = await reach(args.server, args.tls_ca)
    if problem is not None:
        _say(console, f"senet play: {problem}")
        return 1
    async with SenetClient(args.server, admin_key=args.admin_key, tls_ca=args.tls_ca) as client:
        try:
            picked = await begin(args, client, console, lobby_session)
            if picked is None:
                return 0
            session = picked
        except SenetRpcError as exc:
            _say(console, f"senet play: {for_people(exc, args.server)}")
            return 1
        while True:
            app = PlayApp(session, charset=drawing.charset_for(console, args.ascii))
            status = await app.run_async()
            if app.next_session is None:
                break
            session = app.next_session
            _say(console, f"Rematch of {app.session.match_id}: match {session.match_id}.")
            announce_seat(session, console)
        if app.left is not None:
            _say(console, app.left)
        elif app.stopped:
            _say(console, app.stopped)  # nothing to resume
        else:
            _print_resume(console, session, app.summary)
        return status if status is not None else 0


def _print_resume(
    console: Console, session: Session, summary: match_pb2.MatchSummary | None
) -> None:
    if summary is not None and summary.status == match_pb2.MATCH_STATUS_FINISHED:
        verify = session.verify_command(summary.seed_chosen)
        _say(console, f"Check that the deal was fair with:\n  {verify}")
        rematch = session.rematch_command()
        if rematch is not None:
            _say(console, f"Play a rematch (seats move on by one) with:\n  {rematch}")
        return
    command = session.resume_command()
    if command is None or (summary is not None and summary.status != match_pb2.MATCH_STATUS_ACTIVE):
        return
    _say(console, f"Paused: your seat is kept. Resume later with:\n  {command}")


def main(args: argparse.Namespace) -> int:
    """Run ``senet play`` full screen; returns the exit status."""
    try:
        return asyncio.run(amain(args))
    except KeyboardInterrupt:
        return 130


__all__ = ["lobby_session", "main"]
