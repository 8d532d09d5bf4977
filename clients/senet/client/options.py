"""Game options typed on a command line, as the client library's ``create_match`` takes them."""

from __future__ import annotations


def parse_options(items: list[str]) -> dict[str, bool | int | str]:
    """``["campaigns=3", "quick=true"]`` -> ``{"campaigns": 3, "quick": True}``.

    ``true``/``false`` (any case) become booleans and whole numbers integers; the
    server checks names and values against the game's options.
    """
    options: dict[str, bool | int | str] = {}
    for item in items:
        name, equals, raw = item.partition("=")
        if not equals or not name:
            raise ValueError(f"--option takes NAME=VALUE, got {item!r}")
        value: bool | int | str = raw
        if raw.lower() in ("true", "false"):
            value = raw.lower() == "true"
        elif raw.lstrip("-").isdigit():
            value = int(raw)
        options[name] = value
    return options
