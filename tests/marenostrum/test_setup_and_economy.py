"""Mare Nostrum set-up and economy as the rule text says (issue 33, part A).

Each test quotes the line of ``mare-nostrum-mythology.txt`` it pins (L = line number)
and names the ruling of ``docs/rules/mare-nostrum.md`` it rests on. Positions are
built from a seeded match and arranged by hand; decisions go through the checked
``apply`` with notation, as a client's would.
"""

from __future__ import annotations

from senet.games.marenostrum import MARENOSTRUM, MareState
from senet.games.marenostrum import rules as r
from senet.games.marenostrum.board import space_index
from senet.games.marenostrum.civilizations import GREECE, ROME
from senet.games.marenostrum.commodities import TAX

P = space_index


def _match(seats: int = 6, seed: int = 1, **options: object) -> MareState:
    state = MARENOSTRUM.new_match(seats, options, seed)
    assert isinstance(state, MareState)
    return state


# ------------------------------------------------------------------ revenue at war
def test_r36_a_province_at_war_pays_the_influence_owner_not_the_occupier() -> None:
    """Ruling R36. L146: "A province "At War" still collects revenue for the influence
    token owner, but no building can occur there." L149: the occupier places a unit
    "on each City or Caravan to claim income"."""
    state = _match(6)
    greece, rome = state.seat_of[GREECE], state.seat_of[ROME]
    pelo = P("pelo")  # Greek, with the city of Sparta
    state.temples[pelo] = 1
    state.legions[ROME][pelo] = 2
    state.occupier[pelo] = ROME
    # Occupied and at peace: Rome's legions claim the city and the temple's doubling.
    greek_base = r.revenue(state, greece)[1][TAX]
    roman_base = r.revenue(state, rome)[1][TAX]
    state.legions[GREECE][pelo] = 1
    assert r.at_war(state, pelo)
    assert r.revenue(state, greece)[1][TAX] == greek_base + 2
    assert r.revenue(state, rome)[1][TAX] == roman_base - 2
