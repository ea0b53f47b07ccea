//! The SIMD paths of the kernels and the one place that picks among them at run time.
//!
//! The crate is built for baseline x86-64 (SSE2 only). The elementwise loops (plain Rust that
//! LLVM vectorizes, in `super::simd`) are compiled three times, and the streaming copy that
//! writes large outputs twice more:
//!
//! | [`Path`] | target features | vector width |
//! | --- | --- | --- |
//! | `Baseline` | x86-64 (SSE2) | 128 bits |
//! | `Avx2` | AVX2, FMA, F16C, BMI1/2, LZCNT, POPCNT | 256 bits |
//! | `Avx512` | the above and AVX-512 F, BW, DQ, VL | 512 bits |
//!
//! The widest path the CPU has is used, unless `PROMOTE_SIMD` (`baseline`, `avx2`,
//! `avx512`) asks for a narrower one (`PROMOTE_NO_SIMD`, set to anything, means
//! `baseline`), or a program calls [`set_path`] (the tests run every path this way). Every
//! path gives the same bits: the loop bodies are the same Rust, with no fast-math, and FMA is
//! only used where the semantics ask for a fused multiply-add.
//!
//! Target-specific code lives in a module per architecture (`x86` here), as in the `half`
//! crate; other architectures run the baseline loops.
//!
//! ```
//! use promote::kernel::arch::{current, set_path, supported, Path};
//! assert!(supported().contains(&Path::Baseline));
//! let best = current();
//! set_path(Path::Baseline).unwrap();
//! assert_eq!(current(), Path::Baseline);
//! set_path(best).unwrap();
//! ```

use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

use crate::kernel::narrow::fast::FastF32;

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86;

/// A set of instructions the kernels may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Path {
    /// Baseline x86-64 (SSE2), or whatever the target guarantees elsewhere.
    Baseline,
    /// AVX2 + FMA + F16C (x86-64-v3).
    Avx2,
    /// AVX-512 F/BW/DQ/VL on top of AVX2 (x86-64-v4).
    Avx512,
}

impl Path {
    /// Every path, narrowest first.
    pub const ALL: [Path; 3] = [Path::Baseline, Path::Avx2, Path::Avx512];

