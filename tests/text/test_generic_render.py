"""Every game can be played in a terminal: renderers are plug-ins, and a game without
one is drawn from its messages alone by the generic renderer."""

from __future__ import annotations

import io
import types
from typing import Any, cast

import pytest
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory, struct_pb2
from google.protobuf.message import Message

from senet.codec import codec_for
from senet.games import Rng, get_game
from senet.text import drawing
from senet.text.app import Session, TextApp
from senet.text.archeos import ARCHEOS_RENDERER
from senet.text.generic import GENERIC_RENDERER, arm_fields, describe_event
from senet.text.mykerinos import MYKERINOS_RENDERER
from senet.text.renderer import TEXT_RENDERERS, renderer_for
from senet.v1 import archeos_pb2, match_pb2, match_service_pb2
from senet.v1 import mykerinos_pb2 as pb

GAMES = ("mykerinos", "archeos")


def _synthetic_types() -> tuple[type[Message], type[Message]]:
    """A ``View`` and a ``GameEvent`` of a game with no messages of its own: a
    ``game`` oneof whose arm is a ``Struct``, as a new game's protocol may have."""
    pool = descriptor_pool.DescriptorPool()
    pool.AddSerializedFile(struct_pb2.DESCRIPTOR.serialized_pb)
    file = descriptor_pb2.FileDescriptorProto(
        name="synthetic.proto",
        package="synthetic",
        syntax="proto3",
        dependency=["google/protobuf/struct.proto"],
    )
    for name in ("View", "GameEvent"):
        message = file.message_type.add(name=name)
        message.oneof_decl.add(name="game")
        message.field.add(
            name="generic",
            number=3,
            type=descriptor_pb2.FieldDescriptorProto.TYPE_MESSAGE,
            label=descriptor_pb2.FieldDescriptorProto.LABEL_OPTIONAL,
            type_name=".google.protobuf.Struct",
            oneof_index=0,
        )
    pool.Add(file)
    view = message_factory.GetMessageClass(pool.FindMessageTypeByName("synthetic.View"))
    event = message_factory.GetMessageClass(pool.FindMessageTypeByName("synthetic.GameEvent"))
    return view, event


def _summary(game_id: str, seats: int, current: int | None = 0) -> match_pb2.MatchSummary:
    summary = match_pb2.MatchSummary(
        match_id="0123456789abcdef",
        game_id=game_id,
        status=match_pb2.MATCH_STATUS_ACTIVE,
        seats=[
            match_pb2.SeatInfo(seat=0, display_name="Ada", claimed=True),
            match_pb2.SeatInfo(seat=1, kind=match_pb2.SEAT_KIND_BOT, bot_strategy="random"),
        ][:seats],
        scores=[3, 5][:seats],
    )
    if current is not None:
        summary.current_seat = current
    return summary


def _views(game_id: str) -> list[match_pb2.View]:
    """The views of seat 0 along a random match, every few actions."""
    state = get_game(game_id).new_match(3, seed=5)
    rng = Rng(11)
    codec = codec_for(game_id)
    views = []
    for step in range(400):
        if state.is_over():
            break
        if step % 40 == 0:
            views.append(codec.view_to_proto(state.view(0)))
        state.apply_unchecked(rng.choice(state.legal_actions()))
    views.append(codec.view_to_proto(state.view(0)))
    return views


def _synthetic_view() -> match_pb2.View:
    view_type, _ = _synthetic_types()
    view = view_type()
    cast(Any, view).generic.update(
        {
            "board": [["x", "", "o"], ["", "x", ""], ["o", "", ""]],
            "phase": "play",
            "players": [{"seat": 0, "stones": 3}, {"seat": 1, "stones": 2, "passed": True}],
            "note": "a long note " * 12,
        }
    )
    return cast(match_pb2.View, view)


# ------------------------------------------------------------------ the registry
def test_senet_games_publish_their_renderers() -> None:
    assert {"archeos", "mykerinos"} <= set(TEXT_RENDERERS.game_ids())
    assert renderer_for("mykerinos") is MYKERINOS_RENDERER
    assert renderer_for("archeos") is ARCHEOS_RENDERER


def test_a_game_without_a_renderer_gets_the_generic_one() -> None:
    assert renderer_for("no-such-game") is GENERIC_RENDERER
    assert renderer_for("") is GENERIC_RENDERER
    assert "Commands:" in GENERIC_RENDERER.help_text


# ------------------------------------------------------------------ the generic table
@pytest.mark.parametrize("game_id", GAMES)
def test_any_view_draws_within_80_columns(game_id: str) -> None:
    for view in _views(game_id):
        for cs in (drawing.UNICODE, drawing.ASCII):
            text = drawing.to_text(GENERIC_RENDERER.match_lines(view, _summary(game_id, 2), 0, cs))
            assert max(len(line) for line in text.splitlines()) <= drawing.WIDTH


