//! A C ABI over `promote`'s kernels for `benches/compare.py`: prepare a plan once, then run it
//! on caller-owned buffers (NumPy arrays, whose memory PyTorch tensors share), on a rayon pool
//! of 1 or 2 threads; and the copies of the bandwidth floor on the same pools.
//!
//! Every function returns 0 on success and a negative number on bad arguments; none panics
//! across the boundary (`catch_unwind`).

use std::ffi::{c_char, c_int, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::OnceLock;

use promote::kernel::array::{Array, Element, View, ViewMut};
use promote::kernel::bench::COPIES;
use promote::kernel::compute::Semantics;
use promote::kernel::eval::literal_array;
use promote::kernel::exec::{execute, execute_into};
use promote::{builtin, with_dtype, Call, DType, Plan, Policy};

/// A prepared call: the plan, the dtype of each operand (`None`: a Python literal, held as a
/// one-element array), and the semantics of the policy.
pub struct Prepared {
    plan: Plan,
    dtypes: Vec<Option<DType>>,
    literals: Vec<Option<Array>>,
    sem: Semantics,
}

/// The pools of 1 and 2 threads. The 1-thread pool is the calling thread itself (the thread
/// that first asks for a pool: Python's main thread), so a 1-thread call runs where NumPy's
/// and PyTorch's 1-thread calls run, without waking another thread (a hand-off that cost
/// ~0.2 ms per call after the benches' 20 ms pauses on this VM); the 2-thread pool has two
/// threads of its own.
fn pool(threads: c_int) -> Option<&'static rayon::ThreadPool> {
    static POOLS: OnceLock<Vec<rayon::ThreadPool>> = OnceLock::new();
    let pools = POOLS.get_or_init(|| {
        (1..=2)
            .map(|t| {
                let b = rayon::ThreadPoolBuilder::new().num_threads(t);
                let b = if t == 1 { b.use_current_thread() } else { b };
                b.build().expect("a rayon pool")
            })
            .collect()
    });
    pools.get(usize::try_from(threads).ok()?.checked_sub(1)?)
}

fn guarded(f: impl FnOnce() -> c_int) -> c_int {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or(-99)
}

/// Resolve `call` (`"add int8 uint8"`) under `policy` (`"numpy"`). Null on error.
///
/// # Safety
///
/// Both arguments are NUL-terminated strings.
#[no_mangle]
pub unsafe extern "C" fn promote_prepare(
    policy: *const c_char,
    call: *const c_char,
) -> *mut Prepared {
    let made = catch_unwind(|| -> Option<Prepared> {
        let policy = unsafe { CStr::from_ptr(policy) }.to_str().ok()?;
        let call: Call = unsafe { CStr::from_ptr(call) }
            .to_str()
            .ok()?
            .parse()
            .ok()?;
        let p = builtin(policy).ok()?;
        let plan = p.resolve(&call).ok()?;
        let dtypes: Vec<Option<DType>> = call.operands.iter().map(|o| o.dtype()).collect();
        let literals = call
            .operands
            .iter()
            .zip(&plan.inputs)
            .map(|(o, &d)| o.literal().and_then(|l| literal_array(l, d).ok()))
            .collect();
        Some(Prepared {
            plan,
            dtypes,
            literals,
            sem: p.semantics(),
        })
    });
    match made {
        Ok(Some(p)) => Box::into_raw(Box::new(p)),
        _ => std::ptr::null_mut(),
    }
}

/// Free a prepared call.
///
/// # Safety
///
/// `p` came from [`promote_prepare`] and is not used again.
#[no_mangle]
pub unsafe extern "C" fn promote_free(p: *mut Prepared) {
    if !p.is_null() {
        drop(unsafe { Box::from_raw(p) });
    }
}

/// The result dtype's itemsize (to allocate the output), or a negative number.
///
/// # Safety
///
/// `p` came from [`promote_prepare`].
#[no_mangle]
pub unsafe extern "C" fn promote_result_itemsize(p: *const Prepared) -> c_int {
    match unsafe { p.as_ref() } {
        Some(p) => p.plan.result.itemsize() as c_int,
        None => -1,
    }
}

unsafe fn view<'a>(d: DType, ptr: *const u8, n: usize) -> View<'a> {
    with_dtype!(d, T => T::view(unsafe { std::slice::from_raw_parts(ptr as *const T, n) }))
}

unsafe fn view_mut<'a>(d: DType, ptr: *mut u8, n: usize) -> ViewMut<'a> {
    with_dtype!(d, T => T::view_mut(unsafe { std::slice::from_raw_parts_mut(ptr as *mut T, n) }))
}

