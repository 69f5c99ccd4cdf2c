// thumbvm: runs the guest (thumbvm.elf beside this program: MicroPython's core set up as a
// CircuitPython board, built for a Cortex-M0+) in Unicorn's emulation of a Cortex-M0 and counts
// the cycles the instructions it executes take on an RP2040's Cortex-M0+ at 125 MHz, by the cycle
// model in cycle_cost() (docs/chip-runtime.md says where each figure comes from and what the model
// leaves out). The guest's host calls (hostcalls.h) read and write the PC's files and pipes.
//   thumbvm [-X heapsize=N] [-X pystack=N] script.py [args...]   (as chipvm)
// THUMBVM_STATS=1: print the executed instructions and cycles to stderr at exit.
#define _GNU_SOURCE
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <unicorn/unicorn.h>

#include "hostcalls.h"

#define FLASH_BASE 0x10000000u
#define FLASH_SIZE (2u << 20)
#define RAM_BASE 0x20000000u
#define RAM_SIZE (1u << 20)
#define CHIP_HZ 125000000u

static uc_engine *uc;
static uint8_t *flash;            // the guest's code, as loaded: what cycle_cost() decodes
static uint64_t cycles;           // executed, by the model
static uint64_t instructions;
static uint64_t waited_ns;        // time the guest spent waiting in host calls (poll, sleep)
static int exit_status = -1;
static uint64_t wd_timeout;       // the watchdog, in cycles (0: off), and when it was last fed
static uint64_t wd_fed;
static int wd_fired;
static char **guest_argv;
static int guest_argc;

// per halfword of flash: the cost of the block that starts there (+1; 0 = not decoded yet) and
// its size, so each block is decoded once
static uint32_t *block_cost;
static uint16_t *block_size;
static uint32_t cond_branch_at;   // the previous block ended with a conditional branch here (0: no)

static uint16_t half(uint32_t addr) {
    uint32_t o = addr - FLASH_BASE;
    return (uint16_t)(flash[o] | flash[o + 1] << 8);
}

static int popcount8(unsigned v) {
    int n = 0;
    for (; v; v &= v - 1) {
        n++;
    }
    return n;
}

// Cycles one ARMv6-M instruction takes on a Cortex-M0+ with zero-wait-state memory (Cortex-M0+
// Technical Reference Manual, ARM DDI 0484C, table 3-1), a conditional branch counted as not
// taken (+1 when taken: the caller sees where execution went). *bytes: 2 or 4.
static int cycle_cost(uint32_t addr, int *bytes) {
    uint16_t h = half(addr);
    *bytes = 2;
    if ((h & 0xf800) >= 0xe800) {               // 32-bit: BL, or MSR / MRS / DMB / DSB / ISB
        *bytes = 4;
        return 3;                               // BL 3, and the others 3 too
    }
    if ((h & 0xff00) == 0x4700) {               // BX, BLX (register)
        return 2;
    }
    if ((h & 0xfc00) == 0x4400) {               // ADD, CMP, MOV with high registers
        int op = (h >> 8) & 3, rd = (h & 7) | ((h >> 4) & 8);
        return op != 1 && rd == 15 ? 2 : 1;     // writing the PC is a branch
    }
    if ((h & 0xf800) == 0x4800 || (h & 0xf000) == 0x5000 || (h & 0xe000) == 0x6000 ||
        (h & 0xf000) == 0x8000 || (h & 0xf000) == 0x9000) {
        return 2;                               // LDR / STR of every kind
    }
    if ((h & 0xfe00) == 0xb400) {               // PUSH {regs[, LR]}
        return 1 + popcount8(h & 0xff) + ((h >> 8) & 1);
    }
    if ((h & 0xfe00) == 0xbc00) {               // POP {regs[, PC]}: with PC 3 + N
        return (h & 0x100) ? 3 + popcount8(h & 0xff) : 1 + popcount8(h & 0xff);
    }
    if ((h & 0xf000) == 0xc000) {               // STM, LDM
        return 1 + popcount8(h & 0xff);
    }
    if ((h & 0xf000) == 0xd000 && (h & 0x0e00) != 0x0e00) {  // B<cond>
        return 1;
    }
    if ((h & 0xf800) == 0xe000) {               // B
        return 2;
    }
    return 1;  // ALU, shifts, MULS (the RP2040's single-cycle multiplier), moves, extends, SVC, ...
}

