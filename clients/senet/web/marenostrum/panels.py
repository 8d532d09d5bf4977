"""The panels around the Mare Nostrum map: the turn, the players, the viewer's own hand
and offer, the trade, the gods, the heroes and wonders on offer, and the military phase.

Everything comes from the view the page's viewer may see. Another seat's hand and
pending offer are shown as sizes only, whatever the view holds: the hand and offer
sections are drawn for the player whose seat is the viewer, never for another
(a spectator gets neither), and they carry ``data-hand`` / ``data-offer`` with that
seat so tests can tell.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from html import escape

from senet.games.marenostrum.tokens import VICTORY_CARDS, VICTORY_CARDS_LONG
from senet.text.marenostrum.names import (
    ROLE_SHORT,
    STEP_NAMES,
    Seats,
    card_list,
    card_name,
    cards_text,
    civ_name,
    item_name,
    phase_name,
    powers_text,
    title,
    units_text,
)
from senet.text.marenostrum.trade import last_takes, offer_progress, trade_under_way, traders
from senet.v1 import mare_nostrum_pb2 as pb
from senet.v1 import match_pb2
from senet.web.boards import svg
from senet.web.marenostrum import glyphs
from senet.web.marenostrum.style import INK, civ_colours, civ_letter
from senet.web.marenostrum.targets import card_key, god_key, hand_key, player_key, take_key


def victory_target(summary: match_pb2.MatchSummary) -> int:
    """Heroes and wonders that win (the long game needs one more)."""
    option = summary.options.get("long_game")
    return VICTORY_CARDS_LONG if option is not None and option.bool_value else VICTORY_CARDS


def status_html(view: pb.MareNostrumView, seats: Seats) -> str:
    """Turn, phase, what is being decided and by whom, who plays next in this phase."""
    turn = "Free set-up" if view.turn == 0 else f"Turn {view.turn}"
    words = [f"{turn} · {phase_name(view.phase)}", STEP_NAMES.get(view.step, "")]
    if view.phase == pb.MARE_NOSTRUM_PHASE_SETUP:
        words.append(f"building turns {view.setup_turns}, {view.points_left} points left")
    if view.step == pb.MARE_NOSTRUM_STEP_OFFER and view.deciding_seats:
        words.append("offering: " + ", ".join(seats.short(s) for s in view.deciding_seats))
    elif view.HasField("current_seat"):
        words.append(f"to move: {seats.label(view.current_seat)}")
    if len(view.queue) > 1:
        words.append("then " + " > ".join(seats.short(s) for s in view.queue[1:]))
    if view.step == pb.MARE_NOSTRUM_STEP_OVER:
        words.append(
            f"{seats.label(view.winner)} wins"
            if view.HasField("winner")
            else "the turn limit ended the match"
        )
    return f"<p class='board-status'>{escape(' · '.join(w for w in words if w))}</p>"


def _swatch(seat: int, civ: int, viewer: int | None) -> str:
    """The player's clickable swatch (``next``, ``grant`` choose a player)."""
    colours = civ_colours(civ)
    width = 3 if seat == viewer else 1.5
    children = [
        svg.circle(13, 13, 11, fill=colours.strong, stroke=INK, stroke_width=width),
        svg.text(13, 17.5, civ_letter(civ), class_="mn-swatch", fill=colours.ink),
    ]
    label = f"{civ_name(civ)}, seat {seat}"
    return svg.svg(26, 26, [svg.target(player_key(seat), label, children)], label)


def _progress(score: int, needed: int) -> str:
    """One box per hero or wonder needed to win, filled for those owned."""
    boxes = [
        svg.rect(
            2 + i * 12,
            3,
            10,
            12,
            rx=2,
            fill="#b8860b" if i < score else "#ffffff",
            stroke=INK,
            stroke_width=1,
        )
        for i in range(max(needed, score))
    ]
    label = f"{score} of {needed} heroes and wonders"
    return svg.svg(4 + 12 * max(needed, score), 18, [svg.titled(label, boxes)], label)


