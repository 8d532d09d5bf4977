"""The Mare Nostrum: Mythology descriptor: static facts, options and factories."""

from __future__ import annotations

from senet.games.interface import Game, GameInfo, JsonDict, OptionSpec, SampleMatch
from senet.games.marenostrum.actions import GIVE, OFFER, MareAction, parse_action
from senet.games.marenostrum.constants import BOUNDED_TURN_LIMIT, DEFAULT_TURN_LIMIT
from senet.games.marenostrum.state import MareState


class MareNostrum(Game):
    """Mare Nostrum with its Mythology expansion, 3 to 6 players."""

    info = GameInfo(
        id="marenostrum",
        name="Mare Nostrum: Mythology",
        min_seats=3,
        max_seats=6,
        description=(
            "Build an empire around the ancient Mediterranean: trade, make offerings "
            "to the gods, build, and fight, until someone raises the Pyramids or "
            "gathers four heroes and wonders."
        ),
        options=(
            OptionSpec(
                name="free_setup",
                kind="bool",
                default=False,
                description="Free set-up: 45 points spent in five rounds of 9",
                variant=True,
            ),
            OptionSpec(
                name="long_game",
                kind="bool",
                default=False,
                description="Long game: 5 heroes and/or wonders, the Pyramids cost 13",
                variant=True,
            ),
            OptionSpec(
                name="mythology_hannibal",
                kind="bool",
                default=False,
                description="Mythology Hannibal: Carthage's hero also gives a free legion "
                "each construction phase",
                variant=True,
            ),
            OptionSpec(
                name="turn_limit",
                kind="int",
                default=DEFAULT_TURN_LIMIT,
                description="End after this many turns and rank the players (0: no limit)",
                minimum=0,
                maximum=200,
            ),
        ),
        # A default match at six seats is about 1,400 decisions; one turn passes
        # through every phase.
        short_match_options=(("turn_limit", 1),),
        # Without a limit a match ends only when someone wins (ruling R17), which
        # random or weak players may never do.
        bounded_match_options=(("turn_limit", BOUNDED_TURN_LIMIT),),
        sample_matches=(
            SampleMatch(3, (("turn_limit", 2),), 41),
            SampleMatch(4, (("free_setup", True), ("long_game", True), ("turn_limit", 1)), 42),
            SampleMatch(5, (("mythology_hannibal", True), ("turn_limit", 1)), 43),
        ),
        # 2: a civilization hero the free set-up left unbought is for sale in
        # construction (ruling R60).
        rules_version=2,
    )
    state_class = MareState

    def public_notation(self, notation: str) -> str:
        """``offer <card>`` and ``give <card>`` name a secret card: others see the verb."""
        words = notation.split()
        if words and words[0] in (OFFER, GIVE):
            return words[0]
        return notation

    def _new_state(self, seats: int, options: JsonDict, seed: int) -> MareState:
        state = MareState(self, seats, options)
        state.setup(seed)
        return state

    def parse_action(self, text: str) -> MareAction:
        return parse_action(text)


MARENOSTRUM = MareNostrum()
