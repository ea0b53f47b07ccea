//! Kernels of the unary ops, the further binary ops and the reductions (issue 12), found by
//! the op's NumPy name: [`kernel`] is the one lookup.
//!
//! * [`unary`]: `negative` … `angle` (34 ops), element functions generic over the working type;
//! * [`binary`]: `left_shift` … `heaviside` (13 ops, `divmod` answers two arrays);
//! * `reduce`: `sum` … `std` (12 reductions), whole array or along one axis, with the
//!   framework's summation order.
//!
//! Each call names its input dtypes, the dtype the element function runs in (`compute`) and
//! the result dtype: the input is cast to `compute`, the op runs there (float16 and bfloat16 in
//! `f32`, rounded once), and the values are cast to `result`. Where the frameworks compute an
//! op differently, the difference is a field of [`OpSemantics`], chosen by the policy's
//! [`Semantics`] name.
//!
//! ```
//! use promote::kernel::ops::{kernel, Args};
//! use promote::kernel::{Array, Semantics};
//! use promote::DType;
//! let sqrt = kernel("sqrt", &Semantics::NUMPY).unwrap();
//! let x = Array::from(vec![4i8, 2]);
//! let out = sqrt.run(&Args::elementwise(&[x.view()], DType::Float16, DType::Float16)).unwrap();
//! assert_eq!(out[0], Array::from(vec![half::f16::from_f32(2.0), half::f16::from_f32(1.414)]));
//! ```

#[doc(hidden)] // internals: public for the doctests of their own rooms, not the API
pub mod binary;
mod fast;
#[doc(hidden)] // internals: public for the doctests of their own rooms, not the API
pub mod fmod_lanes;
mod lookup;
pub mod nans;
pub(crate) mod order;
pub(crate) mod reduce;
#[doc(hidden)] // internals: public for the doctests of their own rooms, not the API
pub mod unary;
mod var;

use super::array::{Array, View, ViewMut};
use super::compute::{ComplexDiv, Half, KernelError, Semantics};
use crate::plan::Plan;
use crate::DType;

pub(crate) use binary::Binary;
pub(crate) use reduce::Reduce;
pub(crate) use unary::Unary;