def players_html(view: pb.MareNostrumView, seats: Seats, needed: int) -> str:
    """Every player: roles, victory progress, cards, provinces and cities, holdings."""
    roles: dict[int, list[str]] = {}
    for holder in view.roles:
        if holder.HasField("seat") and 1 <= holder.role <= len(ROLE_SHORT):
            roles.setdefault(holder.seat, []).append(ROLE_SHORT[holder.role - 1])
    rows = []
    for player in view.players:
        civ = player.civilization
        provinces = sum(1 for p in view.provinces if p.influence == civ)
        cities = sum(p.cities for p in view.provinces if p.influence == civ)
        gods = [
            title(g.id) + (" (used)" if g.used else "")
            for g in view.gods
            if g.HasField("holder") and g.holder == player.seat
        ]
        extra = []
        if powers_text(player.powers_used):
            extra.append(f"used: {powers_text(player.powers_used)}")
        if player.free_builds:
            extra.append(
                "free: " + ", ".join(f"{item_name(f.item)} x{f.count}" for f in player.free_builds)
            )
        cards = str(player.hand_size)
        if player.offer_size:
            cards += f" (+{player.offer_size} offered)"
        current = " class='current'" if player.seat in view.deciding_seats else ""
        rows.append(
            f"<tr{current}><th scope='row'>{_swatch(player.seat, civ, seats.viewer)} "
            f"{escape(seats.label(player.seat))}</th>"
            f"<td>{escape(', '.join(roles.get(player.seat, [])) or '-')}</td>"
            f"<td class='mn-victory'>{_progress(player.score, needed)} {player.score}/{needed}</td>"
            f"<td>{escape(cards)}</td><td>{provinces}</td><td>{cities}</td>"
            f"<td>{escape(', '.join(title(c) for c in player.owned) or '-')}</td>"
            f"<td>{escape(', '.join(gods) or '-')}"
            f"{escape('; ' + '; '.join(extra)) if extra else ''}</td></tr>"
        )
    return (
        "<table class='players mn-players'><caption>Players: roles, heroes and wonders "
        f"towards the {needed} that win (or the Pyramids), cards in hand, provinces, cities, "
        "heroes and wonders owned, gods held</caption><thead><tr><th scope='col'>player</th>"
        "<th scope='col'>roles</th><th scope='col'>victory</th><th scope='col'>cards</th>"
        "<th scope='col'>prov.</th><th scope='col'>cities</th><th scope='col'>owns</th>"
        f"<th scope='col'>gods</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


def _card_chips(
    cards: pb.MareNostrumCards, key_of: Callable[[int], str] | None = None, label: str = ""
) -> str:
    """One small SVG per card type (so a row wraps on a phone); a target when keyed."""
    items = []
    for entry in cards.cards:
        words = card_name(entry.card) + (f" x{entry.count}" if entry.count > 1 else "")
        fill = "#fff3c4" if entry.card == pb.MARE_NOSTRUM_CARD_TAX else "#ffffff"
        width = len(words) * 7.8 + 14
        children = [
            svg.rect(2, 2, width, 26, rx=5, fill=fill, stroke=INK, stroke_width=1.2),
            svg.text(9, 20, words, class_="mn-card"),
        ]
        name = f"{label}: {words}" if label else words
        element = (
            svg.target(key_of(entry.card), name, children)
            if key_of is not None
            else svg.titled(name, children)
        )
        items.append(svg.svg(width + 4, 30, [element], name))
    return "".join(items) or "<span class='muted'>none</span>"


def own_cards_html(view: pb.MareNostrumView, viewer: int | None) -> str:
    """The viewer's hand (its cards choose offers, payments, swaps) and pending offer."""
    if viewer is None:
        return ""
    mine = next((p for p in view.players if p.seat == viewer), None)
    if mine is None:
        return ""
    out = (
        f"<section class='mn-hand' data-hand='{viewer}'><h3>Your hand ({mine.hand_size})</h3>"
        f"<div class='cards'>{_card_chips(mine.hand, hand_key, 'Your hand')}</div></section>"
    )
    if mine.offer.cards:
        out += (
            f"<section class='mn-offer' data-offer='{viewer}'><h3>Your offer</h3>"
            f"<div class='cards'>{_card_chips(mine.offer, None, 'Your offer')}</div></section>"
        )
    return out


def trade_html(view: pb.MareNostrumView, seats: Seats) -> str:
    """The trade: each trader's offer as a size while hidden, face up once revealed
    (a face-up card is a target: the take chain takes it)."""
    trade = view.trade
    if not trade_under_way(view):
        return ""
    rows = []
    for seat, player in traders(view):
        progress = offer_progress(view, player)
        cells = [] if progress is None else [progress]
        face_up = ""
        if player.face_up.cards:
            face_up = _card_chips(
                player.face_up,
                partial(take_key, seat),
                f"{seats.short(seat)} offers",
            )
        if player.face_down.cards:
            cells.append(f"taken: {cards_text(player.face_down)}")
        rows.append(
            f"<li><strong>{escape(seats.short(seat))}</strong> "
            f"{escape('; '.join(cells))}<div class='cards'>{face_up}</div></li>"
        )
    lines = [f"{trade.size} card(s) each"] if trade.size else []
    if trade.HasField("taker"):
        lines.append(f"taking next: {seats.short(trade.taker)}")
    if trade.last_takes:
        lines.append(f"last takes (no pair twice in a row): {last_takes(view)}")
    return (
        f"<section class='mn-trade'><h3>Trade</h3><p>{escape(' · '.join(lines))}</p>"
        f"<ul class='mn-list'>{''.join(rows)}</ul></section>"
    )


def gods_html(view: pb.MareNostrumView, seats: Seats) -> str:
    """The eight gods (targets: an offering, or a held god's power) and their holders."""
    items = []
    for god in view.gods:
        held = god.HasField("holder")
        civ = seats.civs.get(god.holder, 0) if held else 0
        colours = civ_colours(civ)
        who = seats.short(god.holder) if held else "in the heavens"
        state = " (used)" if god.used else ""
        children = [
            svg.rect(
                2,
                2,
                84,
                40,
                rx=6,
                fill="#fffaf0" if not god.used else "#dddddd",
                stroke=INK,
                stroke_width=1.2,
            ),
            svg.text(44, 19, title(god.id), class_="mn-god"),
        ]
        if held:
            drawn, _ = glyphs.chip(8, 37, f"{civ_letter(civ)}{state}", colours.strong, colours.ink)
            children.append(drawn)
        label = f"{title(god.id)}: {who}{state}"
        items.append(svg.svg(88, 44, [svg.target(god_key(god.id), label, children)], label))
    return (
        f"<section class='mn-gods'><h3>Gods</h3><div class='cards'>{''.join(items)}</div></section>"
    )


def market_html(view: pb.MareNostrumView) -> str:
    """The heroes and wonders on offer, and the Pyramids (targets: buy)."""
    items = []
    for card_id in [*view.available, "pyramids"]:
        name = title(card_id)
        width = len(name) * 8.0 + 16
        children = [
            svg.rect(
                2,
                2,
                width,
                26,
                rx=5,
                fill="#f3e5ab" if card_id == "pyramids" else "#ffffff",
                stroke="#7a5c1e",
                stroke_width=1.2,
            ),
            svg.text(10, 20, name, class_="mn-card"),
        ]
        label = f"Buy {name}"
        items.append(
            svg.svg(width + 4, 30, [svg.target(card_key(card_id), label, children)], label)
        )
    return (
        "<section class='mn-market'><h3>Heroes and wonders to buy</h3>"
        f"<div class='cards'>{''.join(items)}</div></section>"
    )


def _purchase(view: pb.MareNostrumView) -> str:
    action = view.purchase
    kind = action.kind
    if kind == pb.MARE_NOSTRUM_ACTION_KIND_BUILD:
        what = f"{item_name(action.item)} in {action.space}"
        if action.commodity:
            what += f" ({card_name(action.commodity)})"
    elif kind == pb.MARE_NOSTRUM_ACTION_KIND_BUY:
        what = title(action.card_id)
    elif kind == pb.MARE_NOSTRUM_ACTION_KIND_GOD:
        what = f"an offering to {title(action.god)}"
    elif kind == pb.MARE_NOSTRUM_ACTION_KIND_CONVERT:
        what = f"the conversion of {action.space}"
    else:
        what = "a purchase"
    paid = len(view.paid)
    return (
        f"Paying for {what}: costs {paid + view.pay_left} card(s); paid {paid}"
        f"{' (' + card_list(view.paid) + ')' if paid else ''}, {view.pay_left} left"
        f" · {PAYMENT_RULE}"
    )


#: What limits a payment's cards (the rules core's ``holds_set``).
PAYMENT_RULE = "one set: tax cards only, or commodities all different"
#: What limits the next card of a hidden offer (the rules core's ``offer_cards``).
OFFER_RULE = (
    "cards go in in card order, tax first, then the commodities; a card may go in only "
    "while enough cards of its kind or later are left to finish the offer"
)


def rule_html(view: pb.MareNostrumView, viewer: int | None) -> str:
    """The rule that limits the viewer's choice now, with the running count: the hidden
    offer (how many of how many, in which order) or the payment (cost, paid, left)."""
    if viewer is None:
        return ""
    mine = next((p for p in view.players if p.seat == viewer), None)
    if mine is None:
        return ""
    text = ""
    if view.step == pb.MARE_NOSTRUM_STEP_OFFER and viewer in view.deciding_seats:
        offered = sum(entry.count for entry in mine.offer.cards)
        text = (
            f"Offering: {offered} of {view.trade.size} card(s) chosen, "
            f"{view.trade.size - offered} to go. Rule: {OFFER_RULE}."
        )
    elif (
        view.HasField("purchase") and view.HasField("current_seat") and view.current_seat == viewer
    ):
        text = _purchase(view) + "."
    if not text:
        return ""
    return f"<p class='mn-rule' role='note'>{escape(text)}</p>"


def doings_html(view: pb.MareNostrumView, seats: Seats) -> str:
    """What is under way: a purchase being paid, battles and their aftermath, a blockade."""
    lines = []
    if view.HasField("purchase"):
        lines.append(_purchase(view))
    if view.fought:
        lines.append(
            "Fought this turn: "
            + ", ".join(f"{f.space} vs {civ_name(f.enemy)}" for f in view.fought)
        )
    if view.pending:
        lines.append("Battles to resolve in: " + " ".join(view.pending))
    for loss in view.losses:
        lines.append(f"Losses: {civ_name(loss.civilization)} loses {loss.count} in {loss.space}")
    if view.regrown:
        lines.append(
            "Hydra already rolled to regrow: " + ", ".join(civ_name(c) for c in view.regrown)
        )
    if view.after_battle and view.step == pb.MARE_NOSTRUM_STEP_OCCUPATION:
        lines.append(f"Occupying {view.after_battle}: putting the units on its buildings")
    elif view.after_battle:
        choice = "only occupy" if view.after_battle in view.cursed else "sack, occupy or convert"
        lines.append(f"After the battle in {view.after_battle}: {choice}")
    if view.cursed:
        lines.append("Sphinx's riddle (occupy only) in: " + " ".join(view.cursed))
    if view.HasField("blockade"):
        b = view.blockade
        hit = f"; attacked in {' '.join(b.attacked)}" if b.attacked else ""
        lines.append(
            f"Blockade: {units_text(b.legions, b.creatures)} crossing {b.start} → {b.end} over "
            f"{' '.join(b.chain)}{hit}"
        )
    if not lines:
        return ""
    items = "".join(f"<li>{escape(line)}</li>" for line in lines)
    return (
        f"<section class='mn-doings'><h3>Under way</h3><ul class='mn-list'>{items}</ul></section>"
    )


def supply_html(view: pb.MareNostrumView, seats: Seats) -> str:
    """The common stock, the bank, Ishtar's mark, neutral civilizations and creatures."""
    stock = view.stock
    lines = [
        f"Stock: caravans {stock.caravans}, markets {stock.markets}, cities {stock.cities}, "
        f"temples {stock.temples}",
        f"Bank: {cards_text(view.bank)}",
    ]
    if view.ishtar_role:
        lines.append(f"Ishtar's +2 went to {ROLE_SHORT[view.ishtar_role - 1]}")
    neutral = [
        civ_name(c.civilization)
        for c in view.civilizations
        if not c.absent and not c.HasField("seat")
    ]
    if neutral:
        lines.append("Neutral: " + ", ".join(neutral))
    creatures = ", ".join(
        f"{civ_letter(c.civilization)} {title(c.creature)}"
        for c in view.civilizations
        if c.creature
    )
    if creatures:
        lines.append(f"Creatures (C on the map): {creatures}")
    items = "".join(f"<li>{escape(line)}</li>" for line in lines)
    return f"<section class='mn-supply'><h3>Supply</h3><ul class='mn-list'>{items}</ul></section>"