// The RP2040's watchdog counts chip time, whatever the loop does: one that has not been fed for
// its timeout resets the chip mid-pass. Here: tell the simulator as its fake watchdog does
// (device/microcontroller.py) and stop the guest; the simulator power-cycles this process.
static void watchdog_fires(void) {
    char msg[80];
    int n = snprintf(msg, sizeof(msg), "\x1e{\"t\": \"wd_expired\", \"chip_ms\": %llu}\n",
        (unsigned long long)((cycles - wd_fed) / (CHIP_HZ / 1000)));
    (void)!write(1, msg, n);
    wd_fired = 1;
    uc_emu_stop(uc);
}

static void on_block(uc_engine *u, uint64_t address, uint32_t size, void *user) {
    uint32_t a = (uint32_t)address;
    if (wd_timeout && cycles - wd_fed > wd_timeout && !wd_fired) {
        watchdog_fires();
        return;
    }
    if (cond_branch_at && a != cond_branch_at + 2) {
        cycles += 1;  // the conditional branch was taken
    }
    cond_branch_at = 0;
    if (a < FLASH_BASE || a + size > FLASH_BASE + FLASH_SIZE) {
        return;  // not in flash: nothing of the guest runs elsewhere
    }
    uint32_t i = (a - FLASH_BASE) / 2;
    if (block_cost[i] == 0 || block_size[i] != size) {
        uint32_t cost = 0, n = 0, last = a;
        for (uint32_t at = a; at < a + size;) {
            int bytes;
            cost += cycle_cost(at, &bytes);
            last = at;
            at += bytes;
            n++;
        }
        uint16_t h = half(last);
        int cond = (h & 0xf000) == 0xd000 && (h & 0x0e00) != 0x0e00;
        // cost+1 in the low 16 bits, the instruction count above; bit 31: ends in a B<cond>
        block_cost[i] = (cost + 1) | (n << 16) | (cond ? 0x80000000u : 0);
        block_size[i] = (uint16_t)size;
    }
    uint32_t c = block_cost[i];
    cycles += (c & 0xffff) - 1;
    instructions += (c >> 16) & 0x7fff;
    if (c & 0x80000000u) {
        // where the B<cond> is: the block's last instruction (16-bit)
        cond_branch_at = a + size - 2;
    }
}

