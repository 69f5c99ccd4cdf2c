// The HAL functions are in main.c. No pins here: skip the core's virtual-pin API (it is in extmod/).
#define mp_hal_pin_obj_t
// Ctrl-C on the console: no console to watch here (micropython.kbd_intr() is accepted and ignored)
static inline void mp_hal_set_interrupt_char(int c) {
    (void)c;
}
