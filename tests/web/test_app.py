"""The web app over a real in-process match server (httpx, no browser): the lobby,
creating and joining, acting with the seat cookie, CSRF and origin checks, what a
spectator's stream is given, and replays with the seed commitment checked."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from typing import Any

import grpc
import httpx
import pytest

from senet.client import SeatClient, SenetClient
from senet.client.errors import SenetRpcError
from senet.codec.exports import record_export
from senet.games import get_game
from senet.games.interface import Action, GameState
from senet.text.renderer import origin_note
from senet.v1 import match_pb2
from senet.v1 import match_service_pb2 as ms
from senet.web import live
from senet.web.app import create_app
from senet.web.frames import LogEntry
from senet.web.replay import Replay
from senet.web.security import CSRF_COOKIE, SeatCookie
from senet.web.settings import WebSettings
from tests.conftest import _free_port, play_rules_version
from tests.web.conftest import BASE, create_by_form, csrf_of


async def test_the_lobby_lists_games_options_and_the_place_of_open_matches(
    web: httpx.AsyncClient,
) -> None:
    response = await web.get("/")
    page = response.text
    assert "Mykerinos" in page and "Archeos" in page
    assert "name='opt:nile'" in page and "name='seat0'" in page
    assert 'id="open-matches"' in page
    assert "default-src 'self'" in response.headers["content-security-policy"]
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"{CSRF_COOKIE}=") and "SameSite=Strict" in cookie


async def test_creating_a_match_keeps_the_seat_token_in_an_http_only_cookie(
    web: httpx.AsyncClient,
) -> None:
    response = await create_by_form(web, name="Ada")
    assert response.status_code == 303
    match_id = response.headers["location"].split("/")[2]
    assert response.headers["location"] == f"/matches/{match_id}/play"
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"senet_seat_{match_id}=0.")
    assert "HttpOnly" in cookie and f"Path=/matches/{match_id}" in cookie
    assert "samesite=strict" in cookie.lower()
    token = cookie.split("=", 1)[1].split(";")[0].split(".", 1)[1]
    assert token not in response.headers["location"]
    page = await web.get(f"/matches/{match_id}/play")
    assert page.status_code == 200 and token not in page.text


@pytest.mark.parametrize(
    ("headers", "with_token"),
    [
        ({}, False),
        ({"origin": "https://evil.example"}, True),
        ({"sec-fetch-site": "cross-site"}, True),
    ],
)
async def test_state_changing_requests_need_the_csrf_token_and_this_origin(
    web: httpx.AsyncClient, headers: dict[str, str], with_token: bool
) -> None:
    csrf = await csrf_of(web)
    form = {"game": "mykerinos", "seat0": "open", "seat1": "open"}
    if with_token:
        form["csrf"] = csrf
    response = await web.post("/matches", data=form, headers=headers)
    assert response.status_code == 403
    assert (
        await web.post("/join", data={**form, "match": "abc"}, headers=headers)
    ).status_code == 403


async def test_a_seat_acts_with_its_cookie_and_the_csrf_header(
    web: httpx.AsyncClient, server: str
) -> None:
    created = await create_by_form(web)
    match_id = created.headers["location"].split("/")[2]
    csrf = web.cookies[CSRF_COOKIE]
    async with SenetClient(server) as senet:
        await _second_seat_moves_first_if_it_starts(senet, match_id)
        summary = (await senet.get(match_id)).match
        mine = _seat_of(created)
        legal = await senet.seat(match_id, mine.seat, mine.token).legal_actions()
    assert summary.current_seat == 0
    url = f"/matches/{match_id}/act"
    body = {"notation": legal.actions[0].notation, "version": summary.version}
    assert (await web.post(url, json=body)).status_code == 403
    wrong = await web.post(url, json=body, headers={"x-csrf-token": "x" * 43})
    assert wrong.status_code == 403
    refused = await web.post(url, json={**body, "notation": "a z9"}, headers={"x-csrf-token": csrf})
    assert refused.status_code == 409 and refused.json()["reason"]
    done = await web.post(url, json=body, headers={"x-csrf-token": csrf})
    assert done.status_code == 200 and done.json()["version"] == summary.version + 1
    stranger = httpx.AsyncClient(transport=web._transport, base_url=BASE)
    await stranger.get("/")
    other = await stranger.post(
        url, json={**body, "version": 1}, headers={"x-csrf-token": stranger.cookies[CSRF_COOKIE]}
    )
    assert other.status_code == 403
    await stranger.aclose()


async def test_the_lobby_lists_matches_to_join_watch_or_replay(web: httpx.AsyncClient) -> None:
    created = await create_by_form(web, seat0="open", seat1="open")
    match_id = created.headers["location"].split("/")[2]
    page = (await web.get("/")).text
    assert f"<code>{match_id}</code>" in page
    assert f"name='match' value='{match_id}'" in page and f"/matches/{match_id}/watch" in page


async def test_joining_an_open_seat_by_id(web: httpx.AsyncClient) -> None:
    created = await create_by_form(web, seat0="open", seat1="open")
    match_id = created.headers["location"].split("/")[2]
    assert created.headers["location"].endswith("/watch")
    joined = await web.post(
        "/join",
        data={"csrf": web.cookies[CSRF_COOKIE], "match": match_id, "name": "Cy", "seat": "1"},
    )
    assert joined.status_code == 303 and joined.headers["location"] == f"/matches/{match_id}/play"
    assert joined.headers["set-cookie"].startswith(f"senet_seat_{match_id}=1.")


async def test_without_a_seat_the_play_page_leads_to_the_watch_page(web: httpx.AsyncClient) -> None:
    response = await web.get("/matches/0123abcd/play")
    assert response.status_code == 303 and response.headers["location"] == "/matches/0123abcd/watch"
    assert (await web.get("/matches/no%20id/watch")).status_code == 404


async def test_the_spectator_stream_never_carries_the_seat_token(
    web: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = await create_by_form(web)
    match_id = created.headers["location"].split("/")[2]
    seen: list[SeatCookie | None] = []

    async def fake_frames(client: Any, match: str, seat: SeatCookie | None) -> AsyncIterator[str]:
        seen.append(seat)
        yield live.sse("end", {})

    monkeypatch.setattr(live, "frames", fake_frames)
    watch = await web.get(f"/matches/{match_id}/watch/events")
    play = await web.get(f"/matches/{match_id}/play/events")
    assert watch.headers["content-type"].startswith("text/event-stream")
    assert "event: end" in play.text
    assert seen[0] is None
    assert seen[1] is not None and seen[1].seat == 0


async def test_a_spectators_frames_offer_no_actions(web: httpx.AsyncClient, server: str) -> None:
    created = await create_by_form(web)
    match_id = created.headers["location"].split("/")[2]
    async with SenetClient(server) as senet:
        await _second_seat_moves_first_if_it_starts(senet, match_id)
        stream = live.frames(senet, match_id, None)
        event = await anext(stream)
        await stream.aclose()
        seat_stream = live.frames(senet, match_id, _seat_of(created))
        mine = await anext(seat_stream)
        await seat_stream.aclose()
    frame = _data(event)
    assert event.startswith("event: frame") and frame["viewer"] is None and frame["actions"] == []
    assert "Waiting for" in frame["headline"]
    seat_frame = _data(mine)
    assert seat_frame["viewer"] == 0 and seat_frame["actions"]
    assert any(action["t"] for action in seat_frame["actions"])


async def _second_seat_moves_first_if_it_starts(senet: SenetClient, match_id: str) -> None:
    """Fill seat 1 of a two-seat match; play its first legal actions until seat 0 is to move."""
    other = await senet.join(match_id, "Bo")
    while (await senet.get(match_id)).match.current_seat == other.seat:
        legal = await other.legal_actions()
        await other.submit(legal.actions[0].notation, expected_version=legal.version)


def _seat_of(response: httpx.Response) -> SeatCookie:
    value = response.headers["set-cookie"].split("=", 1)[1].split(";")[0]
    seat, token = value.split(".", 1)
    return SeatCookie(int(seat), token)


def _data(event: str) -> dict[str, Any]:
    import json

    match = re.search(r"^data: (.*)$", event, re.MULTILINE)
    assert match is not None
    data: dict[str, Any] = json.loads(match.group(1))
    return data


async def _play_to_the_end(
    senet: SenetClient, match_id: str, seats: list[SeatClient], pick: int
) -> match_pb2.MatchSummary:
    """Play every seat's legal action number ``pick`` until the match ends; its summary."""
    while True:
        summary = (await senet.get(match_id)).match
        if not summary.HasField("current_seat"):
            return summary
        seat = seats[summary.current_seat]
        legal = await seat.legal_actions()
        await seat.submit(legal.actions[pick].notation, expected_version=legal.version)


