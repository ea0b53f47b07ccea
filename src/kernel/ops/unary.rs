//! The unary element functions, generic over the working type ([`UnaryElem`]).
//!
//! Reals follow the C library (`sqrt`, `exp`, `sin`, ... of `f32`/`f64` are glibc's, as NumPy's
//! scalar loops and PyTorch's scalar paths are); `round` is half to even; integer `absolute`
//! and `negative` wrap (`abs(-128)` is −128); integer `reciprocal` is `1 / x` truncated with
//! `1 / 0` = 0 (NumPy). Complex functions are the C library's (`csqrt`, `cexp`, `clog`, ...),
//! except NumPy's own formulas for `sign`, `reciprocal`, `expm1`, `log1p`, `log2`, `log10`
//! (`umath/funcs.inc.src`).
//!
//! ```
//! use promote::kernel::ops::unary::{Unary, UnaryElem};
//! use promote::kernel::ops::OP_SEMANTICS;
//! let numpy = &OP_SEMANTICS[0];
//! assert_eq!(<f64 as UnaryElem>::same(Unary::Round, 2.5, numpy), Some(2.0));
//! assert_eq!(<i8 as UnaryElem>::same(Unary::Absolute, -128, numpy), Some(-128));
//! assert_eq!(<bool as UnaryElem>::same(Unary::Sqrt, true, numpy), None);
//! ```

use super::{with_slice, Args, ComplexAbs, ComplexSign, OpSemantics};
use crate::kernel::array::{Array, Element, C32, C64};
use crate::kernel::cast::Num;
use crate::kernel::compute::{Arith, ComplexDiv, FusedMul, Half};
use crate::kernel::exec::Work;
use crate::kernel::libm::svml::atan2::SvmlAtan2;
use crate::kernel::libm::xla_complex::XlaComplex;
use crate::kernel::libm::xla_math::{self, XlaReal};
use crate::kernel::xla::{under_daz_ftz, XlaComplexAbs};
use crate::{with_dtype, DType};

/// A unary op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Unary {
    Negative,
    Positive,
    Absolute,
    Sign,
    Square,
    Sqrt,
    Reciprocal,
    Exp,
    Expm1,
    Log,
    Log1p,
    Log2,
    Log10,
    Sin,
    Cos,
    Tan,
    Arcsin,
    Arctan,
    Sinh,
    Tanh,
    Floor,
    Ceil,
    Trunc,
    Round,
    IsNan,
    IsInf,
    IsFinite,
    Signbit,
    LogicalNot,
    BitwiseInvert,
    Real,
    Imag,
    Conj,
    Angle,
}

/// The unary ops by NumPy name.
pub const NAMES: &[(&str, Unary)] = &[
    ("negative", Unary::Negative),
    ("positive", Unary::Positive),
    ("absolute", Unary::Absolute),
    ("sign", Unary::Sign),
    ("square", Unary::Square),
    ("sqrt", Unary::Sqrt),
    ("reciprocal", Unary::Reciprocal),
    ("exp", Unary::Exp),
    ("expm1", Unary::Expm1),
    ("log", Unary::Log),
    ("log1p", Unary::Log1p),
    ("log2", Unary::Log2),
    ("log10", Unary::Log10),
    ("sin", Unary::Sin),
    ("cos", Unary::Cos),
    ("tan", Unary::Tan),
    ("arcsin", Unary::Arcsin),
    ("arctan", Unary::Arctan),
    ("sinh", Unary::Sinh),
    ("tanh", Unary::Tanh),
    ("floor", Unary::Floor),
    ("ceil", Unary::Ceil),
    ("trunc", Unary::Trunc),
    ("round", Unary::Round),
    ("isnan", Unary::IsNan),
    ("isinf", Unary::IsInf),
    ("isfinite", Unary::IsFinite),
    ("signbit", Unary::Signbit),
    ("logical_not", Unary::LogicalNot),
    ("bitwise_invert", Unary::BitwiseInvert),
    ("real", Unary::Real),
    ("imag", Unary::Imag),
    ("conj", Unary::Conj),
    ("angle", Unary::Angle),
];

/// The unary op of a NumPy name.
pub fn lookup(name: &str) -> Option<(&'static str, Unary)> {
    NAMES.iter().find(|(n, _)| *n == name).copied()
}

impl Unary {
    /// Writes bool (`isnan`, `isinf`, `isfinite`, `signbit`, `logical_not`).
    pub fn is_predicate(self) -> bool {
        matches!(
            self,
            Unary::IsNan | Unary::IsInf | Unary::IsFinite | Unary::Signbit | Unary::LogicalNot
        )
    }
    /// Of a complex number, gives a real (`absolute`, `real`, `imag`, `angle`).
    pub fn to_real(self) -> bool {
        matches!(
            self,
            Unary::Absolute | Unary::Real | Unary::Imag | Unary::Angle
        )
    }
}

