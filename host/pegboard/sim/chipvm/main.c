// chipvm [-X heapsize=N[K|M]] [-X pystack=N] script.py [args...]: runs one script, like the unix
// port, on a core set up as a CircuitPython board is (mpconfigport.h): a heap of the given size and
// the Python stack the chip has (1,536 bytes in CircuitPython 9, 2,048 in 10: "pystack exhausted"
// where a call chain goes deeper). Both sizes are a 32-bit chip's: a 64-bit build (no gcc -m32)
// gets twice the bytes, the same number of words.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "py/builtin.h"
#include "py/compile.h"
#include "py/gc.h"
#include "py/mperrno.h"
#include "py/mphal.h"
#include "py/runtime.h"
#include "py/stackctrl.h"
#include "py/pystack.h"
#include "gchelper.h"  // the core's runtime helpers (-I in the Makefile)

void gc_collect(void) {
    gc_collect_start();
    gc_helper_collect_regs_and_stack();
    gc_collect_end();
}

void nlr_jump_fail(void *val) {
    fprintf(stderr, "chipvm: uncaught NLR %p\n", val);
    exit(1);
}

void NORETURN __fatal_error(const char *msg) {
    fprintf(stderr, "chipvm: %s\n", msg);
    exit(1);
}

#ifndef NDEBUG
void MP_WEAK __assert_func(const char *file, int line, const char *func, const char *expr) {
    fprintf(stderr, "assertion '%s' failed at %s:%d\n", expr, file, line);
    __fatal_error("assertion failed");
}
#endif

mp_import_stat_t mp_import_stat(const char *path) {
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            return MP_IMPORT_STAT_DIR;
        }
        if (S_ISREG(st.st_mode)) {
            return MP_IMPORT_STAT_FILE;
        }
    }
    return MP_IMPORT_STAT_NO_EXIST;
}

void mp_hal_stdout_tx_strn(const char *str, size_t len) {
    while (len > 0) {
        ssize_t n = write(STDOUT_FILENO, str, len);
        if (n <= 0) {
            return;
        }
        str += n;
        len -= n;
    }
}

void mp_hal_stdout_tx_strn_cooked(const char *str, size_t len) {
    mp_hal_stdout_tx_strn(str, len);
}

uintptr_t mp_hal_stdio_poll(uintptr_t poll_flags) {
    return 0;
}

int mp_hal_stdin_rx_chr(void) {
    unsigned char c;
    return read(STDIN_FILENO, &c, 1) == 1 ? c : -1;
}

static uint64_t now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

mp_uint_t mp_hal_ticks_us(void) {
    return (mp_uint_t)now_us();
}

mp_uint_t mp_hal_ticks_ms(void) {
    return (mp_uint_t)(now_us() / 1000);
}

