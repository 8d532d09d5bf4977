"""Helpers that put an Archeos Society match into a chosen position.

Scenario tests set hands, display and deck directly (card notation, top card first)
rather than searching for seeds; the helpers keep the card count honest where a
test later reloads the state through ``from_data``.
"""

from __future__ import annotations

from senet.games.archeos import ARCHEOS, ArcheosState
from senet.games.archeos.cards import MONKEY, parse_card
from senet.games.archeos.sites import SITE_IDS, Special
from senet.games.interface import Event

#: A role set with every role that has an active effect, Student included.
DEFAULT_ROLES = ("botanist", "cartographer", "guide", "pilot", "patron", "student")


def new_state(
    seats: int = 3,
    roles: tuple[str, ...] = DEFAULT_ROLES,
    advanced: Special | None = None,
    seed: int = 1,
) -> ArcheosState:
    """A fresh match with the given roles and advanced site (Uluru when ``None``
    would be random, so tests name it when it matters)."""
    options: dict[str, object] = {f"role_{name}": True for name in roles}
    if advanced is not None:
        options["advanced_site"] = SITE_IDS[advanced]
    state = ARCHEOS.new_match(seats, options=options, seed=seed)
    assert isinstance(state, ArcheosState)
    return state


def cards(*names: str) -> list[int]:
    """Card types from notation, e.g. ``cards("r-bot", "r-stu")``."""
    return [parse_card(name) for name in names]


def set_hand(state: ArcheosState, seat: int, *names: str) -> None:
    state.hands[seat] = sorted(cards(*names))


def set_display(state: ArcheosState, *names: str) -> None:
    state.display = sorted(cards(*names))


def set_deck(state: ArcheosState, *names: str, monkeys: int = 0) -> None:
    """Deck from the top card down; ``monkeys`` monkeys at the bottom."""
    order = [MONKEY if name == "monkey" else parse_card(name) for name in names]
    order += [MONKEY] * monkeys
    state.deck = list(reversed(order))
    state.monkey_free_top = 0


def set_turn(state: ArcheosState, seat: int) -> None:
    state.turn = seat
    state.step = "turn"


def play(state: ArcheosState, seat: int, *notations: str) -> list[Event]:
    """Apply several actions for ``seat`` (checked); return all their events."""
    events: list[Event] = []
    for text in notations:
        events += state.apply(seat, text)
    return events


def notations(state: ArcheosState) -> set[str]:
    return {a.notation() for a in state.legal_actions()}


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


FILLER = tuple(f"{c}-stu" for c in "roygbp" for _ in range(3))


def end_season(state: ArcheosState, seat: int) -> list[Event]:
    """``seat`` draws the third monkey (filler cards stay in the deck for later)."""
    set_turn(state, seat)
    state.monkeys = 2
    set_deck(state, "monkey", *FILLER)
    return state.apply(seat, "draw")


def event(events: list[Event], kind: str) -> Event:
    """The one event of ``kind``."""
    found = [e for e in events if e.kind == kind]
    assert len(found) == 1, (kind, [e.kind for e in events])
    return found[0]
