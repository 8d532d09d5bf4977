"""The whole Mare Nostrum table: header, roles and gods, heroes and wonders, players
(the viewer's hand card by card, everybody else's by size), the trade, the purchase
being paid, the military phase's battles and blockade, then the map."""

from __future__ import annotations

from rich.text import Text

from senet.text.drawing import UNICODE, WIDTH, Charset, fit, hanging, match_words
from senet.text.marenostrum import board
from senet.text.marenostrum.names import (
    ROLE_SHORT,
    STEP_NAMES,
    Seats,
    card_list,
    card_name,
    cards_text,
    civ_letter,
    civ_name,
    civ_style,
    item_name,
    phase_name,
    powers_text,
    title,
    units_text,
)
from senet.text.marenostrum.trade import last_takes, offer_progress, trade_under_way, traders
from senet.v1 import mare_nostrum_pb2 as pb
from senet.v1 import match_pb2


def header_lines(
    view: pb.MareNostrumView, summary: match_pb2.MatchSummary | None, seats: Seats
) -> list[Text]:
    head = "MARE NOSTRUM: MYTHOLOGY"
    if summary is not None:
        head += f"  {match_words(summary)}"
    lines = [Text(head, style="bold reverse")]
    turn = "free set-up" if view.turn == 0 else f"Turn {view.turn}"
    line = f"{turn}  phase: {phase_name(view.phase)}"
    if view.phase == pb.MARE_NOSTRUM_PHASE_SETUP:
        line += f"  building turns {view.setup_turns}  points left {view.points_left}"
    lines.append(Text(line))
    step = STEP_NAMES.get(view.step, "?")
    if view.step == pb.MARE_NOSTRUM_STEP_OFFER and view.deciding_seats:
        who = ", ".join(seats.short(s) for s in view.deciding_seats)
        lines += hanging(Text("To move: ", style="bold"), f"{who} - {step}", WIDTH)
    elif view.HasField("current_seat"):
        lines += hanging(
            Text("To move: ", style="bold"), f"{seats.label(view.current_seat)} - {step}", WIDTH
        )
    if view.queue:
        order = " > ".join(seats.short(s) for s in view.queue)
        lines += hanging(Text("Still to play this phase: "), order, WIDTH)
    return lines


def powers_lines(view: pb.MareNostrumView, seats: Seats) -> list[Text]:
    """Roles, gods, the heroes and wonders on offer and the common stock."""
    roles = []
    for holder in view.roles:
        who = seats.short(holder.seat) if holder.HasField("seat") else "-"
        name = ROLE_SHORT[holder.role - 1] if 1 <= holder.role <= 4 else "?"
        roles.append(f"{name}: {who}")
    lines = board.flow("Roles:", roles, 7)
    if view.ishtar_role:
        lines.append(Text(f"  (Ishtar's +2 went to {ROLE_SHORT[view.ishtar_role - 1]})"))
    gods = []
    for god in view.gods:
        if god.HasField("holder"):
            gods.append(f"{god.id}: {seats.short(god.holder)}{' (used)' if god.used else ''}")
        else:
            gods.append(god.id)
    lines += board.flow("Gods:", gods, 7)
    lines += board.flow("To buy:", [*view.available, "pyramids"], 8)
    neutral = [
        f"{civ_name(c.civilization)} ({civ_letter(c.civilization)})"
        for c in view.civilizations
        if not c.absent and not c.HasField("seat")
    ]
    if neutral:
        lines += board.flow("Neutral:", neutral, 9)
    stock = view.stock
    bank = cards_text(view.bank)
    lines += hanging(
        Text("Stock: ", style="bold"),
        f"caravans {stock.caravans} markets {stock.markets} cities {stock.cities} "
        f"temples {stock.temples}.  Bank: {bank}",
        WIDTH,
    )
    return lines


