//! A framework's element semantics as one record ([`Semantics`]), and the enums its
//! fields choose from.

use crate::dtype::DType;
use crate::kernel::cast::Num;
use crate::op::Op;

/// What an integer `floor_divide` or `remainder` by zero gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntDivZero {
    /// 0 for both (NumPy, with a warning).
    Zero,
    /// XLA's `div`/`rem`: the quotient has every bit set (−1; the maximum for unsigned), the
    /// remainder is the dividend; JAX's floor adjustment then runs on those.
    Xla,
    /// The whole call is refused: the spec's `value` error (PyTorch, TensorFlow, Paddle).
    Error,
}

/// How a float `floor_divide` is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatFloorDiv {
    /// NumPy's `npy_divmod`: `(a − fmod(a, b)) / b`, sign-adjusted and snapped to an integer
    /// (`1.0 // 0.1` is 9.0, as in Python).
    Divmod,
    /// `floor(a / b)`: the quotient rounded first (`1.0 // 0.1` is 10.0; TensorFlow's
    /// `FloorDiv`, Paddle's `floor_divide`).
    FloorOfQuotient,
    /// JAX's `_float_divmod`, one XLA op at a time ([`crate::kernel::xla::XlaOps::xla_floor_div`]):
    /// `(-0.0) // 1.0` is `0.0`, `-128 // -inf` is `-0.0`.
    JaxDivmod,
}

/// How a complex division is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComplexDiv {
    /// Smith's algorithm as NumPy writes it (`|c| >= |d|`: `r = d / c`, `s = 1 / (c + d·r)`).
    Smith,
    /// [`ComplexDiv::Smith`] without NumPy's case for a zero divisor, which gives NaN parts
    /// (`0 / 0` in the ratio) where NumPy gives infinities (Paddle).
    SmithPlain,
    /// Eigen's vectorized `pdiv_complex` (TensorFlow): both operands scaled by
    /// `m = max(|c|, |d|)`, then `(x · conj(y / m)) / |y / m|² / m`.
    ScaledByMax,
    /// XLA's `EmitComplexDivide` ([`crate::kernel::xla::XlaOps::xla_div`]).
    XlaSmith,
    /// [`ComplexDiv::Smith`] with each `x + y·z` one fused multiply-add: c10's
    /// `complex::operator/=` (`torch/headeronly/util/complex.h`, NumPy's Smith) as GCC
    /// contracts it in PyTorch's AVX-512 kernels, whose vectorized `operator/` divides lane
    /// by lane with it (`vec512_complex_float.h`). Recorded: `(2.5+0.5j) / (0.5-2.5j)` is
    /// `2.865608e-09+1j` in complex64, not `-0+1j`. A complex64 array of odd length divides
    /// its last element without contraction (the scalar remainder of its loop); complex128
    /// contracts every element (torch 2.15.0, probed at lengths 1 to 100).
    SmithFused,
}

/// The compute dtype of a kernel working in `f32` for a half type: its results are rounded
/// to it when stored (and, where the semantics say so, after every step of a formula).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Half {
    /// float16.
    F16,
    /// bfloat16.
    BF16,
}

impl Half {
    /// `x` rounded to the half type and back.
    pub fn round<W: Num>(self, x: W) -> W {
        match self {
            Half::F16 => W::from_num(half::f16::from_num(x)),
            Half::BF16 => W::from_num(half::bf16::from_num(x)),
        }
    }
}

