//! [`Arith`] for complex numbers: Smith's division, NumPy's `npy_cpow`, the fused, XLA and
//! C99 products, lexicographic order.

use crate::kernel::array::{C32, C64};

use super::*;

#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod libm_cpow {
    use super::{C32, C64};
    extern "C" {
        // C99 `double complex cpow(double complex, double complex)`: a `repr(C)` pair of
        // doubles has the same x86-64/aarch64 calling convention as `double complex`.
        fn cpow(a: C64, b: C64) -> C64;
        fn cpowf(a: C32, b: C32) -> C32;
    }
    pub fn pow64(a: C64, b: C64) -> C64 {
        // SAFETY: a pure libm function on plain values.
        unsafe { cpow(a, b) }
    }
    pub fn pow32(a: C32, b: C32) -> C32 {
        // SAFETY: as above.
        unsafe { cpowf(a, b) }
    }
    extern "C" {
        // libgcc's C99 Annex G complex multiply and divide (what GCC compiles `_Complex`
        // `*` and `/` to), each returning its `_Complex` result like a `repr(C)` pair.
        fn __mulsc3(a: f32, b: f32, c: f32, d: f32) -> C32;
        fn __divsc3(a: f32, b: f32, c: f32, d: f32) -> C32;
        fn __muldc3(a: f64, b: f64, c: f64, d: f64) -> C64;
        fn __divdc3(a: f64, b: f64, c: f64, d: f64) -> C64;
    }
    pub fn mul_annex_g32(x: C32, y: C32) -> C32 {
        // SAFETY: pure libgcc functions on plain values.
        unsafe { __mulsc3(x.re, x.im, y.re, y.im) }
    }
    pub fn div_annex_g32(x: C32, y: C32) -> C32 {
        // SAFETY: as above.
        unsafe { __divsc3(x.re, x.im, y.re, y.im) }
    }
    pub fn mul_annex_g64(x: C64, y: C64) -> C64 {
        // SAFETY: as above.
        unsafe { __muldc3(x.re, x.im, y.re, y.im) }
    }
    pub fn div_annex_g64(x: C64, y: C64) -> C64 {
        // SAFETY: as above.
        unsafe { __divdc3(x.re, x.im, y.re, y.im) }
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
mod libm_cpow {
    use super::{C32, C64};
    pub fn pow64(a: C64, b: C64) -> C64 {
        a.powc(b)
    }
    pub fn pow32(a: C32, b: C32) -> C32 {
        a.powc(b)
    }
    // without libgcc: the plain formulas (no Annex G recovery of infinities)
    pub fn mul_annex_g32(x: C32, y: C32) -> C32 {
        x * y
    }
    pub fn div_annex_g32(x: C32, y: C32) -> C32 {
        x / y
    }
    pub fn mul_annex_g64(x: C64, y: C64) -> C64 {
        x * y
    }
    pub fn div_annex_g64(x: C64, y: C64) -> C64 {
        x / y
    }
}

macro_rules! arith_complex {
    ($($c:ty, $f:ty, $sys:path, $packet:literal, $mul_g:path, $div_g:path);*) => {$(
        impl Arith for $c {
            const EIGEN_PACKET: usize = $packet;
            fn mul_annex_g(a: $c, b: $c) -> $c {
                $mul_g(a, b)
            }
            fn div_annex_g(a: $c, b: $c) -> $c {
                $div_g(a, b)
            }
            #[inline(always)]
            fn add(a: $c, b: $c) -> $c {
                <$c>::new(a.re + b.re, a.im + b.im)
            }
            #[inline(always)]
            fn sub(a: $c, b: $c) -> $c {
                <$c>::new(a.re - b.re, a.im - b.im)
            }
            #[inline(always)]
            fn mul(a: $c, b: $c) -> $c {
                <$c>::new(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re)
            }
            #[inline(always)]
            fn div(a: $c, b: $c) -> $c {
                let (ar, ai, br, bi) = (a.re, a.im, b.re, b.im);
                let (abr, abi) = (br.abs(), bi.abs());
                if abr >= abi {
                    if abr == 0.0 && abi == 0.0 {
                        <$c>::new(ar / abr, ai / abr)
                    } else {
                        let rat = bi / br;
                        let scl = 1.0 / (br + bi * rat);
                        <$c>::new((ar + ai * rat) * scl, (ai - ar * rat) * scl)
                    }
                } else {
                    let rat = br / bi;
                    let scl = 1.0 / (bi + br * rat);
                    <$c>::new((ar * rat + ai) * scl, (ai * rat - ar) * scl)
                }
            }
            #[inline(always)]
            fn floor_div(a: $c, _b: $c) -> $c {
                a
            }
            #[inline(always)]
            fn rem(a: $c, _b: $c) -> $c {
                a
            }
            fn pow(a: $c, b: $c) -> $c {
                // npy_cpow
                let (ar, ai, br, bi) = (a.re, a.im, b.re, b.im);
                if br == 0.0 && bi == 0.0 {
                    return <$c>::new(1.0, 0.0);
                }
                if ar == 0.0 && ai == 0.0 {
                    return if br > 0.0 { <$c>::new(0.0, 0.0) } else { <$c>::new(<$f>::NAN, <$f>::NAN) };
                }
                let cmul = |x: $c, y: $c| <$c>::new(x.re * y.re - x.im * y.im, x.re * y.im + x.im * y.re);
                if bi == 0.0 {
                    let n = <i64 as crate::kernel::cast::FromFloat>::from_float(br as f64);
                    if n as $f == br {
                        if n == 1 {
                            return a;
                        } else if n == 2 {
                            return cmul(a, a);
                        } else if n == 3 {
                            return cmul(a, cmul(a, a));
                        } else if n > -100 && n < 100 {
                            let n = n.abs();
                            let mut mask = 1i64;
                            let mut aa = <$c>::new(1.0, 0.0);
                            let mut p = a;
                            loop {
                                if n & mask != 0 {
                                    aa = cmul(aa, p);
                                }
                                mask <<= 1;
                                if n < mask || mask <= 0 {
                                    break;
                                }
                                p = cmul(p, p);
                            }
                            return if br < 0.0 { Self::div(<$c>::new(1.0, 0.0), aa) } else { aa };
                        }
                    }
                }
                $sys(a, b)
            }
            #[inline(always)]
            fn maximum(a: $c, b: $c) -> $c {
                let ge = (a.re > b.re && !a.im.is_nan() && !b.im.is_nan()) || (a.re == b.re && a.im >= b.im);
                if a.re.is_nan() || a.im.is_nan() || ge { a } else { b }
            }
            #[inline(always)]
            fn minimum(a: $c, b: $c) -> $c {
                if a.re.is_nan() || a.im.is_nan() || Self::cle(a, b) { a } else { b }
            }
            #[inline(always)]
            fn ceq(a: $c, b: $c) -> bool {
                a.re == b.re && a.im == b.im
            }
            #[inline(always)]
            fn cne(a: $c, b: $c) -> bool {
                a.re != b.re || a.im != b.im
            }
            #[inline(always)]
            fn clt(a: $c, b: $c) -> bool {
                (a.re < b.re && !a.im.is_nan() && !b.im.is_nan()) || (a.re == b.re && a.im < b.im)
            }
            #[inline(always)]
            fn cle(a: $c, b: $c) -> bool {
                (a.re < b.re && !a.im.is_nan() && !b.im.is_nan()) || (a.re == b.re && a.im <= b.im)
            }
            #[inline(always)]
            fn band(a: $c, _b: $c) -> $c {
                a
            }
            #[inline(always)]
            fn bor(a: $c, _b: $c) -> $c {
                a
            }
            #[inline(always)]
            fn bxor(a: $c, _b: $c) -> $c {
                a
            }
            #[inline(always)]
            fn negative(self) -> bool {
                false
            }
            #[inline(always)]
            fn isnan(self) -> bool {
                self.re.is_nan() || self.im.is_nan()
            }
            fn pow_libm(a: $c, b: $c) -> $c {
                $sys(a, b)
            }
            #[inline(always)]
            fn ceq_within_1e15(a: $c, b: $c) -> bool {
                <$f as Arith>::ceq_within_1e15(a.re, b.re) && <$f as Arith>::ceq_within_1e15(a.im, b.im)
            }
            fn div_smith_plain(a: $c, b: $c) -> $c {
                let (ar, ai, br, bi) = (a.re, a.im, b.re, b.im);
                // with the multiply-adds fused, as Paddle's build contracts them
                if br.abs() >= bi.abs() {
                    let rat = bi / br;
                    let scl = 1.0 / bi.mul_add(rat, br);
                    <$c>::new(ai.mul_add(rat, ar) * scl, (-ar).mul_add(rat, ai) * scl)
                } else {
                    let rat = br / bi;
                    let scl = 1.0 / br.mul_add(rat, bi);
                    <$c>::new(ar.mul_add(rat, ai) * scl, ai.mul_add(rat, -ar) * scl)
                }
            }
            fn div_smith_fused(a: $c, b: $c) -> $c {
                if b.re == 0.0 && b.im == 0.0 {
                    // c10: `a / |c|`, `b / |d|`: infinities or NaN
                    return <$c>::new(a.re / b.re.abs(), a.im / b.im.abs());
                }
                Self::div_smith_plain(a, b)
            }
            fn div_scaled(a: $c, b: $c, ftz: bool) -> $c {
                // Eigen's pdiv_complex: scale y by m = max(|c|, |d|), x · conj(y'), / |y'|², / m
                let f = |x: $f| if ftz { x.flush() } else { x };
                let m = b.re.abs().max(b.im.abs());
                let (c, d) = (f(b.re / m), f(b.im / m));
                let denom = f(f(c * c) + f(d * d));
                // x · (c − d·i) as its packet pmul computes it (moveldup/movehdup, addsub)
                let re = f(f(a.re * c) - f(a.im * (-d)));
                let im = f(f(a.re * (-d)) + f(a.im * c));
                <$c>::new(f(f(re / denom) / m), f(f(im / denom) / m))
            }
            #[inline(always)]
            fn flush(self) -> $c {
                <$c>::new(self.re.flush(), self.im.flush())
            }
            #[inline(always)]
            fn zero() -> $c {
                <$c>::new(0.0, 0.0)
            }
            const BITWISE: bool = false;
            const FLOOR: bool = false;
            const INT: bool = false;
        }
    )*};
}

arith_complex!(
    C32, f32, libm_cpow::pow32, 4, libm_cpow::mul_annex_g32, libm_cpow::div_annex_g32;
    C64, f64, libm_cpow::pow64, 2, libm_cpow::mul_annex_g64, libm_cpow::div_annex_g64
);

/// Complex multiply with fused multiply-adds: `(fma(ar, br, −ai·bi), fma(ar, bi, ai·br))`.
pub trait FusedMul: Sized {
    /// The fused product.
    fn mul_fused(a: Self, b: Self) -> Self;
}
impl FusedMul for C32 {
    #[inline(always)]
    fn mul_fused(a: C32, b: C32) -> C32 {
        C32::new(
            a.re.mul_add(b.re, -(a.im * b.im)),
            a.re.mul_add(b.im, a.im * b.re),
        )
    }
}
impl FusedMul for C64 {
    #[inline(always)]
    fn mul_fused(a: C64, b: C64) -> C64 {
        C64::new(
            a.re.mul_add(b.re, -(a.im * b.im)),
            a.re.mul_add(b.im, a.im * b.re),
        )
    }
}

/// C99's Annex G complex product (`_Cmul` in the standard's example, libgcc's `__mulsc3`).
macro_rules! mul_c99 {
    ($f:ty, $a:expr, $b:expr, $c:expr, $d:expr) => {{
        let (mut a, mut b, mut c, mut d): ($f, $f, $f, $f) = ($a, $b, $c, $d);
        let (ac, bd, ad, bc) = (a * c, b * d, a * d, b * c);
        let (x, y) = (ac - bd, ad + bc);
        if !(x.is_nan() && y.is_nan()) {
            return (x, y);
        }
        let unit = |v: $f| (if v.is_infinite() { 1.0 as $f } else { 0.0 }).copysign(v);
        let zero_nan = |v: $f| {
            if v.is_nan() {
                (0.0 as $f).copysign(v)
            } else {
                v
            }
        };
        let mut recalc = false;
        if a.is_infinite() || b.is_infinite() {
            (a, b, c, d) = (unit(a), unit(b), zero_nan(c), zero_nan(d));
            recalc = true;
        }
        if c.is_infinite() || d.is_infinite() {
            (a, b, c, d) = (zero_nan(a), zero_nan(b), unit(c), unit(d));
            recalc = true;
        }
        let big = [ac, bd, ad, bc].iter().any(|v| v.is_infinite());
        if !recalc && big {
            (a, b, c, d) = (zero_nan(a), zero_nan(b), zero_nan(c), zero_nan(d));
            recalc = true;
        }
        if recalc {
            (
                <$f>::INFINITY * (a * c - b * d),
                <$f>::INFINITY * (a * d + b * c),
            )
        } else {
            (x, y)
        }
    }};
}

/// C99's Annex G product of two `f32` complex numbers as (re, im).
fn c99_mul_f32(a: f32, b: f32, c: f32, d: f32) -> (f32, f32) {
    mul_c99!(f32, a, b, c, d)
}

/// C99's Annex G product of two `f64` complex numbers as (re, im).
fn c99_mul_f64(a: f64, b: f64, c: f64, d: f64) -> (f64, f64) {
    mul_c99!(f64, a, b, c, d)
}

/// The complex products: fused (NumPy's loops), XLA's and C99's, per part type.
macro_rules! complex_fused_mul {
    ($($c:ident, $c99:ident);*) => {$(
        impl FusedMulMaybe for $c {
            const HAS_FUSED: bool = true;
            #[inline(always)]
            fn mul_maybe_fused(a: $c, b: $c) -> $c {
                $c::mul_fused(a, b)
            }
            #[inline(always)]
            fn mul_xla(a: $c, b: $c) -> $c {
                $c::new(
                    a.re.mul_add(b.re, -(a.im * b.im)),
                    a.im.mul_add(b.re, a.re * b.im),
                )
            }
            fn mul_c99(a: $c, b: $c) -> $c {
                let (re, im) = $c99(a.re, a.im, b.re, b.im);
                $c::new(re, im)
            }
        }
    )*};
}
complex_fused_mul!(C32, c99_mul_f32; C64, c99_mul_f64);
