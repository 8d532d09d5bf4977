"""Occupation: where the occupier's units stand, and what they claim (ruling R10).

Text (L149): "Occupy the Province: Place a single Legion or Creature Token on each
City or Caravan to claim income. Place a single Legion or Creature Token on each
Market or Temple to double income. Control reverts to the legitimate owner when
invader units leave." The placing is the occupier's: when his units are fewer than
the buildings and the buildings differ, he puts them one by one (``hold``); what is
left to no choice (as many units as buildings, or only cities free) is placed by
itself.

A province's holding is a row of ``state.held``, indexed by building kind
(:data:`~senet.games.marenostrum.tokens.BUILDING_NAMES`): a bit per caravan icon (in
``ICONS`` order) for caravans, a count of cities, and 0 or 1 for the market and the
temple. The units are placed in the order city, caravans (icon order), temple,
market, so that every set of buildings is reached one way (as offers are, R14).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from senet.games.marenostrum import actions as act
from senet.games.marenostrum.actions import MareAction
from senet.games.marenostrum.board import ICONS
from senet.games.marenostrum.constants import NOBODY
from senet.games.marenostrum.tokens import BUILDING_NAMES, CARAVAN, CITY, MARKET, TEMPLE

if TYPE_CHECKING:
    from senet.games.marenostrum.data import MareData

#: An empty holding (a row of ``state.held``).
NO_HOLDING = (0,) * len(BUILDING_NAMES)


class Slot(NamedTuple):
    """Buildings of one kind a unit may stand on: a caravan names its commodity."""

    building: int
    commodity: int
    room: int


def slots(state: MareData, province: int) -> list[Slot]:
    """The buildings of ``province`` in placing order, each with the units it takes:
    one per city, caravan, temple and market (L149: "on each Market or Temple"; the
    Statue of Zeus allows two of each, R53); a second unit on one doubles nothing more."""
    out = []
    if state.cities[province]:
        out.append(Slot(CITY, NOBODY, state.cities[province]))
    for i, commodity in enumerate(ICONS[province]):
        if state.caravans[province] >> i & 1:
            out.append(Slot(CARAVAN, commodity, 1))
    if state.temples[province]:
        out.append(Slot(TEMPLE, NOBODY, state.temples[province]))
    if state.markets[province]:
        out.append(Slot(MARKET, NOBODY, state.markets[province]))
    return out


def placed(state: MareData, province: int, building: int, commodity: int = NOBODY) -> int:
    """Units of the occupier standing on ``building`` (that caravan) of ``province``."""
    row = state.held[province]
    if building == CARAVAN:
        return row[CARAVAN] >> ICONS[province].index(commodity) & 1
    return row[building]


def occupying_units(state: MareData, province: int) -> int:
    """The occupier's legions and creatures in ``province`` (0 if none occupies it)."""
    civ = state.occupier[province]
    if civ == NOBODY:
        return 0
    return state.legions[civ][province] + state.creatures[civ][province]


def units_to_place(state: MareData, province: int) -> int:
    """The occupier's units in ``province`` that stand on no building yet."""
    taken = sum(placed(state, province, s.building, s.commodity) for s in slots(state, province))
    return occupying_units(state, province) - taken


def hold_options(state: MareData, province: int) -> list[MareAction]:
    """Where the occupier may put his next unit: a free building at or after the last
    one he took (placing order), leaving room enough for the units still to place."""
    kinds = slots(state, province)
    free = [s.room - placed(state, province, s.building, s.commodity) for s in kinds]
    taken = [s.room - f for s, f in zip(kinds, free, strict=True)]
    left = occupying_units(state, province) - sum(taken)
    need = min(left, sum(free))
    if need <= 0:
        return []
    last = max((k for k, n in enumerate(taken) if n), default=0)
    return [
        MareAction(act.HOLD, kinds[k].building, kinds[k].commodity)
        for k in range(last, len(kinds))
        if free[k] and sum(free[k:]) >= need
    ]


def hold(state: MareData, province: int, building: int, commodity: int) -> None:
    """One more unit of the occupier stands on ``building`` (that caravan)."""
    if building == CARAVAN:
        state.held[province][CARAVAN] |= 1 << ICONS[province].index(commodity)
    else:
        state.held[province][building] += 1


def place_forced(state: MareData, province: int) -> bool:
    """Place every unit whose place is no choice; True while a choice remains."""
    while True:
        options = hold_options(state, province)
        if len(options) != 1:
            return bool(options)
        only = options[0]
        hold(state, province, only.a, only.b)


def hold_in_order(state: MareData, province: int) -> None:
    """Stand every unplaced unit on the first free building in placing order
    (cities, caravans, temple, market): how a snapshot saved before placements
    were kept is read, so a match in flight across that upgrade keeps the
    incomes its occupiers drew then."""
    while options := hold_options(state, province):
        hold(state, province, options[0].a, options[0].b)


def claims(state: MareData, province: int) -> tuple[int, int, int, int]:
    """What the occupier's units hold of ``province`` now: (cities, caravan icon bits,
    temples, markets), each a count. A building destroyed since is held no more; when units have
    left, the market, then the temple, then the caravans (last icon first), then the
    cities are freed first, so he keeps the incomes he placed his first units on."""
    units = occupying_units(state, province)
    row = state.held[province]
    cities = min(row[CITY], state.cities[province], units)
    units -= cities
    caravans = 0
    for i in range(len(ICONS[province])):
        bit = 1 << i
        if units and row[CARAVAN] & bit and state.caravans[province] & bit:
            caravans |= bit
            units -= 1
    temples = min(row[TEMPLE], state.temples[province], units)
    units -= temples
    markets = min(row[MARKET], state.markets[province], units)
    return cities, caravans, temples, markets


def release(state: MareData, province: int) -> None:
    """The occupation of ``province`` is over: nobody holds its buildings."""
    state.held[province] = list(NO_HOLDING)
