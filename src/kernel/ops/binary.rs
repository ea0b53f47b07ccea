//! The further binary element functions ([`BinaryElem`]), broadcast over two operands.
//!
//! * shifts: a shift by a negative amount or by the width or more gives 0 (`left_shift`), or
//!   the sign fill (`right_shift`), as NumPy's `npy_lshift`/`npy_rshift` and PyTorch do;
//! * `fmod` of ints truncates (C's `%`), by 0 gives 0 (JAX's of two bools: the dividend); `divmod` is `(floor_divide, remainder)`
//!   as the semantics compute those two ops (`kernel::compute::binary`: JAX's integer division
//!   by zero, its float floor division, flushing);
//! * `nextafter` steps the storage type's bits (float16 by NumPy's `npy_half_nextafter`), the
//!   rest runs in the working type (float16, bfloat16: `f32`, rounded once);
//! * `float_power` is the semantics' `power` of floats and complex numbers (JAX 0.10.2's
//!   `jnp.float_power` is `lax.pow` after `promote_args_inexact`: XLA's `pow` under DAZ/FTZ,
//!   `EmitComplexPower`), else the C library's `pow` (complex: as the semantics' `power`).
//!
//! ```
//! use promote::kernel::ops::binary::{Binary, BinaryElem, Ctx};
//! use promote::kernel::ops::OP_SEMANTICS;
//! use promote::kernel::Semantics;
//! let (s, sem) = (&OP_SEMANTICS[0], &Semantics::NUMPY);
//! let c = Ctx { s, sem, tie_second: false, half: None, vectorized: false, fmod_zero_keeps_dividend: false };
//! assert_eq!(<i8 as BinaryElem>::binary(Binary::LeftShift, 1, 8, &c), Some(0));
//! assert_eq!(<i8 as BinaryElem>::binary(Binary::RightShift, -5, 9, &c), Some(-1));
//! assert_eq!(<f64 as BinaryElem>::binary(Binary::Heaviside, 0.0, 0.5, &c), Some(0.5));
//! ```

use half::{bf16, f16};

use crate::kernel::libm::svml::atan2::SvmlAtan2;

use super::{with_slice, Args, OpError, OpSemantics};
use crate::kernel::array::{Array, Element, C32, C64};
use crate::kernel::compute::{Arith, Half, IntDivZero, KernelError, Semantics};
use crate::kernel::exec::Work;
use crate::kernel::libm::xla_complex::XlaComplex;
use crate::kernel::xla::{under_daz_ftz, XlaOps};
use crate::{with_dtype, DType};

/// A binary op of issue 12.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Binary {
    LeftShift,
    RightShift,
    Arctan2,
    Hypot,
    Copysign,
    Logaddexp,
    Nextafter,
    Fmax,
    Fmin,
    Fmod,
    FloatPower,
    Divmod,
    Heaviside,
}

/// The binary ops by NumPy name.
pub const NAMES: &[(&str, Binary)] = &[
    ("left_shift", Binary::LeftShift),
    ("right_shift", Binary::RightShift),
    ("arctan2", Binary::Arctan2),
    ("hypot", Binary::Hypot),
    ("copysign", Binary::Copysign),
    ("logaddexp", Binary::Logaddexp),
    ("nextafter", Binary::Nextafter),
    ("fmax", Binary::Fmax),
    ("fmin", Binary::Fmin),
    ("fmod", Binary::Fmod),
    ("float_power", Binary::FloatPower),
    ("divmod", Binary::Divmod),
    ("heaviside", Binary::Heaviside),
];

/// The binary op of a NumPy name.
pub fn lookup(name: &str) -> Option<(&'static str, Binary)> {
    NAMES.iter().find(|(n, _)| *n == name).copied()
}

/// What a binary element function needs to know besides its operands.
#[derive(Clone, Copy, Debug)]
pub struct Ctx<'a> {
    /// The op semantics.
    pub s: &'a OpSemantics,
    /// The kernel semantics (complex `power`).
    pub sem: &'a Semantics,
    /// `fmax`/`fmin` of equal operands give the second (see [`OpSemantics::fmax_tie_second`]).
    pub tie_second: bool,
    /// The half type a working `f32` stands for (its formulas round to it after every step
    /// where the framework computes them op by op: [`OpSemantics::hypot_jnp`]).
    pub half: Option<Half>,
    /// The element lies in the framework's vectorized loop, not its scalar tail (see
    /// [`OpSemantics::sleef_step_bytes`]).
    pub vectorized: bool,
    /// An integer `fmod` by zero gives the dividend (see
    /// [`OpSemantics::fmod_bool_zero_keeps_dividend`]), not 0.
    pub fmod_zero_keeps_dividend: bool,
}

