// json: dumps and loads in C, as the chip has them (CircuitPython's json is a C module), so that
// neither their code nor their recursion lands on the firmware's heap or Python stack.
// dumps prints through the core's JSON printers (MICROPY_PY_UJSON). loads is an iterative parser
// (nesting costs heap, never C stack) as lenient as CircuitPython's (extmod/modjson.c): commas and
// colons are skipped like spaces, so '{"a" 1}' is {'a': 1}, '[1 2]' is [1, 2] and '{"a":}' is {}
// (a key without its value is dropped); what it refuses is what the chip's refuses: brackets that
// do not match, something after the value, a bad literal or number, a string left open.
#include <string.h>

#include "py/objstr.h"
#include "py/unicode.h"
#include "py/parsenum.h"
#include "py/runtime.h"

STATIC mp_obj_t json_dumps(mp_obj_t obj) {
    vstr_t vstr;
    mp_print_t print;
    vstr_init_print(&vstr, 16, &print);
    mp_obj_print_helper(&print, obj, PRINT_JSON);
    return mp_obj_new_str_from_vstr(&mp_type_str, &vstr);
}
STATIC MP_DEFINE_CONST_FUN_OBJ_1(json_dumps_obj, json_dumps);

typedef struct {
    const char *p;
    const char *end;
} src_t;

STATIC NORETURN void bad(void) {
    mp_raise_ValueError(MP_ERROR_TEXT("syntax error in JSON"));
}

STATIC void skip_ws(src_t *s) {
    while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r')) {
        s->p++;
    }
}

STATIC int hex4(src_t *s) {
    if (s->end - s->p < 4) {
        bad();
    }
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = *s->p++;
        v <<= 4;
        if (c >= '0' && c <= '9') {
            v |= c - '0';
        } else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') {
            v |= (c | 0x20) - 'a' + 10;
        } else {
            bad();
        }
    }
    return v;
}

STATIC void add_utf8(vstr_t *v, unsigned cp) {
    if (cp < 0x80) {
        vstr_add_byte(v, cp);
    } else if (cp < 0x800) {
        vstr_add_byte(v, 0xc0 | (cp >> 6));
        vstr_add_byte(v, 0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
        vstr_add_byte(v, 0xe0 | (cp >> 12));
        vstr_add_byte(v, 0x80 | ((cp >> 6) & 0x3f));
        vstr_add_byte(v, 0x80 | (cp & 0x3f));
    } else {
        vstr_add_byte(v, 0xf0 | (cp >> 18));
        vstr_add_byte(v, 0x80 | ((cp >> 12) & 0x3f));
        vstr_add_byte(v, 0x80 | ((cp >> 6) & 0x3f));
        vstr_add_byte(v, 0x80 | (cp & 0x3f));
    }
}

// s->p is just past the opening quote
STATIC mp_obj_t parse_string(src_t *s) {
    vstr_t v;
    vstr_init(&v, 8);
    for (;;) {
        if (s->p >= s->end) {
            bad();
        }
        unsigned char c = *s->p++;
        if (c == '"') {
            break;
        }
        if (c < 0x20) {
            bad();
        }
        if (c != '\\') {
            vstr_add_byte(&v, c);
            continue;
        }
        if (s->p >= s->end) {
            bad();
        }
        c = *s->p++;
        switch (c) {
            case '"': case '\\': case '/':
                vstr_add_byte(&v, c);
                break;
            case 'b': vstr_add_byte(&v, '\b'); break;
            case 'f': vstr_add_byte(&v, '\f'); break;
            case 'n': vstr_add_byte(&v, '\n'); break;
            case 'r': vstr_add_byte(&v, '\r'); break;
            case 't': vstr_add_byte(&v, '\t'); break;
            case 'u': {
                unsigned cp = hex4(s);
                if (cp >= 0xd800 && cp < 0xdc00 && s->end - s->p >= 6 && s->p[0] == '\\' && s->p[1] == 'u') {
                    s->p += 2;
                    unsigned lo = hex4(s);
                    if (lo < 0xdc00 || lo >= 0xe000) {
                        bad();
                    }
                    cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                }
                add_utf8(&v, cp);
                break;
            }
            default:
                bad();
        }
    }
    if (!utf8_check((const byte *)v.buf, v.len)) {
        bad();
    }
    return mp_obj_new_str_from_vstr(&mp_type_str, &v);
}

STATIC mp_obj_t parse_number(src_t *s) {
    const char *start = s->p;
    bool is_float = false;
    if (s->p < s->end && *s->p == '-') {
        s->p++;
    }
    const char *digits = s->p;
    while (s->p < s->end) {
        char c = *s->p;
        if (c >= '0' && c <= '9') {
        } else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
            is_float = true;
        } else {
            break;
        }
        s->p++;
    }
    if (s->p == digits || *digits < '0' || *digits > '9') {
        bad();
    }
    if (is_float) {
        return mp_parse_num_decimal(start, s->p - start, false, false, NULL);
    }
    return mp_parse_num_integer(start, s->p - start, 10, NULL);
}

