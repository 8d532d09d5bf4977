"""Which board elements choose which Mare Nostrum action.

A key is one lowercase letter, a colon and a name, so that the page's "Picked" line
reads the name alone (``s:lati`` reads ``lati``):

====================  ==========================================================
``s:<space>``         a province or a sea on the map
``h:<card>``          a card type of the viewer's hand (``h:grain``)
``t:<seat>-<card>``   a face-up card of a trader (the take chain)
``g:<god>``           a god card
``c:<card id>``       a hero or wonder on offer, and the Pyramids
``p:<seat>``          a player (``next``, ``grant``)
====================  ==========================================================

An action names every space it names in its notation, in order, so ``sail lati tyr``
is a click on Latium then on the Tyrrhenian Sea (either order narrows the same way).
What happens after a battle (sack, occupy, convert, a loss) belongs to the province
fought over, though the notation does not name it. ``size``, ``done`` and ``pass``
are chosen from the list.
"""

from __future__ import annotations

from senet.text.marenostrum.names import CARD_NAMES
from senet.v1 import mare_nostrum_pb2 as pb

K = pb.MareNostrumActionKind


def space_key(space: str) -> str:
    return f"s:{space}"


def hand_key(card: int) -> str:
    return f"h:{CARD_NAMES[card - 1]}"


def take_key(seat: int, card: int) -> str:
    return f"t:{seat}-{CARD_NAMES[card - 1]}"


def god_key(god: str) -> str:
    return f"g:{god}"


def card_key(card_id: str) -> str:
    return f"c:{card_id}"


def player_key(seat: int) -> str:
    return f"p:{seat}"


#: Kinds whose ``card`` is one of the viewer's hand.
_FROM_HAND = frozenset(
    {
        K.MARE_NOSTRUM_ACTION_KIND_OFFER,
        K.MARE_NOSTRUM_ACTION_KIND_GIVE,
        K.MARE_NOSTRUM_ACTION_KIND_PAY,
        K.MARE_NOSTRUM_ACTION_KIND_SWAP,
        K.MARE_NOSTRUM_ACTION_KIND_GILD,
        K.MARE_NOSTRUM_ACTION_KIND_BARTER,
    }
)
#: Kinds that act on the province of the battle being resolved.
_AFTER_BATTLE = frozenset(
    {
        K.MARE_NOSTRUM_ACTION_KIND_SACK,
        K.MARE_NOSTRUM_ACTION_KIND_OCCUPY,
    }
)


def action_targets(action: pb.MareNostrumAction, view: pb.MareNostrumView) -> list[str]:
    """The keys that, clicked in turn, choose ``action`` (see the module's table)."""
    kind = action.kind
    keys: list[str] = []
    if kind in (K.MARE_NOSTRUM_ACTION_KIND_GOD, K.MARE_NOSTRUM_ACTION_KIND_INVOKE):
        keys.append(god_key(action.god))
    elif kind == K.MARE_NOSTRUM_ACTION_KIND_BUY:
        keys.append(card_key(action.card_id))
    elif kind == K.MARE_NOSTRUM_ACTION_KIND_TAKE and action.HasField("seat"):
        keys.append(take_key(action.seat, action.card))
    elif kind in (K.MARE_NOSTRUM_ACTION_KIND_NEXT, K.MARE_NOSTRUM_ACTION_KIND_GRANT):
        if action.HasField("seat"):
            keys.append(player_key(action.seat))
    elif kind in _FROM_HAND and action.card:
        keys.append(hand_key(action.card))
    elif kind in _AFTER_BATTLE or (kind == K.MARE_NOSTRUM_ACTION_KIND_CONVERT and not action.space):
        if view.after_battle:
            keys.append(space_key(view.after_battle))
    elif kind == K.MARE_NOSTRUM_ACTION_KIND_LOSE and view.losses:
        keys.append(space_key(view.losses[0].space))
    for space in (action.space, action.destination):
        if space and space_key(space) not in keys:
            keys.append(space_key(space))
    return keys