    /// `baseline`, `avx2`, `avx512` (the spellings of `PROMOTE_SIMD`).
    pub fn name(self) -> &'static str {
        match self {
            Path::Baseline => "baseline",
            Path::Avx2 => "avx2",
            Path::Avx512 => "avx512",
        }
    }

    /// Whether this CPU can run the path.
    pub fn is_supported(self) -> bool {
        match self {
            Path::Baseline => true,
            #[cfg(target_arch = "x86_64")]
            Path::Avx2 => x86::has_avx2(),
            #[cfg(target_arch = "x86_64")]
            Path::Avx512 => x86::has_avx512(),
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    fn from_name(s: &str) -> Option<Path> {
        Path::ALL.into_iter().find(|p| p.name() == s.trim())
    }
}

/// The paths this CPU can run, narrowest first.
pub fn supported() -> Vec<Path> {
    Path::ALL.into_iter().filter(|p| p.is_supported()).collect()
}

/// The widest path this CPU can run.
pub fn detected() -> Path {
    supported().into_iter().max().unwrap_or(Path::Baseline)
}

/// 0: not chosen yet; otherwise the index in [`Path::ALL`] plus one.
static CHOSEN: AtomicU8 = AtomicU8::new(0);

/// The path the kernels use now.
#[inline]
pub fn current() -> Path {
    match CHOSEN.load(Relaxed) {
        0 => choose(),
        i => Path::ALL[i as usize - 1],
    }
}

#[cold]
fn choose() -> Path {
    let best = detected();
    let asked = if std::env::var_os("PROMOTE_NO_SIMD").is_some() {
        Some(Path::Baseline)
    } else {
        std::env::var("PROMOTE_SIMD")
            .ok()
            .and_then(|s| Path::from_name(&s))
    };
    let p = asked.map_or(best, |a| a.min(best));
    store(p);
    p
}

fn store(p: Path) {
    CHOSEN.store(p as u8 + 1, Relaxed);
}

/// Asked for a path this CPU cannot run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("this CPU cannot run the {} kernels; it supports {}", .0.name(), supported_names())]
pub struct Unsupported(pub Path);

fn supported_names() -> String {
    let names: Vec<&str> = supported().into_iter().map(Path::name).collect();
    names.join(", ")
}

/// Held by the unit tests that switch the process-wide path ([`set_path`]), so that two of them
/// running at once do not switch it under each other (a loop checked on one path and run on
/// another).
#[cfg(test)]
pub(crate) fn path_lock() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// Use `p` for every kernel from now on, in the whole process (tests, experiments). Results
/// do not depend on the path, only speed does.
pub fn set_path(p: Path) -> Result<(), Unsupported> {
    if !p.is_supported() {
        return Err(Unsupported(p));
    }
    store(p);
    Ok(())
}

/// Compile a loop once per [`Path`] and dispatch on [`current`]. The body is generic Rust
/// inlined into a copy per target-feature set.
macro_rules! dispatch {
    ($(#[$m:meta])* $name:ident, <$($g:ident),*>, ($($arg:ident : $ty:ty),*), where { $($w:tt)* }, $body:block) => {
        #[inline(always)]
        fn body<$($g),*>($($arg: $ty),*) where $($w)* $body

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2,fma,f16c,bmi1,bmi2,lzcnt,popcnt")]
        unsafe fn on_avx2<$($g),*>($($arg: $ty),*) where $($w)* {
            body($($arg),*)
        }

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma,f16c,bmi1,bmi2,lzcnt,popcnt")]
        unsafe fn on_avx512<$($g),*>($($arg: $ty),*) where $($w)* {
            body($($arg),*)
        }

        $(#[$m])*
        #[inline]
        pub fn $name<$($g),*>($($arg: $ty),*) where $($w)* {
            use $crate::kernel::arch::{current, Path};
            match current() {
                #[cfg(target_arch = "x86_64")]
                // SAFETY: `current` only returns a path the CPU supports.
                Path::Avx512 => unsafe { on_avx512($($arg),*) },
                #[cfg(target_arch = "x86_64")]
                // SAFETY: as above.
                Path::Avx2 => unsafe { on_avx2($($arg),*) },
                _ => body($($arg),*),
            }
        }
    };
}
pub(crate) use dispatch;

/// Copy `src` into `dst` with non-temporal (streaming) stores, as wide as the current path
/// allows: the written lines bypass the caches and need no read-for-ownership, which for
/// outputs far larger than the caches saves a third of the memory traffic. Call
/// [`store_fence`] before another thread reads `dst`.
///
/// # Panics
///
/// If the lengths differ (as [`slice::copy_from_slice`] does).
pub fn stream_copy<T: Copy>(dst: &mut [T], src: &[T]) {
    stream_copy_ahead(dst, src, [&[], &[]])
}

/// [`stream_copy`], prefetching the bytes of `ahead` (the next chunk's inputs) a few lines
/// at a time between the stores: the reads of the next chunk then overlap with the writes of
/// this one, as they do in a plain copy, instead of waiting for them.
///
/// ```
/// use promote::kernel::arch::{stream_copy_ahead, store_fence};
/// let (src, next) = (vec![7u16; 5000], vec![1u8; 9000]);
/// let mut dst = vec![0u16; 5000];
/// stream_copy_ahead(&mut dst, &src, [&next, &[]]);
/// store_fence();
/// assert_eq!(dst, src);
/// ```
///
/// # Panics
///
/// If the lengths of `dst` and `src` differ.
pub fn stream_copy_ahead<T: Copy>(dst: &mut [T], src: &[T], ahead: [&[u8]; 2]) {
    assert_eq!(dst.len(), src.len(), "stream_copy: lengths differ");
    #[cfg(target_arch = "x86_64")]
    {
        let n = std::mem::size_of_val(dst);
        let d = dst.as_mut_ptr() as *mut u8;
        let s = src.as_ptr() as *const u8;
        let mut pf = x86::Prefetcher::new(ahead);
        // SAFETY: both ranges are valid for `n` bytes and do not overlap (a shared and a
        // mutable borrow); the path is one the CPU supports.
        unsafe { x86::stream_bytes(current(), d, s, n, &mut pf) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = ahead;
        dst.copy_from_slice(src);
    }
}

/// `out[i]` = `exp` of the float16 bits `x[i]`, computed in SIMD registers as SVML's float32
/// `exp` ([`svml::exp::expf`](crate::kernel::libm::svml::exp::expf)) and rounded once to float16;
/// lanes whose rounding is in doubt take `table[x[i]]` (see `x86::exp_f16`). For a table of a
/// correctly rounded-ish `exp`; [`exp_f16_svml`] is the cheaper loop for a table of SVML's own.
/// `false` when the current path has no such loop (only AVX-512 has): then nothing is written.
/// The values are not guaranteed to be the table's: the caller compares on every pattern first
/// (`ops::lookup`). With `stream`, the results are written with streaming stores (call
/// [`store_fence`] before another thread reads them).
///
/// # Panics
///
/// If `out` and `x` differ in length or `table` has fewer than 65,536 entries.
pub fn exp_f16(x: &[u16], table: &[u16], out: &mut [u16], stream: bool) -> bool {
    exp_f16_with::<true>(x, table, out, stream)
}

/// [`exp_f16`] without the lanes in doubt: SVML's float32 `exp` rounded to float16, bit for
/// bit the table built from [`svml::exp::expf`](crate::kernel::libm::svml::exp::expf) (NumPy's float16
/// `exp` on AVX-512), only `±0`, the arguments of SVML's scalar path, infinities and NaN taken
/// from `table`.
///
/// ```
/// use promote::kernel::arch::exp_f16_svml;
/// use promote::kernel::libm::svml::exp::expf;
/// let table: Vec<u16> = (0..=u16::MAX)
///     .map(|b| half::f16::from_f32(expf(half::f16::from_bits(b).to_f32())).to_bits())
///     .collect();
/// let x: Vec<u16> = (0..=u16::MAX).collect();
/// let mut out = vec![0u16; x.len()];
/// if exp_f16_svml(&x, &table, &mut out, false) {
///     assert!(out == table);
/// }
/// ```
///
/// # Panics
///
/// As [`exp_f16`].
pub fn exp_f16_svml(x: &[u16], table: &[u16], out: &mut [u16], stream: bool) -> bool {
    exp_f16_with::<false>(x, table, out, stream)
}

fn exp_f16_with<const NEAR: bool>(x: &[u16], table: &[u16], out: &mut [u16], stream: bool) -> bool {
    assert!(
        out.len() == x.len() && table.len() > usize::from(u16::MAX),
        "exp_f16: a result per element and a table entry per pattern"
    );
    match current() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the path is supported, so the CPU has AVX-512 F/BW/VL and F16C; the lengths
        // were checked above.
        Path::Avx512 => unsafe {
            x86::exp_f16::<NEAR>(x, table, out, stream);
            true
        },
        _ => false,
    }
}

/// A table of 256 four-byte entries (one per byte code) held as byte planes: plane `b` holds
/// byte `b` (little-endian) of every entry. The form [`lookup_bytes_x4`] reads.
///
/// ```
/// use promote::kernel::arch::byte_planes;
/// let p = byte_planes(&std::array::from_fn(|c| 0x0403_0201u32.wrapping_mul(c as u32)));
/// assert_eq!((p[0][2], p[1][2], p[3][2]), (2, 4, 8));
/// ```
pub fn byte_planes(table: &[u32; 256]) -> [[u8; 256]; 4] {
    std::array::from_fn(|b| std::array::from_fn(|c| table[c].to_le_bytes()[b]))
}

/// `out[i]` = entry `codes[i]` of the table `planes` ([`byte_planes`]), looked up in SIMD
/// registers (`vpermi2b`, 64 codes at a time). `false` when the CPU or the current path has no
/// such loop (it needs AVX-512 VBMI): then nothing is written. With `stream`, the results are
/// written with streaming stores (call [`store_fence`] before another thread reads them).
///
/// ```
/// use promote::kernel::arch::{byte_planes, lookup_bytes_x4};
/// let table: [u32; 256] = std::array::from_fn(|c| (c as u32).pow(3) ^ 0xdead_0000);
/// let codes: Vec<u8> = (0..300u32).map(|i| (i * 37 % 256) as u8).collect();
/// let mut out = vec![0u32; codes.len()];
/// if lookup_bytes_x4(&byte_planes(&table), &codes, &mut out, false) {
///     assert!(codes.iter().zip(&out).all(|(&c, &v)| v == table[c as usize]));
/// }
/// ```
///
/// # Panics
///
/// If `out` and `codes` differ in length.
pub fn lookup_bytes_x4(
    planes: &[[u8; 256]; 4],
    codes: &[u8],
    out: &mut [u32],
    stream: bool,
) -> bool {
    assert_eq!(codes.len(), out.len(), "lookup_bytes_x4: a result per code");
    match current() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the CPU has AVX-512 F/BW (the path) and VBMI (checked); the lengths were
        // checked above.
        Path::Avx512 if x86::has_avx512_vbmi() => unsafe {
            x86::lookup_bytes_x4(planes, codes, out, stream);
            true
        },
        _ => false,
    }
}

/// `out[i]` = the code of `x[i]` under `k` ([`FastF32::encode`]), 64 values at a time in
/// SIMD registers, stored a whole line at a time. `false` when the current path has no such
/// loop (only AVX-512 has): then nothing is written. With `stream`, the codes are written with
/// streaming stores (call [`store_fence`] before another thread reads them); with `prefetch`,
/// the input is prefetched a little ahead of the loads.
///
/// ```
/// use promote::kernel::arch::encode_narrow_f32;
/// use promote::kernel::narrow::{fast::FastF32, format::lookup, rules::CastRules};
/// let f = lookup("float8_e4m3fn").unwrap();
/// let k = FastF32::new(f, &CastRules::ml_dtypes(f)).unwrap();
/// let x: Vec<f32> = (0..200).map(|i| (i as f32 - 100.0) * 5.1).collect();
/// let mut out = vec![0u8; x.len()];
/// if encode_narrow_f32(&k, &x, &mut out, false, false) {
///     assert!(x.iter().zip(&out).all(|(&v, &c)| c == k.encode(v)));
/// }
/// ```
///
/// # Panics
///
/// If `out` and `x` differ in length.
pub fn encode_narrow_f32(
    k: &FastF32,
    x: &[f32],
    out: &mut [u8],
    stream: bool,
    prefetch: bool,
) -> bool {
    assert_eq!(x.len(), out.len(), "encode_narrow_f32: a code per value");
    match current() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the path is supported, so the CPU has AVX-512 F/BW/DQ; the lengths were
        // checked above.
        Path::Avx512 => unsafe {
            x86::encode_f32(k, x, out, stream, prefetch);
            true
        },
        _ => false,
    }
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
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_baseline_is_always_there() {
        let _path = path_lock();
        for p in Path::ALL {
            assert_eq!(Path::from_name(p.name()), Some(p));
        }
        assert_eq!(Path::from_name("sse9"), None);
        assert!(Path::Baseline.is_supported());
        assert!(detected().is_supported());
        for p in Path::ALL {
            assert_eq!(set_path(p).is_ok(), p.is_supported());
        }
        let e = Unsupported(Path::Avx512).to_string();
        assert!(e.contains("avx512") && e.contains("baseline"), "{e}");
        set_path(detected()).unwrap();
    }

    #[test]
    fn stream_copy_any_alignment_on_every_path() {
        let src: Vec<u8> = (0..2000u32).map(|i| (i * 7) as u8).collect();
        for p in supported() {
            for off in 0..65 {
                for len in [
                    0usize,
                    1,
                    15,
                    16,
                    17,
                    63,
                    64,
                    65,
                    200,
                    255,
                    256,
                    257,
                    1900 - off,
                ] {
                    let mut dst = vec![0u8; 2000];
                    #[cfg(target_arch = "x86_64")]
                    // SAFETY: in bounds, disjoint, supported path.
                    unsafe {
                        x86::stream_bytes(
                            p,
                            dst.as_mut_ptr().add(off),
                            src.as_ptr(),
                            len,
                            &mut x86::Prefetcher::new([&src[..len / 2], &src[len / 2..]]),
                        )
                    };
                    #[cfg(not(target_arch = "x86_64"))]
                    let _ = p;
                    #[cfg(not(target_arch = "x86_64"))]
                    stream_copy(&mut dst[off..off + len], &src[..len]);
                    store_fence();
                    assert_eq!(&dst[off..off + len], &src[..len], "{p:?} {off} {len}");
                    assert!(dst[..off].iter().all(|&x| x == 0));
                    assert!(dst[off + len..].iter().all(|&x| x == 0));
                }
            }
        }
    }

    #[test]
    #[should_panic(expected = "lengths differ")]
    fn stream_copy_of_unequal_lengths_panics() {
        stream_copy(&mut [0u8; 3], &[1u8; 2]);
    }
}