/// The unary element functions of a working type; `None` where the type has none.
pub trait UnaryElem: Arith {
    /// The type of a part (the type itself for reals).
    type Part: Work<W = Self::Part> + Arith + Element;
    /// An op whose result has the operand's type.
    fn same(op: Unary, x: Self, s: &OpSemantics) -> Option<Self>;
    /// A predicate.
    fn pred(op: Unary, x: Self) -> Option<bool>;
    /// `absolute`, `real`, `imag`, `angle` of a complex number.
    fn part(_op: Unary, _x: Self) -> Option<Self::Part> {
        None
    }
    /// [`UnaryElem::part`] as the semantics compute it (complex `absolute`:
    /// [`OpSemantics::complex_abs`]).
    fn part_as(op: Unary, x: Self, _s: &OpSemantics) -> Option<Self::Part> {
        Self::part(op, x)
    }
    /// `sinh` that is `±inf` exactly above `|x| = limit` and the C library's below (SLEEF's
    /// float32 `sinh`: [`OpSemantics::sinh_f32_limit`]); `None` for a type without it.
    fn sinh_below(_x: Self, _limit: f32) -> Option<Self> {
        None
    }
    /// `sign` as Eigen computes it in a whole packet (`packet`) or after the last one
    /// ([`OpSemantics::sign_eigen`]); `None` for a type without it.
    fn eigen_sign(_x: Self, _packet: bool) -> Option<Self> {
        None
    }
    /// A complex op whose vector loop and scalar remainder differ, in a whole packet
    /// (`packet`) or after the last one: `sqrt`, `log`, `exp` as Eigen computes them
    /// ([`OpSemantics::complex_fns_eigen`]), `square` as PyTorch's loop does
    /// ([`OpSemantics::complex_square_vec_body`]); `None` for another op or type.
    fn packet_complex(_op: Unary, _x: Self, _packet: bool) -> Option<Self> {
        None
    }
}

impl UnaryElem for bool {
    type Part = bool;
    fn same(op: Unary, x: bool, s: &OpSemantics) -> Option<bool> {
        use Unary::*;
        match op {
            // Paddle's scale(x, -1) + 0 of a bool: -1·True is nonzero, True
            Negative if s.negative_by_scale => Some(x),
            Positive | Absolute | Sign | Square | Floor | Ceil | Trunc | Round | Real | Conj => {
                Some(x)
            }
            BitwiseInvert => Some(!x),
            Imag => Some(false),
            _ => None,
        }
    }
    fn pred(op: Unary, x: bool) -> Option<bool> {
        match op {
            Unary::IsNan | Unary::IsInf | Unary::Signbit => Some(false),
            Unary::IsFinite => Some(true),
            Unary::LogicalNot => Some(!x),
            _ => None,
        }
    }
}

macro_rules! unary_int {
    ($($t:ty),*) => {$(
        impl UnaryElem for $t {
            type Part = $t;
            #[allow(unused_comparisons)]
            fn same(op: Unary, x: $t, s: &OpSemantics) -> Option<$t> {
                use Unary::*;
                Some(match op {
                    // Paddle's int64 trunc: through double, converted back as x86 truncates
                    Trunc if s.int64_trunc_via_double && <$t>::BITS == 64 && <$t>::MIN != 0 => {
                        crate::kernel::cast::cast::<f64, $t>(x as f64)
                    }
                    Negative => x.wrapping_neg(),
                    Positive | Floor | Ceil | Trunc | Round | Real | Conj => x,
                    Absolute => if x < 0 { x.wrapping_neg() } else { x },
                    Sign => if x > 0 { 1 } else if x < 0 { (0 as $t).wrapping_sub(1) } else { 0 },
                    Square => x.wrapping_mul(x),
                    // NumPy: `1.0 / x` in double, converted as C converts (1 / 0 is inf)
                    Reciprocal => crate::kernel::cast::cast::<f64, $t>(1.0 / (x as f64)),
                    BitwiseInvert => !x,
                    Imag => 0,
                    _ => return None,
                })
            }
            #[allow(unused_comparisons)]
            fn pred(op: Unary, x: $t) -> Option<bool> {
                Some(match op {
                    Unary::IsNan | Unary::IsInf => false,
                    Unary::IsFinite => true,
                    Unary::Signbit => x < 0,
                    Unary::LogicalNot => x == 0,
                    _ => return None,
                })
            }
        }
    )*};
}
unary_int!(u8, u16, u32, u64, i8, i16, i32, i64);

