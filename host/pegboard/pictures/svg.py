"""Solutions as pictures: an SVG grid of small boards, one per step (plain text, no deps)."""

from __future__ import annotations

from pegcore.geometry import Board
from pegcore.pegcolours import hue, peg_ids

COLOURS = ("plain", "pegs")  # --colours: pegs all brown, or each in its colour (the board's `pegs` theme)


def _hole_xy(board: Board, hole: int, pitch: float) -> tuple[float, float]:
    r, c = board.row_col(hole)
    x = (c - r / 2) * pitch + (board.rows - 1) * pitch / 2
    y = r * pitch * 0.866
    return x, y


# the colours of the pictures (SVG and GIF) and what they mean: the legend under each picture
PEG, HOLE, LANDED, EMPTIED = "#8b4513", "#f0e6d2", "#2e8b57", "#ffd7a8"
LEGEND = ((PEG, "a peg"), (HOLE, "empty"), (LANDED, "it landed"), (EMPTIED, "emptied"))
LEGEND_PEGS = (("#%06x" % hue(0), "a peg, in its colour"), (HOLE, "empty"), (LANDED, "it landed (ring)"),
               (EMPTIED, "emptied"))
LIGHT_INK, DARK_INK = "#ffffff", "#3c3c3c"


def _ink(rgb: tuple[int, int, int]) -> bool:
    """Whether light ink reads better on `rgb` (a dark fill)."""
    r, g, b = rgb
    return r * 299 + g * 587 + b * 114 < 150 * 1000


