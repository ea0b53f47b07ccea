//! Which NaN a framework's vector code writes ([`OpSemantics::nans`](super::OpSemantics::nans)):
//! PyTorch's kernels compute most float ops with MKL VML or SLEEF, or blend a NaN mask in, and
//! convert float32 to float16/bfloat16 with AVX-512 instructions; the NaN that comes out is not
//! the C library's `−nan`/`+nan`. A [`NanRule`] names the ops and compute dtypes it holds for,
//! the elements the vector code computes ([`Lanes`]), and the NaN it writes there for a NaN
//! operand and for a NaN of ordinary operands ([`NanOut`]). `apply` rewrites the NaNs of a
//! computed result by the first rule of the op; every other value stays as computed.
//!
//! ```
//! use promote::kernel::ops::nans::{Lanes, NanOut, NanRule};
//! use promote::DType;
//! let rule = NanRule {
//!     ops: &["maximum"],
//!     dtypes: &[DType::Float32],
//!     lanes: Lanes::Body(64),
//!     of_nan: NanOut::AllOnes,
//!     of_domain: NanOut::Keep,
//! };
//! assert!(rule.holds("maximum", DType::Float32));
//! assert!(rule.lanes.vector(15, 16, 4) && !rule.lanes.vector(16, 17, 4));
//! ```

use crate::kernel::array::{Element, View, ViewMut};
use crate::DType;
use half::{bf16, f16};

/// The elements of a result the framework's vector code computes; the others come from its
/// scalar code (the C library's function, converted to a half type by c10's scalar conversion).
///
/// ```
/// use promote::kernel::ops::nans::Lanes;
/// // PyTorch's `vectorized_loop` of two 64-byte registers: float32 in steps of 32
/// assert!(Lanes::Body(128).vector(31, 64, 4));
/// assert!(!Lanes::Body(128).vector(32, 63, 4));
/// assert!(Lanes::All.vector(0, 1, 2));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lanes {
    /// Every element (`vml`'s `map`, whose last partial vector is loaded, computed and stored
    /// by the vector function too).
    All,
    /// The first `n − n mod (bytes / itemsize)` elements: a loop that takes this many bytes of
    /// the compute dtype per step, then finishes the rest one by one (`cpu_kernel_vec`).
    Body(usize),
}

impl Lanes {
    /// Whether element `i` of `n`, of a dtype of `size` bytes, is the vector code's.
    ///
    /// ```
    /// use promote::kernel::ops::nans::Lanes;
    /// assert!(!Lanes::Body(64).vector(0, 1, 8));
    /// ```
    pub fn vector(self, i: usize, n: usize, size: usize) -> bool {
        match self {
            Lanes::All => true,
            Lanes::Body(bytes) => {
                let step = (bytes / size.max(1)).max(1);
                i < n - n % step
            }
        }
    }
}

/// The NaN the vector code writes, in its float type (float32 for the half types).
///
/// ```
/// use promote::kernel::ops::nans::NanOut;
/// assert_ne!(NanOut::AllOnes, NanOut::Keep);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NanOut {
    /// The NaN as computed.
    Keep,
    /// The positive quiet NaN (MKL VML's `vsLn(-1)`).
    Positive,
    /// The negative quiet NaN, x86's default NaN (MKL VML's `vsAsin(2)`).
    Negative,
    /// Every bit set (SLEEF's `vor` of a NaN mask into its result, PyTorch's `maximum` blend).
    AllOnes,
    /// The first operand with the exponent's and the quiet bit set (AVX-512's `vfixupimm`
    /// "QNaN(src)", which SLEEF's `logf` answers for a negative operand).
    QuietOperand,
    /// The negative quiet NaN with the first operand's sign applied (`mulsign(−nan, x)`: SLEEF's
    /// `asinf(2)` is `−nan`, `asinf(−2.5)` `+nan`).
    AgainstOperandSign,
}

/// Where the vector code writes its own NaN: the ops (kernel names) and compute dtypes, the
/// elements, and the NaN of a NaN operand and of ordinary operands ("domain": `log(-1)`).
///
/// ```
/// use promote::kernel::ops::nans::{Lanes, NanOut, NanRule};
/// use promote::DType;
/// let log = NanRule {
///     ops: &["log"],
///     dtypes: &[DType::Float32],
///     lanes: Lanes::All,
///     of_nan: NanOut::Keep,
///     of_domain: NanOut::Positive,
/// };
/// assert!(!log.holds("log", DType::Float64));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NanRule {
    /// The kernel names.
    pub ops: &'static [&'static str],
    /// The compute dtypes (float16, bfloat16, float32, float64).
    pub dtypes: &'static [DType],
    /// The elements the vector code computes.
    pub lanes: Lanes,
    /// What it writes where an operand is NaN.
    pub of_nan: NanOut,
    /// What it writes where no operand is NaN but the result is.
    pub of_domain: NanOut,
}

