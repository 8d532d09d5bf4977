"""How Mare Nostrum actions read: the help text and the titles of a long list's groups."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from senet.text import actions as shared
from senet.text.drawing import WIDTH
from senet.v1 import match_pb2

HELP = """\
Type the number of an action, or its notation, then Enter. Notation:
  size 3             trade size (Director)   offer grain    add to your offer
  take 2 wine        take seat 2's card      give tax       Director's make-up
  grant 3 / next 2   role tie, phase order   god mars/pass  offering, or none
  build legion lati  build in a province     build caravan lati wine (the icon)
  buy hercules       a hero or a wonder      buy pyramids   win at once
  pay grain          pay a card of the set   convert etru   finish a conversion
  sail lati tyr      launch/move a trireme   fight tyr rome naval battle there
  move l lati etru   move a legion (c: creature)            done  end this part
  lose legion        a battle's loss         blockade aeg   Greece's blockade
  sack city, sack caravan wine, occupy, convert             after a battle
  hold city, hold caravan wine, hold temple   occupier: put a unit on a building
  invoke vulcan etru, invoke baal etru wine, invoke poseidon tyr rome  (gods)
  invoke mars pelo (before that battle), invoke ishtar commerce (role step)
  swap grain tax     Cleopatra               gild grain     Midas
  barter tax wine    Ulysses (or pass)       gaze etru rome Medusa's gaze
  enchant etru       Circe's spell on that battle (or pass: keep it)
  gift wine          the commodity Queen of Sheba / Hanging Gardens brings
  declaring a crossing to Greece: move l magn pelo adds a unit, done ends it
Map: id=owner: R Rome G Greece E Egypt C Carthage B Babylon A Atlantis;
* capital, + new influence; c cities v caravans t temples m markets f forts;
units per civilization: l legions c creatures s unlaunched triremes; @X
occupied, %X being converted by X. Seas: triremes per civilization. DETAILS
spell out your provinces and those at war; zoom lati, zoom italia, zoom rome,
zoom seas or zoom all spell out others (regions as on the map).
Commands: ? N (label of action N), list, board, zoom <what>, quit."""

#: Titles of the action kinds (the first word of the notation) in a long list.
KIND_TITLE: dict[str, str] = {
    "build": "Build in a province (item, province)",
    "buy": "Buy a hero or a wonder",
    "offer": "Add a card to your hidden offer",
    "take": "Take a face-up card (seat, card)",
    "pay": "Pay one card of the set",
    "sail": "Launch or move a trireme (from, to)",
    "fight": "Naval battle (sea, enemy)",
    "move": "Move a unit (l/c, from, to)",
    "invoke": "Use a god's power",
    "god": "Make an offering to a god",
    "size": "Set the trade's size",
    "give": "Give the make-up card",
    "sack": "Sack a building",
    "hold": "Put a unit on a building of the province occupied",
    "barter": "Ulysses: give a card for a commodity (give, get)",
    "gaze": "Medusa: turn a legion to stone (province, civilization)",
    "enchant": "Circe: a legion of the other side does not roll (battle's province)",
    "gift": "Take the commodity a card brings (Sheba: any; Gardens: one you produce)",
}


def action_lines(actions: Sequence[match_pb2.LegalAction], width: int = WIDTH) -> list[Text]:
    """The legal actions, numbered, long lists grouped under Mare Nostrum's kind titles."""
    return shared.action_lines(actions, width, KIND_TITLE)
