//! Elementwise loops compiled once per SIMD [`Path`](super::arch::Path) (baseline x86-64,
//! AVX2, AVX-512) and chosen at run time by [`super::arch`]. The loop bodies are plain Rust
//! that LLVM vectorizes; each copy lets it use the registers of its path.

pub mod m1 {
    //! One input.
    use crate::kernel::arch::dispatch;
    dispatch!(
        /// `dst[i] = f(src[i])`.
        map1, <S, D, F>, (src: &[S], dst: &mut [D], f: F),
        where { S: Copy, F: Fn(S) -> D },
        {
            for (d, &s) in dst.iter_mut().zip(src) {
                *d = f(s);
            }
        }
    );
}

pub mod m2 {
    //! Two inputs, both slices.
    use crate::kernel::arch::dispatch;
    dispatch!(
        /// `out[i] = f(a[i], b[i])`.
        map2, <A, B, R, F>, (a: &[A], b: &[B], out: &mut [R], f: F),
        where { A: Copy, B: Copy, F: Fn(A, B) -> R },
        {
            let n = out.len();
            let (a, b) = (&a[..n], &b[..n]);
            for i in 0..n {
                out[i] = f(a[i], b[i]);
            }
        }
    );
}

pub mod m2s {
    //! Two inputs, the second a scalar.
    use crate::kernel::arch::dispatch;
    dispatch!(
        /// `out[i] = f(a[i], b)`.
        map2_scalar, <A, B, R, F>, (a: &[A], b: B, out: &mut [R], f: F),
        where { A: Copy, B: Copy, F: Fn(A, B) -> R },
        {
            for (o, &x) in out.iter_mut().zip(a) {
                *o = f(x, b);
            }
        }
    );
}

pub mod sm2 {
    //! Two inputs, the first a scalar.
    use crate::kernel::arch::dispatch;
    dispatch!(
        /// `out[i] = f(a, b[i])`.
        scalar_map2, <A, B, R, F>, (a: A, b: &[B], out: &mut [R], f: F),
        where { A: Copy, B: Copy, F: Fn(A, B) -> R },
        {
            for (o, &y) in out.iter_mut().zip(b) {
                *o = f(a, y);
            }
        }
    );
}

pub mod pw {
    //! NumPy's pairwise sum of a block, compiled per path.
    use crate::kernel::arch::dispatch;
    dispatch!(
        /// `*out` = NumPy's pairwise sum (`<T>_pairwise_sum`) of `a`, each element read through
        /// `f`, starting from `neg_zero` (`-0.0`) below eight elements. NumPy's recursion (split
        /// at half, rounded down to a multiple of 8; blocks of at most 128 summed in eight
        /// interleaved lanes) is unrolled onto an explicit stack, so that the whole block, leaves
        /// and tree, is compiled for the path's vector registers.
        pairwise, <S, W, F>, (a: &[S], f: F, neg_zero: W, out: &mut W),
        where { S: Copy, W: Copy + std::ops::Add<Output = W>, F: Fn(S) -> W },
        {
            // a frame: the right part (start, len) of a split, and its left part's sum once known
            let mut stack = [(0usize, 0usize, neg_zero, false); usize::BITS as usize];
            let mut depth = 0;
            let (mut s, mut n) = (0usize, a.len());
            loop {
                while n > super::PW_BLOCKSIZE {
                    let half = n / 2;
                    let n2 = half - half % 8;
                    stack[depth] = (s + n2, n - n2, neg_zero, false);
                    depth += 1;
                    n = n2;
                }
                let mut v = leaf(&a[s..s + n], &f, neg_zero);
                loop {
                    if depth == 0 {
                        *out = v;
                        return;
                    }
                    let top = &mut stack[depth - 1];
                    if top.3 {
                        v = top.2 + v;
                        depth -= 1;
                    } else {
                        *top = (top.0, top.1, v, true);
                        (s, n) = (top.0, top.1);
                        break;
                    }
                }
            }
        }
    );

    /// A block of at most 128: in order below 8, else eight interleaved lanes.
    #[inline(always)]
    fn leaf<S: Copy, W: Copy + std::ops::Add<Output = W>>(
        a: &[S],
        f: &impl Fn(S) -> W,
        neg_zero: W,
    ) -> W {
        let n = a.len();
        if n < 8 {
            return a.iter().fold(neg_zero, |r, &x| r + f(x));
        }
        let mut r: [W; 8] = std::array::from_fn(|j| f(a[j]));
        let full = n - n % 8;
        // eight lanes, one vector register: chunks_exact keeps the loop free of bounds checks
        // so it vectorises (the order of additions is NumPy's)
        for c in a[8..full].chunks_exact(8) {
            for j in 0..8 {
                r[j] = r[j] + f(c[j]);
            }
        }
        // A barrier between the lanes and NumPy's sum of them (`black_box` is the identity):
        // without it LLVM's SLP vectoriser shapes the loop's registers for that sum (lanes
        // 0,2,4,6 apart from 1,3,5,7) and pays six shuffles per chunk for it; with it the loop
        // is one vector addition per chunk, about 2.4x as fast in cache (same additions, same
        // bits). Measured on a 1e5-element float32 block, AVX-512 path: 0.20 -> 0.08 ns/element.
        let r = std::hint::black_box(r);
        let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for &x in &a[full..] {
            res = res + f(x);
        }
        res
    }
}

