"""Set-up helpers shared by the Mare Nostrum rule tests."""

from __future__ import annotations

from senet.games.marenostrum import MARENOSTRUM, MareState
from senet.games.marenostrum.cards import GOD_IDS, OWNABLE_IDS
from senet.games.marenostrum.commodities import CARD_TYPES, TAX


def new_mare(seats: int = 6, seed: int = 1, **options: object) -> MareState:
    """A new match of ``seats`` with ``options``, typed as the Mare Nostrum state."""
    state = MARENOSTRUM.new_match(seats, options, seed)
    assert isinstance(state, MareState)
    return state


def hold_god(state: MareState, god: str, seat: int) -> None:
    """``seat`` holds ``god``'s card, its power unused."""
    state.god_holder[GOD_IDS.index(god)] = seat
    state.god_used[GOD_IDS.index(god)] = 0


def give_tax(state: MareState, seat: int, tax: int) -> None:
    """Leave ``seat`` holding exactly ``tax`` tax cards and nothing else (the cards go
    back to the bank and come from it, so the cards still add up)."""
    for card in range(CARD_TYPES):
        state.bank[card] += state.hands[seat][card]
        state.hands[seat][card] = 0
    state.bank[TAX] -= tax
    state.hands[seat][TAX] = tax


def own(state: MareState, seat: int, *cards: str) -> None:
    """``seat`` also owns the heroes and wonders named ``cards`` (by id)."""
    state.owned[seat] = sorted([*state.owned[seat], *(OWNABLE_IDS.index(c) for c in cards)])


def legal_notations(state: MareState, seat: int | None = None) -> set[str]:
    """The notations ``seat`` (the current seat when None) may play now."""
    seat = state.current_seat() if seat is None else seat
    return {a.notation() for a in state.legal_actions_for(seat)} if seat is not None else set()