/// Where the frameworks' element functions for these ops differ (one record per
/// [`Semantics`] name; semantics without a record compute as NumPy does).
///
/// ```
/// use promote::kernel::{ops::OpSemantics, Semantics};
/// assert_eq!(OpSemantics::of(&Semantics::NUMPY).var_correction, 0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpSemantics {
    /// The [`Semantics::name`] this record belongs to.
    pub name: &'static str,
    /// `sign(nan)` is NaN (NumPy) rather than 0 (PyTorch).
    pub sign_nan_is_nan: bool,
    /// `heaviside(nan, h)` is NaN (NumPy) rather than 0 (PyTorch).
    pub heaviside_nan_is_nan: bool,
    /// `var`/`std` divide by `n − correction`: 0 for NumPy (`ddof=0`), 1 for PyTorch.
    pub var_correction: usize,
    /// The order a float reduction (`sum`, `prod`, `mean`, `var`) combines its elements in:
    /// NumPy's pairwise sum, PyTorch's cascade sum, XLA's windows of 32, Eigen's packets.
    pub summation: Summation,
    /// The order a cumulative op (`cumsum`, `cumprod`) combines its elements in.
    pub scan: Scan,
    /// Complex products in reductions and scans as XLA's CPU emitter computes them:
    /// `re = fma(a.re, b.re, −a.im·b.im)`, `im = fma(a.im, b.re, a.re·b.im)`, the accumulator
    /// first.
    pub xla_complex_mul: bool,
    /// `logaddexp` as NumPy writes it (`x == y` first, then `x + log1p(exp(-(x − y)))`), or
    /// PyTorch's (`m + log1p(exp(−|a − b|))` with `m` the maximum).
    pub logaddexp_numpy: bool,
    /// Cumulative ops and sums across rows store every partial result in the dtype (NumPy),
    /// rather than keeping the working type's running value (PyTorch's float16/bfloat16 in
    /// `f32`).
    pub cumulative_rounds: bool,
    /// Cumulative ops of float32/complex64 accumulate in double precision (PyTorch's CPU
    /// `acc_type`), each output rounded once.
    pub cumulative_in_double: bool,
    /// Complex `reciprocal` is `1 / z` by the complex division (PyTorch) instead of NumPy's
    /// own formula (`nc_reciprocal`, which gives `(1−0j)` for `1+0j`).
    pub complex_reciprocal_divides: bool,
    /// Complex `reciprocal` is `1 / z` by Smith's algorithm as NumPy's division writes it
    /// (`s = 1 / (c + d·r)`, the parts multiplied by `s`), without its zero-divisor case
    /// (`reciprocal(0j)` is `nan+nanj`) and without fused multiply-adds, an infinite `z`
    /// without NaN giving `+0+0j` (`reciprocal(-inf+1j)` is `0j`, not `-0-0j`): Paddle's
    /// `ReciprocalFunctor`, probed on 3000 values of each complex dtype (dividing by
    /// `c + d·r` instead of multiplying by `s` differs in a quarter of them).
    pub complex_reciprocal_smith: bool,
    /// float32 `tanh` is Eigen's `generic_fast_tanh_float`
    /// ([`crate::kernel::libm::eigen::fast_tanh_f32`]: Paddle's `TanhFunctor`, `x.tanh()`, whose
    /// scalar path is the same function under `EIGEN_FAST_MATH`).
    pub tanh_eigen_fast: bool,
    /// Complex `negative` is `0 − z` per part (PyTorch: `-(0j)` is `0j`), not a sign flip.
    pub complex_negative_subtracts: bool,
    /// Complex `log2`/`log10` divide `log(z)` by `ln 2`/`ln 10` (PyTorch) instead of
    /// multiplying by `log2(e)`/`log10(e)` (NumPy).
    pub complex_log_base_divides: bool,
    /// Complex `log1p` by PyTorch's CPU formula (`u = z + 1`, `log(u)·(z / (u − 1))`).
    pub complex_log1p_torch: bool,
    /// Complex `expm1`'s real part `expm1(x)·cos(y) − 2·sin(y/2)²` is one fused multiply-add
    /// (c10's `expm1` in `c10/util/complex_math.h` as PyTorch's AVX-512 kernels compile it:
    /// GCC contracts the product and the difference, as its recordings show).
    pub complex_expm1_fused: bool,
    /// Real `angle` is `π` below zero, 0 otherwise, NaN for NaN (PyTorch), not `atan2(0, x)`
    /// (NumPy: `angle(-0.0)` is π).
    pub real_angle_by_sign: bool,
    /// float16/bfloat16 `nextafter` of equal operands gives the second (PyTorch, musl's
    /// algorithm) rather than the first (NumPy's `npy_half_nextafter`).
    pub half_nextafter_equal_second: bool,
    /// The compute dtypes whose `fmax`/`fmin` give the second operand when the operands are
    /// equal (`fmax(0.0, -0.0)`); the others give the first.
    pub fmax_tie_second: &'static [DType],
    /// Multiplies of complex numbers use fused multiply-adds ([`Semantics::complex_mul_fma`]).
    pub complex_mul_fma: bool,
    /// Complex `square` as PyTorch's `cpu_kernel_vec` loop computes it (`pow_tensor_scalar`
    /// with exponent 2: `base * base`): blocks of 2·`Vec::size()` elements (AVX-512: 16
    /// complex64, 8 complex128) by the vectorized product, plain (`vec512_complex_*.h`
    /// `operator*`), the remainder by c10's `operator*` as GCC contracts it, fused
    /// (observed, torch 2.15.0: `square(32.97-10.34j)` is `980.10535-681.81964j` alone,
    /// `980.1054-681.81964j` in the first 16 of an array).
    pub complex_square_vec_body: bool,
    /// Complex `cumprod` multiplies with fused multiply-adds (NumPy's accumulate runs the
    /// scalar loop, plain; PyTorch's does not).
    pub cumprod_fma: bool,
    /// Complex `cumprod` multiplies by C99's Annex G (`__mulsc3`: an infinite operand gives
    /// an infinite product, not NaN), as Eigen's scan does through `std::complex`'s operator
    /// (TensorFlow).
    pub cumprod_c99: bool,
    /// `prod` stores every partial product in the dtype (PyTorch's `scalar_t` reduction;
    /// NumPy does so only across rows, and keeps float16's running product in `f32` along a
    /// contiguous lane).
    pub prod_rounds_each_step: bool,
    /// A complex `prod` along a contiguous lane multiplies without fused multiply-adds,
    /// across rows with them (NumPy 2: a reduce into one value runs `loop_scalar` of
    /// `numpy/_core/src/umath/loops_arithm_fp.dispatch.c.src`, `a_r*b_r - a_i*b_i` rounded
    /// twice, as its recordings show; a reduce across rows runs `simd_cmul`, whose
    /// `npyv_muladdsub` fuses: [`OpSemantics::complex_mul_fma`]).
    pub prod_contiguous_plain: bool,
    /// These ops read and write subnormals as zero where the [`Semantics::flush_subnormals`]
    /// (XLA's kernels run under DAZ/FTZ); TensorFlow's Eigen kernels of these ops keep them
    /// (`negative(1e-45)` is `-1e-45`, `nextafter(0, 1)` is `1e-45` in its recordings).
    pub flushes_subnormals: bool,
    /// Shift amounts are clamped to `[0, bits − 1]` (TensorFlow's `LeftShift`/`RightShift`:
    /// `uint8(63) << 64` is 128, `64 << −1` is 64) instead of NumPy's "a negative or too wide
    /// amount shifts everything out".
    pub shift_amount_clamped: bool,
    /// An integer `mean` sums in the 64-bit integer of its signedness (wrapping only there)
    /// and divides truncating toward zero (TensorFlow's `reduce_mean`: the uint8 mean of
    /// `[200, 200]` is 200), rather than summing in the dtype and dividing in double.
    pub int_mean_wide: bool,
    /// An integer `mean` is the float32 mean converted back, and an integer `var` the
    /// wrapping sum of the wrapping squares of `x − mean` divided in float32, converted back
    /// (`std` its float32 root): Paddle's `mean` casts an integer input to float32, its
    /// `var` is `sum((x − mean(x)) ** 2) / (n − 1)` in the input's dtype
    /// (`python/paddle/tensor/stat.py`).
    pub int_stats_f32: bool,
    /// `negative` is Paddle's `scale(x, −1) + 0`: a real `-0.0 + 0.0` is `0.0`
    /// (`negative(0.0)` is `0.0`), a complex operand is multiplied by `(−1+0j)` as a complex
    /// number (`negative(inf+nanj)` is `nan+nanj`), a bool is returned as it is (`−1·True` is
    /// nonzero: `negative([False, True])` is `[False, True]`).
    pub negative_by_scale: bool,
    /// A real `angle` of NaN is 0 (TensorFlow: `where(x < 0, π, 0)`), where
    /// [`OpSemantics::real_angle_by_sign`] holds.
    pub real_angle_nan_zero: bool,
    /// `argmax` keeps the first maximum by `>` alone, so a NaN never wins unless it comes
    /// first (TensorFlow's and Paddle's CPU kernels), instead of NumPy's "the first NaN".
    pub argmax_skips_nan: bool,
    /// `sign(±0.0)` is `±0.0` (XLA's `sign` returns a zero operand as it is), not `0.0`.
    pub sign_zero_keeps_sign: bool,
    /// The ops (kernel names) that neither read nor write subnormals as zero though
    /// [`OpSemantics::flushes_subnormals`] holds: XLA's bit operations and selects
    /// (`negative`, `copysign`, `nextafter`, ...: no floating-point instruction runs) and its
    /// `fmod`, a C library call.
    pub flush_exempt: &'static [&'static str],
    /// The ops (kernel names) that neither read nor write subnormals as zero though
    /// [`OpSemantics::flushes_subnormals`] holds, when they compute in one of the listed
    /// dtypes: the function the framework runs there returns a subnormal argument as it is,
    /// no floating-point operation reading it under the CPU's DAZ mode (TensorFlow: the C
    /// library's `sin`, `tan`, `sinh`, `asin`, `catan`, ... of a tiny argument, and Eigen's
    /// `pexpm1`, whose `exp(x) == 1` test returns `x`).
    pub flush_exempt_in: &'static [(&'static str, &'static [DType])],
    /// How a computation in a narrow dtype rounds ([`NarrowSteps`]).
    pub narrow_steps: NarrowSteps,
    /// The ops (kernel names) that read a narrow value which is a float32 subnormal
    /// (float8_e8m0fnu's 2^-127) as it is and keep a subnormal result, though
    /// [`OpSemantics::flushes_subnormals`] holds for them on float32 (XLA on CPU:
    /// `sign` and `ceil` of e8m0's 2^-127 are 1 where float32's 2^-127 gives 0; `sin`, `tan`,
    /// `arctan`, `tanh`, `expm1` return it; recorded in tests/fixtures/eval-narrow/jax.jsonl.gz).
    pub narrow_flush_exempt: &'static [&'static str],
    /// The ops (kernel names) that read a narrow value which is a float32 subnormal as it is,
    /// as [`OpSemantics::narrow_flush_exempt`]'s do, but write a subnormal float32 result as
    /// zero (XLA on CPU: `reciprocal` of e8m0's 2^-127 is 2^127, and of 2^127 is 2^-127 flushed
    /// to 0, which e8m0 cannot hold: NaN; tests/fixtures/eval-narrow/jax.jsonl.gz line 1029).
    pub narrow_reads_raw: &'static [&'static str],
    /// The record whose element functions a narrow float dtype's ops run with in their float32
    /// carrier (empty: this one). NumPy's narrow dtypes are ml_dtypes', whose ufunc loops take
    /// the C library's float32 function of the widened value (`T(std::log10(float(a)))`,
    /// ml_dtypes/_src/ufuncs.h), not NumPy's SIMD loops: `log10` of float6's `-1.0` is the C
    /// library's `+nan` (ml_dtypes rounds it to `-0.0`), not SVML's `-nan`.
    pub narrow_ops: &'static str,
    /// `fmax`/`fmin` and `heaviside` are selects on comparisons that read subnormals as zero
    /// (the CPU's DAZ mode) and return the chosen operand as it is (JAX 0.10.2's
    /// `jnp.fmax` is `where(x1 > x2 | isnan(x2), x1, x2)`, `jnp.heaviside` nested `where`s on
    /// `x1 < 0`, `x1 > 0`: `heaviside(1e-45, h)` is `h`); complex operands compare by
    /// [`Semantics::complex_order_select`]. List the ops in [`OpSemantics::flush_exempt`].
    pub selects_compare_flushed: bool,
    /// Float `fmod` is the C library's `fmod` run with the CPU's DAZ mode on, its operands
    /// unflushed: a subnormal divisor reads as zero (NaN), the rest is exact (XLA's `rem`
    /// calls `fmodf`/`fmod` from its runtime: `fmod(1, 1e-45)` is NaN, `fmod(1e-45, 1)` is
    /// `1e-45`).
    pub fmod_under_daz: bool,
    /// An integer `fmod` of two bool operands (read in their promoted dtype: the policy's
    /// `promoted_inputs`) by zero gives the dividend, not 0: JAX 0.10.2's `jnp.fmod`
    /// (`jax/_src/numpy/ufuncs.py`) patches a zero divisor to 1 only where `result_type` is an
    /// integer, which two bools' is not, and XLA's integer `x rem 0` is `x`
    /// (`jnp.fmod(True, False)` is 1; `jnp.fmod(1, 0)` is 0).
    pub fmod_bool_zero_keeps_dividend: bool,
    /// bool and integer `copysign` is C++'s `std::copysign` of the operands as double,
    /// converted back as C casts a double on x86-64 ([`crate::kernel::cast`]: Paddle's
    /// `CopySignFunctor`, `paddle/phi/kernels/funcs/elementwise_functor.h`; `copysign(-128, 1)`
    /// is -128 in int8, `copysign(2**63 - 1, 1)` is `-2**63` in int64, `copysign(2**53 + 1, 1)`
    /// is `2**53`).
    pub int_copysign_via_double: bool,
    /// Float `exp`, `expm1`, `log`, `log2`, `log10`, `log1p`, `sinh` and `tanh` are XLA's own
    /// ([`crate::kernel::libm::xla_math`]: float32 `exp` and `log` are XLA's inlined Cephes
    /// polynomials (`log2`, `log10`: `log` times `1/ln 2`, `log10(e)`), float64 `exp` its
    /// rational `xla.exp.f64`, `tanh` its rational `xla.tanh`, `expm1` its `EmitExpm1` through them, `log1p` its
    /// `EmitLog1p`, Cephes' rational function below `√2 − 1` (JAX 0.10.2's
    /// `log1p(-0.40949588291044)` is 80 ulp from the C library's), `sinh` CHLO's
    /// decomposition through `expm1` and `exp`); `logaddexp`'s `log1p(exp(−|a − b|))` too
    /// (`a + b` where `a − b` is NaN), `arctan` its `xla.atan`
    /// ([`crate::kernel::libm::xla_math::XlaReal::xla_atan`]). On float16 (which XLA's HLO
    /// keeps, each op rounding back) `expm1`, `log2`, `log10`, `arcsin` and `logaddexp` run op
    /// by op in the type, on bfloat16 (normalized to float32 op by op) `log2`, `log10`,
    /// `arcsin` and `logaddexp` (`OpSemantics::xla_half_steps`).
    pub xla_real_fns: bool,
    /// XLA's CPU loop computes some elements of a float `arctan` (float32, float64) and of a
    /// float32 `log` or `exp` with the C library's function (under DAZ/FTZ) instead of its own,
    /// by their place in the array ([`crate::kernel::libm::xla_math::atan_by_libm`],
    /// [`crate::kernel::libm::xla_math::log_exp_by_libm`]; `OpSemantics::libm_lanes`).
    pub xla_libm_lanes: bool,
    /// Float `arctan2` is the C library's `atan2f`/`atan2`, which XLA's CPU code calls
    /// (`llvm.atan2` lowered to a libm call in JAX 0.10.2's jaxlib), run with the CPU's DAZ/FTZ
    /// modes on and its operands unflushed ([`crate::kernel::xla::under_daz_ftz`]:
    /// `atan2(1e-45, 0.0)` is π/2, `atan2(1e-45, 1e-45)` NaN, `atan2(5e-324, -1.0)` −π). List
    /// `arctan2` in [`OpSemantics::flush_exempt`].
    pub atan2_under_daz: bool,
    /// Float `arcsin` is CHLO's decomposition `t + t`, `t = atan2(x, 1 + sqrt((1 − x)(1 + x)))`
    /// (`chlo.asin` as XLA fuses it for JAX 0.10.2), every step under DAZ/FTZ with the atan2 of
    /// [`OpSemantics::atan2_under_daz`]: `arcsin(1.1754944e-38)` is 0 (the halved angle is
    /// subnormal, flushed).
    pub asin_by_atan2: bool,
    /// Float `arctan2` is Eigen's `patan2` on the elements of whole AVX packets
    /// ([`crate::kernel::libm::eigen::EigenAtan::eigen_atan2`]) and the C library's `atan2` run
    /// under the CPU's DAZ/FTZ modes on the rest and on the half types, which have no packet
    /// `atan` (TensorFlow's `Atan2`, Eigen's `scalar_atan2_op`). List `arctan2` in
    /// [`OpSemantics::flush_exempt`].
    pub atan2_eigen: bool,
    /// Real `sign` is Eigen's packet `psign` on the elements of whole AVX packets and its
    /// scalar `sign` on the rest ([`crate::kernel::libm::eigen::packet_sign`],
    /// [`crate::kernel::libm::eigen::scalar_sign`]: TensorFlow, `sign(1e-45)` is `1e-45` in a packet,
    /// `0.0` after it). List `sign` in [`OpSemantics::flush_exempt`].
    pub sign_eigen: bool,
    /// Float `nextafter` is the C library's run under the CPU's DAZ/FTZ modes, its operands
    /// unflushed (TensorFlow: `nextafter(1e-45, -0.0)` is `-0.0`, the operands compare equal;
    /// `nextafter(0.0, 1.0)` is `1e-45`); operands that both read as zero under DAZ give the
    /// second, bfloat16's subnormals too (compared in float32: JAX's `chlo.next_after`). List
    /// `nextafter` in [`OpSemantics::flush_exempt`].
    pub nextafter_under_daz: bool,
    /// How complex `absolute` (and the `|z|` of complex `sign`) is computed ([`ComplexAbs`]).
    pub complex_abs: ComplexAbs,
    /// Complex `exp`, `expm1`, `log`, `log2`, `log10`, `log1p`, `sqrt`, `sin`, `sinh`, `cos`,
    /// `tan`, `tanh`, `arcsin`, `arctan` by XLA's, StableHLO's and JAX's formulas
    /// ([`crate::kernel::libm::xla_complex::XlaComplex`]); `log2` multiplies the parts of `log` by
    /// `1 / ln 2`, `log10` by `log10(e)` (JAX's `jnp.log2`/`log10`: a division by the constant
    /// `log(2)` that XLA turns into a product by its reciprocal); complex `arctan2` and
    /// `logaddexp` too ([`crate::kernel::libm::xla_complex::XlaComplex::xla_atan2`],
    /// [`crate::kernel::libm::xla_complex::XlaComplex::xla_logaddexp`]).
    pub complex_fns_xla: bool,
    /// Complex `log2` divides `log(z)` by `ln 2 + 0i` as a complex number, by C99 Annex G's
    /// division (libgcc's `__divsc3`/`__divdc3`, `std::complex`'s `operator/`; Paddle:
    /// `log2(0j)` is `-inf + nan·i`, `log2(inf + nan·i)` is `inf + nan·i` by the Annex's
    /// recovery of an infinite dividend; its `log10` divides the parts by `ln 10`, see
    /// [`OpSemantics::complex_log_base_divides`]; probed on 3000 values of each dtype).
    pub complex_log_base_complex_div: bool,
    /// How complex `sign` divides by `|z|`.
    pub complex_sign: ComplexSign,
    /// Complex `square` is `((re − im)(re + im), 2·re·im)`, each step flushed where the CPU
    /// flushes, the real part +0 where `re` is finite and `|re| == |im|` (JAX's `lax.square`,
    /// `chlo.square`: `square(1e300+1e300j)` is `0+inf·i`, `square(-0.5-0.5j)` is `0.5j`).
    pub complex_square_xla: bool,
    /// Complex `reciprocal` divides as the semantics' complex `divide` does
    /// ([`Semantics::complex_div`], copied by [`OpSemantics::of`]).
    pub complex_div: ComplexDiv,
    /// The CPU's flush-to-zero mode is on ([`Semantics::flush_subnormals`], copied by
    /// [`OpSemantics::of`]).
    pub ftz: bool,
    /// `sinh` is `±inf` where `exp(|x|)` overflows the working type (PyTorch's SLEEF
    /// `sinh_u10` computes through `exp`: `sinh(710.0)` is inf, the C library's is finite).
    pub sinh_overflows_with_exp: bool,
    /// float32 `sinh` (not the half types computed through it) is `±inf` exactly above this
    /// `|x|`, the C library's below, in place of [`OpSemantics::sinh_overflows_with_exp`]
    /// (PyTorch's `Vectorized<float>::sinh` is SLEEF's `xsinhf`, whose double-float `exp`
    /// stays finite up to 89: [`crate::kernel::libm::sleef::SINH_F32_LIMIT`]).
    pub sinh_f32_limit: Option<u32>,
    /// Float `arctan2`, float64 `logaddexp`, `float_power` and `sinh` run SLEEF's
    /// functions ([`crate::kernel::libm::sleef`]: `logaddexp` through its `exp` and `log1p`; `atan2_u1`, `pow`,
    /// `sinh` bit for bit as `libtorch_cpu.so`'s `Sleef_*8_u10`/`*16_u10` give them) on the
    /// elements a vectorized loop covers, the C library's on the rest: the loop takes this many
    /// bytes of the compute dtype per step (PyTorch's `vectorized_loop`, two 64-byte
    /// `Vectorized` registers on AVX-512: the first `n − n mod (128 / size)` elements; 0:
    /// never). Where it is set, float64 `expm1` and `log1p` are SLEEF's on every element
    /// (`OpSemantics::own_fn`: PyTorch's `vml::vexpm1`, `vml::vlog1p` map the vector
    /// function over the tail too).
    pub sleef_step_bytes: usize,
    /// Float `fmod`, `remainder` and `floor_divide` run PyTorch's vector code on the first
    /// `n − n mod (bytes / size)` elements, this many bytes of the compute dtype a step (0:
    /// never): SLEEF's `fmod`, NaN where its quotient overflows (`fmod(1.0, 1e-45)`), with its
    /// own NaN payloads, `div_floor_floating_vec`'s fix-up and AVX-512's NaN rules
    /// ([`fmod_lanes`], recomputed after the kernel). PyTorch 2.15's `fmod_kernel`,
    /// `remainder_kernel` and `div_floor_kernel` step by one 64-byte `Vectorized` (probed:
    /// float32 arrays of 16 to 31 elements have 16 vector elements).
    pub fmod_lane_bytes: usize,
    /// float32 and float64 `sin` and `cos` are SLEEF's (`xsinf`/`xcosf` u35, `xsin_u1`/`xcos_u1`:
    /// [`crate::kernel::libm::sleef::packets_f32`], [`crate::kernel::libm::sleef::packets_f64`]) on vectors
    /// of this many bytes, each vector's argument reduction chosen by its largest element, and
    /// SLEEF's scalar build on the `len mod` elements after the last whole vector (0: never;
    /// Paddle 3.3.1's CPU kernels call `Sleef_sinf8_u35`, `Sleef_sind4_u10`, ... of AVX2's 32
    /// bytes and `Sleef_sinf1_u35` on the tail: probed through ctypes on `libphi_core.so`).
    pub sleef_trig_bytes: usize,
    /// float32 `sqrt` (and the root of Paddle's `hypot`) runs Eigen 3.3's fast packet square
    /// root on the first `len − len % n` elements, `n` this packet width (0: never), and the
    /// C library's on the rest ([`crate::kernel::libm::eigen::packet_sqrt`]: Paddle's `SqrtFunctor`, an Eigen
    /// expression its CPU build vectorizes with AVX's 8 floats).
    pub sqrt_f32_packet: usize,
    /// float32 and float64 `sqrt` are MKL's `vmsSqrt`/`vmdSqrt` ([`crate::kernel::libm::mkl`]:
    /// PyTorch's `vml::vsqrt`, within one ulp, `sqrt(-1)` is `+NaN`); float16 and bfloat16 stay
    /// the CPU's.
    pub sqrt_mkl: bool,
    /// float32 `reciprocal` runs Eigen's fast packet reciprocal on the first `len − len % n`
    /// elements, `n` this packet width (0: never), and `1 / x` on the rest
    /// ([`crate::kernel::libm::eigen::packet_reciprocal`]: TensorFlow's `Reciprocal`, AVX's 8
    /// floats).
    pub reciprocal_f32_packet: usize,
    /// float32 `exp` runs Eigen's packet `exp` ([`crate::kernel::libm::eigen::exp_f32_deg6`]) on the
    /// first `len − len % n` elements, `n` this packet width (0: never), and the C library's
    /// on the rest (TensorFlow's `Exp`, AVX's 8 floats).
    pub exp_f32_packet: usize,
    /// float32 `sin`, `cos`, `log`, `arctan`, `expm1`, `log1p` and float64 `exp`, `log`,
    /// `arctan`, `expm1`, `log1p` run Eigen's packet functions
    /// ([`crate::kernel::libm::eigen::packet_sin`], [`crate::kernel::libm::eigen::packet_log`],
    /// [`crate::kernel::libm::eigen::packet_expm1`], [`crate::kernel::libm::eigen::packet_exp_f64`], ...)
    /// on the first `len − len % n` elements, `n` the AVX packet width
    /// ([`crate::kernel::libm::eigen::avx_packet_width`]: 8 float32, 4 float64), and the C
    /// library's on the rest (TensorFlow's `Sin`, `Cos`, `Log`, `Atan`: `packet_traits` of
    /// `Eigen/src/Core/arch/AVX/PacketMath.h`).
    pub eigen_packet_fns: bool,
    /// Complex `sqrt`, `log` and complex64 `exp` run Eigen's packet functions on the elements
    /// of whole AVX packets (`psqrt_complex`, `plog_complex`, `pexp_complex`: 4 complex64 or 2
    /// complex128 a packet, [`crate::kernel::libm::eigen::complex_sqrt`],
    /// [`crate::kernel::libm::eigen::complex_log`], [`crate::kernel::libm::eigen::complex_exp_f32`]) and
    /// its scalar ones on the rest (complex `exp`: the C library's); complex `expm1` and `log1p` are Eigen's scalar
    /// `expm1_impl` and `std_fallback::log1p` (`Eigen/src/Core/MathFunctions.h`: no packet
    /// versions for complex), complex `arctan` the C library's `catan`, every step under the
    /// CPU's DAZ/FTZ modes (TensorFlow 2.21).
    pub complex_fns_eigen: bool,
    /// float32 `expm1` runs Eigen's `generic_expm1` ([`crate::kernel::libm::eigen::expm1_f32`]) on
    /// the first `len − len % n` elements, `n` this packet width (0: never), and the C
    /// library's on the rest (Paddle's `Expm1Functor`, AVX's 8 floats).
    pub expm1_f32_packet: usize,
    /// float32/float64 `exp` (and the `exp` in Paddle's `logaddexp`) is Eigen's packet `exp`
    /// ([`crate::kernel::libm::eigen::exp_f32`], [`crate::kernel::libm::eigen::exp_f64`]: Paddle's
    /// `ExpFunctor`, `exp(-inf)` is `2.938265e-39`).
    pub exp_eigen: bool,
    /// float32 `exp`, `log` and float32/float64 `tanh` are NumPy's own AVX-512 loops
    /// ([`crate::kernel::libm::numpy_simd`]: `simd_exp_FLOAT`, `simd_log_FLOAT`, `simd_tanh_f32`,
    /// `simd_tanh_f64`).
    pub numpy_loops: bool,
    /// float32 `arctan2` (not a half type's) is SVML's `__svml_atan2f16`
    /// ([`crate::kernel::libm::svml::atan2`]: NumPy's AVX-512 loop in loops_umath_fp).
    pub atan2_svml: bool,
    /// float16 and float32 `log10` are SVML's `__svml_log10f16`
    /// ([`crate::kernel::libm::svml::log10`]: NumPy's AVX-512 loops in loops_half and
    /// loops_umath_fp).
    pub log10_svml: bool,
    /// float16 and float32 `tan`, `arcsin`, `arctan`, `expm1` and `sinh` are SVML's
    /// `__svml_tanf16`, `__svml_asinf16`, `__svml_atanf16`, `__svml_expm1f16`,
    /// `__svml_sinhf16` ([`crate::kernel::libm::svml::tan`], [`crate::kernel::libm::svml::asin`],
    /// [`crate::kernel::libm::svml::atan`], [`crate::kernel::libm::svml::expm1`],
    /// [`crate::kernel::libm::svml::sinh`]: NumPy's AVX-512 loops in loops_umath_fp; a float16
    /// widened to float32, the result rounded back); and float32 `log2`, `log1p` are
    /// `__svml_log2f16`, `__svml_log1pf16` ([`crate::kernel::libm::svml::log2`],
    /// [`crate::kernel::libm::svml::log1p`]; NumPy's float16 ones match the C library's).
    pub svml_unary: bool,
    /// float32 `tanh` is MKL's `vmsTanh` (VML_HA), modelled as `tanh` in float64 rounded once
    /// ([`crate::kernel::libm::mkl::tanh_f32`]: PyTorch's `vml::vtanh`, `IMPLEMENT_VML_MKL(tanh,
    /// Tanh)` in aten/src/ATen/cpu/vml.h; every recorded float32 value is correctly rounded,
    /// where the C library's `tanhf` is up to 2 ulps off).
    pub tanh_f32_mkl: bool,
    /// float32 `expm1` is MKL's `vmsExpm1` (VML_HA), modelled as `expm1` in float64 rounded
    /// once ([`crate::kernel::libm::mkl::expm1_f32`]: PyTorch's `vml::vexpm1`; the recorded values
    /// but three of the dense samples are correctly rounded: MKL's `expm1(-17)` is `-1`).
    pub expm1_f32_mkl: bool,
    /// A real unary op's NaN result of a non-NaN operand (`log10(-1)`, `arcsin(2)`) is the
    /// x86 vector unit's default NaN, `-NaN` (NumPy's SIMD loops: SVML and its own AVX-512
    /// code give `-nan` for every op, where glibc's `log10f`, `asinf`, `asin` give `+nan`;
    /// tools/oracle/record_values_dense.py, tests/fixtures/eval-dense/numpy.txt.gz).
    pub domain_nan_negative: bool,
    /// float16 `exp` is SVML's float32 `exp` rounded to float16
    /// ([`crate::kernel::libm::svml::exp::expf`]: NumPy's AVX-512 float16 loop).
    pub exp_f16_svml: bool,
    /// `hypot` is JAX 0.10.2's `jnp.hypot`: `hi · sqrt(1 + (lo / hi)²)` of the magnitudes
    /// (`hi` where it is 0, inf where either is), each op rounded to a half type and flushed
    /// where the CPU flushes.
    pub hypot_jnp: bool,
    /// int32/int64 `fmax`/`fmin` go through float and back (Paddle's `FMaxFunctor<int>`:
    /// `lrint(fmax((float) a, (float) b))`; `int64_t`: `llrint` of doubles).
    pub int_fmax_via_float: bool,
    /// int64 `trunc` goes through double and back (Paddle: `2**63 - 1` truncates to `-2**63`).
    pub int64_trunc_via_double: bool,
    /// `logaddexp` is Paddle's `log1p(exp(-|x - y|)) + maximum(x, y)` (python/paddle/tensor/
    /// math.py), each op rounded to the dtype.
    pub logaddexp_paddle: bool,
    /// `hypot` is Paddle's `sqrt(pow(x, 2) + pow(y, 2))` (python/paddle/tensor/math.py), each
    /// op rounded to the dtype (complex operands too: the C library's `cpow`, its `sqrt`);
    /// integer operands (the policy's `promoted_inputs`) are squared
    /// and added in their own dtype, wrapping, and the root is taken of that sum as float32
    /// (`hypot(-2**31, 7)` is 7: the int32 square of `-2**31` wraps to 0).
    pub hypot_by_squares: bool,
    /// float64 `arctan2` of integer operands (the policy's `promoted_inputs`) is the C
    /// library's float32 `atan2f` of the operands as float, widened (Paddle's
    /// `Atan2Functor<int>`, `paddle/phi/kernels/impl/atan2_kernel_impl.h`).
    pub atan2_int_in_f32: bool,
    /// Complex `exp` is `e · (cosf(im), sinf(im))`, `e = expf(re)`: the C library's float32
    /// functions of the parts read as float, multiplied in the dtype, with no special cases
    /// (`exp(inf+0j)` is `inf+nanj`; complex128 gets float32 values: Paddle's
    /// `Eigen::numext::exp` of `phi::dtype::complex`, `paddle/phi/kernels/funcs/eigen/extensions.h`).
    pub complex_exp_float_parts: bool,
    /// Complex `expm1` is `exp(z) − 1` by the C library's complex `exp` (Paddle's
    /// `Expm1Functor` of a complex tensor: `expm1(1e-20+1e-20j)` is `1e-20j`).
    pub complex_expm1_by_exp: bool,
    /// Complex `log1p` is `log((1+0j) + z)` by the C library's complex `log` (Paddle's
    /// `Log1pFunctor`: `(static_cast<T>(1) + x).log()`; `log1p(-0-0j)` is `0j`).
    pub complex_log1p_by_log: bool,
    /// Where the framework's vector code writes a NaN of its own, not the C library's
    /// ([`nans::NanRule`], applied to every result by `exec::execute_into`; PyTorch's MKL VML,
    /// SLEEF, `maximum`'s blend and AVX-512 half conversions: [`TORCH_NANS`]).
    pub nans: &'static [nans::NanRule],
    /// Complex `logaddexp` is PyTorch's `_log_add_exp_helper`, its own case analysis of NaNs
    /// and infinities ([`binary`]'s `torch_logaddexp`: `logaddexp(-inf+1j, -inf+2j)` is
    /// `-inf+1j`, a NaN part gives `nan+nanj`).
    pub complex_logaddexp_torch: bool,
}