impl NanRule {
    /// Whether the rule holds for `op` (a kernel name) computing in `compute`.
    ///
    /// ```
    /// use promote::kernel::ops::nans::{Lanes, NanOut, NanRule};
    /// use promote::DType;
    /// let r = NanRule { ops: &["sinh"], dtypes: &[DType::Float64], lanes: Lanes::Body(128),
    ///                   of_nan: NanOut::AllOnes, of_domain: NanOut::Keep };
    /// assert!(r.holds("sinh", DType::Float64));
    /// ```
    pub fn holds(&self, op: &str, compute: DType) -> bool {
        self.ops.contains(&op) && self.dtypes.contains(&compute)
    }
}

/// A float element as the NaN rules read and write it: its bits widened to the vector code's
/// float type (float32 for the half types), and back.
trait NanBits: Element + Copy {
    /// The widened type is float64.
    const WIDE64: bool;
    fn is_nan(self) -> bool;
    fn wide(self) -> u64;
    /// A NaN of the widened type as the vector code converts it.
    fn from_vector(w: u64) -> Self;
    /// A NaN as the scalar code converts it (c10's `Half`/`BFloat16` from float).
    fn scalar(self) -> Self;
}

impl NanBits for f32 {
    const WIDE64: bool = false;
    fn is_nan(self) -> bool {
        f32::is_nan(self)
    }
    fn wide(self) -> u64 {
        self.to_bits() as u64
    }
    fn from_vector(w: u64) -> f32 {
        f32::from_bits(w as u32)
    }
    fn scalar(self) -> f32 {
        self
    }
}

impl NanBits for f64 {
    const WIDE64: bool = true;
    fn is_nan(self) -> bool {
        f64::is_nan(self)
    }
    fn wide(self) -> u64 {
        self.to_bits()
    }
    fn from_vector(w: u64) -> f64 {
        f64::from_bits(w)
    }
    fn scalar(self) -> f64 {
        self
    }
}

impl NanBits for f16 {
    const WIDE64: bool = false;
    fn is_nan(self) -> bool {
        f16::is_nan(self)
    }
    /// The float32 value (a subnormal normalized, as `vcvtph2ps` widens it).
    fn wide(self) -> u64 {
        self.to_f32().to_bits() as u64
    }
    /// `vcvtps2ph`: the sign, the payload's top ten bits, the quiet bit set.
    fn from_vector(w: u64) -> f16 {
        let sign = ((w >> 16) & 0x8000) as u16;
        f16::from_bits(sign | 0x7e00 | ((w >> 13) & 0x3ff) as u16)
    }
    /// c10's `fp16_ieee_from_fp32_value`: the sign and `0x7e00`.
    fn scalar(self) -> f16 {
        f16::from_bits((self.to_bits() & 0x8000) | 0x7e00)
    }
}

impl NanBits for bf16 {
    const WIDE64: bool = false;
    fn is_nan(self) -> bool {
        bf16::is_nan(self)
    }
    fn wide(self) -> u64 {
        (self.to_bits() as u64) << 16
    }
    /// `cvtfp32_bf16` (aten/src/ATen/cpu/vec/vec512/vec512_bfloat16.h) blends `0xffff` into
    /// every unordered lane.
    fn from_vector(_w: u64) -> bf16 {
        bf16::from_bits(0xffff)
    }
    /// c10's `round_to_nearest_even`: every NaN is `0x7fc0`.
    fn scalar(self) -> bf16 {
        bf16::from_bits(0x7fc0)
    }
}

