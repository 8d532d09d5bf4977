"""Nobody moves before a match starts: the deal is made from every seat's entropy
when the last open seat is claimed, so an earlier action would fix a provisional
deal as the match's record (and move before the opponents are there)."""

from __future__ import annotations

import pytest

from senet.games import get_game
from senet.service import errors
from senet.service.matches import Caller, MatchService
from senet.service.records import SeatPlan
from senet.service.settings import Settings
from senet.service.views import SubmitOutcome
from senet.store.memory import MemoryStore


def _same(outcome: SubmitOutcome) -> SubmitOutcome:
    return outcome


async def test_a_seat_cannot_act_or_list_actions_before_every_open_seat_is_claimed() -> None:
    service = MatchService(MemoryStore(), Settings())
    created = await service.create_match(
        Caller(is_admin=True), "mykerinos", {}, [SeatPlan("open"), SeatPlan("open")], None
    )
    match_id = created.summary.match_id
    seat, token, summary = await service.join(Caller(), match_id, None, "Ada", entropy="a")
    assert summary.deciding == ()
    ada = Caller(token=token)
    listed = await service.legal_actions(ada, match_id)
    assert listed.actions == []
    # Whatever the provisional deal offers, it is refused until the match starts.
    provisional = get_game("mykerinos").new_match(2, seed=1)
    notation = provisional.legal_actions()[0].notation()
    with pytest.raises(errors.MatchNotStarted) as refused:
        await service.submit(ada, match_id, notation, None, "early", None, _same)
    assert refused.value.facts == {"openSeats": "1"}
    assert (await service.store.load(match_id)).version == 0
    _seat, other, started = await service.join(Caller(), match_id, None, "Bo", entropy="b")
    assert started.deciding and started.current_seat in started.deciding
    mover = Caller(token=token if started.current_seat == seat else other)
    legal = await service.legal_actions(mover, match_id)
    assert legal.actions
    done, _ = await service.submit(
        mover, match_id, legal.actions[0].notation, 0, "first", None, _same
    )
    assert done.version == 1