/// A float32 function of Eigen's packets ([`OpSemantics::sqrt_f32_packet`],
/// [`OpSemantics::reciprocal_f32_packet`]).
pub(crate) type PacketFn = fn(f32) -> f32;

/// A float64 function of Eigen's packets ([`OpSemantics::eigen_packet_fns`]).
pub(crate) type PacketFn64 = fn(f64) -> f64;

/// An element function in place of the working type's own ([`OpSemantics::own_fn`]): the
/// function of one value, and its loop over a slice compiled for each SIMD path (made by
/// [`own_fn!`]), in which the function's fused multiply-adds are the CPU's instructions
/// rather than calls to the C library's `fmaf`/`fma`.
#[derive(Clone, Copy)]
pub(crate) enum OwnFn {
    /// Computed in float32 (a float16 element widened, the result rounded back).
    F32(fn(f32) -> f32, fn(&[f32], &mut [f32])),
    /// Computed in float64.
    F64(fn(f64) -> f64, fn(&[f64], &mut [f64])),
}

/// `OwnFn::F32(f, loop)` or `OwnFn::F64(f, loop)` for the element function `f`, its slice loop
/// dispatched to the CPU's SIMD path (`arch::dispatch!`).
macro_rules! own_fn {
    ($variant:ident, $t:ty, $f:path) => {{
        crate::kernel::arch::dispatch!(
            /// `out[i] = f(x[i])`.
            map, <>, (x: &[$t], out: &mut [$t]), where {},
            {
                for (o, &v) in out.iter_mut().zip(x) {
                    *o = $f(v);
                }
            }
        );
        OwnFn::$variant($f, map)
    }};
}