macro_rules! unary_float {
    ($($t:ty),*) => {$(
        impl UnaryElem for $t {
            type Part = $t;
            fn same(op: Unary, x: $t, s: &OpSemantics) -> Option<$t> {
                let y = Self::same_c(op, x, s)?;
                // the vector unit's default NaN where the C library's is +NaN
                Some(if s.domain_nan_negative && y.is_nan() && !x.is_nan() { -<$t>::NAN } else { y })
            }
            fn eigen_sign(x: $t, packet: bool) -> Option<$t> {
                use crate::kernel::libm::eigen::{packet_sign, scalar_sign};
                Some(if packet { packet_sign(x) } else { scalar_sign(x) })
            }
            fn sinh_below(x: $t, limit: f32) -> Option<$t> {
                Some(if x.abs() > <$t>::from(limit) { <$t>::INFINITY.copysign(x) } else { x.sinh() })
            }
            fn pred(op: Unary, x: $t) -> Option<bool> {
                Some(match op {
                    Unary::IsNan => x.is_nan(),
                    Unary::IsInf => x.is_infinite(),
                    Unary::IsFinite => x.is_finite(),
                    Unary::Signbit => x.is_sign_negative(),
                    Unary::LogicalNot => x == 0.0,
                    _ => return None,
                })
            }
        }
        impl FloatUnary for $t {
            fn same_c(op: Unary, x: $t, s: &OpSemantics) -> Option<$t> {
                use Unary::*;
                Some(match op {
                    // Paddle's scale(x, -1) + 0: -0.0 + 0.0 is 0.0
                    Negative if s.negative_by_scale => -x + 0.0,
                    Negative => -x,
                    Positive | Real | Conj => x,
                    Absolute => x.abs(),
                    Sign if x.is_nan() => if s.sign_nan_is_nan { x } else { 0.0 },
                    Sign => if x > 0.0 { 1.0 } else if x < 0.0 { -1.0 } else if s.sign_zero_keeps_sign { x } else { 0.0 },
                    Square => x * x,
                    Sqrt if s.sqrt_mkl => crate::kernel::libm::mkl::VmlSqrt::vml_sqrt(x),
                    Sqrt => x.sqrt(),
                    Reciprocal => 1.0 / x,
                    Exp if s.exp_eigen => crate::kernel::libm::eigen::EigenExp::eigen_exp(x),
                    Exp if s.xla_real_fns => x.xla_exp(),
                    Exp => x.exp(),
                    Expm1 if s.xla_real_fns => xla_math::expm1(x),
                    Expm1 => x.exp_m1(),
                    Log if s.xla_real_fns => x.xla_log(),
                    Log => x.ln(),
                    Log1p if s.xla_real_fns => xla_math::log1p(x),
                    Log1p => x.ln_1p(),
                    // jnp.log2/log10 divide by the constant log(2)/log(10): XLA multiplies by
                    // its reciprocal (log10: log10(e))
                    Log2 if s.xla_real_fns => x.xla_log() * (1.0 / (2.0 as $t).ln()),
                    Log2 => x.log2(),
                    Log10 if s.xla_real_fns => x.xla_log() * std::f64::consts::LOG10_E as $t,
                    Log10 => x.log10(),
                    Sin => x.sin(),
                    Cos => x.cos(),
                    Tan => x.tan(),
                    Arcsin if s.asin_by_atan2 => crate::kernel::xla::under_daz_ftz(|| {
                        let t = x.atan2(((1.0 - x) * (1.0 + x)).sqrt() + 1.0);
                        t + t
                    }),
                    Arcsin => x.asin(),
                    Arctan if s.xla_real_fns => x.xla_atan(),
                    Arctan => x.atan(),
                    Sinh if s.sinh_overflows_with_exp && x.abs().exp().is_infinite() => {
                        <$t>::INFINITY.copysign(x)
                    }
                    Sinh if s.xla_real_fns => xla_math::sinh(x),
                    Sinh => x.sinh(),
                    Tanh if s.xla_real_fns => x.xla_tanh(),
                    Tanh => x.tanh(),
                    Floor => x.floor(),
                    Ceil => x.ceil(),
                    Trunc => x.trunc(),
                    Round => x.round_ties_even(),
                    Imag => 0.0,
                    Angle if s.real_angle_by_sign => {
                        if x.is_nan() && s.real_angle_nan_zero { 0.0 } else if x.is_nan() { x } else if x < 0.0 { std::f64::consts::PI as $t } else { 0.0 }
                    }
                    Angle => (0.0 as $t).atan2(x),
                    _ => return None,
                })
            }
        }
    )*};
}

/// A real float's unary functions before [`OpSemantics::domain_nan_negative`] applies.
trait FloatUnary: Sized {
    /// The op's value (the C library's function or the semantics' own).
    fn same_c(op: Unary, x: Self, s: &OpSemantics) -> Option<Self>;
}

unary_float!(f32, f64);

#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod clib {
    macro_rules! clib {
        ($($name:ident, $namef:ident);*) => {
            mod sys {
                use crate::kernel::array::{C32, C64};
                extern "C" {
                    // C99 complex functions; a `repr(C)` pair has `_Complex`'s x86-64 convention
                    $(pub fn $name(z: C64) -> C64; pub fn $namef(z: C32) -> C32;)*
                }
            }
            /// The C library's complex functions.
            pub mod f {
                use crate::kernel::array::{C32, C64};
                $(
                    pub fn $name(z: C64) -> C64 {
                        // SAFETY: a pure libm function on plain values.
                        unsafe { super::sys::$name(z) }
                    }
                    pub fn $namef(z: C32) -> C32 {
                        // SAFETY: as above.
                        unsafe { super::sys::$namef(z) }
                    }
                )*
            }
        };
    }
    clib!(csqrt, csqrtf; cexp, cexpf; clog, clogf; csin, csinf; ccos, ccosf; ctan, ctanf;
          casin, casinf; catan, catanf; csinh, csinhf; ctanh, ctanhf);
}

