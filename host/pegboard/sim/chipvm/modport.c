// What a CircuitPython board has in C that the firmware (or the simulator's fakes) use, as this
// port's modules: open(), time (CircuitPython's: monotonic, no ticks), os (getenv as CircuitPython
// reads settings.toml, each version's way), binascii; and _vmhost, the simulator's own door to the
// PC (not on a chip), which also carries supervisor.get_setting for the fake supervisor module.
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <dirent.h>
#include <poll.h>
#include <stdlib.h>
#include <time.h>

#include "py/builtin.h"
#include "py/mperrno.h"
#include "py/parsenum.h"
#include "py/mphal.h"
#include "py/runtime.h"
#include "py/smallint.h"
#include "py/stream.h"

typedef struct _port_file_t {
    mp_obj_base_t base;
    int fd;
} port_file_t;

STATIC mp_uint_t file_read(mp_obj_t self_in, void *buf, mp_uint_t size, int *errcode) {
    port_file_t *self = MP_OBJ_TO_PTR(self_in);
    ssize_t n = read(self->fd, buf, size);
    if (n < 0) {
        *errcode = errno;
        return MP_STREAM_ERROR;
    }
    return n;
}

STATIC mp_uint_t file_write(mp_obj_t self_in, const void *buf, mp_uint_t size, int *errcode) {
    port_file_t *self = MP_OBJ_TO_PTR(self_in);
    ssize_t n = write(self->fd, buf, size);
    if (n < 0) {
        *errcode = errno;
        return MP_STREAM_ERROR;
    }
    return n;
}

STATIC mp_uint_t file_ioctl(mp_obj_t self_in, mp_uint_t request, uintptr_t arg, int *errcode) {
    port_file_t *self = MP_OBJ_TO_PTR(self_in);
    if (request == MP_STREAM_SEEK) {
        struct mp_stream_seek_t *s = (struct mp_stream_seek_t *)arg;
        off_t off = lseek(self->fd, s->offset, s->whence);
        if (off < 0) {
            *errcode = errno;
            return MP_STREAM_ERROR;
        }
        s->offset = off;
        return 0;
    }
    if (request == MP_STREAM_CLOSE) {
        if (self->fd >= 0) {
            close(self->fd);
        }
        self->fd = -1;
        return 0;
    }
    if (request == MP_STREAM_FLUSH) {
        return 0;
    }
    *errcode = MP_EINVAL;
    return MP_STREAM_ERROR;
}

STATIC mp_obj_t file___exit__(size_t n_args, const mp_obj_t *args) {
    return mp_stream_close(args[0]);
}
STATIC MP_DEFINE_CONST_FUN_OBJ_VAR_BETWEEN(file___exit___obj, 4, 4, file___exit__);

STATIC const mp_rom_map_elem_t file_locals_table[] = {
    { MP_ROM_QSTR(MP_QSTR_read), MP_ROM_PTR(&mp_stream_read_obj) },
    { MP_ROM_QSTR(MP_QSTR_readinto), MP_ROM_PTR(&mp_stream_readinto_obj) },
    { MP_ROM_QSTR(MP_QSTR_readline), MP_ROM_PTR(&mp_stream_unbuffered_readline_obj) },
    { MP_ROM_QSTR(MP_QSTR_write), MP_ROM_PTR(&mp_stream_write_obj) },
    { MP_ROM_QSTR(MP_QSTR_seek), MP_ROM_PTR(&mp_stream_seek_obj) },
    { MP_ROM_QSTR(MP_QSTR_tell), MP_ROM_PTR(&mp_stream_tell_obj) },
    { MP_ROM_QSTR(MP_QSTR_flush), MP_ROM_PTR(&mp_stream_flush_obj) },
    { MP_ROM_QSTR(MP_QSTR_close), MP_ROM_PTR(&mp_stream_close_obj) },
    { MP_ROM_QSTR(MP_QSTR___enter__), MP_ROM_PTR(&mp_identity_obj) },
    { MP_ROM_QSTR(MP_QSTR___exit__), MP_ROM_PTR(&file___exit___obj) },
    { MP_ROM_QSTR(MP_QSTR___del__), MP_ROM_PTR(&mp_stream_close_obj) },
};
STATIC MP_DEFINE_CONST_DICT(file_locals_dict, file_locals_table);

