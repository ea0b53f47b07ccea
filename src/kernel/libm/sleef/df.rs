//! SLEEF's double-float (`src/common/df.h`) and double-double (`src/common/dd.h`) arithmetic,
//! the FMA build's (`ENABLE_FMA_SP`/`ENABLE_FMA_DP`, as its AVX2, AVX-512 and `purecfma` builds
//! compile them): a value is an unevaluated sum `(hi, lo)`. Each function names the C one it
//! reproduces; the float type is generic, the operations the same for both.

use num_traits::Float;

/// A double-float or double-double `(hi, lo)`.
pub(super) type Pair<F> = (F, F);

/// `ddadd_vd2_vd_vd`: `x + y` where `|x| ≥ |y|`.
#[inline(always)]
pub(super) fn add<F: Float>(x: F, y: F) -> Pair<F> {
    let s = x + y;
    (s, (x - s) + y)
}

/// `ddadd2_vd2_vd_vd`: `x + y` of any magnitudes.
#[inline(always)]
pub(super) fn add2<F: Float>(x: F, y: F) -> Pair<F> {
    let s = x + y;
    let v = s - x;
    (s, (x - (s - v)) + (y - v))
}

/// `ddadd_vd2_vd2_vd`: `x + y` where `|x| ≥ |y|`.
#[inline(always)]
pub(super) fn add_pf<F: Float>(x: Pair<F>, y: F) -> Pair<F> {
    let s = x.0 + y;
    (s, ((x.0 - s) + y) + x.1)
}

/// `ddadd2_vd2_vd2_vd`: `x + y` of any magnitudes.
#[inline(always)]
pub(super) fn add2_pf<F: Float>(x: Pair<F>, y: F) -> Pair<F> {
    let s = x.0 + y;
    let v = s - x.0;
    let w = (x.0 - (s - v)) + (y - v);
    (s, w + x.1)
}

/// `ddadd_vd2_vd_vd2`: `x + y` where `|x| ≥ |y|`.
#[inline(always)]
pub(super) fn add_fp<F: Float>(x: F, y: Pair<F>) -> Pair<F> {
    let s = x + y.0;
    (s, ((x - s) + y.0) + y.1)
}

/// `ddadd2_vd2_vd2_vd2` (`dfadd2_vf2_vf2_vf2`): `x + y` of any magnitudes.
#[inline(always)]
pub(super) fn add2_pp<F: Float>(x: Pair<F>, y: Pair<F>) -> Pair<F> {
    let s = x.0 + y.0;
    let v = s - x.0;
    let t = (x.0 - (s - v)) + (y.0 - v);
    (s, t + (x.1 + y.1))
}

/// `ddnormalize_vd2_vd2`: the pair with `hi` the rounded sum.
#[inline(always)]
pub(super) fn normalize<F: Float>(t: Pair<F>) -> Pair<F> {
    let s = t.0 + t.1;
    (s, (t.0 - s) + t.1)
}

/// `ddmul_vd2_vd_vd`: the exact product, split by a fused multiply-add.
#[inline(always)]
pub(super) fn mul<F: Float>(x: F, y: F) -> Pair<F> {
    let s = x * y;
    (s, x.mul_add(y, -s))
}

/// `ddmul_vd2_vd2_vd`.
#[inline(always)]
pub(super) fn mul_pf<F: Float>(x: Pair<F>, y: F) -> Pair<F> {
    let s = x.0 * y;
    (s, x.1.mul_add(y, x.0.mul_add(y, -s)))
}

/// `ddmul_vd2_vd2_vd2`.
#[inline(always)]
pub(super) fn mul_pp<F: Float>(x: Pair<F>, y: Pair<F>) -> Pair<F> {
    let s = x.0 * y.0;
    (s, x.0.mul_add(y.1, x.1.mul_add(y.0, x.0.mul_add(y.0, -s))))
}

/// `ddmul_vd_vd2_vd2`: the product rounded to one float.
#[inline(always)]
pub(super) fn mul_pp_hi<F: Float>(x: Pair<F>, y: Pair<F>) -> F {
    x.0.mul_add(y.0, x.1.mul_add(y.0, x.0 * y.1))
}

/// `ddsqu_vd2_vd2`: `x²`.
#[inline(always)]
pub(super) fn squ<F: Float>(x: Pair<F>) -> Pair<F> {
    let s = x.0 * x.0;
    (s, (x.0 + x.0).mul_add(x.1, x.0.mul_add(x.0, -s)))
}

/// `dddiv_vd2_vd2_vd2`: `n / d`, from the reciprocal `1 / d.hi` refined by fused steps.
#[inline(always)]
pub(super) fn div<F: Float>(n: Pair<F>, d: Pair<F>) -> Pair<F> {
    let t = F::one() / d.0;
    let s = n.0 * t;
    let u = t.mul_add(n.0, -s);
    let v = (-d.1).mul_add(t, (-d.0).mul_add(t, F::one()));
    (s, s.mul_add(v, n.1.mul_add(t, u)))
}

/// `ddadd_vd2_vd2_vd2`: `x + y` where `|x| ≥ |y|`.
#[inline(always)]
pub(super) fn add_pp<F: Float>(x: Pair<F>, y: Pair<F>) -> Pair<F> {
    let s = x.0 + y.0;
    (s, (((x.0 - s) + y.0) + x.1) + y.1)
}

/// `ddsub_vd2_vd2_vd2`: `x − y` where `|x| ≥ |y|`.
#[inline(always)]
pub(super) fn sub_pp<F: Float>(x: Pair<F>, y: Pair<F>) -> Pair<F> {
    let s = x.0 - y.0;
    let t = ((x.0 - s) - y.0) + x.1;
    (s, t - y.1)
}

/// `ddrec_vd2_vd2`: `1 / d`.
#[inline(always)]
pub(super) fn rec<F: Float>(d: Pair<F>) -> Pair<F> {
    let s = F::one() / d.0;
    (s, s * (-d.1).mul_add(s, (-d.0).mul_add(s, F::one())))
}
