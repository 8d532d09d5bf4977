"""The lobby's new-match form: what ``senet play --new`` takes on the command line.

For the game picked, the form asks how many people play (you and those who join
with the printed command), a strategy for each bot seat, the turn clocks (seconds
per decision, reserve, increment), the game's own options (each with its
description; a checkbox, a number or a choice) and a seed. Ctrl+S or the Create
button returns a :class:`NewMatchChoices`; Escape goes back to the lobby.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from senet.bots.base import STRATEGY_NAMES
from senet.v1 import games_pb2

#: What a bot seat of the form may be: no bot, or one of the strategies.
NO_BOT = "-"
#: Bot seats side by side on a row of the form, and yes/no options.
BOTS_PER_ROW = 3
FLAGS_PER_ROW = 3
#: The clock fields: id, placeholder, and what the line at the bottom says of it.
CLOCK_FIELDS = (
    ("decision_s", "per decision", "Seconds each decision may take (empty: no limit)."),
    (
        "reserve_s",
        "reserve",
        "Seconds per seat for the whole match, used up by every decision; once gone, "
        "the server plays that seat (empty: none).",
    ),
    ("increment_s", "+ per move", "Seconds added to the reserve after each move (Fischer)."),
)
#: A description's head up to a colon makes the label when it is at most this long.
LABEL_MAX = 24


def short_label(spec: games_pb2.OptionSpec) -> str:
    """A few words for an option: its description's head when the description
    starts with one (``Free set-up: 45 points...``), else its name in words."""
    head, colon, _ = spec.description.partition(":")
    if colon and len(head) <= LABEL_MAX:
        return head
    return spec.name.replace("_", " ")


@dataclass(frozen=True)
class NewMatchChoices:
    """A new match as the form filled it (``senet play --new`` arguments)."""

    game_id: str
    #: Seats for people: you and those who join.
    people: int = 1
    #: One strategy per bot seat.
    bots: tuple[str, ...] = ()
    #: ``NAME=VALUE`` items, as ``--option`` takes them (only those changed).
    options: tuple[str, ...] = ()
    decision_s: float | None = None
    reserve_s: float | None = None
    increment_s: float | None = None
    seed: int | None = None
    #: Left out of the lobby: only those given the match id find it.
    unlisted: bool = False


class NewMatchForm(ModalScreen[NewMatchChoices | None]):
    """The form; see the module docstring.

    At 80x24 every game's form fits one screen (nothing to scroll): the bot seats
    and the clocks share rows, yes/no options stand three to a row under a short
    label, and one line at the bottom describes the field that has the focus.
    """

    DEFAULT_CSS = """
    NewMatchForm { align: center middle; }
    NewMatchForm > VerticalScroll {
        width: 80; max-width: 100%; height: auto; max-height: 100%;
        border: round $accent; background: $panel;
    }
    NewMatchForm .row { height: auto; }
    NewMatchForm .row > Label { width: 22; padding: 0 1 0 0; }
    NewMatchForm .row > Input { width: 1fr; height: 1; border: none; padding: 0 1; }
    NewMatchForm .row > Select { width: 1fr; height: 1; }
    NewMatchForm .row > Select > SelectCurrent { height: 1; border: none; padding: 0 1; }
    NewMatchForm .row > Checkbox { width: 1fr; height: 1; border: none; padding: 0; }
    NewMatchForm .row > Select.bot { width: 18; }
    NewMatchForm .row > Button { margin: 0 0 0 2; }
    NewMatchForm .help { color: $text-muted; height: auto; }
    NewMatchForm #field-help { height: 2; padding: 0 0 0 22; }
    NewMatchForm #problem { color: $error; height: auto; }
    """
    BINDINGS = [
        Binding("escape", "dismiss(None)", "Back"),
        Binding("ctrl+s", "create", "Create", priority=True),
    ]

    def __init__(self, game: games_pb2.GameInfo) -> None:
        super().__init__()
        self.game = game
        self.bot_rows = max(1, game.max_seats - 1)
        #: What the line at the bottom says for each field, by widget id.
        self.field_help: dict[str, str] = {}

    def compose(self) -> ComposeResult:
        game = self.game
        with VerticalScroll() as scroll:
            scroll.border_title = f"NEW {game.name or game.id} MATCH - Ctrl+S creates, Esc back"
            yield Static(
                f"{game.min_seats}-{game.max_seats} seats in all: you take the first open "
                "one, others join with the command printed.",
                classes="help",
            )
            with Horizontal(classes="row"):
                yield Label("People (you included)")
                yield Input("1", id="people", type="integer")
            self.field_help["people"] = "You and the people who join with the command printed."
            wanted = max(1, game.min_seats - 1)
            strategies = [
                (NO_BOT if s == NO_BOT else f"{s} bot", s) for s in (NO_BOT, *STRATEGY_NAMES)
            ]
            for first in range(0, self.bot_rows, BOTS_PER_ROW):
                with Horizontal(classes="row"):
                    last = min(self.bot_rows, first + BOTS_PER_ROW)
                    yield Label(
                        f"Bot seats {first + 1}-{last}" if last > first + 1 else f"Bot seat {last}"
                    )
                    for index in range(first, last):
                        field = f"bot-{index}"
                        self.field_help[field] = (
                            f"Bot seat {index + 1}: its strategy, or {NO_BOT} for no bot."
                        )
                        yield Select(
                            strategies,
                            value="random" if index < wanted else NO_BOT,
                            allow_blank=False,
                            id=field,
                            classes="bot",
                        )
            with Horizontal(classes="row"):
                yield Label("Clocks (seconds)")
                for name, placeholder, help_text in CLOCK_FIELDS:
                    self.field_help[name] = help_text
                    yield Input(id=name, type="number", placeholder=placeholder)
            flags = [spec for spec in game.options if spec.kind == games_pb2.OPTION_KIND_BOOL]
            for spec in game.options:
                if spec.kind != games_pb2.OPTION_KIND_BOOL:
                    yield from self._option(spec)
            for first in range(0, len(flags), FLAGS_PER_ROW):
                with Horizontal(classes="row"):
                    for spec in flags[first : first + FLAGS_PER_ROW]:
                        field = f"option-{spec.name}"
                        self.field_help[field] = spec.description or spec.name
                        yield Checkbox(short_label(spec), spec.default_value.bool_value, id=field)
            with Horizontal(classes="row"):
                yield Label("Seed")
                yield Input(id="seed", type="integer", placeholder="random")
                yield Checkbox("Unlisted", False, id="unlisted")
                yield Button("Create", id="create", variant="primary", compact=True)
            self.field_help["seed"] = "The same seed deals the same match (for practice)."
            self.field_help["unlisted"] = (
                "Left out of the lobby: only those you give the match id can join or watch."
            )
            yield Static("", id="field-help", classes="help")
            yield Static("", id="problem")

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """The line at the bottom describes the field that has the focus."""
        widget: Widget | None = event.widget
        while widget is not None and widget.id not in self.field_help:
            widget = widget.parent if isinstance(widget.parent, Widget) else None
        text = self.field_help.get(widget.id or "", "") if widget is not None else ""
        self.query_one("#field-help", Static).update(text)

    def _option(self, spec: games_pb2.OptionSpec) -> ComposeResult:
        default = spec.default_value
        field = f"option-{spec.name}"
        self.field_help[field] = spec.description or spec.name
        with Horizontal(classes="row"):
            yield Label(short_label(spec))
            if spec.kind == games_pb2.OPTION_KIND_CHOICE and spec.choices:
                yield Select(
                    [(choice, choice) for choice in spec.choices],
                    value=default.choice_value or spec.choices[0],
                    allow_blank=False,
                    id=field,
                )
            else:
                yield Input(str(default.int_value), id=field, type="integer")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "create":
            self.action_create()

    def on_input_submitted(self, _event: Input.Submitted) -> None:
        self.action_create()

    def action_create(self) -> None:
        try:
            choices = self.choices()
        except ValueError as exc:
            self.query_one("#problem", Static).update(str(exc))
            return
        self.dismiss(choices)

    def choices(self) -> NewMatchChoices:
        """The form's values; raises ValueError (a sentence) on a value out of range."""
        game = self.game
        people = _integer(self.query_one("#people", Input).value, "People") or 0
        picked = [self.query_one(f"#bot-{index}", Select).value for index in range(self.bot_rows)]
        bots = tuple(str(p) for p in picked if isinstance(p, str) and p != NO_BOT)
        seats = people + len(bots)
        if people < 1:
            raise ValueError("At least one person plays: you.")
        if not game.min_seats <= seats <= game.max_seats:
            raise ValueError(
                f"{seats} seats in all; {game.id} takes {game.min_seats} to {game.max_seats}."
            )
        options = []
        for spec in game.options:
            widget = self.query_one(f"#option-{spec.name}")
            value: object
            if isinstance(widget, Checkbox):
                value = widget.value
                if value == spec.default_value.bool_value:
                    continue
                value = "true" if value else "false"
            elif isinstance(widget, Select):
                value = widget.value
                if value == spec.default_value.choice_value:
                    continue
            else:
                assert isinstance(widget, Input)
                number = _integer(widget.value, spec.name)
                if number is None or number == spec.default_value.int_value:
                    continue
                value = number
            options.append(f"{spec.name}={value}")
        return NewMatchChoices(
            game_id=game.id,
            people=people,
            bots=bots,
            options=tuple(options),
            decision_s=_number(self.query_one("#decision_s", Input).value, "Seconds per decision"),
            reserve_s=_number(self.query_one("#reserve_s", Input).value, "Reserve"),
            increment_s=_number(self.query_one("#increment_s", Input).value, "Increment"),
            seed=_integer(self.query_one("#seed", Input).value, "Seed"),
            unlisted=self.query_one("#unlisted", Checkbox).value,
        )


def _integer(text: str, what: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{what}: a whole number, please (not {text!r}).") from None


def _number(text: str, what: str) -> float | None:
    text = text.strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{what}: a number of seconds, please (not {text!r}).") from None
    if value < 0:
        raise ValueError(f"{what}: not below zero.")
    return value


__all__ = ["NO_BOT", "NewMatchChoices", "NewMatchForm"]