macro_rules! unary_complex {
    ($($c:ty, $f:ty, $sqrt:ident, $exp:ident, $log:ident, $sin:ident, $cos:ident, $tan:ident,
       $asin:ident, $atan:ident, $sinh:ident, $tanh:ident, $pexp:expr);*) => {$(
        impl UnaryElem for $c {
            type Part = $f;
            fn same(op: Unary, z: $c, s: &OpSemantics) -> Option<$c> {
                use Unary::*;
                #[cfg(all(target_os = "linux", target_env = "gnu"))]
                use clib::f;
                let (r, i) = (z.re, z.im);
                Some(match op {
                    Exp | Expm1 | Log | Log1p | Sqrt | Sin | Sinh | Cos | Tan | Tanh | Log2 | Log10 | Arctan | Arcsin if s.complex_fns_xla => {
                        xla_complex_fn::<$c, $f>(op, z)?
                    }
                    Negative if s.complex_negative_subtracts => <$c>::new(0.0 - r, 0.0 - i),
                    // Paddle's scale: z · (−1+0j) as a complex product, then + 0
                    Negative if s.negative_by_scale => {
                        <$c>::new((-r - i * 0.0) + 0.0, (r * 0.0 - i) + 0.0)
                    }
                    Negative => <$c>::new(-r, -i),
                    Positive => z,
                    Conj => <$c>::new(r, -i),
                    Sign if s.complex_sign == ComplexSign::DivideAsComplex => {
                        let a = r.hypot(i);
                        // TensorFlow's `div_no_nan(z, |z|)` (cwise_ops.h `div_no_nan_op` of a
                        // complex type): 0 where `|z|` or the numerator `z · conj(|z|)` is zero,
                        // the products flushed where the CPU flushes (`sign(1e-20+1e-20j)` is 0j)
                        let f = |x: $f| if s.ftz { x.flush() } else { x };
                        let (nr, ni) = (f(f(r * a) - f(i * -0.0)), f(f(r * -0.0) + f(i * a)));
                        if a == 0.0 || (nr == 0.0 && ni == 0.0) {
                            <$c>::new(0.0, 0.0)
                        } else {
                            complex_divide(z, <$c>::new(a, 0.0), s)
                        }
                    }
                    Sign => { let (a, b) = complex_sign::<$f>(r, i, s); <$c>::new(a, b) }
                    Square if s.complex_square_xla => {
                        let f = |x: $f| if s.ftz { x.flush() } else { x };
                        // chlo.square: a finite real part of the imaginary one's magnitude
                        // gives a real part of +0 (`square(-0.5-0.5j)` is `0.5j`)
                        let re = if r.is_finite() && r.abs() == i.abs() { 0.0 } else { f(f(r - i) * f(r + i)) };
                        <$c>::new(re, f(2.0 * f(r * i)))
                    }
                    Square if s.complex_mul_fma => <$c as FusedMul>::mul_fused(z, z),
                    Square => <$c as Arith>::mul(z, z),
                    Reciprocal if s.complex_reciprocal_divides => complex_divide(<$c>::new(1.0, 0.0), z, s),
                    // `1 / z` by Smith's algorithm as NumPy's division writes it, without its
                    // zero-divisor case and without fused multiply-adds; an infinite `z`
                    // without NaN gives `+0+0j` (observed: `reciprocal(-inf+1j)` is `0j`)
                    Reciprocal if s.complex_reciprocal_smith => {
                        if (r.is_infinite() || i.is_infinite()) && !(r.is_nan() || i.is_nan()) {
                            <$c>::new(0.0, 0.0)
                        } else if i.abs() <= r.abs() {
                            let q = i / r;
                            let scl = 1.0 / (r + i * q);
                            <$c>::new((1.0 + 0.0 * q) * scl, (0.0 - q) * scl)
                        } else {
                            let q = r / i;
                            let scl = 1.0 / (i + r * q);
                            <$c>::new((q + 0.0) * scl, (0.0 * q - 1.0) * scl)
                        }
                    }
                    Reciprocal => {
                        if i.abs() <= r.abs() {
                            let q = i / r;
                            let d = r + i * q;
                            <$c>::new(1.0 / d, -q / d)
                        } else {
                            let q = r / i;
                            let d = r * q + i;
                            <$c>::new(q / d, -1.0 / d)
                        }
                    }
                    Exp if s.complex_exp_float_parts => {
                        let (a, b) = exp_float_parts(r, i);
                        <$c>::new(a, b)
                    }
                    Expm1 if s.complex_fns_eigen => {
                        let (a, b) = crate::kernel::libm::eigen::complex_expm1(r, i);
                        <$c>::new(a, b)
                    }
                    Log1p if s.complex_fns_eigen => eigen_log1p(z),
                    // TensorFlow's `Atan` of a complex: the C library's `catan` under DAZ/FTZ,
                    // its operand unflushed (`atan(5e-324+1j)` is `372.91318314125056j`)
                    Arctan if s.complex_fns_eigen => crate::kernel::xla::under_daz_ftz(|| f::$atan(z)),
                    Sqrt | Log if s.complex_fns_eigen => Self::packet_complex(op, z, true)?,
                    Expm1 if s.complex_expm1_by_exp => {
                        let e = f::$exp(z);
                        <$c>::new(e.re - 1.0, e.im - 0.0)
                    }
                    Expm1 => {
                        let a = (i / 2.0).sin();
                        let re = if s.complex_expm1_fused {
                            r.exp_m1().mul_add(i.cos(), -(2.0 * a * a))
                        } else {
                            r.exp_m1() * i.cos() - 2.0 * a * a
                        };
                        <$c>::new(re, r.exp() * i.sin())
                    }
                    // c10's CPU `log1p` (c10/util/complex_math.h, after NumPy PR 22611):
                    // u = z + 1; z if u is 1; log(u) if u − 1 is z; else log(u)·(z / (u − 1)),
                    // the product and the quotient contracted as PyTorch's kernels compile them
                    Log1p if s.complex_log1p_torch => {
                        let u = <$c>::new(r + 1.0, i);
                        let back = <$c>::new(u.re - 1.0, u.im);
                        if u.re == 1.0 && u.im == 0.0 {
                            z
                        } else if back.re == r && back.im == i {
                            f::$log(u)
                        } else {
                            let (qr, qi) = c10_div_fused(r, i, back.re, back.im);
                            <$c as FusedMul>::mul_fused(f::$log(u), <$c>::new(qr, qi))
                        }
                    }
                    Log1p if s.complex_log1p_by_log => f::$log(<$c>::new(1.0 + r, 0.0 + i)),
                    Log1p => {
                        let l = (r + 1.0).hypot(i);
                        <$c>::new(l.ln(), i.atan2(r + 1.0))
                    }
                    Log2 if s.complex_log_base_complex_div => {
                        let l = f::$log(z);
                        let (a, b) = div_annex_g_real(l.re, l.im, std::f64::consts::LN_2 as $f);
                        <$c>::new(a, b)
                    }
                    Log2 | Log10 if s.complex_log_base_divides => {
                        let l = f::$log(z);
                        let k: $f = if op == Log2 { std::f64::consts::LN_2 as $f } else { std::f64::consts::LN_10 as $f };
                        <$c>::new(l.re / k, l.im / k)
                    }
                    Log2 | Log10 => {
                        let l = f::$log(z);
                        let k: $f = if op == Log2 { std::f64::consts::LOG2_E as $f } else { std::f64::consts::LOG10_E as $f };
                        <$c>::new(l.re * k, l.im * k)
                    }
                    Sqrt => f::$sqrt(z),
                    Exp => f::$exp(z),
                    Log => f::$log(z),
                    Sin => f::$sin(z),
                    Cos => f::$cos(z),
                    Tan => f::$tan(z),
                    Arcsin => f::$asin(z),
                    Arctan => f::$atan(z),
                    Sinh => f::$sinh(z),
                    Tanh => f::$tanh(z),
                    Round => <$c>::new(r.round_ties_even(), i.round_ties_even()),
                    _ => return None,
                })
            }
            fn packet_complex(op: Unary, z: $c, packet: bool) -> Option<$c> {
                use crate::kernel::libm::eigen as e;
                let (a, b) = match (op, packet) {
                    (Unary::Sqrt, true) => e::complex_sqrt(z.re, z.im),
                    (Unary::Sqrt, false) => e::complex_sqrt_scalar(z.re, z.im),
                    (Unary::Log, true) => e::complex_log(z.re, z.im),
                    (Unary::Log, false) => e::complex_log_scalar(z.re, z.im),
                    (Unary::Exp, true) => ($pexp)?(z.re, z.im),
                    // PyTorch's vectorized `z * z` multiplies plainly, its scalar remainder is
                    // c10's `operator*` as GCC contracts it (fused multiply-adds)
                    (Unary::Square, true) => return Some(<$c as Arith>::mul(z, z)),
                    (Unary::Square, false) => return Some(<$c as FusedMul>::mul_fused(z, z)),
                    _ => return None,
                };
                Some(<$c>::new(a, b))
            }
            fn pred(op: Unary, z: $c) -> Option<bool> {
                Some(match op {
                    Unary::IsNan => z.re.is_nan() || z.im.is_nan(),
                    Unary::IsInf => z.re.is_infinite() || z.im.is_infinite(),
                    Unary::IsFinite => z.re.is_finite() && z.im.is_finite(),
                    Unary::LogicalNot => z.re == 0.0 && z.im == 0.0,
                    _ => return None,
                })
            }
            fn part_as(op: Unary, z: $c, s: &OpSemantics) -> Option<$f> {
                match op {
                    Unary::Absolute => Some(s.complex_abs.of(z.re, z.im)),
                    // NumPy's `angle` is `arctan2(z.imag, z.real)`, its SIMD arctan2
                    Unary::Angle if s.atan2_svml && <$f as SvmlAtan2>::PORTED => {
                        Some(<$f as SvmlAtan2>::svml_atan2(z.im, z.re))
                    }
                    _ => Self::part(op, z),
                }
            }
            fn part(op: Unary, z: $c) -> Option<$f> {
                Some(match op {
                    Unary::Absolute => z.re.hypot(z.im),
                    Unary::Real => z.re,
                    Unary::Imag => z.im,
                    Unary::Angle => z.im.atan2(z.re),
                    _ => return None,
                })
            }
        }
    )*};
}
// Eigen's complex packet `exp` ([`OpSemantics::complex_fns_eigen`]): complex64 only
type PacketExp<F> = Option<fn(F, F) -> (F, F)>;
const PEXP_F32: PacketExp<f32> = Some(crate::kernel::libm::eigen::complex_exp_f32);
const PEXP_F64: PacketExp<f64> = None;
unary_complex!(
    C32, f32, csqrtf, cexpf, clogf, csinf, ccosf, ctanf, casinf, catanf, csinhf, ctanhf, PEXP_F32;
    C64, f64, csqrt, cexp, clog, csin, ccos, ctan, casin, catan, csinh, ctanh, PEXP_F64
);

