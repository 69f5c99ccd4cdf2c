#!/usr/bin/env python3
"""A stand-in for CircuitPython's mpy-cross, so that `make test` runs `pegboard deploy`'s .mpy path
(tests/test_deploy.py) where the real one is not at hand. It takes mpy-cross's command line and
answers as mpy-cross does (its mpy-cross/main.c):
- `--version`: "CircuitPython X.Y.Z on DATE; mpy-cross emitting mpy v6.N", X.Y.Z from
  $PEGBOARD_STANDIN_VERSION (default 9.2.1); N 1 for CircuitPython 9 (the 9.x banner reads
  "mpy v6.1"), 3 from 10 ("mpy v6.3");
- `[-o OUT] [-s NAME] [-v] [-O<n>] [-X OPT] [-march=ARCH] [-msmall-int-bits=N] FILE`: compiles FILE,
  writes OUT (default: FILE less its last two characters, plus "mpy": x.py -> x.mpy), exit 0;
- a syntax error: mpy-cross's traceback on stderr naming NAME (default FILE) and the line,
  "SyntaxError: invalid syntax", exit 1, nothing written; a file it cannot read: an OSError
  traceback, exit 1; no input file or two: said on stderr, exit 1; an unknown option or a
  missing value: the usage on stdout, exit 1.
CPython's compiler judges the syntax. What it writes is a .mpy only in its first bytes: the header
CircuitPython's mpy-cross writes ('C', format version 6, the feature byte: the sub-version, no
native code; 31 small-int bits), the counts of qstrs (1) and objects (0), and the source name as
the first qstr (its length times 2, the bytes, a NUL); then, where bytecode would be, the SHA-256
of the source, so a test can tell which file it came from. No board could run it."""

import errno
import hashlib
import os
import sys

USAGE = """usage: %s [<opts>] [-X <implopt>] <input filename>
Options:
--version : show version information
-o : output file for compiled bytecode (defaults to input with .mpy extension)
-s : source filename to embed in the compiled bytecode (defaults to input file)
-v : verbose (trace various operations); can be multiple
-O[N] : apply bytecode optimizations of level N
"""


def vuint(n):
    """mpy's variable-length unsigned integer: 7 bits a byte, most significant first."""
    out = [n & 0x7F]
    n >>= 7
    while n:
        out.append(0x80 | (n & 0x7F))
        n >>= 7
    return bytes(reversed(out))


def sub_version(version):
    return 1 if int(version.split(".")[0]) < 10 else 3


def usage():
    sys.stdout.write(USAGE % sys.argv[0])
    return 1


def main(argv):
    version = os.environ.get("PEGBOARD_STANDIN_VERSION", "9.2.1")
    src = out = name = None
    a = 0
    while a < len(argv):
        arg = argv[a]
        if arg == "--version":
            print("CircuitPython %s on 2024-11-20; mpy-cross emitting mpy v6.%d" % (version, sub_version(version)))
            return 0
        if arg in ("-o", "-s", "-X"):
            if a + 1 >= len(argv):
                return usage()
            a += 1
            if arg == "-o":
                out = argv[a]
            elif arg == "-s":
                name = argv[a]
        elif arg == "-v" or arg.startswith(("-O", "-march=", "-msmall-int-bits=")):
            pass
        elif arg.startswith("-"):
            return usage()
        elif src is not None:
            sys.stderr.write("multiple input files\n")
            return 1
        else:
            src = arg
        a += 1
    if src is None:
        sys.stderr.write("no input file\n")
        return 1
    name = name or src
    try:
        with open(src, "rb") as f:
            source = f.read()
    except OSError as e:
        sys.stderr.write("Traceback (most recent call last):\nOSError: [Errno %d] %s\n" % (e.errno, errno.errorcode.get(e.errno, "")))
        return 1
    try:
        compile(source, name, "exec", dont_inherit=True)
    except SyntaxError as e:
        sys.stderr.write('Traceback (most recent call last):\n  File "%s", line %d\nSyntaxError: invalid syntax\n'
                         % (name, e.lineno or 1))
        return 1
    qstr = name.encode()
    data = (b"C" + bytes([6, sub_version(version), 31]) + vuint(1) + vuint(0) + vuint(len(qstr) << 1) + qstr + b"\0"
            + hashlib.sha256(source).digest())
    with open(out or src[:-2] + "mpy", "wb") as f:
        f.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
