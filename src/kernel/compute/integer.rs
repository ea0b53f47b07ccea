//! [`Arith`] for bool and the integers: wrapping, Python's floor division and remainder,
//! power by squaring.

use super::*;

impl Arith for bool {
    #[inline(always)]
    fn add(a: bool, b: bool) -> bool {
        a | b
    }
    #[inline(always)]
    fn sub(a: bool, b: bool) -> bool {
        a ^ b
    }
    #[inline(always)]
    fn mul(a: bool, b: bool) -> bool {
        a & b
    }
    #[inline(always)]
    fn div(a: bool, b: bool) -> bool {
        a & b
    }
    #[inline(always)]
    fn floor_div(a: bool, b: bool) -> bool {
        a & b
    }
    #[inline(always)]
    fn rem(_a: bool, _b: bool) -> bool {
        false
    }
    #[inline(always)]
    fn pow(a: bool, b: bool) -> bool {
        a | !b
    }
    #[inline(always)]
    fn maximum(a: bool, b: bool) -> bool {
        a | b
    }
    #[inline(always)]
    fn minimum(a: bool, b: bool) -> bool {
        a & b
    }
    #[inline(always)]
    fn ceq(a: bool, b: bool) -> bool {
        a == b
    }
    #[inline(always)]
    fn cne(a: bool, b: bool) -> bool {
        a != b
    }
    #[inline(always)]
    fn clt(a: bool, b: bool) -> bool {
        !a & b
    }
    #[inline(always)]
    fn cle(a: bool, b: bool) -> bool {
        !a | b
    }
    #[inline(always)]
    fn band(a: bool, b: bool) -> bool {
        a & b
    }
    #[inline(always)]
    fn bor(a: bool, b: bool) -> bool {
        a | b
    }
    #[inline(always)]
    fn bxor(a: bool, b: bool) -> bool {
        a ^ b
    }
    #[inline(always)]
    fn negative(self) -> bool {
        false
    }
    #[inline(always)]
    fn zero() -> bool {
        false
    }
    const BITWISE: bool = true;
    const FLOOR: bool = true;
    const INT: bool = false;
}

macro_rules! arith_int {
    ($($t:ty, $signed:literal);*) => {$(
        impl Arith for $t {
            #[inline(always)]
            fn add(a: $t, b: $t) -> $t {
                a.wrapping_add(b)
            }
            #[inline(always)]
            fn sub(a: $t, b: $t) -> $t {
                a.wrapping_sub(b)
            }
            #[inline(always)]
            fn mul(a: $t, b: $t) -> $t {
                a.wrapping_mul(b)
            }
            #[inline(always)]
            fn div(a: $t, b: $t) -> $t {
                Self::floor_div(a, b)
            }
            #[inline(always)]
            #[allow(unused_comparisons)]
            fn floor_div(a: $t, b: $t) -> $t {
                if b == 0 {
                    return 0;
                }
                // MIN // -1 wraps to MIN, as NumPy answers
                let q = a.wrapping_div(b);
                if $signed && (a.wrapping_rem(b) != 0) && ((a < 0) != (b < 0)) {
                    q.wrapping_sub(1)
                } else {
                    q
                }
            }
            #[inline(always)]
            #[allow(unused_comparisons)]
            fn rem(a: $t, b: $t) -> $t {
                if b == 0 {
                    return 0;
                }
                let r = a.wrapping_rem(b);
                if $signed && r != 0 && ((r < 0) != (b < 0)) {
                    r.wrapping_add(b)
                } else {
                    r
                }
            }
            #[inline(always)]
            fn pow(a: $t, b: $t) -> $t {
                // b >= 0 (checked by the caller); square and multiply, wrapping
                let mut e = b as u64;
                let mut base = a;
                let mut acc: $t = 1;
                while e > 0 {
                    if e & 1 == 1 {
                        acc = acc.wrapping_mul(base);
                    }
                    e >>= 1;
                    if e > 0 {
                        base = base.wrapping_mul(base);
                    }
                }
                acc
            }
            #[inline(always)]
            fn maximum(a: $t, b: $t) -> $t {
                if a >= b { a } else { b }
            }
            #[inline(always)]
            fn minimum(a: $t, b: $t) -> $t {
                if a <= b { a } else { b }
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
            fn band(a: $t, b: $t) -> $t {
                a & b
            }
            #[inline(always)]
            fn bor(a: $t, b: $t) -> $t {
                a | b
            }
            #[inline(always)]
            fn bxor(a: $t, b: $t) -> $t {
                a ^ b
            }
            #[inline(always)]
            #[allow(unused_comparisons)]
            fn negative(self) -> bool {
                self < 0
            }
            #[inline(always)]
            #[allow(unused_comparisons)]
            fn pow_any(a: $t, b: $t) -> $t {
                if b >= 0 {
                    <$t as Arith>::pow(a, b)
                } else if a == 1 {
                    1
                } else if a == (0 as $t).wrapping_sub(1) {
                    // (-1) ** b: -(b) % 2 in the type (MIN wraps to an even MIN)
                    if b.wrapping_neg() % 2 != 0 { a } else { 1 }
                } else {
                    0
                }
            }
            #[allow(unused_comparisons)]
            fn pow_via_f64(a: $t, b: $t) -> $t {
                if $signed && b >= 0 && std::mem::size_of::<$t>() >= 4 {
                    let p = (a as f64).powf(b as f64);
                    if std::mem::size_of::<$t>() == 4 {
                        <i32 as crate::kernel::cast::FromFloat>::from_float(p) as $t
                    } else {
                        <i64 as crate::kernel::cast::FromFloat>::from_float(p) as $t
                    }
                } else {
                    Self::pow_any(a, b)
                }
            }
            #[inline(always)]
            #[allow(unused_comparisons)]
            fn floor_div_xla(a: $t, b: $t) -> $t {
                match (b, a) {
                    (0, 0) if $signed => (0 as $t).wrapping_sub(1),
                    (0, _) if $signed => (0 as $t).wrapping_sub(2),
                    (0, _) => <$t>::MAX,
                    _ => Self::floor_div(a, b),
                }
            }
            #[inline(always)]
            fn div_xla(a: $t, b: $t) -> $t {
                if b == 0 { (0 as $t).wrapping_sub(1) } else { a.wrapping_div(b) }
            }
            #[inline(always)]
            fn rem_xla(a: $t, b: $t) -> $t {
                if b == 0 { 0 } else { Self::rem(a, b) }
            }
            #[inline(always)]
            fn zero() -> $t {
                0
            }
            const BITWISE: bool = true;
            const FLOOR: bool = true;
            const INT: bool = true;
        }
    )*};
}
arith_int!(u8, false; u16, false; u32, false; u64, false; i8, true; i16, true; i32, true; i64, true);