/// The NaNs of `out` (the result of `op` computed in `compute` from `inputs`) rewritten by the
/// first of `rules` that holds for them; nothing where none holds or the result is not of the
/// compute dtype.
pub(crate) fn apply(
    rules: &[NanRule],
    op: &str,
    compute: DType,
    inputs: &[View<'_>],
    out: ViewMut<'_>,
) {
    if out.dtype() != compute {
        return;
    }
    let Some(rule) = rules.iter().find(|r| r.holds(op, compute)) else {
        return;
    };
    match out {
        ViewMut::Float16(o) => rewrite(rule, inputs, o),
        ViewMut::BFloat16(o) => rewrite(rule, inputs, o),
        ViewMut::Float32(o) => rewrite(rule, inputs, o),
        ViewMut::Float64(o) => rewrite(rule, inputs, o),
        _ => {}
    }
}

fn rewrite<T: NanBits>(rule: &NanRule, inputs: &[View<'_>], out: &mut [T]) {
    let n = out.len();
    if !out.iter().any(|v| v.is_nan()) {
        return;
    }
    // the operands in the compute dtype
    let cast: Vec<crate::kernel::array::Array> = inputs
        .iter()
        .map(|v| crate::kernel::cast::cast_array(*v, T::DTYPE))
        .collect();
    let operands: Vec<&[T]> = cast
        .iter()
        .map(|a| T::slice(a.view()).expect("cast to the compute dtype"))
        .collect();
    let at = |x: &[T], i: usize| if x.len() == 1 { x[0] } else { x[i] };
    let size = T::DTYPE.itemsize();
    for (i, o) in out.iter_mut().enumerate() {
        if !o.is_nan() {
            continue;
        }
        if !rule.lanes.vector(i, n, size) {
            *o = o.scalar();
            continue;
        }
        let nan_operand = operands.iter().any(|x| at(x, i).is_nan());
        let kind = if nan_operand {
            rule.of_nan
        } else {
            rule.of_domain
        };
        let first = operands.first().map_or(0, |x| at(x, i).wide());
        *o = T::from_vector(wide_nan::<T>(kind, o.wide(), first));
    }
}

/// The NaN `kind` of the widened type, `computed` the NaN as computed, `first` the first
/// operand (both widened).
fn wide_nan<T: NanBits>(kind: NanOut, computed: u64, first: u64) -> u64 {
    let (quiet, sign, ones) = if T::WIDE64 {
        (0x7ff8_0000_0000_0000, 1 << 63, u64::MAX)
    } else {
        (0x7fc0_0000, 0x8000_0000, 0xffff_ffff)
    };
    match kind {
        NanOut::Keep => computed,
        NanOut::Positive => quiet,
        NanOut::Negative => quiet | sign,
        NanOut::AllOnes => ones,
        NanOut::QuietOperand => first | quiet,
        NanOut::AgainstOperandSign => quiet | ((first & sign) ^ sign),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_nans_convert_as_the_vector_and_scalar_code_do() {
        // vcvtps2ph keeps the payload's top bits; SLEEF's all-ones NaN is 0xffff
        assert_eq!(f16::from_vector(0xffff_ffff).to_bits(), 0xffff);
        assert_eq!(f16::from_vector(0xffe0_0000).to_bits(), 0xff00);
        assert_eq!(bf16::from_vector(0x7fc0_0000).to_bits(), 0xffff);
        assert_eq!(bf16::from_bits(0xffc0).scalar().to_bits(), 0x7fc0);
        assert_eq!(f16::from_bits(0xfe13).scalar().to_bits(), 0xfe00);
    }

    #[test]
    fn a_subnormal_float16_operand_is_normalized_first() {
        // log of float16 0x8282: QNaN of the float32 value, 0xff04 (recorded)
        let first = f16::from_bits(0x8282).wide();
        let q = wide_nan::<f16>(NanOut::QuietOperand, 0, first);
        assert_eq!(f16::from_vector(q).to_bits(), 0xff04);
    }

    #[test]
    fn the_kinds_of_nan() {
        // log of float16 −2.5 (0xc100, widened 0xc0200000): QNaN(src)
        let first = f16::from_bits(0xc100).wide();
        let q = wide_nan::<f16>(NanOut::QuietOperand, 0, first);
        assert_eq!(f16::from_vector(q).to_bits(), 0xff00);
        let a = wide_nan::<f32>(NanOut::AgainstOperandSign, 0, 2.0f32.wide());
        assert_eq!(a, 0xffc0_0000);
        let a = wide_nan::<f32>(NanOut::AgainstOperandSign, 0, (-2.5f32).wide());
        assert_eq!(a, 0x7fc0_0000);
        assert_eq!(
            wide_nan::<f64>(NanOut::Positive, 0, 0),
            0x7ff8_0000_0000_0000
        );
    }
}
