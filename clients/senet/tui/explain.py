"""What ``?`` says about the highlighted action: its effect, and why others are not
available now.

The label comes from the server (the core's ``describe``). The rest comes from the
game's rules core used as a forward model, rebuilt from the seat's view as a bot
does (:func:`senet.bots.base.state_from_proto_view`): the action is applied to a
copy to show what it changes (the scores, who decides next), and the core's
``explain_illegal`` says why a typed action that is not listed, or ``pass``, cannot
be played now. What the view hides (other hands, the deck) is sampled, so an effect
that depends on it is a likely one; a core that cannot rebuild the position leaves
the label alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from senet.bots.base import state_from_proto_view
from senet.codec import options_from_proto
from senet.games.interface import GameState
from senet.text.renderer import TextRenderer
from senet.v1 import match_pb2

#: Seed of the forward model's guess at what the view hides.
_SEED = 0


def forward_model(
    summary: match_pb2.MatchSummary, view: match_pb2.View, seat: int
) -> GameState | None:
    """The position as the seat sees it, rebuilt by the game's core; None if it cannot be."""
    try:
        options = options_from_proto(summary.options)
        return state_from_proto_view(summary.game_id, view, seat=seat, seed=_SEED, options=options)
    except Exception:  # any core's failure only costs the extra lines
        return None


def choices_now(legal: Sequence[match_pb2.LegalAction]) -> str:
    """The kinds of action listed now, with how many of each (``a (12), pass``)."""
    counts = Counter(a.notation.split()[0] for a in legal if a.notation.split())
    return ", ".join(word if n == 1 else f"{word} ({n})" for word, n in sorted(counts.items()))


def explain(
    renderer: TextRenderer,
    summary: match_pb2.MatchSummary,
    view: match_pb2.View,
    seat: int,
    legal: Sequence[match_pb2.LegalAction],
    index: int | None,
    typed: str = "",
) -> list[str]:
    """The lines ``?`` shows: the highlighted action (``index``) and its effect, what
    may be played now, and why ``typed`` (when it fits no listed action) or ``pass``
    may not."""
    lines: list[str] = []
    state = forward_model(summary, view, seat)
    if index is not None:
        action = legal[index]
        lines.append(f"{index + 1}: {action.notation} - {action.label}")
        effect = _effect(renderer, summary, view, state, seat, action.notation)
        if effect:
            lines.append(f"  If played: {effect}")
    lines.append(f"  You may play now: {choices_now(legal)}.")
    listed = {a.notation.lower() for a in legal}
    not_now = []
    if typed.strip() and index is None:
        not_now.append(typed.strip())
    if "pass" not in listed and "pass" not in not_now:
        not_now.append("pass")
    for notation in not_now:
        why = _why_not(state, notation)
        if why:
            lines.append(f"  Not {notation!r} now: {why}")
    return lines


def _effect(
    renderer: TextRenderer,
    summary: match_pb2.MatchSummary,
    view: match_pb2.View,
    state: GameState | None,
    seat: int,
    notation: str,
) -> str:
    """What applying ``notation`` changes: scores, and who decides next."""
    if state is None:
        return ""
    try:
        before = state.scores()
        after_state = state.clone()
        after_state.apply(seat, notation)
        after = after_state.scores()
        nxt = after_state.current_seat()
    except Exception:  # a forward model that disagrees says nothing
        return ""
    parts = []
    for who, (old, new) in enumerate(zip(before, after, strict=False)):
        if old != new:
            name = "your score" if who == seat else renderer.seat_label(who, view, summary, seat)
            parts.append(f"{name} {old} -> {new}")
    if not parts:
        parts.append("no score changes yet")
    if after_state.is_over():
        parts.append("the match ends")
    elif nxt == seat:
        parts.append("you decide again")
    elif nxt is not None:
        parts.append(f"then {renderer.seat_label(nxt, view, summary, seat)} decides")
    return "; ".join(parts) + "."


def _why_not(state: GameState | None, notation: str) -> str:
    if state is None:
        return ""
    try:
        action = state.game.parse_action(notation)
        if action in state.legal_actions():
            return ""
        return state.explain_illegal(action)
    except Exception as exc:  # a bad notation says why itself
        return str(exc)


__all__ = ["choices_now", "explain", "forward_model"]