def player_lines(view: pb.MareNostrumView, seats: Seats) -> list[Text]:
    """Each player: civilization, score, hand size, holdings; the viewer's own cards."""
    lines = [Text("PLAYERS  (score: heroes and wonders owned)", style="bold")]
    roles: dict[int, list[str]] = {}
    for holder in view.roles:
        if holder.HasField("seat") and 1 <= holder.role <= 4:
            roles.setdefault(holder.seat, []).append(ROLE_SHORT[holder.role - 1])
    for player in view.players:
        civ = player.civilization
        provinces = sum(1 for p in view.provinces if p.influence == civ)
        cities = sum(p.cities for p in view.provinces if p.influence == civ)
        head = Text()
        head.append(f"{civ_letter(civ)}: ", style=civ_style(civ))
        head.append(seats.label(player.seat), style="bold")
        head.append(
            f"  score {player.score}  hand {player.hand_size}  provinces {provinces}"
            f"  cities {cities}"
        )
        lines.append(fit(head, WIDTH))
        owned = " ".join(title(c) for c in player.owned) or "none"
        extra = f"owns {owned}"
        if roles.get(player.seat):
            extra += f"; roles {', '.join(roles[player.seat])}"
        held = [g.id for g in view.gods if g.HasField("holder") and g.holder == player.seat]
        if held:
            extra += f"; god {', '.join(held)}"
        if powers_text(player.powers_used):
            extra += f"; used {powers_text(player.powers_used)}"
        if player.free_builds:
            free = ", ".join(f"{item_name(f.item)} x{f.count}" for f in player.free_builds)
            extra += f"; free builds {free}"
        lines += hanging(Text("    "), extra, WIDTH)
    return lines


def hand_lines(view: pb.MareNostrumView, seats: Seats) -> list[Text]:
    """The viewer's cards (and offer): near the top, where a turn starts."""
    for player in view.players:
        if player.seat == seats.viewer:
            lines = hanging(Text("your hand: ", style="bold"), cards_text(player.hand), WIDTH)
            if player.offer.cards:
                lines += hanging(Text("  your offer: "), cards_text(player.offer), WIDTH)
            return lines
    return []


def trade_lines(view: pb.MareNostrumView, seats: Seats) -> list[Text]:
    """The trade of this commerce phase: size, offers, face-up and taken cards."""
    trade = view.trade
    if not trade_under_way(view):
        return []
    lines = [Text(f"TRADE  {trade.size} card(s) each", style="bold")]
    for seat, player in traders(view):
        progress = offer_progress(view, player)
        parts = [] if progress is None else [progress]
        if player.face_up.cards:
            parts.append(f"face up: {cards_text(player.face_up)}")
        if player.face_down.cards:
            parts.append(f"taken: {cards_text(player.face_down)}")
        lines += hanging(Text(f"  {seats.short(seat)}: "), "; ".join(parts) or "-", WIDTH)
    if trade.HasField("taker"):
        lines.append(Text(f"  Taking next: {seats.short(trade.taker)}", style="bold"))
    if trade.last_takes:
        takes = last_takes(view)
        lines += hanging(Text("  Last takes (no pair twice in a row): "), takes, WIDTH)
    return lines


def purchase_lines(view: pb.MareNostrumView) -> list[Text]:
    if not view.HasField("purchase"):
        return []
    purchase = view.purchase
    what = _purchase_text(purchase)
    paid = card_list(view.paid)
    return hanging(
        Text("PAYING ", style="bold"),
        f"{what}: {view.pay_left} card(s) left; paid so far {paid} (one set: tax only or "
        "different commodities)",
        WIDTH,
    )


