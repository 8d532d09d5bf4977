"""How Mykerinos actions read: the help text and the titles of a long list's groups."""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.text import Text

from senet.text import actions as shared
from senet.text.choose import InputHints
from senet.text.drawing import WIDTH
from senet.v1 import match_pb2

#: ``take left`` for ``take l``, and a board space (``c2``) typed alone for the one
#: action that places there.
INPUT_HINTS = InputHints(aliases={"left": "l", "right": "r"}, arguments=re.compile(r"^[a-h][1-9]$"))

HELP = """\
Type the number of an action, or its notation, then Enter. Notation:
  a c2          A: start on c2            b c3 d3        B: expand onto c3, d3
  cur c2 c3     Curator                   col c3 d3 e3   Colonel
  exp c2        Explorer (pyramid)        hei c2         Heiress
  dir exp5      Director into a room      pass           stop for this campaign
  na c2         neutral player starts     nb c3 d3       neutral player expands
  nskip         no neutral action         take l/take r  claim a plot
  mus exp5      museum reward             discard l      the neutral's discard
Variants:
  ta c2         team: start, teammate's   tb c3 d3       team: expand, mate's
  draft cur     quick game: draft         gov c2         Governor (The Nile)
  block f5      blocking token (or room)  take n1        claim a Nile card
  usetie        win a tie with the card   keeptie        keep the tie card
Space names alone (like c2) pick the one action that places there.
Commands: ? N (label of action N), list (all, with labels), board, quit.
Spaces: columns a-h from the left, rows 1-9 from the top."""

#: Titles of the action kinds (the first word of the notation) in a long list.
KIND_TITLE: dict[str, str] = {
    "a": "A: start an excavation (1 archaeologist)",
    "b": "B: expand an excavation (2 archaeologists)",
    "cur": "Curator: start with 2 adjacent archaeologists",
    "col": "Colonel: expand with 3 archaeologists",
    "exp": "Explorer: one archaeologist onto a pyramid",
    "hei": "Heiress: one from the general reserve, then start/expand",
    "dir": "Director: one archaeologist into a museum room",
    "na": "Neutral player: start an excavation",
    "nb": "Neutral player: expand an excavation",
    "ta": "Team: start with your teammate's archaeologist",
    "tb": "Team: expand your teammate's excavation (2 of theirs)",
    "gov": "Governor: start/expand, then place a blocking token",
    "block": "Blocking token: on an empty space or museum room",
}


def action_lines(actions: Sequence[match_pb2.LegalAction], width: int = WIDTH) -> list[Text]:
    """The legal actions, numbered, long lists grouped under Mykerinos's kind titles."""
    return shared.action_lines(actions, width, KIND_TITLE)
