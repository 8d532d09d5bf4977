"""Mykerinos constants shared by the state, its labels and its snapshots.

Colours are indexed like seats (seat ``s`` plays colour ``s``); phases and the
decisions awaited during delimitation are the strings snapshots and views carry.
"""

from __future__ import annotations

from senet.games.mykerinos import actions as act
from senet.games.mykerinos.patrons import Patron

COLOUR_NAMES: tuple[str, ...] = ("blue", "red", "green", "white")
COLOURS = len(COLOUR_NAMES)
ARCHAEOLOGISTS_PER_COLOUR = 25
EMPTY = -1

DRAFT = "draft"
EXCAVATION = "excavation"
NEUTRAL_TURN = "neutral"
BLOCKING = "blocking"
DELIMITATION = "delimitation"
OVER = "over"
PHASES = (DRAFT, EXCAVATION, NEUTRAL_TURN, BLOCKING, DELIMITATION, OVER)
#: Phases in which seats still dig (phase 2 of a campaign).
DIGGING = (EXCAVATION, NEUTRAL_TURN, BLOCKING)

AWAIT_REWARD = "reward"
AWAIT_DISCARD = "discard"
AWAIT_TIE = "tie"

#: Quick game: plots revealed for the patron draft.
DRAFT_ROW = 8
#: The Nile: blocking tokens per player.
BLOCKING_TOKENS = 3
#: Team game: archaeologists of your colour and of your teammate's per campaign.
TEAM_OWN, TEAM_MATE = 5, 3

#: The patron card each patron action uses.
PATRON_OF_KIND: dict[str, Patron] = {
    act.CURATOR: Patron.CURATOR,
    act.COLONEL: Patron.COLONEL,
    act.EXPLORER: Patron.EXPLORER,
    act.HEIRESS: Patron.HEIRESS,
    act.DIRECTOR: Patron.DIRECTOR,
    act.GOVERNOR: Patron.GOVERNOR,
}
#: The two plots of an area, by side index.
SIDE_NAMES = ("left", "right")