def test_the_table_shows_seats_turn_scores_and_the_view_fields() -> None:
    view = match_pb2.View(
        mykerinos=pb.MykerinosView(
            campaign=2, phase=pb.MYKERINOS_PHASE_EXCAVATION, deck_size=7, current_seat=0
        )
    )
    lines = GENERIC_RENDERER.match_lines(view, _summary("mykerinos", 2), 0, drawing.UNICODE)
    plain = [line.plain for line in lines]
    assert plain[0] == "MYKERINOS  match 0123456789abcdef  active"
    assert plain[1] == "To move: seat 0 (Ada, you) - your turn"
    assert plain[3].startswith("\u25b6 seat 0 (Ada, you)") and "score    3" in plain[3]
    assert plain[4].startswith("  seat 1 (random bot)") and "score    5" in plain[4]
    assert "STATE" in plain
    # Enum values lose their type's prefix; fields at their default are left out.
    assert "phase: excavation" in plain and "campaign: 2" in plain and "deck_size: 7" in plain
    assert not any(line.startswith("campaigns:") for line in plain)


def test_ascii_and_no_colour_are_honoured() -> None:
    view = _views("archeos")[1]
    lines = GENERIC_RENDERER.match_lines(view, _summary("archeos", 2), 0, drawing.ASCII)
    assert all(line.plain.isascii() for line in lines)
    assert any(line.plain.startswith("> seat 0") for line in lines)
    plain = io.StringIO()
    console = drawing.make_console(no_color=True, file=plain, force_terminal=True)
    console.print(*lines)
    assert "\x1b[" not in plain.getvalue()
    coloured = io.StringIO()
    drawing.make_console(file=coloured, force_terminal=True).print(*lines)
    assert "\x1b[" in coloured.getvalue()


def test_a_struct_view_of_a_game_without_messages_draws_nested_fields() -> None:
    lines = GENERIC_RENDERER.match_lines(
        _synthetic_view(), _summary("tiny", 2, current=1), None, drawing.ASCII
    )
    plain = [line.plain for line in lines]
    assert plain[0].startswith("TINY  match")
    assert "To move: seat 1 (random bot)" in plain
    assert "board: [[x, , o], [, x, ], [o, , ]]" in plain
    assert "phase: play" in plain
    # A Struct's keys are sorted (a map keeps no order) and its numbers are integers.
    assert "players: [{seat=0, stones=3}, {passed=true, seat=1, stones=2}]" in plain
    state = plain[plain.index("STATE") + 1 :]
    fields = [line.split(":")[0] for line in state if not line.startswith(" ")]
    assert fields == ["board", "note", "phase", "players"]
    note = plain.index(next(line for line in plain if line.startswith("note: ")))
    assert plain[note + 1].startswith("      ") and "long note" in plain[note + 1]  # wrapped
    assert all(len(line) <= drawing.WIDTH for line in plain)


def test_a_view_with_no_arm_set_still_draws() -> None:
    plain = [
        line.plain
        for line in GENERIC_RENDERER.match_lines(
            match_pb2.View(), _summary("tiny", 1), 0, drawing.UNICODE
        )
    ]
    assert plain[-2:] == ["STATE", "(nothing to show)"]


def test_arm_fields_reads_whatever_arm_is_set() -> None:
    assert arm_fields(match_pb2.View()) == ("", {})
    arm, fields = arm_fields(match_pb2.View(archeos=archeos_pb2.ArcheosView(season=2)))
    assert (arm, fields) == ("archeos", {"season": 2})
    value = struct_pb2.Value(struct_value=struct_pb2.Struct(fields={"a": struct_pb2.Value()}))
    assert arm_fields(value, oneof="kind") == ("struct_value", {"a": None})


# ------------------------------------------------------------------ the log, the end
def test_event_lines_give_the_kind_then_the_fields() -> None:
    names = _summary("mykerinos", 2)
    view = match_pb2.View(mykerinos=pb.MykerinosView())
    update = match_pb2.MatchUpdate(seat=1, notation="pass")
    update.events.add().mykerinos.passed.CopyFrom(
        pb.MykerinosEvent.Passed(seat=1, tiebreak_space=2)
    )
    update.events.add().archeos.CopyFrom(
        archeos_pb2.ArcheosEvent(kind=archeos_pb2.ARCHEOS_EVENT_KIND_SEASON_STARTED, season=2)
    )
    lines = GENERIC_RENDERER.update_lines(update, view, names, 0)
    assert lines == [
        "seat 1 (random bot): pass",
        "  passed: seat=1, tiebreak_space=2",
        "  season_started: season=2",
    ]
    _, event_type = _synthetic_types()
    event = event_type()
    cast(Any, event).generic.update({"kind": "placed", "cell": "b2", "why": "x" * 100})
    arm, fields = arm_fields(event)
    assert describe_event(fields, arm).startswith("placed: cell=b2, why=xxx")
    update = match_pb2.MatchUpdate(seat=0, notation="b2")
    line = GENERIC_RENDERER.update_lines(update, view, None, None)[0]
    assert line == "seat 0: b2"


