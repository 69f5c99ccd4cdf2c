"""Solutions as pictures: an SVG grid of small boards, one per step (plain text, no deps)."""

from __future__ import annotations

from pegcore.geometry import Board


def _hole_xy(board: Board, hole: int, pitch: float) -> tuple[float, float]:
    r, c = board.row_col(hole)
    x = (c - r / 2) * pitch + (board.rows - 1) * pitch / 2
    y = r * pitch * 0.866
    return x, y


def solution_svg(board: Board, start: int, jumps: list[int], per_row: int = 5) -> str:
    """Step 0 (the start) then the board after each jump; the jump's holes are highlighted."""
    pitch = 16.0
    cell_w = board.rows * pitch + 20
    cell_h = board.rows * pitch * 0.866 + 34
    steps = [(start, -1)]
    m = start
    for j in jumps:
        m ^= board.flip[j]
        steps.append((m, j))
    cols = min(per_row, len(steps))
    rows = (len(steps) + cols - 1) // cols
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
           'font-family="sans-serif">' % (cols * cell_w, rows * cell_h, cols * cell_w, rows * cell_h),
           '<rect width="100%" height="100%" fill="white"/>']
    for i, (mask, j) in enumerate(steps):
        ox = (i % cols) * cell_w + 10 + pitch / 2
        oy = (i // cols) * cell_h + 24
        title = "start" if j < 0 else "%d. %d→%d" % (i, board.jump_from[j] + 1, board.jump_to[j] + 1)
        out.append('<text x="%.1f" y="%.1f" font-size="11">%s</text>' % (ox - pitch / 2, oy - 10, title))
        for h in range(1, board.holes + 1):
            x, y = _hole_xy(board, h, pitch)
            peg = mask >> (h - 1) & 1
            color = "#8b4513" if peg else "#f0e6d2"
            if j >= 0 and h - 1 == board.jump_to[j]:
                color = "#2e8b57"
            elif j >= 0 and h - 1 in (board.jump_from[j], board.jump_over[j]):
                color = "#ffd7a8"
            out.append('<circle class="hole" data-hole="%d" cx="%.1f" cy="%.1f" r="6" fill="%s" stroke="#555"/>'
                       % (h, ox + x, oy + y, color))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def solution_gif(board: Board, start: int, jumps: list[int], path: str, frame_ms: int = 800) -> int:
    """An animated GIF: the start, then the board after each jump (the jump's holes lit).
    Returns the number of frames."""
    from PIL import Image, ImageDraw

    pitch, r = 40, 14
    w = board.rows * pitch + 20
    h = int(board.rows * pitch * 0.866) + 50
    frames = []
    m = start
    steps = [-1] + list(jumps)
    for k, j in enumerate(steps):
        if j >= 0:
            m ^= board.flip[j]
        img = Image.new("RGB", (w, h), (250, 245, 235))
        d = ImageDraw.Draw(img)
        d.text((8, 6), "start" if j < 0 else "%d. %d -> %d over %d" % (k, board.jump_from[j] + 1,
                                                                       board.jump_to[j] + 1, board.jump_over[j] + 1),
               fill=(0, 0, 0))
        for hole in range(1, board.holes + 1):
            x, y = _hole_xy(board, hole, pitch)
            x, y = x + 10 + pitch / 2, y + 40
            color = (139, 69, 19) if m >> (hole - 1) & 1 else (225, 215, 195)
            if j >= 0 and hole - 1 == board.jump_to[j]:
                color = (46, 139, 87)
            elif j >= 0 and hole - 1 in (board.jump_from[j], board.jump_over[j]):
                color = (255, 215, 168)
            d.ellipse((x - r, y - r, x + r, y + r), fill=color, outline=(80, 80, 80))
        frames.append(img)
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=frame_ms, loop=0)
    return len(frames)