/// SLEEF's functions of a working float type ([`OpSemantics::sleef_step_bytes`]).
trait Sleef: Sized {
    /// Whether [`Sleef::logaddexp`] is SLEEF's (float64 only: PyTorch's float32 one is not
    /// ported).
    const HAS_LOGADDEXP: bool;
    fn logaddexp(a: Self, b: Self) -> Self;
    /// `Sleef_atan2f16_u10`/`Sleef_atan2d8_u10` (`Vectorized<T>::atan2`).
    fn atan2(a: Self, b: Self) -> Self;
    /// Whether [`Sleef::pow`] is SLEEF's (float64 only: `float_power` computes in double).
    const HAS_POW: bool;
    /// `Sleef_powd8_u10` (`Vectorized<double>::pow`).
    fn pow(a: Self, b: Self) -> Self;
}
impl Sleef for f32 {
    const HAS_LOGADDEXP: bool = false;
    fn logaddexp(a: f32, _b: f32) -> f32 {
        a
    }
    fn atan2(a: f32, b: f32) -> f32 {
        crate::kernel::libm::sleef::atan2_f32(a, b)
    }
    const HAS_POW: bool = false;
    fn pow(a: f32, b: f32) -> f32 {
        a.powf(b)
    }
}
impl Sleef for f64 {
    const HAS_LOGADDEXP: bool = true;
    fn logaddexp(a: f64, b: f64) -> f64 {
        crate::kernel::libm::sleef::logaddexp_f64(a, b)
    }
    fn atan2(a: f64, b: f64) -> f64 {
        crate::kernel::libm::sleef::atan2_f64(a, b)
    }
    const HAS_POW: bool = true;
    fn pow(a: f64, b: f64) -> f64 {
        crate::kernel::libm::sleef::pow_f64(a, b)
    }
}

