// The single-precision math functions MicroPython's core calls that neither zig's compiler_rt nor
// the musl sources zig ships as C provide, for thumbvm's guest: from zig's own standard library.
const std = @import("std");

export fn atanf(x: f32) f32 {
    return std.math.atan(x);
}

export fn acosf(x: f32) f32 {
    return std.math.acos(x);
}

export fn copysignf(x: f32, y: f32) f32 {
    return std.math.copysign(x, y);
}

export fn nanf(tag: [*:0]const u8) f32 {
    _ = tag;
    return std.math.nan(f32);
}

export fn frexpf(x: f32, e: *c_int) f32 {
    const r = std.math.frexp(x);
    e.* = r.exponent;
    return r.significand;
}

export fn modff(x: f32, ipart: *f32) f32 {
    const r = std.math.modf(x);
    ipart.* = r.ipart;
    return r.fpart;
}

// round to the nearest integer, ties to even (the default rounding mode; the guest has no other)
export fn rintf(x: f32) f32 {
    const big: f32 = 8388608.0; // 2**23: from here on every float is an integer
    if (!(@abs(x) < big)) return x;
    const y = if (x < 0) (x - big) + big else (x + big) - big;
    return std.math.copysign(y, x);
}
