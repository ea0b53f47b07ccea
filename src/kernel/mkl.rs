//! Intel MKL's vector math (VML) as PyTorch 2.15's CPU build runs it: `torch.sqrt` of a float32
//! tensor is `vmsSqrt(n, x, y, VML_HA | VML_FTZDAZ_OFF | VML_ERRMODE_IGNORE)`
//! (`aten/src/ATen/cpu/vml.h`, `IMPLEMENT_VML_MKL(sqrt, Sqrt)`), not the CPU's correctly
//! rounded square root. On a CPU MKL does not take for an Intel one (the recordings' AMD EPYC
//! with AVX-512) VML dispatches to its generic SSE kernel `mkl_vml_kernel_sSqrt_EXHAynn`,
//! read off its instructions: the estimate `rsqrtps`, one coupled Newton step, and one
//! correction, each product and sum rounded to float32 (no fused multiply-add). It is within
//! one ulp, and differs from IEEE `sqrt` on about one float in six (`sqrt(19)` is
//! `0x408b7c19`, IEEE `0x408b7c1a`).
//!
//! ```
//! use promote::kernel::mkl::sqrt_f32;
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
    let y = crate::kernel::eigen::approximate_rsqrt(x);
    let s = y * x;
    let h = y * 0.5;
    let e = 0.5 - s * h;
    let s1 = s * e + s;
    let h1 = h * e + h;
    let r = x - s1 * s1;
    r * h1 + s1
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
}
