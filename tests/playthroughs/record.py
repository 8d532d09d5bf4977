"""Recording one seeded match as readable text, and the matches kept as playthroughs."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from senet.games import Game, SampleMatch, all_games, get_game
from senet.games.errors import GameError, InvalidOptionsError
from senet.games.interface import Action, Event, GameState, JsonDict, OptionPairs
from senet.games.rng import Rng

#: Where the playthrough files live.
DIRECTORY = Path(__file__).resolve().parent
#: Every how many decisions refused actions are tried and their messages recorded.
REFUSALS_EVERY = 10
REGENERATE = "python -m tests.playthroughs --regenerate"
#: The decision at which the view of the seat to move is recorded in full.
VIEW_AT = 60
#: The header line naming the rules version a file was recorded under.
RULES_LINE = re.compile(r"^# rules version (\d+)$", re.MULTILINE)
#: A decision's line, up to the chosen action's notation (its label left out).
_DECISION = re.compile(r"^(\d+: seat \d+, \d+ legal: .*?)(?: \(.*\))?$")


@dataclass(frozen=True)
class Playthrough:
    """One recorded match: a game, its seats and options, and the seed.

    The match starts from ``seed``; the actions are chosen by ``Rng(seed)`` among
    the legal actions in the order the game lists them, so a reordered move
    generator shows up as a different match.
    """

    game_id: str
    seats: int
    options: OptionPairs
    seed: int

    @property
    def path(self) -> Path:
        """The file this playthrough is kept in."""
        variant = "-".join(
            name if value is True else f"{name}={value}" for name, value in self.options
        )
        stem = f"{self.game_id}-{self.seats}p" + (f"-{variant}" if variant else "")
        return DIRECTORY / f"{stem}-seed{self.seed}.txt"


def sample_matches(game: Game) -> tuple[SampleMatch, ...]:
    """The matches of ``game`` kept as playthroughs: those its plug-in declares, else
    one of the base game and one per variant (each at the least seat count its rules
    allow), with the options that keep a match short."""
    if game.info.sample_matches:
        return game.info.sample_matches
    short = game.info.short_match_options
    found = [SampleMatch(game.info.min_seats, short, 1)]
    for spec in game.info.options:
        if spec.kind != "bool" or not spec.variant:
            continue
        options = (*short, (spec.name, True))
        for seats in range(game.info.min_seats, game.info.max_seats + 1):
            try:
                game.normalize_options(seats, dict(options))
            except InvalidOptionsError:
                continue
            found.append(SampleMatch(seats, options, len(found) + 1))
            break
    return tuple(found)


def playthroughs() -> tuple[Playthrough, ...]:
    """The recorded matches of every game found through the plug-ins (call it once the
    test games are enabled)."""
    return tuple(
        Playthrough(game.info.id, match.seats, match.options, match.seed)
        for game in all_games()
        for match in sample_matches(game)
    )


def _value(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _event_line(event: Event) -> str:
    fields = " ".join(f"{key}={_value(value)}" for key, value in event.data.items())
    audience = "" if event.audience is None else f" (to seats {sorted(event.audience)})"
    return f"  event {event.kind}{audience}: {fields}".rstrip()


def _refused(state: GameState, seat: int, action: str | Action) -> str:
    """The message ``apply`` gives when ``seat`` tries ``action`` (on a copy)."""
    shown = action if isinstance(action, str) else action.notation()
    try:
        state.clone().apply(seat, action)
    except GameError as exc:
        return f"  refused seat {seat} {shown!r}: {type(exc).__name__}: {exc}"
    return f"  accepted seat {seat} {shown!r}"


def _refusals(state: GameState, seat: int, earlier: list[Action]) -> list[str]:
    """The messages of the first and last of the previous decision's actions that
    are not legal now (the sentences people read when a move is refused)."""
    legal = state.legal_actions()
    stale = [a for a in earlier if a not in legal]
    return [_refused(state, seat, a) for a in (stale[:1] + stale[-1:] if len(stale) > 1 else stale)]


def record(playthrough: Playthrough) -> str:
    """The text of one playthrough, played afresh."""
    game = get_game(playthrough.game_id)
    options: JsonDict = dict(playthrough.options)
    state = game.new_match(playthrough.seats, options, playthrough.seed)
    seed = playthrough.seed
    chooser = Rng(seed)
    lines = [
        f"# {game.info.name}, {playthrough.seats} seats, options {_value(state.options)}",
        f"# seed {seed}; actions chosen by Rng({seed}) among the legal ones",
        f"# rules version {game.info.rules_version}",
        f"# Regenerate with: {REGENERATE}",
        "",
    ]
    earlier: list[Action] = []
    decision = 0
    while not state.is_over():
        seat = state.current_seat()
        assert seat is not None
        legal = state.legal_actions()
        action = chooser.choice(legal)
        lines.append(
            f"{decision}: seat {seat}, {len(legal)} legal: {action.notation()}"
            f" ({state.describe(action)})"
        )
        if decision == 0:
            lines.append(_refused(state, seat, "zz"))
            lines.append(_refused(state, (seat + 1) % state.seat_count, legal[0]))
        elif decision % REFUSALS_EVERY == 0:
            lines += _refusals(state, seat, earlier)
        if decision == VIEW_AT:
            lines.append(f"  view of seat {seat}:")
            lines += [f"    {key}: {_value(value)}" for key, value in state.view(seat).items()]
        lines += [_event_line(e) for e in state.apply(seat, action.notation(), legal)]
        earlier = legal
        decision += 1
    lines += [
        "",
        f"scores: {_value(state.scores())}",
        f"ranking: {_value(state.ranking())}",
        "final snapshot:",
        *(f"  {key}: {_value(value)}" for key, value in state.to_data().items()),
    ]
    return "\n".join(lines) + "\n"


def recorded_rules(text: str) -> int:
    """The rules version a playthrough's text was recorded under (0: none named)."""
    found = RULES_LINE.search(text)
    return 0 if found is None else int(found.group(1))


