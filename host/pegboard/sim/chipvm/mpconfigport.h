// The chip VM: MicroPython's core set up the way CircuitPython sets up an RP2040 board, so that
// the firmware meets here what it meets on the chip (docs/chip-runtime.md lists every option and
// where it comes from). MicroPython's own default level, then CircuitPython's explicit options from
// py/circuitpy_mpconfig.h (CIRCUITPY_FULL_BUILD = 1, as on RP2040), as far as this core has them.
#include <stdint.h>
#include <alloca.h>

// circuitpy_mpconfig.h sets no ROM level, so a board gets MicroPython's default: core features
#define MICROPY_CONFIG_ROM_LEVEL            (MICROPY_CONFIG_ROM_LEVEL_CORE_FEATURES)

// REPR_C (31-bit small ints, 30-bit floats in one word) needs 32-bit words; a 64-bit build
// (no gcc -m32 here) keeps the default representation
#if UINTPTR_MAX == 0xffffffffu
#define MICROPY_OBJ_REPR                    (MICROPY_OBJ_REPR_C)
#endif

// ---- from py/circuitpy_mpconfig.h, in its order ----
#define MICROPY_ALLOC_PARSE_CHUNK_INIT      (16)
#define MICROPY_CAN_OVERRIDE_BUILTINS       (1)
#define MICROPY_COMP_CONST                  (1)
#define MICROPY_COMP_DOUBLE_TUPLE_ASSIGN    (1)
#define MICROPY_COMP_MODULE_CONST           (1)
#define MICROPY_COMP_TRIPLE_TUPLE_ASSIGN    (0)
#define MICROPY_DEBUG_PRINTERS              (0)
#define MICROPY_EMIT_X64                    (0)
#define MICROPY_ENABLE_DOC_STRING           (0)
#define MICROPY_ENABLE_FINALISER            (1)
#define MICROPY_ENABLE_GC                   (1)
#define MICROPY_ENABLE_PYSTACK              (1)  // its size: main.c (-X pystack, default 1536)
#define MICROPY_ENABLE_SOURCE_LINE          (1)
#define MICROPY_ERROR_REPORTING             (MICROPY_ERROR_REPORTING_NORMAL)  // full build
#define MICROPY_FLOAT_IMPL                  (MICROPY_FLOAT_IMPL_FLOAT)
#define MICROPY_GC_ALLOC_THRESHOLD          (0)
#define MICROPY_HELPER_REPL                 (0)  // CircuitPython: 1; no REPL here
#define MICROPY_KBD_EXCEPTION               (1)
#define MICROPY_MEM_STATS                   (0)
#define MICROPY_MODULE_BUILTIN_INIT         (1)
#define MICROPY_OPT_COMPUTED_GOTO           (1)
#define MICROPY_OPT_LOAD_ATTR_FAST_PATH     (1)
#define MICROPY_OPT_MAP_LOOKUP_CACHE        (1)  // CIRCUITPY_OPT_MAP_LOOKUP_CACHE = full build
#define MICROPY_OPT_MPZ_BITWISE             (0)
#define MICROPY_OPT_CACHE_MAP_LOOKUP_IN_BYTECODE (0)
// CircuitPython loads .mpy (1); chipvm does not (0), thumbvm does (its Makefile sets it), for the
// bench's .mpy figures (bench/mpy_drive.py). It costs the firmware some heap more, which
// chipvm's heap figures leave out (docs/chip-runtime.md).
#ifndef MICROPY_PERSISTENT_CODE_LOAD
#define MICROPY_PERSISTENT_CODE_LOAD        (0)
#endif

#define MICROPY_PY_ARRAY                    (1)
#define MICROPY_PY_ARRAY_SLICE_ASSIGN       (1)
#define MICROPY_PY_ATTRTUPLE                (1)
#define MICROPY_PY_BUILTINS_BYTEARRAY       (1)
#define MICROPY_PY_BUILTINS_BYTES_HEX       (1)
#define MICROPY_PY_BUILTINS_ENUMERATE       (1)
#define MICROPY_PY_BUILTINS_FILTER          (1)
#define MICROPY_PY_BUILTINS_HELP            (0)  // CircuitPython: 1; no REPL here
#define MICROPY_PY_BUILTINS_INPUT           (0)  // CircuitPython: 1; no REPL here
#define MICROPY_PY_BUILTINS_MEMORYVIEW      (1)
#define MICROPY_PY_BUILTINS_MIN_MAX         (1)
#define MICROPY_PY_BUILTINS_PROPERTY        (1)
#define MICROPY_PY_BUILTINS_REVERSED        (1)
#define MICROPY_PY_BUILTINS_ROUND_INT       (1)
#define MICROPY_PY_BUILTINS_SET             (1)
#define MICROPY_PY_BUILTINS_SLICE           (1)
#define MICROPY_PY_BUILTINS_SLICE_ATTRS     (1)
#define MICROPY_PY_BUILTINS_SLICE_INDICES   (1)
#define MICROPY_PY_BUILTINS_STR_UNICODE     (1)
#define MICROPY_PY_CMATH                    (0)
#define MICROPY_PY_COLLECTIONS              (1)
#define MICROPY_PY_DESCRIPTORS              (1)
#define MICROPY_PY_GC                       (1)
#define MICROPY_PY_UERRNO                   (1)  // MICROPY_PY_ERRNO: CIRCUITPY_ERRNO = full build
#define MICROPY_PY_UERRNO_ERRORCODE         (1)
#define MICROPY_PY_IO                       (1)
#define MICROPY_PY_IO_IOBASE                (0)  // CIRCUITPY_IO_IOBASE needs jpegio: off on RP2040
#define MICROPY_PY_IO_FILEIO                (0)  // open() is the port's (modport.c)
#define MICROPY_PY_UJSON                    (1)  // json.dumps prints through the core; module: modjson.c
#define MICROPY_PY_UJSON_SEPARATORS         (0)  // no separators= argument: ", " and ": "
#define MICROPY_PY_MICROPYTHON_MEM_INFO     (0)
#define MICROPY_PY_SYS                      (1)
#define MICROPY_PY_SYS_MAXSIZE              (1)
#define MICROPY_PY_SYS_STDFILES             (1)
#define MICROPY_PY_UCTYPES                  (0)
#define MICROPY_PY___FILE__                 (1)
#define MICROPY_QSTR_BYTES_IN_HASH          (1)  // full build
#define MICROPY_STACK_CHECK                 (1)
#define MICROPY_STREAMS_NON_BLOCK           (1)
#if defined(__thumb__)
#define MICROPY_USE_INTERNAL_PRINTF         (1)  // as CircuitPython (thumbvm has no libc printf either)
#else
#define MICROPY_USE_INTERNAL_PRINTF         (0)  // CircuitPython: 1 (no libc printf on the chip)
#endif
// CircuitPython replaces MicroPython's math and struct with its own (shared-bindings/math,
// shared-bindings/struct, both on for RP2040): this core's modules stand in for them
#define MICROPY_PY_MATH                     (1)
#define MICROPY_PY_STRUCT                   (1)

