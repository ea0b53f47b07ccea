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

pub use m1::map1;
pub use m2::map2;
pub use m2s::map2_scalar;
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
