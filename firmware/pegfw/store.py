"""Stats and the game to resume, in microcontroller.nvm: one versioned, CRC-checked record,
written as one slice, only at a new game and at game over (flash wears out). A record that
fails its checks is ignored, never trusted."""

MAGIC = b"PB"
VERSION = 1
SIZE = 16  # magic 2, version 1, games 2, wins 2, best 1, empty_start 1, rows 1, pad 2, crc 4


def crc32(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 & -(crc & 1))
    return crc ^ 0xFFFFFFFF


class Store:
    def __init__(self, nvm, rows):
        self.nvm = nvm
        self.rows = rows
        self.games = 0
        self.wins = 0
        self.best = 0  # fewest pegs ever left; 0 = no finished game yet
        self.empty_start = 0
        self.writes = 0
        self.corrupt = False
        self._load()

    def _load(self):
        if self.nvm is None or len(self.nvm) < SIZE:
            return
        rec = bytes(self.nvm[0:SIZE])
        if rec[0:2] != MAGIC:
            return  # blank or foreign: start fresh
        body, crc = rec[:SIZE - 4], rec[SIZE - 4:]
        if rec[2] != VERSION or crc32(body) != int.from_bytes(crc, "little") or rec[10] != self.rows:
            self.corrupt = True
            return
        self.games = rec[3] | rec[4] << 8
        self.wins = rec[5] | rec[6] << 8
        self.best = rec[7]
        self.empty_start = rec[8]

    def record(self):
        body = bytearray(SIZE - 4)
        body[0:2] = MAGIC
        body[2] = VERSION
        body[3], body[4] = self.games & 255, self.games >> 8 & 255
        body[5], body[6] = self.wins & 255, self.wins >> 8 & 255
        body[7] = self.best
        body[8] = self.empty_start
        body[10] = self.rows
        return bytes(body) + crc32(body).to_bytes(4, "little")

    def _save(self):
        if self.nvm is None:
            return
        self.nvm[0:SIZE] = self.record()  # one slice: one erase+write
        self.writes += 1

    def new_game(self, empty):
        self.games = min(self.games + 1, 65535)
        self.empty_start = empty
        self._save()

    def game_over(self, pegs_left):
        if pegs_left == 1:
            self.wins = min(self.wins + 1, 65535)
        if self.best == 0 or pegs_left < self.best:
            self.best = pegs_left
        self.empty_start = 0
        self._save()