/// `log1p(z)` as Eigen's `std_fallback::log1p` computes a complex one
/// (`Eigen/src/Core/MathFunctions.h`, every element of TensorFlow 2.21's complex `Log1p`),
/// under the CPU's DAZ/FTZ modes: `u = z + 1` (the real part), `l` Eigen's scalar complex `log`
/// of `u` ([`crate::kernel::libm::eigen::complex_log_scalar`]); `z` where `u == 1` or `u == l`, else
/// `z · (l / (u − 1))` by `std::complex`'s operators as TensorFlow's build links them: the
/// quotient by Smith's algorithm dividing by the denominator ([`smith_divide`], libgcc's
/// `__divsc3`/`__divdc3` before GCC 12, in float for complex64), C99's Annex G recovery where
/// both parts come out NaN (`log1p(-1+0j)` is `-inf+nanj`), the product by Annex G's.
/// Checked: the 78 recorded values that Annex G's scaled quotient (compiler-rt's) misses by up
/// to 8 ulps, e.g. `log1p(1.7976931348623157e+308+0j)` is `709.782712893384+0j`.
fn eigen_log1p<F>(z: num_complex::Complex<F>) -> num_complex::Complex<F>
where
    F: num_traits::Float,
    num_complex::Complex<F>: Arith,
{
    crate::kernel::xla::under_daz_ftz(|| {
        let one = F::one();
        let u = num_complex::Complex::new(z.re + one, z.im);
        let (lr, li) = crate::kernel::libm::eigen::complex_log_scalar(u.re, u.im);
        let l = num_complex::Complex::new(lr, li);
        let small = u.re == one && u.im == F::zero();
        if small || (u.re == l.re && u.im == l.im) {
            return z;
        }
        let back = num_complex::Complex::new(u.re - one, u.im);
        let (qr, qi) = smith_divide(l.re, l.im, back.re, back.im);
        let q = if qr.is_nan() && qi.is_nan() {
            <num_complex::Complex<F> as Arith>::div_annex_g(l, back)
        } else {
            num_complex::Complex::new(qr, qi)
        };
        <num_complex::Complex<F> as Arith>::mul_annex_g(z, q)
    })
}

