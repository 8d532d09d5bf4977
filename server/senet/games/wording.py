"""English wording shared by the games' labels and the clients' phrases.

Labels name cards, patrons, units and games that come from tables, so the article in
front of them cannot be written by hand: ``a_or_an`` chooses it by how the word is
said, not how it is spelt ("an Explorer", "a unit", "an heiress", "an 8-room").
"""

from __future__ import annotations

# Spelt with a vowel, said with a consonant: "a unit", "a one-off", "a European".
_CONSONANT_SOUNDS = ("one", "once", "uni", "use", "usu", "uti", "ure", "eu", "ewe")
# Spelt with a consonant, said with a vowel: the silent h.
_VOWEL_SOUNDS = ("heir", "honest", "honor", "honour", "hour")


def a_or_an(phrase: str) -> str:
    """``phrase`` with the indefinite article its first word takes.

    Args:
        phrase: a noun phrase, as it will be shown (its case is kept).

    Returns:
        ``"an Explorer"``, ``"a tax card"``, ``"an oil card"``, ``"a unit"``,
        ``"an 11-seat match"``.
    """
    return f"{'an' if _starts_with_vowel_sound(phrase) else 'a'} {phrase}"


def _starts_with_vowel_sound(phrase: str) -> bool:
    word = phrase.strip().lower()
    if not word:
        return False
    if word[0].isdigit():
        digits = word[: len(word) - len(word.lstrip("0123456789"))]
        # Eight..., eleven, eighteen (and their thousands): the numbers said with a vowel.
        return digits.startswith("8") or (len(digits) in (2, 5) and digits[:2] in ("11", "18"))
    if word.startswith(_CONSONANT_SOUNDS):
        return False
    return word.startswith(_VOWEL_SOUNDS) or word[0] in "aeiou"