/// The binary element functions of a working type; `None` where the type has none.
pub trait BinaryElem: Arith {
    /// `op(a, b)` (not `divmod`, not `nextafter`: see [`run`]).
    fn binary(op: Binary, a: Self, b: Self, c: &Ctx<'_>) -> Option<Self>;
}

impl BinaryElem for bool {
    fn binary(op: Binary, a: bool, b: bool, c: &Ctx<'_>) -> Option<bool> {
        match op {
            // std::copysign(double(a), double(b)): b is never negative
            Binary::Copysign if c.s.int_copysign_via_double => Some(a),
            Binary::Fmax => Some(a | b),
            Binary::Fmin => Some(a & b),
            Binary::Heaviside => Some(if a { true } else { b }),
            _ => None,
        }
    }
}

macro_rules! binary_int {
    ($($t:ty),*) => {$(
        impl BinaryElem for $t {
            #[allow(unused_comparisons)]
            fn binary(op: Binary, a: $t, b: $t, c: &Ctx<'_>) -> Option<$t> {
                const BITS: u64 = <$t>::BITS as u64;
                // a negative amount reads as a huge one (NumPy's `(size_t) b`); TensorFlow
                // clamps it to [0, bits - 1]
                let amount = match (b < 0, c.s.shift_amount_clamped) {
                    (true, true) => 0,
                    (true, false) => u64::MAX,
                    (false, true) => (b as u64).min(BITS - 1),
                    (false, false) => b as u64,
                };
                Some(match op {
                    Binary::Fmax | Binary::Fmin if c.s.int_fmax_via_float && <$t>::MIN != 0 && BITS >= 32 => {
                        fmax_via_float(op == Binary::Fmax, a as i64, b as i64, BITS) as $t
                    }
                    Binary::LeftShift => if amount < BITS { a << amount } else { 0 },
                    Binary::RightShift => {
                        if amount < BITS { a >> amount } else if a < 0 { (0 as $t).wrapping_sub(1) } else { 0 }
                    }
                    Binary::Copysign if c.s.int_copysign_via_double => {
                        crate::kernel::cast::cast::<f64, $t>((a as f64).copysign(b as f64))
                    }
                    Binary::Fmax => a.max(b),
                    Binary::Fmin => a.min(b),
                    Binary::Fmod if b == 0 => if c.fmod_zero_keeps_dividend { a } else { 0 },
                    Binary::Fmod => a.wrapping_rem(b),
                    // PyTorch's `a == 0 ? b : (a > 0)`
                    Binary::Heaviside => if a == 0 { b } else if a > 0 { 1 } else { 0 },
                    _ => return None,
                })
            }
        }
    )*};
}
binary_int!(u8, u16, u32, u64, i8, i16, i32, i64);

macro_rules! binary_float {
    ($($t:ty),*) => {$(
        impl BinaryElem for $t {
            fn binary(op: Binary, a: $t, b: $t, c: &Ctx<'_>) -> Option<$t> {
                let s = c.s;
                const LN2: $t = std::f64::consts::LN_2 as $t;
                // what a comparison reads: subnormals as zero where selects compare flushed
                let (ca, cb) = if s.selects_compare_flushed { (a.flush(), b.flush()) } else { (a, b) };
                Some(match op {
                    Binary::Arctan2 if s.atan2_eigen && c.vectorized => {
                        crate::kernel::libm::eigen::EigenAtan::eigen_atan2(a, b)
                    }
                    Binary::Arctan2 if s.atan2_under_daz || s.atan2_eigen => under_daz_ftz(|| a.atan2(b)),
                    Binary::Arctan2 if s.atan2_svml && c.half.is_none() && <$t as SvmlAtan2>::PORTED => {
                        <$t as SvmlAtan2>::svml_atan2(a, b)
                    }
                    Binary::Arctan2 if c.vectorized && s.sleef_step_bytes > 0 => <$t as Sleef>::atan2(a, b),
                    Binary::Arctan2 => a.atan2(b),
                    // Paddle's float32/float64 hypot is `paddle_hypot` (squares by position)
                    Binary::Hypot if s.hypot_by_squares => (a * a + b * b).sqrt(),
                    Binary::Hypot if s.hypot_jnp => {
                        // jnp.hypot, each lax op rounded (half types) and flushed (FTZ); XLA
                        // contracts `1 + q * q` into a fused multiply-add where nothing rounds
                        // between them
                        let r = |x: $t| { let x = c.half.map_or(x, |h| h.round(x)); if s.ftz { x.flush() } else { x } };
                        let (x1, x2) = (a.abs(), b.abs());
                        let inf = x1 == <$t>::INFINITY || x2 == <$t>::INFINITY;
                        let nan = x1.is_nan() || x2.is_nan();
                        let (hi, lo) = if nan { (<$t>::NAN, <$t>::NAN) } else { (x1.max(x2), x1.min(x2)) };
                        let q = r(lo / if hi == 0.0 { 1.0 } else { hi });
                        let one_plus = if c.half.is_some() { r(1.0 + r(q * q)) } else { r(q.mul_add(q, 1.0)) };
                        let x = if hi == 0.0 { hi } else { r(hi * r(one_plus.sqrt())) };
                        if inf { <$t>::INFINITY } else { x }
                    }
                    Binary::Hypot => a.hypot(b),
                    Binary::Logaddexp if c.vectorized && <$t as Sleef>::HAS_LOGADDEXP => {
                        <$t as Sleef>::logaddexp(a, b)
                    }
                    Binary::Logaddexp if s.logaddexp_paddle => {
                        // maximum: a NaN operand wins (Paddle's MaximumFunctor), else a > b ? a : b
                        let m = if a.is_nan() || a > b { a } else { b };
                        let e = -(a - b).abs();
                        let e = if s.exp_eigen { crate::kernel::libm::eigen::EigenExp::eigen_exp(e) } else { e.exp() };
                        e.ln_1p() + m
                    }
                    Binary::Copysign => a.copysign(b),
                    Binary::Logaddexp if s.logaddexp_numpy => {
                        if a == b {
                            a + LN2
                        } else {
                            let d = a - b;
                            if d > 0.0 {
                                a + (-d).exp().ln_1p()
                            } else if d <= 0.0 {
                                b + d.exp().ln_1p()
                            } else {
                                d
                            }
                        }
                    }
                    Binary::Logaddexp if s.xla_real_fns => {
                        // JAX's lax_other.logaddexp with XLA's own exp and log1p, each op
                        // rounded to a half type (float16 HLO, bfloat16 normalized op by op)
                        // and flushed
                        let r = |x: $t| { let x = c.half.map_or(x, |h| h.round(x)); if s.ftz { x.flush() } else { x } };
                        crate::kernel::libm::xla_math::logaddexp_steps(a, b, r)
                    }
                    Binary::Logaddexp => {
                        if a.is_infinite() && a == b {
                            a
                        } else {
                            let m = if a < b { b } else { a };
                            m + (-(a - b).abs()).exp().ln_1p()
                        }
                    }
                    Binary::Fmax | Binary::Fmin => {
                        let first = if op == Binary::Fmax { ca > cb } else { ca < cb };
                        if b.is_nan() || first || (ca == cb && !c.tie_second) { a } else { b }
                    }
                    // the C library's fmod under DAZ: a subnormal divisor reads as zero (NaN), the
                    // rest is exact on the operands as they are
                    Binary::Fmod if s.fmod_under_daz && b.flush() == 0.0 => <$t>::NAN,
                    // PyTorch's vector lanes (SLEEF's fmod): ops::fmod_lanes, after the kernel
                    Binary::Fmod => a % b,
                    // JAX's `float_power` is `lax.pow`, as its `power` of floats
                    Binary::FloatPower if c.sem.float_pow_under_daz => <$t as XlaOps>::xla_pow(a, b),
                    Binary::FloatPower if c.vectorized && s.sleef_step_bytes > 0 && <$t as Sleef>::HAS_POW => {
                        <$t as Sleef>::pow(a, b)
                    }
                    Binary::FloatPower => a.powf(b),
                    Binary::Heaviside => {
                        if a.is_nan() {
                            if s.heaviside_nan_is_nan { a } else { 0.0 }
                        } else if ca == 0.0 {
                            b
                        } else if a < 0.0 {
                            0.0
                        } else {
                            1.0
                        }
                    }
                    _ => return None,
                })
            }
        }
    )*};
}
binary_float!(f32, f64);

macro_rules! binary_complex {
    ($($c:ty),*) => {$(
        impl BinaryElem for $c {
            fn binary(op: Binary, a: $c, b: $c, c: &Ctx<'_>) -> Option<$c> {
                let nan = |z: $c| z.re.is_nan() || z.im.is_nan();
                // lexicographic order, as NumPy's complex fmax/fmin compare
                let ge = a.re > b.re || (a.re == b.re && a.im >= b.im);
                let le = a.re < b.re || (a.re == b.re && a.im <= b.im);
                if c.s.selects_compare_flushed && matches!(op, Binary::Fmax | Binary::Fmin) {
                    // where(x1 > x2 | isnan(x2), x1, x2) by XLA's select on the parts, compared
                    // with subnormal parts read as zero
                    let (x, y) = (a.flush(), b.flush());
                    let pick = if op == Binary::Fmax { <$c as XlaOps>::xla_lt(y, x) } else { <$c as XlaOps>::xla_lt(x, y) };
                    return Some(if pick || nan(b) { a } else { b });
                }
                Some(match op {
                    // Paddle's math.py hypot on complex tensors: `pow(x, 2)` is std::pow of
                    // complex numbers (the C library's cpow: pow(1j, 2) is -1-8.7e-08j in
                    // complex64), the sum, then its complex sqrt as Paddle's sqrt computes it
                    Binary::Hypot if c.s.hypot_by_squares => {
                        let two = <$c>::new(2.0, 0.0);
                        let (x, y) = (<$c as Arith>::pow_libm(a, two), <$c as Arith>::pow_libm(b, two));
                        let sum = <$c>::new(x.re + y.re, x.im + y.im);
                        <$c as super::unary::UnaryElem>::same(super::unary::Unary::Sqrt, sum, c.s)?
                    }
                    Binary::Arctan2 if c.s.complex_fns_xla => <$c as XlaComplex>::xla_atan2(a, b),
                    Binary::Logaddexp if c.s.complex_fns_xla => <$c as XlaComplex>::xla_logaddexp(a, b),
                    Binary::Fmax => if nan(b) || (!nan(a) && ge) { a } else { b },
                    Binary::Fmin => if nan(b) || (!nan(a) && le) { a } else { b },
                    Binary::FloatPower if c.sem.complex_pow_xla => <$c as XlaOps>::xla_pow(a, b),
                    Binary::FloatPower if c.sem.complex_pow_libm => <$c as Arith>::pow_libm(a, b),
                    Binary::FloatPower => <$c as Arith>::pow(a, b),
                    Binary::Logaddexp if c.s.complex_logaddexp_torch => torch_logaddexp(a, b, c.s)?,
                    _ => return None,
                })
            }
        }
    )*};
}
binary_complex!(C32, C64);

/// PyTorch's complex `logaddexp` ([`OpSemantics::complex_logaddexp_torch`]):
/// `_log_add_exp_helper` of aten/src/ATen/native/cpu/LogAddExp.h, run element by element
/// (`cpu_kernel`). The operands ordered by their real parts (`_logcumsumexp_minmax`: a NaN
/// part makes both that operand, the second first); a NaN gives `nan+nanj` (the positive quiet
/// NaN); equal infinite real parts give the smaller operand where negative, else
/// `log(exp(min) + exp(max))`; otherwise `log1p(exp(min − max)) + max`, with the C library's
/// complex `exp` and `log` and c10's complex `log1p` ([`OpSemantics::complex_log1p_torch`]).
fn torch_logaddexp<C, F>(x: C, y: C, s: &OpSemantics) -> Option<C>
where
    C: super::unary::UnaryElem + ComplexOf<F>,
    F: num_traits::Float,
{
    use super::unary::Unary;
    let nan = |z: C| z.re().is_nan() || z.im().is_nan();
    let (min, max) = if nan(y) {
        (y, y)
    } else if nan(x) {
        (x, x)
    } else if x.re() < y.re() {
        (x, y)
    } else {
        (y, x)
    };
    if nan(min) {
        return Some(C::of(F::nan(), F::nan()));
    }
    let (exp, log) = (
        |z: C| C::same(Unary::Exp, z, s),
        |z: C| C::same(Unary::Log, z, s),
    );
    if !min.re().is_finite() && min.re() == max.re() {
        if min.re() < F::zero() {
            return Some(min);
        }
        let (a, b) = (exp(min)?, exp(max)?);
        return log(C::of(a.re() + b.re(), a.im() + b.im()));
    }
    let e = exp(C::of(min.re() - max.re(), min.im() - max.im()))?;
    let l = C::same(Unary::Log1p, e, s)?;
    Some(C::of(l.re() + max.re(), l.im() + max.im()))
}

/// A complex number of parts `F`, built and read.
trait ComplexOf<F>: Copy {
    fn of(re: F, im: F) -> Self;
    fn re(self) -> F;
    fn im(self) -> F;
}

impl<F: Copy> ComplexOf<F> for num_complex::Complex<F> {
    fn of(re: F, im: F) -> Self {
        num_complex::Complex::new(re, im)
    }
    fn re(self) -> F {
        self.re
    }
    fn im(self) -> F {
        self.im
    }
}

/// Paddle's int32/int64 `fmax`/`fmin` (`max`: fmax, else fmin): int32 through `float` and
/// `lrint` (a `long`, converted to `int` modulo 2³²), int64 through `double` and `llrint`
/// (x86's conversion: out of range is the minimum), as `FMaxFunctor<int>` computes.
fn fmax_via_float(max: bool, a: i64, b: i64, bits: u64) -> i64 {
    if bits == 32 {
        let (x, y) = (a as f32, b as f32);
        let r = if max { x.max(y) } else { x.min(y) };
        (r as i64) as i32 as i64
    } else {
        let (x, y) = (a as f64, b as f64);
        let r = if max { x.max(y) } else { x.min(y) };
        crate::kernel::cast::cast::<f64, i64>(r)
    }
}

/// `nextafter` on the bits of a float type.
pub trait NextAfter: Copy {
    /// The next representable value after `a` toward `b` (equal operands: `b` when
    /// `equal_second`, else `a`; the C library's float32/float64 `nextafter` always gives `b`).
    fn next_after(a: Self, b: Self, equal_second: bool) -> Self;
}

mod sys {
    extern "C" {
        // C99 <math.h>
        pub fn nextafter(a: f64, b: f64) -> f64;
        pub fn nextafterf(a: f32, b: f32) -> f32;
    }
}

impl NextAfter for f64 {
    fn next_after(a: f64, b: f64, _equal_second: bool) -> f64 {
        // SAFETY: a pure libm function on plain values.
        unsafe { sys::nextafter(a, b) }
    }
}

impl NextAfter for f32 {
    fn next_after(a: f32, b: f32, _equal_second: bool) -> f32 {
        // SAFETY: as above.
        unsafe { sys::nextafterf(a, b) }
    }
}

/// NumPy's `npy_half_nextafter` on 16-bit patterns (`nan`: the type's quiet NaN); equal
/// operands give `x`, or `y` when `equal_second` (musl's `nextafter`, PyTorch's).
fn next_after_bits16(
    x: u16,
    y: u16,
    is_nan: impl Fn(u16) -> bool,
    nan: u16,
    equal_second: bool,
) -> u16 {
    if is_nan(x) || is_nan(y) {
        nan
    } else if x == y || (x & 0x7fff == 0 && y & 0x7fff == 0) {
        if equal_second {
            y
        } else {
            x
        }
    } else if x & 0x7fff == 0 {
        (y & 0x8000) + 1
    } else if x & 0x8000 == 0 {
        if (x as i16) > (y as i16) {
            x - 1
        } else {
            x + 1
        }
    } else if y & 0x8000 == 0 || (x & 0x7fff) > (y & 0x7fff) {
        x - 1
    } else {
        x + 1
    }
}

impl NextAfter for f16 {
    fn next_after(a: f16, b: f16, equal_second: bool) -> f16 {
        f16::from_bits(next_after_bits16(
            a.to_bits(),
            b.to_bits(),
            |x| f16::from_bits(x).is_nan(),
            0x7e00,
            equal_second,
        ))
    }
}

impl NextAfter for bf16 {
    fn next_after(a: bf16, b: bf16, equal_second: bool) -> bf16 {
        bf16::from_bits(next_after_bits16(
            a.to_bits(),
            b.to_bits(),
            |x| bf16::from_bits(x).is_nan(),
            0x7fc0,
            equal_second,
        ))
    }
}

fn broadcast(a: usize, b: usize) -> Result<usize, KernelError> {
    match (a, b) {
        _ if a == b => Ok(a),
        (1, n) | (n, 1) => Ok(n),
        _ => Err(KernelError::Shape(format!(
            "operands of lengths {a} and {b} do not broadcast"
        ))),
    }
}

/// `f` over the broadcast pairs.
fn zip_map<A: Copy, R>(
    x: &[A],
    y: &[A],
    n: usize,
    mut f: impl FnMut(A, A) -> Option<R>,
) -> Option<Vec<R>> {
    let (sx, sy) = (usize::from(x.len() > 1), usize::from(y.len() > 1));
    (0..n).map(|k| f(x[k * sx], y[k * sy])).collect()
}

/// Runs a binary op: both operands cast to `args.compute`, the element function, the values
/// cast to `args.result` (`divmod`: two arrays); `Ok(None)` when the compute dtype has no such
/// function.
pub fn run(
    op: Binary,
    sem: &Semantics,
    s: &OpSemantics,
    args: &Args<'_>,
) -> Result<Option<Vec<Array>>, OpError> {
    let n = broadcast(args.inputs[0].len(), args.inputs[1].len())?;
    if op == Binary::Fmod && args.compute.is_integer() && sem.int_div_zero == IntDivZero::Error {
        // PyTorch refuses an integer `fmod` by zero as it refuses `remainder`
        let nonzero = crate::kernel::cast::cast_array(args.inputs[1], DType::Bool);
        if bool::slice(nonzero.view()).is_some_and(|b| b.contains(&false)) {
            return Err(KernelError::DivisionByZero.into());
        }
    }
    let integers = args.inputs.iter().all(|v| v.dtype().is_integer());
    if op == Binary::Arctan2 && s.atan2_int_in_f32 && integers && args.compute == DType::Float64 {
        // Paddle's Atan2Functor<int>: atan2f of the operands as float, widened
        let narrow = Args {
            compute: DType::Float32,
            ..*args
        };
        return run(op, sem, s, &narrow);
    }
    let out = match (op, args.compute) {
        (Binary::Nextafter, DType::Float16) => next_after::<f16>(args, n, s),
        (Binary::Nextafter, DType::BFloat16) => next_after::<bf16>(args, n, s),
        (Binary::Nextafter, DType::Float32) => next_after::<f32>(args, n, s),
        (Binary::Nextafter, DType::Float64) => next_after::<f64>(args, n, s),
        (Binary::Nextafter, _) => None,
        (Binary::Divmod, d) => with_dtype!(d, T => divmod::<T>(sem, args, n)?),
        (_, d) => with_dtype!(d, T => typed::<T>(op, sem, s, args, n).map(|a| vec![a])),
    };
    Ok(out.map(|v| {
        v.into_iter()
            .map(|a| super::into_dtype(a, args.result))
            .collect()
    }))
}

fn typed<T: Work>(
    op: Binary,
    sem: &Semantics,
    s: &OpSemantics,
    args: &Args<'_>,
    n: usize,
) -> Option<Array>
where
    T::W: BinaryElem,
{
    let c = Ctx {
        s,
        sem,
        tie_second: s.fmax_tie_second.contains(&T::DTYPE),
        half: match T::DTYPE {
            DType::Float16 => Some(Half::F16),
            DType::BFloat16 => Some(Half::BF16),
            _ => None,
        },
        vectorized: false,
        fmod_zero_keeps_dividend: s.fmod_bool_zero_keeps_dividend
            && args.inputs.iter().all(|v| v.dtype().is_bool()),
    };
    if op == Binary::Hypot && s.hypot_by_squares {
        match T::DTYPE {
            DType::Float32 => return Some(paddle_hypot::<f32>(args, n, s)),
            DType::Float64 => return Some(paddle_hypot::<f64>(args, n, s)),
            _ => {}
        }
    }
    // the elements the framework's vectorized loop covers, the rest its scalar tail
    let step = match op {
        Binary::Logaddexp => s.sleef_step_bytes / T::DTYPE.itemsize().max(1),
        // PyTorch's `atan2_kernel` and `pow_tensor_tensor_kernel`: `Vectorized<T>::atan2`,
        // `Vectorized<double>::pow` (SLEEF) in their vectorized loops
        Binary::Arctan2 | Binary::FloatPower if s.sleef_step_bytes > 0 => {
            s.sleef_step_bytes / T::DTYPE.itemsize().max(1)
        }
        // Eigen's packets of float32/float64 (its half types have no packet atan)
        Binary::Arctan2 if s.atan2_eigen && matches!(T::DTYPE, DType::Float32 | DType::Float64) => {
            crate::kernel::libm::eigen::avx_packet_width(T::DTYPE).unwrap_or(0)
        }
        _ => 0,
    };
    let body = if step > 0 { n - n % step } else { 0 };
    let vector = Ctx {
        vectorized: true,
        ..c
    };
    let mut k = 0;
    with_slice!(args.inputs[0], T::DTYPE, T, x => with_slice!(args.inputs[1], T::DTYPE, T, y => {
        zip_map(x, y, n, |a, b| {
            let ctx = if k < body { &vector } else { &c };
            k += 1;
            T::W::binary(op, a.widen(), b.widen(), ctx).map(T::narrow)
        }).map(T::array)
    }))
}

/// Paddle's float `hypot`, `sqrt(pow(x, 2) + pow(y, 2))` ([`OpSemantics::hypot_by_squares`]),
/// each op a kernel of its own: `pow` squares each operand by Eigen's packet `pow` on its
/// whole AVX packets and the C library's (the exact square) on the rest
/// ([`crate::kernel::libm::eigen_pow::packet_pow`]: `hypot(1e-07, 1e-07)` in float64 is not the
/// exact squares' root), the sum broadcasts, and `sqrt` is Eigen's fast packet root on a
/// float32 result's packets ([`OpSemantics::packet`]), the exact root elsewhere. Integer
/// operands are squared in their dtype ([`integer_square_sums`]).
fn paddle_hypot<F>(args: &Args<'_>, n: usize, s: &OpSemantics) -> Array
where
    F: Work<W = F> + crate::kernel::libm::eigen_pow::EigenPow,
{
    let width = crate::kernel::libm::eigen::avx_packet_width(F::DTYPE).expect("a float dtype");
    let squares = |v: crate::kernel::array::View<'_>| -> Vec<F> {
        with_slice!(v, F::DTYPE, F, x => {
            let packets = x.len() - x.len() % width;
            let two = F::one() + F::one();
            let square = |(i, &d): (usize, &F)| if i < packets { crate::kernel::libm::eigen_pow::packet_pow(d, two) } else { d * d };
            x.iter().enumerate().map(square).collect()
        })
    };
    let sums: Vec<F> = match integer_square_sums(args, n) {
        Some(sums) => sums.into_iter().map(|v| F::from(v).expect("f32")).collect(),
        None => {
            let (x, y) = (squares(args.inputs[0]), squares(args.inputs[1]));
            zip_map(&x, &y, n, |p, q| Some(p + q)).expect("sums")
        }
    };
    let root = s.packet(super::OpClass::Binary(Binary::Hypot), F::DTYPE);
    let packets = root.map_or(0, |(w, _)| n - n % w);
    let roots = sums.into_iter().enumerate().map(|(k, v)| match root {
        Some((_, f)) if k < packets => F::from(f(v.to_f32().expect("f32"))).expect("f32"),
        _ => v.sqrt(),
    });
    F::array(roots.collect())
}

/// Paddle's `pow(x, 2) + pow(y, 2)` of integer operands of one dtype
/// ([`OpSemantics::hypot_by_squares`]): squared and added in that dtype, wrapping, as float32;
/// `None` unless both operands are signed integers of one dtype (Paddle's `pow` has no
/// unsigned kernel).
fn integer_square_sums(args: &Args<'_>, n: usize) -> Option<Vec<f32>> {
    let [a, b] = args.inputs else { return None };
    let dtype = a.dtype();
    if !dtype.is_integer() || !dtype.is_signed() || b.dtype() != dtype {
        return None;
    }
    let shift = 64 - 8 * dtype.itemsize() as u32;
    // the low bits of a wrapping i64 result, read back in the dtype
    let wrap = |v: i64| (v << shift) >> shift;
    with_slice!(*a, DType::Int64, i64, x => with_slice!(*b, DType::Int64, i64, y => {
        zip_map(x, y, n, |p, q| {
            let sum = wrap(wrap(p.wrapping_mul(p)).wrapping_add(wrap(q.wrapping_mul(q))));
            Some(crate::kernel::cast::cast::<i64, f32>(sum))
        })
    }))
}

fn divmod<T: Work>(
    sem: &Semantics,
    args: &Args<'_>,
    n: usize,
) -> Result<Option<Vec<Array>>, KernelError> {
    use crate::kernel::compute::{binary, Dst, Half, Src};
    use crate::Op;
    if T::DTYPE.is_complex() || T::DTYPE.is_bool() {
        return Ok(None);
    }
    let half = match T::DTYPE {
        DType::Float16 => Some(Half::F16),
        DType::BFloat16 => Some(Half::BF16),
        _ => None,
    };
    with_slice!(args.inputs[0], T::DTYPE, T, x => with_slice!(args.inputs[1], T::DTYPE, T, y => {
        let wide = |v: &[T]| v.iter().map(|e| e.widen()).collect::<Vec<T::W>>();
        let (a, b) = (wide(x), wide(y));
        fn src<W: Copy>(v: &[W]) -> Src<'_, W> {
            if v.len() == 1 { Src::Scalar(v[0]) } else { Src::Slice(v) }
        }
        let mut results = vec![];
        for op in [Op::FloorDivide, Op::Remainder] {
            let mut out = vec![T::W::zero(); n];
            binary(op, src(&a), src(&b), Dst::Same(&mut out), sem, half)?;
            results.push(T::array(out.into_iter().map(T::narrow).collect()));
        }
        Ok(Some(results))
    }))
}