async def _finished(
    server: str, game_id: str, seed: int | None, pick: int
) -> tuple[str, match_pb2.MatchSummary, ms.ExportMatchResponse]:
    """A two-person match played to the end (each seat plays its legal action
    number ``pick``): its id, final summary and export."""
    async with SenetClient(server) as senet:
        match_id = await senet.create_match(game_id, 2, seed=seed)
        seats = [await senet.join(match_id, name) for name in ("A", "B")]
        summary = await _play_to_the_end(senet, match_id, seats, pick=pick)
        return match_id, summary, await senet.export(match_id)


async def test_a_finished_match_replays_with_its_seed_commitment_verified(
    web: httpx.AsyncClient, server: str
) -> None:
    match_id, summary, _ = await _finished(server, "archeos", 11, pick=-1)
    replay_page = await web.get(f"/matches/{match_id}/replay")
    assert replay_page.status_code == 200
    # The step controls come before the board (the first screen), the check beside it.
    html = replay_page.text
    assert html.index("id='step'") < html.index('id="board"') < html.index("id='verify'")
    info = (await web.get(f"/matches/{match_id}/replay/info")).json()
    assert info["verified"] and all(check["ok"] for check in info["checks"])
    assert info["steps"] == summary.version
    first = (await web.get(f"/matches/{match_id}/replay/frames/0")).json()
    last = (await web.get(f"/matches/{match_id}/replay/frames/{info['steps']}")).json()
    assert first["step"] == 0 and first["status"] == "active" and first["actions"] == []
    assert last["status"] == "finished" and last["final"]
    assert "Your hand" not in last["board"]


