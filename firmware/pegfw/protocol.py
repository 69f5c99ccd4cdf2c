"""Serial protocol v1 framing (docs/protocol.md): JSON lines in, JSON lines out, never blocking.

Reads take what `in_waiting` says is there into our own line buffer. Writes go through a bounded
outgoing buffer drained with write_timeout = 0: when the host is not reading, events are dropped
(and counted) rather than stalling the game loop; replies are kept while there is any room.
"""

import json

MAX_LINE = 512
OUT_LIMIT = 6144      # bytes of unsent output we are willing to hold
MAX_DEPTH = 8         # deeper JSON is refused before parsing (small C stacks)


class ProtocolError(Exception):
    def __init__(self, code, message, rid=None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.rid = rid
        self.extra = None  # more reply fields (e.g. the bad step of a move list)


class Link:
    def __init__(self, serial):
        self.serial = serial
        self.buf = bytearray()
        self.discarding = False   # inside an over-long line, dropping bytes up to its newline
        self.out = bytearray()
        self.seq = 0
        self.dropped = 0
        self.too_long = 0

    # -- input -------------------------------------------------------------------------------
    def read_lines(self):
        """Complete lines received so far (bytes, without line endings). Over-long lines come
        back as None (the caller replies line_too_long once per such line)."""
        s = self.serial
        if s is None:
            return ()
        try:
            n = s.in_waiting
            data = s.read(n) if n else None
        except OSError:
            return ()
        if not data:
            return ()
        lines = []  # type: list
        start = 0
        while True:
            nl = data.find(b"\n", start)
            chunk = data[start:] if nl < 0 else data[start:nl]
            if self.discarding:
                if nl >= 0:
                    self.discarding = False
            else:
                if len(self.buf) + len(chunk) > MAX_LINE:
                    self.buf = bytearray()
                    lines.append(None)
                    self.too_long += 1
                    self.discarding = nl < 0
                else:
                    self.buf.extend(chunk)
                    if nl >= 0:
                        line = bytes(self.buf)
                        self.buf = bytearray()
                        if line.endswith(b"\r"):
                            line = line[:-1]
                        lines.append(line)
            if nl < 0:
                break
            start = nl + 1
        return lines

    # -- output ------------------------------------------------------------------------------
    def reply(self, rid, fields):
        obj = {"id": rid, "ok": True} if rid is not None else {"ok": True}
        for k in fields:
            obj[k] = fields[k]
        self._queue(obj, True)

    def error(self, rid, code, message, extra=None):
        obj = {"id": rid, "ok": False} if rid is not None else {"ok": False}
        obj["error"] = code
        obj["message"] = message
        if extra:
            for k in extra:
                obj[k] = extra[k]
        self._queue(obj, True)

    def event(self, name, fields=None):
        self.seq += 1
        obj = {"event": name, "seq": self.seq}
        if fields:
            for k in fields:
                obj[k] = fields[k]
        s = self.serial
        if s is None or not getattr(s, "connected", True):
            self.dropped += 1  # nobody listening: TinyUSB would overwrite it anyway
            return
        self._queue(obj, False)

    def _queue(self, obj, is_reply):
        data = json.dumps(obj).encode() + b"\n"
        if not is_reply and len(data) > OUT_LIMIT - len(self.out):
            self.dropped += 1  # the host is not reading: lose the event, never the loop
            return
        # Replies always go in: the loop stops taking requests while output is backed up (see
        # has_room), so they cannot pile up. Queued bytes are never cut: a half-sent line
        # would reach the host glued to the next one.
        self.out.extend(data)

    def has_room(self):
        """Room for another request's reply (a state reply is the largest, ~1 KB)."""
        return len(self.out) < OUT_LIMIT - 1500

    def flush(self):
        """Send what the port will take now; never waits."""
        s = self.serial
        if not self.out or s is None:
            return
        try:
            n = s.write(self.out)
        except OSError:
            return
        if n:
            self.out = bytearray(self.out[n:])


def _depth_ok(line):
    depth = 0
    instr = False
    esc = False
    for c in line:
        if instr:
            if esc:
                esc = False
            elif c == 92:  # backslash
                esc = True
            elif c == 34:
                instr = False
        elif c == 34:
            instr = True
        elif c == 123 or c == 91:
            depth += 1
            if depth > MAX_DEPTH:
                return False
        elif c == 125 or c == 93:
            depth -= 1
    return True


def parse_request(line):
    """bytes -> (id, cmd, request dict). Raises ProtocolError. A bare word is that command."""
    try:
        text = line.decode("utf-8").strip()
    except UnicodeError:
        raise ProtocolError("bad_json", "the line is not valid UTF-8")
    if not text.startswith("{"):
        word = text.lower()
        if word and len(word) <= 20 and all("a" <= ch <= "z" or ch == "_" for ch in word):
            return None, word, {}
        raise ProtocolError("bad_json", "send a JSON object or a bare command word")
    if not _depth_ok(line):
        raise ProtocolError("bad_json", "JSON nested deeper than %d levels" % MAX_DEPTH)
    try:
        req = json.loads(text)
    except (ValueError, RuntimeError, MemoryError):
        raise ProtocolError("bad_json", "the line is not valid JSON")
    if not isinstance(req, dict):
        raise ProtocolError("bad_json", "a request must be a JSON object")
    rid = req.get("id")
    if rid is not None and (isinstance(rid, bool) or not isinstance(rid, (int, str))):
        raise ProtocolError("bad_args", "id must be an integer or a string")
    cmd = req.get("cmd")
    if not isinstance(cmd, str):
        raise ProtocolError("bad_args", "cmd must be a string" if "cmd" in req else "missing cmd", rid)
    return rid, cmd, req
