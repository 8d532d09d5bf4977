"""Archeos Society in the browser: the six site tracks with every vehicle, the
linguist track, the display and the deck, the expedition being built, your hand
and every player's expeditions, relics and professor tokens.

Display cards, hand cards, site tracks, professor tokens and the deck are board
targets: take a card by clicking it in the display, lead or add one by clicking it
in your hand, advance or move back by clicking the site, draw by clicking the deck.
"""

from __future__ import annotations

from html import escape

from senet.games.archeos.sites import (
    ADVANCED,
    COMPASS,
    LINGUIST_ARTIFACTS,
    LINGUIST_END,
    SITE_NAMES,
    Track,
)
from senet.text.archeos.names import SEAT_LETTERS, Seats
from senet.v1 import archeos_pb2 as pb
from senet.v1 import match_pb2
from senet.web.boards import svg

#: Card and site colours, in colour order (red .. purple), with the text colour
#: that reads on each (contrast 4.5:1 or better).
COLOURS: tuple[tuple[str, str, str], ...] = (
    ("red", "#b03a2e", "#ffffff"),
    ("orange", "#e67e22", "#111111"),
    ("yellow", "#f4d03f", "#111111"),
    ("green", "#1e8449", "#ffffff"),
    ("blue", "#1f5fbf", "#ffffff"),
    ("purple", "#7d3c98", "#ffffff"),
)
LETTERS = "roygbp"
#: Vehicle colours by seat: light fills, so the seat's letter (dark) reads on each.
SEAT_FILLS = ("#ffffff", "#aed6f1", "#f5b041", "#76d7c4", "#f1948a", "#d2b4de")
INK = "#1b1b1b"
LABEL_W = 150
SPACE_W = 54
ROW_H = 54
CARD_W, CARD_H = 64, 84
#: Letters of a role name that fit a card at the role's font size.
ROLE_FITS = 9
#: Vehicles on one space: a grid of columns, each vehicle clear of its neighbours.
VEHICLE_R = 7
STACK_COLUMNS = 3
STACK_DX, STACK_DY = 16, 15


def role_name(role: int) -> str:
    return pb.ArcheosRole.Name(role).removeprefix("ARCHEOS_ROLE_").title()  # type: ignore[arg-type]


def colour_index(colour: int) -> int:
    return int(colour) - int(pb.ARCHEOS_COLOUR_RED)


def card_key(prefix: str, card: pb.ArcheosCard) -> str:
    return f"{prefix}:{LETTERS[colour_index(card.colour)]}-{role_name(card.role)[:3].lower()}"


def card_name(card: pb.ArcheosCard) -> str:
    return f"{COLOURS[colour_index(card.colour)][0]} {role_name(card.role)}"


def _card(x: float, y: float, card: pb.ArcheosCard) -> list[str]:
    _, fill, ink = COLOURS[colour_index(card.colour)]
    return [
        svg.rect(x, y, CARD_W, CARD_H, rx=6, fill=fill, stroke=INK, stroke_width=1.5),
        svg.text(
            x + CARD_W / 2,
            y + 24,
            LETTERS[colour_index(card.colour)].upper(),
            class_="card-letter",
            fill=ink,
        ),
        _role_text(x + CARD_W / 2, y + 58, role_name(card.role), ink),
    ]


def _role_text(x: float, y: float, role: str, ink: str) -> str:
    """A role's whole name; a long one (Cartographer) squeezed to the card's width."""
    fit = CARD_W - 6 if len(role) > ROLE_FITS else None
    adjust = "spacingAndGlyphs" if fit else None
    return svg.text(x, y, role, class_="card-role", fill=ink, textLength=fit, lengthAdjust=adjust)