/// The element semantics of a framework's CPU kernels, as data: each field is one way in which
/// the frameworks differ, for one op or dtype class. A policy names its semantics in its
/// `[kernel] semantics` key; [`Semantics::named`] gives them.
///
/// | | `numpy` | `torch` | `xla-cpu` | `tf` | `paddle` |
/// | --- | --- | --- | --- | --- | --- |
/// | complex `*` | fused multiply-adds | `(ac − bd, ad + bc)` | fused multiply-adds | plain | plain |
/// | complex `+`, `−` | componentwise | `a + b·(±1+0j)` | componentwise | componentwise | componentwise |
/// | complex `**` | `npy_cpow` | `cpow` | XLA's emitter | `cpow` | `cpow` |
/// | integer `//`, `%` by 0 | 0 | `value` error | [`IntDivZero::Xla`] | `value` error | `value` error |
/// | integer `**` negative | `value` error | 0, ±1 | low 6 bits | `value` error | 0, ±1 |
/// | float `%` with a zero result | the divisor's sign | `fmod`'s | `fmod`'s | `fmod`'s | `fmod`'s |
/// | float `maximum(-0.0, 0.0)` | the second | the second | `0.0` (IEEE) | the second | the second |
/// | half `maximum(0.0, -0.0)` | the first | the second | `0.0` (IEEE) | the first | the second |
/// | subnormal float inputs, results | kept | kept | flushed to ±0 | flushed to ±0 | kept |
/// | uint64 vs signed compare | exact | (never promoted) | as promoted | as promoted | as promoted |
/// | float `//` | `npy_divmod` | `npy_divmod` | JAX's `_float_divmod` | `floor(a / b)` | `npy_divmod` |
/// | complex `/` | Smith | Smith | XLA's emitter | Eigen's scaled | Smith, fused |
///
/// `xla-cpu` also: `bool * x` is a select, integer `**` over 6 exponent bits, complex order by
/// a select, float `**` under DAZ, bfloat16 truth tests raw (see the fields, and
/// [`crate::kernel::xla`] for the formulas).
///
/// ```
/// use promote::{builtin, kernel::Semantics, Policy};
/// assert_eq!(Semantics::NUMPY.name, "numpy");
/// assert_eq!(builtin("jax").unwrap().semantics(), Semantics::XLA_CPU);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Semantics {
    /// The name a policy file gives (`numpy`, `torch`, `xla-cpu`, `tf`, `paddle`).
    pub name: &'static str,
    /// Where the behaviour was observed (the recordings in `tests/fixtures/eval/`).
    pub source: &'static str,
    /// Complex multiply with fused multiply-adds, as NumPy's SIMD loop does.
    pub complex_mul_fma: bool,
    /// What an integer division (and remainder) by zero gives.
    pub int_div_zero: IntDivZero,
    /// Comparisons of uint64 with a signed integer are exact (NumPy 2's `qQ`/`Qq` loops),
    /// whatever dtype the promotion gives.
    pub exact_mixed_int64_compare: bool,
    /// Complex `add`/`subtract` compute `a + b·(±1+0j)` (PyTorch's `alpha`).
    pub complex_add_alpha: bool,
    /// Complex `power` is the C library's `cpow` for every exponent.
    pub complex_pow_libm: bool,
    /// Integer `power` with a negative exponent is PyTorch's (0, 1 or −1) instead of an error.
    pub int_pow_negative_values: bool,
    /// A zero float remainder takes the divisor's sign (NumPy) instead of `fmod`'s.
    pub rem_zero_divisor_sign: bool,
    /// float16/bfloat16 `maximum`/`minimum` keep the first operand on ties (NumPy's scalar
    /// half loop) instead of the second.
    pub half_minmax_first: bool,
    /// Subnormal float32/float64 (and complex, bfloat16) inputs read as zero and subnormal
    /// results are written as zero, keeping the sign (the CPU's DAZ and FTZ modes, which XLA and
    /// TensorFlow turn on).
    pub flush_subnormals: bool,
    /// Ops whose kernels are library calls (`fmod`, `pow`) that the CPU's DAZ/FTZ modes do not
    /// touch: their inputs and results keep subnormals even where `flush_subnormals` is on.
    pub flush_exempt: &'static [Op],

    /// How a float `floor_divide` is computed.
    pub float_floor_divide: FloatFloorDiv,
    /// How a complex `divide` is computed.
    pub complex_div: ComplexDiv,
    /// `multiply` with a bool result casts each non-bool operand to int32 first (TensorFlow's
    /// `_mul_dispatch_factory`: int32 product, cast back to bool), so `True * 0.5` is False.
    pub bool_multiply_via_int32: bool,
    /// Complex `multiply`/`divide` run in Eigen's packets (TensorFlow): the last `len % packet`
    /// elements of an array take the scalar path, C99 Annex G's `*` and `/` (libgcc).
    pub eigen_complex_tail: bool,
    /// Float (and complex, per part) `equal` is `|a − b| < 1e-15` (the difference taken in
    /// the compute dtype, compared as float64) unless either is infinite (then `a == b`) or NaN
    /// (then false); `not_equal` its negation (Paddle's `EqualFunctor`; the threshold probed:
    /// `0 == 9.99e-16` is true, `0 == 1e-15` false).
    pub float_equal_within_1e15: bool,
    /// int32/int64 `power` with a non-negative exponent is the C library's `pow` on doubles,
    /// converted back by x86's truncation (out of range: the minimum), as Paddle's
    /// `std::pow(a, b)` on integers is; negative exponents as `int_pow_negative_values`.
    pub wide_int_pow_via_f64: bool,
    /// Float `maximum`/`minimum` (every width) keep the first operand on ties (XLA's
    /// `EmitFloatMax`: `a >= b || isnan(a) ? a : b`), so `maximum(0.0, -0.0)` is `0.0`.
    pub minmax_first_on_ties: bool,
    /// Complex `<`, `<=`, `>`, `>=`, `maximum`, `minimum` by JAX's `select` on the real parts'
    /// equality, without NumPy's NaN rules; `maximum`/`minimum` return an operand as it is
    /// (a `select`), subnormal parts kept ([`crate::kernel::xla::XlaOps::xla_max`]).
    pub complex_order_select: bool,
    /// `multiply` of a bool and a non-bool operand is `bool ? other : 0` (XLA's algebraic
    /// simplifier rewrites `convert(pred) * x` to a `select`): `False * -1.0` is `0.0`,
    /// `False * inf` is `0.0`, `True * 1e-45` keeps the subnormal; not for a bfloat16 product.
    pub bool_multiply_selects: bool,
    /// Integer `power` is JAX's `_pow_int_int`: only the low 6 bits of the exponent count
    /// (`2 ** 128` is 1, `2 ** -127` is 2 in int8), `0 ** b` is 0 for `b != 0`.
    pub int_pow_low_six_bits: bool,
    /// Complex `power` is XLA's `EmitComplexPower` formula ([`crate::kernel::xla::XlaOps::xla_pow`]).
    pub complex_pow_xla: bool,
    /// A bfloat16 operand of `logical_and`/`or`/`xor`/`not` keeps its subnormals: XLA widens it to
    /// f32 by a shift and LLVM folds `x != 0.0` into an integer test, which DAZ does not touch.
    pub logical_reads_bf16_raw: bool,
    /// Float `power` (not complex) hands its operands to the C library's `pow` unflushed and
    /// runs it with the CPU's DAZ/FTZ modes on ([`crate::kernel::xla::under_daz_ftz`]; XLA:
    /// `pow(0.0, 1e-45)` is 0.0, not 1.0; `pow(1e-45, 0.5)` is 2.646978e-23).
    pub float_pow_under_daz: bool,
    /// How `matmul` sums the products of an output element (`crate::kernel::matmul::MatmulSum`).
    pub matmul: crate::kernel::matmul::MatmulSum,
    /// How a reduction or scan computed in a narrow dtype accumulates; a policy's `[kernel]
    /// narrow_accumulation` sets it (NumPy with ml_dtypes: `each_step`).
    pub narrow_accumulation: NarrowAccumulation,
}

