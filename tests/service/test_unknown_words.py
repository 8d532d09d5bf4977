"""A notation whose first word names no action is refused with the words of the
actions this seat may play now, not every word of every rules variant (issue 34,
terminal item 4: "`zz9` answers "Not accepted" with action words of all rules
variants (draft, gov, tb, usetie); list only those this match can use now")."""

from __future__ import annotations

import grpc
import pytest

from tests.service.conftest import Deployment, expect_error, mover_of, seated_match

#: Words of variants none of these matches plays, or of phases not reached at the start.
ELSEWHERE = ("draft", "gov", "tb", "usetie", "keeptie", "nskip", "blockade", "cash")


@pytest.mark.parametrize(
    ("game_id", "seats"), [("mykerinos", 2), ("archeos", 2), ("marenostrum", 3)]
)
async def test_an_unknown_word_lists_the_words_of_the_actions_legal_now(
    game_id: str, seats: int
) -> None:
    deployment = Deployment("memory")
    try:
        client = deployment.client(await deployment.start())
        match = await seated_match(client, seats, seed=34, game_id=game_id)
        mover, seat = await mover_of(match)
        legal = await seat.legal(match.match_id)
        words = sorted({a.notation.split()[0] for a in legal.actions})
        failure = await expect_error(
            seat.submit(match.match_id, "zz9"), grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_ACTION"
        )
        assert failure.message == f"unknown action 'zz9'; actions now: {', '.join(words)}"
        listed = failure.message.split("actions now: ")[1].split(", ")
        assert not set(listed) & (set(ELSEWHERE) - set(words)), failure.message
        # Nothing changed, and a seat that has nothing to decide is told so.
        assert (await seat.legal(match.match_id)).version == legal.version
        waiting = match.seats[(mover + 1) % seats]
        if not (await waiting.legal(match.match_id)).actions:  # not a trader deciding too
            other = await expect_error(
                waiting.submit(match.match_id, "zz9"),
                grpc.StatusCode.INVALID_ARGUMENT,
                "MALFORMED_ACTION",
            )
            assert other.message == "unknown action 'zz9'; you have no action to play now"
    finally:
        await deployment.close()