async def test_a_finished_match_is_downloaded_as_senet_export_writes_it(
    web: httpx.AsyncClient, server: str
) -> None:
    match_id, _, export = await _finished(server, "mykerinos", 13, pick=0)
    page = (await web.get(f"/matches/{match_id}/replay")).text
    assert f"href='/matches/{match_id}/export.json' download" in page
    response = await web.get(f"/matches/{match_id}/export.json")
    assert response.status_code == 200
    assert response.headers["content-disposition"] == (
        f'attachment; filename="senet-{match_id}.json"'
    )
    assert record_export(response.json()) == (match_id, export)
    waiting = (await create_by_form(web)).headers["location"].split("/")[2]
    refused = await web.get(f"/matches/{waiting}/export.json")
    assert refused.status_code == 409 and refused.json()["error"]


async def test_an_unfinished_match_cannot_be_replayed(web: httpx.AsyncClient) -> None:
    created = await create_by_form(web)
    match_id = created.headers["location"].split("/")[2]
    response = await web.get(f"/matches/{match_id}/replay/info")
    assert response.status_code == 409 and response.json()["error"]


async def test_a_fair_match_replays_from_the_seed_its_seats_dealt(
    web: httpx.AsyncClient, server: str
) -> None:
    """Without a chosen seed the deal combines the server's seed with each seat's
    entropy: the replay must deal from that combination, not the bare seed."""
    match_id, _, export = await _finished(server, "mykerinos", None, pick=0)
    assert not export.seed_chosen and export.dealt_seed != export.seed
    info = (await web.get(f"/matches/{match_id}/replay/info")).json()
    assert info["verified"], info["checks"]
    assert any("entropy" in check["what"] for check in info["checks"])