/// The operands as views: tensors from the caller's pointers (`n` elements each), literals
/// from the prepared call.
unsafe fn inputs<'a>(p: &'a Prepared, ptrs: [*const u8; 2], n: usize) -> Vec<View<'a>> {
    p.dtypes
        .iter()
        .zip(&p.literals)
        .zip(ptrs)
        .map(|((d, lit), ptr)| match (d, lit) {
            (Some(d), _) => unsafe { view(*d, ptr, n) },
            (None, Some(l)) => l.view(),
            (None, None) => unreachable!("an operand is a tensor or a literal"),
        })
        .collect()
}

/// Run the prepared call on `threads` (1 or 2) threads: operands at `a` and `b` (`n`
/// elements each; a literal's pointer is ignored) into `out` (`n` elements of the result
/// dtype).
///
/// # Safety
///
/// The pointers are valid for `n` elements of the operand and result dtypes.
#[no_mangle]
pub unsafe extern "C" fn promote_run_into(
    p: *const Prepared,
    threads: c_int,
    a: *const u8,
    b: *const u8,
    out: *mut u8,
    n: usize,
) -> c_int {
    let (Some(p), Some(pool)) = (unsafe { p.as_ref() }, pool(threads)) else {
        return -1;
    };
    guarded(|| {
        let ins = unsafe { inputs(p, [a, b], n) };
        let lens: Vec<usize> = ins.iter().map(|v| v.len()).collect();
        let Ok(len) = promote::kernel::exec::result_len(p.plan.op, &lens) else {
            return -2;
        };
        let o = unsafe { view_mut(p.plan.result, out, len) };
        match pool.install(|| execute_into(&p.plan, &ins, o, &p.sem)) {
            Ok(()) => 0,
            Err(_) => -2,
        }
    })
}

/// As [`promote_run_into`], allocating the result (`kernel::execute`) and dropping it.
///
/// # Safety
///
/// As [`promote_run_into`].
#[no_mangle]
pub unsafe extern "C" fn promote_run_alloc(
    p: *const Prepared,
    threads: c_int,
    a: *const u8,
    b: *const u8,
    n: usize,
) -> c_int {
    let (Some(p), Some(pool)) = (unsafe { p.as_ref() }, pool(threads)) else {
        return -1;
    };
    guarded(|| {
        let ins = unsafe { inputs(p, [a, b], n) };
        match pool.install(|| execute(&p.plan, &ins, &p.sem)) {
            Ok(out) => {
                drop(out);
                0
            }
            Err(_) => -2,
        }
    })
}

/// Copy `n` bytes with copy number `kind` of `promote::kernel::bench::COPIES` (0: one
/// `memcpy`, 1: `memcpy` in 64 KB pieces on the pool, 2: streaming copy on the pool).
///
/// # Safety
///
/// `src` and `dst` are valid for `n` bytes and do not overlap.
#[no_mangle]
pub unsafe extern "C" fn promote_copy(
    kind: c_int,
    threads: c_int,
    src: *const u8,
    dst: *mut u8,
    n: usize,
) -> c_int {
    let (Some((_, f)), Some(pool)) = (
        usize::try_from(kind).ok().and_then(|k| COPIES.get(k)),
        pool(threads),
    ) else {
        return -1;
    };
    guarded(|| {
        let (s, d) = unsafe {
            (
                std::slice::from_raw_parts(src, n),
                std::slice::from_raw_parts_mut(dst, n),
            )
        };
        pool.install(|| f(s, d));
        0
    })
}

/// Read `n` bytes on `threads` threads (`promote::kernel::bench::read`): the floor of a
/// reduction.
///
/// # Safety
///
/// `src` is valid for `n` bytes.
#[no_mangle]
pub unsafe extern "C" fn promote_read(threads: c_int, src: *const u8, n: usize) -> c_int {
    let Some(pool) = pool(threads) else {
        return -1;
    };
    guarded(|| {
        let s = unsafe { std::slice::from_raw_parts(src, n) };
        std::hint::black_box(pool.install(|| promote::kernel::bench::read(s)));
        0
    })
}

/// The SIMD path the kernels run (`avx512`, `avx2`, `baseline`), NUL-terminated.
#[no_mangle]
pub extern "C" fn promote_simd_path() -> *const c_char {
    match promote::kernel::arch::current() {
        promote::kernel::arch::Path::Avx512 => c"avx512".as_ptr(),
        promote::kernel::arch::Path::Avx2 => c"avx2".as_ptr(),
        promote::kernel::arch::Path::Baseline => c"baseline".as_ptr(),
    }
}