/// How a reduction or scan (`sum`, `prod`, `mean`, `cumsum`, `cumprod`) that computes in a
/// narrow dtype accumulates ([`crate::kernel::narrow::accumulate`]).
///
/// ```
/// use promote::kernel::compute::{NarrowAccumulation, Semantics};
/// use promote::{builtin, Policy};
/// assert_eq!(Semantics::NUMPY.narrow_accumulation, NarrowAccumulation::Carrier);
/// // numpy.toml's `[kernel] narrow_accumulation = "each_step"`
/// let numpy = builtin("numpy").unwrap().semantics();
/// assert_eq!(numpy.narrow_accumulation, NarrowAccumulation::EachStep);
/// assert_eq!(NarrowAccumulation::named("each_step"), Some(NarrowAccumulation::EachStep));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NarrowAccumulation {
    /// In the dtype's carrier (float32, int8, uint8) in the framework's order, the result
    /// rounded into the dtype once (XLA's upcast).
    Carrier,
    /// In the dtype itself: its binary loop called once per element, every partial result
    /// stored in (rounded or wrapped into) the dtype; a reduction starts from the identity
    /// converted to the dtype, a scan from the first element; `mean` divides the sum by the
    /// count in float64 and converts the quotient back. NumPy's reductions over ml_dtypes'
    /// loops, whose `add` computes `float(a) + float(b)` and rounds
    /// (`numpy/_core/_methods.py` `_mean`: `ret.dtype.type(ret / rcount)`).
    EachStep,
}

