//! SLEEF's `sin` and `cos`: float32 `xsinf`/`xcosf` (the 3.5-ulp `Sleef_sinf8_u35`,
//! `Sleef_cosf8_u35`, `Sleef_sinf1_u35`) and float64 `xsin_u1`/`xcos_u1` (`Sleef_sind4_u10`,
//! `Sleef_cosd4_u10`), written after `src/libm/sleefsimdsp.c` and `src/libm/sleefsimddp.c` of
//! SLEEF 3.6 to 3.9 (their FMA builds, without `DETERMINISTIC`), checked bit for bit against
//! the functions Paddle 3.3.1's `libphi_core.so` exports.
//!
//! The argument reduction is chosen per vector, not per element: a packet all of whose
//! `|x|` are below a first bound takes a short Cody–Waite reduction, below a second bound a
//! longer one, and otherwise (any lane large, infinite or NaN) every lane goes through the
//! Payne–Hanek reduction `rempif`/`rempi`. An element's value thus depends on the other
//! elements of its packet; the scalar build (`purecfma`) is one lane alone.

// SLEEF's constants as its sources write them (digits past the float's precision included)
#![allow(clippy::excessive_precision, clippy::approx_constant)]

use super::df::{self, Pair};
use super::rempitab;
use std::f64::consts::FRAC_1_PI;

/// Which function of [`packets_f32`] and [`packets_f64`].
///
/// ```
/// use promote::kernel::libm::sleef::{packets_f32, Trig};
/// let mut out = [0.0f32; 2];
/// packets_f32(Trig::Cos, &[0.0, 1.0], 8, &mut out);
/// assert_eq!(out[0], 1.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trig {
    /// `sin`.
    Sin,
    /// `cos`.
    Cos,
}

/// The reduction a packet takes (ordered: a packet takes its lanes' largest).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Reduction {
    /// Cody–Waite with three (float64: two) parts of π.
    Short,
    /// Cody–Waite with four parts of π.
    Long,
    /// Payne–Hanek (`rempif`, `rempi`).
    Full,
}

/// The reduction `|d|` needs on its own: `TRIGRANGEMAX2f` 125, `TRIGRANGEMAXf` 39000
/// (`src/common/misc.h`); NaN compares false and takes the full one.
fn reduction_f32(d: f32) -> Reduction {
    let a = d.abs();
    if a < 125.0 {
        Reduction::Short
    } else if a < 39000.0 {
        Reduction::Long
    } else {
        Reduction::Full
    }
}

/// `TRIGRANGEMAX2` 15, `TRIGRANGEMAX` 1e14.
fn reduction_f64(d: f64) -> Reduction {
    let a = d.abs();
    if a < 15.0 {
        Reduction::Short
    } else if a < 1e14 {
        Reduction::Long
    } else {
        Reduction::Full
    }
}

/// SLEEF's `sin` or `cos` of each float32 of `x` into `out`: whole packets of `width` lanes
/// as the vector build computes them (`Sleef_sinf8_u35` with `width` 8), the remaining
/// elements each alone (`Sleef_sinf1_u35`).
///
/// ```
/// use promote::kernel::libm::sleef::{packets_f32, Trig};
/// // 1.0 alone takes the short reduction; beside 1e5 the full one, one ulp apart
/// let (mut alone, mut packed) = ([0.0f32; 1], [0.0f32; 2]);
/// packets_f32(Trig::Sin, &[0.84], 8, &mut alone);
/// packets_f32(Trig::Sin, &[0.84, 1e5], 2, &mut packed);
/// assert!((alone[0] - packed[0]).abs() <= f32::EPSILON);
/// ```
pub fn packets_f32(op: Trig, x: &[f32], width: usize, out: &mut [f32]) {
    let f = match op {
        Trig::Sin => sinf_u35,
        Trig::Cos => cosf_u35,
    };
    let whole = x.len() - x.len() % width.max(1);
    for (xs, os) in x[..whole].chunks(width).zip(out.chunks_mut(width)) {
        let r = xs.iter().map(|&v| reduction_f32(v)).max();
        for (o, &v) in os.iter_mut().zip(xs) {
            *o = f(v, r.unwrap_or(Reduction::Short));
        }
    }
    for (o, &v) in out[whole..].iter_mut().zip(&x[whole..]) {
        *o = f(v, reduction_f32(v));
    }
}

