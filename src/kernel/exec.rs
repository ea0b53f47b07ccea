//! Executing a [`Plan`] on arrays: chunked, cast-on-the-fly, parallel.
//!
//! For an elementwise op the output is cut into blocks (one rayon task each, for large
//! inputs), and each block into chunks of a few thousand elements (16–32 KB of the working
//! type, so that the chunk buffers stay in L1/L2). Per chunk:
//!
//! 1. each operand that is not already in the compute dtype is cast into a chunk buffer
//!    (an operand already in it is read in place; a length-1 operand is cast once, up front,
//!    and broadcast);
//! 2. one homogeneous kernel runs ([`super::compute::binary`]);
//! 3. the result is written straight into the output when it has the result dtype, or
//!    through a chunk buffer and one more cast when it does not (`out=`, float16).
//!
//! No buffer is ever the size of the input: peak memory is the inputs, the output and a few
//! chunk buffers per thread.
//!
//! ```
//! use promote::kernel::{array::Array, exec::execute, compute::Semantics};
//! use promote::{builtin, Call, Policy};
//! let plan = builtin("torch").unwrap().resolve(&"add int8 uint8".parse::<Call>().unwrap()).unwrap();
//! let a = Array::from(vec![127i8, -128]);
//! let b = Array::from(vec![1u8, 255]);
//! let out = execute(&plan, &[a.view(), b.view()], &Semantics::NUMPY).unwrap();
//! assert_eq!(out, Array::from(vec![128i16, 127]));
//! ```

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};

use rayon::prelude::*;

use super::array::{Array, Element, View, ViewMut, C32, C64};
use super::cast::{bf16_to_f32, cast_slice, cast_view, f32_to_bf16, same, same_mut, Num};
use super::compute::{
    binary, binary_cast, fusable, writes_bool, Arith, Dst, FusedMulMaybe, Half, KernelError,
    Semantics, Src, Sum,
};
use super::dispatch::Length;
use crate::dtype::DType;
use crate::op::Op;
use crate::plan::Plan;
use crate::with_dtype;
use half::{bf16, f16, slice::HalfFloatSliceExt};

/// Bytes of working type per chunk buffer.
pub const CHUNK_BYTES: usize = 8 * 1024;
/// Below this many elements everything runs on the calling thread.
pub const PARALLEL_MIN: usize = 1 << 16;

/// A compute dtype and the type its kernels run in (itself, or `f32` for the half types).
#[doc(hidden)] // the working type of the typed loops: internal, named by the hidden `ops` rooms
pub trait Work: Num {
    /// The working type.
    type W: Arith + FusedMulMaybe + Sum;
    /// To the working type (exact).
    fn widen(self) -> Self::W;
    /// From the working type, rounded once.
    fn narrow(w: Self::W) -> Self;
    /// A slice to the working type.
    fn widen_slice(src: &[Self], dst: &mut [Self::W]);
    /// A slice from the working type.
    fn narrow_slice(src: &[Self::W], dst: &mut [Self]);
}

macro_rules! work_self {
    ($($t:ty),*) => {$(
        impl Work for $t {
            type W = $t;
            #[inline(always)]
            fn widen(self) -> $t { self }
            #[inline(always)]
            fn narrow(w: $t) -> $t { w }
            fn widen_slice(src: &[$t], dst: &mut [$t]) { dst.copy_from_slice(src) }
            fn narrow_slice(src: &[$t], dst: &mut [$t]) { dst.copy_from_slice(src) }
        }
    )*};
}
work_self!(bool, u8, u16, u32, u64, i8, i16, i32, i64, f32, f64, C32, C64);

impl Work for f16 {
    type W = f32;
    #[inline(always)]
    fn widen(self) -> f32 {
        super::cast::f16_to_f32(self)
    }
    #[inline(always)]
    fn narrow(w: f32) -> f16 {
        f16::from_f32(w)
    }
    fn widen_slice(src: &[f16], dst: &mut [f32]) {
        src.convert_to_f32_slice(dst)
    }
    fn narrow_slice(src: &[f32], dst: &mut [f16]) {
        dst.convert_from_f32_slice(src)
    }
}

impl Work for bf16 {
    type W = f32;
    #[inline(always)]
    fn widen(self) -> f32 {
        bf16_to_f32(self)
    }
    #[inline(always)]
    fn narrow(w: f32) -> bf16 {
        f32_to_bf16(w)
    }
    fn widen_slice(src: &[bf16], dst: &mut [f32]) {
        super::simd::map1(src, dst, bf16_to_f32)
    }
    fn narrow_slice(src: &[f32], dst: &mut [bf16]) {
        super::simd::map1(src, dst, f32_to_bf16)
    }
}

fn shape(msg: impl Into<String>) -> KernelError {
    KernelError::Shape(msg.into())
}

/// The length two operands broadcast to (equal, or one of them 1).
pub(crate) fn broadcast_len(lens: &[usize]) -> Result<usize, KernelError> {
    let mut n = 1;
    for &l in lens {
        if l != 1 {
            if n != 1 && n != l {
                return Err(shape(format!(
                    "operand lengths {lens:?} do not broadcast (each must be 1 or the same length)"
                )));
            }
            n = l;
        }
    }
    Ok(n)
}

/// The length of the result of a plan over operands of these lengths.
///
/// ```
/// use promote::{kernel::exec::result_len, Op};
/// assert_eq!(result_len(Op::Add, &[3, 1]).unwrap(), 3);
/// assert!(result_len(Op::Add, &[3, 2]).is_err());
/// assert_eq!(result_len(Op::parse("sum").unwrap(), &[5]).unwrap(), 1);
/// ```
pub fn result_len(op: Op, lens: &[usize]) -> Result<usize, KernelError> {
    if lens.len() != op.arity() {
        return Err(shape(format!(
            "{op} takes {} operands, got {}",
            op.arity(),
            lens.len()
        )));
    }
    match super::dispatch::kernel(op)?.length {
        Length::One => Ok(1),
        Length::Same => Ok(lens[0]),
        Length::Dot => {
            if lens[0] != lens[1] {
                return Err(shape(format!(
                    "matmul: vectors of lengths {} and {} (the core dimensions must match)",
                    lens[0], lens[1]
                )));
            }
            Ok(1)
        }
        _ => broadcast_len(lens),
    }
}