void mp_hal_delay_ms(mp_uint_t ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

static void stderr_strn(void *env, const char *str, size_t len) {
    (void)!write(STDERR_FILENO, str, len);
}
static const mp_print_t stderr_print = {NULL, stderr_strn};

// The script's exit status: 0, SystemExit's code, or 1 after printing an uncaught exception.
static int run_file(const char *path) {
    nlr_buf_t nlr;
    if (nlr_push(&nlr) == 0) {
        mp_lexer_t *lex = mp_lexer_new_from_file(path);
        qstr source_name = lex->source_name;
        mp_parse_tree_t tree = mp_parse(lex, MP_PARSE_FILE_INPUT);
        mp_obj_t module_fun = mp_compile(&tree, source_name, false);
        mp_call_function_0(module_fun);
        nlr_pop();
        return 0;
    }
    mp_obj_t exc = MP_OBJ_FROM_PTR(nlr.ret_val);
    if (mp_obj_is_subclass_fast(MP_OBJ_FROM_PTR(mp_obj_get_type(exc)), MP_OBJ_FROM_PTR(&mp_type_SystemExit))) {
        mp_obj_t code = mp_obj_exception_get_value(exc);
        if (code == mp_const_none) {
            return 0;
        }
        if (mp_obj_is_integer(code)) {  // an int, or a bool as in CPython
            return mp_obj_get_int(code) & 255;
        }
        mp_obj_print_helper(&stderr_print, code, PRINT_STR);
        mp_print_str(&stderr_print, "\n");
        return 1;
    }
    mp_obj_print_exception(&stderr_print, exc);
    return 1;
}

// "192K" -> 196608; 0 for anything that is not a number with an optional K or M
static size_t parse_size(const char *s) {
    char *end;
    size_t n = strtoul(s, &end, 10);
    if (end == s) {
        return 0;
    }
    if (*end == 'K' || *end == 'k') {
        n *= 1024;
        end++;
    } else if (*end == 'M' || *end == 'm') {
        n *= 1024 * 1024;
        end++;
    }
    return *end == 0 ? n : 0;
}

int main(int argc, char **argv) {
    mp_stack_ctrl_init();
    // RP2040: a 24 KB C stack, 1 KB of it kept for handling exceptions; x86 frames are similar in
    // size, a 64-bit build's about twice
    mp_stack_set_limit(23 * 1024 * sizeof(void *) / 4);
    size_t heap_size = 192 * 1024;
    size_t pystack_size = 1536;
    int a = 1;
    while (a + 1 < argc && strcmp(argv[a], "-X") == 0) {
        if (strncmp(argv[a + 1], "heapsize=", 9) == 0) {
            heap_size = parse_size(argv[a + 1] + 9);
            if (heap_size < 16 * 1024) {
                fprintf(stderr, "chipvm: heapsize must be a number of bytes (K, M) of at least 16K\n");
                return 2;
            }
        } else if (strncmp(argv[a + 1], "pystack=", 8) == 0) {
            pystack_size = parse_size(argv[a + 1] + 8);
            if (pystack_size < 256) {
                fprintf(stderr, "chipvm: pystack must be a number of bytes of at least 256\n");
                return 2;
            }
        } else {
            fprintf(stderr, "chipvm: unknown option -X %s\n", argv[a + 1]);
            return 2;
        }
        a += 2;
    }
    if (a >= argc) {
        fprintf(stderr, "usage: %s [-X heapsize=N[K|M]] [-X pystack=N] script.py [args...]\n", argv[0]);
        return 2;
    }
    // sizes are a 32-bit chip's: a 64-bit build gets twice the bytes, the same number of words
    pystack_size = pystack_size * sizeof(void *) / 4;
    heap_size = heap_size * sizeof(void *) / 4;
    char *heap = malloc(heap_size);
    char *pystack = malloc(pystack_size);
    if (heap == NULL || pystack == NULL) {
        fprintf(stderr, "chipvm: no memory for a %u-byte heap\n", (unsigned)heap_size);
        return 2;
    }
    mp_pystack_init(pystack, pystack + pystack_size);
    gc_init(heap, heap + heap_size);
    mp_init();
    // sys.path: the script's folder, then the current one (as the unix port); sys.argv: the script on
    mp_obj_list_init(MP_OBJ_TO_PTR(mp_sys_path), 0);
    const char *slash = strrchr(argv[a], '/');
    mp_obj_list_append(mp_sys_path, slash ? mp_obj_new_str(argv[a], slash - argv[a]) : MP_OBJ_NEW_QSTR(MP_QSTR_));
    mp_obj_list_append(mp_sys_path, MP_OBJ_NEW_QSTR(MP_QSTR_));
    mp_obj_list_init(MP_OBJ_TO_PTR(mp_sys_argv), 0);
    for (int i = a; i < argc; i++) {
        mp_obj_list_append(mp_sys_argv, mp_obj_new_str(argv[i], strlen(argv[i])));
    }
    int status = run_file(argv[a]);
    mp_deinit();
    free(heap);
    free(pystack);
    return status;
}