def play(text: str) -> list[str]:
    """What a replay from the seed depends on in a playthrough's text: each
    decision's seat, legal count and chosen notation, and the final scores and
    ranking (labels, messages, events and snapshots are presentation)."""
    kept = []
    for line in text.splitlines():
        decision = _DECISION.match(line)
        if decision is not None:
            kept.append(decision.group(1))
        elif line.startswith(("scores: ", "ranking: ")):
            kept.append(line)
    return kept


def unversioned_change(recorded: str, played: str) -> str | None:
    """How ``played`` plays differently from ``recorded`` under the same rules
    version (the first differing line), or None: same play, or a new version."""
    if recorded_rules(recorded) != recorded_rules(played):
        return None
    before, now = play(recorded), play(played)
    if before == now:
        return None
    for old, new in zip(before, now, strict=False):
        if old != new:
            return f"recorded {old!r}, now {new!r}"
    return f"recorded {len(before)} decisions and results, now {len(now)}"


def regenerate() -> list[Path]:
    """Write every playthrough file afresh and delete files no playthrough names.

    Raises:
        SystemExit: a match plays differently under the same rules version (the
            version must go up first); nothing is written then.
    """
    texts = {playthrough.path: record(playthrough) for playthrough in playthroughs()}
    refused = []
    for path, text in texts.items():
        change = unversioned_change(path.read_text(), text) if path.exists() else None
        if change is not None:
            refused.append(f"{path.name}: {change}")
    if refused:
        raise SystemExit(
            "the rules play these matches differently under the same rules version; raise "
            "the game's GameInfo.rules_version (docs/adding-a-game.md), then regenerate:\n  "
            + "\n  ".join(refused)
        )
    written = []
    for path, text in texts.items():
        path.write_text(text)
        written.append(path)
    for stale in sorted(set(DIRECTORY.glob("*.txt")) - set(written)):
        stale.unlink()
    return written