/// For experiments: force SIMD path `path` (0 baseline, 1 AVX2, 2 AVX-512; negative: keep),
/// set the streaming threshold to `stream_min_bytes` (negative: keep) and the prefetch of the
/// streaming paths (0 off, 1 on; negative: keep). Returns -1 if the CPU lacks the path.
#[no_mangle]
pub extern "C" fn promote_configure(path: c_int, stream_min_bytes: i64, prefetch: c_int) -> c_int {
    use promote::kernel::arch::{set_path, Path};
    use promote::kernel::exec::{set_tuning, tuning, Tuning};
    if let Some(&p) = usize::try_from(path).ok().and_then(|i| Path::ALL.get(i)) {
        if set_path(p).is_err() {
            return -1;
        }
    }
    if let Ok(b) = usize::try_from(stream_min_bytes) {
        set_tuning(Tuning {
            stream_min_bytes: b,
            ..tuning()
        });
    }
    if prefetch >= 0 {
        set_tuning(Tuning {
            prefetch: prefetch > 0,
            ..tuning()
        });
    }
    0
}

/// The codec of narrow dtype `name` (`"float8_e4m3fn"`) with the semantics of library `lib`
/// (0: ml_dtypes, 1: torch), for `benches/compare_narrow.py`. Null on error.
///
/// # Safety
///
/// `name` is a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn promote_narrow_codec(
    name: *const c_char,
    lib: c_int,
) -> *mut promote::kernel::narrow::Codec {
    use promote::kernel::narrow::{rules::Library, Codec};
    let made = catch_unwind(|| -> Option<Codec> {
        let name = unsafe { CStr::from_ptr(name) }.to_str().ok()?;
        let lib = [Library::MlDtypes, Library::Torch].get(usize::try_from(lib).ok()?)?;
        Codec::for_library(name, *lib).ok()
    });
    match made {
        Ok(Some(c)) => Box::into_raw(Box::new(c)),
        _ => std::ptr::null_mut(),
    }
}

/// Free a codec of [`promote_narrow_codec`].
///
/// # Safety
///
/// `c` came from [`promote_narrow_codec`] and is not used again.
#[no_mangle]
pub unsafe extern "C" fn promote_narrow_free(c: *mut promote::kernel::narrow::Codec) {
    if !c.is_null() {
        drop(unsafe { Box::from_raw(c) });
    }
}

/// The pieces the narrow casts are cut into, in elements: 1 Mi (whole 64-byte lines; the
/// codes of a piece, 1 MB, are still a streamed output).
const NARROW_PIECE: usize = 1 << 20;

/// float32 → codes (`decode == 0`) or codes → float32 (`decode != 0`), `n` elements, on
/// `threads` (1 or 2) threads: for 1 the calling thread, for 2 the two threads of the 2-thread
/// pool, which take pieces of [`NARROW_PIECE`] elements in turn until none is left (a thread
/// that wakes late, a few hundred microseconds on this VM after the benches' pauses, takes
/// fewer pieces instead of holding up a fixed half).
///
/// # Safety
///
/// `c` is a live codec; `f32s` holds `n` floats and `codes` `n` bytes, not overlapping.
#[no_mangle]
pub unsafe extern "C" fn promote_narrow_run(
    c: *const promote::kernel::narrow::Codec,
    threads: c_int,
    decode: c_int,
    f32s: *mut f32,
    codes: *mut u8,
    n: usize,
) -> c_int {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
    use std::sync::Mutex;
    let (Some(pool), false) = (pool(threads), c.is_null()) else {
        return -1;
    };
    let codec = unsafe { &*c };
    guarded(|| {
        let (x, k) = unsafe {
            (
                std::slice::from_raw_parts_mut(f32s, n),
                std::slice::from_raw_parts_mut(codes, n),
            )
        };
        let pieces: Vec<_> = x
            .chunks_mut(NARROW_PIECE)
            .zip(k.chunks_mut(NARROW_PIECE))
            .map(|p| Mutex::new(Some(p)))
            .collect();
        let (next, failed) = (AtomicUsize::new(0), AtomicBool::new(false));
        let work = || {
            while let Some(piece) = pieces.get(next.fetch_add(1, Relaxed)) {
                let Some((x, k)) = piece.lock().ok().and_then(|mut p| p.take()) else {
                    continue;
                };
                let ok = if decode != 0 {
                    codec.decode_f32_slice(k, x).is_ok()
                } else {
                    codec.encode_f32_slice(x, k).is_ok()
                };
                if !ok {
                    failed.store(true, Relaxed);
                }
            }
        };
        if threads > 1 {
            // both halves on the pool's two threads, the caller asleep until they end (a scope
            // run on the caller left three runnable threads on the 2 cores: the caller, the
            // worker, and the pool's other thread spinning for work)
            pool.install(|| {
                rayon::scope(|s| {
                    s.spawn(|_| work());
                    work();
                })
            });
        } else {
            work();
        }
        if failed.load(Relaxed) {
            -2
        } else {
            0
        }
    })
}