/// `(a + b·i) / (c + d·i)` by Smith's algorithm as libgcc's `__divdc3` writes it (libgcc2.c
/// before GCC 12, without its scaling of huge and tiny operands): `r = d / c`,
/// `((b·r + a) / (d·r + c), (b − a·r) / (d·r + c))` where `|c| ≥ |d|`, mirrored otherwise.
fn smith_divide<F: num_traits::Float>(a: F, b: F, c: F, d: F) -> (F, F) {
    if c.abs() < d.abs() {
        let r = c / d;
        let denom = c * r + d;
        ((a * r + b) / denom, (b * r - a) / denom)
    } else {
        let r = d / c;
        let denom = d * r + c;
        ((b * r + a) / denom, (b - a * r) / denom)
    }
}

/// The parts of Paddle's complex `exp` ([`OpSemantics::complex_exp_float_parts`]): the C
/// library's `expf`, `cosf` and `sinf` of the parts read as float, multiplied in `F`.
fn exp_float_parts<F>(re: F, im: F) -> (F, F)
where
    F: num_traits::Float + num_traits::AsPrimitive<f32>,
    f32: num_traits::AsPrimitive<F>,
{
    use num_traits::AsPrimitive;
    let (e, im): (f32, f32) = (re.as_().exp(), im.as_());
    let (e, cos, sin): (F, F, F) = (e.as_(), im.cos().as_(), im.sin().as_());
    (e * cos, e * sin)
}

/// The parts of a complex `sign` ([`OpSemantics::complex_sign`]).
fn complex_sign<F: num_traits::Float + XlaComplexAbs>(r: F, i: F, s: &OpSemantics) -> (F, F) {
    let (zero, one, nan) = (F::zero(), F::one(), F::nan());
    // NumPy's complex `sign` divides by `npy_hypot` (loops.c.src), not its SIMD `absolute`
    let a = match s.complex_abs {
        ComplexAbs::NumpySimd => r.hypot(i),
        how => how.of(r, i),
    };
    let unit = |x: F| if x > zero { one } else { -one };
    match s.complex_sign {
        ComplexSign::DivideByAbsKeepZero if a == zero => (r, i),
        _ if a == zero && s.complex_sign != ComplexSign::Numpy => (zero, zero),
        ComplexSign::DivideByAbs
        | ComplexSign::DivideByAbsKeepZero
        | ComplexSign::DivideAsComplex => (r / a, i / a),
        ComplexSign::Numpy if a.is_nan() => (nan, nan),
        ComplexSign::Numpy if a.is_infinite() => match (r.is_infinite(), i.is_infinite()) {
            (true, true) => (nan, nan),
            (true, false) => (unit(r), zero),
            _ => (zero, unit(i)),
        },
        ComplexSign::Numpy if a == zero => (zero, zero),
        ComplexSign::Numpy => (r / a, i / a),
    }
}

/// XLA's complex `op` of `z` ([`OpSemantics::complex_fns_xla`]); `None` for another op.
fn xla_complex_fn<C: XlaComplex + ComplexParts<F>, F: num_traits::Float>(
    op: Unary,
    z: C,
) -> Option<C> {
    let log = |k: F| {
        let (re, im) = C::xla_log(z).parts();
        C::from_parts(re * k, im * k)
    };
    let of = |v: f64| F::from(v).expect("a constant");
    Some(match op {
        Unary::Exp => C::xla_exp(z),
        Unary::Expm1 => C::xla_expm1(z),
        Unary::Sinh => C::xla_sinh(z),
        Unary::Log => C::xla_log(z),
        Unary::Log1p => C::xla_log1p(z),
        Unary::Sqrt => C::xla_sqrt(z),
        Unary::Arctan => C::xla_atan(z),
        Unary::Arcsin => C::xla_asin(z),
        Unary::Sin => C::xla_sin(z),
        Unary::Cos => C::xla_cos(z),
        Unary::Tan => C::xla_tan(z),
        Unary::Tanh => C::xla_tanh(z),
        // jnp.log2 is log(z) / log(2); XLA multiplies by the reciprocal
        Unary::Log2 => log(of(1.0) / of(2.0).ln()),
        Unary::Log10 => log(of(std::f64::consts::LOG10_E)),
        _ => return None,
    })
}

