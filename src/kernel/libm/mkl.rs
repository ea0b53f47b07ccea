//! Intel MKL's vector math (VML) as PyTorch 2.15's CPU build runs it: `torch.sqrt` of a float32
//! tensor is `vmsSqrt(n, x, y, VML_HA | VML_FTZDAZ_OFF | VML_ERRMODE_IGNORE)`
//! (`aten/src/ATen/cpu/vml.h`, `IMPLEMENT_VML_MKL(sqrt, Sqrt)`), not the CPU's correctly
//! rounded square root, and of a float64 one `vmdSqrt`. On a CPU MKL does not take for an Intel one (the recordings' AMD EPYC
//! with AVX-512) VML dispatches to its generic SSE kernels `mkl_vml_kernel_sSqrt_EXHAynn` and
//! `mkl_vml_kernel_dSqrt_EXHAynn`, read off their instructions: the estimate `rsqrtps`, then
//! Newton steps (float32) or a polynomial correction (float64), each product and sum rounded
//! (no fused multiply-add). They are within one ulp, and differ from IEEE `sqrt` on about one
//! float32 in six (`sqrt(19)` is `0x408b7c19`, IEEE `0x408b7c1a`) and one float64 in eighty.
//! Checked bit for bit against `vmsSqrt`/`vmdSqrt` called from PyTorch's `libtorch_cpu.so` on
//! 2^20 values each (every 4096th float32 bit pattern; random float64 ones), and by
//! `tests/dense_values.rs`.
//!
//! ```
//! use promote::kernel::libm::mkl::sqrt_f32;
//! assert_eq!(sqrt_f32(19.0).to_bits(), 0x408b_7c19);
//! assert_eq!(sqrt_f32(4.0), 2.0);
//! // a negative operand is the positive quiet NaN
//! assert_eq!(sqrt_f32(-1.0).to_bits(), 0x7fc0_0000);
//! ```

/// `vmsSqrt` of one element (HA, the generic kernel; see the module's documentation).
///
/// Positive normal operands up to `0x7f7ff000` take the Newton path; a negative operand
/// (`-inf` too, not `-0.0` or a NaN) gives `+NaN` `0x7fc00000`; the rest (zeros, subnormals,
/// the largest floats, `inf`, NaN) are the CPU's `sqrt`, as MKL's scalar fallback gives them.
pub fn sqrt_f32(x: f32) -> f32 {
    let bits = x.to_bits();
    // the kernel's own test: `(bits + 0x7f800000) as i32 > 0xfefff000 as i32` is special
    let special = (bits.wrapping_add(0x7f80_0000) as i32) > (0xfeff_f000_u32 as i32);
    if special {
        return if x < 0.0 {
            f32::from_bits(0x7fc0_0000)
        } else {
            x.sqrt()
        };
    }
    let y = crate::kernel::libm::eigen::approximate_rsqrt(x);
    let s = y * x;
    let h = y * 0.5;
    let e = 0.5 - s * h;
    let s1 = s * e + s;
    let h1 = h * e + h;
    let r = x - s1 * s1;
    r * h1 + s1
}

/// `vmdSqrt` of one element (HA, the generic kernel): the float32 `rsqrtps` estimate of the
/// mantissa scaled by the exponent's half, then `x·y + x·y·e·p(e)`, `e = 1 − x·y²` with `x`
/// split in a 26-bit high part and the rest, `p` MKL's degree-3 polynomial. Operands whose high
/// word is outside the positive normals below `2^1022` are the CPU's `sqrt`, negatives `+NaN`.
///
/// ```
/// use promote::kernel::libm::mkl::sqrt_f64;
/// assert_eq!(sqrt_f64(4.0), 2.0);
/// assert_eq!(sqrt_f64(-4.0).to_bits(), 0x7ff8_0000_0000_0000);
/// ```
pub fn sqrt_f64(x: f64) -> f64 {
    let bits = x.to_bits();
    let high = (bits >> 32) as u32;
    if (high.wrapping_add(0x7ff0_0000) as i32) > (0xffbf_ffff_u32 as i32) {
        return if x < 0.0 {
            f64::from_bits(0x7ff8_0000_0000_0000)
        } else {
            x.sqrt()
        };
    }
    // the mantissa as a float32 in [1, 4) (an odd exponent's in [2, 4)), and the scale
    // 2^(-exponent/2) that takes its reciprocal square root to x's
    let even = !bits & 0x0010_0000_0000_0000;
    let mantissa = (((bits & 0x001f_ffff_e000_0000) | (even + 0x07f0_0000_0000_0000)) >> 29) as u32;
    let estimate = f64::from(crate::kernel::libm::eigen::approximate_rsqrt(
        f32::from_bits(mantissa),
    ));
    let scale = (even
        .wrapping_sub(bits & 0x7ff0_0000_0000_0000)
        .wrapping_add(0xbfd0_0000_0000_0000))
        >> 1;
    let y = f64::from_bits(scale) * estimate;
    let y2 = y * y;
    let high = f64::from_bits(bits & 0xffff_ffff_f800_0000);
    let low = x - high;
    let e = 1.0 - high * y2 - low * y2;
    let p = [
        0x3fd4_0000_b130_01d9_u64,
        0x3fd8_0000_0000_00f6,
        0x3fdf_ffff_ffff_fe71,
    ]
    .iter()
    .fold(f64::from_bits(0x3fd1_8000_3233_8cbb), |p, &c| {
        p * e + f64::from_bits(c)
    });
    let correction = p * e * y * x;
    high * y + (low * y + correction)
}