STATIC const mp_stream_p_t fileio_stream_p = { .read = file_read, .write = file_write, .ioctl = file_ioctl };
STATIC const mp_stream_p_t textio_stream_p = {
    .read = file_read, .write = file_write, .ioctl = file_ioctl, .is_text = true
};

STATIC const mp_obj_type_t port_fileio_type = {
    { &mp_type_type },
    .name = MP_QSTR_FileIO,
    .getiter = mp_identity_getiter,
    .iternext = mp_stream_unbuffered_iter,
    .protocol = &fileio_stream_p,
    .locals_dict = (mp_obj_dict_t *)&file_locals_dict,
};

STATIC const mp_obj_type_t port_textio_type = {
    { &mp_type_type },
    .name = MP_QSTR_TextIOWrapper,
    .getiter = mp_identity_getiter,
    .iternext = mp_stream_unbuffered_iter,
    .protocol = &textio_stream_p,
    .locals_dict = (mp_obj_dict_t *)&file_locals_dict,
};

// open(path, mode="r"): modes r, w, a, each with or without b; anything else is refused
STATIC mp_obj_t port_open(size_t n_args, const mp_obj_t *args, mp_map_t *kw_args) {
    const char *path = mp_obj_str_get_str(args[0]);
    const char *mode = "r";
    if (n_args > 1) {
        mode = mp_obj_str_get_str(args[1]);
    } else {
        mp_map_elem_t *kw = mp_map_lookup(kw_args, MP_OBJ_NEW_QSTR(MP_QSTR_mode), MP_MAP_LOOKUP);
        if (kw != NULL) {
            mode = mp_obj_str_get_str(kw->value);
        }
    }
    int flags;
    if (mode[0] == 'r') {
        flags = O_RDONLY;
    } else if (mode[0] == 'w') {
        flags = O_WRONLY | O_CREAT | O_TRUNC;
    } else if (mode[0] == 'a') {
        flags = O_WRONLY | O_CREAT | O_APPEND;
    } else {
        flags = -1;
    }
    bool text = true;
    if (mode[0] != 0 && mode[1] == 'b') {
        text = false;
    } else if (mode[0] != 0 && mode[1] == 't') {
        text = true;
    } else if (mode[0] != 0 && mode[1] != 0) {
        flags = -1;
    }
    if (flags < 0 || (mode[1] != 0 && mode[2] != 0)) {
        mp_raise_ValueError(MP_ERROR_TEXT("mode must be r, w or a, with b or t"));
    }
    int fd = open(path, flags, 0644);
    if (fd < 0) {
        mp_raise_OSError(errno);
    }
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {  // the chip's VFS refuses a folder at open()
        close(fd);
        mp_raise_OSError(MP_EISDIR);
    }
    // closed when collected, as the chip's VFS files are
    port_file_t *f = m_new_obj_with_finaliser(port_file_t);
    f->base.type = text ? &port_textio_type : &port_fileio_type;
    f->fd = fd;
    return MP_OBJ_FROM_PTR(f);
}
MP_DEFINE_CONST_FUN_OBJ_KW(mp_builtin_open_obj, 1, port_open);


