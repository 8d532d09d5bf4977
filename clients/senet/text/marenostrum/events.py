"""The log: one line per committed action, then one per event.

Every event kind has its line, private ones included (a hand's own revenue, offered
card and drawn card reach only that hand's seat, so their line says ``You``).
Battles read ``Battle in etru: Rome 14 - Greece 9; Rome loses 1, Greece 2``: the
view carries each side's total (dice, sixes and bonuses), not the single dice.
"""

from __future__ import annotations

from collections.abc import Sequence

from senet.games.wording import a_or_an
from senet.text.marenostrum.names import (
    Seats,
    card_name,
    cards_text,
    civ_name,
    item_name,
    phase_name,
    role_name,
    title,
    unit_name,
    units_text,
)
from senet.v1 import mare_nostrum_pb2 as pb
from senet.v1 import match_pb2

K = pb.MareNostrumEventKind

REASONS = {
    "pyramids": "raised the Pyramids",
    "heroes_and_wonders": "gathered enough heroes and wonders",
    "turn_limit": "the turn limit",
}


def _total(total: int, dice: Sequence[int]) -> str:
    """A side's total with the faces it rolled: ``9 (rolled 3 6)``."""
    return f"{total} (rolled {' '.join(map(str, dice))})" if dice else str(total)


def _battle(event: pb.MareNostrumEvent, naval: bool, seats: Seats) -> str:
    b = event.battle
    where = "Naval battle" if naval else "Battle"
    attacker, defender = civ_name(b.attacker), civ_name(b.defender)
    attack, defence = _total(b.attack, b.attack_dice), _total(b.defence, b.defence_dice)
    return (
        f"{where} in {b.space}: {attacker} {attack} - {defender} {defence}; "
        f"{attacker} loses {b.attacker_losses}, {defender} {b.defender_losses}."
    )


