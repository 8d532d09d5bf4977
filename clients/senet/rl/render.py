"""What the learning environments render: the table as a spectator sees it.

``render_mode="ansi"`` returns the text client's drawing of the match (the table a
watcher of ``senet play --watch`` sees: no seat's hidden cards), under a line with the
step, the last action and the scores. ``render_mode="rgb_array"`` draws the same text
(in the text client's ASCII characters) into an image of a fixed size, for video
recorders (Gymnasium's ``RecordVideo``) and for libraries that ask every environment
for frames (Stable-Baselines3's ``make_vec_env`` given an id).

The drawing is the text client's (:mod:`senet.text`), through the view's protocol
message (:mod:`senet.codec`), so a game with its own text renderer is drawn as in the
terminal and any other by the generic renderer.
"""

from __future__ import annotations

import functools
import io
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
from rich.console import Console

from senet.codec import codec_for
from senet.games import GameState
from senet.text.drawing import ASCII, UNICODE, WIDTH, Charset
from senet.text.renderer import renderer_for

if TYPE_CHECKING:
    from PIL import ImageFont

#: Text rows of an image: the tallest table of the three games at six seats (55
#: rows over random matches) and the heading, with room to spare; a taller table
#: is cut, so every frame of an episode has one size.
IMAGE_ROWS = 64
#: Pixels around the text.
_MARGIN = 4
#: Pixels between rows, beyond the font's height.
_LEADING = 1


def table_text(state: GameState, game_id: str, heading: str, cs: Charset = UNICODE) -> str:
    """``heading``, then the spectator's table of ``state`` as the text client draws it."""
    view = codec_for(game_id).view_to_proto(state.view(None))
    console = Console(
        width=WIDTH, record=True, file=io.StringIO(), color_system=None, highlight=False
    )
    for line in renderer_for(game_id).match_lines(view, None, None, cs):
        console.print(line)
    return f"{heading}\n{console.export_text(styles=False)}"


def table_image(state: GameState, game_id: str, heading: str) -> npt.NDArray[np.uint8]:
    """The spectator's table of ``state`` drawn as black text on white, an RGB array
    of :data:`IMAGE_ROWS` rows of :data:`~senet.text.drawing.WIDTH` columns."""
    from PIL import Image, ImageDraw

    font = _font()
    left, top, right, bottom = font.getbbox("M")
    cell_w, cell_h = right - left, bottom - top + _LEADING
    size = (WIDTH * cell_w + 2 * _MARGIN, IMAGE_ROWS * cell_h + 2 * _MARGIN)
    image = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(image)
    lines = table_text(state, game_id, heading, ASCII).splitlines()[:IMAGE_ROWS]
    for row, line in enumerate(lines):
        # The bitmap font has Latin-1 glyphs only (the ASCII drawing keeps to them,
        # but for a truncation's ellipsis).
        shown = line.replace("\u2026", "...").encode("latin-1", "replace").decode("latin-1")
        draw.text((_MARGIN, _MARGIN + row * cell_h), shown, fill="black", font=font)
    return np.asarray(image, dtype=np.uint8)


@functools.cache
def _font() -> ImageFont.ImageFont:
    """Pillow's built-in bitmap font: fixed width, so the table's columns line up,
    and no font file to find on the machine (loaded once: 0.3 ms a load)."""
    from PIL import ImageFont

    return ImageFont.load_default_imagefont()
