//! x86-64: feature detection and the streaming copies, 16, 32 and 64 bytes per store.

use std::arch::x86_64::*;
use std::sync::OnceLock;

use super::Path;

/// AVX2 + FMA + F16C (and the bit-manipulation extensions that come with them).
pub fn has_avx2() -> bool {
    static YES: OnceLock<bool> = OnceLock::new();
    *YES.get_or_init(|| {
        is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("fma")
            && is_x86_feature_detected!("f16c")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2")
            && is_x86_feature_detected!("lzcnt")
            && is_x86_feature_detected!("popcnt")
    })
}

/// AVX-512 F, BW, DQ and VL, on top of [`has_avx2`].
pub fn has_avx512() -> bool {
    static YES: OnceLock<bool> = OnceLock::new();
    *YES.get_or_init(|| {
        has_avx2()
            && is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512bw")
            && is_x86_feature_detected!("avx512dq")
            && is_x86_feature_detected!("avx512vl")
    })
}

/// Byte ranges to prefetch a few lines at a time during a streaming copy.
pub struct Prefetcher<'a> {
    ranges: [&'a [u8]; 2],
    range: usize,
    offset: usize,
    per_step: usize,
}

impl<'a> Prefetcher<'a> {
    /// Nothing issued yet.
    pub fn new(ranges: [&'a [u8]; 2]) -> Self {
        Prefetcher {
            ranges,
            range: 0,
            offset: 0,
            per_step: 0,
        }
    }

    /// Spread what is left over `steps` calls of [`Prefetcher::step`].
    fn spread(&mut self, steps: usize) {
        let total: usize = self.ranges.iter().map(|r| r.len()).sum();
        self.per_step = total.div_ceil(steps.max(1)).next_multiple_of(64);
    }

    /// Prefetch the next `per_step` bytes (a line per 64).
    #[inline(always)]
    fn step(&mut self) {
        let mut left = self.per_step;
        while left > 0 && self.range < 2 {
            let r = self.ranges[self.range];
            if self.offset >= r.len() {
                self.range += 1;
                self.offset = 0;
                continue;
            }
            // SAFETY: SSE is part of x86-64; the address lies in `r`, and a prefetch never
            // faults anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(r.as_ptr().add(self.offset) as *const i8) };
            self.offset += 64;
            left -= 64;
        }
    }

    /// Whatever is left (the copy was too short to spread it over).
    fn finish(&mut self) {
        self.per_step = usize::MAX - 63;
        self.step();
    }
}

/// Copy `n` bytes with streaming stores of the width of `path`, prefetching `pf`'s ranges
/// along the way.
///
/// # Safety
///
/// `s` is valid for reads and `d` for writes of `n` bytes, the ranges do not overlap, and the
/// CPU supports `path`.
pub unsafe fn stream_bytes(path: Path, d: *mut u8, s: *const u8, n: usize, pf: &mut Prefetcher) {
    match path {
        Path::Avx512 => stream_64(d, s, n, pf),
        Path::Avx2 => stream_32(d, s, n, pf),
        Path::Baseline => stream_16(d, s, n, pf),
    }
    pf.finish();
}

/// Plain copies up to the first `align`-byte boundary of `d` (or all of it if shorter);
/// returns how many bytes that was.
#[inline(always)]
unsafe fn head(d: *mut u8, s: *const u8, n: usize, align: usize) -> usize {
    let h = (align - (d as usize & (align - 1))) & (align - 1);
    let h = h.min(n);
    std::ptr::copy_nonoverlapping(s, d, h);
    h
}

/// 16-byte stores (SSE2, part of x86-64).
unsafe fn stream_16(d: *mut u8, s: *const u8, n: usize, pf: &mut Prefetcher) {
    let mut i = head(d, s, n, 16);
    pf.spread(n / 64);
    while i + 64 <= n {
        pf.step();
        for k in 0..4 {
            let v = _mm_loadu_si128(s.add(i + 16 * k) as *const __m128i);
            _mm_stream_si128(d.add(i + 16 * k) as *mut __m128i, v);
        }
        i += 64;
    }
    while i + 16 <= n {
        _mm_stream_si128(
            d.add(i) as *mut __m128i,
            _mm_loadu_si128(s.add(i) as *const __m128i),
        );
        i += 16;
    }
    std::ptr::copy_nonoverlapping(s.add(i), d.add(i), n - i);
}

/// 32-byte stores.
#[target_feature(enable = "avx2")]
unsafe fn stream_32(d: *mut u8, s: *const u8, n: usize, pf: &mut Prefetcher) {
    let mut i = head(d, s, n, 32);
    pf.spread(n / 128);
    while i + 128 <= n {
        pf.step();
        for k in 0..4 {
            let v = _mm256_loadu_si256(s.add(i + 32 * k) as *const __m256i);
            _mm256_stream_si256(d.add(i + 32 * k) as *mut __m256i, v);
        }
        i += 128;
    }
    while i + 32 <= n {
        _mm256_stream_si256(
            d.add(i) as *mut __m256i,
            _mm256_loadu_si256(s.add(i) as *const __m256i),
        );
        i += 32;
    }
    std::ptr::copy_nonoverlapping(s.add(i), d.add(i), n - i);
}

/// 64-byte stores: one whole cache line per store.
///
/// AVX-512 target features and intrinsics are stable since Rust 1.89: the crate's
/// `rust-version` must be at least that (Cargo.toml still says 1.85; see the lead's note).
#[clippy::msrv = "1.89"]
#[target_feature(enable = "avx512f")]
unsafe fn stream_64(d: *mut u8, s: *const u8, n: usize, pf: &mut Prefetcher) {
    let mut i = head(d, s, n, 64);
    pf.spread(n / 256);
    while i + 256 <= n {
        pf.step();
        for k in 0..4 {
            let v = _mm512_loadu_si512(s.add(i + 64 * k) as *const __m512i);
            _mm512_stream_si512(d.add(i + 64 * k) as *mut __m512i, v);
        }
        i += 256;
    }
    while i + 64 <= n {
        _mm512_stream_si512(
            d.add(i) as *mut __m512i,
            _mm512_loadu_si512(s.add(i) as *const __m512i),
        );
        i += 64;
    }
    std::ptr::copy_nonoverlapping(s.add(i), d.add(i), n - i);
}