def test_final_scores_rank_the_seats_and_name_the_winner() -> None:
    summary = _summary("tiny", 2, current=None)
    summary.status = match_pb2.MATCH_STATUS_FINISHED
    summary.places.extend([2, 1])
    plain = [
        line.plain
        for line in GENERIC_RENDERER.final_score_lines(
            match_pb2.View(), summary, 0, drawing.UNICODE
        )
    ]
    assert plain[0] == "FINAL SCORES"
    assert plain[1].split() == ["1st", "seat", "1", "(random", "bot)", "5", "pts"]
    assert plain[2].split()[:5] == ["2nd", "seat", "0", "(Ada,", "you)"]
    assert plain[-1] == "seat 1 (random bot) wins!"
    header = GENERIC_RENDERER.match_lines(match_pb2.View(), summary, 0, drawing.UNICODE)
    assert header[1].plain == "Match finished."


# ------------------------------------------------------------------ the client
def _app(summary: match_pb2.MatchSummary, view: match_pb2.View) -> tuple[TextApp, io.StringIO]:
    out = io.StringIO()
    session = Session(cast(Any, None), "127.0.0.1:1", summary.match_id)
    app = TextApp(session, drawing.make_console(no_color=True, file=out), clear=False)
    app.summary, app.view = summary, view
    return app, out


def test_the_client_draws_each_game_with_its_renderer_and_others_generically() -> None:
    mykerinos = _views("mykerinos")[0]
    app, out = _app(_summary("mykerinos", 2), mykerinos)
    app.draw()
    assert out.getvalue().startswith("MYKERINOS  match 0123456789abcdef  campaign")
    app, out = _app(_summary("tiny", 2, current=1), _synthetic_view())
    app.draw()
    text = out.getvalue()
    assert text.startswith("TINY  match") and "phase: play" in text
    assert "Waiting for seat 1 (random bot)... (a bot worker plays this seat)" in text
    update = match_pb2.MatchUpdate(seat=1, notation="b2")
    assert app._on_stream(match_service_pb2.WatchMatchResponse(update=update))
    assert list(app.log) == ["seat 1 (random bot): b2"]


def test_a_burst_of_moves_between_two_screens_is_shown_whole() -> None:
    """A screen shows every log line since the previous one (bots may move many times
    between two of a person's turns), then only the usual few."""
    app, out = _app(_summary("tiny", 2, current=1), _synthetic_view())
    for n in range(20):
        update = match_pb2.MatchUpdate(version=n + 1, seat=1, notation=f"m{n}")
        app._on_stream(match_service_pb2.WatchMatchResponse(update=update))
    app.draw()
    assert all(f"seat 1 (random bot): m{n}\n" in out.getvalue() for n in range(20))
    out.seek(0)
    out.truncate()
    app.draw()
    recent = out.getvalue().split("RECENT\n", 1)[1]
    assert "m11\n" not in recent and all(f"m{n}\n" in recent for n in range(12, 20))


def test_a_list_of_actions_holds_through_the_updates_it_was_listed_after() -> None:
    """The list fetched at version 5 already reflects updates 4 and 5, still on
    their way on the stream: they leave it standing; a later move of another seat
    that leaves ours deciding too, and nothing else, keeps it as well."""
    app, _out = _app(_summary("tiny", 2, current=0), _synthetic_view())
    app.session.seat = cast(Any, types.SimpleNamespace(seat=0, token="t"))
    listed = match_service_pb2.ListLegalActionsResponse(version=5, seat=0)
    listed.actions.add(notation="a1")

    def after(update: match_pb2.MatchUpdate) -> bool:
        app.legal = listed
        app._on_stream(match_service_pb2.WatchMatchResponse(update=update))
        return app.legal is not None

    assert after(match_pb2.MatchUpdate(version=4, seat=1, notation="b2", current_seat=1))
    assert after(match_pb2.MatchUpdate(version=5, seat=1, notation="b3", current_seat=1))
    beside = match_pb2.MatchUpdate(version=6, seat=1, notation="o", current_seat=0)
    beside.deciding_seats.extend([0, 1])
    assert after(beside)  # another seat deciding with us chose
    assert not after(match_pb2.MatchUpdate(version=6, seat=1, notation="b4", current_seat=1))
    assert not after(match_pb2.MatchUpdate(version=6, seat=0, notation="a1", current_seat=1))


@pytest.mark.parametrize("game_id", ["mykerinos", "archeos", "marenostrum", "pebbles"])
def test_a_rated_match_says_so_in_its_title(game_id: str) -> None:
    """MatchSummary.rated: every game's renderer (the generic one for Pebbles) titles
    the match ``rated match <id>``, within 80 columns."""
    state = get_game(game_id).new_match(3, seed=5)
    view = codec_for(game_id).view_to_proto(state.view(0))
    summary = _summary(game_id, 2)
    summary.seats.add(seat=2, display_name="Cy", claimed=True)
    summary.scores.append(0)
    renderer = renderer_for(game_id)
    for rated in (False, True):
        summary.rated = rated
        text = drawing.to_text(renderer.match_lines(view, summary, 0, drawing.UNICODE))
        assert ("rated match 0123456789abcdef" in text) == rated
        assert "match 0123456789abcdef" in text
        assert max(len(line) for line in text.splitlines()) <= drawing.WIDTH