/// `nextafter` on the operands as float storage type `F`.
fn next_after<F: NextAfter + Element + crate::kernel::cast::Num>(
    args: &Args<'_>,
    n: usize,
    s: &OpSemantics,
) -> Option<Vec<Array>> {
    let second = s.half_nextafter_equal_second;
    with_slice!(args.inputs[0], F::DTYPE, F, x => with_slice!(args.inputs[1], F::DTYPE, F, y => {
        let daz = s.nextafter_under_daz;
        let step = |a: F, b: F| match daz {
            true if reads_zero_under_daz(a) && reads_zero_under_daz(b) => b,
            true => under_daz_ftz(|| F::next_after(a, b, second)),
            false => F::next_after(a, b, second),
        };
        zip_map(x, y, n, |a, b| Some(step(a, b))).map(|v| vec![F::array(v)])
    }))
}

/// Whether `v` compares equal to zero under the CPU's DAZ mode, the half types compared in
/// float32 (a bfloat16 subnormal is a float32 one; a float16 one is a normal float32): two such
/// operands of `nextafter` compare equal, which gives the second (JAX 0.10.2's
/// `chlo.next_after`: `nextafter(9e-41, -0.0)` is `-0.0` in bfloat16, `nextafter(1e-45, -0.0)`
/// in float32 and `nextafter(0, 1.1754942e-38)` is the second operand; float16's
/// `nextafter(0, 6e-08)` steps).
fn reads_zero_under_daz<F: Element + crate::kernel::cast::Num>(v: F) -> bool {
    let x = crate::kernel::cast::cast::<F, f64>(v).abs();
    let smallest_normal = match F::DTYPE {
        DType::Float64 => f64::MIN_POSITIVE,
        _ => f64::from(f32::MIN_POSITIVE),
    };
    x < smallest_normal
}