STATIC bool take_word(src_t *s, const char *word) {
    size_t n = strlen(word);
    if ((size_t)(s->end - s->p) >= n && memcmp(s->p, word, n) == 0) {
        s->p += n;
        return true;
    }
    return false;
}

STATIC mp_obj_t json_loads(mp_obj_t text) {
    size_t len;
    const char *buf = mp_obj_str_get_data(text, &len);
    src_t s = {buf, buf + len};
    // open containers, innermost last; a dict is followed by its pending key (or MP_OBJ_NULL)
    mp_obj_t stack = mp_obj_new_list(0, NULL);
    mp_obj_list_t *st = MP_OBJ_TO_PTR(stack);
    for (;;) {
        while (s.p < s.end && (*s.p == ' ' || *s.p == '\t' || *s.p == '\n' || *s.p == '\r' || *s.p == ','
                               || *s.p == ':')) {
            s.p++;
        }
        if (s.p >= s.end) {
            bad();  // the text ended inside a container, or held no value
        }
        char c = *s.p;
        mp_obj_t value;
        if (c == '{') {
            s.p++;
            mp_obj_list_append(stack, mp_obj_new_dict(0));
            mp_obj_list_append(stack, MP_OBJ_NULL);
            continue;
        } else if (c == '[') {
            s.p++;
            mp_obj_list_append(stack, mp_obj_new_list(0, NULL));
            continue;
        } else if (c == '}' || c == ']') {
            s.p++;
            if (st->len == 0) {
                bad();
            }
            // a dict's frame is the dict and its key slot (NULL or a str); a list's, the list
            mp_obj_t top = st->items[st->len - 1];
            if (c == '}') {
                mp_obj_t below = st->len >= 2 ? st->items[st->len - 2] : MP_OBJ_NULL;
                if (below == MP_OBJ_NULL || !mp_obj_is_type(below, &mp_type_dict)
                    || (top != MP_OBJ_NULL && !mp_obj_is_str(top))) {
                    bad();
                }
                st->len--;  // a key left without its value is dropped
            } else if (top == MP_OBJ_NULL || !mp_obj_is_type(top, &mp_type_list)) {
                bad();
            }
            value = st->items[--st->len];
        } else if (c == '"') {
            s.p++;
            value = parse_string(&s);
        } else if (take_word(&s, "true")) {
            value = mp_const_true;
        } else if (take_word(&s, "false")) {
            value = mp_const_false;
        } else if (take_word(&s, "null")) {
            value = mp_const_none;
        } else {
            value = parse_number(&s);
        }
        // a complete value: the result, an element, a key, or a key's value
        if (st->len == 0) {
            while (s.p < s.end && (*s.p == ' ' || *s.p == '\t' || *s.p == '\n' || *s.p == '\r')) {
                s.p++;
            }
            if (s.p != s.end) {
                bad();
            }
            return value;
        }
        mp_obj_t top = st->items[st->len - 1];
        if (top != MP_OBJ_NULL && mp_obj_is_type(top, &mp_type_list)) {
            mp_obj_list_append(top, value);
        } else if (top == MP_OBJ_NULL) {
            if (!mp_obj_is_str(value)) {
                bad();  // keys are strings
            }
            st->items[st->len - 1] = value;  // the key
        } else {
            mp_obj_dict_store(st->items[st->len - 2], top, value);
            st->items[st->len - 1] = MP_OBJ_NULL;
        }
    }
}
STATIC MP_DEFINE_CONST_FUN_OBJ_1(json_loads_obj, json_loads);

STATIC const mp_rom_map_elem_t json_globals_table[] = {
    { MP_ROM_QSTR(MP_QSTR___name__), MP_ROM_QSTR(MP_QSTR_json) },
    { MP_ROM_QSTR(MP_QSTR_dumps), MP_ROM_PTR(&json_dumps_obj) },
    { MP_ROM_QSTR(MP_QSTR_loads), MP_ROM_PTR(&json_loads_obj) },
};
STATIC MP_DEFINE_CONST_DICT(json_globals, json_globals_table);

const mp_obj_module_t mp_module_json = {
    .base = { &mp_type_module },
    .globals = (mp_obj_dict_t *)&json_globals,
};
MP_REGISTER_MODULE(MP_QSTR_json, mp_module_json);