static uint64_t wall_ns(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static uint64_t cycles_ns(void) {
    return cycles * 1000000000u / CHIP_HZ;
}

static uint32_t reg(int r) {
    uint32_t v;
    uc_reg_read(uc, r, &v);
    return v;
}

// the guest's memory at addr, n bytes: NULL if it is not all in the guest's RAM or flash
static uint8_t *ram;
static void *guest(uint32_t addr, uint32_t n) {
    if (addr >= RAM_BASE && n <= RAM_SIZE && addr - RAM_BASE <= RAM_SIZE - n) {
        return ram + (addr - RAM_BASE);
    }
    if (addr >= FLASH_BASE && n <= FLASH_SIZE && addr - FLASH_BASE <= FLASH_SIZE - n) {
        return flash + (addr - FLASH_BASE);
    }
    return NULL;
}

static const char *guest_str(uint32_t addr) {
    const char *s = guest(addr, 1);
    if (s == NULL) {
        return NULL;
    }
    const uint8_t *end = memchr(s, 0, (addr >= RAM_BASE ? RAM_BASE + RAM_SIZE : FLASH_BASE + FLASH_SIZE) - addr);
    return end ? s : NULL;
}

static int fail(int r) {
    return r < 0 ? -errno : r;
}

static int32_t call(uint32_t n, uint32_t a, uint32_t b, uint32_t c) {
    switch (n) {
        case H_EXIT:
            exit_status = (int)a;
            uc_emu_stop(uc);
            return 0;
        case H_READ:
        case H_WRITE: {
            void *buf = guest(b, c);
            if (buf == NULL) {
                return -EFAULT;
            }
            return fail(n == H_READ ? (int)read(a, buf, c) : (int)write(a, buf, c));
        }
        case H_OPEN: {
            const char *path = guest_str(a);
            if (path == NULL) {
                return -EFAULT;
            }
            int flags = b == 0 ? O_RDONLY : b == 2 ? O_WRONLY | O_CREAT | O_APPEND : O_WRONLY | O_CREAT | O_TRUNC;
            return fail(open(path, flags | O_CLOEXEC, 0644));
        }
        case H_CLOSE:
            return a <= 2 ? 0 : fail(close(a));  // the guest never closes our stdio
        case H_LSEEK:
            return fail((int)lseek(a, (int32_t)b, c));
        case H_STAT: {
            struct stat st;
            const char *path = a ? guest_str(a) : NULL;
            if (a && path == NULL) {
                return -EFAULT;
            }
            if ((path ? stat(path, &st) : fstat(b, &st)) != 0) {
                return -errno;
            }
            return S_ISDIR(st.st_mode) ? 2 : S_ISREG(st.st_mode) ? 1 : 0;
        }
        case H_GETENV: {
            const char *name = guest_str(a);
            char *buf = guest(b, c);
            const char *v = name ? getenv(name) : NULL;
            if (v == NULL || buf == NULL || strlen(v) >= c) {
                return -1;
            }
            strcpy(buf, v);
            return (int32_t)strlen(v);
        }
        case H_CHDIR: {
            const char *path = guest_str(a);
            return path ? fail(chdir(path)) : -EFAULT;
        }
        case H_GETCWD: {
            char *buf = guest(a, b);
            return buf && getcwd(buf, b) ? 0 : -ERANGE;
        }
        case H_LISTDIR: {
            const char *path = guest_str(a);
            DIR *d = path ? opendir(path) : NULL;
            if (d == NULL) {
                return -ENOENT;
            }
            int32_t want = (int32_t)b, i = 0, len = 0;
            char *buf = guest(c, 256);
            struct dirent *e;
            if (want < 0) {
                closedir(d);
                return 0;
            }
            len = -1;
            while ((e = readdir(d)) != NULL) {
                if (i++ == want) {
                    len = (int32_t)strlen(e->d_name);
                    if (buf == NULL || len > 255) {
                        len = -1;
                    } else {
                        memcpy(buf, e->d_name, len + 1);
                    }
                    break;
                }
            }
            closedir(d);
            return len;
        }
        case H_POLL: {
            struct pollfd p = {(int)a, POLLIN, 0};
            uint64_t t0 = wall_ns(CLOCK_MONOTONIC);
            int r = poll(&p, 1, (int32_t)b);
            waited_ns += wall_ns(CLOCK_MONOTONIC) - t0;
            return r > 0;
        }
        case H_CLOCK: {
            uint64_t *out = guest(b, 8), v;
            if (out == NULL) {
                return -EFAULT;
            }
            switch (a) {
                case CLOCK_CHIP: v = cycles_ns() + waited_ns; break;
                case CLOCK_CPU: v = cycles_ns(); break;
                case CLOCK_CYCLES: v = cycles; break;
                case CLOCK_REAL: v = wall_ns(CLOCK_REALTIME); break;
                default: v = wall_ns(CLOCK_MONOTONIC); break;
            }
            memcpy(out, &v, 8);
            return 0;
        }
        case H_ARGS: {
            char *buf = guest(a, b);
            uint32_t used = 0;
            int i;
            for (i = 0; i < guest_argc && (uint32_t)i < c; i++) {
                size_t len = strlen(guest_argv[i]) + 1;
                if (buf == NULL || used + len > b) {
                    break;
                }
                memcpy(buf + used, guest_argv[i], len);
                used += len;
            }
            return i;
        }
        case H_WATCHDOG:
            wd_timeout = (uint64_t)a * (CHIP_HZ / 1000);
            wd_fed = cycles;
            return 0;
        case H_FEED:
            wd_fed = cycles;
            return 0;
        case H_SLEEP_MS: {
            struct timespec ts = {a / 1000, (long)(a % 1000) * 1000000};
            uint64_t t0 = wall_ns(CLOCK_MONOTONIC);
            while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
            }
            waited_ns += wall_ns(CLOCK_MONOTONIC) - t0;
            return 0;
        }
    }
    return -ENOSYS;
}

static void on_interrupt(uc_engine *u, uint32_t intno, void *user) {
    if (intno != 2) {  // not an SVC: the guest hit a breakpoint or an undefined instruction
        fprintf(stderr, "thumbvm: exception %u at pc 0x%08x\n", intno, reg(UC_ARM_REG_PC));
        exit_status = 70;
        uc_emu_stop(uc);
        return;
    }
    int32_t r = call(reg(UC_ARM_REG_R0), reg(UC_ARM_REG_R1), reg(UC_ARM_REG_R2), reg(UC_ARM_REG_R3));
    uc_reg_write(uc, UC_ARM_REG_R0, &r);
}