impl OwnFn {
    /// The function of `v`, through its float type.
    pub(crate) fn of<W: crate::kernel::cast::Num>(self, v: W) -> W {
        match self {
            OwnFn::F32(f, _) => W::from_num(f(v.re_f32())),
            OwnFn::F64(f, _) => W::from_num(f(v.re_f64())),
        }
    }

    /// `d[i]` = the function of `x[i]`: the compiled loop where `W` is the function's float
    /// type, else element by element through [`OwnFn::of`].
    pub(crate) fn map<W: crate::kernel::cast::Num>(self, x: &[W], d: &mut [W]) {
        use crate::kernel::cast::{same, same_mut};
        match self {
            OwnFn::F32(_, many) => {
                if let (Some(x), Some(d)) = (same::<W, f32>(x), same_mut::<W, f32>(d)) {
                    return many(x, d);
                }
            }
            OwnFn::F64(_, many) => {
                if let (Some(x), Some(d)) = (same::<W, f64>(x), same_mut::<W, f64>(d)) {
                    return many(x, d);
                }
            }
        }
        d.iter_mut().zip(x).for_each(|(o, &v)| *o = self.of(v));
    }
}

/// How complex `sign` is computed.
///
/// ```
/// use promote::kernel::{ops::{ComplexSign, OpSemantics}, Semantics};
/// assert_eq!(OpSemantics::of(&Semantics::NUMPY).complex_sign, ComplexSign::Numpy);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComplexSign {
    /// NumPy 2's `z / |z|` with its cases for infinite and NaN parts.
    Numpy,
    /// `|z| == 0 ? 0 : (re / |z|, im / |z|)` (Paddle's `sign`).
    DivideByAbs,
    /// `|z| == 0 ? z : (re / |z|, im / |z|)`: a zero kept as it is (XLA's `kSign` of a complex
    /// number in JAX 0.10.2: `sign(-0-0j)` is `-0-0j`).
    DivideByAbsKeepZero,
    /// `z == 0 ? 0 : z / (|z| + 0i)` by the semantics' complex division (TensorFlow:
    /// `sign(inf·i)` is `nan+nan·i`).
    DivideAsComplex,
}

/// How complex `absolute` is computed.
///
/// ```
/// use promote::kernel::{ops::{ComplexAbs, OpSemantics}, Semantics};
/// assert_eq!(OpSemantics::of(&Semantics::NUMPY).complex_abs, ComplexAbs::NumpySimd);
/// // NumPy's SIMD loop is 1 ulp above the C library's hypot here
/// assert_eq!(ComplexAbs::NumpySimd.of(2.0f64, -3.0), 3.6055512754639896);
/// assert_eq!(ComplexAbs::Hypot.of(2.0f64, -3.0), 3.605551275463989);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComplexAbs {
    /// The C library's `hypot` of the parts.
    Hypot,
    /// NumPy 2's SIMD loop (`OpCabs` in `loops_unary_complex.dispatch.cpp`, taken for aligned
    /// arrays of every length, tail included): an infinite part makes both infinite, then a
    /// NaN part both NaN; `max · sqrt(fma(r, r, 1))` with `r = min / max` of the magnitudes,
    /// `r = 0` where `max` is 0 or `min` infinite. Its `sign` divides by `hypot` (loops.c.src).
    NumpySimd,
    /// XLA's `EmitComplexAbs`: `max · sqrt(1 + (min / max)²)` of the parts' magnitudes, `min`
    /// where that is NaN, each step flushed to zero under [`OpSemantics::ftz`].
    Xla,
}

impl ComplexAbs {
    /// `|re + im·i|` (for [`ComplexAbs::Xla`] without flushing: see `XlaComplexAbs`).
    ///
    /// ```
    /// use promote::kernel::ops::ComplexAbs;
    /// assert_eq!(ComplexAbs::NumpySimd.of(f32::INFINITY, f32::NAN), f32::INFINITY);
    /// assert!(ComplexAbs::NumpySimd.of(1.0f32, f32::NAN).is_nan());
    /// assert_eq!(ComplexAbs::Xla.of(3.0f32, -4.0), 5.0);
    /// ```
    pub fn of<F: num_traits::Float + crate::kernel::xla::XlaComplexAbs>(self, re: F, im: F) -> F {
        match self {
            ComplexAbs::Hypot => re.hypot(im),
            ComplexAbs::Xla => F::xla_complex_abs(re, im),
            ComplexAbs::NumpySimd => {
                let (mut re, mut im) = (re.abs(), im.abs());
                let (inf, nan) = (F::infinity(), F::nan());
                (im, re) = (
                    if re.is_infinite() { inf } else { im },
                    if im.is_infinite() { inf } else { re },
                );
                (im, re) = (
                    if re.is_nan() { nan } else { im },
                    if im.is_nan() { nan } else { re },
                );
                let (larger, smaller) = (re.max(im), im.min(re));
                let divide = larger != F::zero() && !smaller.is_infinite();
                let ratio = if divide { smaller / larger } else { F::zero() };
                ratio.mul_add(ratio, F::one()).sqrt() * larger
            }
        }
    }
}

/// How a float reduction is ordered.
///
/// ```
/// use promote::kernel::{ops::{OpSemantics, Summation}, Semantics};
/// assert_eq!(OpSemantics::of(&Semantics::NUMPY).summation, Summation::Pairwise);
/// assert_eq!(OpSemantics::of(&Semantics::XLA_CPU).summation, Summation::XlaTree);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Summation {
    /// NumPy's pairwise sum (blocks of 128, eight accumulators).
    Pairwise,
    /// PyTorch's cascade sum (see `reduce`).
    Cascade,
    /// XLA CPU's `TreeReductionRewriter` (see `order::xla_tree`): windows of 32, each folded
    /// in order, then the windows' results the same way.
    XlaTree,
    /// Eigen's vectorized `InnerMostDimReducer` with 32-byte packets (an AVX build; see
    /// `order::eigen_inner`); a float16 packet holds 8 values and rounds every step, its
    /// lanes reduced in float32; a bfloat16 sum is a float32 one (TensorFlow's
    /// `CASTING_SPECIALIZATION(SumReducer, bfloat16, float)`).
    Eigen,
    /// Eigen's `InnerMostDimReducer` at commit f612df27, the Eigen Paddle 3.3.1 pins (see
    /// `order::eigen_packets`): a float32/float64 sum with two accumulators of 32-byte packets,
    /// split in two above 1024 packets; a product and a mean with one accumulator; a complex
    /// sum (no packets) split in two above 1024 values, a complex product and mean in order,
    /// the mean times `1 / n`; float16/bfloat16 summed in float32; across rows in order.
    EigenTree,
}

/// How a computation in a narrow dtype (float8, float6, float4, int4, int2) rounds.
///
/// ```
/// use promote::kernel::{ops::{NarrowSteps, OpSemantics}, Semantics};
/// assert_eq!(OpSemantics::of(&Semantics::NUMPY).narrow_steps, NarrowSteps::RoundOnce);
/// assert_eq!(OpSemantics::of(&Semantics::XLA_CPU).narrow_steps, NarrowSteps::XlaEachOp);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NarrowSteps {
    /// Computed in the carrier (float32, int8, uint8), the result rounded once (ml_dtypes'
    /// ufunc loops, PyTorch's float8 kernels).
    RoundOnce,
    /// XLA on CPU ([`crate::kernel::narrow::xla`]): each HLO op of the computation runs in
    /// the narrow float's upcast type (float16, or float32 where float16 cannot hold its
    /// values) and its result is converted to the narrow dtype: a reduction from its
    /// identity converted into the dtype, every partial result rounded, in XLA's order;
    /// `mean` is that sum times the reciprocal of the count converted into the dtype;
    /// `floor_divide` and `arcsin` round each op of their composites. A narrow integer
    /// `mean` divides as XLA's integer division does; a narrow integer `reciprocal`
    /// (`lax.integer_pow(x, -1)`) raises.
    XlaEachOp,
}