def _cards(
    cards: list[pb.ArcheosCard], prefix: str, label: str, empty: str, clickable: bool = True
) -> str:
    """A row of cards (wrapping on a phone: one small SVG per card)."""
    if not cards:
        inner = f"<p class='muted'>{escape(empty)}</p>"
        return f"<div class='cards' aria-label='{escape(label)}'>{inner}</div>"
    items = []
    for card in cards:
        parts = _card(2, 2, card)
        element = (
            svg.target(card_key(prefix, card), card_name(card), parts)
            if clickable
            else (svg.titled(card_name(card), parts))
        )
        items.append(svg.svg(CARD_W + 4, CARD_H + 4, [element], card_name(card)))
    return f"<div class='cards' aria-label='{escape(label)}'>{''.join(items)}</div>"


def _track(view: pb.ArcheosView, index: int) -> Track:
    advanced = int(view.advanced_site) - int(pb.ARCHEOS_SITE_ULURU)
    return ADVANCED[index] if advanced == index else COMPASS


def _vehicle(x: float, y: float, seat: int, viewer: int | None) -> str:
    width = 2.5 if seat == viewer else 1.2
    letter = SEAT_LETTERS[seat] if seat < len(SEAT_LETTERS) else "?"
    return svg.circle(
        x, y, VEHICLE_R, fill=SEAT_FILLS[seat % len(SEAT_FILLS)], stroke=INK, stroke_width=width
    ) + svg.text(x, y + 3.5, letter, class_="vehicle")


