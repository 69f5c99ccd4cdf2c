// thumbvm's guest side: the C library calls chipvm's port (../chipvm/main.c, modport.c) makes,
// answered by the emulator (host.c) through `svc #0`, with the start-up code that calls main().
// Nothing here runs on a chip: it stands where a board's USB, flash file system and clocks are.
// A host call costs the emulated chip no cycles beyond the svc itself (docs/chip-runtime.md).
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hostcalls.h"

__attribute__((naked, noinline)) int hostcall(int n, int a, int b, int c) {
    __asm volatile ("svc #0\n bx lr\n");
}

static int errno_value;
int *__errno_location(void) {
    return &errno_value;
}

// the host answers -errno for a failure
static int checked(int r) {
    if (r < 0) {
        errno_value = -r;
        return -1;
    }
    return r;
}

ssize_t read(int fd, void *buf, size_t n) {
    return checked(hostcall(H_READ, fd, (int)buf, n));
}

ssize_t write(int fd, const void *buf, size_t n) {
    return checked(hostcall(H_WRITE, fd, (int)buf, n));
}

int open(const char *path, int flags, ...) {
    int how = (flags & O_ACCMODE) == O_RDONLY ? 0 : (flags & O_APPEND) ? 2 : 1;
    return checked(hostcall(H_OPEN, (int)path, how, 0));
}

int close(int fd) {
    return checked(hostcall(H_CLOSE, fd, 0, 0));
}

off_t lseek(int fd, off_t off, int whence) {
    return checked(hostcall(H_LSEEK, fd, (int)off, whence));
}

static int kind_to_stat(int kind, struct stat *st) {
    if (kind < 0) {
        return checked(kind);
    }
    memset(st, 0, sizeof(*st));
    st->st_mode = kind == 2 ? S_IFDIR : kind == 1 ? S_IFREG : 0;
    return 0;
}

int stat(const char *restrict path, struct stat *restrict st) {
    return kind_to_stat(hostcall(H_STAT, (int)path, -1, 0), st);
}

int fstat(int fd, struct stat *st) {
    return kind_to_stat(hostcall(H_STAT, 0, fd, 0), st);
}

static char env_buf[256];
char *getenv(const char *name) {  // one value at a time, as the port copies it at once
    return hostcall(H_GETENV, (int)name, (int)env_buf, sizeof(env_buf)) < 0 ? NULL : env_buf;
}

int chdir(const char *path) {
    return checked(hostcall(H_CHDIR, (int)path, 0, 0));
}

char *getcwd(char *buf, size_t size) {
    return checked(hostcall(H_GETCWD, (int)buf, size, 0)) < 0 ? NULL : buf;
}

// A folder listing, one name per host call (the port lists small folders, rarely)
struct __dirstream {
    const char *path;
    int index;
    struct dirent entry;
};
static struct __dirstream the_dir;

DIR *opendir(const char *path) {
    if (hostcall(H_LISTDIR, (int)path, -1, 0) < 0) {  // index -1: does the folder exist?
        errno_value = ENOENT;
        return NULL;
    }
    the_dir.path = path;
    the_dir.index = 0;
    return &the_dir;
}

struct dirent *readdir(DIR *d) {
    int n = hostcall(H_LISTDIR, (int)d->path, d->index, (int)d->entry.d_name);
    if (n < 0) {
        return NULL;
    }
    d->index++;
    return &d->entry;
}

int closedir(DIR *d) {
    return 0;
}

int poll(struct pollfd *fds, nfds_t n, int timeout) {
    int ready = hostcall(H_POLL, fds[0].fd, timeout, 0);
    fds[0].revents = ready ? POLLIN : 0;
    return ready;
}

static uint64_t clock_ns(int which) {
    uint64_t ns;
    hostcall(H_CLOCK, which, (int)&ns, 0);
    return ns;
}

uint64_t thumbvm_chip_ns(void) {
    return clock_ns(CLOCK_CHIP);
}

uint32_t thumbvm_cycles(void) {
    return (uint32_t)clock_ns(CLOCK_CYCLES);
}

// CLOCK_MONOTONIC: the simulator's world clock (the PC's); the process's CPU time: the cycles
// executed at 125 MHz
int clock_gettime(clockid_t id, struct timespec *ts) {
    uint64_t ns = clock_ns(id == CLOCK_PROCESS_CPUTIME_ID ? CLOCK_CPU : CLOCK_WALL);
    ts->tv_sec = ns / 1000000000u;
    ts->tv_nsec = ns % 1000000000u;
    return 0;
}

time_t time(time_t *t) {
    time_t now = (time_t)(clock_ns(CLOCK_REAL) / 1000000000u);
    if (t) {
        *t = now;
    }
    return now;
}

int nanosleep(const struct timespec *req, struct timespec *rem) {
    hostcall(H_SLEEP_MS, req->tv_sec * 1000 + req->tv_nsec / 1000000, 0, 0);
    return 0;
}

// malloc: main() takes the heap and the Python stack once; nothing is freed
extern char _end[], __ram_end[];
static char *brk_at = _end;
void *malloc(size_t n) {
    n = (n + 7) & ~7u;
    if (n > (size_t)(__ram_end - brk_at) - 32 * 1024) {  // keep the C stack's room
        return NULL;
    }
    void *p = brk_at;
    brk_at += n;
    return p;
}

void free(void *p) {
}

unsigned long strtoul(const char *s, char **end, int base) {  // base 10: main.c's sizes
    unsigned long n = 0;
    while (*s >= '0' && *s <= '9') {
        n = n * 10 + (*s++ - '0');
    }
    if (end) {
        *end = (char *)s;
    }
    return n;
}

char *strrchr(const char *s, int c) {
    const char *last = NULL;
    do {
        if (*s == (char)c) {
            last = s;
        }
    } while (*s++);
    return (char *)last;
}

FILE *const stderr = (FILE *)2;
int fprintf(FILE *restrict f, const char *restrict fmt, ...) {
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    write((int)f, buf, n < (int)sizeof(buf) ? n : (int)sizeof(buf) - 1);
    return n;
}

_Noreturn void exit(int status) {
    hostcall(H_EXIT, status, 0, 0);
    for (;;) {
    }
}

_Noreturn void abort(void) {
    exit(134);
}

int main(int argc, char **argv);

// argv from the host: NUL-separated strings
static char arg_text[2048];
static char *arg_ptrs[32];

void thumbvm_start(void) {
    int argc = hostcall(H_ARGS, (int)arg_text, sizeof(arg_text), 32);
    char *p = arg_text;
    for (int i = 0; i < argc; i++) {
        arg_ptrs[i] = p;
        p += strlen(p) + 1;
    }
    exit(main(argc, arg_ptrs));
}

// the entry point: the stack at the top of RAM, then C
__attribute__((naked, section(".text.start"))) void _start(void) {
    __asm volatile (
        "ldr r0, =__ram_end\n"
        "mov sp, r0\n"
        "bl thumbvm_start\n"
        "b .\n"
        ".ltorg\n");
}
