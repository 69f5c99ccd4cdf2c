// The host calls between thumbvm's guest (hostcalls.c) and its emulator (host.c): `svc #0` with
// the call's number in r0 and up to three arguments in r1-r3; the answer in r0 (-errno on failure).
#ifndef THUMBVM_HOSTCALLS_H
#define THUMBVM_HOSTCALLS_H

enum {
    H_EXIT = 1,     // (status)
    H_READ,         // (fd, buf, n) -> bytes read
    H_WRITE,        // (fd, buf, n) -> bytes written
    H_OPEN,         // (path, 0 read / 1 write / 2 append) -> fd
    H_CLOSE,        // (fd)
    H_LSEEK,        // (fd, offset, whence) -> offset
    H_STAT,         // (path, -1) or (0, fd) -> 1 file, 2 folder, 0 other
    H_GETENV,       // (name, buf, size) -> length, or -1 if not set
    H_CHDIR,        // (path)
    H_GETCWD,       // (buf, size)
    H_LISTDIR,      // (path, index, buf[256]) -> length of the index-th name, -1 past the end
    H_POLL,         // (fd, wait_ms) -> 1 if there is something to read
    H_CLOCK,        // (which, uint64_t *ns)
    H_ARGS,         // (buf, size, max) -> argc; the arguments NUL-separated in buf
    H_SLEEP_MS,     // (ms)
    H_WATCHDOG,     // (timeout_ms): the chip's watchdog in emulated time; 0 = off
    H_FEED,         // ()
};

// H_CLOCK's clocks, in ns
enum {
    CLOCK_CHIP = 0,   // the emulated chip's: executed cycles at 125 MHz plus the time spent waiting
    CLOCK_CPU,        // executed cycles at 125 MHz only
    CLOCK_WALL,       // the PC's monotonic clock (the simulator's world)
    CLOCK_REAL,       // the PC's calendar clock
    CLOCK_CYCLES,     // executed cycles (not ns)
};

int hostcall(int n, int a, int b, int c);

#endif
