"""Who sits where, by name: shared by every game's drawing."""

from __future__ import annotations

from senet.v1 import match_pb2, match_service_pb2

#: The strategy prefix of a seat played by a bot registered with LadderService
#: (``remote:<bot id>``): such a seat carries its bot's name.
REMOTE_PREFIX = "remote:"


class SeatNames:
    """Display names of a match's seats (from its summary) and whose screen this is."""

    def __init__(
        self, summary: match_pb2.MatchSummary | None = None, viewer: int | None = None
    ) -> None:
        self.viewer = viewer
        self.infos: dict[int, match_pb2.SeatInfo] = (
            {info.seat: info for info in summary.seats} if summary is not None else {}
        )

    def name(self, seat: int) -> str:
        """The seat's display name, or what fills it (``random bot``, ``open seat``).

        A bot worker that claims a seat names it ``<strategy> bot``: an unclaimed
        bot seat reads the same, so a seat keeps its name all match long. A
        registered bot's seat has its bot's name from the start."""
        info = self.infos.get(seat)
        if info is None:
            return f"seat {seat}"
        if info.display_name:
            return info.display_name
        if info.kind == match_pb2.SEAT_KIND_BOT:
            return f"{info.bot_strategy} bot".strip()
        return "open seat"


def is_registered_bot(info: match_pb2.SeatInfo) -> bool:
    """Whether a bot registered with the ladder service plays the seat (its
    strategy names the bot's queue, ``remote:<bot id>``, and its name is the seat's)."""
    return info.bot_strategy.startswith(REMOTE_PREFIX)


def bot_words(info: match_pb2.SeatInfo, *, named: bool = True) -> str:
    """What plays a bot seat, in a word or two: ``bot greedy``, or for a
    registered bot its name (``bot AlphaMyk``) rather than its queue's id;
    ``registered bot`` where the seat's name is not known or, ``named`` False,
    shown beside it already."""
    if is_registered_bot(info):
        return f"bot {info.display_name}" if named and info.display_name else "registered bot"
    return f"bot {info.bot_strategy}"


def seat_kind_words(info: match_pb2.SeatInfo, place: int = 0) -> str:
    """What plays a seat now, in a word or two: ``person``, ``open``, ``reserved``,
    ``bot greedy``; ``resigned`` once its player resigned (the server plays it out,
    ranked last), ``bot random (took over)`` once a bot took it over for good.

    ``place``: the seat's place once the match is over (0 before). The last player
    to leave after every other one resigned places first: ``left, placing first``,
    as "resigned" beside first place reads as though they had given up."""
    if info.kind == match_pb2.SEAT_KIND_BOT:
        return bot_words(info, named=False)
    if info.resigned:
        return "left, placing first" if place == 1 else "resigned"
    if info.takeover_strategy:
        return f"bot {info.takeover_strategy} (took over)"
    return "person" if info.claimed else "reserved" if info.kept else "open"


def left_mark(info: match_pb2.SeatInfo) -> str:
    """What a seat's name is followed by once its player left a started match:
    `` - resigned``, `` - greedy bot``; "" while its player holds it."""
    if info.resigned:
        return " - resigned"
    if info.takeover_strategy:
        return f" - {info.takeover_strategy} bot"
    return ""


def seat_words(listing: match_service_pb2.MatchListing) -> str:
    """A listed match's seats in a few words: ``Ada, open, bot greedy``; a rematch's
    seat kept for its player ``Bob (reserved)`` until they take it."""
    words = []
    for seat in listing.seats:
        if seat.kind == match_pb2.SEAT_KIND_BOT:
            words.append(bot_words(seat))
        elif seat.claimed:
            name = seat.display_name or "person"
            words.append(f"{name} (resigned)" if seat.resigned else name)
        elif seat.kept:
            words.append(f"{seat.display_name} (reserved)")
        else:
            words.append("open")
    return ", ".join(words)


def open_seats(match: match_pb2.MatchSummary | match_service_pb2.MatchListing) -> list[int]:
    """The seats anyone may join (of a summary or a lobby listing): open, unclaimed,
    and not kept for a player of the match before (a rematch's). Bot seats are never
    open."""
    return [
        s.seat
        for s in match.seats
        if s.kind != match_pb2.SEAT_KIND_BOT and not s.claimed and not s.kept
    ]


def waiting_for_players(summary: match_pb2.MatchSummary) -> str:
    """The headline of a match that has not started, in every client's words:
    ``Waiting for players to join (2 open seats)``, and in a rematch for the
    players whose seats are kept (``Waiting for Bob to take the rematch``)."""
    count = len(open_seats(summary))
    keepers = [s.display_name for s in summary.seats if s.kept and not s.claimed]
    waits = [f"players to join ({count} open seat{'' if count == 1 else 's'})"] if count else []
    if keepers:
        waits.append(f"{' and '.join(keepers)} to take the rematch")
    return "Waiting for " + " and for ".join(waits or ["players to join (0 open seats)"])


def rematch_declined(finished: match_pb2.MatchSummary, viewer: int | None = None) -> str:
    """Who declined a finished match's rematch, as every client says it
    (``Bob declined the rematch.``; ``You declined...`` for the ``viewer``'s own
    seat); "" when nobody did."""
    names = [
        "You" if s.seat == viewer else s.display_name or f"Seat {s.seat}"
        for s in finished.seats
        if s.rematch_declined
    ]
    return f"{' and '.join(names)} declined the rematch." if names else ""


def rematch_players(rematch: match_pb2.MatchSummary) -> list[str]:
    """The players who took their seats in a rematch so far (bots are always in)."""
    return [
        s.display_name for s in rematch.seats if s.claimed and s.kind != match_pb2.SEAT_KIND_BOT
    ]
