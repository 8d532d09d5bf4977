"""The pages' HTML: the lobby, built from ListGames, and the shells of the match pages.

Pages are plain HTML from two template files; everything dynamic on a match page
arrives as frames (:mod:`senet.web.frames`) and is drawn by ``static/app.js``.
Every value from the server or a person is escaped here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from importlib.resources import files
from string import Template

from senet.games.wording import a_or_an
from senet.text.seat_names import open_seats, seat_words
from senet.v1 import games_pb2, match_pb2, match_service_pb2
from senet.web.security import CSRF_FIELD

#: What may fill a seat in the lobby's create form: value and label.
SEAT_CHOICES: tuple[tuple[str, str], ...] = (
    ("you", "you"),
    ("open", "open (someone joins)"),
    ("bot:random", "bot: random"),
    ("bot:greedy", "bot: greedy"),
    ("bot:mcts", "bot: mcts"),
)
#: Bot seats the lobby proposes beside yours.
DEFAULT_SEATS = 4
#: The create form's clock fields: field name, label, TimeControl field, ms per unit.
CLOCK_FIELDS: tuple[tuple[str, str, str, int], ...] = (
    ("clock_decision_s", "seconds per decision (0: no limit)", "decision_ms", 1000),
    (
        "clock_reserve_min",
        "reserve per seat for the whole match, minutes (0: none)",
        "reserve_ms",
        60_000,
    ),
    ("clock_increment_s", "seconds added after each decision", "increment_ms", 1000),
)
#: What a timeout does, as the create form offers it.
TIMEOUT_CHOICES: tuple[tuple[str, str], ...] = (
    ("bot_move", "a random move is played"),
    ("resign", "the seat resigns"),
)


@dataclass(frozen=True)
class HeldSeat:
    """A seat this browser holds (its cookie), in a match the server still knows."""

    summary: match_pb2.MatchSummary
    seat: int


def _template(name: str) -> Template:
    return Template(files("senet.web").joinpath("templates", name).read_text(encoding="utf-8"))


#: The header's links: address, words, and the page kinds that are that page
#: (``aria-current`` marks it, for screen readers and the eye alike).
HEADER_LINKS: tuple[tuple[str, str, frozenset[str]], ...] = (
    ("/play-now", "Play now", frozenset({"queue"})),
    ("/leaderboard", "Leaderboard", frozenset({"leaderboard"})),
    ("/ladders", "Ladders", frozenset({"ladder"})),
)


def page(title: str, main: str, csrf: str, page_kind: str = "lobby", match_id: str = "") -> str:
    links = " ".join(
        f"<a href='{href}'{' aria-current=page' if page_kind in kinds else ''}>{words}</a>"
        for href, words, kinds in HEADER_LINKS
    )
    return _template("page.html").substitute(
        title=escape(title),
        main=main,
        csrf=escape(csrf, quote=True),
        page=page_kind,
        match_id=escape(match_id, quote=True),
        links=links,
    )


def match_page(title: str, csrf: str, kind: str, match_id: str) -> str:
    """A play, watch or replay page. A replay's step controls sit under the headline,
    in the first screen at any width, and its seed check beside the log."""
    bar = verify = ""
    if kind == "replay":
        bar = (
            "<section class='replay-bar' aria-label='Replay steps'>"
            "<label for='step'>Step <output id='step-out'>0</output></label>"
            "<input id='step' type='range' min='0' max='0' value='0'>"
            "<div class='replay-buttons'><button id='first' type='button'>« first</button>"
            "<button id='prev' type='button'>◀ back</button>"
            "<button id='next' type='button'>next ▶</button>"
            "<button id='last' type='button'>last »</button></div></section>"
        )
        verify = (
            "<section class='replay' aria-label='Replay'><h2>Replay</h2>"
            "<div id='verify' class='verify'>Checking the seed commitment…</div>"
            f"<p><a href='/matches/{escape(match_id, quote=True)}/export.json' download>"
            "Download the match</a> (its export as JSON: seeds, every action, results, "
            "as <code>senet export</code> writes it)</p></section>"
        )
    main = _template("match.html").substitute(replay_bar=bar, replay_controls=verify)
    return page(title, main, csrf, kind, match_id)


def _csrf_input(csrf: str) -> str:
    return f"<input type='hidden' name='{CSRF_FIELD}' value='{escape(csrf, quote=True)}'>"


def option_value(spec: games_pb2.OptionSpec, raw: str) -> bool | int | str:
    """An option's value from its form field (:func:`option_input`'s).

    Raises:
        ValueError: a number field that holds no whole number.
    """
    if spec.kind == games_pb2.OPTION_KIND_BOOL:
        return raw == "true"
    if spec.kind == games_pb2.OPTION_KIND_INT:
        return int(raw)
    return raw


def option_input(game_id: str, option: games_pb2.OptionSpec) -> str:
    field = f"opt:{option.name}"
    ident = escape(f"{game_id}-{option.name}", quote=True)
    # The description is what a person reads; the name stays in reach (hover) for
    # those who know the option from the command line.
    words = escape(option.description or option.name.replace("_", " "))
    label = f"<label for='{ident}' title='{escape(option.name, quote=True)}'>{words}</label>"
    help_text = ""
    name = escape(field, quote=True)
    if option.kind == games_pb2.OPTION_KIND_BOOL:
        checked = " checked" if option.default_value.bool_value else ""
        return (
            f"<div class='opt check'><input type='hidden' name='{name}' value='false'>"
            f"<input type='checkbox' id='{ident}' name='{name}' value='true'{checked}>"
            f"{label}{help_text}</div>"
        )
    if option.kind == games_pb2.OPTION_KIND_INT:
        bounds = ""
        if option.HasField("minimum"):
            bounds += f" min='{option.minimum}'"
        if option.HasField("maximum"):
            bounds += f" max='{option.maximum}'"
        return (
            f"<div class='opt'>{label}<input type='number' id='{ident}' name='{name}'"
            f" value='{option.default_value.int_value}'{bounds}>{help_text}</div>"
        )
    choices = "".join(
        f"<option{' selected' if c == option.default_value.choice_value else ''}>"
        f"{escape(c)}</option>"
        for c in option.choices
    )
    select = f"<select id='{ident}' name='{name}'>{choices}</select>"
    return f"<div class='opt'>{label}{select}{help_text}</div>"


def _seat_select(game: games_pb2.GameInfo, seat: int) -> str:
    ident = escape(f"{game.id}-seat{seat}", quote=True)
    default = "you" if seat == 0 else ("bot:greedy" if seat < DEFAULT_SEATS else "")
    choices = [] if seat < game.min_seats else [("", "no seat")]
    choices += list(SEAT_CHOICES)
    options = "".join(
        f"<option value='{value}'{' selected' if value == default else ''}>{escape(label)}</option>"
        for value, label in choices
    )
    return (
        f"<div class='opt'><label for='{ident}'>seat {seat}</label>"
        f"<select id='{ident}' name='seat{seat}'>{options}</select></div>"
    )


def _clock_fields(game_id: str) -> str:
    """Turn clocks for the new match (all zero: no clocks)."""
    fields = []
    for name, label, _field, _unit in CLOCK_FIELDS:
        ident = escape(f"{game_id}-{name}", quote=True)
        fields.append(
            f"<div class='opt'><label for='{ident}'>{escape(label)}</label>"
            f"<input type='number' id='{ident}' name='{name}' value='0' min='0' max='100000'></div>"
        )
    ident = escape(f"{game_id}-clock_timeout", quote=True)
    choices = "".join(
        f"<option value='{value}'>{escape(label)}</option>" for value, label in TIMEOUT_CHOICES
    )
    fields.append(
        f"<div class='opt'><label for='{ident}'>when the time runs out</label>"
        f"<select id='{ident}' name='clock_timeout'>{choices}</select></div>"
    )
    return f"<fieldset class='clocks'><legend>Clocks</legend>{''.join(fields)}</fieldset>"


def held_html(held: Sequence[HeldSeat], games: Sequence[games_pb2.GameInfo]) -> str:
    """The matches this browser holds a seat in: resume a match, replay a finished one."""
    names = {game.id: game.name for game in games}
    rows = []
    for entry in held:
        summary = entry.summary
        ident = escape(summary.match_id, quote=True)
        if summary.status == match_pb2.MATCH_STATUS_FINISHED:
            act = f"<a href='/matches/{ident}/replay'>replay</a>"
        else:
            act = f"<a class='resume' href='/matches/{ident}/play'>resume</a>"
        seat = next((s for s in summary.seats if s.seat == entry.seat), None)
        who = seat.display_name if seat is not None and seat.display_name else "you"
        status = match_pb2.MatchStatus.Name(summary.status).removeprefix("MATCH_STATUS_").lower()
        if summary.status == match_pb2.MATCH_STATUS_ACTIVE and summary.HasField("current_seat"):
            status = "your turn" if summary.current_seat == entry.seat else "active"
        rows.append(
            f"<tr><td>{escape(names.get(summary.game_id, summary.game_id))}</td>"
            f"<td><code>{escape(summary.match_id)}</code></td>"
            f"<td>seat {entry.seat} ({escape(who)})</td><td>{escape(status)}</td>"
            f"<td>{summary.version}</td><td>{act}</td></tr>"
        )
    return (
        "<section class='your-matches' id='your-matches' aria-labelledby='yours-title'>"
        "<h2 id='yours-title'>Your matches</h2>"
        "<table class='listings'><caption>The seats this browser holds</caption><thead><tr>"
        "<th scope='col'>game</th><th scope='col'>match</th><th scope='col'>your seat</th>"
        "<th scope='col'>status</th><th scope='col'>moves</th><th scope='col'></th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table></section>"
    )


def listings_html(
    listings: Sequence[match_service_pb2.MatchListing],
    games: Sequence[games_pb2.GameInfo],
    csrf: str,
    held: Sequence[HeldSeat] = (),
    name: str = "",
) -> str:
    """The lobby's matches (``ListMatches``): resume your seat, join an open seat
    (as ``name``, the name this browser last played under), watch, or replay."""
    mine = {entry.summary.match_id for entry in held}
    if not listings:
        # No games: the server did not answer (the problem above says so), so
        # nothing is known of its matches.
        return "<p class='muted'>No matches yet: create one above.</p>" if games else ""
    names = {game.id: game.name for game in games}
    rows = []
    for listing in listings:
        ident = escape(listing.match_id, quote=True)
        joinable = open_seats(listing)
        if listing.status == match_pb2.MATCH_STATUS_FINISHED:
            act = f"<a href='/matches/{ident}/replay'>replay</a>"
        elif listing.match_id in mine:
            act = (
                f"<a class='resume' href='/matches/{ident}/play'>resume</a>"
                f" <a href='/matches/{ident}/watch'>watch</a>"
            )
        elif joinable:
            act = (
                f"<form method='post' action='/join' class='inline'>{_csrf_input(csrf)}"
                f"<input type='hidden' name='match' value='{ident}'>"
                f"<input type='hidden' name='name' value='{escape(name or 'Player', quote=True)}'>"
                f"<button type='submit'>join</button></form>"
                f" <a href='/matches/{ident}/watch'>watch</a>"
            )
        else:
            act = f"<a href='/matches/{ident}/watch'>watch</a>"
        status = match_pb2.MatchStatus.Name(listing.status).removeprefix("MATCH_STATUS_").lower()
        rows.append(
            f"<tr><td class='game-name'>{escape(names.get(listing.game_id, listing.game_id))}"
            f"{' · rated' if listing.rated else ''}</td>"
            f"<td data-label='match'><code>{escape(listing.match_id)}</code></td>"
            f"<td data-label='status'>{escape(status)}</td>"
            f"<td data-label='seats'>{escape(seat_words(listing))}</td>"
            f"<td data-label='moves'>{listing.version}</td><td class='act'>{act}</td></tr>"
        )
    return (
        "<table class='listings'><caption>Newest first: join an open seat, watch, replay"
        "</caption><thead><tr><th scope='col'>game</th><th scope='col'>match</th>"
        "<th scope='col'>status</th><th scope='col'>seats</th><th scope='col'>moves</th>"
        f"<th scope='col'></th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


def lobby(
    games: Sequence[games_pb2.GameInfo],
    csrf: str,
    problem: str = "",
    listings: Sequence[match_service_pb2.MatchListing] = (),
    held: Sequence[HeldSeat] = (),
    join_id: str = "",
    name: str = "",
) -> str:
    """The lobby; ``join_id`` fills the join-by-id form (a link a player was sent),
    and ``name`` (the name this browser last played under) every name field."""
    player = escape(name or "Player", quote=True)
    forms = []
    for game in games:
        options = "".join(option_input(game.id, o) for o in game.options)
        seats = "".join(_seat_select(game, seat) for seat in range(game.max_seats))
        forms.append(
            f"<section class='game' aria-labelledby='game-{escape(game.id)}'>"
            f"<h2 id='game-{escape(game.id)}'>{escape(game.name)}</h2>"
            f"<p>{escape(game.description)} ({game.min_seats} to {game.max_seats} players)</p>"
            f"<form method='post' action='/matches' class='create'>{_csrf_input(csrf)}"
            f"<input type='hidden' name='game' value='{escape(game.id, quote=True)}'>"
            f"<fieldset><legend>Seats</legend>{seats}</fieldset>"
            f"<fieldset><legend>Options</legend>{options or '<p>none</p>'}</fieldset>"
            f"{_clock_fields(game.id)}"
            f"<div class='opt'><label for='{escape(game.id)}-name'>your name</label>"
            f"<input id='{escape(game.id)}-name' name='name' value='{player}' maxlength='40'></div>"
            f"<div class='opt check'><input type='checkbox' id='{escape(game.id)}-unlisted' "
            f"name='unlisted' value='true'><label for='{escape(game.id)}-unlisted'>unlisted: "
            "left out of the lobby, only those you send its link join or watch</label></div>"
            f"<button type='submit'>Create {escape(a_or_an(game.name))} match</button>"
            "</form></section>"
        )
    alert = f"<p class='problem' role='alert'>{escape(problem)}</p>" if problem else ""
    links = " ".join(
        f"<a href='#game-{escape(game.id, quote=True)}'>{escape(game.name)}</a>" for game in games
    )
    nav = (
        f"<nav class='new-match' aria-label='New match'>New match: {links}"
        f" · <a href='#open-matches'>Matches ({len(listings)})</a></nav>"
        if games
        else ""
    )
    main = f"""{alert}
{nav}
<div class="lobby">
{held_html(held, games) if held else ""}
{"".join(forms)}
<section class="open-matches" id="open-matches" aria-labelledby="open-title">
  <h2 id="open-title">Matches</h2>
  {listings_html(listings, games, csrf, held, name)}
</section>
<section aria-labelledby="join-title"><h2 id="join-title">Join, watch or replay by id</h2>
<form method="post" action="/join" class="inline" id="join-form">{_csrf_input(csrf)}
  <label for="join-id">match id</label>
  <input id="join-id" name="match" required pattern="[0-9A-Za-z_\\-]+"
    value="{escape(join_id, quote=True)}">
  <label for="join-name">your name</label>
  <input id="join-name" name="name" value="{player}" maxlength="40">
  <label for="join-seat">seat (empty: the first open)</label>
  <input id="join-seat" name="seat" type="number" min="0" max="15">
  <button type="submit">Join</button></form>
<form method="get" action="/watch" class="inline">
  <label for="watch-id">match id</label>
  <input id="watch-id" name="match" required pattern="[0-9A-Za-z_\\-]+">
  <button type="submit">Watch live</button>
  <button type="submit" formaction="/replay">Replay</button></form>
</section>
</div>"""
    return page("Lobby", main, csrf)
