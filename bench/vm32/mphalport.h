// The HAL functions are in main.c. No pins here: skip the core's virtual-pin API (it is in extmod/).
#define mp_hal_pin_obj_t
