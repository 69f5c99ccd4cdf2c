// A small 32-bit MicroPython for the heap figures: pointers, small ints and GC blocks (16 bytes)
// the size the RP2040 has them, unlike the 64-bit unix VM (32-byte blocks, 8-byte pointers).
#include <stdint.h>
#include <alloca.h>

#define MICROPY_CONFIG_ROM_LEVEL            (MICROPY_CONFIG_ROM_LEVEL_EXTRA_FEATURES)
// as CircuitPython sets them, where they change what code takes in the heap
#define MICROPY_COMP_TRIPLE_TUPLE_ASSIGN    (0)
#define MICROPY_QSTR_BYTES_IN_HASH          (1)
#define MICROPY_ENABLE_COMPILER             (1)
#define MICROPY_ENABLE_GC                   (1)
#define MICROPY_READER_POSIX                (1)
#define MICROPY_HELPER_LEXER_UNIX           (1)
#define MICROPY_ENABLE_SOURCE_LINE          (1)
#define MICROPY_ERROR_REPORTING             (MICROPY_ERROR_REPORTING_DETAILED)
#define MICROPY_LONGINT_IMPL                (MICROPY_LONGINT_IMPL_MPZ)
#define MICROPY_FLOAT_IMPL                  (MICROPY_FLOAT_IMPL_FLOAT)
#define MICROPY_STACK_CHECK                 (1)
#define MICROPY_ALLOC_PATH_MAX              (256)
#define MICROPY_PY_SYS_STDFILES             (1)
#define MICROPY_PY_SYS_EXIT                 (1)
#define MICROPY_PY_SYS_PLATFORM             "vm32"
#define MICROPY_PY_IO_FILEIO                (0)  // open() is the port's (modport.c)
#define MICROPY_PY_MICROPYTHON_MEM_INFO     (1)
#define MICROPY_PY_GC                       (1)
#define MICROPY_PY_ARRAY                    (1)
#define MICROPY_PY_STRUCT                   (1)
#define MICROPY_PY_UCTYPES                  (0)  // extmod/: not in the fetched source
#define MICROPY_KBD_EXCEPTION               (0)
#define MICROPY_PY_BUILTINS_NEXT2           (1)  // as CircuitPython full builds (RP2040)
#define MICROPY_PY_BUILTINS_HELP            (0)
#define MICROPY_PY_BUILTINS_INPUT           (0)
#define MICROPY_USE_INTERNAL_PRINTF         (0)
#define MICROPY_HW_BOARD_NAME               "vm32"
#define MICROPY_HW_MCU_NAME                 "x86 (32-bit)"

typedef intptr_t mp_int_t;
typedef uintptr_t mp_uint_t;
typedef long mp_off_t;

#define MP_STATE_PORT MP_STATE_VM
