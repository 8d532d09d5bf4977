"""The server's refusals as a person in a browser should read them.

A reason code (``NO_OPEN_SEAT``) is for programs. Where the web pages know what a
person can do about a refusal they say so; otherwise the server's own message is
shown, as the terminal client shows it (:func:`senet.text.errors.for_people`).
"""

from __future__ import annotations

from senet.client.errors import SenetRpcError
from senet.text.errors import for_people

#: What a page says for the refusals a person meets in a browser.
SENTENCES: dict[str, str] = {
    "NO_OPEN_SEAT": "Every seat of this match is taken: you can watch it instead.",
    "SEAT_TAKEN": "Someone already holds that seat: pick another seat, or watch the match.",
    "BOT_SEAT": "A bot plays that seat: pick an open seat, or watch the match.",
    "MATCH_NOT_FOUND": "There is no match with that id (or it has expired).",
    "MATCH_NOT_FINISHED": "This match is not over yet: only a finished match can be replayed.",
    "MATCH_NOT_STARTED": "The match has not started: it waits for every open seat to be taken.",
    "NOT_YOUR_TURN": "It is not your turn.",
    "GAME_OVER": "The match is over.",
    "STALE_VERSION": "The position changed before your move arrived: look again and choose.",
    "BAD_TOKEN": "This browser's seat in the match is no longer valid (the seat was taken over).",
    "TOKEN_REQUIRED": "Only a player of this match may do that.",
    "RATE_LIMITED": "Too many requests at once: wait a moment and try again.",
    "QUOTA_EXCEEDED": "You have done that too often for now: wait a minute and try again.",
    "REMATCH_STARTED": "Your rematch has started: play it on its page (or resign there).",
}
#: What a page says for a malformed field a person typed (``MALFORMED_REQUEST``
#: with the field in its facts), formatted with the facts (``limit``).
FIELD_SENTENCES: dict[str, str] = {
    "display_name": (
        "A name has 1 to {limit} characters: letters, digits, spaces and signs, "
        "with no invisible or control characters."
    ),
}
#: Refusals whose server message names the problem with the input (keep it, reworded).
_ABOUT_THE_ACTION = frozenset({"ILLEGAL_ACTION", "MALFORMED_ACTION", "INVALID_OPTIONS"})


def human(error: BaseException, server: str = "") -> str:
    """One sentence for a person, never a reason code."""
    if isinstance(error, SenetRpcError):
        if error.reason in _ABOUT_THE_ACTION:
            return f"Not accepted: {for_people(error, server)}"
        sentence = SENTENCES.get(error.reason)
        if sentence is not None:
            return sentence
        field = FIELD_SENTENCES.get(error.facts.get("field", ""))
        # The sentence is for a name's length and characters (the facts give its
        # limit); any other refusal of the field says its own words.
        if error.reason == "MALFORMED_REQUEST" and field is not None and "limit" in error.facts:
            return field.format(limit=error.facts.get("limit", "40"))
    return for_people(error, server)


__all__ = ["SENTENCES", "human"]