/// How a cumulative op (`cumsum`, `cumprod`) is ordered.
///
/// ```
/// use promote::kernel::{ops::{OpSemantics, Scan}, Semantics};
/// assert_eq!(OpSemantics::of(&Semantics::NUMPY).scan, Scan::Running);
/// assert_eq!(OpSemantics::of(&Semantics::XLA_CPU).scan, Scan::XlaWindows);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scan {
    /// A running value, element after element (NumPy, PyTorch, Eigen's scan).
    Running,
    /// XLA's `ReduceWindowRewriter` (see `order::xla_scan`): rows of 16 scanned, the rows'
    /// totals scanned the same way and added on.
    XlaWindows,
}

/// NumPy's record (and the default of the others' fields).
const OP_SEMANTICS_NUMPY: OpSemantics = OpSemantics {
    name: "numpy",
    nans: &[],
    complex_logaddexp_torch: false,
    sign_nan_is_nan: true,
    heaviside_nan_is_nan: true,
    var_correction: 0,
    summation: Summation::Pairwise,
    scan: Scan::Running,
    xla_complex_mul: false,
    logaddexp_numpy: true,
    cumulative_rounds: true,
    cumulative_in_double: false,
    complex_reciprocal_divides: false,
    complex_negative_subtracts: false,
    complex_log_base_divides: false,
    complex_reciprocal_smith: false,
    tanh_eigen_fast: false,
    complex_log1p_torch: false,
    complex_expm1_fused: false,
    real_angle_by_sign: false,
    half_nextafter_equal_second: false,
    fmax_tie_second: &[DType::Float32, DType::Float64],
    complex_mul_fma: true,
    complex_square_vec_body: false,
    cumprod_fma: false,
    cumprod_c99: false,
    prod_rounds_each_step: false,
    prod_contiguous_plain: true,
    flushes_subnormals: true,
    shift_amount_clamped: false,
    int_mean_wide: false,
    int_stats_f32: false,
    negative_by_scale: false,
    real_angle_nan_zero: false,
    argmax_skips_nan: false,
    sign_zero_keeps_sign: false,
    flush_exempt: &[],
    flush_exempt_in: &[],
    narrow_steps: NarrowSteps::RoundOnce,
    narrow_flush_exempt: &[],
    narrow_reads_raw: &[],
    narrow_ops: "",
    selects_compare_flushed: false,
    fmod_under_daz: false,
    fmod_bool_zero_keeps_dividend: false,
    int_copysign_via_double: false,
    xla_real_fns: false,
    xla_libm_lanes: false,
    atan2_under_daz: false,
    atan2_eigen: false,
    sign_eigen: false,
    nextafter_under_daz: false,
    asin_by_atan2: false,
    complex_abs: ComplexAbs::NumpySimd,
    complex_fns_xla: false,
    complex_log_base_complex_div: false,
    complex_sign: ComplexSign::Numpy,
    complex_square_xla: false,
    complex_div: ComplexDiv::Smith,
    ftz: false,
    sinh_overflows_with_exp: false,
    sinh_f32_limit: None,
    sleef_step_bytes: 0,
    fmod_lane_bytes: 0,
    sleef_trig_bytes: 0,
    sqrt_f32_packet: 0,
    sqrt_mkl: false,
    reciprocal_f32_packet: 0,
    exp_f32_packet: 0,
    eigen_packet_fns: false,
    complex_fns_eigen: false,
    expm1_f32_packet: 0,
    exp_eigen: false,
    exp_f16_svml: true,
    domain_nan_negative: true,
    numpy_loops: true,
    atan2_svml: true,
    log10_svml: true,
    svml_unary: true,
    tanh_f32_mkl: false,
    expm1_f32_mkl: false,
    hypot_jnp: false,
    int_fmax_via_float: false,
    int64_trunc_via_double: false,
    logaddexp_paddle: false,
    hypot_by_squares: false,
    atan2_int_in_f32: false,
    complex_exp_float_parts: false,
    complex_expm1_by_exp: false,
    complex_log1p_by_log: false,
};

/// PyTorch 2.15's NaNs on AVX-512 ([`OpSemantics::nans`]), probed on its CPU kernels (whole
/// arrays, their tails and 1-element arrays; tests/fixtures/eval-dense/torch.txt.gz): float32
/// and float64 `log`, `log2`, `log10`, `arcsin` and float64 `log1p` are MKL VML's (`vml::vlog`,
/// `IMPLEMENT_VML_MKL` in aten/src/ATen/cpu/vml.h: every element, `log(-1)` is `+nan`,
/// `asin(2)` `-nan`, float64 `log1p(-nan)` `+nan`); float32 `log1p` and the half types'
/// `vml` functions are SLEEF's through float32 (`Vectorized<Half>::log` and so on: the last
/// partial vector too); `maximum`/`minimum` blend an all-ones NaN into the lanes of a NaN
/// operand (vec512_float.h), SLEEF's `pow`, `atan2` and float64 `sinh` return one, in the
/// body of `cpu_kernel_vec` (one or two 64-byte registers a step, the rest the C library's);
/// float32 results convert to bfloat16 with every NaN `0xffff` in a vector lane
/// (`cvtfp32_bf16`) and `0x7fc0` in a scalar one, to float16 keeping the payload's top bits
/// (`vcvtps2ph`) or not (c10's scalar conversion).
///
/// ```
/// use promote::kernel::ops::TORCH_NANS;
/// use promote::DType;
/// assert!(TORCH_NANS.iter().any(|r| r.holds("log", DType::Float32)));
/// ```
pub const TORCH_NANS: &[nans::NanRule] = {
    use nans::{Lanes::*, NanOut::*, NanRule};
    const BF16: DType = DType::BFloat16;
    const F16: DType = DType::Float16;
    const F32: DType = DType::Float32;
    const F64: DType = DType::Float64;
    const fn rule(
        ops: &'static [&'static str],
        dtypes: &'static [DType],
        lanes: nans::Lanes,
        of_nan: nans::NanOut,
        of_domain: nans::NanOut,
    ) -> NanRule {
        NanRule {
            ops,
            dtypes,
            lanes,
            of_nan,
            of_domain,
        }
    }
    &[
        // MKL VML: every element
        rule(&["log", "log2", "log10"], &[F32, F64], All, Keep, Positive),
        rule(&["log1p"], &[F64], All, Positive, Positive),
        rule(&["arcsin"], &[F32, F64], All, Keep, Negative),
        // SLEEF's float32 functions through vml's map
        rule(&["log1p"], &[F32, F16], All, Keep, AllOnes),
        rule(&["log", "log2", "log10"], &[F16], All, Keep, QuietOperand),
        rule(&["arcsin"], &[F16], All, Keep, AgainstOperandSign),
        rule(
            &["cos", "sin", "tan", "tanh"],
            &[F16],
            All,
            AllOnes,
            AllOnes,
        ),
        // a NaN mask blended in, SLEEF's all-ones NaN: cpu_kernel_vec's body
        rule(
            &["maximum", "minimum"],
            &[F16, F32, F64],
            Body(64),
            AllOnes,
            Keep,
        ),
        rule(
            &["power", "float_power"],
            &[F16, F32, F64],
            Body(128),
            AllOnes,
            Positive,
        ),
        rule(&["arctan2"], &[F16, F32, F64], Body(128), AllOnes, Keep),
        rule(&["sinh"], &[F16, F64], Body(128), AllOnes, Keep),
        rule(&["square"], &[F16], Body(128), AllOnes, Keep),
        // bfloat16: the conversion decides (every NaN of a vector lane is 0xffff)
        rule(
            &[
                "arcsin", "arctan", "ceil", "cos", "exp", "expm1", "floor", "log", "log10",
                "log1p", "log2", "round", "sin", "sqrt", "tan", "tanh", "trunc",
            ],
            &[BF16],
            All,
            Keep,
            Keep,
        ),
        rule(
            &[
                "angle",
                "add",
                "subtract",
                "multiply",
                "divide",
                "maximum",
                "minimum",
                "fmod",
                "remainder",
                "floor_divide",
            ],
            &[BF16],
            Body(64),
            Keep,
            Keep,
        ),
        rule(
            &[
                "reciprocal",
                "square",
                "sinh",
                "hypot",
                "logaddexp",
                "power",
                "arctan2",
            ],
            &[BF16],
            Body(128),
            Keep,
            Keep,
        ),
    ]
};

