//! The element semantics' unit tests.

use super::*;
use crate::kernel::array::{C32, C64};
use crate::op::Op;

#[test]
fn int_floor_semantics() {
    for a in -20i32..20 {
        for b in -7i32..7 {
            if b == 0 {
                assert_eq!(<i32 as Arith>::floor_div(a, b), 0);
                assert_eq!(<i32 as Arith>::rem(a, b), 0);
                continue;
            }
            let q = (a as f64 / b as f64).floor() as i32;
            assert_eq!(<i32 as Arith>::floor_div(a, b), q, "{a} // {b}");
            assert_eq!(<i32 as Arith>::rem(a, b), a - q * b, "{a} % {b}");
            assert_eq!(
                <i32 as Arith>::floor_div(a, b) * b + <i32 as Arith>::rem(a, b),
                a
            );
        }
    }
    assert_eq!(<i64 as Arith>::floor_div(i64::MIN, -1), i64::MIN);
    assert_eq!(<i64 as Arith>::rem(i64::MIN, -1), 0);
    assert_eq!(<u8 as Arith>::floor_div(200, 0), 0);
    assert_eq!(<u8 as Arith>::rem(200, 7), 4);
}

#[test]
fn int_wrap_and_power() {
    assert_eq!(<i8 as Arith>::add(127, 1), -128);
    assert_eq!(<u8 as Arith>::sub(0, 1), 255);
    assert_eq!(<i16 as Arith>::mul(300, 300), (90000i32 as i16));
    assert_eq!(<i8 as Arith>::pow(3, 5), (243i32 as i8));
    assert_eq!(<i64 as Arith>::pow(0, 0), 1);
    assert_eq!(<i64 as Arith>::pow(2, 63), i64::MIN);
    assert_eq!(<i64 as Arith>::pow(2, 64), 0);
    // 2^64 - 1 = 2^32·(2^32 - 1) + (2^32 - 1)
    let t = 3u64
        .wrapping_pow(1 << 31)
        .wrapping_mul(3u64.wrapping_pow(1 << 31));
    assert_eq!(
        <u64 as Arith>::pow(3, u64::MAX),
        t.wrapping_pow(u32::MAX)
            .wrapping_mul(3u64.wrapping_pow(u32::MAX))
    );
    assert_eq!(<i32 as Arith>::pow(-1, i32::MAX), -1);
}

#[test]
fn float_divmod_like_python() {
    let cases: &[(f64, f64)] = &[
        (7.0, 2.0),
        (-7.0, 2.0),
        (7.0, -2.0),
        (-7.0, -2.0),
        (1.0, 0.1),
        (-0.0, 1.0),
        (0.0, -1.0),
        (5.0, f64::INFINITY),
        (-5.0, f64::INFINITY),
        (1e308, 1e-308),
    ];
    for &(a, b) in cases {
        let (q, r) = (<f64 as Arith>::floor_div(a, b), <f64 as Arith>::rem(a, b));
        // Python: divmod(a, b)
        let pr = a % b;
        let pr = if pr != 0.0 && ((b < 0.0) != (pr < 0.0)) {
            pr + b
        } else if pr == 0.0 {
            0f64.copysign(b)
        } else {
            pr
        };
        assert_eq!(r.to_bits(), pr.to_bits(), "{a} % {b}");
        assert!(
            q * b + r == a || !q.is_finite() || !b.is_finite() || a.abs() > 1e300,
            "{a} // {b}"
        );
    }
    assert_eq!(<f64 as Arith>::floor_div(1.0, 0.1), 9.0);
    assert_eq!(<f64 as Arith>::rem(-5.0, f64::INFINITY), f64::INFINITY);
    assert!(<f64 as Arith>::rem(1.0, 0.0).is_nan());
    assert_eq!(<f64 as Arith>::floor_div(1.0, 0.0), f64::INFINITY);
    assert_eq!(
        <f64 as Arith>::floor_div(-0.0, 1.0).to_bits(),
        (-0.0f64).to_bits()
    );
}