/// SLEEF's `sin` or `cos` of each float64 of `x` into `out`: whole packets of `width` lanes
/// as the vector build computes them (`Sleef_sind4_u10` with `width` 4), the remaining
/// elements each alone (`Sleef_sind1_u10`).
///
/// ```
/// use promote::kernel::libm::sleef::{packets_f64, Trig};
/// let mut out = [0.0f64; 3];
/// packets_f64(Trig::Sin, &[0.0, -0.0, 1.0], 4, &mut out);
/// assert_eq!((out[0].to_bits(), out[1].to_bits()), (0.0f64.to_bits(), (-0.0f64).to_bits()));
/// assert!((out[2] - 1.0f64.sin()).abs() <= f64::EPSILON);
/// ```
pub fn packets_f64(op: Trig, x: &[f64], width: usize, out: &mut [f64]) {
    let f = match op {
        Trig::Sin => sin_u10,
        Trig::Cos => cos_u10,
    };
    let whole = x.len() - x.len() % width.max(1);
    for (xs, os) in x[..whole].chunks(width).zip(out.chunks_mut(width)) {
        let r = xs.iter().map(|&v| reduction_f64(v)).max();
        for (o, &v) in os.iter_mut().zip(xs) {
            *o = f(v, r.unwrap_or(Reduction::Short));
        }
    }
    for (o, &v) in out[whole..].iter_mut().zip(&x[whole..]) {
        *o = f(v, reduction_f64(v));
    }
}

/// `vrint_vi2_vf` (`cvtps2dq`): to the nearest integer, ties to even.
fn rint_i32(x: f32) -> i32 {
    x.round_ties_even() as i32
}

/// `vtruncate_vi2_vf`/`vtruncate_vi_vd` (`cvttps2dq`, `cvttpd2dq`): toward zero, the integer
/// indefinite `i32::MIN` where it does not fit (NaN).
fn trunc_i32(x: f64) -> i32 {
    if x.abs() < 2147483648.0 {
        x as i32
    } else {
        i32::MIN
    }
}

/// `x` with its sign flipped where `y` is negative (`vmulsign`: a sign-bit XOR).
fn mul_sign<F: num_traits::Float>(x: F, y: F) -> F {
    if y.is_sign_negative() {
        -x
    } else {
        x
    }
}

/// A NaN with every bit set (`vor_vm_vo32_vm` of an all-ones mask).
const NAN32: f32 = f32::from_bits(u32::MAX);
const NAN64: f64 = f64::from_bits(u64::MAX);

/// `rempisubf` (`FULL_FP_ROUNDING`): `x` less its nearest quarter, and that quarter count
/// less four times `x`'s nearest integer.
fn rempisubf(x: f32) -> (f32, i32) {
    let y = (x * 4.0).round_ties_even();
    let vi = trunc_i32(f64::from(y - x.round_ties_even() * 4.0));
    (x - y * 0.25, vi)
}

/// `rempif`: `d` reduced by multiples of π/2 as a double-float, and the multiple.
fn rempif(a: f32) -> (Pair<f32>, i32) {
    let mut ex = ((a.to_bits() >> 23) & 0xff) as i32 - 0x7f - 25;
    let q = if ex > 90 - 25 { -64 } else { 0 };
    let a = f32::from_bits((a.to_bits() as i32).wrapping_add(q << 23) as u32);
    ex = ex.max(0);
    let row =
        |k: usize| f32::from_bits(rempitab::SP[(ex as usize * 4 + k).min(rempitab::SP.len() - 1)]);
    let mut x = df::mul(a, row(0));
    let (h, mut q) = rempisubf(x.0);
    x = df::normalize((h, x.1));
    x = df::add2_pp(x, df::mul(a, row(1)));
    let (h, q2) = rempisubf(x.0);
    q += q2;
    x = df::normalize((h, x.1));
    x = df::add2_pp(x, df::mul_pf((row(2), row(3)), a));
    x = df::normalize(x);
    x = df::mul_pp(
        x,
        (
            3.1415927410125732422 * 2.0,
            -8.7422776573475857731e-08 * 2.0,
        ),
    );
    if a.abs() < 0.7 {
        x = (a, 0.0);
    }
    (x, q)
}

