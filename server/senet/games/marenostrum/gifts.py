"""Commodities a seat takes from the bank by its own choice, one at a time (``gift``).

Two kinds of card bring them: an income card's commodity each commerce phase, once the
income is in (the Queen of Sheba: any kind; the Hanging Gardens: a kind the owner's
caravans produce; ruling R52), and Hermes's three cards once invoked (kinds the holder
produces; ruling R18). Both are the ``gift`` step's choice: :func:`due` says what the
seat takes next and among which kinds, :func:`take` takes it, and :func:`settle` takes
for the seat whatever leaves it no choice (one kind, or none: the card is lost).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from senet.games.marenostrum import gods, rules
from senet.games.marenostrum.cards import INCOME, OWNABLE
from senet.games.marenostrum.commodities import CARD_TYPES, COMMODITY_TYPES
from senet.games.marenostrum.constants import COMMERCE, GIFT_TAKEN

if TYPE_CHECKING:
    from senet.games.marenostrum.data import MareData


class Gift(NamedTuple):
    """The next commodity a seat takes from the bank by its choice."""

    #: The printed name of the card that brings it.
    giver: str
    #: The kinds the seat may take (those the bank holds).
    kinds: tuple[int, ...]
    #: The cards this giver still brings, this one included.
    left: int
    #: The ``powers_used`` bit an income card's gift sets once taken; 0 for Hermes's.
    taken: int


def due(state: MareData, seat: int) -> Gift | None:
    """What ``seat`` takes next: Hermes's cards while he still brings some, then, in
    the commerce phase, each income card's commodity not yet taken."""
    left = gods.hermes_left(state, seat)
    if left:
        return Gift("Hermes", tuple(gods.hermes_kinds(state, seat)), left, 0)
    if state.phase != COMMERCE:
        return None
    for card in state.owned[seat]:
        for effect in OWNABLE[card].effects:
            taken = GIFT_TAKEN.get(effect.arg, 0) if effect.kind == INCOME else 0
            if not taken or state.powers_used[seat] & taken:
                continue
            kinds = COMMODITY_TYPES
            if effect.arg == "produced":
                produced = rules.revenue(state, seat)[1]
                kinds = tuple(c for c in COMMODITY_TYPES if produced[c])
            return Gift(OWNABLE[card].name, tuple(c for c in kinds if state.bank[c]), 1, taken)
    return None


def take(state: MareData, seat: int, gift: Gift, card: int) -> None:
    """``seat`` takes ``card`` (-1: nothing, the bank holds no kind it may take) for
    ``gift``. An income card's commodity comes as income does (its kind told to the
    seat alone)."""
    if gift.taken:
        state.powers_used[seat] |= gift.taken
        if card >= 0:
            cards = [0] * CARD_TYPES
            cards[card] = 1
            state.collect(seat, cards)
    else:
        gods.hermes_take(state, seat, card)


def settle(state: MareData, seat: int) -> bool:
    """Take for ``seat`` every gift that leaves it no choice; True when the next one
    does (the ``gift`` step is then its decision)."""
    while (gift := due(state, seat)) is not None:
        if len(gift.kinds) > 1:
            return True
        take(state, seat, gift, gift.kinds[0] if gift.kinds else -1)
    return False
