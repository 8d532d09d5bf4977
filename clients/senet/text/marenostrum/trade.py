"""What a Mare Nostrum view says of the trade, worded once for every client that
shows it (the text client's table, the web board's panel)."""

from __future__ import annotations

from collections.abc import Iterator

from senet.v1 import mare_nostrum_pb2 as pb


def trade_under_way(view: pb.MareNostrumView) -> bool:
    """Whether there is a trade to show: a size set, or cards offered or taken."""
    return bool(view.trade.size) or any(p.face_up.cards or p.face_down.cards for p in view.players)


def traders(view: pb.MareNostrumView) -> Iterator[tuple[int, pb.MareNostrumPlayer]]:
    """Each trader's seat and player, in trading order."""
    players = {p.seat: p for p in view.players}
    for seat in view.trade.traders:
        player = players.get(seat)
        if player is not None:
            yield seat, player


def offer_progress(view: pb.MareNostrumView, player: pb.MareNostrumPlayer) -> str | None:
    """``offered 1/2 (choosing)`` while offers are made, else None."""
    if view.step != pb.MARE_NOSTRUM_STEP_OFFER:
        return None
    size = view.trade.size
    ready = "ready" if player.offer_size >= size else "choosing"
    return f"offered {player.offer_size}/{size} ({ready})"


def last_takes(view: pb.MareNostrumView) -> str:
    """The last takes, ``A took from B, ...`` ('' when none)."""
    return ", ".join(f"{t.taker} took from {t.victim}" for t in view.trade.last_takes)