/// The Cody–Waite reduction of `d` by `u` times π (float32: `PI_A2f`.. or `PI_Af`..; `half`
/// scales the parts by 0.5 for `cos`).
fn cody_waite_f32(d: f32, u: f32, r: Reduction, half: f32) -> f32 {
    if r == Reduction::Short {
        let d = u.mul_add(-3.1414794921875 * half, d);
        let d = u.mul_add(-0.00011315941810607910156 * half, d);
        u.mul_add(-1.9841872589410058936e-09 * half, d)
    } else {
        let d = u.mul_add(-3.140625 * half, d);
        let d = u.mul_add(-0.0009670257568359375 * half, d);
        let d = u.mul_add(-6.2771141529083251953e-07 * half, d);
        u.mul_add(-1.2154201256553420762e-10 * half, d)
    }
}

/// `xsinf`'s and `xcosf`'s polynomial of the reduced `d`: `d + d·s·P(s)`, `s = d²`.
fn poly_f32(d: f32) -> f32 {
    let s = d * d;
    let u = 2.6083159809786593541503e-06f32;
    let u = u.mul_add(s, -0.0001981069071916863322258);
    let u = u.mul_add(s, 0.00833307858556509017944336);
    let u = u.mul_add(s, -0.166666597127914428710938);
    s * (u * d) + d
}

/// `xsinf` (u35) of `d` under the reduction `r` of its packet.
fn sinf_u35(d: f32, r: Reduction) -> f32 {
    let (q, x) = if r < Reduction::Full {
        let q = rint_i32(d * FRAC_1_PI as f32);
        (q, cody_waite_f32(d, q as f32, r, 1.0))
    } else {
        let (df, qi) = rempif(d);
        let q = ((qi & 3) * 2 + if df.0 > 0.0 { 2 } else { 1 }) >> 2;
        let adj = (
            mul_sign(3.1415927410125732422f32 * -0.5, df.0),
            mul_sign(-8.7422776573475857731e-08f32 * -0.5, df.0),
        );
        let df = if qi & 1 == 1 {
            df::add2_pp(df, adj)
        } else {
            df
        };
        let x = df.0 + df.1;
        (q, if d.is_finite() { x } else { NAN32 })
    };
    let x = if q & 1 == 1 { -x } else { x };
    let u = poly_f32(x);
    if d == 0.0 && d.is_sign_negative() {
        d
    } else {
        u
    }
}

/// `xcosf` (u35) of `d` under the reduction `r` of its packet.
fn cosf_u35(d: f32, r: Reduction) -> f32 {
    let (q, x) = if r < Reduction::Full {
        let q = rint_i32(d * FRAC_1_PI as f32 - 0.5);
        let q = q + q + 1;
        (q, cody_waite_f32(d, q as f32, r, 0.5))
    } else {
        let (df, qi) = rempif(d);
        let q = ((qi & 3) * 2 + if df.0 > 0.0 { 8 } else { 7 }) >> 1;
        let y: f32 = if df.0 > 0.0 { 0.0 } else { -1.0 };
        let adj = (
            mul_sign(3.1415927410125732422f32 * -0.5, y),
            mul_sign(-8.7422776573475857731e-08f32 * -0.5, y),
        );
        let df = if qi & 1 == 0 {
            df::add2_pp(df, adj)
        } else {
            df
        };
        let x = df.0 + df.1;
        (q, if d.is_finite() { x } else { NAN32 })
    };
    poly_f32(if q & 2 == 0 { -x } else { x })
}

/// `rempisub` (`FULL_FP_ROUNDING`), float64.
fn rempisub(x: f64) -> (f64, i32) {
    let y = (x * 4.0).round_ties_even();
    let vi = trunc_i32(y - x.round_ties_even() * 4.0);
    (x - y * 0.25, vi)
}

/// `rempi`: `d` reduced by multiples of π/2 as a double-double, and the multiple.
fn rempi(a: f64) -> (Pair<f64>, i32) {
    let mut ex = ((a.to_bits() >> 52) & 0x7ff) as i32 - 0x3ff - 55;
    let q: i64 = if ex > 700 - 55 { -64 } else { 0 };
    let a = f64::from_bits((a.to_bits() as i64).wrapping_add(q << 52) as u64);
    ex = ex.max(0);
    let row =
        |k: usize| f64::from_bits(rempitab::DP[(ex as usize * 4 + k).min(rempitab::DP.len() - 1)]);
    let mut x = df::mul(a, row(0));
    let (h, mut q) = rempisub(x.0);
    x = df::normalize((h, x.1));
    x = df::add2_pp(x, df::mul(a, row(1)));
    let (h, q2) = rempisub(x.0);
    q += q2;
    x = df::normalize((h, x.1));
    x = df::add2_pp(x, df::mul_pf((row(2), row(3)), a));
    x = df::normalize(x);
    x = df::mul_pp(
        x,
        (3.141592653589793116 * 2.0, 1.2246467991473532072e-16 * 2.0),
    );
    if a.abs() < 0.7 {
        x = (a, 0.0);
    }
    (x, q)
}

