// What the script needs from the port: open() for files (the hint table, the settings) and the
// tick functions of MicroPython's time module.
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "py/builtin.h"
#include "py/mperrno.h"
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
    port_file_t *f = m_new_obj(port_file_t);
    f->base.type = text ? &port_textio_type : &port_fileio_type;
    f->fd = fd;
    return MP_OBJ_FROM_PTR(f);
}
MP_DEFINE_CONST_FUN_OBJ_KW(mp_builtin_open_obj, 1, port_open);

// time: ticks wrap at MICROPY_PY_UTIME_TICKS_PERIOD (2**30 here), as on the chip's MicroPython
#define PERIOD MICROPY_PY_UTIME_TICKS_PERIOD

STATIC mp_obj_t time_ticks_ms(void) {
    return MP_OBJ_NEW_SMALL_INT(mp_hal_ticks_ms() & (PERIOD - 1));
}
STATIC MP_DEFINE_CONST_FUN_OBJ_0(time_ticks_ms_obj, time_ticks_ms);

STATIC mp_obj_t time_ticks_us(void) {
    return MP_OBJ_NEW_SMALL_INT(mp_hal_ticks_us() & (PERIOD - 1));
}
STATIC MP_DEFINE_CONST_FUN_OBJ_0(time_ticks_us_obj, time_ticks_us);

STATIC mp_obj_t time_ticks_diff(mp_obj_t end_in, mp_obj_t start_in) {
    mp_uint_t diff = (mp_obj_get_int_truncated(end_in) - mp_obj_get_int_truncated(start_in) + PERIOD / 2)
        & (PERIOD - 1);
    return MP_OBJ_NEW_SMALL_INT((mp_int_t)diff - PERIOD / 2);
}
STATIC MP_DEFINE_CONST_FUN_OBJ_2(time_ticks_diff_obj, time_ticks_diff);

STATIC mp_obj_t time_ticks_add(mp_obj_t ticks_in, mp_obj_t delta_in) {
    return MP_OBJ_NEW_SMALL_INT((mp_obj_get_int_truncated(ticks_in) + mp_obj_get_int_truncated(delta_in))
        & (PERIOD - 1));
}
STATIC MP_DEFINE_CONST_FUN_OBJ_2(time_ticks_add_obj, time_ticks_add);

STATIC mp_obj_t time_sleep_ms(mp_obj_t ms_in) {
    mp_hal_delay_ms(mp_obj_get_int(ms_in));
    return mp_const_none;
}
STATIC MP_DEFINE_CONST_FUN_OBJ_1(time_sleep_ms_obj, time_sleep_ms);

STATIC mp_obj_t time_sleep(mp_obj_t s_in) {
    mp_hal_delay_ms((mp_uint_t)(mp_obj_get_float(s_in) * 1000));
    return mp_const_none;
}
STATIC MP_DEFINE_CONST_FUN_OBJ_1(time_sleep_obj, time_sleep);

STATIC mp_obj_t time_monotonic(void) {
    return mp_obj_new_float((mp_float_t)(mp_hal_ticks_ms() / 1000.0));
}
STATIC MP_DEFINE_CONST_FUN_OBJ_0(time_monotonic_obj, time_monotonic);

STATIC const mp_rom_map_elem_t time_globals_table[] = {
    { MP_ROM_QSTR(MP_QSTR___name__), MP_ROM_QSTR(MP_QSTR_time) },
    { MP_ROM_QSTR(MP_QSTR_ticks_ms), MP_ROM_PTR(&time_ticks_ms_obj) },
    { MP_ROM_QSTR(MP_QSTR_ticks_us), MP_ROM_PTR(&time_ticks_us_obj) },
    { MP_ROM_QSTR(MP_QSTR_ticks_diff), MP_ROM_PTR(&time_ticks_diff_obj) },
    { MP_ROM_QSTR(MP_QSTR_ticks_add), MP_ROM_PTR(&time_ticks_add_obj) },
    { MP_ROM_QSTR(MP_QSTR_sleep_ms), MP_ROM_PTR(&time_sleep_ms_obj) },
    { MP_ROM_QSTR(MP_QSTR_sleep), MP_ROM_PTR(&time_sleep_obj) },
    { MP_ROM_QSTR(MP_QSTR_monotonic), MP_ROM_PTR(&time_monotonic_obj) },
};
STATIC MP_DEFINE_CONST_DICT(time_globals, time_globals_table);

const mp_obj_module_t mp_module_time = {
    .base = { &mp_type_module },
    .globals = (mp_obj_dict_t *)&time_globals,
};
MP_REGISTER_MODULE(MP_QSTR_time, mp_module_time);
