//! How a working type sums ([`Sum`]): NumPy's pairwise sum for floats and complex, in order
//! for the rest.

use crate::kernel::array::{C32, C64};

use super::*;

/// How a working type sums: floats and complex pairwise as NumPy does, the rest in order.
pub trait Sum: Arith {
    /// NumPy's pairwise sum of a block (`<T>_pairwise_sum`), each element read through `f`
    /// (float16 is summed as f32, converted on the fly, as NumPy's `HALF_pairwise_sum` does).
    fn pairwise<T: Copy + Sync, F: Fn(T) -> Self + Sync>(a: &[T], f: &F) -> Self;
}

macro_rules! sum_linear {
    ($($t:ty),*) => {$(
        impl Sum for $t {
            fn pairwise<T: Copy + Sync, F: Fn(T) -> Self + Sync>(a: &[T], f: &F) -> $t {
                a.iter().fold(<$t as Arith>::zero(), |s, &x| <$t as Arith>::add(s, f(x)))
            }
        }
    )*};
}
sum_linear!(bool, u8, u16, u32, u64, i8, i16, i32, i64);

const PW_BLOCKSIZE: usize = 128;
/// Above this many elements the two halves of a pairwise sum run in parallel (same result).
const PW_PARALLEL: usize = 1 << 16;

macro_rules! sum_float {
    ($($t:ty),*) => {$(
        impl Sum for $t {
            fn pairwise<T: Copy + Sync, F: Fn(T) -> Self + Sync>(a: &[T], f: &F) -> $t {
                let n = a.len();
                if n <= PW_PARALLEL {
                    // the serial recursion, compiled for the SIMD path (`simd::pairwise`)
                    let mut res: $t = -0.0;
                    crate::kernel::simd::pairwise(a, f, -0.0, &mut res);
                    return res;
                }
                // NumPy's split (as in `simd::pairwise`), the halves in parallel
                let mut n2 = n / 2;
                n2 -= n2 % 8;
                let (l, r) = a.split_at(n2);
                let (x, y) = rayon::join(|| Self::pairwise(l, f), || Self::pairwise(r, f));
                x + y
            }
        }
    )*};
}
sum_float!(f32, f64);

macro_rules! sum_complex {
    ($($c:ty, $f:ty);*) => {$(
        impl Sum for $c {
            fn pairwise<T: Copy + Sync, F: Fn(T) -> Self + Sync>(a: &[T], f: &F) -> $c {
                // NumPy counts floats: n = 2·len
                let n = 2 * a.len();
                if n < 8 {
                    let (mut rr, mut ri): ($f, $f) = (-0.0, -0.0);
                    for &x in a {
                        let z = f(x);
                        rr += z.re;
                        ri += z.im;
                    }
                    <$c>::new(rr, ri)
                } else if n <= PW_BLOCKSIZE {
                    let (z0, z1, z2, z3) = (f(a[0]), f(a[1]), f(a[2]), f(a[3]));
                    let mut r = [z0.re, z0.im, z1.re, z1.im, z2.re, z2.im, z3.re, z3.im];
                    let full = (n - n % 8) / 2;
                    let mut i = 4;
                    while i < full {
                        for j in 0..4 {
                            let z = f(a[i + j]);
                            r[2 * j] += z.re;
                            r[2 * j + 1] += z.im;
                        }
                        i += 4;
                    }
                    let mut rr = (r[0] + r[2]) + (r[4] + r[6]);
                    let mut ri = (r[1] + r[3]) + (r[5] + r[7]);
                    for &x in &a[full..] {
                        let z = f(x);
                        rr += z.re;
                        ri += z.im;
                    }
                    <$c>::new(rr, ri)
                } else {
                    let mut n2 = n / 2;
                    n2 -= n2 % 8;
                    let (l, r) = a.split_at(n2 / 2);
                    let (x, y) = if n > PW_PARALLEL {
                        rayon::join(|| Self::pairwise(l, f), || Self::pairwise(r, f))
                    } else {
                        (Self::pairwise(l, f), Self::pairwise(r, f))
                    };
                    <$c>::new(x.re + y.re, x.im + y.im)
                }
            }
        }
    )*};
}
sum_complex!(C32, f32; C64, f64);
