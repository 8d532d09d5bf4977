"""The rewards of a finished match, as every learning adapter hands them out."""

from __future__ import annotations

from senet.games import GameState


def final_rewards(state: GameState) -> list[float]:
    """Each seat's reward for a finished match: (seats beaten - seats ahead) / (seats - 1)."""
    ranking = state.ranking()
    others = max(1, len(ranking) - 1)
    return [
        (sum(place < other for other in ranking) - sum(other < place for other in ranking)) / others
        for place in ranking
    ]