static uint64_t clock_us(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (uint64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

// ---- time, as CircuitPython's: monotonic (a float, 30-bit on the chip), monotonic_ns, sleep ----
// (no ticks_ms: on the chip that is supervisor.ticks_ms). Their clock is the chip's: on thumbvm
// the emulated one (cycles executed at 125 MHz plus the time spent waiting), here the PC's.
#if defined(__thumb__)
#include "hostcalls.h"           // ../thumbvm: the emulator's calls
uint64_t thumbvm_chip_ns(void);  // ../thumbvm/hostcalls.c
uint32_t thumbvm_cycles(void);
#define chip_us() (thumbvm_chip_ns() / 1000)
#else
#define chip_us() clock_us(CLOCK_MONOTONIC)
#endif

STATIC mp_obj_t time_monotonic(void) {
    return mp_obj_new_float((mp_float_t)(chip_us() / 1000) / 1000);
}
STATIC MP_DEFINE_CONST_FUN_OBJ_0(time_monotonic_obj, time_monotonic);

STATIC mp_obj_t time_monotonic_ns(void) {
    return mp_obj_new_int_from_ull(chip_us() * 1000);
}
STATIC MP_DEFINE_CONST_FUN_OBJ_0(time_monotonic_ns_obj, time_monotonic_ns);

STATIC mp_obj_t time_sleep(mp_obj_t s_in) {
    mp_hal_delay_ms((mp_uint_t)(mp_obj_get_float(s_in) * 1000));
    return mp_const_none;
}
STATIC MP_DEFINE_CONST_FUN_OBJ_1(time_sleep_obj, time_sleep);

STATIC mp_obj_t time_time(void) {
    return mp_obj_new_int_from_ll((long long)time(NULL));
}
STATIC MP_DEFINE_CONST_FUN_OBJ_0(time_time_obj, time_time);

STATIC const mp_rom_map_elem_t time_globals_table[] = {
    { MP_ROM_QSTR(MP_QSTR___name__), MP_ROM_QSTR(MP_QSTR_time) },
    { MP_ROM_QSTR(MP_QSTR_monotonic), MP_ROM_PTR(&time_monotonic_obj) },
    { MP_ROM_QSTR(MP_QSTR_monotonic_ns), MP_ROM_PTR(&time_monotonic_ns_obj) },
    { MP_ROM_QSTR(MP_QSTR_sleep), MP_ROM_PTR(&time_sleep_obj) },
    { MP_ROM_QSTR(MP_QSTR_time), MP_ROM_PTR(&time_time_obj) },
};
STATIC MP_DEFINE_CONST_DICT(time_globals, time_globals_table);

const mp_obj_module_t mp_module_time = {
    .base = { &mp_type_module },
    .globals = (mp_obj_dict_t *)&time_globals,
};
MP_REGISTER_MODULE(MP_QSTR_time, mp_module_time);

// ---- settings.toml as CircuitPython reads it: os.getenv, and supervisor.get_setting from 10.2 ----
// The simulator hands each setting over as its line's text after the "=" (as in the file: quotes,
// escapes, a comment and all) in an environment variable of the key's name, and the CircuitPython
// version to model in PEGBOARD_SIM_CP_VERSION ("10.2.1"), both read at every call. Sources modelled
// (adafruit/circuitpython): 9.1.0-10.1.4 shared-module/os/getenv.c; 10.2.0-10.2.1
// shared-module/os/__init__.c (os.getenv), supervisor/shared/settings.c and
// shared-bindings/supervisor/__init__.c (get_setting).

// unset: the newest supported version (host/pegboard/circuitpython.py, NEWEST_TESTED)
#define CP_VERSION_NEWEST 100201
#define CP_VERSION_TYPED 100200  // 10.2.0: os.getenv returns str only; supervisor.get_setting

// PEGBOARD_SIM_CP_VERSION as major * 10000 + minor * 100 + patch ("10.2.1" -> 100201; a leading
// quote, as the chip runtimes' own values come, is skipped). Read before the setting itself:
// thumbvm's getenv keeps one value at a time.
STATIC int cp_version(void) {
    const char *v = getenv("PEGBOARD_SIM_CP_VERSION");
    if (v == NULL) {
        return CP_VERSION_NEWEST;
    }
    while (*v == '"' || *v == ' ') {
        v++;
    }
    int parts[3] = {0, 0, 0};
    for (int i = 0; i < 3; i++) {
        if (*v < '0' || *v > '9') {
            return i == 0 ? CP_VERSION_NEWEST : parts[0] * 10000 + parts[1] * 100 + parts[2];
        }
        while (*v >= '0' && *v <= '9') {
            parts[i] = parts[i] * 10 + (*v++ - '0');
        }
        if (*v == '.') {
            v++;
        }
    }
    return parts[0] * 10000 + parts[1] * 100 + parts[2];
}

STATIC mp_obj_t cp_version_obj(void) {
    int v = cp_version();
    mp_obj_t t[3] = {MP_OBJ_NEW_SMALL_INT(v / 10000), MP_OBJ_NEW_SMALL_INT(v / 100 % 100),
                     MP_OBJ_NEW_SMALL_INT(v % 100)};
    return mp_obj_new_tuple(3, t);
}

typedef enum { SETTING_OK, SETTING_NOT_FOUND, SETTING_BAD } setting_err_t;

STATIC bool is_space(char c) {  // consume_whitespace's test: unichar_isspace, a newline ends the line
    return c != 0 && c != '\n' && unichar_isspace((unichar)(byte)c);
}

STATIC int hex_digit(char c) {
    return c >= '0' && c <= '9' ? c - '0' : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (c | 0x20) - 'a' + 10 : -1;
}

// The value CircuitPython's reader takes from `p`, the text after "=" (read_value in both sources):
// a "string" (*quoted; escapes \b \r \n \t \v \f \uXXXX \UXXXXXXXX undone, any other escaped byte
// itself), else the bare text up to a '#' or the end. SETTING_BAD: a string without its closing
// quote, with anything but a comment after it, or with a bad \u escape; 10.2 also refuses an empty
// bare value and trims a bare value's trailing spaces, tabs and \r (9.x keeps them).
STATIC setting_err_t read_value(const char *p, bool v10_2, vstr_t *out, bool *quoted) {
    while (is_space(*p)) {
        p++;
    }
    *quoted = *p == '"';
    if (!*quoted) {
        if (v10_2 && (*p == 0 || *p == '\n')) {
            return SETTING_BAD;
        }
        size_t trailing = 0;
        for (; *p != 0 && *p != '\n' && *p != '#'; p++) {
            vstr_add_byte(out, *p);
            trailing = (*p == ' ' || *p == '\t' || *p == '\r') ? trailing + 1 : 0;
        }
        if (v10_2) {
            out->len -= trailing;
        }
        return SETTING_OK;
    }
    for (p++;; p++) {
        char c = *p;
        if (c == 0 || c == '\n') {
            return SETTING_BAD;
        }
        if (c == '"') {
            for (p++; is_space(*p); p++) {
            }
            return *p == 0 || *p == '\n' || *p == '#' ? SETTING_OK : SETTING_BAD;
        }
        if (c == '\\') {
            c = *++p;
            switch (c) {
                case 0:
                case '\n':
                    return SETTING_BAD;
                case 'b': c = '\b'; break;
                case 'r': c = '\r'; break;
                case 'n': c = '\n'; break;
                case 't': c = '\t'; break;
                case 'v': c = '\v'; break;
                case 'f': c = '\f'; break;
                case 'u':
                case 'U': {
                    int n = c == 'u' ? 4 : 8;
                    unsigned long code = 0;
                    for (int i = 0; i < n; i++) {
                        int d = hex_digit(*++p);
                        if (d < 0) {
                            return SETTING_BAD;
                        }
                        code = code * 16 + d;
                    }
                    if (code >= 0x110000) {
                        return SETTING_BAD;
                    }
                    vstr_add_char(out, (unichar)code);
                    continue;
                }
                default:
                    break;  // any other escaped byte stands for itself
            }
        }
        vstr_add_byte(out, c);
    }
}

STATIC setting_err_t setting_of(const char *key, bool v10_2, vstr_t *out, bool *quoted) {
    const char *raw = getenv(key);
    return raw == NULL ? SETTING_NOT_FOUND : read_value(raw, v10_2, out, quoted);
}

// CircuitPython's os.getenv. Up to 10.1: a "string" is a str, a bare value goes through
// mp_parse_num_integer(..., base 0) (an int, or ValueError), a broken value raises ValueError.
// From 10.2: every value is a str (a bare one as its text), and a broken one gives the default.
STATIC mp_obj_t os_getenv(size_t n_args, const mp_obj_t *args) {
    bool v10_2 = cp_version() >= CP_VERSION_TYPED;
    const char *key = mp_obj_str_get_str(args[0]);
    mp_obj_t default_ = n_args > 1 ? args[1] : mp_const_none;
    vstr_t v;
    vstr_init(&v, 16);
    bool quoted;
    setting_err_t r = setting_of(key, v10_2, &v, &quoted);
    if (r == SETTING_NOT_FOUND || (r == SETTING_BAD && v10_2)) {
        vstr_clear(&v);
        return default_;
    }
    if (r == SETTING_BAD) {
        vstr_clear(&v);
        // a broken string: CircuitPython's message names the byte it met ("Invalid byte ..."); this one the key
        mp_raise_msg_varg(&mp_type_ValueError, MP_ERROR_TEXT("%s: invalid value in settings.toml"), key);
    }
    if (quoted || v10_2) {
        return mp_obj_new_str_from_vstr(&mp_type_str, &v);
    }
    mp_obj_t n = mp_parse_num_integer(v.buf, v.len, 0, NULL);
    vstr_clear(&v);
    return n;
}
STATIC MP_DEFINE_CONST_FUN_OBJ_VAR_BETWEEN(os_getenv_obj, 1, 2, os_getenv);

STATIC mp_obj_t os_chdir(mp_obj_t path) {
    if (chdir(mp_obj_str_get_str(path)) != 0) {
        mp_raise_OSError(errno);
    }
    return mp_const_none;
}
STATIC MP_DEFINE_CONST_FUN_OBJ_1(os_chdir_obj, os_chdir);

STATIC mp_obj_t os_getcwd(void) {
    char buf[MICROPY_ALLOC_PATH_MAX];
    if (getcwd(buf, sizeof(buf)) == NULL) {
        mp_raise_OSError(errno);
    }
    return mp_obj_new_str(buf, strlen(buf));
}
STATIC MP_DEFINE_CONST_FUN_OBJ_0(os_getcwd_obj, os_getcwd);

STATIC mp_obj_t os_listdir(size_t n_args, const mp_obj_t *args) {
    DIR *dir = opendir(n_args > 0 ? mp_obj_str_get_str(args[0]) : ".");
    if (dir == NULL) {
        mp_raise_OSError(errno);
    }
    mp_obj_t out = mp_obj_new_list(0, NULL);
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            mp_obj_list_append(out, mp_obj_new_str(e->d_name, strlen(e->d_name)));
        }
    }
    closedir(dir);
    return out;
}
STATIC MP_DEFINE_CONST_FUN_OBJ_VAR_BETWEEN(os_listdir_obj, 0, 1, os_listdir);