impl NarrowAccumulation {
    /// The accumulation a policy file names (`carrier`, `each_step`).
    pub fn named(name: &str) -> Option<NarrowAccumulation> {
        match name {
            "carrier" => Some(NarrowAccumulation::Carrier),
            "each_step" => Some(NarrowAccumulation::EachStep),
            _ => None,
        }
    }

    /// The names a policy file may give.
    pub const NAMES: &'static [&'static str] = &["carrier", "each_step"];
}

impl Semantics {
    /// NumPy 2 on x86-64.
    pub const NUMPY: Semantics = Semantics {
        name: "numpy",
        source: "tests/fixtures/eval/numpy.jsonl.gz (numpy 2.4.6, tools/oracle/record_values.py)",
        complex_mul_fma: true,
        int_div_zero: IntDivZero::Zero,
        exact_mixed_int64_compare: true,
        complex_add_alpha: false,
        complex_pow_libm: false,
        int_pow_negative_values: false,
        rem_zero_divisor_sign: true,
        half_minmax_first: true,
        flush_subnormals: false,
        flush_exempt: &[],
        float_floor_divide: FloatFloorDiv::Divmod,
        complex_div: ComplexDiv::Smith,
        bool_multiply_via_int32: false,
        eigen_complex_tail: false,
        float_equal_within_1e15: false,
        wide_int_pow_via_f64: false,
        minmax_first_on_ties: false,
        complex_order_select: false,
        bool_multiply_selects: false,
        int_pow_low_six_bits: false,
        complex_pow_xla: false,
        logical_reads_bf16_raw: false,
        float_pow_under_daz: false,
        matmul: crate::kernel::matmul::MatmulSum {
            fused: &[
                DType::Float32,
                DType::Float64,
                DType::Complex64,
                DType::Complex128,
            ],
            lone_product: &[],
            complex_parts_apart: true,
            int_via_float32: &[],
        },
        narrow_accumulation: NarrowAccumulation::Carrier,
    };

    /// PyTorch 2 on x86-64 (CPU).
    pub const TORCH: Semantics = Semantics {
        name: "torch",
        source:
            "tests/fixtures/eval/torch.jsonl.gz (torch 2.15.0, tools/oracle/record_values_torch.py)",
        complex_mul_fma: false,
        int_div_zero: IntDivZero::Error,
        exact_mixed_int64_compare: false,
        complex_add_alpha: true,
        complex_pow_libm: true,
        int_pow_negative_values: true,
        rem_zero_divisor_sign: false,
        half_minmax_first: false,
        flush_subnormals: false,
        flush_exempt: &[],
        float_floor_divide: FloatFloorDiv::Divmod,
        complex_div: ComplexDiv::SmithFused,
        bool_multiply_via_int32: false,
        eigen_complex_tail: false,
        float_equal_within_1e15: false,
        wide_int_pow_via_f64: false,
        minmax_first_on_ties: false,
        complex_order_select: false,
        bool_multiply_selects: false,
        int_pow_low_six_bits: false,
        complex_pow_xla: false,
        logical_reads_bf16_raw: false,
        float_pow_under_daz: false,
        matmul: crate::kernel::matmul::MatmulSum {
            fused: &[],
            lone_product: &[
                DType::Float32,
                DType::Float64,
                DType::Complex64,
                DType::Complex128,
            ],
            complex_parts_apart: false,
            int_via_float32: &[],
        },
        narrow_accumulation: NarrowAccumulation::Carrier,
    };