// ---- the CIRCUITPY_FULL_BUILD-dependent block at the end of circuitpy_mpconfig.h ----
#define MICROPY_BUILTIN_METHOD_CHECK_SELF_ARG (1)
#define MICROPY_CPYTHON_COMPAT              (1)
#define MICROPY_PY_BUILTINS_POW3            (1)
#define MICROPY_PY_FSTRINGS                 (1)
#define MICROPY_MODULE_WEAK_LINKS           (0)
#define MICROPY_PY_ALL_SPECIAL_METHODS      (1)
#define MICROPY_PY_BUILTINS_COMPLEX         (1)
#define MICROPY_PY_BUILTINS_FROZENSET       (1)
#define MICROPY_PY_BUILTINS_NOTIMPLEMENTED  (1)
#define MICROPY_PY_BUILTINS_STR_CENTER      (1)
#define MICROPY_PY_BUILTINS_STR_PARTITION   (1)
#define MICROPY_PY_BUILTINS_STR_SPLITLINES  (1)
#define MICROPY_PY_COLLECTIONS_ORDEREDDICT  (1)
#define MICROPY_PY_COLLECTIONS_DEQUE        (1)
#define MICROPY_PY_FUNCTION_ATTRS           (1)
#define MICROPY_PY_REVERSE_SPECIAL_METHODS  (1)
#define MICROPY_ENABLE_COMPILER             (1)
#define MICROPY_PY_BUILTINS_COMPILE         (1)
#define MICROPY_PY_ASYNC_AWAIT              (1)  // circuitpy_mpconfig.mk: full build
#define MICROPY_LONGINT_IMPL                (MICROPY_LONGINT_IMPL_MPZ)  // RP2040: LONGINT_IMPL = MPZ

// Left at the core level on purpose, as on the chip (CircuitPython does not set them):
//   MICROPY_PY_BUILTINS_NEXT2 = 0       next(it, default) raises TypeError
//   MICROPY_PY_SYS_STDIO_BUFFER = 0     no sys.stdin.buffer
//   MICROPY_PY_DELATTR_SETATTR = 0      no __setattr__ / __delattr__ on user classes
//   MICROPY_PY_BUILTINS_EXECFILE = 0

// ---- this port (a script runner on a PC, or in thumbvm's emulated Cortex-M0+) ----
#if defined(__thumb__)
// zig's clang for a freestanding target takes its own limits.h, which has no SSIZE_MAX
#define MP_SSIZE_MAX                        (0x7fffffff)
#else
// the core's x86 assembler NLR loses the VM's stack when a C function raises in this set-up;
// setjmp/longjmp does the same job portably (thumbvm, as the chip, uses the core's Thumb NLR)
#define MICROPY_NLR_SETJMP                  (1)
#endif
#define MICROPY_READER_POSIX                (1)
#define MICROPY_HELPER_LEXER_UNIX           (1)
// CircuitPython: 96 (paths on the chip are short, "/lib/..."); the simulator's folders are not
#define MICROPY_ALLOC_PATH_MAX              (256)
#define MICROPY_PY_SYS_EXIT                 (1)
#if defined(__thumb__)
#define MICROPY_PY_SYS_PLATFORM             "thumbvm"
#define MICROPY_HW_BOARD_NAME               "thumbvm"
#define MICROPY_HW_MCU_NAME                 "emulated Cortex-M0+ (CircuitPython-like core)"
#else
#define MICROPY_PY_SYS_PLATFORM             "chipvm"
#define MICROPY_HW_BOARD_NAME               "chipvm"
#define MICROPY_HW_MCU_NAME                 "PC (CircuitPython-like core)"
#endif

typedef intptr_t mp_int_t;
typedef uintptr_t mp_uint_t;
typedef long mp_off_t;

#define MP_STATE_PORT MP_STATE_VM