/// A complex number's parts, both ways.
trait ComplexParts<F> {
    fn parts(self) -> (F, F);
    fn from_parts(re: F, im: F) -> Self;
}

impl<F: Copy> ComplexParts<F> for num_complex::Complex<F> {
    fn parts(self) -> (F, F) {
        (self.re, self.im)
    }
    fn from_parts(re: F, im: F) -> Self {
        num_complex::Complex::new(re, im)
    }
}

/// `(a + bi) / (c + di)` as c10's `complex::operator/=` (`torch/headeronly/util/complex.h`)
/// compiles in PyTorch's CPU kernels: Smith's algorithm, each `x ± y·rat` contracted into one
/// fused multiply-add (the recorded complex `log1p` shows it).
fn c10_div_fused<F: num_traits::Float>(a: F, b: F, c: F, d: F) -> (F, F) {
    let (ac, ad) = (c.abs(), d.abs());
    if ac >= ad {
        if ac == F::zero() && ad == F::zero() {
            (a / ac, b / ad)
        } else {
            let rat = d / c;
            let scl = F::one() / d.mul_add(rat, c);
            (b.mul_add(rat, a) * scl, (-a).mul_add(rat, b) * scl)
        }
    } else {
        let rat = c / d;
        let scl = F::one() / c.mul_add(rat, d);
        (a.mul_add(rat, b) * scl, b.mul_add(rat, -a) * scl)
    }
}

/// `(a + bi) / (k + 0i)` for a positive finite `k` as libgcc's C99 Annex G division
/// (`__divsc3`/`__divdc3`, what `std::complex`'s `operator/` compiles to) computes it:
/// `r = 0 / k`, `((b·r + a) / k, (b − a·r) / k)`, and where both parts are NaN but a part of
/// the dividend is infinite, its recovery `∞ · (a'·k, b'·k)` with `a'`, `b'` the parts as
/// `±1` (infinite) or `±0` (Paddle's complex `log2`: `log2(inf+nanj)` is `inf+nanj`).
fn div_annex_g_real<F: num_traits::Float>(a: F, b: F, k: F) -> (F, F) {
    let r = F::zero() / k;
    let (x, y) = ((b * r + a) / k, (b - a * r) / k);
    if !(x.is_nan() && y.is_nan() && (a.is_infinite() || b.is_infinite())) {
        return (x, y);
    }
    let unit = |v: F| if v.is_infinite() { F::one() } else { F::zero() }.copysign(v);
    let (a, b) = (unit(a), unit(b));
    (
        F::infinity() * (a * k + b * F::zero()),
        F::infinity() * (b * k - a * F::zero()),
    )
}

/// `a / b` by the semantics' complex division ([`OpSemantics::complex_div`]).
pub(crate) fn complex_divide<C: Arith>(a: C, b: C, s: &OpSemantics) -> C {
    match s.complex_div {
        ComplexDiv::Smith => C::div(a, b),
        ComplexDiv::SmithFused => C::div_smith_fused(a, b),
        ComplexDiv::SmithPlain => C::div_smith_plain(a, b),
        ComplexDiv::ScaledByMax => C::div_scaled(a, b, s.ftz),
        ComplexDiv::XlaSmith => C::xla_div(a, b),
    }
}

/// Runs a unary op: the operand cast to `args.compute`, the element function, the values cast
/// to `args.result`; `None` when the compute dtype has no such function.
pub fn run(op: Unary, s: &OpSemantics, args: &Args<'_>) -> Option<Array> {
    let out = with_dtype!(args.compute, T => typed::<T>(op, s, args))?;
    Some(super::into_dtype(out, args.result))
}