    /// XLA on CPU (JAX).
    pub const XLA_CPU: Semantics = Semantics {
        name: "xla-cpu",
        source: "tests/fixtures/eval/jax.jsonl.gz, jax-x64.jsonl.gz (jax 0.10.2, tools/oracle/record_values_fw.py)",
        // XLA's LLVM contracts `ar·bi + ai·br` into fma(ar, bi, ai·br), as NumPy's loop
        complex_mul_fma: true,
        // lax.div/lax.rem of integers by zero: XLA's defined results, then jnp's adjustment
        int_div_zero: IntDivZero::Xla,
        exact_mixed_int64_compare: false,
        complex_add_alpha: false,
        complex_pow_libm: false,
        // negative exponents: unused, int_pow_low_six_bits decides
        int_pow_negative_values: true,
        // jnp.remainder: select(sign differs and fmod != 0, fmod + b, fmod)
        rem_zero_divisor_sign: false,
        half_minmax_first: false,
        // XLA's CPU runtime runs its kernels with DAZ and FTZ on (tsl ScopedFlushDenormal)
        flush_subnormals: true,
        // fmod is a C library call: raw operands, the library's own result
        flush_exempt: &[Op::Remainder],
        float_floor_divide: FloatFloorDiv::JaxDivmod,
        complex_div: ComplexDiv::XlaSmith,
        bool_multiply_via_int32: false,
        eigen_complex_tail: false,
        float_equal_within_1e15: false,
        wide_int_pow_via_f64: false,
        minmax_first_on_ties: true,
        complex_order_select: true,
        bool_multiply_selects: true,
        int_pow_low_six_bits: true,
        complex_pow_xla: true,
        logical_reads_bf16_raw: true,
        float_pow_under_daz: true,
        matmul: crate::kernel::matmul::MatmulSum {
            fused: &[],
            lone_product: &[DType::BFloat16, DType::Float16, DType::Float32, DType::Float64, DType::Complex64, DType::Complex128],
            complex_parts_apart: false,
            int_via_float32: &[],
        },
        narrow_accumulation: NarrowAccumulation::Carrier,
    };

    /// TensorFlow 2 on CPU (every dtype conversion mode: the kernels are the same).
    pub const TF: Semantics = Semantics {
        name: "tf",
        source: "tests/fixtures/eval/tf.jsonl.gz, tf-all.jsonl.gz (tensorflow-cpu 2.21.0, tools/oracle/record_values_fw.py)",
        complex_mul_fma: false,
        int_div_zero: IntDivZero::Error,
        exact_mixed_int64_compare: false,
        complex_add_alpha: false,
        complex_pow_libm: true,
        int_pow_negative_values: false,
        rem_zero_divisor_sign: false,
        half_minmax_first: true,
        flush_subnormals: true,
        flush_exempt: &[Op::Remainder],
        float_floor_divide: FloatFloorDiv::FloorOfQuotient,
        complex_div: ComplexDiv::ScaledByMax,
        bool_multiply_via_int32: true,
        eigen_complex_tail: true,
        float_equal_within_1e15: false,
        wide_int_pow_via_f64: false,
        minmax_first_on_ties: false,
        complex_order_select: false,
        bool_multiply_selects: false,
        int_pow_low_six_bits: false,
        complex_pow_xla: false,
        logical_reads_bf16_raw: false,
        float_pow_under_daz: false,
        matmul: crate::kernel::matmul::MatmulSum {
            fused: &[DType::Float32],
            lone_product: &[],
            complex_parts_apart: false,
            int_via_float32: &[],
        },
        narrow_accumulation: NarrowAccumulation::Carrier,
    };