pub mod isum {
    //! Integer sums, compiled per path.
    use crate::kernel::arch::dispatch;
    dispatch!(
        /// `*out` = the sum of `a` in `i64`, wrapping (exact while it fits).
        sum_i64, <S>, (a: &[S], out: &mut i64),
        where { S: Copy + Into<i64> },
        {
            *out = a.iter().fold(0i64, |s, &v| s.wrapping_add(v.into()));
        }
    );
}

/// NumPy's `PW_BLOCKSIZE`: blocks of at most this many elements are summed without splitting.
pub(crate) const PW_BLOCKSIZE: usize = 128;

pub use isum::sum_i64;
pub use m1::map1;
pub use m2::map2;
pub use m2s::map2_scalar;
pub use pw::pairwise;
pub use sm2::scalar_map2;

#[cfg(test)]
mod tests {
    #[test]
    fn maps() {
        let mut out = [0i32; 5];
        super::map2(
            &[1, 2, 3, 4, 5],
            &[10, 20, 30, 40, 50],
            &mut out,
            |a: i32, b: i32| a + b,
        );
        assert_eq!(out, [11, 22, 33, 44, 55]);
        super::map2_scalar(&[1, 2, 3, 4, 5], 2, &mut out, |a: i32, b: i32| a * b);
        assert_eq!(out, [2, 4, 6, 8, 10]);
        super::scalar_map2(100, &[1, 2, 3, 4, 5], &mut out, |a: i32, b: i32| a - b);
        assert_eq!(out, [99, 98, 97, 96, 95]);
        let mut f = [0f64; 3];
        super::map1(&[1u8, 2, 255], &mut f, |x: u8| x as f64);
        assert_eq!(f, [1.0, 2.0, 255.0]);
    }

    /// NumPy's `pairwise_sum`, recursively, as in loops_utils.h.src.
    fn numpy_pairwise(a: &[f64]) -> f64 {
        let n = a.len();
        if n < 8 {
            return a.iter().fold(-0.0, |r, &x| r + x);
        }
        if n <= super::PW_BLOCKSIZE {
            let mut r: [f64; 8] = std::array::from_fn(|j| a[j]);
            let full = n - n % 8;
            for i in (8..full).step_by(8) {
                for j in 0..8 {
                    r[j] += a[i + j];
                }
            }
            let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
            for &x in &a[full..] {
                res += x;
            }
            return res;
        }
        let n2 = n / 2 - (n / 2) % 8;
        numpy_pairwise(&a[..n2]) + numpy_pairwise(&a[n2..])
    }

    #[test]
    fn pairwise_is_numpys_recursion_on_every_path_and_length() {
        let _path = crate::kernel::arch::path_lock();
        // values whose sums lose bits, so that any other order shows
        let mut seed = 7u64;
        let x: Vec<i32> = (0..20000)
            .map(|_| {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (seed >> 33) as i32 - (1 << 30)
            })
            .collect();
        let scaled = |v: i32| v as f64 * (1.0 + (v & 1023) as f64 * 1e-7);
        for path in crate::kernel::arch::supported() {
            crate::kernel::arch::set_path(path).unwrap();
            for n in [
                0, 7, 8, 127, 128, 129, 256, 384, 512, 1024, 1000, 4096, 8192, 8200, 16384, 20000,
            ] {
                let want = numpy_pairwise(&x[..n].iter().map(|&v| scaled(v)).collect::<Vec<_>>());
                let mut got = 0.0;
                super::pairwise(&x[..n], scaled, -0.0, &mut got);
                assert_eq!(got.to_bits(), want.to_bits(), "{path:?} n={n}");
            }
        }
        crate::kernel::arch::set_path(crate::kernel::arch::detected()).unwrap();
    }
}

pub(crate) use super::arch::store_fence;

#[cfg(test)]
mod stream_tests {
    #[test]
    fn stream_copy_any_alignment() {
        let src: Vec<u8> = (0..1000u32).map(|i| i as u8).collect();
        for off in 0..17 {
            for len in [0usize, 1, 15, 16, 17, 63, 64, 65, 200, 983 - off] {
                let mut dst = vec![0u8; 1000];
                crate::kernel::arch::stream_copy(&mut dst[off..off + len], &src[..len]);
                super::store_fence();
                assert_eq!(&dst[off..off + len], &src[..len]);
                assert!(dst[..off].iter().all(|&x| x == 0));
            }
        }
    }
}
