# json for micropython32, which has no extmod/: the chip's json is C (no heap of ours), so the
# bench imports this before it starts counting. Same output as MicroPython's: ", " and ": ".


def _str(s):
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif o < 32:
            out.append("\\u%04x" % o)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def dumps(obj):
    if obj is None:
        return "null"
    if obj is True:
        return "true"
    if obj is False:
        return "false"
    if isinstance(obj, str):
        return _str(obj)
    if isinstance(obj, (int, float)):
        return repr(obj)
    if isinstance(obj, dict):
        return "{" + ", ".join(_str(k) + ": " + dumps(obj[k]) for k in obj) + "}"
    if isinstance(obj, (list, tuple)):
        return "[" + ", ".join(dumps(v) for v in obj) + "]"
    raise TypeError("can't serialise %r" % (obj,))


class _Parser:
    def __init__(self, text):
        self.s = text
        self.i = 0

    def fail(self):
        raise ValueError("syntax error in JSON")

    def ws(self):
        s = self.s
        while self.i < len(s) and s[self.i] in " \t\r\n":
            self.i += 1

    def value(self):
        self.ws()
        s = self.s
        if self.i >= len(s):
            self.fail()
        ch = s[self.i]
        if ch == "{":
            self.i += 1
            obj = {}
            self.ws()
            if s[self.i:self.i + 1] == "}":
                self.i += 1
                return obj
            while True:
                self.ws()
                if s[self.i:self.i + 1] != '"':
                    self.fail()
                k = self.string()
                self.ws()
                if s[self.i:self.i + 1] != ":":
                    self.fail()
                self.i += 1
                obj[k] = self.value()
                self.ws()
                ch = s[self.i:self.i + 1]
                self.i += 1
                if ch == "}":
                    return obj
                if ch != ",":
                    self.fail()
        if ch == "[":
            self.i += 1
            arr = []
            self.ws()
            if s[self.i:self.i + 1] == "]":
                self.i += 1
                return arr
            while True:
                arr.append(self.value())
                self.ws()
                ch = s[self.i:self.i + 1]
                self.i += 1
                if ch == "]":
                    return arr
                if ch != ",":
                    self.fail()
        if ch == '"':
            return self.string()
        for word, val in (("true", True), ("false", False), ("null", None)):
            if s.startswith(word, self.i):
                self.i += len(word)
                return val
        return self.number()

    def string(self):
        s = self.s
        self.i += 1
        out = []
        while True:
            if self.i >= len(s):
                self.fail()
            ch = s[self.i]
            self.i += 1
            if ch == '"':
                return "".join(out)
            if ch == "\\":
                e = s[self.i:self.i + 1]
                self.i += 1
                if e == "u":
                    out.append(chr(int(s[self.i:self.i + 4], 16)))
                    self.i += 4
                else:
                    m = {"n": "\n", "r": "\r", "t": "\t", "b": "\b", "f": "\f"}.get(e, e)
                    if m not in '"\\/\n\r\t\b\f':
                        self.fail()
                    out.append(m)
            else:
                out.append(ch)

    def number(self):
        s = self.s
        start = self.i
        while self.i < len(s) and s[self.i] in "+-0123456789.eE":
            self.i += 1
        text = s[start:self.i]
        if not text:
            self.fail()
        if "." in text or "e" in text or "E" in text:
            return float(text)
        return int(text)


def loads(text):
    if isinstance(text, (bytes, bytearray)):
        text = text.decode()
    p = _Parser(text)
    v = p.value()
    p.ws()
    if p.i != len(text):
        p.fail()
    return v