/// `PI_A`.. `PI_D` and `PI_A2`, `PI_B2` (`src/common/misc.h`).
const PI_A: f64 = 3.1415926218032836914;
const PI_B: f64 = 3.1786509424591713469e-08;
const PI_C: f64 = 1.2246467864107188502e-16;
const PI_D: f64 = 1.2736634327021899816e-24;
const PI_A2: f64 = 3.141592653589793116;
const PI_B2: f64 = 1.2246467991473532072e-16;

/// The long Cody–Waite reduction of `d` by `dqh + dql` times `π·half` (`xsin_u1`, `xcos_u1`),
/// starting from `u = d − dqh·PI_A·half` and the first sum `start`.
fn cody_waite_long(
    u: f64,
    dqh: f64,
    dql: f64,
    half: f64,
    start: fn(f64, f64) -> Pair<f64>,
) -> Pair<f64> {
    let s = start(u, dql * (-PI_A * half));
    let s = df::add2_pf(s, dqh * (-PI_B * half));
    let s = df::add2_pf(s, dql * (-PI_B * half));
    let s = df::add2_pf(s, dqh * (-PI_C * half));
    let s = df::add2_pf(s, dql * (-PI_C * half));
    df::add_pf(s, (dqh + dql) * (-PI_D * half))
}

/// The Payne–Hanek reduction's double-double with its half-π adjustment (`adjust` where the
/// quadrant's parity asks for it: `sin` odd, `cos` even), NaN for a non-finite `d`.
fn full_f64(d: f64, dd: Pair<f64>, sign_of: f64, adjust: bool) -> Pair<f64> {
    let adj = (
        mul_sign(-3.141592653589793116 * 0.5, sign_of),
        mul_sign(-1.2246467991473532072e-16 * 0.5, sign_of),
    );
    let s = df::normalize(if adjust { df::add2_pp(dd, adj) } else { dd });
    (if d.is_finite() { s.0 } else { NAN64 }, s.1)
}

/// `xsin_u1`'s and `xcos_u1`'s polynomial of the reduced double-double `t`.
fn poly_f64(t: Pair<f64>) -> f64 {
    let s = df::squ(t);
    let (x, s2) = (s.0, s.0 * s.0);
    let s4 = s2 * s2;
    let p2 = x.mul_add(2.72052416138529567917983e-15, -7.6429259411395447190023e-13);
    let p4 = s2.mul_add(
        x.mul_add(1.60589370117277896211623e-10, -2.5052106814843123359368e-08),
        x.mul_add(
            2.75573192104428224777379e-06,
            -0.000198412698412046454654947,
        ),
    );
    let u = s4.mul_add(p2, p4).mul_add(x, 0.00833333333333318056201922);
    let inner = df::add(-0.166666666666666657414808, u * x);
    df::mul_pp_hi(t, df::add_fp(1.0, df::mul_pp(inner, s)))
}

/// `xsin_u1` of `d` under the reduction `r` of its packet.
fn sin_u10(d: f64, r: Reduction) -> f64 {
    let (ql, s) = match r {
        Reduction::Short => {
            let dql = (d * FRAC_1_PI).round_ties_even();
            let u = dql.mul_add(-PI_A2, d);
            (dql as i32, df::add(u, dql * -PI_B2))
        }
        Reduction::Long => {
            let dqh = (d * (FRAC_1_PI / 16777216.0)).trunc() * 16777216.0;
            let dql = d.mul_add(FRAC_1_PI, -dqh).round_ties_even();
            let u = dqh.mul_add(-PI_A, d);
            (dql as i32, cody_waite_long(u, dqh, dql, 1.0, df::add))
        }
        Reduction::Full => {
            let (dd, q) = rempi(d);
            let ql = ((q & 3) * 2 + if dd.0 > 0.0 { 2 } else { 1 }) >> 2;
            (ql, full_f64(d, dd, dd.0, q & 1 == 1))
        }
    };
    let u = poly_f64(s);
    let u = if ql & 1 == 1 { -u } else { u };
    if d == 0.0 {
        d
    } else {
        u
    }
}

