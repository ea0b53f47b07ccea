//! Elementwise loops compiled twice: for the baseline target and for AVX2+FMA+F16C, chosen
//! at run time. The loop bodies are plain Rust that LLVM vectorizes; the second copy lets it
//! use 256-bit registers on the machines that have them (the crate is built for baseline
//! x86-64, which only guarantees SSE2).

#[cfg(target_arch = "x86_64")]
use std::sync::OnceLock;

/// Whether the AVX2 copies may run.
#[inline]
pub fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        static AVX2: OnceLock<bool> = OnceLock::new();
        *AVX2.get_or_init(|| {
            std::env::var_os("PROMOTE_NO_SIMD").is_none()
                && is_x86_feature_detected!("avx2")
                && is_x86_feature_detected!("fma")
                && is_x86_feature_detected!("f16c")
        })
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

macro_rules! dispatch {
    ($(#[$m:meta])* $name:ident, $avx:ident, <$($g:ident),*>, ($($arg:ident : $ty:ty),*), where { $($w:tt)* }, $body:block) => {
        #[inline(always)]
        fn body<$($g),*>($($arg: $ty),*) where $($w)* $body

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2,fma,f16c,bmi1,bmi2,lzcnt,popcnt")]
        unsafe fn $avx<$($g),*>($($arg: $ty),*) where $($w)* {
            body($($arg),*)
        }

        $(#[$m])*
        #[inline]
        pub fn $name<$($g),*>($($arg: $ty),*) where $($w)* {
            #[cfg(target_arch = "x86_64")]
            if has_avx2() {
                // SAFETY: the CPU has the features the function is compiled for.
                return unsafe { $avx($($arg),*) };
            }
            body($($arg),*)
        }
    };
}

pub mod m1 {
    //! One input.
    use super::has_avx2;
    dispatch!(
        /// `dst[i] = f(src[i])`.
        map1, map1_avx2, <S, D, F>, (src: &[S], dst: &mut [D], f: F),
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
    use super::has_avx2;
    dispatch!(
        /// `out[i] = f(a[i], b[i])`.
        map2, map2_avx2, <A, B, R, F>, (a: &[A], b: &[B], out: &mut [R], f: F),
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
    use super::has_avx2;
    dispatch!(
        /// `out[i] = f(a[i], b)`.
        map2_scalar, map2s_avx2, <A, B, R, F>, (a: &[A], b: B, out: &mut [R], f: F),
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
    use super::has_avx2;
    dispatch!(
        /// `out[i] = f(a, b[i])`.
        scalar_map2, sm2_avx2, <A, B, R, F>, (a: A, b: &[B], out: &mut [R], f: F),
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

/// Copy `src` into `dst` with non-temporal (streaming) stores where the destination is
/// 16-byte aligned: the written lines bypass the caches and need no read-for-ownership, which
/// for outputs far larger than the caches saves a third of the memory traffic. Call
/// [`store_fence`] before another thread reads `dst`.
pub fn stream_copy<T: Copy>(dst: &mut [T], src: &[T]) {
    assert_eq!(dst.len(), src.len(), "stream_copy: lengths differ");
    #[cfg(target_arch = "x86_64")]
    // SAFETY: both ranges are valid for `n` bytes and do not overlap (distinct borrows);
    // `_mm_stream_si128` gets 16-byte aligned addresses; SSE2 is part of x86-64.
    unsafe {
        use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_stream_si128};
        let n = std::mem::size_of_val(dst);
        let d = dst.as_mut_ptr() as *mut u8;
        let s = src.as_ptr() as *const u8;
        let head = ((16 - (d as usize & 15)) & 15).min(n);
        std::ptr::copy_nonoverlapping(s, d, head);
        let mut i = head;
        while i + 64 <= n {
            for k in 0..4 {
                let v = _mm_loadu_si128(s.add(i + 16 * k) as *const __m128i);
                _mm_stream_si128(d.add(i + 16 * k) as *mut __m128i, v);
            }
            i += 64;
        }
        while i + 16 <= n {
            let v = _mm_loadu_si128(s.add(i) as *const __m128i);
            _mm_stream_si128(d.add(i) as *mut __m128i, v);
            i += 16;
        }
        std::ptr::copy_nonoverlapping(s.add(i), d.add(i), n - i);
    }
    #[cfg(not(target_arch = "x86_64"))]
    dst.copy_from_slice(src);
}

/// Order the streaming stores of this thread before anything that follows.
pub fn store_fence() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE is part of x86-64.
    unsafe {
        std::arch::x86_64::_mm_sfence()
    }
}

#[cfg(test)]
mod stream_tests {
    #[test]
    fn stream_copy_any_alignment() {
        let src: Vec<u8> = (0..1000u32).map(|i| i as u8).collect();
        for off in 0..17 {
            for len in [0usize, 1, 15, 16, 17, 63, 64, 65, 200, 983 - off] {
                let mut dst = vec![0u8; 1000];
                super::stream_copy(&mut dst[off..off + len], &src[..len]);
                super::store_fence();
                assert_eq!(&dst[off..off + len], &src[..len]);
                assert!(dst[..off].iter().all(|&x| x == 0));
            }
        }
    }
}