STATIC const mp_rom_map_elem_t os_globals_table[] = {
    { MP_ROM_QSTR(MP_QSTR___name__), MP_ROM_QSTR(MP_QSTR_os) },
    { MP_ROM_QSTR(MP_QSTR_getenv), MP_ROM_PTR(&os_getenv_obj) },
    { MP_ROM_QSTR(MP_QSTR_chdir), MP_ROM_PTR(&os_chdir_obj) },
    { MP_ROM_QSTR(MP_QSTR_getcwd), MP_ROM_PTR(&os_getcwd_obj) },
    { MP_ROM_QSTR(MP_QSTR_listdir), MP_ROM_PTR(&os_listdir_obj) },
    { MP_ROM_QSTR(MP_QSTR_sep), MP_ROM_QSTR(MP_QSTR__slash_) },
};
STATIC MP_DEFINE_CONST_DICT(os_globals, os_globals_table);

const mp_obj_module_t mp_module_os = {
    .base = { &mp_type_module },
    .globals = (mp_obj_dict_t *)&os_globals,
};
MP_REGISTER_MODULE(MP_QSTR_os, mp_module_os);

// ---- binascii: hexlify / unhexlify ----

STATIC mp_obj_t binascii_hexlify(mp_obj_t data) {
    mp_buffer_info_t b;
    mp_get_buffer_raise(data, &b, MP_BUFFER_READ);
    vstr_t v;
    vstr_init_len(&v, b.len * 2);
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < b.len; i++) {
        byte c = ((const byte *)b.buf)[i];
        v.buf[2 * i] = digits[c >> 4];
        v.buf[2 * i + 1] = digits[c & 15];
    }
    return mp_obj_new_str_from_vstr(&mp_type_bytes, &v);
}
STATIC MP_DEFINE_CONST_FUN_OBJ_1(binascii_hexlify_obj, binascii_hexlify);

