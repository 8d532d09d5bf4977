"""Set-up helpers shared by the Mare Nostrum rule tests."""

from __future__ import annotations

from senet.games.marenostrum import MareState
from senet.games.marenostrum.commodities import CARD_TYPES, TAX


def give_tax(state: MareState, seat: int, tax: int) -> None:
    """Leave ``seat`` holding exactly ``tax`` tax cards and nothing else (the cards go
    back to the bank and come from it, so the cards still add up)."""
    for card in range(CARD_TYPES):
        state.bank[card] += state.hands[seat][card]
        state.hands[seat][card] = 0
    state.bank[TAX] -= tax
    state.hands[seat][TAX] = tax