def stack_offset(slot: int) -> tuple[float, float]:
    """Where the ``slot``-th vehicle on a space sits, from the first: none covers another."""
    return (slot % STACK_COLUMNS) * STACK_DX, (slot // STACK_COLUMNS) * STACK_DY


def _sites(view: pb.ArcheosView, viewer: int | None) -> str:
    longest = max(len(ADVANCED[i].points) for i in range(6))
    width = LABEL_W + longest * SPACE_W + 8
    rows = 6 + (1 if view.advanced_site == pb.ARCHEOS_SITE_TA_SEKHET_MAAT else 0)
    height = rows * ROW_H + 70
    parts = [svg.rect(0, 0, width, height, fill="#f4ecd8", rx=6)]
    row = 0
    for index in range(6):
        name, fill, ink = COLOURS[index]
        track = _track(view, index)
        vehicles = [
            (p.seat, p.vehicles.sites[index]) for p in view.players if len(p.vehicles.sites) > index
        ]
        lanes = [("", vehicles)]
        if index == 2 and view.advanced_site == pb.ARCHEOS_SITE_TA_SEKHET_MAAT:
            lanes.append((":2", [(p.seat, p.vehicles.second_vehicle) for p in view.players]))
        for suffix, lane in lanes:
            y = 8 + row * ROW_H
            advanced = "advanced side" if track is not COMPASS else "compass side"
            second = ", second vehicle" if suffix else ""
            title = f"{SITE_NAMES[index]} ({name}{second}): {advanced}"
            children = [
                svg.rect(4, y, LABEL_W - 8, ROW_H - 6, rx=5, fill=fill, stroke=INK),
                svg.text(
                    12,
                    y + 24,
                    SITE_NAMES[index] if not suffix else "… 2nd vehicle",
                    class_="site-label",
                    fill=ink,
                ),
            ]
            for space, points in enumerate(track.points):
                x = LABEL_W + space * SPACE_W
                children.append(
                    svg.rect(
                        x,
                        y,
                        SPACE_W - 4,
                        ROW_H - 6,
                        rx=4,
                        fill="#fffaf0",
                        stroke=fill,
                        stroke_width=2,
                    )
                )
                children.append(svg.text(x + 4, y + 12, f"{points}", class_="track-points"))
                if space < len(track.thresholds):
                    children.append(
                        svg.text(
                            x + SPACE_W - 8,
                            y + 12,
                            f"≥{track.thresholds[space]}",
                            class_="track-need",
                        )
                    )
            stacks: dict[int, int] = {}
            for seat, space in lane:
                slot = stacks.get(space, 0)
                stacks[space] = slot + 1
                dx, dy = stack_offset(slot)
                children.append(
                    _vehicle(LABEL_W + space * SPACE_W + 9 + dx, y + 22 + dy, seat, viewer)
                )
            key = f"v:{LETTERS[index]}{'2' if suffix else ''}"
            parts.append(svg.target(key, title, children))
            row += 1
    # The linguist track.
    y = 8 + row * ROW_H + 6
    parts.append(svg.text(12, y + 22, "Linguist", class_="site-label"))
    step = (width - LABEL_W - 8) / (LINGUIST_END + 1)
    for space in range(LINGUIST_END + 1):
        left = LABEL_W + space * step
        artifact = space in LINGUIST_ARTIFACTS
        parts.append(
            svg.rect(
                left,
                y,
                step - 3,
                34,
                rx=3,
                fill="#f9e79f" if artifact else "#fffaf0",
                stroke="#7a5c1e",
            )
        )
        parts.append(svg.text(left + 3, y + 10, str(space), class_="track-points"))
    stacks = {}
    for player in view.players:
        slot = stacks.get(player.linguist, 0)
        stacks[player.linguist] = slot + 1
        parts.append(
            _vehicle(
                LABEL_W + player.linguist * step + 9 + (slot % 2) * 13,
                y + 19 + (slot // 2) * 9,
                player.seat,
                viewer,
            )
        )
    return svg.svg(width, height, parts, "The site tracks and the linguist track", wide=True)


def _supply(view: pb.ArcheosView) -> str:
    """The deck (click: draw), the season's monkeys and the professor tokens."""
    parts = []
    deck = [
        svg.rect(2, 2, CARD_W, CARD_H, rx=6, fill="#5d4037", stroke=INK),
        svg.text(2 + CARD_W / 2, 38, str(view.deck_size), class_="card-letter", fill="#ffffff"),
        svg.text(2 + CARD_W / 2, 62, "deck", class_="card-role", fill="#ffffff"),
    ]
    title = f"Deck: {view.deck_size} cards; monkeys drawn this season: {view.monkeys_drawn} of 3"
    parts.append(svg.svg(CARD_W + 4, CARD_H + 4, [svg.target("deck", title, deck)], title))
    tokens = []
    for index, token in enumerate(view.professor_supply):
        x = 4 + index * 40
        children = [
            svg.circle(x + 16, 22, 16, fill="#d5d8dc", stroke=INK),
            svg.text(x + 16, 28, str(token), class_="card-letter"),
        ]
        tokens.append(svg.target(f"t:{token}", f"Professor token {token}", children))
    if tokens:
        label = "Professor tokens not taken"
        parts.append(svg.svg(8 + 40 * len(tokens), 46, tokens, label))
    return (
        f"<div class='supply'>{''.join(parts)}<p>Season {view.season} of {view.seasons}"
        f" · monkeys drawn: {view.monkeys_drawn} of 3</p></div>"
    )


def _players(view: pb.ArcheosView, summary: match_pb2.MatchSummary, viewer: int | None) -> str:
    seats = Seats(view, summary, viewer)
    rows = []
    for player in view.players:
        who = seats.label(player.seat)
        swatch = svg.svg(22, 22, [_vehicle(11, 11, player.seat, viewer)], f"seat {player.seat}")
        expeditions = ", ".join(str(len(e.cards)) for e in player.expeditions) or "-"
        relics = ", ".join(COLOURS[colour_index(c)][0] for c in player.relics) or "-"
        known = ", ".join(card_name(c) for c in player.known_hand) or "-"
        tokens = ", ".join(str(t) for t in player.professor_tokens) or "-"
        current = (
            " class='current'"
            if view.HasField("current_seat") and (view.current_seat == player.seat)
            else ""
        )
        rows.append(
            f"<tr{current}><th scope='row'>{swatch} {escape(who)}</th><td>{player.score}</td>"
            f"<td>{player.hand_size}</td><td>{escape(known)}</td><td>{escape(expeditions)}</td>"
            f"<td>{escape(relics)}</td><td>{escape(tokens)}</td></tr>"
        )
    return (
        "<table class='players'><caption>Players: score, cards in hand (those known to all),"
        " expedition sizes this season, relics, professor tokens</caption><thead><tr>"
        "<th scope='col'>player</th><th scope='col'>pts</th><th scope='col'>hand</th>"
        "<th scope='col'>known</th><th scope='col'>exped.</th><th scope='col'>relics</th>"
        f"<th scope='col'>prof.</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


class ArcheosBoard:
    """Draws an Archeos Society view; cards, sites, tokens and the deck choose actions."""

    game_id = "archeos"

    def draw(
        self, view: match_pb2.View, summary: match_pb2.MatchSummary, viewer: int | None
    ) -> str:
        game = view.archeos
        step_name = pb.ArcheosStep.Name(game.step).removeprefix("ARCHEOS_STEP_")
        step = step_name.replace("_", " ").lower()
        expedition = list(game.expedition.cards)
        basis = pb.ArcheosBasis.Name(game.expedition.basis).removeprefix("ARCHEOS_BASIS_").lower()
        hand: list[pb.ArcheosCard] = []
        for player in game.players:
            if player.seat == viewer:
                hand = list(player.hand) + list(player.kept)
        # Your hand and the expedition first: they are what a turn is about, so they
        # belong in the first screen; the tracks follow.
        sections = [f"<p class='board-status'>Step: {escape(step)}</p>"]
        if viewer is not None:
            sections.append(
                "<div class='board-row hand-row'>"
                f"<section><h3>Your hand</h3>{_cards(hand, 'h', 'Your hand', 'No cards')}"
                "</section>"
            )
        sections.append(
            f"<section><h3>Expedition ({escape(basis) if expedition else 'none'})</h3>"
            f"{_cards(expedition, 'e', 'Expedition', 'No expedition this turn', clickable=False)}"
            "</section>"
        )
        if viewer is not None:
            sections.append("</div>")
        supply = (
            "<div class='board-row supply-row'><section><h3>Display</h3>"
            f"{_cards(list(game.display), 'd', 'Display', 'empty')}</section>"
            f"<section><h3>Deck and tokens</h3>{_supply(game)}</section></div>"
        )
        # At the start of the viewer's turn the choice is to take from the display,
        # draw from the deck or lead: the display and the deck join the first screen.
        choosing = (
            viewer is not None
            and game.step == pb.ARCHEOS_STEP_TURN
            and summary.HasField("current_seat")
            and summary.current_seat == viewer
        )
        sites = f"<div class='board-row'>{_sites(game, viewer)}</div>"
        sections += [supply, sites] if choosing else [sites, supply]
        sections.append(_players(game, summary, viewer))
        return "".join(sections)

    def targets(self, action: match_pb2.LegalAction, view: match_pb2.View) -> list[str]:
        typed = action.action.archeos
        kind = typed.kind
        if kind == pb.ARCHEOS_ACTION_KIND_TAKE:
            return [card_key("d", typed.card)]
        if kind in (
            pb.ARCHEOS_ACTION_KIND_LEAD,
            pb.ARCHEOS_ACTION_KIND_ADD,
            pb.ARCHEOS_ACTION_KIND_KEEP,
        ):
            return [card_key("h", typed.card)]
        if kind in (pb.ARCHEOS_ACTION_KIND_ADVANCE, pb.ARCHEOS_ACTION_KIND_BACK):
            return [f"v:{LETTERS[colour_index(typed.site)]}{'2' if typed.second_vehicle else ''}"]
        if kind == pb.ARCHEOS_ACTION_KIND_DRAW:
            return ["deck"]
        if kind == pb.ARCHEOS_ACTION_KIND_PROFESSOR:
            return [f"t:{typed.token}"]
        return []


#: The entry point of ``senet.web_boards`` for Archeos Society.
ARCHEOS_BOARD = ArcheosBoard()