/// The per-semantics records (`numpy` first: the default).
pub const OP_SEMANTICS: &[OpSemantics] = &[
    OpSemantics {
        narrow_ops: "ml_dtypes",
        ..OP_SEMANTICS_NUMPY
    },
    // ml_dtypes' ufunc loops on its narrow dtypes (NumPy's `narrow_ops`): NumPy's element
    // rules with the C library's float32 functions in place of NumPy's SIMD loops
    OpSemantics {
        name: "ml_dtypes",
        exp_f16_svml: false,
        domain_nan_negative: false,
        numpy_loops: false,
        atan2_svml: false,
        log10_svml: false,
        svml_unary: false,
        // `Sign` returns a zero operand as it is (ufuncs.h: `if (abs_a == 0) return a;`)
        sign_zero_keeps_sign: true,
        ..OP_SEMANTICS_NUMPY
    },
    OpSemantics {
        name: "torch",
        complex_square_vec_body: true,
        complex_abs: ComplexAbs::Hypot,
        sqrt_mkl: true,
        prod_contiguous_plain: false,
        exp_f16_svml: false,
        domain_nan_negative: false,
        numpy_loops: false,
        atan2_svml: false,
        log10_svml: false,
        svml_unary: false,
        tanh_f32_mkl: true,
        expm1_f32_mkl: true,
        sign_nan_is_nan: false,
        heaviside_nan_is_nan: false,
        var_correction: 1,
        summation: Summation::Cascade,
        scan: Scan::Running,
        xla_complex_mul: false,
        logaddexp_numpy: false,
        cumulative_rounds: false,
        cumulative_in_double: true,
        complex_reciprocal_divides: true,
        complex_negative_subtracts: true,
        complex_log_base_divides: true,
        complex_log1p_torch: true,
        complex_expm1_fused: true,
        real_angle_by_sign: true,
        half_nextafter_equal_second: true,
        fmax_tie_second: &[DType::BFloat16],
        complex_mul_fma: false,
        cumprod_fma: true,
        cumprod_c99: false,
        prod_rounds_each_step: true,
        flushes_subnormals: true,
        shift_amount_clamped: false,
        int_mean_wide: false,
        int_stats_f32: false,
        negative_by_scale: false,
        real_angle_nan_zero: false,
        argmax_skips_nan: false,
        sign_zero_keeps_sign: false,
        flush_exempt: &[],
        sinh_overflows_with_exp: true,
        sinh_f32_limit: Some(crate::kernel::libm::sleef::SINH_F32_LIMIT),
        sleef_step_bytes: 128,
        // aten/src/ATen/native/cpu/BinaryOpsKernel.cpp (torch 2.15): `fmod_kernel`,
        // `remainder_kernel`, `div_floor_floating_vec`; lanes probed over lengths 8..129
        fmod_lane_bytes: 64,
        nans: TORCH_NANS,
        complex_logaddexp_torch: true,
        ..OP_SEMANTICS_NUMPY
    },
    // XLA on CPU (JAX): NumPy's element functions; see tests/kernel_ops_values.rs for what
    // differs (each allowance listed)
    OpSemantics {
        name: "xla-cpu",
        prod_contiguous_plain: false,
        exp_f16_svml: false,
        domain_nan_negative: false,
        numpy_loops: false,
        atan2_svml: false,
        log10_svml: false,
        svml_unary: false,
        // jnp's reductions are XLA reduces (TreeReductionRewriter), its cumulative ops
        // reduce-windows (ReduceWindowRewriter): tests/fixtures/eval-ops/jax*.jsonl.gz
        summation: Summation::XlaTree,
        scan: Scan::XlaWindows,
        xla_complex_mul: true,
        // jnp.logaddexp is lax_other.logaddexp (the `xla_real_fns` branch), not NumPy's
        logaddexp_numpy: false,
        sign_zero_keeps_sign: true,
        flush_exempt: &[
            "negative",
            "positive",
            "conj",
            "real",
            "absolute",
            "copysign",
            "nextafter",
            "fmod",
            "heaviside",
            "fmax",
            "fmin",
            "arctan2",
        ],
        // XLA's real `sin`, `tan`, `arctan`, `tanh` and `expm1` return a subnormal argument as
        // it is (the C library's `sinf`/`tanf`/`atanf` of a tiny argument; XLA's `atan`,
        // `tanh` and `EmitExpm1` select `x` by a comparison that reads it as zero):
        // tests/fixtures/eval-ops/jax*.jsonl.gz, 1e-45, 5e-324 and bfloat16's 9e-41
        flush_exempt_in: &[
            ("sin", &[DType::BFloat16, DType::Float32, DType::Float64]),
            ("tan", &[DType::BFloat16, DType::Float32, DType::Float64]),
            ("arctan", &[DType::BFloat16, DType::Float32, DType::Float64]),
            ("tanh", &[DType::BFloat16, DType::Float32, DType::Float64]),
            ("expm1", &[DType::BFloat16, DType::Float32, DType::Float64]),
        ],
        // XLA's float normalization runs each HLO op on a float8/float4 in float16 (float32
        // for e8m0) and converts its result back: tests/fixtures/eval-narrow/jax*.jsonl.gz
        narrow_steps: NarrowSteps::XlaEachOp,
        narrow_flush_exempt: &["sign", "ceil", "sin", "tan", "arctan", "tanh", "expm1"],
        narrow_reads_raw: &["reciprocal"],
        selects_compare_flushed: true,
        fmod_under_daz: true,
        fmod_bool_zero_keeps_dividend: true,
        xla_real_fns: true,
        xla_libm_lanes: true,
        atan2_under_daz: true,
        asin_by_atan2: true,
        // `chlo.next_after`'s `x == y` (the second operand) is a float compare under DAZ, the
        // step bit arithmetic: `nextafter(1e-45, -0.0)` is `-0.0` (tests/fixtures/eval-ops/jax.jsonl.gz)
        nextafter_under_daz: true,
        complex_abs: ComplexAbs::Xla,
        complex_fns_xla: true,
        complex_sign: ComplexSign::DivideByAbsKeepZero,
        complex_reciprocal_divides: true,
        hypot_jnp: true,
        complex_square_xla: true,
        half_nextafter_equal_second: true,
        fmax_tie_second: &[
            DType::BFloat16,
            DType::Float16,
            DType::Float32,
            DType::Float64,
        ],
        ..OP_SEMANTICS_NUMPY
    },
    // TensorFlow 2 (tests/fixtures/eval-ops/tf.jsonl.gz)
    OpSemantics {
        name: "tf",
        complex_abs: ComplexAbs::Hypot,
        prod_contiguous_plain: false,
        exp_f16_svml: false,
        domain_nan_negative: false,
        numpy_loops: false,
        atan2_svml: false,
        log10_svml: false,
        svml_unary: false,
        // Eigen's reducers on TensorFlow's AVX build (tools/oracle probes over lengths 1..1000)
        summation: Summation::Eigen,
        cumprod_c99: true,
        real_angle_by_sign: true,
        // TensorFlow's threads run with DAZ/FTZ on (probed: `sqrt`, `ceil` of a subnormal
        // are zeros of its sign, `reciprocal(f64::MAX)` is 0); the listed kernels are bit
        // operations or keep subnormals as modelled by their own flags
        flushes_subnormals: true,
        flush_exempt: &[
            "negative",
            "positive",
            "conj",
            "real",
            "imag",
            "absolute",
            "copysign",
            "nextafter",
            "sign",
            "arctan2",
            "fmod",
        ],
        // the recorded subnormal arguments (tests/fixtures/eval-ops/tf.jsonl.gz: 1e-45,
        // 5e-324, bfloat16's 9e-41, complex (5e-324+1j)) these return as they are; the other
        // dtypes of these ops run Eigen's packet functions, which read them as zero
        flush_exempt_in: &[
            ("expm1", &[DType::BFloat16, DType::Float32, DType::Float64]),
            ("sin", &[DType::Float64]),
            ("tan", &[DType::BFloat16, DType::Float32, DType::Float64]),
            ("sinh", &[DType::BFloat16, DType::Float32, DType::Float64]),
            ("arcsin", &[DType::BFloat16, DType::Float64]),
            (
                "arctan",
                &[DType::BFloat16, DType::Complex64, DType::Complex128],
            ),
        ],
        atan2_eigen: true,
        sign_eigen: true,
        nextafter_under_daz: true,
        shift_amount_clamped: true,
        int_mean_wide: true,
        real_angle_nan_zero: true,
        argmax_skips_nan: true,
        complex_sign: ComplexSign::DivideAsComplex,
        complex_reciprocal_divides: true,
        // TF's `truncatemod` of floats: std::fmod under the DAZ mode TF's thread pools run in
        fmod_under_daz: true,
        reciprocal_f32_packet: 8,
        exp_f32_packet: 8,
        eigen_packet_fns: true,
        complex_fns_eigen: true,
        ..OP_SEMANTICS_NUMPY
    },
    // Paddle 3 on CPU (tests/fixtures/eval-ops/paddle.jsonl.gz)
    OpSemantics {
        name: "paddle",
        complex_abs: ComplexAbs::Hypot,
        summation: Summation::EigenTree,
        prod_contiguous_plain: false,
        exp_f16_svml: false,
        domain_nan_negative: false,
        numpy_loops: false,
        atan2_svml: false,
        log10_svml: false,
        svml_unary: false,
        int_stats_f32: true,
        heaviside_nan_is_nan: false,
        var_correction: 1,
        real_angle_by_sign: true,
        negative_by_scale: true,
        argmax_skips_nan: true,
        complex_sign: ComplexSign::DivideByAbs,
        int_fmax_via_float: true,
        int_copysign_via_double: true,
        complex_log_base_complex_div: true,
        complex_log_base_divides: true,
        complex_reciprocal_smith: true,
        tanh_eigen_fast: true,
        expm1_f32_packet: 8,
        sqrt_f32_packet: 8,
        sleef_trig_bytes: 32,
        exp_eigen: true,
        int64_trunc_via_double: true,
        logaddexp_paddle: true,
        hypot_by_squares: true,
        atan2_int_in_f32: true,
        complex_exp_float_parts: true,
        complex_expm1_by_exp: true,
        complex_log1p_by_log: true,
        ..OP_SEMANTICS_NUMPY
    },
];

impl OpSemantics {
    /// Whether `op` computing in `compute` gives an element a value that depends on its
    /// position in the array ([`OpSemantics::sqrt_f32_packet`]): the paths that map elements
    /// alone (tables, chunks) do not take it.
    pub(crate) fn by_position(&self, op: OpClass, compute: DType) -> bool {
        let sign = matches!(op, OpClass::Unary(u) if self.sign_packet_width(u, compute).is_some());
        let complex = matches!(op, OpClass::Unary(u)
            if self.complex_packet_width(u, compute).is_some() || self.packet_f64(u, compute).is_some()
                || self.sleef_trig(u, compute).is_some());
        let lanes = matches!(op, OpClass::Unary(u) if self.libm_lanes(u, compute).is_some());
        sign || complex || lanes || self.packet(op, compute).is_some_and(|(width, _)| width > 1)
    }

    /// The packet width of a complex `sqrt`, `log` or (complex64) `exp` computed in `compute`
    /// where [`OpSemantics::complex_fns_eigen`] holds (AVX: 4 complex64, 2 complex128;
    /// `Eigen/src/Core/arch/AVX/Complex.h` has no `pexp` of `Packet2cd`), or of PyTorch's
    /// vector loop for a complex `square` ([`OpSemantics::complex_square_vec_body`]: 16, 8).
    pub(crate) fn complex_packet_width(&self, op: Unary, compute: DType) -> Option<usize> {
        let width = match compute {
            DType::Complex64 => 4,
            DType::Complex128 => 2,
            _ => return None,
        };
        let exp = op == Unary::Exp && compute == DType::Complex64;
        let eigen = self.complex_fns_eigen && (exp || matches!(op, Unary::Sqrt | Unary::Log));
        if self.complex_square_vec_body && op == Unary::Square {
            return Some(width * 4);
        }
        eigen.then_some(width)
    }

    /// Whether `op` (a kernel name) computing in `compute` reads and writes subnormals as they
    /// are ([`OpSemantics::flush_exempt`], [`OpSemantics::flush_exempt_in`]).
    pub(crate) fn keeps_subnormals(&self, op: &str, compute: DType) -> bool {
        let listed = |(name, dtypes): &(&str, &[DType])| *name == op && dtypes.contains(&compute);
        self.flush_exempt.contains(&op) || self.flush_exempt_in.iter().any(listed)
    }

    /// Where [`OpSemantics::xla_libm_lanes`] holds for `op` computing in `compute`: whether
    /// element `k` of `n` is the C library's function.
    pub(crate) fn libm_lanes(&self, op: Unary, compute: DType) -> Option<fn(usize, usize) -> bool> {
        use crate::kernel::libm::xla_math::{atan_by_libm, log_exp_by_libm};
        match (op, compute) {
            _ if !self.xla_libm_lanes => None,
            (Unary::Arctan, DType::Float32 | DType::Float64) => Some(atan_by_libm),
            (Unary::Log | Unary::Exp, DType::Float32) => Some(log_exp_by_libm),
            _ => None,
        }
    }

    /// The half type whose every op `op` rounds to, where [`OpSemantics::xla_real_fns`] runs
    /// it op by op in `compute` (float16: `expm1`, `log2`, `log10`, `arcsin`; bfloat16: all
    /// but `expm1`, one float32 op there).
    pub(crate) fn xla_half_steps(&self, op: Unary, compute: DType) -> Option<Half> {
        let half = match compute {
            DType::Float16 => Half::F16,
            DType::BFloat16 => Half::BF16,
            _ => return None,
        };
        let steps = match op {
            Unary::Log2 | Unary::Log10 | Unary::Arcsin => true,
            Unary::Expm1 => half == Half::F16,
            _ => false,
        };
        (self.xla_real_fns && steps).then_some(half)
    }