def _purchase_text(action: pb.MareNostrumAction) -> str:
    kind = action.kind
    if kind == pb.MARE_NOSTRUM_ACTION_KIND_BUILD:
        text = f"{item_name(action.item)} in {action.space}"
        if action.commodity:
            text += f" ({card_name(action.commodity)})"
        return text
    if kind == pb.MARE_NOSTRUM_ACTION_KIND_BUY:
        return title(action.card_id)
    if kind == pb.MARE_NOSTRUM_ACTION_KIND_GOD:
        return f"an offering to {title(action.god)}"
    if kind == pb.MARE_NOSTRUM_ACTION_KIND_CONVERT:
        return f"the conversion of {action.space}"
    return "a purchase"


def military_lines(view: pb.MareNostrumView, seats: Seats) -> list[Text]:
    """Battles fought this military turn, those still pending, losses, the Sphinx's and
    the Hydra's marks, the crossing being declared or blockaded."""
    lines: list[Text] = []
    if view.fought:
        fought = ", ".join(f"{f.space} vs {civ_name(f.enemy)}" for f in view.fought)
        lines += hanging(Text("Fought this turn: "), fought, WIDTH)
    if view.pending:
        lines += hanging(Text("Battles to resolve in: "), " ".join(view.pending), WIDTH)
    for loss in view.losses:
        lines.append(
            Text(f"Losses: {civ_name(loss.civilization)} loses {loss.count} in {loss.space}")
        )
    if view.regrown:
        hydras = ", ".join(civ_name(c) for c in view.regrown)
        lines += hanging(Text("Hydra already rolled to regrow in this battle: "), hydras, WIDTH)
    if view.after_battle and view.step == pb.MARE_NOSTRUM_STEP_OCCUPATION:
        lines.append(Text(f"Occupying {view.after_battle}: putting the units on its buildings"))
    elif view.after_battle:
        if view.after_battle in view.cursed:
            lines.append(Text(f"After the battle in {view.after_battle}: only occupy"))
        else:
            lines.append(Text(f"After the battle in {view.after_battle}: sack, occupy or convert"))
    if view.cursed:
        lines += hanging(
            Text("Sphinx's riddle (occupy only, no sack or conversion) in: "),
            " ".join(view.cursed),
            WIDTH,
        )
    if view.HasField("blockade"):
        b = view.blockade
        chain = " ".join(b.chain)
        hit = f"; attacked in {' '.join(b.attacked)}" if b.attacked else ""
        units = units_text(b.legions, b.creatures)
        crossing = f"{units} crossing {b.start} -> {b.end} over {chain}{hit}"
        if view.step == pb.MARE_NOSTRUM_STEP_DECLARE:
            crossing += " (more units of the province may join, then done)"
        lines += hanging(Text("Blockade: ", style="bold"), crossing, WIDTH)
    return lines


def end_lines(view: pb.MareNostrumView, seats: Seats) -> list[Text]:
    if view.step != pb.MARE_NOSTRUM_STEP_OVER:
        return []
    if view.HasField("winner"):
        return [Text(f"Game over: {seats.label(view.winner)} wins.", style="bold")]
    return [Text("Game over: the turn limit ended the match.", style="bold")]


def match_lines(
    view: pb.MareNostrumView,
    summary: match_pb2.MatchSummary | None = None,
    viewer: int | None = None,
    cs: Charset = UNICODE,
) -> list[Text]:
    """The whole table. What a turn is played with comes first, so that it fits one
    80x24 screen with the board zoomed: the seat's hand, the trade, the purchase or
    battle under way and the seat's provinces with their neighbours; then the
    roles, gods and stock, the players, and the map overview with its details."""
    seats = Seats(view, summary, viewer)
    lines = header_lines(view, summary, seats)
    lines += end_lines(view, seats)
    lines += hand_lines(view, seats)
    lines += trade_lines(view, seats)
    lines += purchase_lines(view)
    lines += military_lines(view, seats)
    lines += board.province_view_lines(view, seats)
    lines += powers_lines(view, seats)
    lines += player_lines(view, seats)
    lines += board.overview_lines(view)
    lines += board.detail_lines(view, seats)
    return [fit(line, WIDTH) for line in lines]