/// `vmsTanh` of one element (VML_HA), modelled as `tanh` in float64 rounded once to float32:
/// PyTorch's float32 `tanh` (`vml::vtanh`, `IMPLEMENT_VML_MKL(tanh, Tanh)`) gives the
/// correctly rounded value on every recorded operand (tests/fixtures/eval-ops/torch.jsonl.gz,
/// tests/fixtures/eval-dense/torch.txt.gz), where the C library's `tanhf` is up to 2 ulps
/// off; MKL's kernel itself is not ported. A NaN comes back as it is.
///
/// ```
/// use promote::kernel::libm::mkl::tanh_f32;
/// assert_eq!(tanh_f32(9.0).to_bits(), 0x3f7f_ffff); // 1 − 3.05e-8 rounds below 1
/// assert_eq!(tanh_f32(-0.0).to_bits(), 0x8000_0000);
/// ```
pub fn tanh_f32(x: f32) -> f32 {
    f64::from(x).tanh() as f32
}

/// `vmsExpm1` of one element (VML_HA), modelled as `expm1` in float64 rounded once to
/// float32: PyTorch's float32 `expm1` (`vml::vexpm1`, `IMPLEMENT_VML_MKL(expm1, Expm1)`)
/// gives the correctly rounded value on every recorded operand but three of the dense samples
/// (tests/fixtures/eval-dense/torch.txt.gz: `expm1(-17)` is `-1`, correctly rounded
/// `-0.99999994`, and two operands near `±1e-7` an ulp off); MKL's kernel itself is not
/// ported.
///
/// ```
/// use promote::kernel::libm::mkl::expm1_f32;
/// assert_eq!(expm1_f32(1e-10), 1e-10);
/// assert_eq!(expm1_f32(f32::NEG_INFINITY), -1.0);
/// ```
pub fn expm1_f32(x: f32) -> f32 {
    f64::from(x).exp_m1() as f32
}

/// MKL's `sqrt` where PyTorch calls it through `vml::vsqrt`, by type.
pub trait VmlSqrt: Copy {
    /// float64: [`sqrt_f64`]. float32: the CPU's `sqrt` here, for the float16 and bfloat16
    /// operands that compute in float32 (PyTorch's half types take `Vectorized<float>::sqrt`);
    /// a float32 operand takes [`sqrt_f32`] through `OpSemantics::packet`.
    fn vml_sqrt(self) -> Self;
}

impl VmlSqrt for f64 {
    fn vml_sqrt(self) -> f64 {
        sqrt_f64(self)
    }
}

impl VmlSqrt for f32 {
    fn vml_sqrt(self) -> f32 {
        self.sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::sqrt_f32;

    #[test]
    fn special_operands_are_the_cpus_sqrt_or_positive_nan() {
        assert_eq!(sqrt_f32(-0.0).to_bits(), 0x8000_0000);
        assert_eq!(sqrt_f32(f32::INFINITY), f32::INFINITY);
        assert_eq!(sqrt_f32(f32::NEG_INFINITY).to_bits(), 0x7fc0_0000);
        assert_eq!(sqrt_f32(f32::from_bits(1)).to_bits(), 0x1a35_04f3);
        assert_eq!(sqrt_f32(f32::MAX).to_bits(), 0x5f7f_ffff);
        assert_eq!(sqrt_f32(f32::from_bits(0x7f7f_f001)).to_bits(), 0x5f7f_f800);
    }

    #[test]
    fn float64_differs_from_ieee_where_mkl_does() {
        // recorded: torch.sqrt(torch.tensor(x, dtype=torch.float64)) against np.sqrt
        let x = f64::from_bits(0x4039_151b_2b2d_4512);
        assert!(super::sqrt_f64(x).to_bits().abs_diff(x.sqrt().to_bits()) <= 1);
        assert_eq!(super::sqrt_f64(f64::INFINITY), f64::INFINITY);
        assert_eq!(super::sqrt_f64(-0.0).to_bits(), 0x8000_0000_0000_0000);
    }
}
