"""How Archeos Society actions read: the help text and the titles of a long list's groups."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from senet.text import actions as shared
from senet.text.drawing import WIDTH
from senet.v1 import match_pb2

HELP = """\
Type the number of an action, or its notation, then Enter. Notation:
  take r-bot      take a display card     draw           draw from the deck
  lead r-bot col  lead, same colour       lead r-bot role  lead, same role
  add b-stu       add a card              go             play the expedition
  adv g / adv y2  advance a vehicle       back g         move a vehicle back
  cash / stay     Uluru                   prof 3         take a professor token
  keep r-stu      Physician: keep a card  done / pass    stop / no expedition
Cards are colour-role: colours r o y g b p; roles bot car cur gui lin mer pat
pho phy pil pro stu. Commands: ? N (label of action N), list, board, quit."""

#: Titles of the action kinds (the first word of the notation) in a long list.
KIND_TITLE: dict[str, str] = {
    "take": "Take a card from the display",
    "lead": "Lead an expedition (card, then col or role)",
    "add": "Add a card to the expedition",
    "adv": "Advance a vehicle",
    "keep": "Keep a card (Physician)",
}


def action_lines(actions: Sequence[match_pb2.LegalAction], width: int = WIDTH) -> list[Text]:
    """The legal actions, numbered, long lists grouped under Archeos Society's kind titles."""
    return shared.action_lines(actions, width, KIND_TITLE)
