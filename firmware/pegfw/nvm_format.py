"""The layout of the board's NVM record (docs/protocol.md, "What the board keeps"): a 16-byte
header, then a log of entries in erased flash. Shared by pegfw.store (writing the record),
pegfw.store_tokens (reading it, entry by entry), pegfw.store_log (replaying it at start-up) and
pegfw.store_records (rewriting it, and the games kept)."""

MAGIC = b"PB"
VERSION = 4  # REC entries came in version 3; TIME, RECT, BEST and SOLVED in 4 (older firmware ends the log
# at one, and refuses a header of a newer version)
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
GOAL = 0xF8   # + goal code: a challenge set for the game in progress after its start entry
# REC = 0xF7: a game carried over by a compaction (below)
TIME = 0xF9   # + 3 bytes (7 bits each, low first): the game in progress's clock, whole seconds played
# (the board's time on: written with each move and with its game over, so a power cut costs only
# the time since the last move)
RECT = 0xFA   # a REC entry with the game's seconds (3 bytes) after its result
BEST = 0xFB   # + start mask + challenge + pegs left + seconds (3 bytes): a personal best for that start
# and challenge (the newest for a start and challenge is the one that stands)
SOLVED = 0xFC  # + puzzle number (0..127): a puzzle of the board's table solved
LAST_KIND = SOLVED
SECONDS_MAX = (1 << 21) - 1  # what 3 bytes of 7 bits hold: 24 days


def seconds_bytes(s):
    """3 bytes of 7 bits, low first: no byte of them reads as erased flash or a log kind."""
    if s > SECONDS_MAX:
        s = SECONDS_MAX
    return bytes((s & 127, s >> 7 & 127, s >> 14 & 127))
CHUNK = 64    # bytes read at a time at start-up


def mask_bytes(holes):
    """Bytes of a start mask in the log: 7 bits each, so no byte of it reads as erased flash
    (0xFF) and a torn entry is seen as one."""
    return (holes + 6) // 7


REC = 0xF7    # + length L + L bytes: a finished or abandoned game carried over by a compaction:
# start mask (7 bits a byte), finish hole (the challenge: 0 none), result (pegs left; 0: abandoned),
# its moves, then its check (check2) of L and what follows it up to the check


def check2(data):
    """A Fletcher-16 check of `data`, as two bytes each 0..254: so no byte of a whole REC entry
    reads as erased flash (0xFF), and small-int sums only (a CRC-32 in Python makes the chip's
    big integers at every bit; a compaction checks a hundred records)."""
    a = b = 0
    for x in data:
        a += x
        if a >= 255:
            a -= 255
        b += a
        if b >= 255:
            b -= 255
    return a, b


def crc32(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 & -(crc & 1))
    return crc ^ 0xFFFFFFFF


# A game's challenge, one byte (the "finish" byte of SET, CSET and REC entries, and GOAL's): 0 none;
# 1..28 the hole the last peg should end in; LEAVE_CODE + k: end with exactly k pegs; MOST_CODE + n:
# the reverse game (as many pegs as possible with no jump left; n its best, 0 not known). Every
# code is below 0x80: never erased flash, never a log kind.
LEAVE_CODE = 0x40
MOST_CODE = 0x60


def goal_ok(code, holes):
    """A challenge code that makes sense on a board of `holes` holes."""
    return code < 0x80 and code >> 5 != 1 and code & 31 <= holes and code != LEAVE_CODE