/// Execute a plan, allocating the result.
///
/// ```
/// use promote::kernel::{execute, Array, Semantics};
/// use promote::{builtin, Call, Policy};
/// let plan = builtin("numpy").unwrap().resolve(&"multiply uint8 int8".parse::<Call>().unwrap()).unwrap();
/// let (a, b) = (Array::from(vec![200u8, 3]), Array::from(vec![-2i8]));
/// let out = execute(&plan, &[a.view(), b.view()], &Semantics::NUMPY).unwrap();
/// assert_eq!(out, Array::from(vec![-400i16, -6]));
/// ```
pub fn execute(plan: &Plan, inputs: &[View<'_>], sem: &Semantics) -> Result<Array, KernelError> {
    let lens: Vec<usize> = inputs.iter().map(|v| v.len()).collect();
    let n = result_len(plan.op, &lens)?;
    let narrow = [plan.compute, plan.result]
        .into_iter()
        .chain(plan.inputs.iter().copied());
    if let Some(dtype) = narrow.into_iter().find(|d| !d.is_classic()) {
        return Err(KernelError::Unsupported { op: plan.op, dtype });
    }
    let mut out = Array::zeros(plan.result, n);
    execute_into(plan, inputs, out.view_mut(), sem)?;
    Ok(out)
}

/// Execute a plan into an existing output of the plan's result dtype and the result length.
///
/// ```
/// use promote::kernel::{execute_into, Array, Semantics};
/// use promote::{builtin, Call, DType, Policy};
/// let plan = builtin("torch").unwrap().resolve(&"add int8 uint8".parse::<Call>().unwrap()).unwrap();
/// let (a, b) = (Array::from(vec![127i8]), Array::from(vec![1u8]));
/// let mut out = Array::zeros(DType::Int16, 1);
/// execute_into(&plan, &[a.view(), b.view()], out.view_mut(), &Semantics::NUMPY).unwrap();
/// assert_eq!(out, Array::from(vec![128i16]));
/// let mut wrong = Array::zeros(DType::Int8, 1);
/// assert!(execute_into(&plan, &[a.view(), b.view()], wrong.view_mut(), &Semantics::NUMPY).is_err());
/// ```
pub fn execute_into(
    plan: &Plan,
    inputs: &[View<'_>],
    out: ViewMut<'_>,
    sem: &Semantics,
) -> Result<(), KernelError> {
    let lens: Vec<usize> = inputs.iter().map(|v| v.len()).collect();
    let n = result_len(plan.op, &lens)?;
    if out.len() != n {
        return Err(shape(format!(
            "output of length {} for a result of length {n}",
            out.len()
        )));
    }
    if out.dtype() != plan.result {
        return Err(shape(format!(
            "output of dtype {} for a result of dtype {}",
            out.dtype(),
            plan.result
        )));
    }
    if plan.inputs.len() != inputs.len() || plan.operands.len() != inputs.len() {
        return Err(shape(format!(
            "the plan takes {} operands, got {}; resolve the call these operands belong to",
            plan.operands.len(),
            inputs.len()
        )));
    }
    let data = inputs.iter().map(|v| v.dtype());
    if let Some((i, (data, &want))) = data
        .zip(&plan.operands)
        .enumerate()
        .find(|(_, (d, w))| d != *w)
    {
        return Err(KernelError::DataDType {
            operand: i + 1,
            data,
            plan: want,
        });
    }
    if let Some(&dtype) = plan.inputs.iter().find(|d| !d.is_classic()) {
        return Err(KernelError::Unsupported { op: plan.op, dtype });
    }
    if !plan.compute.is_classic() {
        return Err(KernelError::Unsupported {
            op: plan.op,
            dtype: plan.compute,
        });
    }
    let mut out = out;
    (super::dispatch::kernel(plan.op)?.run)(plan, inputs, out.reborrow(), sem)?;
    let s = super::ops::OpSemantics::of(sem);
    let kernel = plan.op.info().kernel;
    // PyTorch's vector lanes of fmod/remainder/floor_divide (`OpSemantics::fmod_lane_bytes`)
    let lanes = s.fmod_lane_bytes;
    super::ops::fmod_lanes::apply(lanes, kernel, plan.compute, inputs, out.reborrow());
    // the framework's own NaNs (PyTorch's vector code: `OpSemantics::nans`)
    super::ops::nans::apply(s.nans, kernel, plan.compute, inputs, out);
    Ok(())
}

/// The kernel of the 21 elementwise binary ops of the spec's version 1.
pub(crate) fn run_elementwise(
    plan: &Plan,
    inputs: &[View<'_>],
    out: ViewMut<'_>,
    sem: &Semantics,
) -> Result<(), KernelError> {
    if sem.exact_mixed_int64_compare
        && plan.op.class() == "comparison"
        && mixed_int64(inputs[0].dtype(), inputs[1].dtype())
    {
        return exact_compare(plan.op, inputs[0], inputs[1], out);
    }
    let via = [plan.inputs[0], plan.inputs[1]];
    with_dtype!(plan.compute, T => elementwise::<T>(plan.op, inputs[0], inputs[1], via, out, sem))
}

/// The kernel of `sum` over the whole tensor.
pub(crate) fn run_sum(
    plan: &Plan,
    inputs: &[View<'_>],
    out: ViewMut<'_>,
    _sem: &Semantics,
) -> Result<(), KernelError> {
    with_dtype!(plan.compute, T => sum::<T>(inputs[0], plan.inputs[0], out))
}

/// uint64 against a signed integer: NumPy 2 compares these exactly.
fn mixed_int64(a: DType, b: DType) -> bool {
    (a == DType::UInt64 && b.kind() == crate::Kind::Signed)
        || (b == DType::UInt64 && a.kind() == crate::Kind::Signed)
}

/// Elements `s..e` of an integer view (or its one broadcast value) as `i128`.
fn ints_i128(v: View<'_>, s: usize, e: usize, buf: &mut Vec<i128>) {
    buf.clear();
    let (s, e, rep) = if v.len() == 1 {
        (0, 1, e - s)
    } else {
        (s, e, 1)
    };
    let chunk = v.slice(s, e);
    if v.dtype() == DType::UInt64 {
        let mut u = vec![0u64; e - s];
        cast_view(chunk, ViewMut::UInt64(&mut u));
        buf.extend(u.iter().flat_map(|&x| std::iter::repeat_n(x as i128, rep)));
    } else {
        let mut i = vec![0i64; e - s];
        cast_view(chunk, ViewMut::Int64(&mut i));
        buf.extend(i.iter().flat_map(|&x| std::iter::repeat_n(x as i128, rep)));
    }
}

/// An exact comparison of integers of any signedness.
fn exact_compare(
    op: Op,
    a: View<'_>,
    b: View<'_>,
    mut out: ViewMut<'_>,
) -> Result<(), KernelError> {
    let n = out.len();
    let chunk = 4096;
    let (mut x, mut y, mut r) = (Vec::new(), Vec::new(), Vec::new());
    let mut s = 0;
    while s < n {
        let e = (s + chunk).min(n);
        ints_i128(a, s, e, &mut x);
        ints_i128(b, s, e, &mut y);
        r.clear();
        r.extend(x.iter().zip(&y).map(|(p, q)| match op {
            Op::Equal => p == q,
            Op::NotEqual => p != q,
            Op::Less => p < q,
            Op::LessEqual => p <= q,
            Op::Greater => p > q,
            _ => p >= q,
        }));
        cast_view(View::Bool(&r), sub_mut(out.reborrow(), s, e));
        s = e;
    }
    Ok(())
}

// ---------- loading operands ----------

/// Cast `src` (any dtype) to `via` (the plan's input dtype) and then to `T`.
fn to_compute<T: Work>(src: View<'_>, via: DType, dst: &mut [T], tmp: &mut Option<Array>) {
    if src.dtype() == via || via == T::DTYPE {
        cast_view(src, T::view_mut(dst));
        return;
    }
    let n = src.len();
    let t = tmp.get_or_insert_with(|| Array::zeros(via, n));
    if t.dtype() != via || t.len() < n {
        *t = Array::zeros(via, n);
    }
    cast_view(src, head_mut(t.view_mut(), n));
    cast_view(t.view().slice(0, n), T::view_mut(dst));
}

/// The first `n` elements of a mutable view.
fn head_mut(v: ViewMut<'_>, n: usize) -> ViewMut<'_> {
    crate::each_dtype!(ViewMut, v, s, E => E::view_mut(&mut s[..n]))
}

/// A length-1 operand as one value of the working type.
fn scalar_of<T: Work>(src: View<'_>, via: DType) -> T::W {
    let mut t = [T::default()];
    let mut tmp = None;
    to_compute::<T>(src, via, &mut t, &mut tmp);
    t[0].widen()
}

/// Cast elements `s..e` of a view (of a known dtype) into a slice.
type CastRange<T> = fn(View<'_>, usize, usize, &mut [T]);

fn cast_range<S: Num, T: Num>(v: View<'_>, s: usize, e: usize, dst: &mut [T]) {
    let src = S::slice(v).expect("dtype checked");
    cast_slice(&src[s..e], dst)
}

/// Chunk buffers of one operand.
struct Loader<'a, T: Work> {
    src: View<'a>,
    via: DType,
    in_place: bool,
    direct: Option<CastRange<T>>,
    buf_t: Vec<T>,
    buf_w: Vec<T::W>,
    tmp: Option<Array>,
}

impl<'a, T: Work> Loader<'a, T> {
    fn new(src: View<'a>, via: DType) -> Self {
        let in_place = src.dtype() == T::DTYPE && via == T::DTYPE;
        let direct = (!in_place && (src.dtype() == via || via == T::DTYPE))
            .then(|| with_dtype!(src.dtype(), S => cast_range::<S, T> as CastRange<T>));
        Loader {
            src,
            via,
            in_place,
            direct,
            buf_t: Vec::new(),
            buf_w: Vec::new(),
            tmp: None,
        }
    }

    /// Elements `s..e` in the working type.
    fn load(&mut self, s: usize, e: usize) -> &[T::W] {
        let n = e - s;
        if let Some(f) = self.direct {
            if self.buf_t.len() < n {
                self.buf_t.resize(n, T::default());
            }
            f(self.src, s, e, &mut self.buf_t[..n]);
            if let Some(w) = same::<T, T::W>(&self.buf_t[..n]) {
                return w;
            }
            if self.buf_w.len() < n {
                self.buf_w.resize(n, T::W::default());
            }
            T::widen_slice(&self.buf_t[..n], &mut self.buf_w[..n]);
            return &self.buf_w[..n];
        }
        let chunk = self.src.slice(s, e);
        if self.in_place {
            let t = T::slice(chunk).expect("dtype checked");
            if let Some(w) = same::<T, T::W>(t) {
                return w;
            }
            self.buf_w.resize(n, T::W::default());
            T::widen_slice(t, &mut self.buf_w[..n]);
            return &self.buf_w[..n];
        }
        self.buf_t.resize(n, T::default());
        to_compute::<T>(chunk, self.via, &mut self.buf_t[..n], &mut self.tmp);
        if let Some(w) = same::<T, T::W>(&self.buf_t[..n]) {
            return w;
        }
        self.buf_w.resize(n, T::W::default());
        T::widen_slice(&self.buf_t[..n], &mut self.buf_w[..n]);
        &self.buf_w[..n]
    }
}

// ---------- elementwise ----------

/// Knobs of the execution strategy. Results never depend on them (tests run every path);
/// the defaults come from `PROMOTE_CHUNK_BYTES`, `PROMOTE_PARALLEL_MIN`,
/// `PROMOTE_STREAM_BYTES`, `PROMOTE_NO_FUSED` and `PROMOTE_NO_PREFETCH` where set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[doc(hidden)] // a tuning knob for the crate's tests and benchmarks
pub struct Tuning {
    /// Bytes of working type per chunk buffer.
    pub chunk_bytes: usize,
    /// Below this many elements everything runs on the calling thread.
    pub parallel_min: usize,
    /// Elementwise ops that move at least this many bytes (inputs plus output) write their
    /// output with streaming stores.
    pub stream_min_bytes: usize,
    /// Use the fused kernels for the common mixed pairs.
    pub fused: bool,
    /// When streaming, prefetch the next chunk's inputs while the current chunk is copied
    /// out ([`super::arch::stream_copy_ahead`]).
    pub prefetch: bool,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            chunk_bytes: CHUNK_BYTES,
            parallel_min: PARALLEL_MIN,
            stream_min_bytes: STREAM_MIN_BYTES,
            fused: true,
            prefetch: true,
        }
    }
}

static TUNE_CHUNK: AtomicUsize = AtomicUsize::new(0);
static TUNE_PAR: AtomicUsize = AtomicUsize::new(0);
static TUNE_STREAM: AtomicUsize = AtomicUsize::new(0);
static TUNE_FUSED: AtomicBool = AtomicBool::new(true);
static TUNE_PREFETCH: AtomicBool = AtomicBool::new(true);
static TUNE_INIT: std::sync::Once = std::sync::Once::new();

fn init_tuning() {
    TUNE_INIT.call_once(|| {
        let env = |k: &str, d: usize| {
            std::env::var(k)
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(d)
        };
        let d = Tuning::default();
        TUNE_CHUNK.store(env("PROMOTE_CHUNK_BYTES", d.chunk_bytes).max(64), Relaxed);
        TUNE_PAR.store(env("PROMOTE_PARALLEL_MIN", d.parallel_min), Relaxed);
        TUNE_STREAM.store(env("PROMOTE_STREAM_BYTES", d.stream_min_bytes), Relaxed);
        TUNE_FUSED.store(std::env::var_os("PROMOTE_NO_FUSED").is_none(), Relaxed);
        TUNE_PREFETCH.store(std::env::var_os("PROMOTE_NO_PREFETCH").is_none(), Relaxed);
    });
}

/// The current knobs.
#[doc(hidden)] // a tuning knob for the crate's tests and benchmarks
pub fn tuning() -> Tuning {
    init_tuning();
    Tuning {
        chunk_bytes: TUNE_CHUNK.load(Relaxed),
        parallel_min: TUNE_PAR.load(Relaxed),
        stream_min_bytes: TUNE_STREAM.load(Relaxed),
        fused: TUNE_FUSED.load(Relaxed),
        prefetch: TUNE_PREFETCH.load(Relaxed),
    }
}

/// Set the knobs for the whole process (tests, experiments).
#[doc(hidden)] // a tuning knob for the crate's tests and benchmarks
pub fn set_tuning(t: Tuning) {
    init_tuning();
    TUNE_CHUNK.store(t.chunk_bytes.max(64), Relaxed);
    TUNE_PAR.store(t.parallel_min, Relaxed);
    TUNE_STREAM.store(t.stream_min_bytes, Relaxed);
    TUNE_FUSED.store(t.fused, Relaxed);
    TUNE_PREFETCH.store(t.prefetch, Relaxed);
}

fn chunk_bytes() -> usize {
    tuning().chunk_bytes
}

fn serial(n: usize) -> bool {
    n < tuning().parallel_min || rayon::current_num_threads() == 1
}

fn chunk_len<W>() -> usize {
    (chunk_bytes() / std::mem::size_of::<W>().max(1)).clamp(64, 64 * 1024)
}

/// Split a mutable view into consecutive blocks of `block` elements.
fn blocks_mut(v: ViewMut<'_>, block: usize) -> Vec<ViewMut<'_>> {
    crate::each_dtype!(ViewMut, v, s, E => s.chunks_mut(block.max(1)).map(E::view_mut).collect())
}

fn elementwise<T: Work>(
    op: Op,
    a: View<'_>,
    b: View<'_>,
    via: [DType; 2],
    out: ViewMut<'_>,
    sem: &Semantics,
) -> Result<(), KernelError> {
    let n = out.len();
    if n == 0 {
        return Ok(());
    }
    let half = match T::DTYPE {
        DType::Float16 => Some(Half::F16),
        DType::BFloat16 => Some(Half::BF16),
        _ => None,
    };
    if half.is_none()
        && tuning().fused
        && a.len() == n
        && b.len() == n
        && via == [T::DTYPE, T::DTYPE]
        && fusable(op)
    {
        if let Some(f) = fused_fn(a.dtype(), b.dtype(), T::DTYPE) {
            let natural = if writes_bool(op) {
                DType::Bool
            } else {
                T::DTYPE
            };
            if out.dtype() == natural {
                return fused_blocks(f, op, a, b, out, sem);
            }
        }
    }
    let chunk = chunk_len::<T::W>();
    let stream = streams(&[a, b], &out);
    let ahead = stream && tuning().prefetch;
    let sa = (a.len() == 1 && n != 1).then(|| scalar_of::<T>(a, via[0]));
    let sb = (b.len() == 1 && n != 1).then(|| scalar_of::<T>(b, via[1]));
    let run_block = |start: usize, out: ViewMut<'_>| -> Result<(), KernelError> {
        let mut la = Loader::<T>::new(a, via[0]);
        let mut lb = Loader::<T>::new(b, via[1]);
        let walk = Walk::new(start, out.len(), chunk, ahead);
        let mut out_buf = OutBuf::<T>::new(op, out, stream);
        walk.run(&[a, b], |s, e, next| {
            let (gs, ge) = (start + s, start + e);
            let xa = match sa {
                Some(v) => Src::Scalar(v),
                None => Src::Slice(la.load(gs, ge)),
            };
            let xb = match sb {
                Some(v) => Src::Scalar(v),
                None => Src::Slice(lb.load(gs, ge)),
            };
            out_buf.run(s, e, next, |dst| binary::<T::W>(op, xa, xb, dst, sem, half))
        })?;
        out_buf.finish();
        Ok(())
    };
    run_blocks(out, chunk, run_block)
}

/// An elementwise map of one operand: chunks of `a` cast to `T` through `via` and widened,
/// `k` from each input chunk into its result chunk (in the working type), narrowed and cast
/// into `out` ([`OutBuf`]); blocks of the output run on the rayon pool. The result does not
/// depend on the blocking (each element is computed alone).
pub(crate) fn map_unary<T: Work>(
    op: Op,
    a: View<'_>,
    via: DType,
    out: ViewMut<'_>,
    k: impl Fn(&[T::W], &mut [T::W]) + Sync,
) -> Result<(), KernelError> {
    let n = out.len();
    if a.len() != n {
        return Err(shape(format!(
            "{op}: an operand of length {} into an output of length {n}",
            a.len()
        )));
    }
    let chunk = chunk_len::<T::W>();
    let stream = streams(&[a], &out);
    let ahead = stream && tuning().prefetch;
    let run_block = |start: usize, out: ViewMut<'_>| -> Result<(), KernelError> {
        let mut la = Loader::<T>::new(a, via);
        let walk = Walk::new(start, out.len(), chunk, ahead);
        let mut out_buf = OutBuf::<T>::new(op, out, stream);
        walk.run(&[a], |s, e, next| {
            let x = la.load(start + s, start + e);
            out_buf.run(s, e, next, |dst| match dst {
                Dst::Same(d) => {
                    k(x, d);
                    Ok(())
                }
                Dst::Bool(_) => Err(shape(format!("{op} does not write bool"))),
            })
        })?;
        out_buf.finish();
        Ok(())
    };
    run_blocks(out, chunk, run_block)
}

/// A fused kernel: elements `s..e` of two views of known dtypes, cast on the fly, into an output block.
type FusedFn =
    fn(Op, View<'_>, View<'_>, usize, ViewMut<'_>, &Semantics) -> Result<(), KernelError>;

fn fused_chunk<SA: Num, SB: Num, W: Work>(
    op: Op,
    a: View<'_>,
    b: View<'_>,
    start: usize,
    out: ViewMut<'_>,
    sem: &Semantics,
) -> Result<(), KernelError> {
    let n = out.len();
    let x = &SA::slice(a).expect("dtype checked")[start..start + n];
    let y = &SB::slice(b).expect("dtype checked")[start..start + n];
    let dst = match out {
        ViewMut::Bool(o) => Dst::Bool(o),
        o => Dst::Same(
            same_mut::<W, W::W>(W::slice_mut(o).expect("dtype checked")).expect("not a half type"),
        ),
    };
    binary_cast::<SA, SB, W::W>(op, x, y, dst, sem)
}

macro_rules! fused_table {
    ($(($a:ty, $b:ty, $w:ty)),* $(,)?) => {
        /// The mixed pairs with a fused kernel: both operands need a cast to the compute dtype
        /// in the NumPy or PyTorch tables (or in true division of integers).
        fn fused_fn(a: DType, b: DType, w: DType) -> Option<FusedFn> {
            $(
                if a == <$a as Element>::DTYPE && b == <$b as Element>::DTYPE && w == <$w as Element>::DTYPE {
                    return Some(fused_chunk::<$a, $b, $w> as FusedFn);
                }
            )*
            None
        }
    };
}

fused_table!(
    (i8, u8, i16),
    (u8, i8, i16),
    (i32, f32, f64),
    (f32, i32, f64),
    (i64, f32, f64),
    (f32, i64, f64),
    (f16, i16, f32),
    (i16, f16, f32),
    (f16, i32, f64),
    (i32, f16, f64),
    (f16, i64, f64),
    (i64, f16, f64),
    (C32, f64, C64),
    (f64, C32, C64),
    (C32, i32, C64),
    (i32, C32, C64),
    (C32, i64, C64),
    (i64, C32, C64),
    (i32, f32, f32),
    (f32, i32, f32),
    (i64, f32, f32),
    (f32, i64, f32),
    (f16, f32, f32),
    (f32, f16, f32),
    (f32, f64, f64),
    (f64, f32, f64),
    (C32, C64, C64),
    (C64, C32, C64),
    (i8, i8, f64),
    (u8, u8, f64),
    (i16, i16, f64),
    (i32, i32, f64),
    (i64, i64, f64),
    (i8, i8, f32),
    (u8, u8, f32),
    (i16, i16, f32),
    (i32, i32, f32),
    (i64, i64, f32),
);

fn fused_blocks(
    f: FusedFn,
    op: Op,
    a: View<'_>,
    b: View<'_>,
    out: ViewMut<'_>,
    sem: &Semantics,
) -> Result<(), KernelError> {
    let stream = streams(&[a, b], &out);
    let ahead = tuning().prefetch;
    let run_block = |start: usize, mut o: ViewMut<'_>| -> Result<(), KernelError> {
        if !stream {
            return f(op, a, b, start, o, sem);
        }
        let len = o.len();
        let chunk = (CHUNK_BYTES / o.dtype().itemsize()).max(64);
        let mut stage = Array::zeros(o.dtype(), chunk.min(len));
        Walk::new(start, len, chunk, ahead).run(&[a, b], |s, e, next| {
            f(op, a, b, start + s, head_mut(stage.view_mut(), e - s), sem)?;
            let out = sub_mut(o.reborrow(), s, e);
            stream_view(stage.view().slice(0, e - s), out, next);
            Ok(())
        })?;
        super::simd::store_fence();
        Ok(())
    };
    run_blocks(out, 4096, run_block)
}

/// Run `run_block(start, block)` over the output: whole when it is small ([`Tuning`]'s
/// `parallel_min`), else in blocks of a multiple of `align` elements, four per thread of the
/// rayon pool (`start` is the block's first element).
fn run_blocks(
    out: ViewMut<'_>,
    align: usize,
    run_block: impl Fn(usize, ViewMut<'_>) -> Result<(), KernelError> + Sync,
) -> Result<(), KernelError> {
    let n = out.len();
    if serial(n) {
        return run_block(0, out);
    }
    let tasks = rayon::current_num_threads() * 4;
    let block = n.div_ceil(tasks).div_ceil(align) * align;
    blocks_mut(out, block)
        .into_par_iter()
        .enumerate()
        .try_for_each(|(i, o)| run_block(i * block, o))
}

/// The walk of one block of the elementwise loops in chunks: block elements `s..e` per step,
/// with the bytes of the inputs' next chunk to prefetch while it is streamed out.
struct Walk {
    /// The block's first element in the whole output.
    start: usize,
    len: usize,
    chunk: usize,
    /// Prefetch the next chunk's inputs (streaming with [`Tuning`]'s `prefetch`).
    ahead: bool,
}

impl Walk {
    fn new(start: usize, len: usize, chunk: usize, ahead: bool) -> Walk {
        Walk {
            start,
            len,
            chunk,
            ahead,
        }
    }

    /// `step(s, e, next)` for each chunk `s..e` of the block, `next` the bytes of `inputs`'
    /// next chunk (or none).
    fn run(
        &self,
        inputs: &[View<'_>],
        mut step: impl FnMut(usize, usize, [&[u8]; 2]) -> Result<(), KernelError>,
    ) -> Result<(), KernelError> {
        let mut s = 0;
        while s < self.len {
            let e = (s + self.chunk).min(self.len);
            let ge = self.start + e;
            step(s, e, next_inputs(self.ahead, inputs, ge, ge + self.chunk))?;
            s = e;
        }
        Ok(())
    }
}

/// Where one block's results go, and the buffers between the kernel and the output.
struct OutBuf<'a, T: Work> {
    out: ViewMut<'a>,
    bools: bool,
    w: Vec<T::W>,
    t: Vec<T>,
    b: Vec<bool>,
    /// Streaming: the chunk is finished here, then copied out with non-temporal stores.
    stage: Option<Array>,
}

impl<'a, T: Work> OutBuf<'a, T> {
    fn new(op: Op, out: ViewMut<'a>, stream: bool) -> Self {
        let stage = stream.then(|| Array::zeros(out.dtype(), 0));
        OutBuf {
            out,
            bools: writes_bool(op),
            w: Vec::new(),
            t: Vec::new(),
            b: Vec::new(),
            stage,
        }
    }

    /// Run `k` for output elements `s..e` of this block (when streaming, prefetching `next`
    /// while the chunk is copied out).
    fn run(
        &mut self,
        s: usize,
        e: usize,
        next: [&[u8]; 2],
        k: impl FnOnce(Dst<'_, T::W>) -> Result<(), KernelError>,
    ) -> Result<(), KernelError> {
        let n = e - s;
        match self.stage.as_mut() {
            Some(stage) => {
                if stage.len() < n {
                    *stage = Array::zeros(stage.dtype(), n);
                }
                produce::<T>(
                    &mut self.w,
                    &mut self.t,
                    &mut self.b,
                    self.bools,
                    head_mut(stage.view_mut(), n),
                    k,
                )?;
                stream_view(
                    stage.view().slice(0, n),
                    sub_mut(self.out.reborrow(), s, e),
                    next,
                );
                Ok(())
            }
            None => produce::<T>(
                &mut self.w,
                &mut self.t,
                &mut self.b,
                self.bools,
                sub_mut(self.out.reborrow(), s, e),
                k,
            ),
        }
    }

    /// Make the streamed stores visible.
    fn finish(&self) {
        if self.stage.is_some() {
            super::simd::store_fence();
        }
    }
}

/// Run `k` into `out` (the chunk's destination), through the working-type buffers when `out`
/// is not the kernel's natural type.
fn produce<T: Work>(
    wbuf: &mut Vec<T::W>,
    tbuf: &mut Vec<T>,
    bbuf: &mut Vec<bool>,
    bools: bool,
    out: ViewMut<'_>,
    k: impl FnOnce(Dst<'_, T::W>) -> Result<(), KernelError>,
) -> Result<(), KernelError> {
    let n = out.len();
    if bools {
        if let ViewMut::Bool(o) = out {
            return k(Dst::Bool(o));
        }
        bbuf.resize(n, false);
        k(Dst::Bool(&mut bbuf[..n]))?;
        cast_view(View::Bool(&bbuf[..n]), out);
        return Ok(());
    }
    if out.dtype() == T::DTYPE {
        let o = T::slice_mut(out).expect("dtype checked");
        if let Some(w) = same_mut::<T, T::W>(o) {
            return k(Dst::Same(w));
        }
        wbuf.resize(n, T::W::default());
        k(Dst::Same(&mut wbuf[..n]))?;
        T::narrow_slice(&wbuf[..n], o);
        return Ok(());
    }
    wbuf.resize(n, T::W::default());
    k(Dst::Same(&mut wbuf[..n]))?;
    if let Some(t) = same::<T::W, T>(&wbuf[..n]) {
        cast_view(T::view(t), out);
    } else {
        tbuf.resize(n, T::default());
        T::narrow_slice(&wbuf[..n], &mut tbuf[..n]);
        cast_view(T::view(&tbuf[..n]), out);
    }
    Ok(())
}

/// What to prefetch while a chunk is streamed out: elements `s..e` of the first two operands
/// (the next chunk), or nothing.
fn next_inputs<'v>(on: bool, ops: &[View<'v>], s: usize, e: usize) -> [&'v [u8]; 2] {
    let mut next: [&[u8]; 2] = [&[], &[]];
    if on {
        for (n, v) in next.iter_mut().zip(ops) {
            *n = bytes_range(*v, s, e);
        }
    }
    next
}

/// The bytes of elements `s..e` of an operand (clipped to it; none for a broadcast scalar).
fn bytes_range(v: View<'_>, s: usize, e: usize) -> &[u8] {
    let e = e.min(v.len());
    if v.len() <= 1 || s >= e {
        return &[];
    }
    crate::each_dtype!(View, v, x, E => {
        let x = &x[s..e];
        // SAFETY: the elements of the 15 dtypes are plain data without padding; any of their
        // bytes may be read as `u8`, for the lifetime of the borrow.
        unsafe { std::slice::from_raw_parts(x.as_ptr().cast::<u8>(), std::mem::size_of_val(x)) }
    })
}

/// Copy a view into a mutable view of the same dtype with streaming stores, prefetching
/// `next` along the way.
fn stream_view(src: View<'_>, dst: ViewMut<'_>, next: [&[u8]; 2]) {
    crate::each_dtype!(ViewMut, dst, d, E => super::arch::stream_copy_ahead(d, E::slice(src).expect("same dtype"), next))
}

/// Elementwise ops that move at least this many bytes (inputs plus output) write their
/// output with streaming stores: the size of the measured machine's last-level cache (32 MB
/// L3), above which the output cannot stay cached and streaming saves the
/// read-for-ownership. At 10M elements (30–320 MB moved) streaming was faster than ordinary
/// stores in 4 of the 5 cases timed side by side (`benches/RESULTS.md`).
/// `PROMOTE_STREAM_BYTES` overrides it (0: always).
pub const STREAM_MIN_BYTES: usize = 32 << 20;

fn streams(inputs: &[View<'_>], out: &ViewMut<'_>) -> bool {
    let read: usize = inputs.iter().map(|v| v.len() * v.dtype().itemsize()).sum();
    read + out.len() * out.dtype().itemsize() >= tuning().stream_min_bytes
}

fn sub_mut<'b>(v: ViewMut<'b>, s: usize, e: usize) -> ViewMut<'b> {
    crate::each_dtype!(ViewMut, v, x, E => E::view_mut(&mut x[s..e]))
}

// ---------- reductions ----------

/// NumPy's reduction buffer size: with a cast, `add.reduce` sums chunks of this many elements.
const NUMPY_BUFSIZE: usize = 8192;

fn store_one<T: Work>(v: T, out: ViewMut<'_>) {
    cast_view(T::view(&[v]), out);
}

fn sum<T: Work>(a: View<'_>, via: DType, out: ViewMut<'_>) -> Result<(), KernelError> {
    store_one(sum_total::<T>(a, via), out);
    Ok(())
}

/// NumPy's `add.reduce` of a whole array in `T` (operands cast through `via`): in place, one
/// pairwise sum (parallel halves for large inputs); with a cast, NumPy's buffered reduction,
/// each chunk of [`NUMPY_BUFSIZE`] summed pairwise and added to the running total, rounded to
/// `T`. The chunks' sums run on the rayon pool; the running total adds them in order (the
/// same bits as one thread).
pub(crate) fn sum_total<T: Work>(a: View<'_>, via: DType) -> T {
    let zero = T::W::zero();
    if a.dtype() == T::DTYPE && via == T::DTYPE {
        let s = T::slice(a).expect("dtype checked");
        let total = if T::W::DTYPE.is_inexact() {
            // the identity, then one pairwise sum (parallel halves for large inputs)
            T::W::add(zero, T::W::pairwise(s, &|x: T| x.widen()))
        } else if !serial(s.len()) {
            s.par_chunks(NUMPY_BUFSIZE * 8)
                .map(|c| T::W::pairwise(c, &|x: T| x.widen()))
                .reduce(|| zero, T::W::add)
        } else {
            T::W::pairwise(s, &|x: T| x.widen())
        };
        return T::narrow(total);
    }
    let n = a.len();
    let into_f64 = T::DTYPE == DType::Float64 && T::W::DTYPE == DType::Float64;
    if into_f64 && a.dtype() != T::DTYPE && (via == T::DTYPE || via == a.dtype()) {
        // a direct cast into float64 (NumPy's mean of integers), fused into the sums
        let parts = chunk_sums_f64(a);
        let total = parts.into_iter().fold(0.0f64, |acc, p| acc + p);
        return T::narrow(T::W::from_num(total));
    }
    let chunk_sum = |l: &mut Loader<'_, T>, c: usize| {
        let e = ((c + 1) * NUMPY_BUFSIZE).min(n);
        T::W::pairwise(l.load(c * NUMPY_BUFSIZE, e), &|x| x)
    };
    let chunks = n.div_ceil(NUMPY_BUFSIZE);
    let parts: Vec<T::W> = if serial(n) {
        let mut l = Loader::<T>::new(a, via);
        (0..chunks).map(|c| chunk_sum(&mut l, c)).collect()
    } else {
        (0..chunks)
            .into_par_iter()
            .map_init(|| Loader::<T>::new(a, via), chunk_sum)
            .collect()
    };
    if !T::W::DTYPE.is_inexact() {
        // integer sums wrap: any grouping gives the same total
        return T::narrow(parts.into_iter().fold(zero, T::W::add));
    }
    // the running total, rounded to T after each chunk
    parts.into_iter().fold(T::narrow(zero), |acc, p| {
        T::narrow(T::W::add(acc.widen(), p))
    })
}

/// The pairwise sums in float64 of the chunks of [`NUMPY_BUFSIZE`] of `a` cast straight to
/// float64, the cast fused into the sum: each element goes through the cast the chunk buffer
/// would hold ([`Num::from_num`]), so the sums are those of the buffered reduction.
fn chunk_sums_f64(a: View<'_>) -> Vec<f64> {
    match a {
        View::Bool(x) => exact_chunk_sums(x),
        View::UInt8(x) => exact_chunk_sums(x),
        View::UInt16(x) => exact_chunk_sums(x),
        View::UInt32(x) => exact_chunk_sums(x),
        View::Int8(x) => exact_chunk_sums(x),
        View::Int16(x) => exact_chunk_sums(x),
        View::Int32(x) => exact_chunk_sums(x),
        _ => float_chunk_sums(a),
    }
}

/// [`chunk_sums_f64`] of an operand of at most 32-bit integers (or bools), each chunk summed
/// exactly in `i64` and converted once: bit for bit the chunk's pairwise sum in float64. In a
/// chunk of [`NUMPY_BUFSIZE`] (2^13) such elements, each value and each partial sum of any
/// grouping is an integer of magnitude below 2^13 · 2^32 = 2^45 < 2^53, so every float64
/// addition of the pairwise sum is exact and its result is the integer sum, converted exactly
/// (never `-0.0`: the cast gives `+0.0` for 0, and an exact sum of zero is `+0.0` when
/// rounding to nearest). Only the running total over the chunks rounds, and the caller adds
/// these sums in order as before. One pass of integer additions (`simd::sum_i64`, compiled
/// per SIMD path) instead of a cast and a float64 tree per element; checked against
/// [`float_chunk_sums`] in the unit tests.
fn exact_chunk_sums<S: Copy + Into<i64> + Sync>(x: &[S]) -> Vec<f64> {
    const _: () = assert!((NUMPY_BUFSIZE as u64) << 32 < 1 << 53);
    let sum = |c: &[S]| {
        let mut s = 0i64;
        super::simd::sum_i64(c, &mut s);
        s as f64
    };
    if serial(x.len()) {
        x.chunks(NUMPY_BUFSIZE).map(sum).collect()
    } else {
        x.par_chunks(NUMPY_BUFSIZE)
            .with_min_len(8)
            .map(sum)
            .collect()
    }
}

/// [`chunk_sums_f64`] as NumPy computes it: each chunk's pairwise sum in float64.
fn float_chunk_sums(a: View<'_>) -> Vec<f64> {
    crate::each_dtype!(View, a, x, S => {
        let sum = |c: &[S]| f64::pairwise(c, &|v: S| f64::from_num(v));
        if serial(x.len()) {
            x.chunks(NUMPY_BUFSIZE).map(sum).collect()
        } else {
            x.par_chunks(NUMPY_BUFSIZE).with_min_len(8).map(sum).collect()
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{builtin, Call, Policy};

    fn plan(policy: &str, call: &str) -> Plan {
        builtin(policy)
            .unwrap()
            .resolve(&call.parse::<Call>().unwrap())
            .unwrap()
    }

    #[test]
    fn casts_only_what_needs_it_and_broadcasts() {
        let p = plan("torch", "add int32 float32");
        let a = Array::from(vec![1i32, 2, 16_777_217]);
        let b = Array::from(vec![0.5f32]);
        let out = execute(&p, &[a.view(), b.view()], &Semantics::NUMPY).unwrap();
        assert_eq!(out, Array::from(vec![1.5f32, 2.5, 16_777_216.0]));
    }

    #[test]
    fn large_inputs_run_in_parallel_and_agree() {
        let n = 300_001;
        let p = plan("torch", "add int8 uint8");
        let a: Vec<i8> = (0..n).map(|i| (i % 251) as i8).collect();
        let b: Vec<u8> = (0..n).map(|i| (i % 241) as u8).collect();
        let out = execute(
            &p,
            &[Array::from(a.clone()).view(), Array::from(b.clone()).view()],
            &Semantics::NUMPY,
        )
        .unwrap();
        let want: Vec<i16> = a
            .iter()
            .zip(&b)
            .map(|(&x, &y)| x as i16 + y as i16)
            .collect();
        assert_eq!(out, Array::from(want));
    }

    #[test]
    fn half_computes_in_f32_and_rounds_once() {
        let p = plan("torch", "add float16 float16");
        let a = Array::from(vec![f16::from_f32(1.0), f16::MAX]);
        let b = Array::from(vec![f16::from_f32(0.0004), f16::MAX]);
        let out = execute(&p, &[a.view(), b.view()], &Semantics::NUMPY).unwrap();
        // 1 + 0.0004 is nearer 1 + 2^-10 (0.000977) than 1? no: 0.0004 < 0.000488, so 1
        assert_eq!(out, Array::from(vec![f16::from_f32(1.0), f16::INFINITY]));
    }

    #[test]
    fn out_dtype_gets_a_final_cast() {
        let p = plan("torch", "add int8 int16 out=int8");
        let out = execute(
            &p,
            &[
                Array::from(vec![100i8]).view(),
                Array::from(vec![100i16, 1]).view(),
            ],
            &Semantics::NUMPY,
        )
        .unwrap();
        assert_eq!(out, Array::from(vec![-56i8, 101]));
    }

    #[test]
    fn comparisons_write_bool() {
        let p = plan("torch", "less uint8 int8");
        let out = execute(
            &p,
            &[
                Array::from(vec![200u8, 1]).view(),
                Array::from(vec![-1i8, 2]).view(),
            ],
            &Semantics::NUMPY,
        )
        .unwrap();
        assert_eq!(out, Array::from(vec![false, true]));
    }

    #[test]
    fn sums_and_dots() {
        let p = plan("torch", "sum int8");
        let out = execute(
            &p,
            &[Array::from(vec![127i8; 1000]).view()],
            &Semantics::NUMPY,
        )
        .unwrap();
        assert_eq!(out, Array::from(vec![127_000i64]));
        let big: Vec<i8> = (0..200_000).map(|i| (i % 7) as i8 - 3).collect();
        let out = execute(&p, &[Array::from(big.clone()).view()], &Semantics::NUMPY).unwrap();
        assert_eq!(
            out,
            Array::from(vec![big.iter().map(|&x| x as i64).sum::<i64>()])
        );
        let p = plan("torch", "matmul float32 float32");
        let out = execute(
            &p,
            &[
                Array::from(vec![1f32, 2.0, 3.0]).view(),
                Array::from(vec![4f32, 5.0, 6.0]).view(),
            ],
            &Semantics::NUMPY,
        )
        .unwrap();
        assert_eq!(out, Array::from(vec![32f32]));
        let e = execute(
            &p,
            &[
                Array::from(vec![1f32]).view(),
                Array::from(vec![4f32, 5.0]).view(),
            ],
            &Semantics::NUMPY,
        );
        assert!(e.is_err());
    }

    #[test]
    fn ragged_lengths_are_errors() {
        let p = plan("torch", "add int8 int8");
        let e = execute(
            &p,
            &[
                Array::from(vec![1i8, 2]).view(),
                Array::from(vec![1i8, 2, 3]).view(),
            ],
            &Semantics::NUMPY,
        );
        assert!(matches!(e, Err(KernelError::Shape(_))));
        let out = execute(
            &p,
            &[
                Array::from(Vec::<i8>::new()).view(),
                Array::from(vec![1i8]).view(),
            ],
            &Semantics::NUMPY,
        )
        .unwrap();
        assert_eq!(out.len(), 0);
    }

    /// xorshift values, `lo..=hi` by wrapping into the range.
    fn rand_i64(n: usize, seed: u64, lo: i64, hi: i64) -> Vec<i64> {
        let mut x = seed | 1;
        let span = (hi - lo) as u64 + 1;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                lo + (x % span) as i64
            })
            .collect()
    }

    /// The exact integer chunk sums are the float64 pairwise ones, bit for bit, on every SIMD
    /// path, and so is the running total over them (`sum_total`, NumPy's `mean` of integers).
    fn check_exact_chunks(a: View<'_>) {
        let want = float_chunk_sums(a);
        let total = want.iter().fold(0.0f64, |acc, &p| acc + p);
        for p in crate::kernel::arch::supported() {
            crate::kernel::arch::set_path(p).unwrap();
            let got = chunk_sums_f64(a);
            let same = got.len() == want.len()
                && got
                    .iter()
                    .zip(&want)
                    .all(|(g, w)| g.to_bits() == w.to_bits());
            assert!(same, "{:?} {} elements on {p:?}", a.dtype(), a.len());
            let t: f64 = sum_total::<f64>(a, DType::Float64);
            assert_eq!(t.to_bits(), total.to_bits(), "{:?} {p:?}", a.dtype());
        }
        crate::kernel::arch::set_path(crate::kernel::arch::detected()).unwrap();
    }

    #[test]
    fn integer_chunk_sums_are_the_float64_pairwise_sums() {
        let _path = crate::kernel::arch::path_lock();
        let (lo, hi) = (i32::MIN as i64, i32::MAX as i64);
        for n in [
            0,
            1,
            7,
            8,
            127,
            129,
            8191,
            8192,
            8193,
            3 * 8192 + 77,
            300_001,
        ] {
            let v = rand_i64(n, n as u64 + 3, lo, hi);
            let x: Vec<i32> = v.iter().map(|&v| v as i32).collect();
            check_exact_chunks(View::Int32(&x));
            let u: Vec<u32> = v.iter().map(|&v| v as u32).collect();
            check_exact_chunks(View::UInt32(&u));
            let h: Vec<i16> = v.iter().map(|&v| v as i16).collect();
            check_exact_chunks(View::Int16(&h));
            let uh: Vec<u16> = v.iter().map(|&v| v as u16).collect();
            check_exact_chunks(View::UInt16(&uh));
            let b: Vec<i8> = v.iter().map(|&v| v as i8).collect();
            check_exact_chunks(View::Int8(&b));
            let ub: Vec<u8> = v.iter().map(|&v| v as u8).collect();
            check_exact_chunks(View::UInt8(&ub));
            let t: Vec<bool> = v.iter().map(|&v| v & 1 == 1).collect();
            check_exact_chunks(View::Bool(&t));
        }
        // the extremes: every chunk's sum as large as it gets, of either sign, or cancelling
        let n = 5 * 8192 + 3;
        check_exact_chunks(View::Int32(&vec![i32::MAX; n]));
        check_exact_chunks(View::Int32(&vec![i32::MIN; n]));
        check_exact_chunks(View::UInt32(&vec![u32::MAX; n]));
        let alt: Vec<i32> = (0..n)
            .map(|i| if i % 2 == 0 { i32::MIN } else { i32::MAX })
            .collect();
        check_exact_chunks(View::Int32(&alt));
    }

    #[test]
    fn integer_mean_sums_past_2_pow_53_as_before() {
        let _path = crate::kernel::arch::path_lock();
        // chunk sums near 2^43.6 with random low bits: the running total passes 2^53 after
        // about 700 chunks, and from there on each addition rounds (odd sums, ulp 2)
        let n = 6_000_000;
        for (lo, hi) in [
            (1i64 << 30, i32::MAX as i64),
            (i32::MIN as i64, -(1i64 << 30)),
        ] {
            let x: Vec<i32> = rand_i64(n, 11, lo, hi).iter().map(|&v| v as i32).collect();
            // the running total rounds: somewhere it is not the exact sum so far
            let (mut acc, mut exact, mut rounded) = (0.0f64, 0i64, false);
            for c in x.chunks(NUMPY_BUFSIZE) {
                exact += c.iter().map(|&v| v as i64).sum::<i64>();
                acc += float_chunk_sums(View::Int32(c))[0];
                rounded |= acc as i64 != exact;
            }
            assert!(acc.abs() > 2f64.powi(53) && rounded);
            check_exact_chunks(View::Int32(&x));
        }
    }
}