STATIC int hexval(byte c) {
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    c |= 0x20;
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

STATIC mp_obj_t binascii_unhexlify(mp_obj_t data) {
    mp_buffer_info_t b;
    mp_get_buffer_raise(data, &b, MP_BUFFER_READ);
    if (b.len & 1) {
        mp_raise_ValueError(MP_ERROR_TEXT("odd-length string"));
    }
    vstr_t v;
    vstr_init_len(&v, b.len / 2);
    const byte *in = b.buf;
    for (size_t i = 0; i < b.len / 2; i++) {
        int hi = hexval(in[2 * i]), lo = hexval(in[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            mp_raise_ValueError(MP_ERROR_TEXT("non-hex digit found"));
        }
        v.buf[i] = hi << 4 | lo;
    }
    return mp_obj_new_str_from_vstr(&mp_type_bytes, &v);
}
STATIC MP_DEFINE_CONST_FUN_OBJ_1(binascii_unhexlify_obj, binascii_unhexlify);

STATIC const mp_rom_map_elem_t binascii_globals_table[] = {
    { MP_ROM_QSTR(MP_QSTR___name__), MP_ROM_QSTR(MP_QSTR_binascii) },
    { MP_ROM_QSTR(MP_QSTR_hexlify), MP_ROM_PTR(&binascii_hexlify_obj) },
    { MP_ROM_QSTR(MP_QSTR_unhexlify), MP_ROM_PTR(&binascii_unhexlify_obj) },
};
STATIC MP_DEFINE_CONST_DICT(binascii_globals, binascii_globals_table);

const mp_obj_module_t mp_module_binascii = {
    .base = { &mp_type_module },
    .globals = (mp_obj_dict_t *)&binascii_globals,
};
MP_REGISTER_MODULE(MP_QSTR_binascii, mp_module_binascii);

// ---- _vmhost: the simulator's fakes talk to the PC through it (no chip has this module) ----
#define TICKS_MASK ((1 << 29) - 1)  // small ints, wrapping as supervisor.ticks_ms does

STATIC mp_obj_t vmhost_ticks_ms(void) {
    return MP_OBJ_NEW_SMALL_INT((mp_int_t)(clock_us(CLOCK_MONOTONIC) / 1000) & TICKS_MASK);
}
STATIC MP_DEFINE_CONST_FUN_OBJ_0(vmhost_ticks_ms_obj, vmhost_ticks_ms);

// CPU time this process has used, in µs (wrapping at 2**29): what a loop pass costs, whatever else
// the PC is doing at the time
STATIC mp_obj_t vmhost_cpu_us(void) {
    return MP_OBJ_NEW_SMALL_INT((mp_int_t)clock_us(CLOCK_PROCESS_CPUTIME_ID) & TICKS_MASK);
}
STATIC MP_DEFINE_CONST_FUN_OBJ_0(vmhost_cpu_us_obj, vmhost_cpu_us);

#if defined(__thumb__)
// cycles(): the cycles the emulated chip has executed (wrapping at 2**29, as cpu_us): what a
// loop pass costs on a Cortex-M0+ under thumbvm's cycle model (docs/chip-runtime.md)
STATIC mp_obj_t vmhost_cycles(void) {
    return MP_OBJ_NEW_SMALL_INT((mp_int_t)(thumbvm_cycles() & TICKS_MASK));
}
STATIC MP_DEFINE_CONST_FUN_OBJ_0(vmhost_cycles_obj, vmhost_cycles);

// watchdog(timeout_ms), feed(): the chip's watchdog, kept by the emulator in emulated time (it
// fires mid-pass, as the RP2040's does); timeout 0 stops it
STATIC mp_obj_t vmhost_watchdog(mp_obj_t ms) {
    hostcall(H_WATCHDOG, mp_obj_get_int(ms), 0, 0);
    return mp_const_none;
}
STATIC MP_DEFINE_CONST_FUN_OBJ_1(vmhost_watchdog_obj, vmhost_watchdog);

STATIC mp_obj_t vmhost_feed(void) {
    hostcall(H_FEED, 0, 0, 0);
    return mp_const_none;
}
STATIC MP_DEFINE_CONST_FUN_OBJ_0(vmhost_feed_obj, vmhost_feed);
#endif

// readable(fd[, wait_ms]): is there something to read (or the end of the input), now or within
// wait_ms (a quiet simulated board waits for the simulator instead of spinning a PC core)?
STATIC mp_obj_t vmhost_readable(size_t n_args, const mp_obj_t *args) {
    struct pollfd p = {mp_obj_get_int(args[0]), POLLIN, 0};
    int wait_ms = n_args > 1 ? mp_obj_get_int(args[1]) : 0;
    return mp_obj_new_bool(poll(&p, 1, wait_ms) > 0);
}
STATIC MP_DEFINE_CONST_FUN_OBJ_VAR_BETWEEN(vmhost_readable_obj, 1, 2, vmhost_readable);

// read(fd, n): at most n bytes (and at most 1 KB: a small, short-lived allocation); b"" at the end
STATIC mp_obj_t vmhost_read(mp_obj_t fd_in, mp_obj_t n_in) {
    byte buf[1024];
    mp_int_t n = mp_obj_get_int(n_in);
    if (n < 0) {
        n = 0;
    } else if (n > (mp_int_t)sizeof(buf)) {
        n = sizeof(buf);
    }
    ssize_t got = read(mp_obj_get_int(fd_in), buf, n);
    if (got < 0) {
        mp_raise_OSError(errno);
    }
    return mp_obj_new_bytes(buf, got);
}
STATIC MP_DEFINE_CONST_FUN_OBJ_2(vmhost_read_obj, vmhost_read);

// get_setting(key, default=None): CircuitPython 10.2's supervisor.get_setting (settings_get_obj in
// supervisor/shared/settings.c): a "string" is a str; a bare value is True/False for exactly
// true/false, else an int as C's strtol(text, &end, 0) reads it with nothing but spaces after
// (a 32-bit long, as the RP2040's; at most 15 bytes: get_int's 16-byte buffer); anything else
// raises ValueError. The fake supervisor module offers it for 10.2.0 and later only
// (pegboard/sim/device/supervisor.py). The floats of 10.3.0-alpha.2 and later are not modelled: the
// firmware reads a float as it reads any bare value that is not a quoted string
// (pegfw.hardware.typed_getenv).
STATIC bool strtol_0(const char *s, size_t len, mp_int_t *value) {
    const char *p = s, *end = s + len;
    bool neg = false;
    while (p < end && unichar_isspace((unichar)(byte)*p)) {
        p++;
    }
    if (p < end && (*p == '+' || *p == '-')) {
        neg = *p++ == '-';
    }
    int base = 10;
    if (p + 1 < end && p[0] == '0' && (p[1] | 0x20) == 'x' && p + 2 < end && hex_digit(p[2]) >= 0) {
        base = 16;
        p += 2;
    } else if (p < end && p[0] == '0') {
        base = 8;
    }
    const char *digits = p;
    long long n = 0;
    for (; p < end; p++) {
        int d = hex_digit(*p);
        if (d < 0 || d >= base) {
            break;
        }
        if (n <= 0x80000000LL) {
            n = n * base + d;
        }
    }
    if (p == digits) {
        return false;
    }
    while (p < end && unichar_isspace((unichar)(byte)*p)) {
        p++;
    }
    if (p != end) {
        return false;
    }
    n = neg ? -n : n;
    *value = (mp_int_t)(n > 0x7fffffffLL ? 0x7fffffffLL : n < -0x80000000LL ? -0x80000000LL : n);
    return true;
}

STATIC mp_obj_t vmhost_get_setting(size_t n_args, const mp_obj_t *args) {
    const char *key = mp_obj_str_get_str(args[0]);
    vstr_t v;
    vstr_init(&v, 16);
    bool quoted;
    setting_err_t r = setting_of(key, true, &v, &quoted);
    if (r == SETTING_NOT_FOUND) {
        vstr_clear(&v);
        return n_args > 1 ? args[1] : mp_const_none;
    }
    if (r == SETTING_OK && quoted) {
        return mp_obj_new_str_from_vstr(&mp_type_str, &v);
    }
    mp_obj_t out = MP_OBJ_NULL;
    mp_int_t n;
    if (r == SETTING_OK && v.len < 16) {
        vstr_null_terminated_str(&v);
        if (strcmp(v.buf, "true") == 0 || strcmp(v.buf, "false") == 0) {
            out = mp_obj_new_bool(v.buf[0] == 't');
        } else if (strtol_0(v.buf, v.len, &n)) {
            out = mp_obj_new_int(n);
        }
    }
    vstr_clear(&v);
    if (out == MP_OBJ_NULL) {
        mp_raise_ValueError(MP_ERROR_TEXT("Invalid value"));
    }
    return out;
}
STATIC MP_DEFINE_CONST_FUN_OBJ_VAR_BETWEEN(vmhost_get_setting_obj, 1, 2, vmhost_get_setting);

// circuitpython(): the CircuitPython version the simulator models, as (major, minor, patch)
STATIC MP_DEFINE_CONST_FUN_OBJ_0(vmhost_circuitpython_obj, cp_version_obj);

STATIC const mp_rom_map_elem_t vmhost_globals_table[] = {
    { MP_ROM_QSTR(MP_QSTR_get_setting), MP_ROM_PTR(&vmhost_get_setting_obj) },
    { MP_ROM_QSTR(MP_QSTR_circuitpython), MP_ROM_PTR(&vmhost_circuitpython_obj) },
    { MP_ROM_QSTR(MP_QSTR___name__), MP_ROM_QSTR(MP_QSTR__vmhost) },
    { MP_ROM_QSTR(MP_QSTR_ticks_ms), MP_ROM_PTR(&vmhost_ticks_ms_obj) },
    { MP_ROM_QSTR(MP_QSTR_cpu_us), MP_ROM_PTR(&vmhost_cpu_us_obj) },
    #if defined(__thumb__)
    { MP_ROM_QSTR(MP_QSTR_cycles), MP_ROM_PTR(&vmhost_cycles_obj) },
    { MP_ROM_QSTR(MP_QSTR_watchdog), MP_ROM_PTR(&vmhost_watchdog_obj) },
    { MP_ROM_QSTR(MP_QSTR_feed), MP_ROM_PTR(&vmhost_feed_obj) },
    #endif
    { MP_ROM_QSTR(MP_QSTR_readable), MP_ROM_PTR(&vmhost_readable_obj) },
    { MP_ROM_QSTR(MP_QSTR_read), MP_ROM_PTR(&vmhost_read_obj) },
};
STATIC MP_DEFINE_CONST_DICT(vmhost_globals, vmhost_globals_table);

const mp_obj_module_t mp_module_vmhost = {
    .base = { &mp_type_module },
    .globals = (mp_obj_dict_t *)&vmhost_globals,
};
MP_REGISTER_MODULE(MP_QSTR__vmhost, mp_module_vmhost);

// ---- CircuitPython's names for the core's modules (this core calls them uarray, uio, ...) ----
extern const mp_obj_module_t mp_module_uarray, mp_module_collections, mp_module_io, mp_module_ustruct,
    mp_module_uerrno;
MP_REGISTER_MODULE(MP_QSTR_array, mp_module_uarray);
MP_REGISTER_MODULE(MP_QSTR_collections, mp_module_collections);
MP_REGISTER_MODULE(MP_QSTR_io, mp_module_io);
MP_REGISTER_MODULE(MP_QSTR_struct, mp_module_ustruct);
MP_REGISTER_MODULE(MP_QSTR_errno, mp_module_uerrno);