    /// The packet width of a real `sign` computed in `compute` where
    /// [`OpSemantics::sign_eigen`] holds.
    pub(crate) fn sign_packet_width(&self, op: Unary, compute: DType) -> Option<usize> {
        let eigen = self.sign_eigen && op == Unary::Sign;
        eigen.then(|| crate::kernel::libm::eigen::avx_packet_width(compute))?
    }

    /// The packet width of `op` in `compute` where [`OpSemantics::by_position`] holds, and the
    /// packet function of its elements before the tail; width 1 for a function of the element
    /// alone that differs from the type's own ([`OpSemantics::sqrt_mkl`]).
    pub(crate) fn packet(&self, op: OpClass, compute: DType) -> Option<(usize, PacketFn)> {
        use crate::kernel::libm::eigen::{packet_reciprocal, packet_sqrt};
        let sqrt = matches!(op, OpClass::Unary(Unary::Sqrt))
            || (matches!(op, OpClass::Binary(Binary::Hypot)) && self.hypot_by_squares);
        let width = match op {
            _ if compute != DType::Float32 => 0,
            _ if sqrt => self.sqrt_f32_packet,
            OpClass::Unary(Unary::Reciprocal) => self.reciprocal_f32_packet,
            OpClass::Unary(Unary::Exp) => self.exp_f32_packet,
            OpClass::Unary(
                Unary::Sin
                | Unary::Cos
                | Unary::Log
                | Unary::Arctan
                | Unary::Arcsin
                | Unary::Expm1
                | Unary::Log1p,
            ) if self.eigen_packet_fns => 8,
            OpClass::Unary(Unary::Expm1) => self.expm1_f32_packet,
            _ => 0,
        };
        if sqrt && compute == DType::Float32 && self.sqrt_mkl {
            return Some((1, crate::kernel::libm::mkl::sqrt_f32 as PacketFn));
        }
        let f = match op {
            _ if sqrt => packet_sqrt,
            OpClass::Unary(Unary::Exp) => crate::kernel::libm::eigen::exp_f32_deg6,
            OpClass::Unary(Unary::Sin) => crate::kernel::libm::eigen::packet_sin,
            OpClass::Unary(Unary::Cos) => crate::kernel::libm::eigen::packet_cos,
            OpClass::Unary(Unary::Log) => crate::kernel::libm::eigen::packet_log,
            OpClass::Unary(Unary::Arctan) => crate::kernel::libm::eigen::packet_atan,
            OpClass::Unary(Unary::Arcsin) => crate::kernel::libm::eigen::packet_asin,
            OpClass::Unary(Unary::Expm1) if self.eigen_packet_fns => {
                crate::kernel::libm::eigen::packet_expm1
            }
            OpClass::Unary(Unary::Log1p) => crate::kernel::libm::eigen::packet_log1p,
            OpClass::Unary(Unary::Expm1) => crate::kernel::libm::eigen::expm1_f32,
            _ => packet_reciprocal,
        };
        (width > 0).then_some((width, f as PacketFn))
    }

    /// SLEEF's function of a float32/float64 `sin` or `cos` and its vector's width in elements
    /// where [`OpSemantics::sleef_trig_bytes`] is set.
    pub(crate) fn sleef_trig(
        &self,
        op: Unary,
        compute: DType,
    ) -> Option<(crate::kernel::libm::sleef::Trig, usize)> {
        use crate::kernel::libm::sleef::Trig;
        let trig = match op {
            Unary::Sin => Trig::Sin,
            Unary::Cos => Trig::Cos,
            _ => return None,
        };
        let real = matches!(compute, DType::Float32 | DType::Float64);
        (real && self.sleef_trig_bytes > 0)
            .then(|| (trig, self.sleef_trig_bytes / compute.itemsize()))
    }

    /// The packet width and function of a float64 `op` where [`OpSemantics::eigen_packet_fns`]
    /// holds (Eigen's `pexp_double`, `plog_double`, `patan`, `pexpm1`, `plog1p` on AVX packets
    /// of 4), and of PyTorch's float64 `sinh` ([`OpSemantics::sleef_step_bytes`]).
    pub(crate) fn packet_f64(&self, op: Unary, compute: DType) -> Option<(usize, PacketFn64)> {
        use crate::kernel::libm::eigen as e;
        if (op, compute) == (Unary::Sinh, DType::Float64) && self.sleef_step_bytes > 0 {
            // PyTorch's `sinh_kernel` (`cpu_kernel_vec`): `Vectorized<double>::sinh`
            // (`Sleef_sinhd8_u10`) in its vectorized loop, `std::sinh` on the tail
            return Some((
                self.sleef_step_bytes / 8,
                crate::kernel::libm::sleef::sinh_f64,
            ));
        }
        let f = match op {
            _ if !self.eigen_packet_fns || compute != DType::Float64 => return None,
            Unary::Log => e::packet_log_f64 as PacketFn64,
            Unary::Arctan => e::packet_atan_f64,
            Unary::Exp => e::packet_exp_f64,
            Unary::Expm1 => e::packet_expm1_f64,
            Unary::Log1p => e::packet_log1p_f64,
            Unary::Tanh => e::tanh_f64,
            _ => return None,
        };
        Some((4, f))
    }

    /// The function an `op` computing in `compute` runs on each element where it is not the
    /// working type's own: SVML's float32 `exp` for float16 ([`OpSemantics::exp_f16_svml`]),
    /// SVML's float32 `log10` for float16 and float32 ([`OpSemantics::log10_svml`]), its
    /// `tan`, `arcsin`, `arctan`, `expm1`, `sinh`, `log2`, `log1p` ([`OpSemantics::svml_unary`]), MKL's float32 `tanh`
    /// and `expm1` ([`OpSemantics::tanh_f32_mkl`], [`OpSemantics::expm1_f32_mkl`]),
    /// NumPy's own float32 `exp`, `log`, `sin`, `cos` and float32/float64 `tanh` loops
    /// ([`OpSemantics::numpy_loops`]; a float16 `tanh` is SVML's, not these); `None`
    /// elsewhere.
    pub(crate) fn own_fn(&self, op: Unary, compute: DType) -> Option<OwnFn> {
        use crate::kernel::libm::numpy_simd;
        Some(match (op, compute) {
            (Unary::Exp, DType::Float16) if self.exp_f16_svml => {
                own_fn!(F32, f32, crate::kernel::libm::svml::exp::expf)
            }
            (Unary::Log10, DType::Float16 | DType::Float32) if self.log10_svml => {
                own_fn!(F32, f32, crate::kernel::libm::svml::log10::log10f)
            }
            (Unary::Tan, DType::Float16 | DType::Float32) if self.svml_unary => {
                own_fn!(F32, f32, crate::kernel::libm::svml::tan::tanf)
            }
            (Unary::Arcsin, DType::Float16 | DType::Float32) if self.svml_unary => {
                own_fn!(F32, f32, crate::kernel::libm::svml::asin::asinf)
            }
            (Unary::Arctan, DType::Float16 | DType::Float32) if self.svml_unary => {
                own_fn!(F32, f32, crate::kernel::libm::svml::atan::atanf)
            }
            (Unary::Sinh, DType::Float16 | DType::Float32) if self.svml_unary => {
                own_fn!(F32, f32, crate::kernel::libm::svml::sinh::sinhf)
            }
            (Unary::Expm1, DType::Float16 | DType::Float32) if self.svml_unary => {
                own_fn!(F32, f32, crate::kernel::libm::svml::expm1::expm1f)
            }
            (Unary::Tanh, DType::Float32) if self.tanh_f32_mkl => {
                own_fn!(F32, f32, crate::kernel::libm::mkl::tanh_f32)
            }
            (Unary::Expm1, DType::Float32) if self.expm1_f32_mkl => {
                own_fn!(F32, f32, crate::kernel::libm::mkl::expm1_f32)
            }
            (Unary::Log2, DType::Float32) if self.svml_unary => {
                own_fn!(F32, f32, crate::kernel::libm::svml::log2::log2f)
            }
            (Unary::Log1p, DType::Float32) if self.svml_unary => {
                own_fn!(F32, f32, crate::kernel::libm::svml::log1p::log1pf)
            }
            // PyTorch's `vml::vlog1p` and `vml::vexpm1` map `Vectorized<double>::log1p`,
            // `::expm1` (SLEEF's `Sleef_log1pd8_u10`, `Sleef_expm1d8_u10`) over every element,
            // the tail in a partial vector
            (Unary::Log1p, DType::Float64) if self.sleef_step_bytes > 0 => {
                own_fn!(F64, f64, crate::kernel::libm::sleef::log1p_f64)
            }
            (Unary::Expm1, DType::Float64) if self.sleef_step_bytes > 0 => {
                own_fn!(F64, f64, crate::kernel::libm::sleef::expm1_f64)
            }
            (Unary::Exp, DType::Float32) if self.numpy_loops => {
                own_fn!(F32, f32, numpy_simd::exp_f32)
            }
            (Unary::Log, DType::Float32) if self.numpy_loops => {
                own_fn!(F32, f32, numpy_simd::log_f32)
            }
            (Unary::Tanh, DType::Float32) if self.numpy_loops => {
                own_fn!(F32, f32, numpy_simd::tanh_f32)
            }
            (Unary::Sin, DType::Float32) if self.numpy_loops => {
                own_fn!(F32, f32, numpy_simd::sin_f32)
            }
            (Unary::Cos, DType::Float32) if self.numpy_loops => {
                own_fn!(F32, f32, numpy_simd::cos_f32)
            }
            // Eigen's `ptanh_float`, also its scalar `numext::tanh(float)` (TensorFlow)
            (Unary::Tanh, DType::Float32) if self.eigen_packet_fns => {
                own_fn!(F32, f32, crate::kernel::libm::eigen::tanh_f32)
            }
            (Unary::Tanh, DType::Float32) if self.tanh_eigen_fast => {
                own_fn!(F32, f32, crate::kernel::libm::eigen::fast_tanh_f32)
            }
            (Unary::Tanh, DType::Float64) if self.numpy_loops => {
                own_fn!(F64, f64, numpy_simd::tanh_f64)
            }
            _ => return None,
        })
    }

    /// The record of a [`Semantics`] (NumPy's when it has none).
    ///
    /// ```
    /// use promote::{builtin, kernel::ops::OpSemantics, Policy};
    /// let torch = OpSemantics::of(&builtin("torch").unwrap().semantics());
    /// assert_eq!((torch.name, torch.var_correction), ("torch", 1));
    /// ```
    pub fn of(sem: &Semantics) -> OpSemantics {
        let named = OP_SEMANTICS.iter().find(|o| o.name == sem.name);
        OpSemantics {
            complex_mul_fma: sem.complex_mul_fma,
            complex_div: sem.complex_div,
            ftz: sem.flush_subnormals,
            ..*named.unwrap_or(&OP_SEMANTICS[0])
        }
    }
}

/// What an op kernel can refuse.
///
/// ```
/// use promote::kernel::{ops::{kernel, Args, OpError}, Array, Semantics};
/// use promote::DType;
/// let sqrt = kernel("sqrt", &Semantics::NUMPY).unwrap();
/// let x = Array::from(vec![4i8]);
/// let e = sqrt.run(&Args::elementwise(&[x.view()], DType::Int8, DType::Int8)).unwrap_err();
/// assert!(matches!(e, OpError::Unsupported { op: "sqrt", .. }));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpError {
    /// A refusal of the shared kernel layer (shapes, integer division by zero, ...).
    Kernel(KernelError),
    /// The op has no element function for this compute dtype: ask with a dtype the framework
    /// computes the op in (the plan's compute dtype).
    Unsupported {
        /// The op's NumPy name.
        op: &'static str,
        /// The compute dtype asked for.
        dtype: DType,
    },
}

