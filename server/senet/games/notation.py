"""Numbers in action notation, read the same way by every game's parser.

A number in notation is written in ASCII decimal digits, without a sign, a space or
a leading zero, so that exactly one text names each value. ``str.isdigit`` and
``int`` are wider than that: ``isdigit`` also accepts superscripts and circled
digits (``"²"``, ``"⑤"``) that ``int`` then refuses with a ``ValueError``, and
``int`` reads other scripts' digits (``"٣"``, the fullwidth one, U+FF11) as if they were
ASCII. A parser built on them either crashes on such a token or accepts a second
notation for an action.
"""

from __future__ import annotations

from senet.games.errors import MalformedActionError


def read_number(token: str, low: int, high: int) -> int | None:
    """The integer in ``[low, high]`` that ``token`` writes, or None if it writes none.

    For parsers that explain a bad token in their own words; the others use
    :func:`parse_number`.

    Args:
        token: One word of notation.
        low: The smallest value accepted (not negative).
        high: The largest value accepted; it also bounds how many digits are read,
            so a long token is refused before any conversion.
    """
    if not 0 < len(token) <= len(str(high)):
        return None
    if not (token.isascii() and token.isdigit()) or (token[0] == "0" and len(token) > 1):
        return None
    value = int(token)
    return value if low <= value <= high else None


def parse_number(token: str, what: str, low: int, high: int) -> int:
    """The integer in ``[low, high]`` that ``token`` writes in ASCII decimal digits.

    Args:
        token: One word of notation.
        what: What the number is, for the error message (``"a seat number"``).
        low: The smallest value accepted (not negative).
        high: The largest value accepted.

    Raises:
        MalformedActionError: ``token`` writes no such number; the message names it.
    """
    value = read_number(token, low, high)
    if value is None:
        raise MalformedActionError(f"{token!r} is not {what}")
    return value
