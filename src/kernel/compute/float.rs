//! [`Arith`] for `f32` and `f64` (float16/bfloat16 compute in `f32`): NumPy's
//! `npy_divmod`, NaN-propagating `maximum`/`minimum`, the C library's `pow`.

use super::*;

/// NumPy's `npy_divmod`: the floor quotient and the remainder with the divisor's sign.
macro_rules! divmod {
    ($t:ty) => {
        #[inline(always)]
        pub fn divmod(a: $t, b: $t) -> ($t, $t) {
            let m = a % b;
            if b == 0.0 {
                return (a / b, m);
            }
            let mut div = (a - m) / b;
            let mut m = m;
            if m != 0.0 {
                if (b < 0.0) != (m < 0.0) {
                    m += b;
                    div -= 1.0;
                }
            } else {
                m = (0.0 as $t).copysign(b);
            }
            let fd = if div != 0.0 {
                let f = div.floor();
                if div - f > 0.5 {
                    f + 1.0
                } else {
                    f
                }
            } else {
                (0.0 as $t).copysign(a / b)
            };
            (fd, m)
        }
    };
}

macro_rules! arith_float {
    ($($t:ty, $m:ident);*) => {$(
        mod $m {
            divmod!($t);
        }
        impl Arith for $t {
            #[inline(always)]
            fn add(a: $t, b: $t) -> $t {
                a + b
            }
            #[inline(always)]
            fn sub(a: $t, b: $t) -> $t {
                a - b
            }
            #[inline(always)]
            fn mul(a: $t, b: $t) -> $t {
                a * b
            }
            #[inline(always)]
            fn div(a: $t, b: $t) -> $t {
                a / b
            }
            #[inline(always)]
            fn floor_div(a: $t, b: $t) -> $t {
                if b == 0.0 { a / b } else { $m::divmod(a, b).0 }
            }
            #[inline(always)]
            fn rem(a: $t, b: $t) -> $t {
                if b == 0.0 { a % b } else { $m::divmod(a, b).1 }
            }
            #[inline(always)]
            fn pow(a: $t, b: $t) -> $t {
                a.powf(b)
            }
            #[inline(always)]
            fn maximum(a: $t, b: $t) -> $t {
                if a > b || a.is_nan() { a } else { b }
            }
            #[inline(always)]
            fn minimum(a: $t, b: $t) -> $t {
                if a < b || a.is_nan() { a } else { b }
            }
            #[inline(always)]
            fn ceq(a: $t, b: $t) -> bool {
                a == b
            }
            #[inline(always)]
            fn cne(a: $t, b: $t) -> bool {
                a != b
            }
            #[inline(always)]
            fn clt(a: $t, b: $t) -> bool {
                a < b
            }
            #[inline(always)]
            fn cle(a: $t, b: $t) -> bool {
                a <= b
            }
            #[inline(always)]
            fn band(a: $t, _b: $t) -> $t {
                a
            }
            #[inline(always)]
            fn bor(a: $t, _b: $t) -> $t {
                a
            }
            #[inline(always)]
            fn bxor(a: $t, _b: $t) -> $t {
                a
            }
            #[inline(always)]
            fn negative(self) -> bool {
                false
            }
            #[inline(always)]
            fn isnan(self) -> bool {
                self.is_nan()
            }
            #[inline(always)]
            fn rem_fmod_zero(a: $t, b: $t) -> $t {
                let m = a % b;
                if m != 0.0 && ((b < 0.0) != (m < 0.0)) {
                    m + b
                } else {
                    m
                }
            }
            fn ceq_within_1e15(a: $t, b: $t) -> bool {
                if a.is_infinite() || b.is_infinite() {
                    a == b
                } else if a.is_nan() || b.is_nan() {
                    false
                } else {
                    ((a - b) as f64).abs() < 1e-15
                }
            }
            #[inline(always)]
            fn floor_div_quotient(a: $t, b: $t, ftz: bool) -> $t {
                let q = a / b;
                if ftz { q.flush().floor() } else { q.floor() }
            }
            #[inline(always)]
            fn rem_fmod_zero_daz(a: $t, b: $t) -> $t {
                let m = if b.flush() == 0.0 { <$t>::NAN } else { a % b };
                let (mf, bf) = (m.flush(), b.flush());
                if mf != 0.0 && ((bf < 0.0) != (mf < 0.0)) {
                    (m + b).flush()
                } else {
                    m
                }
            }
            #[inline(always)]
            fn flush(self) -> $t {
                if self != 0.0 && self.abs() < <$t>::MIN_POSITIVE { (0.0 as $t).copysign(self) } else { self }
            }
            #[inline(always)]
            fn zero() -> $t {
                0.0
            }
            const BITWISE: bool = false;
            const FLOOR: bool = true;
            const INT: bool = false;
        }
    )*};
}
arith_float!(f32, divmod_f32; f64, divmod_f64);
