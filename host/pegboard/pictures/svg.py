"""Solutions as pictures: an SVG grid of small boards, one per step (plain text, no deps)."""

from __future__ import annotations

from pegcore.geometry import Board


def _hole_xy(board: Board, hole: int, pitch: float) -> tuple[float, float]:
    r, c = board.row_col(hole)
    x = (c - r / 2) * pitch + (board.rows - 1) * pitch / 2
    y = r * pitch * 0.866
    return x, y


# the colours of the pictures (SVG and GIF) and what they mean: the legend under each picture
PEG, HOLE, LANDED, EMPTIED = "#8b4513", "#f0e6d2", "#2e8b57", "#ffd7a8"
LEGEND = ((PEG, "a peg"), (HOLE, "empty"), (LANDED, "it landed"), (EMPTIED, "emptied"))
LIGHT_INK, DARK_INK = "#ffffff", "#3c3c3c"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def solution_svg(board: Board, start: int, jumps: list[int], per_row: int = 5) -> str:
    """Step 0 (the start) then the board after each jump, every hole numbered and the jump's holes
    highlighted; a legend of the colours at the bottom (as the GIF has)."""
    pitch = 22.0
    r = 8.5
    cell_w = board.rows * pitch + 20
    cell_h = board.rows * pitch * 0.866 + 34
    steps = [(start, -1)]
    m = start
    for j in jumps:
        m ^= board.flip[j]
        steps.append((m, j))
    cols = min(per_row, len(steps))
    rows = (len(steps) + cols - 1) // cols
    legend_h = 26
    width = max(cols * cell_w, 300)
    height = rows * cell_h + legend_h
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
           'font-family="sans-serif">' % (width, height, width, height),
           '<rect width="100%" height="100%" fill="white"/>']
    for i, (mask, j) in enumerate(steps):
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
            out.append('<circle class="hole" data-hole="%d" cx="%.1f" cy="%.1f" r="%.1f" fill="%s" stroke="#555"/>'
                       % (h, ox + x, oy + y, r, color))
            out.append('<text class="hole-number" x="%.1f" y="%.1f" font-size="%d" fill="%s" text-anchor="middle" '
                       'dominant-baseline="central">%d</text>' % (ox + x, oy + y, 9 if h < 10 else 8, ink, h))
    # the legend: a swatch (a rounded square, so only holes are circles) and its meaning each
    x, y = 10.0, rows * cell_h + legend_h / 2
    out.append('<g class="legend" font-size="11">')
    for color, meaning in LEGEND:
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


def solution_gif(board: Board, start: int, jumps: list[int], path: str, frame_ms: int = 900) -> int:
    """An animated GIF, at least 480 px wide: the start, then the board after each jump (the
    jump's holes lit, every hole numbered). Returns the number of frames."""
    from PIL import Image, ImageDraw

    pitch = max(70, (GIF_MIN_WIDTH - 40) // board.rows)
    r = int(pitch * 0.36)
    w = board.rows * pitch + 40
    top = 64
    h = int((board.rows - 1) * pitch * 0.866) + 2 * r + top + 50
    title_font, hole_font, small = _font(26), _font(max(14, r - 4)), _font(16)
    frames = []
    m = start
    steps = [-1] + list(jumps)
    for k, j in enumerate(steps):
        if j >= 0:
            m ^= board.flip[j]
        img = Image.new("RGB", (w, h), (250, 245, 235))
        d = ImageDraw.Draw(img)
        title = "start: hole %d empty" % (_first_empty(board, start)) if j < 0 else \
            "%d. %d -> %d over %d" % (k, board.jump_from[j] + 1, board.jump_to[j] + 1, board.jump_over[j] + 1)
        d.text((20, 16), title, fill=(0, 0, 0), font=title_font)
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
            d.ellipse((x - r, y - r, x + r, y + r), fill=color, outline=(80, 80, 80), width=2)
            ink = (255, 255, 255) if color in ((139, 69, 19), (46, 139, 87)) else (60, 60, 60)
            d.text((x, y), str(hole), fill=ink, font=hole_font, anchor="mm")
        d.text((20, h - 12), "brown: a peg   green: it landed   orange: emptied",
               fill=(90, 90, 90), font=small, anchor="ls")
        frames.append(img)
    frames[0].save(path, format="GIF", save_all=True, append_images=frames[1:], duration=frame_ms, loop=0)
    return len(frames)


def _first_empty(board: Board, mask: int) -> int:
    for h in range(1, board.holes + 1):
        if not mask >> (h - 1) & 1:
            return h
    return 0