static uint32_t load_elf(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "thumbvm: cannot open %s: %s\n", path, strerror(errno));
        exit(2);
    }
    Elf32_Ehdr eh;
    if (fread(&eh, sizeof(eh), 1, f) != 1 || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_machine != EM_ARM) {
        fprintf(stderr, "thumbvm: %s is not an ARM ELF file\n", path);
        exit(2);
    }
    for (int i = 0; i < eh.e_phnum; i++) {
        Elf32_Phdr ph;
        fseek(f, eh.e_phoff + i * eh.e_phentsize, SEEK_SET);
        if (fread(&ph, sizeof(ph), 1, f) != 1) {
            exit(2);
        }
        if (ph.p_type != PT_LOAD || ph.p_filesz == 0) {
            continue;
        }
        uint8_t *to = guest(ph.p_vaddr, ph.p_memsz);
        if (to == NULL) {
            fprintf(stderr, "thumbvm: %s has a segment outside flash and RAM\n", path);
            exit(2);
        }
        fseek(f, ph.p_offset, SEEK_SET);
        if (fread(to, 1, ph.p_filesz, f) != ph.p_filesz) {
            exit(2);
        }
    }
    fclose(f);
    return eh.e_entry;
}

int main(int argc, char **argv) {
    char elf[4096];
    if (snprintf(elf, sizeof(elf), "%s.elf", argv[0]) >= (int)sizeof(elf)) {
        return 2;
    }
    flash = calloc(1, FLASH_SIZE);
    ram = calloc(1, RAM_SIZE);
    block_cost = calloc(FLASH_SIZE / 2, sizeof(uint32_t));
    block_size = calloc(FLASH_SIZE / 2, sizeof(uint16_t));
    if (!flash || !ram || !block_cost || !block_size) {
        fprintf(stderr, "thumbvm: out of memory\n");
        return 2;
    }
    uint32_t entry = load_elf(elf);
    uc_err err = uc_open(UC_ARCH_ARM, UC_MODE_THUMB | UC_MODE_MCLASS, &uc);
    if (err == UC_ERR_OK) {
        err = uc_ctl_set_cpu_model(uc, UC_CPU_ARM_CORTEX_M0);  // ARMv6-M: a Thumb-2 instruction faults
    }
    if (err == UC_ERR_OK) {
        err = uc_mem_map_ptr(uc, FLASH_BASE, FLASH_SIZE, UC_PROT_READ | UC_PROT_EXEC, flash);
    }
    if (err == UC_ERR_OK) {
        err = uc_mem_map_ptr(uc, RAM_BASE, RAM_SIZE, UC_PROT_ALL, ram);
    }
    uc_hook hb, hi;
    if (err == UC_ERR_OK) {
        err = uc_hook_add(uc, &hb, UC_HOOK_BLOCK, on_block, NULL, 1, 0);
    }
    if (err == UC_ERR_OK) {
        err = uc_hook_add(uc, &hi, UC_HOOK_INTR, on_interrupt, NULL, 1, 0);
    }
    if (err != UC_ERR_OK) {
        fprintf(stderr, "thumbvm: cannot set up the emulator: %s\n", uc_strerror(err));
        return 2;
    }
    guest_argc = argc;
    guest_argv = argv;
    err = uc_emu_start(uc, entry | 1, 0xffffffffu, 0, 0);
    if (wd_fired) {
        char buf[256];  // reset: wait for the simulator to end this process, as the fake does
        while (read(0, buf, sizeof(buf)) > 0) {
        }
        exit_status = 0;
    }
    if (err != UC_ERR_OK && exit_status < 0) {
        fprintf(stderr, "thumbvm: %s at pc 0x%08x (lr 0x%08x, sp 0x%08x)\n", uc_strerror(err),
            reg(UC_ARM_REG_PC), reg(UC_ARM_REG_LR), reg(UC_ARM_REG_SP));
        exit_status = 70;
    }
    if (getenv("THUMBVM_STATS")) {
        fprintf(stderr, "thumbvm: %llu instructions, %llu cycles (%.3f s at 125 MHz)\n",
            (unsigned long long)instructions, (unsigned long long)cycles, cycles / (double)CHIP_HZ);
    }
    uc_close(uc);
    return exit_status < 0 ? 70 : exit_status;
}
