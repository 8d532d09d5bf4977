"""The Mykerinos descriptor: static facts, options and factories."""

from __future__ import annotations

from collections.abc import Mapping

from senet.games.errors import InvalidOptionsError
from senet.games.interface import Game, GameInfo, JsonDict, OptionSpec, OptionValue, SampleMatch
from senet.games.mykerinos.actions import MykerinosAction, parse_action
from senet.games.mykerinos.state import MykerinosState


class Mykerinos(Game):
    """Mykerinos: Special Edition for 2 to 4 players, with its variants as options.

    The variants combine freely (The Nile with any player count, the quick game with
    The Nile, ...) except that the team game needs exactly four players.
    """

    info = GameInfo(
        id="mykerinos",
        name="Mykerinos",
        min_seats=2,
        max_seats=4,
        description=(
            "Archaeologists dig plots in four campaigns to win patrons and the best "
            "rooms of the museum (Special Edition rules; 2 players with a neutral player)."
        ),
        options=(
            OptionSpec(
                "nile",
                "bool",
                False,
                "The Nile expansion: river spaces, Nile cards, the Governor and blocking tokens",
                variant=True,
            ),
            OptionSpec(
                "team",
                "bool",
                False,
                "Team game (4 players): seats 0+2 against 1+3; a team scores its lower score",
                variant=True,
            ),
            OptionSpec(
                "quick",
                "bool",
                False,
                "Quick game: three campaigns after each player drafts two patrons",
                variant=True,
            ),
            OptionSpec(
                "classic",
                "bool",
                False,
                "The original 2006 rules: original patron names, museum reward from the "
                "general reserve, plots never rotated",
                variant=True,
            ),
        ),
        # Plots, patrons and the museum lie face up; only the deck order is hidden.
        public_choices=True,
        sample_matches=(
            SampleMatch(2, (), 11),
            SampleMatch(2, (("nile", True),), 14),
            SampleMatch(3, (("quick", True),), 15),
            SampleMatch(3, (("classic", True),), 16),
            SampleMatch(4, (("team", True),), 17),
            SampleMatch(
                4, (("classic", True), ("nile", True), ("quick", True), ("team", True)), 18
            ),
        ),
    )
    state_class = MykerinosState

    def check_option_combination(self, seats: int, options: Mapping[str, OptionValue]) -> None:
        if options.get("team") and seats != 4:
            raise InvalidOptionsError(
                f"the team game is played by exactly 4 players (2 teams of 2), not {seats}"
            )

    def _new_state(self, seats: int, options: JsonDict, seed: int) -> MykerinosState:
        state = MykerinosState(self, seats, options)
        state.setup(seed)
        return state

    def parse_action(self, text: str) -> MykerinosAction:
        return parse_action(text)


MYKERINOS = Mykerinos()