fn typed<T: Work>(op: Unary, s: &OpSemantics, args: &Args<'_>) -> Option<Array>
where
    T::W: UnaryElem,
{
    with_slice!(args.inputs[0], T::DTYPE, T, x => {
        if op.is_predicate() {
            let out: Option<Vec<bool>> = x.iter().map(|&v| T::W::pred(op, v.widen())).collect();
            out.map(Array::from)
        } else if op.to_real() && T::DTYPE.is_complex() {
            let out: Option<Vec<_>> = x.iter().map(|&v| T::W::part_as(op, v.widen(), s)).collect();
            out.map(<<T::W as UnaryElem>::Part as Element>::array)
        } else if let (Unary::Sinh, DType::Float32, Some(limit)) = (op, T::DTYPE, s.sinh_f32_limit) {
            map_same::<T>(x, |v| T::W::sinh_below(v, limit as f32))
        } else if let Some(width) = s.complex_packet_width(op, T::DTYPE) {
            // a complex packet function (Eigen's, PyTorch's vector loop), then the scalar one on
            // the tail
            let packets = x.len() - x.len() % width;
            let each = |(k, v): (usize, &T)| {
                let w = v.widen();
                T::W::packet_complex(op, w, k < packets).or_else(|| T::W::same(op, w, s)).map(T::narrow)
            };
            x.iter().enumerate().map(each).collect::<Option<Vec<T>>>().map(T::array)
        } else if let Some((width, packet)) = s.packet_f64(op, T::DTYPE) {
            // Eigen's float64 packets, then the C library's function on the tail
            let packets = x.len() - x.len() % width;
            let each = |(k, v): (usize, &T)| -> Option<T> {
                let w = v.widen();
                let r = if k < packets { T::W::from_num(packet(w.re_f64())) } else { T::W::same(op, w, s)? };
                Some(T::narrow(r))
            };
            x.iter().enumerate().map(each).collect::<Option<Vec<T>>>().map(T::array)
        } else if let Some(width) = s.sign_packet_width(op, T::DTYPE) {
            // Eigen's packet sign, then its scalar sign on the tail
            let packets = x.len() - x.len() % width;
            let each = |(k, v): (usize, &T)| T::W::eigen_sign(v.widen(), k < packets).map(T::narrow);
            x.iter().enumerate().map(each).collect::<Option<Vec<T>>>().map(T::array)
        } else if let Some((width, packet)) = s.packet(super::OpClass::Unary(op), T::DTYPE) {
            // Eigen's packets, then the scalar function on the tail
            let packets = x.len() - x.len() % width;
            let each = |(k, v): (usize, &T)| -> Option<T> {
                let w = v.widen();
                let r = if k < packets { T::W::from_num(packet(w.re_f32())) } else { T::W::same(op, w, s)? };
                Some(T::narrow(r))
            };
            x.iter().enumerate().map(each).collect::<Option<Vec<T>>>().map(T::array)
        } else if let Some((trig, width)) = s.sleef_trig(op, T::DTYPE) {
            Some(sleef_trig::<T>(trig, width, x))
        } else if let Some(by_libm) = s.libm_lanes(op, T::DTYPE) {
            // XLA's loop: the C library's function under DAZ/FTZ on some elements, its own on
            // the rest
            let (n, plain) = (x.len(), OpSemantics { xla_real_fns: false, ..*s });
            let each = |(k, v): (usize, &T)| -> Option<T> {
                let w = v.widen();
                let r = if by_libm(n, k) { under_daz_ftz(|| T::W::same(op, w, &plain))? } else { T::W::same(op, w, s)? };
                Some(T::narrow(r))
            };
            x.iter().enumerate().map(each).collect::<Option<Vec<T>>>().map(T::array)
        } else if let Some(half) = s.xla_half_steps(op, T::DTYPE) {
            map_same::<T>(x, |v| Some(T::W::from_num(half_steps(op, v.re_f32(), half))))
        } else if let Some(f) = s.own_fn(op, T::DTYPE) {
            map_same::<T>(x, |v| Some(f.of(v)))
        } else {
            map_same::<T>(x, |v| T::W::same(op, v, s))
        }
    })
}

/// `op` on a half type op by op, as XLA's CPU code runs it ([`OpSemantics::xla_half_steps`]):
/// each step's float32 result flushed to zero when subnormal (FTZ) and rounded to the type.
/// `jnp.log10` multiplies by `log10(e)` in the type; `jnp.log2` divides by the type's
/// `log(2)`, which XLA turns into a product by its reciprocal, rounded to float16 (a float16
/// constant) but not to bfloat16 (normalized to float32 op by op: `1.44632769`).
fn half_steps(op: Unary, x: f32, half: Half) -> f32 {
    use crate::kernel::libm::xla_math::{asin_steps, expm1_steps, log_over_steps};
    let st = |v: f32| half.round(v.flush());
    let inv_ln2 = 1.0 / st(std::f32::consts::LN_2);
    match op {
        Unary::Expm1 => expm1_steps(x, st),
        Unary::Log2 if half == Half::F16 => log_over_steps(x, st(inv_ln2), st),
        Unary::Log2 => log_over_steps(x, inv_ln2, st),
        Unary::Log10 => log_over_steps(x, st(std::f32::consts::LOG10_E), st),
        _ => asin_steps(x, st),
    }
}

/// SLEEF's `sin`/`cos` of a float32 or float64 slice in vectors of `width`
/// ([`OpSemantics::sleef_trig_bytes`]).
fn sleef_trig<T: Work>(trig: crate::kernel::libm::sleef::Trig, width: usize, x: &[T]) -> Array {
    use crate::kernel::libm::sleef::{packets_f32, packets_f64};
    let out: Vec<T> = if T::DTYPE == DType::Float32 {
        let v: Vec<f32> = x.iter().map(|v| v.widen().re_f32()).collect();
        let mut o = vec![0.0f32; v.len()];
        packets_f32(trig, &v, width, &mut o);
        o.into_iter()
            .map(|r| T::narrow(T::W::from_num(r)))
            .collect()
    } else {
        let v: Vec<f64> = x.iter().map(|v| v.widen().re_f64()).collect();
        let mut o = vec![0.0f64; v.len()];
        packets_f64(trig, &v, width, &mut o);
        o.into_iter()
            .map(|r| T::narrow(T::W::from_num(r)))
            .collect()
    };
    T::array(out)
}

/// `f` over a slice in the working type, narrowed once per element; `None` if `f` refuses.
pub(crate) fn map_same<T: Work>(x: &[T], f: impl Fn(T::W) -> Option<T::W>) -> Option<Array> {
    let mut out = Vec::with_capacity(x.len());
    for &v in x {
        out.push(T::narrow(f(v.widen())?));
    }
    Some(T::array(out))
}