    /// PaddlePaddle 3 on CPU.
    pub const PADDLE: Semantics = Semantics {
        name: "paddle",
        source: "tests/fixtures/eval/paddle.jsonl.gz (paddlepaddle 3.3.1, tools/oracle/record_values_fw.py)",
        complex_mul_fma: false,
        int_div_zero: IntDivZero::Error,
        exact_mixed_int64_compare: false,
        complex_add_alpha: false,
        complex_pow_libm: true,
        int_pow_negative_values: true,
        rem_zero_divisor_sign: false,
        half_minmax_first: false,
        flush_subnormals: false,
        flush_exempt: &[],
        float_floor_divide: FloatFloorDiv::Divmod,
        complex_div: ComplexDiv::SmithPlain,
        bool_multiply_via_int32: false,
        eigen_complex_tail: false,
        float_equal_within_1e15: true,
        wide_int_pow_via_f64: true,
        minmax_first_on_ties: false,
        complex_order_select: false,
        bool_multiply_selects: false,
        int_pow_low_six_bits: false,
        complex_pow_xla: false,
        logical_reads_bf16_raw: false,
        float_pow_under_daz: false,
        matmul: crate::kernel::matmul::MatmulSum {
            fused: &[],
            lone_product: &[DType::Float32, DType::Float64],
            complex_parts_apart: false,
            int_via_float32: &[DType::Int32, DType::Int64],
        },
        narrow_accumulation: NarrowAccumulation::Carrier,
    };

    /// Every named semantics.
    pub const ALL: &'static [Semantics] = &[
        Semantics::NUMPY,
        Semantics::TORCH,
        Semantics::XLA_CPU,
        Semantics::TF,
        Semantics::PADDLE,
    ];

    /// The semantics of a name, as a policy file's `[kernel] semantics` gives it.
    ///
    /// ```
    /// use promote::kernel::compute::Semantics;
    /// assert_eq!(Semantics::named("xla-cpu"), Some(Semantics::XLA_CPU));
    /// assert_eq!(Semantics::named("cuda"), None);
    /// ```
    pub fn named(name: &str) -> Option<Semantics> {
        Semantics::ALL.iter().copied().find(|s| s.name == name)
    }

    /// Whether a kernel of `op` flushes subnormal inputs and results.
    pub(crate) fn flushes(&self, op: Op) -> bool {
        // the ops of `kernel::ops` (not `sum`, which `exec` computes) flush where their
        // `OpSemantics::flushes_subnormals` says so
        let op_kernel =
            || op != Op::Sum && crate::kernel::ops::kernel(op.info().kernel, self).is_some();
        let os = || crate::kernel::ops::OpSemantics::of(self);
        self.flush_subnormals
            && !self.flush_exempt.contains(&op)
            && (!op_kernel()
                || (os().flushes_subnormals && !os().flush_exempt.contains(&op.info().kernel)))
    }

    /// [`Semantics::flushes`] for `op` computing in `compute`: not where the op's
    /// [`OpSemantics::flush_exempt_in`](crate::kernel::ops::OpSemantics::flush_exempt_in) lists the
    /// dtype.
    pub(crate) fn flushes_in(&self, op: Op, compute: crate::DType) -> bool {
        let kernel = op.info().kernel;
        self.flushes(op)
            && !crate::kernel::ops::OpSemantics::of(self).keeps_subnormals(kernel, compute)
    }

    /// Whether an `input` operand of `op` computed in `compute` is read without the CPU's
    /// DAZ mode, though the op flushes (see [`Semantics::complex_order_select`],
    /// [`Semantics::logical_reads_bf16_raw`]).
    pub(crate) fn reads_raw(&self, op: Op, compute: crate::DType, input: crate::DType) -> bool {
        let select = self.complex_order_select
            && compute.is_complex()
            && matches!(op, Op::Maximum | Op::Minimum);
        // `jnp.logical_not` tests `x != 0` as the logical ops do
        let logical = self.logical_reads_bf16_raw
            && input == crate::DType::BFloat16
            && (op.group() == "logical" || op.info().kernel == "logical_not");
        // `jnp.float_power` is `lax.pow` too (jax/_src/numpy/ufuncs.py)
        let pow_op = op == Op::Power || op.info().kernel == "float_power";
        let pow = self.float_pow_under_daz && pow_op && compute.is_floating_point();
        select || logical || pow
    }
}

impl Default for Semantics {
    fn default() -> Self {
        Semantics::NUMPY
    }
}
