"""Archeos Society for learning agents: its action space and observation features.

Actions: each card kind on every card type, ``lead`` on every card type and basis,
advances and moves back on every vehicle target, every Professor token, then the bare
actions, all from the core's tables. An expedition is already built card by card in
the core (``lead``, ``add``..., ``go``), so the space stays small.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import partial
from typing import Any

from senet.games import Action, Game
from senet.games.archeos import actions as act
from senet.games.archeos.cards import CARD_NAMES, CARD_TYPES, COLOUR_NAMES, ROLE_NAMES
from senet.games.archeos.constants import STEPS
from senet.games.archeos.sites import LINGUIST_END, PROFESSOR_TOKENS, SITE_IDS
from senet.rl.encoding import DirectTensor, RlEncoding
from senet.rl.features import (
    Feature,
    Out,
    View,
    counts,
    custom,
    number,
    numbers,
    one_hot,
    players_and_scores,
    relative_seat,
    seat,
    size_of,
)
from senet.rl.native import preferred

MAX_SEATS = 6
#: The scales of the plain numbers (the direct writer, :mod:`senet.rl.archeos.tensor`,
#: divides by the same ones).
SCORE_SCALE = 50
HAND_SCALE = 10
SITE_SCALE = 10
SEASON_SCALE = 3
DECK_SCALE = 100
MONKEY_SCALE = 3
LIMIT_SCALE = 10


def _candidates() -> Iterator[Action]:
    for kind in act.CARD_KINDS:
        for card in range(CARD_TYPES):
            yield act.ArcheosAction(kind, card)
    for card in range(CARD_TYPES):
        for basis in range(len(act.BASIS_NAMES)):
            yield act.ArcheosAction(act.LEAD, card, basis)
    for kind in act.TARGET_KINDS:
        for target in range(act.TARGETS):
            yield act.ArcheosAction(kind, -1, target)
    for token in PROFESSOR_TOKENS:
        yield act.ArcheosAction(act.PROFESSOR, -1, token)
    for kind in act.BARE_KINDS:
        yield act.ArcheosAction(kind)


def _write_ur_queue(view: View, out: Out, at: int) -> None:
    queue = ((view.get("pending") or {}).get("ur_queue")) or ()
    for queued in queue:
        out[at + relative_seat(queued, view["viewer"] or 0, view["seats"])] = 1.0


_PLAYER: tuple[Feature, ...] = (
    number("score", "score", scale=SCORE_SCALE),
    number("hand size", "hand_size", scale=HAND_SCALE),
    counts("known hand", "known_hand", vocabulary=CARD_NAMES),
    numbers("sites", "sites", length=len(SITE_IDS) + 1, scale=SITE_SCALE),
    number("linguist", "linguist", scale=LINGUIST_END),
    counts("relics", "relics", vocabulary=COLOUR_NAMES),
    counts("professor tokens", "professor_tokens", vocabulary=PROFESSOR_TOKENS),
    size_of("expeditions count", "expeditions"),
    counts("hand", "hand", vocabulary=CARD_NAMES),
    counts("kept", "kept", vocabulary=CARD_NAMES),
)


class ArcheosEncoding(RlEncoding):
    """Archeos Society's action space and observation features."""

    game_id = "archeos"
    version = 1
    native_modules = ("senet.rl.cells", "senet.rl.archeos.tensor")

    def action_candidates(
        self, game: Game, seats: int, options: Mapping[str, Any]
    ) -> Iterator[Action]:
        return _candidates()

    def features(self, seats: int, options: Mapping[str, Any]) -> Sequence[Feature]:
        return (
            counts("roles in the deck", "roles", vocabulary=ROLE_NAMES),
            one_hot("advanced site", "advanced_site", vocabulary=SITE_IDS),
            number("season", "season", scale=SEASON_SCALE),
            number("seasons", "seasons", scale=SEASON_SCALE),
            one_hot("step", "step", vocabulary=STEPS),
            seat("current seat", "current_seat", max_seats=MAX_SEATS),
            seat("first seat", "first_seat", max_seats=MAX_SEATS),
            seat("last monkey seat", "last_monkey_seat", max_seats=MAX_SEATS),
            number("deck size", "deck_size", scale=DECK_SCALE),
            number("deck monkey-free top", "deck_monkey_free_top", scale=DECK_SCALE),
            number("monkeys drawn", "monkeys_drawn", scale=MONKEY_SCALE),
            counts("display", "display", vocabulary=CARD_NAMES),
            counts("professor supply", "professor_supply", vocabulary=PROFESSOR_TOKENS),
            counts("expedition cards", "expedition", "cards", vocabulary=CARD_NAMES),
            one_hot("expedition basis", "expedition", "basis", vocabulary=act.BASIS_NAMES),
            number("expedition limit", "expedition", "limit", scale=LIMIT_SCALE),
            number("expedition advanced", "expedition", "advanced"),
            number("in Ur", "pending", "in_ur"),
            number("linguist advances", "pending", "linguist_advances"),
            number("keep limit", "pending", "keep_limit"),
            number("Chichen draws", "pending", "chichen_draws"),
            custom("Ur queue", MAX_SEATS, _write_ur_queue, [("pending", "ur_queue")]),
            *players_and_scores(_PLAYER, MAX_SEATS, score_scale=SCORE_SCALE),
        )

    def direct_tensor(
        self, seats: int, options: Mapping[str, Any]
    ) -> Callable[[], DirectTensor] | None:
        """Writers from the state's fields (:class:`senet.rl.archeos.tensor.ArcheosTensor`
        on :class:`senet.rl.cells.Cells`, each compiled where its twin is built:
        :mod:`senet.rl.native`)."""
        # Imported here: the writer imports this module's scales.
        from senet.rl import cells
        from senet.rl.archeos import tensor

        writer: type[tensor.ArcheosTensor] = preferred(tensor).ArcheosTensor
        return partial(writer, self.features(seats, options), seats, preferred(cells).Cells)


ARCHEOS_RL = ArcheosEncoding()