def describe_event(event: pb.MareNostrumEvent, seats: Seats) -> str | None:
    """One line for the log, or None for an unknown kind (a newer server)."""
    who = seats.label(event.seat) if event.HasField("seat") else ""
    mine = event.HasField("seat") and event.seat == seats.viewer
    other = seats.short(event.other_seat) if event.HasField("other_seat") else "?"
    kind = event.kind
    if kind == K.MARE_NOSTRUM_EVENT_KIND_ROLES_ASSIGNED:
        parts = [
            f"{role_name(r.role)} {seats.short(r.seat) if r.HasField('seat') else '-'}"
            for r in event.roles
        ]
        return "Roles: " + ", ".join(parts) + "."
    if kind == K.MARE_NOSTRUM_EVENT_KIND_TURN_STARTED:
        return f"Turn {event.turn} begins."
    if kind == K.MARE_NOSTRUM_EVENT_KIND_ROLE_CHANGED:
        return f"{who} becomes {role_name(event.role)}."
    if kind == K.MARE_NOSTRUM_EVENT_KIND_REVENUE:
        return f"{who} collects {event.count} card(s)."
    if kind == K.MARE_NOSTRUM_EVENT_KIND_REVENUE_CARDS:
        return f"{'You' if mine else who} collected {cards_text(event.cards)}."
    if kind == K.MARE_NOSTRUM_EVENT_KIND_TRADE_SIZE:
        if event.count == 0:
            return f"{who} calls no trade this turn."
        return f"{who} sets the trade: every trader offers {event.count} card(s)."
    if kind == K.MARE_NOSTRUM_EVENT_KIND_CARD_OFFERED:
        return f"{who} has offered {event.count} card(s)."
    if kind == K.MARE_NOSTRUM_EVENT_KIND_CARD_OFFERED_PRIVATE:
        return f"{'You' if mine else who} offered {card_name(event.card)} (hidden)."
    if kind == K.MARE_NOSTRUM_EVENT_KIND_OFFERS_REVEALED:
        offers = "; ".join(f"{seats.short(o.seat)}: {cards_text(o.cards)}" for o in event.offers)
        return f"Offers revealed - {offers or 'none'}."
    if kind == K.MARE_NOSTRUM_EVENT_KIND_CARD_TAKEN:
        return f"{who} takes {card_name(event.card)} from {other}."
    if kind == K.MARE_NOSTRUM_EVENT_KIND_COMPENSATED:
        return f"{who} gives a card to {other}, who was one card short."
    if kind == K.MARE_NOSTRUM_EVENT_KIND_TRADE_OVER:
        return "The trade is over: the cards taken join the hands."
    if kind == K.MARE_NOSTRUM_EVENT_KIND_ORDER:
        order = " > ".join(seats.short(s) for s in event.seats)
        return f"Order of the {phase_name(event.phase)} phase: {order}."
    if kind == K.MARE_NOSTRUM_EVENT_KIND_OFFERING:
        return f"{who} makes an offering to {title(event.god)}."
    if kind == K.MARE_NOSTRUM_EVENT_KIND_BOUGHT:
        return f"{who} buys {title(event.card_id)}."
    if kind == K.MARE_NOSTRUM_EVENT_KIND_CONVERTED:
        return f"{who} converts {event.space} (was {civ_name(event.civilization)})."
    if kind == K.MARE_NOSTRUM_EVENT_KIND_BUILT:
        what = item_name(event.item)
        if event.commodity:
            what = f"{card_name(event.commodity)} {what}"
        return f"{who} builds {a_or_an(what)} in {event.space}."
    if kind == K.MARE_NOSTRUM_EVENT_KIND_GAME_OVER:
        reason = REASONS.get(event.reason, event.reason)
        if event.HasField("winner"):
            return f"Game over: {seats.label(event.winner)} wins ({reason})."
        return f"Game over: {reason}; the players are ranked."
    if kind == K.MARE_NOSTRUM_EVENT_KIND_BATTLE:
        return _battle(event, False, seats)
    if kind == K.MARE_NOSTRUM_EVENT_KIND_NAVAL_BATTLE:
        return _battle(event, True, seats)
    if kind == K.MARE_NOSTRUM_EVENT_KIND_BLOCKADE_BATTLE:
        b = event.battle
        return (
            f"Blockade battle in {b.space}: Greece {_total(b.attack, b.attack_dice)} - the "
            f"crossing's triremes {_total(b.defence, b.defence_dice)}; Greece loses "
            f"{b.attacker_losses}, the mover {b.defender_losses}."
        )
    if kind == K.MARE_NOSTRUM_EVENT_KIND_SACKED:
        return f"{who} sacks {event.space}."
    if kind == K.MARE_NOSTRUM_EVENT_KIND_OCCUPIED:
        return f"{who} occupies {event.space}."
    if kind == K.MARE_NOSTRUM_EVENT_KIND_CONVERTING:
        return f"{who} starts converting {event.space}."
    if kind == K.MARE_NOSTRUM_EVENT_KIND_CONVERSION_LAPSED:
        return f"{who}'s conversion of {event.space} lapses: it was not completed in time."
    if kind == K.MARE_NOSTRUM_EVENT_KIND_MOVED:
        return f"{who} moves {a_or_an(unit_name(event.unit))} {event.start} -> {event.end}."
    if kind == K.MARE_NOSTRUM_EVENT_KIND_CARD_POWER:
        return f"{who} uses {title(event.card_id)}'s power."
    if kind == K.MARE_NOSTRUM_EVENT_KIND_BLOCKADE_DECLARED:
        chain = " ".join(event.chain)
        units = units_text(event.legions, event.creatures)
        return (
            f"{who} crosses {event.start} -> {event.end} with {units} over {chain}: "
            "Greece may blockade."
        )
    if kind == K.MARE_NOSTRUM_EVENT_KIND_BLOCKADE_HELD:
        return f"The blockade holds: the crossing to {event.space} is broken."
    if kind == K.MARE_NOSTRUM_EVENT_KIND_CROSSING_BROKEN:
        units = units_text(event.legions, event.creatures)
        return (
            f"Poseidon sinks {who}'s carrier in {event.space}: the crossing "
            f"{event.start} -> {event.end} fails; {units} stay in {event.start}."
        )
    if kind == K.MARE_NOSTRUM_EVENT_KIND_CAPITAL_FOUNDED:
        return f"{who} founds the capital in {event.space}."
    if kind == K.MARE_NOSTRUM_EVENT_KIND_SAILED:
        return f"{who} sails a trireme {event.start} -> {event.end}."
    if kind == K.MARE_NOSTRUM_EVENT_KIND_GOD_INVOKED:
        return f"{who} invokes {title(event.god)}."
    if kind == K.MARE_NOSTRUM_EVENT_KIND_CARD_DRAWN:
        return f"{who} draws a secret card (Isis)."
    if kind == K.MARE_NOSTRUM_EVENT_KIND_CARD_DRAWN_PRIVATE:
        return f"{'You' if mine else who} drew {card_name(event.card)}."
    if kind == K.MARE_NOSTRUM_EVENT_KIND_FIRST_STRIKE:
        return (
            f"{civ_name(event.civilization)}'s Centaurs strike first in {event.space}: "
            f"{civ_name(event.other_civilization)} loses {event.legions} legion(s)."
        )
    if kind == K.MARE_NOSTRUM_EVENT_KIND_REGROW:
        result = "it regrows and stays" if event.survived else "it is lost"
        return (
            f"{civ_name(event.civilization)}'s Hydra in {event.space} rolls {event.roll}: {result}."
        )
    if kind == K.MARE_NOSTRUM_EVENT_KIND_PETRIFIED:
        return (
            f"{who}'s Medusa turns a legion of {civ_name(event.civilization)} in "
            f"{event.space} to stone."
        )
    return None


def update_lines(update: match_pb2.MatchUpdate, seats: Seats) -> list[str]:
    """The log lines of one committed action: who did what, then what followed."""
    lines = [f"{seats.label(update.seat)}: {update.notation}"]
    for event in update.events:
        if event.HasField("marenostrum"):
            line = describe_event(event.marenostrum, seats)
            if line is not None:
                lines.append("  " + line)
    return lines