impl std::fmt::Display for OpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpError::Kernel(e) => e.fmt(f),
            OpError::Unsupported { op, dtype } => write!(
                f,
                "{op} has no kernel computing in {dtype}; use the compute dtype the policy resolves"
            ),
        }
    }
}

impl std::error::Error for OpError {}

impl From<KernelError> for OpError {
    fn from(e: KernelError) -> Self {
        OpError::Kernel(e)
    }
}

/// The operands and dtypes of one op call.
///
/// ```
/// use promote::kernel::{ops::{kernel, Args}, Array, Semantics};
/// use promote::DType;
/// let x = Array::from(vec![1i32, 2, 3, 4]);
/// let sum = kernel("sum", &Semantics::NUMPY).unwrap();
/// let ins = [x.view()];
/// let args = Args { shape: &[2, 2], axis: Some(0), ..Args::elementwise(&ins, DType::Int64, DType::Int64) };
/// assert_eq!(sum.run(&args).unwrap()[0], Array::from(vec![4i64, 6]));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Args<'a> {
    /// The operands (one for unary ops and reductions, two for binary ops), equal lengths or
    /// length 1 (broadcast).
    pub inputs: &'a [View<'a>],
    /// The dtype the element function runs in.
    pub compute: DType,
    /// The result dtype (`divmod`: of both results).
    pub result: DType,
    /// The operand's shape, row-major (reductions; empty: 1-d of the operand's length).
    pub shape: &'a [usize],
    /// The reduced axis (`None`: the whole array, flattened).
    pub axis: Option<usize>,
}

impl<'a> Args<'a> {
    /// An elementwise call (or a whole-array reduction).
    ///
    /// ```
    /// use promote::kernel::{ops::{kernel, Args}, Array, Semantics};
    /// use promote::DType;
    /// let (a, b) = (Array::from(vec![1i16]), Array::from(vec![3i16]));
    /// let shift = kernel("left_shift", &Semantics::NUMPY).unwrap();
    /// let ins = [a.view(), b.view()];
    /// assert_eq!(shift.run(&Args::elementwise(&ins, DType::Int16, DType::Int16)).unwrap()[0], Array::from(vec![8i16]));
    /// ```
    pub fn elementwise(inputs: &'a [View<'a>], compute: DType, result: DType) -> Args<'a> {
        Args {
            inputs,
            compute,
            result,
            shape: &[],
            axis: None,
        }
    }
}

/// Which family an op belongs to, and which element function it runs.
///
/// ```
/// use promote::kernel::{ops::{kernel, OpClass}, Semantics};
/// assert!(matches!(kernel("cumsum", &Semantics::NUMPY).unwrap().class, OpClass::Reduce(_)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpClass {
    /// One operand, one result of the same length.
    Unary(Unary),
    /// Two operands, broadcast.
    Binary(Binary),
    /// A reduction or a cumulative op.
    Reduce(Reduce),
}

/// The kernel of one op under one semantics (from [`kernel`]).
///
/// ```
/// use promote::kernel::{ops::kernel, Semantics};
/// let k = kernel("absolute", &Semantics::NUMPY).unwrap();
/// assert_eq!(k.name, "absolute");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpKernel {
    /// The op's NumPy name.
    pub name: &'static str,
    /// Its element function.
    pub class: OpClass,
    /// The element semantics it computes with.
    pub sem: Semantics,
}

impl OpKernel {
    /// Runs the op: one result array (two for `divmod`).
    ///
    /// ```
    /// use promote::kernel::{ops::{kernel, Args}, Array, Semantics};
    /// use promote::DType;
    /// let x = Array::from(vec![-1.5f64]);
    /// let out = kernel("absolute", &Semantics::NUMPY).unwrap().run(&Args::elementwise(&[x.view()], DType::Float64, DType::Float64)).unwrap();
    /// assert_eq!(out, vec![Array::from(vec![1.5f64])]);
    /// ```
    pub fn run(&self, args: &Args<'_>) -> Result<Vec<Array>, OpError> {
        let want = match self.class {
            OpClass::Binary(_) => 2,
            _ => 1,
        };
        if args.inputs.len() != want {
            return Err(KernelError::Shape(format!(
                "{} takes {want} operand(s), got {}",
                self.name,
                args.inputs.len()
            ))
            .into());
        }
        let os = OpSemantics::of(&self.sem);
        let unsupported = || OpError::Unsupported {
            op: self.name,
            dtype: args.compute,
        };
        match self.class {
            OpClass::Unary(u) => unary::run(u, &os, args)
                .ok_or_else(unsupported)
                .map(|a| vec![a]),
            OpClass::Binary(b) => binary::run(b, &self.sem, &os, args)?.ok_or_else(unsupported),
            OpClass::Reduce(r) => reduce::run(r, &os, args)?
                .ok_or_else(unsupported)
                .map(|a| vec![a]),
        }
    }
}

/// The kernel of an op by its NumPy name (`"sqrt"`, `"left_shift"`, `"cumsum"`), computing
/// with `sem`; `None` for a name this module does not know.
///
/// ```
/// use promote::kernel::ops::kernel;
/// use promote::kernel::Semantics;
/// assert!(kernel("arctan2", &Semantics::TORCH).is_some());
/// assert!(kernel("frobnicate", &Semantics::NUMPY).is_none());
/// ```
pub fn kernel(op_name: &str, sem: &Semantics) -> Option<OpKernel> {
    let class = unary::lookup(op_name)
        .map(|(n, u)| (n, OpClass::Unary(u)))
        .or_else(|| binary::lookup(op_name).map(|(n, b)| (n, OpClass::Binary(b))))
        .or_else(|| reduce::lookup(op_name).map(|(n, r)| (n, OpClass::Reduce(r))));
    class.map(|(name, class)| OpKernel {
        name,
        class,
        sem: *sem,
    })
}

/// Every op name [`kernel`] knows, unary, binary, then reductions.
///
/// ```
/// use promote::kernel::ops::{kernel, names};
/// use promote::kernel::Semantics;
/// assert!(names().all(|n| kernel(n, &Semantics::NUMPY).is_some()));
/// assert!(names().any(|n| n == "sqrt"));
/// ```
pub fn names() -> impl Iterator<Item = &'static str> {
    unary::NAMES
        .iter()
        .map(|(n, _)| *n)
        .chain(binary::NAMES.iter().map(|(n, _)| *n))
        .chain(reduce::NAMES.iter().map(|(n, _)| *n))
}

/// `a` cast to `d` unless it already is.
pub(crate) fn into_dtype(a: Array, d: DType) -> Array {
    if a.dtype() == d {
        a
    } else {
        super::cast::cast_array(a.view(), d)
    }
}

/// Calls `$body` with `$s` bound to the operand `$v` as a `&[T]` of dtype `$d` (cast into a
/// temporary when it has another dtype).
macro_rules! with_slice {
    ($v:expr, $d:expr, $T:ty, $s:ident => $body:expr) => {{
        let v: $crate::kernel::array::View<'_> = $v;
        let owned;
        let view = if v.dtype() == $d {
            v
        } else {
            owned = $crate::kernel::cast::cast_array(v, $d);
            owned.view()
        };
        let $s: &[$T] =
            <$T as $crate::kernel::array::Element>::slice(view).expect("cast to the dtype");
        $body
    }};
}
pub(crate) use with_slice;

/// The [`dispatch`](super::dispatch) kernel of every op of this module: runs the op named by
/// the plan's kernel name with the policy's semantics, each operand first cast to the plan's
/// input dtype for it, computing in `plan.compute`, into `out` (of `plan.result`).
pub(crate) fn run_planned(
    plan: &Plan,
    inputs: &[View<'_>],
    out: ViewMut<'_>,
    sem: &Semantics,
) -> Result<(), KernelError> {
    let name = plan.op.info().kernel;
    let k = kernel(name, sem).ok_or(KernelError::NoKernel { op: plan.op })?;
    let mut out = out;
    let by_position = OpSemantics::of(sem).by_position(k.class, plan.compute);
    if let (OpClass::Unary(_), [x], false) = (k.class, inputs, by_position) {
        let direct = |x: View<'_>, o: ViewMut<'_>| run_kernel(&k, plan, &[x], o, sem);
        let key = lookup::TableKey::new(plan, x.dtype(), out.dtype(), sem);
        if let Some(done) = lookup::unary(Some(key), *x, out.reborrow(), direct) {
            return flushed(done, plan, out, sem);
        }
    }
    let done = run_kernel(&k, plan, inputs, out.reborrow(), sem);
    flushed(done, plan, out, sem)
}

/// `done`, the results flushed to zero where subnormal, if the semantics flush this op (its
/// inputs were flushed by `compute::prepare_inputs`).
fn flushed(
    done: Result<(), KernelError>,
    plan: &Plan,
    out: ViewMut<'_>,
    sem: &Semantics,
) -> Result<(), KernelError> {
    if done.is_ok() && sem.flushes_in(plan.op, plan.compute) {
        super::compute::flush_in_place(out);
    }
    done
}

/// [`run_planned`] element by element: the op's fast path where it has one, else its kernel
/// over the operands cast to the plan's input dtypes.
fn run_kernel(
    k: &OpKernel,
    plan: &Plan,
    inputs: &[View<'_>],
    out: ViewMut<'_>,
    sem: &Semantics,
) -> Result<(), KernelError> {
    let os = OpSemantics::of(sem);
    let mut out = out;
    let taken = match (k.class, inputs) {
        _ if os.by_position(k.class, plan.compute) => None,
        (OpClass::Unary(u), [x]) => fast::unary(u, &os, plan, *x, out.reborrow()),
        (OpClass::Reduce(Reduce::Mean), [x]) => fast::mean(&os, plan, *x, out.reborrow()),
        (OpClass::Reduce(r), [x]) => fast::cumsum(r, &os, plan, *x, out.reborrow()),
        _ => None,
    };
    if let Some(done) = taken {
        return done;
    }
    let cast: Vec<Option<Array>> = inputs
        .iter()
        .zip(&plan.inputs)
        .map(|(v, &d)| (v.dtype() != d).then(|| super::cast::cast_array(*v, d)))
        .collect();
    let views: Vec<View<'_>> = inputs
        .iter()
        .zip(&cast)
        .map(|(v, c)| c.as_ref().map_or(*v, Array::view))
        .collect();
    let args = Args::elementwise(&views, plan.compute, plan.result);
    let got = k.run(&args).map_err(|e| match e {
        OpError::Kernel(e) => e,
        OpError::Unsupported { dtype, .. } => KernelError::Unsupported { op: plan.op, dtype },
    })?;
    let first = got
        .into_iter()
        .next()
        .expect("an op kernel answers one array");
    super::cast::cast_view(first.view(), out);
    Ok(())
}

/// The kernel of `sum`: NumPy's pairwise order ([`exec`](super::exec)'s buffered sum), or the
/// framework's own order where its [`OpSemantics::summation`] differs for an inexact dtype
/// (PyTorch's cascade sum, XLA's windows).
pub(crate) fn run_sum(
    plan: &Plan,
    inputs: &[View<'_>],
    out: ViewMut<'_>,
    sem: &Semantics,
) -> Result<(), KernelError> {
    if OpSemantics::of(sem).summation != Summation::Pairwise && plan.compute.is_inexact() {
        return run_planned(plan, inputs, out, sem);
    }
    super::exec::run_sum(plan, inputs, out, sem)
}