async def test_a_match_played_under_other_rules_is_not_replayed_and_says_why(
    web: httpx.AsyncClient, server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After an upgrade that raised the game's rules version, an earlier match's
    log may not replay: the page says which rules it was played under instead of
    accusing the server's record."""
    match_id, _, _ = await _finished(server, "archeos", 12, pick=0)
    played_under = get_game("archeos").info.rules_version
    play_rules_version(monkeypatch, "archeos", played_under + 1)
    response = await web.get(f"/matches/{match_id}/replay/info")
    assert response.status_code == 409
    assert response.json()["error"] == (
        f"Not replayed: this match was played under Archeos Society rules version "
        f"{played_under}, and this release of Senet plays version {played_under + 1}: "
        f"only a release that plays version {played_under} replays it."
    )


def test_senet_web_listens_on_localhost_unless_told_otherwise() -> None:
    import argparse

    from senet.web import cli

    parser = argparse.ArgumentParser()
    cli.add_arguments(parser)
    settings = cli.settings_from(parser.parse_args([]))
    assert settings.host == "127.0.0.1" and settings.port == 8080
    assert cli.settings_from(parser.parse_args(["--host", "0.0.0.0"])).host == "0.0.0.0"


async def test_a_frame_that_could_not_be_drawn_is_drawn_again_without_another_move(
    server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fetch of what to draw after a move fails once: the page is told, and gets the
    frame of that move anyway, although the match does not move again to bring one."""
    monkeypatch.setattr(live, "REDRAW_S", 0.05)
    async with SenetClient(server) as senet:
        match_id = await senet.create_match("mykerinos", 2, seed=4)
        ada = await senet.join(match_id, "Ada")
        bob = await senet.join(match_id, "Bob")
        stream = live.frames(senet, match_id, SeatCookie(ada.seat, ada.token))
        try:
            assert _data(await anext(stream))["version"] == 0
            real_get, failures = senet.get, [1]

            async def get_failing_once(*args: Any, **kwargs: Any) -> Any:
                if failures:
                    failures.pop()
                    raise SenetRpcError(grpc.StatusCode.UNAVAILABLE, "UNAVAILABLE", "a blip")
                return await real_get(*args, **kwargs)

            monkeypatch.setattr(senet, "get", get_failing_once)
            mover = ada if (await real_get(match_id)).match.current_seat == ada.seat else bob
            legal = await mover.legal_actions()
            await mover.submit(legal.actions[0].notation, expected_version=legal.version)
            # (bounded: without the redraw nothing more would ever come)
            events = [await asyncio.wait_for(anext(stream), 60) for _ in range(2)]
        finally:
            await stream.aclose()
    assert events[0].startswith("event: problem") and "cannot be reached" in events[0]
    frame = _data(events[1])
    assert events[1].startswith("event: frame") and frame["version"] == 1
    assert len(frame["log"]) == 1  # the move's line, kept through the failed draw


async def test_the_log_says_which_moves_the_server_played_on_timeout(server: str) -> None:
    """Ada never answers: her moves are the timeout fallback's, and her log says so."""
    control = match_pb2.TimeControl(decision_ms=300)
    async with SenetClient(server) as senet:
        match_id = await senet.create_match("mykerinos", 2, seed=4, time_control=control)
        ada = await senet.join(match_id, "Ada")
        await senet.join(match_id, "Bob")
        stream = live.frames(senet, match_id, SeatCookie(ada.seat, ada.token))
        marked: list[str] = []
        try:
            async for event in stream:
                assert not event.startswith(("event: end", "event: problem")), event
                if event.startswith("event: frame"):
                    log = _data(event)["log"]
                    marked = [
                        line for line in log if line.endswith(" -- played on timeout (random)")
                    ]
                    if any("(Ada, you): " in line for line in marked):
                        break
        finally:
            await stream.aclose()
    assert all(re.search(r"\): \S.* -- played on timeout", line) for line in marked), marked


async def test_the_log_names_the_viewers_own_moves_in_words(server: str) -> None:
    """A trial read "a a1" for its own move where the action list had said "Start
    an excavation at a1": the viewer's own moves carry their label."""
    async with SenetClient(server) as senet:
        match_id = await senet.create_match("mykerinos", 2, seed=4)
        ada = await senet.join(match_id, "Ada")
        bob = await senet.join(match_id, "Bob")
        mover = ada if (await ada.get()).match.current_seat == ada.seat else bob
        stream = live.frames(senet, match_id, SeatCookie(mover.seat, mover.token))
        played = ""
        try:
            async with asyncio.timeout(60):  # the labelled line, or a clear failure
                async for event in stream:
                    if not event.startswith("event: frame"):
                        continue
                    data = _data(event)
                    if not played:
                        first = data["actions"][0]
                        played = f"{first['n']} ({first['l']})"
                        await mover.submit(first["n"])
                    elif any(line.endswith(played) for line in data["log"]):
                        break
        finally:
            await stream.aclose()


def _one_move_played() -> tuple[GameState, int, Action, GameState]:
    """A two-seat Mykerinos deal, its first seat, that seat's first legal move and the result."""
    dealt = get_game("mykerinos").new_match(2, seed=4)
    seat = dealt.current_seat()
    assert seat is not None
    action = dealt.legal_actions()[0]
    played = dealt.clone()
    played.apply(seat, action)
    return dealt, seat, action, played


def test_a_replay_step_says_who_chose_it_when_not_the_seat() -> None:
    dealt, seat, action, played = _one_move_played()
    summary = match_pb2.MatchSummary(game_id="mykerinos")
    note = origin_note(
        match_pb2.LoggedAction(
            seat=seat, notation=action.notation(), origin=match_pb2.ACTION_ORIGIN_TIMEOUT
        )
    )
    steps = [(seat, action.notation(), dealt.describe(action), note)]
    (line,) = Replay("mykerinos", summary, [dealt, played], steps).frame(1)["log"]
    label = dealt.describe(action)
    assert line.startswith("1. ")
    assert line.endswith(f"{action.notation()} ({label}) -- played on timeout (random)"), line


def test_refusals_read_as_sentences_without_reason_codes() -> None:
    import grpc

    from senet.client.errors import SenetRpcError
    from senet.web.errors import human

    def refused(reason: str, message: str) -> SenetRpcError:
        return SenetRpcError(grpc.StatusCode.FAILED_PRECONDITION, reason, message)

    assert human(refused("NO_OPEN_SEAT", "no open seat")).startswith("Every seat")
    assert human(refused("MATCH_NOT_FOUND", "no such match")).startswith("There is no match")
    illegal = human(refused("ILLEGAL_ACTION", "unknown action 'zz9'"))
    assert illegal == "Not accepted: Unknown action 'zz9'"
    assert "_" not in human(refused("SOMETHING_NEW", "something new"))
    # A trial's name with a zero-width space read "Display_name must be 1-32
    # printable characters": the field's name, and a length problem it did not have.
    name = SenetRpcError(
        grpc.StatusCode.INVALID_ARGUMENT,
        "MALFORMED_REQUEST",
        "display_name must be 1-32 printable characters",
        {"field": "display_name", "limit": "32", "size": "4"},
    )
    assert human(name) == (
        "A name has 1 to 32 characters: letters, digits, spaces and signs, with no "
        "invisible or control characters."
    )


def test_the_final_scores_show_the_servers_places_where_a_resigned_seat_is_last() -> None:
    from senet.web.frames import final_breakdown, with_server_places

    view = match_pb2.View()
    view.mykerinos.places.extend([1, 2, 3])
    summary = match_pb2.MatchSummary(
        game_id="mykerinos", status=match_pb2.MATCH_STATUS_FINISHED, places=[3, 1, 2]
    )
    assert list(with_server_places(view, summary).mykerinos.places) == [3, 1, 2]
    assert list(view.mykerinos.places) == [1, 2, 3]  # the page's view is left alone
    for seat in range(3):
        score = view.mykerinos.final_scores.add()
        score.seat = seat
    place_line = next(
        line for line in final_breakdown(summary, view, None).splitlines() if "Place" in line
    )
    assert place_line.split()[1:] == ["3rd", "1st", "2nd"]


def test_alike_actions_in_a_row_fold_into_one_line() -> None:
    from senet.web.frames import fold, log_entry, recent_lines

    offers = [
        log_entry(["Rome (bot): off ?", f"  Rome has offered {n} card(s)."], 1) for n in (1, 2, 3)
    ]
    other = log_entry(["Greece (bot): off ?", "  Greece has offered 1 card(s)."], 2)
    folded = fold([*offers, other])
    assert [(entry.text.split("\n")[1].strip(), count) for entry, count in folded] == [
        ("Rome has offered 3 card(s).", 3),
        ("Greece has offered 1 card(s).", 1),
    ]
    assert recent_lines([*offers, other])[0] == (
        "Rome (bot): off ? (x3): Rome has offered 3 card(s)."
    )


def test_offers_made_at_once_fold_per_trader_though_they_interleave() -> None:
    """Issue 34, web 5: "Mare Nostrum fills it with one 'has offered N card(s)' line
    per card per bot ... repeated events folded into one line". Traders offer at
    once, so their offers interleave; each trader's still folds into one line, and
    an action of another word between them keeps them apart."""
    from senet.web.frames import fold, log_entry, recent_lines

    def offer(seat: int, name: str, count: int) -> LogEntry:
        return log_entry(
            [f"{name} (bot): offer", f"  {name} has offered {count} card(s)."], seat, "offer"
        )

    size = log_entry(["Rome (bot): size 2", "  Rome sets the trade."], 1, "size 2")
    entries = [
        size,
        offer(1, "Rome", 1),
        offer(2, "Greece", 1),
        offer(1, "Rome", 2),
        offer(2, "Greece", 2),
    ]
    assert [(e.text.split("\n")[1].strip(), n) for e, n in fold(entries)] == [
        ("Rome sets the trade.", 1),
        ("Rome has offered 2 card(s).", 2),
        ("Greece has offered 2 card(s).", 2),
    ]
    assert len(recent_lines(entries)) == 3
    # Another seat's other action between two alike ones: nothing folds across it.
    apart = [offer(1, "Rome", 1), size, offer(1, "Rome", 2)]
    assert [n for _, n in fold(apart)] == [1, 1, 1]
    # Nor does a seat's own other action (a placement between two of its passes).
    passes = [
        log_entry(["Ada: pass"], 0, "pass"),
        log_entry(["Ada: a c2"], 0, "a c2"),
        log_entry(["Ada: pass"], 0, "pass"),
    ]
    assert [n for _, n in fold(passes)] == [1, 1, 1]


def test_a_replay_says_its_position_not_whose_turn_it_is() -> None:
    dealt, seat, action, played = _one_move_played()
    summary = match_pb2.MatchSummary(game_id="mykerinos")
    steps = [(seat, action.notation(), dealt.describe(action), "")]
    replay = Replay("mykerinos", summary, [dealt, played], steps)
    assert replay.frame(0)["headline"] == "Move 0 of 1: the match as dealt."
    headline = replay.frame(1)["headline"]
    assert headline.startswith("Move 1 of 1: ") and action.notation() in headline
    assert "Waiting" not in headline


async def test_the_lobby_lists_the_seats_this_browser_holds_and_joining_one_resumes_it(
    web: httpx.AsyncClient,
) -> None:
    created = await create_by_form(web, seat0="you", seat1="open")
    match_id = created.headers["location"].split("/")[2]
    assert web.cookies.get("senet_held") == f"{match_id}.0"
    page = (await web.get("/")).text
    assert "id='your-matches'" in page and f"href='/matches/{match_id}/play'>resume" in page
    again = await web.post(
        "/join", data={"csrf": web.cookies[CSRF_COOKIE], "match": match_id, "name": "Ada"}
    )
    assert again.status_code == 303 and again.headers["location"] == f"/matches/{match_id}/play"


async def test_the_lobby_names_options_by_their_descriptions_and_offers_clocks(
    web: httpx.AsyncClient, server: str
) -> None:
    page = (await web.get("/")).text
    assert ">role_botanist<" not in page and "title='role_botanist'" in page
    assert "name='clock_decision_s'" in page and "name='clock_timeout'" in page
    created = await create_by_form(web, clock_decision_s="30", clock_timeout="resign")
    match_id = created.headers["location"].split("/")[2]
    async with SenetClient(server) as senet:
        control = (await senet.get(match_id)).match.time_control
    assert control.decision_ms == 30_000
    assert control.timeout_policy == match_pb2.TIMEOUT_POLICY_RESIGN


async def _finished_by_form(web: httpx.AsyncClient, senet: SenetClient) -> tuple[str, SeatClient]:
    """A Pebbles match Ann created in the web page (her seat cookie in ``web``) and
    Bob joined from his client, played to its end; its id and Bob's seat."""
    created = await create_by_form(web, game="pebbles", name="Ann")
    match_id = created.headers["location"].split("/")[2]
    mine = _seat_of(created)
    bob = await senet.join(match_id, "Bob")
    ann = senet.seat(match_id, mine.seat, mine.token)

    async def first(turn: Any) -> str:
        return str(turn.actions[0].notation)

    await asyncio.wait_for(asyncio.gather(ann.play(first), bob.play(first)), 60)
    return match_id, bob


async def test_a_finished_matchs_player_asks_for_the_rematch_and_holds_its_seat(
    web: httpx.AsyncClient, server: str
) -> None:
    async with SenetClient(server) as senet:
        match_id, bob = await _finished_by_form(web, senet)
        csrf = web.cookies[CSRF_COOKIE]
        url = f"/matches/{match_id}/rematch"
        assert (await web.get(url)).json() == {
            "match": "",
            "players": [],
            "declined": "",
            "mine": False,
        }
        assert (await web.post(url)).status_code == 403  # no CSRF header
        asked = await web.post(url, headers={"x-csrf-token": csrf})
        assert asked.status_code == 200, asked.text
        rematch_id = asked.json()["play"].split("/")[2]
        held = _seat_of(asked)
        assert held.seat == 1 and asked.headers["set-cookie"].startswith(
            f"senet_seat_{rematch_id}="
        )
        assert (await web.get(url)).json() == {
            "match": rematch_id,
            "players": ["Ann"],
            "declined": "",
            "mine": True,  # Ann's browser holds her seat in it
        }
        again = await bob.rematch()
        assert (again.match_id, again.seat) == (rematch_id, 0)
        assert (await senet.get(rematch_id)).match.started
        # Declining a rematch that has started: the page says what to do, in words.
        late = await web.post(f"{url}/decline", headers={"x-csrf-token": csrf})
        assert late.status_code == 409 and late.json()["reason"] == "REMATCH_STARTED"
        assert late.json()["error"] == (
            "Your rematch has started: play it on its page (or resign there)."
        )
        page = await web.get(f"/matches/{rematch_id}/play")
        assert page.status_code == 200 and 'id="rematch"' in page.text


async def test_a_finished_matchs_player_declines_the_rematch(
    web: httpx.AsyncClient, server: str
) -> None:
    async with SenetClient(server) as senet:
        match_id, _bob = await _finished_by_form(web, senet)
        csrf = web.cookies[CSRF_COOKIE]
        page = (await web.get(f"/matches/{match_id}/play")).text
        assert 'id="decline-rematch"' in page
        url = f"/matches/{match_id}/rematch/decline"
        assert (await web.post(url)).status_code == 403  # no CSRF header
        declined = await web.post(url, headers={"x-csrf-token": csrf})
        assert declined.json() == {"declined": "You declined the rematch."}
        assert (await web.get(f"/matches/{match_id}/rematch")).json()["declined"] == (
            "You declined the rematch."
        )
        refused = await web.post(f"/matches/{match_id}/rematch", headers={"x-csrf-token": csrf})
        assert refused.status_code == 409 and refused.json()["reason"] == "REMATCH_DECLINED"
        # Bob's page (no seat cookie here: a spectator's look) says who declined.
        web.cookies.clear()
        assert (await web.get(f"/matches/{match_id}/rematch")).json()["declined"] == (
            "Ann declined the rematch."
        )


async def test_an_unlisted_match_is_created_out_of_the_lobby(
    web: httpx.AsyncClient, server: str
) -> None:
    created = await create_by_form(web, seat1="open", unlisted="true")
    match_id = created.headers["location"].split("/")[2]
    async with SenetClient(server) as senet:
        assert (await senet.get(match_id)).match.unlisted
    # Its creator's lobby lists it among the seats this browser holds; nobody else's.
    assert match_id in (await web.get("/")).text
    stranger = httpx.AsyncClient(transport=web._transport, base_url=BASE)
    lobby = (await stranger.get("/")).text
    await stranger.aclose()
    assert match_id not in lobby and "name='unlisted' value='true'" in lobby
    # The link the play page offers to send opens the join form on this match.
    assert 'id="share-link"' in (await web.get(f"/matches/{match_id}/play")).text
    async with SenetClient(server) as senet:
        stream = live.frames(senet, match_id, _seat_of(created))
        waiting = _data(await anext(stream))
        await stream.aclose()
    assert waiting["joinable"] == 1  # the page shows the link while a seat is open
    assert waiting["started"] is False  # and its Leave reopens the seat, not resigns
    sent = (await web.get("/", params={"join": match_id})).text
    assert f'value="{match_id}"' in sent
    assert 'value=""' in (await web.get("/", params={"join": "<x>"})).text  # ignored


def test_a_finished_matchs_headline_says_who_won() -> None:
    """The end's headline names the winner (or the winners of a shared first place),
    not only that the match is finished: the score box saying so is below the board."""
    from senet.web.frames import headline

    seats = [
        match_pb2.SeatInfo(seat=s, kind=match_pb2.SEAT_KIND_OPEN, display_name=n, claimed=True)
        for s, n in enumerate(["Ada", "Bob", "Cy"])
    ]
    summary = match_pb2.MatchSummary(
        game_id="pebbles", seats=seats, status=match_pb2.MATCH_STATUS_FINISHED, places=[2, 1, 3]
    )
    view = match_pb2.View()
    assert headline(summary, view, 0) == "The match is finished: seat 1 (Bob) wins."
    assert headline(summary, view, 1) == "The match is finished: seat 1 (Bob, you) wins."
    summary.places[:] = [1, 1, 3]
    assert headline(summary, view, None) == (
        "The match is finished: seat 0 (Ada) and seat 1 (Bob) share the victory."
    )
    summary.status = match_pb2.MATCH_STATUS_ABANDONED
    del summary.places[:]
    assert headline(summary, view, None) == "The match is abandoned."


def test_the_seats_table_says_who_resigned_and_who_a_bot_took_over() -> None:
    """A seat whose player resigned, or that a bot took over for good, says so beside
    the board, not "person" as when the player sat there."""
    from senet.text.seat_names import seat_kind_words
    from senet.web.frames import seats_html

    open_seat = match_pb2.SEAT_KIND_OPEN
    seats = [
        match_pb2.SeatInfo(seat=0, kind=open_seat, display_name="Ada", claimed=True),
        match_pb2.SeatInfo(seat=1, kind=open_seat, display_name="Bob", claimed=True, resigned=True),
        match_pb2.SeatInfo(
            seat=2, kind=open_seat, display_name="Cy", claimed=True, takeover_strategy="greedy"
        ),
        match_pb2.SeatInfo(seat=3, kind=match_pb2.SEAT_KIND_BOT, bot_strategy="random"),
    ]
    assert [seat_kind_words(s) for s in seats] == [
        "person",
        "resigned",
        "bot greedy (took over)",
        "bot random",
    ]
    summary = match_pb2.MatchSummary(
        game_id="pebbles", seats=seats, status=match_pb2.MATCH_STATUS_ACTIVE
    )
    table = seats_html(summary, match_pb2.View(), 0)
    assert "<td>resigned</td>" in table and "<td>bot greedy (took over)</td>" in table


async def test_the_lobby_fills_in_the_name_this_browser_last_played_under(
    web: httpx.AsyncClient,
) -> None:
    """A usability trial joined from the lobby's list and sat as "Player": the join
    button sent that name whatever the player had typed before. The name a player
    takes a seat under is now kept, and every name field of the lobby starts there."""
    first = (await web.get("/")).text
    assert "value='Player'" in first and "Zoë Q" not in first
    await create_by_form(web, name="Zoë Q", seat1="open")
    again = (await web.get("/")).text
    assert "value='Player'" not in again
    assert again.count("value='Zoë Q'") >= 3  # each game's form and the join-by-id form
    assert "<input type='hidden' name='name' value='Zoë Q'>" not in again  # held: resume
    web.cookies.set("senet_name", "x" * 41)  # not a name the pages send: ignored
    assert "value='Player'" in (await web.get("/")).text


async def test_health_and_readiness_and_a_lobby_whose_server_is_away(
    web: httpx.AsyncClient,
) -> None:
    """An operator's trial: with its server gone the lobby answered 200 with 'No
    matches yet: create one above' under the error, and there was no health URL."""
    assert (await web.get("/healthz")).json() == {"web": "ok"}
    ready = await web.get("/readyz")
    assert ready.status_code == 200 and ready.json()["server"] == "ok"
    away = create_app(WebSettings(server=f"127.0.0.1:{_free_port()}"))
    transport = httpx.ASGITransport(app=away)
    async with httpx.AsyncClient(transport=transport, base_url=BASE) as client:
        assert (await client.get("/healthz")).status_code == 200
        ready = await client.get("/readyz")
        assert ready.status_code == 503 and "No Senet server answers" in ready.json()["server"]
        lobby = await client.get("/")
        assert lobby.status_code == 503 and "No Senet server answers" in lobby.text
        assert "No matches yet" not in lobby.text
    await away.state.web.close()


def test_a_player_who_left_after_every_other_resigned_reads_as_placing_first() -> None:
    """A trial's winner left after her opponent resigned: the seats table said
    "#1 ... resigned", as though she had given up."""
    from senet.codec import codec_for
    from senet.games import get_game as game_of
    from senet.web.frames import seats_html

    state = game_of("mykerinos").new_match(2, seed=1)
    view = codec_for("mykerinos").view_to_proto(state.view(None))
    summary = match_pb2.MatchSummary(match_id="m1", game_id="mykerinos")
    for seat, name in enumerate(("Bob", "Carol")):
        summary.seats.add(
            seat=seat, kind=match_pb2.SEAT_KIND_OPEN, display_name=name, claimed=True, resigned=True
        )
    summary.status = match_pb2.MATCH_STATUS_FINISHED
    summary.places[:] = [2, 1]
    drawn = seats_html(summary, view, None)
    carol = drawn[drawn.index("Carol") :].split("</tr>")[0]
    bob = drawn[drawn.index("Bob") :].split("</tr>")[0]
    assert "left, placing first" in carol and "resigned" not in carol
    assert "resigned" in bob
