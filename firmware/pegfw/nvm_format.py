"""The layout of the board's NVM record (docs/protocol.md, "What the board keeps"): a 16-byte
header, then a log of entries in erased flash. Shared by pegfw.store (writing the record) and
pegfw.store_log (reading it at start-up)."""

MAGIC = b"PB"
VERSION = 3
# magic 2, version 1, games 2, wins 2, best 1, abandoned 2 (v1: byte 8 the empty start; v2: 0),
# rows 1, pad 1, crc 4
HEAD = 16
FREE = 0xFF
NEW = 0xF0    # + start hole: a game begins (counted)
UNDO = 0xF1   # the last move was put back
OVER = 0xF2   # the game ended and was scored
CONT = 0xF3   # + start hole: the game in progress, carried over by a compaction (not counted again)
SET = 0xF4    # + start mask (7 bits a byte) + finish hole (0: none): a game from a hand-set start
CSET = 0xF5   # the same, carried over by a compaction
ABANDON = 0xF6  # the game in progress ended unfinished (the board emptied)
CHUNK = 64    # bytes read at a time at start-up


def mask_bytes(holes):
    """Bytes of a start mask in the log: 7 bits each, so no byte of it reads as erased flash
    (0xFF) and a torn entry is seen as one."""
    return (holes + 6) // 7