/// `xcos_u1` of `d` under the reduction `r` of its packet.
fn cos_u10(d: f64, r: Reduction) -> f64 {
    let (ql, s) = match r {
        Reduction::Short => {
            let dql = d.mul_add(FRAC_1_PI, -0.5).round_ties_even();
            let dql = 2.0f64.mul_add(dql, 1.0);
            let s = df::add2(d, dql * (-PI_A2 * 0.5));
            (
                dql.round_ties_even() as i32,
                df::add_pf(s, dql * (-PI_B2 * 0.5)),
            )
        }
        Reduction::Long => {
            let dqh = d
                .mul_add(FRAC_1_PI / 8388608.0, -FRAC_1_PI / 16777216.0)
                .trunc();
            let ql = (d * FRAC_1_PI + dqh.mul_add(-8388608.0, -0.5)).round_ties_even() as i32;
            let dqh = dqh * 16777216.0;
            let ql = ql + ql + 1;
            let dql = f64::from(ql);
            let u = dqh.mul_add(-PI_A * 0.5, d);
            (ql, cody_waite_long(u, dqh, dql, 0.5, df::add2))
        }
        Reduction::Full => {
            let (dd, q) = rempi(d);
            let ql = ((q & 3) * 2 + if dd.0 > 0.0 { 8 } else { 7 }) >> 1;
            let y = if dd.0 > 0.0 { 0.0 } else { -1.0 };
            (ql, full_f64(d, dd, y, q & 1 == 0))
        }
    };
    let u = poly_f64(s);
    if ql & 2 == 0 {
        -u
    } else {
        u
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A packet of 8 floats whose seventh lane (about 5.1e20) sends every lane through
    /// `rempif` (probed: `Sleef_sinf8_u35` and `Sleef_sinf1_u35` of `libphi_core.so`).
    const PACKET: [u32; 8] = [
        0xc08c3ccf, 0xc314efee, 0x42d41160, 0xba48f996, 0x466348b7, 0xb977fced, 0x61dd33e4,
        0x416208f6,
    ];

    #[test]
    fn float32_lanes_follow_their_packet() {
        let x = PACKET.map(f32::from_bits);
        for (op, packed, alone) in [
            (Trig::Sin, 0x3f756ce5u32, 0x3f756ce6u32),
            (Trig::Cos, 0xbe91a28e, 0xbe91a28d),
        ] {
            let mut out = [0.0f32; 8];
            packets_f32(op, &x, 8, &mut out);
            assert_eq!(out[1].to_bits(), packed, "{op:?} in its packet");
            packets_f32(op, &x, 16, &mut out);
            assert_eq!(out[1].to_bits(), alone, "{op:?} alone");
        }
    }

    #[test]
    fn float64_values_probed() {
        let x = [
            0x3f30ebaea6075175u64,
            0xbf42def674c5e5ec,
            0xbeb51f70153370a4,
            0x6d6db265f62de906,
        ]
        .map(f64::from_bits);
        let mut out = [0.0f64; 4];
        packets_f64(Trig::Cos, &x, 4, &mut out);
        assert_eq!(out[1].to_bits(), 0x3fefffffa6f8c9f7);
        packets_f64(Trig::Cos, &x, 8, &mut out);
        assert_eq!(out[1].to_bits(), 0x3fefffffa6f8c9f6);
        // Payne–Hanek: Sleef_sind1_u10, Sleef_cosd1_u10 of -1.7e116
        let big = [f64::from_bits(0xd7fc0f947be19bcc)];
        let mut one = [0.0f64];
        packets_f64(Trig::Sin, &big, 4, &mut one);
        assert_eq!(one[0].to_bits(), 0xbfe531f40bc1b012);
        packets_f64(Trig::Cos, &big, 4, &mut one);
        assert_eq!(one[0].to_bits(), 0x3fe7f96ae785d1bb);
    }

    #[test]
    fn special_values() {
        let x = [0.0f32, -0.0, f32::INFINITY, f32::NAN, 1e-45];
        let mut out = [0.0f32; 5];
        packets_f32(Trig::Sin, &x, 8, &mut out);
        assert_eq!(out[1].to_bits(), (-0.0f32).to_bits());
        assert!(out[2].is_nan() && out[3].is_nan());
        assert_eq!(out[4], 1e-45);
        packets_f32(Trig::Cos, &x, 8, &mut out);
        assert_eq!((out[0], out[1]), (1.0, 1.0));
    }
}
