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
        self.up = True  # a host holds the port open (usb_cdc's `connected`: it asserted DTR)
        self.held = None  # events kept as objects while a hint is coming (hold), else None

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
        if self.held is not None:
            self.held.append(obj)
            return
        self._queue(obj, False)

    def hold(self, on):
        """While `on`, events wait as objects, their JSON not made: a press's release is coming
        and its hint's lights must not wait for the news of the pegs (pegfw.app). Off: their JSON
        is queued, in order."""
        if on:
            if self.held is None:
                self.held = []
        elif self.held is not None:
            held, self.held = self.held, None
            for obj in held:
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

    def host_left(self):
        """True once when the host lets go of the port (DTR falls: it closed the port, or the
        cable went)."""
        s = self.serial
        up = s is not None and getattr(s, "connected", True)
        if up == self.up:
            return False
        self.up = up
        return not up

    def forget_output(self):
        """Drop what is queued for a host that left, and its half-sent request: nobody will read
        them, and TinyUSB would hand them to the next program to open the port."""
        self.dropped += 1 if self.out or self.held else 0
        self.out = bytearray()
        self.held = [] if self.held is not None else None
        self.buf = bytearray()
        self.discarding = False

    def waiting(self):
        """Bytes from the host are waiting (a C property on the chip: cheap to ask every pass)."""
        s = self.serial
        try:
            return s is not None and s.in_waiting > 0
        except OSError:
            return False

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


# what may come next while scanning a request's JSON (_shape)
_VALUE, _FIRST_VALUE, _KEY, _FIRST_KEY, _COLON, _AFTER = 0, 1, 2, 3, 4, 5
_SCALAR = b"-+.0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _shape(line):
    """None if `line` is shaped as JSON (strings, scalars, commas, colons and brackets in their
    places, at most MAX_DEPTH deep), else why not. CircuitPython's json.loads skips commas and
    colons and so takes '{"a" 1}' or '{"a":}' as objects (dropping what it cannot place): without
    this the board would act on a request that lost an argument. Scalars' spelling is left to
    json.loads, which refuses a bad literal. One pass, no recursion."""
    stack = bytearray(MAX_DEPTH)  # the open brackets, 123 '{' or 91 '[', up to depth
    depth = 0
    state = _VALUE
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        i += 1
        if c == 32 or c == 9 or c == 13 or c == 10:
            continue
        if state <= _FIRST_VALUE:  # a value
            if c == 123 or c == 91:
                if depth >= MAX_DEPTH:
                    return "JSON nested deeper than %d levels" % MAX_DEPTH
                stack[depth] = c
                depth += 1
                state = _FIRST_KEY if c == 123 else _FIRST_VALUE
            elif c == 93 and state == _FIRST_VALUE:  # []
                depth -= 1
                state = _AFTER
            elif c == 34:
                i = _string_end(line, i)
                state = _AFTER
            elif c in _SCALAR:
                while i < n and line[i] in _SCALAR:
                    i += 1
                state = _AFTER
            else:
                return "a value is missing"
        elif state <= _FIRST_KEY:  # a key
            if c == 34:
                i = _string_end(line, i)
                state = _COLON
            elif c == 125 and state == _FIRST_KEY:  # {}
                depth -= 1
                state = _AFTER
            else:
                return "a key is missing"
        elif state == _COLON:
            if c != 58:
                return "a ':' is missing after a key"
            state = _VALUE
        else:  # after a value: a comma or the closing bracket
            if not depth:
                return "something follows the request"
            top = stack[depth - 1]
            if c == 44:
                state = _KEY if top == 123 else _VALUE
            elif (c == 125 and top == 123) or (c == 93 and top == 91):
                depth -= 1
            else:
                return "a ',' or a closing bracket is missing"
        if i < 0:
            return "a string is not closed"
    if state != _AFTER or depth:
        return "the request is cut short"
    return None


def _string_end(line, i):
    """Index after the string whose opening quote is before `i`; -1 if it never closes."""
    q = line.find(b'"', i)
    if q < 0:
        return -1
    if line.find(b"\\", i, q) < 0:  # no escape before the next quote (most strings): that ends it
        return q + 1
    n = len(line)
    while i < n:  # a byte at a time past the escapes
        c = line[i]
        if c == 92:  # backslash: skip what it escapes
            i += 2
        elif c == 34:
            return i + 1
        else:
            i += 1
    return -1


_HUB_ID = b"0123456789abcdefghijklmnopqrstuvwxyz"


def _as_sent(line):
    """(id, command) when `line` is, byte for byte, an id and a command word as the host tool
    writes them (pegboard.link: `{"id": 7, "cmd": "hint"}`; its hub: `{"id":"h1f","cmd":"hint"}`),
    else None. Such a line is JSON by its making: it needs neither _shape's scan (a Python loop
    over every byte) nor json.loads, most of a hint request's wait on the chip."""
    if line.startswith(b'{"id": '):  # a number: digits, no leading zero (JSON has none)
        k = line.find(b', "cmd": "', 7)
        rid = line[7:k]
        if k < 8 or not rid.isdigit() or (rid[0] == 48 and k > 8):
            return None
        k += 10
    elif line.startswith(b'{"id":"'):  # the hub's: lower-case letters and digits
        k = line.find(b'","cmd":"', 7)
        rid = line[7:k]
        if k < 8 or k > 30:
            return None
        for c in rid:
            if c not in _HUB_ID:
                return None
        k += 9
    else:
        return None
    word = line[k:-2]
    if not line.endswith(b'"}') or not 0 < len(word) <= 20 or not word.replace(b"_", b"a").isalpha():
        return None
    return (int(rid) if line[6] == 32 else rid.decode()), word.decode()


def parse_request(line):
    """bytes -> (id, cmd, request dict). Raises ProtocolError. A bare word is that command."""
    sent = _as_sent(line)
    if sent is not None:
        return sent[0], sent[1], {"id": sent[0], "cmd": sent[1]}
    try:
        text = line.decode("utf-8").strip()
    except UnicodeError:
        raise ProtocolError("bad_json", "the line is not valid UTF-8")
    if not text.startswith("{"):
        word = text.lower()
        # letters and '_' only (ASCII: as many bytes as characters), checked by C string methods,
        # not a Python loop: a bare `hint` is on the wait the player meets
        letters = word.replace("_", "")
        if word and len(word) <= 20 and len(line.strip()) == len(word) and (not letters or letters.isalpha()):
            return None, word, {}
        raise ProtocolError("bad_json", "send a JSON object or a bare command word")
    why = _shape(line)
    if why is not None:
        raise ProtocolError("bad_json", "the line is not valid JSON: " + why)
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