#[test]
fn complex_ops() {
    let z = C64::new(1.0, 2.0);
    assert_eq!(<C64 as Arith>::mul(z, z), C64::new(-3.0, 4.0));
    assert_eq!(<C64 as Arith>::div(C64::new(-3.0, 4.0), z), z);
    let inf = <C64 as Arith>::div(C64::new(1.0, 1.0), C64::new(0.0, 0.0));
    assert!(inf.re.is_infinite() && inf.im.is_infinite());
    assert_eq!(
        <C64 as Arith>::pow(z, C64::new(2.0, 0.0)),
        C64::new(-3.0, 4.0)
    );
    assert_eq!(
        <C64 as Arith>::pow(z, C64::new(0.0, 0.0)),
        C64::new(1.0, 0.0)
    );
    let r = <C64 as Arith>::pow(z, C64::new(-1.0, 0.0));
    assert!((r.re - 0.2).abs() < 1e-15 && (r.im + 0.4).abs() < 1e-15);
    let r = <C64 as Arith>::pow(C64::new(-1.0, 0.0), C64::new(0.5, 0.0));
    assert!(r.re.abs() < 1e-15 && (r.im - 1.0).abs() < 1e-15, "{r}");
    assert!(<C64 as Arith>::clt(C64::new(1.0, 5.0), C64::new(2.0, 0.0)));
    assert!(<C64 as Arith>::clt(C64::new(1.0, 0.0), C64::new(1.0, 1.0)));
    assert!(!<C64 as Arith>::clt(
        C64::new(1.0, f64::NAN),
        C64::new(2.0, 0.0)
    ));
    let m = <C64 as Arith>::maximum(C64::new(1.0, 0.0), C64::new(f64::NAN, 0.0));
    assert!(m.re.is_nan());
}

#[test]
fn pairwise_sums_match_numpy_blocking() {
    // exact small integers: any order gives the same, so check the split logic covers all
    for n in [
        0usize, 1, 7, 8, 9, 15, 16, 127, 128, 129, 255, 256, 1000, 100_000,
    ] {
        let v: Vec<f64> = (0..n).map(|i| (i % 17) as f64).collect();
        let want: f64 = v.iter().sum();
        assert_eq!(<f64 as Sum>::pairwise(&v, &|x| x), want, "n={n}");
        let c: Vec<C32> = (0..n)
            .map(|i| C32::new((i % 5) as f32, -((i % 3) as f32)))
            .collect();
        let s = <C32 as Sum>::pairwise(&c, &|z| z);
        assert_eq!(s.re, c.iter().map(|z| z.re).sum::<f32>(), "n={n}");
        assert_eq!(s.im, c.iter().map(|z| z.im).sum::<f32>(), "n={n}");
    }
}

#[test]
fn kernels_over_chunks() {
    let mut out = [0i8; 3];
    binary(
        Op::Add,
        Src::Slice(&[127i8, 1, -128]),
        Src::Scalar(1),
        Dst::Same(&mut out),
        &Semantics::NUMPY,
        None,
    )
    .unwrap();
    assert_eq!(out, [-128, 2, -127]);
    let mut b = [false; 3];
    binary(
        Op::Greater,
        Src::Slice(&[1i8, 2, 3]),
        Src::Scalar(2),
        Dst::Bool(&mut b),
        &Semantics::NUMPY,
        None,
    )
    .unwrap();
    assert_eq!(b, [false, false, true]);
    let e = binary(
        Op::Power,
        Src::Slice(&[1i8, 2]),
        Src::Slice(&[1i8, -1]),
        Dst::Same(&mut [0; 2]),
        &Semantics::NUMPY,
        None,
    );
    assert_eq!(e, Err(KernelError::NegativePower));
    let e = binary(
        Op::BitwiseAnd,
        Src::Slice(&[1.0f32]),
        Src::Scalar(1.0),
        Dst::Same(&mut [0.0]),
        &Semantics::NUMPY,
        None,
    );
    assert!(matches!(e, Err(KernelError::Unsupported { .. })));
}