def _steps(board: Board, start: int, jumps: list[int]) -> list[tuple[int, int, list[int]]]:
    """(mask, jump or -1, peg numbers per hole) for the start and after each jump."""
    out = [(start, -1, peg_ids(board, start, []))]
    m = start
    for k, j in enumerate(jumps):
        m ^= board.flip[j]
        out.append((m, j, peg_ids(board, start, jumps[:k + 1])))
    return out


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def solution_svg(board: Board, start: int, jumps: list[int], per_row: int = 5, colours: str = "plain") -> str:
    """Step 0 (the start) then the board after each jump, every hole numbered and the jump's holes
    highlighted; a legend of the colours at the bottom (as the GIF has). `colours` "pegs": each peg
    in the colour it keeps on the board (pegcore.pegcolours), the peg that landed ringed green."""
    pitch = 22.0
    r = 8.5
    cell_w = board.rows * pitch + 20
    cell_h = board.rows * pitch * 0.866 + 34
    steps = _steps(board, start, jumps)
    cols = min(per_row, len(steps))
    rows = (len(steps) + cols - 1) // cols
    legend_h = 26
    width = max(cols * cell_w, 300)
    height = rows * cell_h + legend_h
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
           'font-family="sans-serif">' % (width, height, width, height),
           '<rect width="100%" height="100%" fill="white"/>']
    for i, (mask, j, ids) in enumerate(steps):
        ox = (i % cols) * cell_w + 10 + pitch / 2
        oy = (i // cols) * cell_h + 26
        title = "start" if j < 0 else "%d. %d→%d" % (i, board.jump_from[j] + 1, board.jump_to[j] + 1)
        out.append('<text x="%.1f" y="%.1f" font-size="11">%s</text>' % (ox - pitch / 2, oy - 12, title))
        for h in range(1, board.holes + 1):
            x, y = _hole_xy(board, h, pitch)
            peg = mask >> (h - 1) & 1
            color = PEG if peg else HOLE
            if j >= 0 and h - 1 == board.jump_to[j]:
                color = LANDED
            elif j >= 0 and h - 1 in (board.jump_from[j], board.jump_over[j]):
                color = EMPTIED
            ink = LIGHT_INK if color in (PEG, LANDED) else DARK_INK
            stroke = '"#555"'
            if colours == "pegs" and ids[h - 1] >= 0:
                c = hue(ids[h - 1])
                ink = LIGHT_INK if _ink((c >> 16, c >> 8 & 255, c & 255)) else DARK_INK
                if color == LANDED:
                    stroke = '"%s" stroke-width="3"' % LANDED
                color = "#%06x" % c
            out.append('<circle class="hole" data-hole="%d" cx="%.1f" cy="%.1f" r="%.1f" fill="%s" stroke=%s/>'
                       % (h, ox + x, oy + y, r, color, stroke))
            out.append('<text class="hole-number" x="%.1f" y="%.1f" font-size="%d" fill="%s" text-anchor="middle" '
                       'dominant-baseline="central">%d</text>' % (ox + x, oy + y, 9 if h < 10 else 8, ink, h))
    # the legend: a swatch (a rounded square, so only holes are circles) and its meaning each
    x, y = 10.0, rows * cell_h + legend_h / 2
    out.append('<g class="legend" font-size="11">')
    for color, meaning in (LEGEND_PEGS if colours == "pegs" else LEGEND):
        out.append('<rect x="%.1f" y="%.1f" width="12" height="12" rx="6" fill="%s" stroke="#555"/>'
                   % (x, y - 6, color))
        out.append('<text x="%.1f" y="%.1f" dominant-baseline="central">%s</text>' % (x + 16, y, _escape(meaning)))
        x += 16 + 6.3 * len(meaning) + 16
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


GIF_MIN_WIDTH = 480


def _font(size: int):
    from PIL import ImageFont

    try:
        return ImageFont.load_default(size=size)  # a scalable font (Pillow with FreeType)
    except (TypeError, OSError, ImportError):
        return ImageFont.load_default()


def gif_layout(board: Board) -> tuple[int, int, int]:
    """The GIF's hole pitch, hole radius and top margin (pixels)."""
    pitch = max(70, (GIF_MIN_WIDTH - 40) // board.rows)
    return pitch, int(pitch * 0.36), 64


def solution_gif(board: Board, start: int, jumps: list[int], path: str, frame_ms: int = 900,
                 colours: str = "plain") -> int:
    """An animated GIF, at least 480 px wide: the start, then the board after each jump (the
    jump's holes lit, every hole numbered; `colours` as solution_svg's). Returns the number of
    frames."""
    from PIL import Image, ImageDraw

    pitch, r, top = gif_layout(board)
    w = board.rows * pitch + 40
    h = int((board.rows - 1) * pitch * 0.866) + 2 * r + top + 50
    title_font, hole_font, small = _font(26), _font(max(14, r - 4)), _font(16)
    frames = []
    for k, (m, j, ids) in enumerate(_steps(board, start, jumps)):
        img = Image.new("RGB", (w, h), (250, 245, 235))
        d = ImageDraw.Draw(img)
        if j < 0:
            d.text((20, 16), "start: hole %d empty" % _first_empty(board, start), fill=(0, 0, 0), font=title_font)
        else:  # "3. 4 → 1 over 2", the arrow drawn: Pillow's own font has no "→" (it would be a box)
            x = _text_then(d, 20, "%d. %d" % (k, board.jump_from[j] + 1), title_font)
            ink_top, ink_bottom = d.textbbox((x, 16), "1", font=title_font)[1::2]
            x = _arrow(d, x, (ink_top + ink_bottom) / 2, 42)
            _text_then(d, x, "%d over %d" % (board.jump_to[j] + 1, board.jump_over[j] + 1), title_font)
        d.text((w - 20, 22), "%d/%d" % (k, len(jumps)), fill=(90, 90, 90), font=small, anchor="ra")
        for hole in range(1, board.holes + 1):
            x, y = _hole_xy(board, hole, pitch)
            x, y = x + 20 + pitch / 2, y + top + r
            peg = m >> (hole - 1) & 1
            color = (139, 69, 19) if peg else (225, 215, 195)
            if j >= 0 and hole - 1 == board.jump_to[j]:
                color = (46, 139, 87)
            elif j >= 0 and hole - 1 in (board.jump_from[j], board.jump_over[j]):
                color = (255, 200, 140)
            ink = (255, 255, 255) if color in ((139, 69, 19), (46, 139, 87)) else (60, 60, 60)
            outline, width = (80, 80, 80), 2
            if colours == "pegs" and ids[hole - 1] >= 0:
                c = hue(ids[hole - 1])
                if color == (46, 139, 87):
                    outline, width = color, 5
                color = (c >> 16, c >> 8 & 255, c & 255)
                ink = (255, 255, 255) if _ink(color) else (60, 60, 60)
            d.ellipse((x - r, y - r, x + r, y + r), fill=color, outline=outline, width=width)
            d.text((x, y), str(hole), fill=ink, font=hole_font, anchor="mm")
        key = "brown: a peg" if colours != "pegs" else "a peg keeps its colour"
        d.text((20, h - 12), key + "   green: it landed   orange: emptied",
               fill=(90, 90, 90), font=small, anchor="ls")
        frames.append(img)
    frames[0].save(path, format="GIF", save_all=True, append_images=frames[1:], duration=frame_ms, loop=0)
    return len(frames)


def _text_then(d, x: float, text: str, font) -> float:
    """`text` in the GIF's title line from x; the x just after it."""
    d.text((x, 16), text, fill=(0, 0, 0), font=font)
    return x + d.textlength(text, font=font)


def _arrow(d, x: float, y: float, length: int) -> float:
    """A right arrow "→" from x (a space either side) at height y; the x after it."""
    x0, x1 = x + 8, x + length - 8
    d.line((x0, y, x1 - 6, y), fill=(0, 0, 0), width=2)
    d.polygon([(x1, y), (x1 - 9, y - 6), (x1 - 9, y + 6)], fill=(0, 0, 0))
    return x + length


def _first_empty(board: Board, mask: int) -> int:
    for h in range(1, board.holes + 1):
        if not mask >> (h - 1) & 1:
            return h
    return 0
