"""The Archeos Society descriptor: static facts, options and factories."""

from __future__ import annotations

from collections.abc import Mapping

from senet.games.archeos.actions import KEEP, ArcheosAction, parse_action
from senet.games.archeos.cards import ROLE_NAMES, ROLES_PER_GAME
from senet.games.archeos.sites import SITE_IDS
from senet.games.archeos.state import ArcheosState
from senet.games.errors import InvalidOptionsError
from senet.games.interface import Game, GameInfo, JsonDict, OptionSpec, OptionValue, SampleMatch

#: ``role_<name>`` options: roles always in the deck; the rest are drawn at random.
ROLE_OPTIONS = tuple(f"role_{name}" for name in ROLE_NAMES)


class Archeos(Game):
    """Archeos Society, 2 to 6 players."""

    info = GameInfo(
        id="archeos",
        name="Archeos Society",
        min_seats=2,
        max_seats=6,
        description=(
            "Collect cards of archaeologists and lead expeditions to six sites around "
            "the world over two or three seasons, until the third monkey ends each one."
        ),
        options=(
            OptionSpec(
                name="advanced_site",
                kind="choice",
                default="random",
                description="Which site board shows its advanced side (random by default)",
                choices=("random", *SITE_IDS),
            ),
            *(
                OptionSpec(
                    name=f"role_{name}",
                    kind="bool",
                    default=False,
                    description=(
                        f"Always put the {name.capitalize()} in the deck "
                        f"(the other roles of the {ROLES_PER_GAME} are drawn at random)"
                    ),
                )
                for name in ROLE_NAMES
            ),
        ),
        sample_matches=(
            SampleMatch(2, (), 21),
            SampleMatch(3, (("advanced_site", "uluru"), ("role_linguist", True)), 22),
        ),
    )
    state_class = ArcheosState

    def check_option_combination(self, seats: int, options: Mapping[str, OptionValue]) -> None:
        chosen = [name for name in ROLE_OPTIONS if options.get(name)]
        if len(chosen) > ROLES_PER_GAME:
            raise InvalidOptionsError(
                f"at most {ROLES_PER_GAME} roles can be chosen, got {len(chosen)}: "
                + ", ".join(name.removeprefix("role_") for name in chosen)
            )

    def public_notation(self, notation: str) -> str:
        """``keep <card>`` names a card the Physician keeps secretly: others see ``keep``."""
        words = notation.split()
        if words and words[0] == KEEP:
            return KEEP
        return notation

    def _new_state(self, seats: int, options: JsonDict, seed: int) -> ArcheosState:
        state = ArcheosState(self, seats, options)
        state.setup(seed)
        return state

    def parse_action(self, text: str) -> ArcheosAction:
        return parse_action(text)


ARCHEOS = Archeos()
