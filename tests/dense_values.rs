//! Replays the dense value samples of `tests/fixtures/eval-dense/` (recorded by
//! `tools/oracle/record_values_dense.py` from NumPy 2.4.6 and PyTorch 2.15: ~500 ordinary and
//! edge values per float dtype, every unary op of issue 12 and the float binary ops, on the
//! whole array and on 1-element arrays) through `evaluate`, the library path of `promote eval`,
//! and compares the bits, NaN signs included.
//!
//! An (framework, op, input dtype) that differs must be listed in [`ALLOWED`] with the number of
//! values and the largest distance in ulps (the distance between the values' ordered bit
//! patterns, so a NaN of the other sign is far): exact for the non-transcendental ops, at most
//! 1 ulp rows for the transcendental ones where the framework's vector math is not the C
//! library's. An allowance no longer needed fails the test too (tighten it).

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

use half::{bf16, f16};
use promote::kernel::eval::evaluate;
use promote::kernel::{Array, Element, View};
use promote::{builtin, Call, DType};

/// The distance of a NaN from another value or NaN (its sign or payload differs).
const NAN: u64 = u64::MAX;

/// An allowed deviation: (framework, op, input dtype, max_values, max_ulps, why).
type Allowance = (
    &'static str,
    &'static str,
    &'static str,
    usize,
    u64,
    &'static str,
);

const SLEEF: &str =
    "PyTorch's vectorized transcendental (SLEEF u10 / MKL VML) is not the C library's";
const SVML: &str =
    "NumPy's AVX-512 transcendental (SVML or its own SIMD loop) is not correctly rounded";

const ESTIMATE: &str = "MKL's sqrt starts from the CPU's 12-bit estimate (rsqrtss), whose bits are each vendor's own: the fixtures hold an AMD CPU's values (promote::kernel::libm::eigen::cpu_vendor)";

/// Allowances for the kernels that start from the CPU's estimates, on any CPU and not required
/// to be used: the fixtures hold an AMD EPYC's values, and another vendor's CPU (this project's
/// machines have been AMD and Intel guests) gives a few values an ulp or two apart.
#[rustfmt::skip]
const ESTIMATES: &[Allowance] = &[
    ("torch", "sqrt", "float32", 26, 1, ESTIMATE),
    ("torch", "sqrt", "float64", 3, 1, ESTIMATE),
    ("torch", "sqrt", "int8", 9, 1, ESTIMATE),
];

/// The allowance of (framework, op, input dtype): [`ALLOWED`]'s, else [`ESTIMATES`]'.
fn allowance(framework: &str, op: &str, dt: &str) -> Option<&'static Allowance> {
    ALLOWED
        .iter()
        .chain(ESTIMATES)
        .find(|a| a.0 == framework && a.1 == op && a.2 == dt)
}

#[rustfmt::skip]
const ALLOWED: &[Allowance] = &[
    ("numpy", "arcsin", "float64", 1, 1, SVML),
    ("numpy", "arctan2", "float64", 5, 1, SVML),
    ("numpy", "exp", "float64", 9, 1, SVML),
    ("numpy", "expm1", "float64", 18, 1, SVML),
    ("numpy", "log10", "float64", 7, 1, SVML),
    ("numpy", "log1p", "float64", 3, 1, SVML),
    ("numpy", "power", "float32", 12, 1, SVML),
    ("numpy", "power", "float64", 6, 1, SVML),
    ("numpy", "sinh", "float64", 21, 1, SVML),
    ("numpy", "tan", "float64", 3, 1, SVML),
    ("torch", "arcsin", "float32", 3, 1, SLEEF),
    ("torch", "arcsin", "float64", 1, 1, SLEEF),
    ("torch", "arctan", "float32", 5, 1, SLEEF),
    ("torch", "arctan", "float64", 4, 1, SLEEF),
    ("torch", "cos", "float32", 11, 1, SLEEF),
    ("torch", "cos", "float64", 4, 1, SLEEF),
    ("torch", "cos", "int8", 19, 1, SLEEF),
    ("torch", "exp", "float64", 2, 1, SLEEF),
    ("torch", "expm1", "float32", 20, 1, SLEEF),
    ("torch", "expm1", "int8", 13, 1, SLEEF),
    ("torch", "log", "float32", 12, 1, SLEEF),
    ("torch", "log", "int8", 3, 1, SLEEF),
    ("torch", "log10", "float32", 4, 1, SLEEF),
    ("torch", "log10", "float64", 7, 1, SLEEF),
    ("torch", "log10", "int8", 7, 1, SLEEF),
    ("torch", "log1p", "float32", 12, 1, SLEEF),
    ("torch", "log1p", "int8", 3, 1, SLEEF),
    ("torch", "log2", "float32", 1, 1, SLEEF),
    ("torch", "logaddexp", "float32", 2, 1, SLEEF),
    ("torch", "power", "float32", 2, 1, SLEEF),
    ("torch", "sin", "float32", 9, 1, SLEEF),
    ("torch", "sin", "int8", 12, 1, SLEEF),
    ("torch", "tan", "float32", 48, 1, SLEEF),
    ("torch", "tan", "float64", 2, 1, SLEEF),
    ("torch", "tan", "int8", 47, 1, SLEEF),
    ("torch", "tanh", "float64", 2, 1, SLEEF),
];

/// Fixture lines: the operands per dtype, and per (op, dtype, form) the result.
struct Fixture {
    operands: BTreeMap<(char, String), Vec<u64>>,
    results: Vec<Record>,
}

struct Record {
    op: String,
    dtype: DType,
    /// `n`: the whole array in one call; `1`: the first elements one call each.
    whole: bool,
    result: DType,
    bits: Vec<u64>,
}

fn width(d: DType) -> usize {
    match d {
        DType::Bool | DType::Int8 | DType::UInt8 => 2,
        DType::Int16 | DType::UInt16 | DType::Float16 | DType::BFloat16 => 4,
        DType::Int32 | DType::UInt32 | DType::Float32 => 8,
        _ => 16,
    }
}

fn unhex(d: DType, text: &str) -> Vec<u64> {
    let w = width(d);
    (0..text.len() / w)
        .map(|i| u64::from_str_radix(&text[i * w..(i + 1) * w], 16).unwrap())
        .collect()
}

fn load(name: &str) -> Fixture {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/eval-dense")
        .join(format!("{name}.txt.gz"));
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut text = String::new();
    flate2::read::GzDecoder::new(file)
        .read_to_string(&mut text)
        .unwrap();
    let mut fx = Fixture {
        operands: BTreeMap::new(),
        results: vec![],
    };
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = line.split(' ').collect();
        match cols[..] {
            [k @ ("S" | "B"), d, hex] => {
                let dt = DType::parse(d).unwrap();
                fx.operands
                    .insert((k.chars().next().unwrap(), d.to_string()), unhex(dt, hex));
            }
            [op, d, form, r, hex] => {
                let result = DType::parse(r).unwrap();
                fx.results.push(Record {
                    op: op.to_string(),
                    dtype: DType::parse(d).unwrap(),
                    whole: form == "n",
                    result,
                    bits: unhex(result, hex),
                });
            }
            _ => panic!("{}: bad line {line:?}", path.display()),
        }
    }
    fx
}

fn array_of(d: DType, bits: &[u64]) -> Array {
    fn make<T: Element>(bits: &[u64], f: impl Fn(u64) -> T) -> Array {
        T::array(bits.iter().map(|&b| f(b)).collect())
    }
    match d {
        DType::Bool => make(bits, |b| b != 0),
        DType::Int8 => make(bits, |b| b as u8 as i8),
        DType::Float16 => make(bits, |b| f16::from_bits(b as u16)),
        DType::BFloat16 => make(bits, |b| bf16::from_bits(b as u16)),
        DType::Float32 => make(bits, |b| f32::from_bits(b as u32)),
        DType::Float64 => make(bits, f64::from_bits),
        _ => panic!("no dense sample of {d:?}"),
    }
}

fn bits_of(v: View<'_>) -> Vec<u64> {
    fn take<T: Element>(v: View<'_>, f: impl Fn(T) -> u64) -> Vec<u64> {
        T::slice(v).unwrap().iter().map(|&x| f(x)).collect()
    }
    match v.dtype() {
        DType::Bool => take(v, |b: bool| b as u64),
        DType::Int8 => take(v, |x: i8| x as u8 as u64),
        DType::Int16 => take(v, |x: i16| x as u16 as u64),
        DType::Int32 => take(v, |x: i32| x as u32 as u64),
        DType::Int64 => take(v, |x: i64| x as u64),
        DType::UInt8 => take(v, |x: u8| x as u64),
        DType::Float16 => take(v, |x: f16| x.to_bits() as u64),
        DType::BFloat16 => take(v, |x: bf16| x.to_bits() as u64),
        DType::Float32 => take(v, |x: f32| x.to_bits() as u64),
        DType::Float64 => take(v, |x: f64| x.to_bits()),
        d => panic!("no bits of {d:?}"),
    }
}

/// The distance of two values of a dtype in ulps: of their bit patterns ordered as the values
/// are, [`NAN`] where either is a NaN; integers and bools by value.
fn ulps(d: DType, a: u64, b: u64) -> u64 {
    let bits = (width(d) * 4) as u32;
    let (exponent, mantissa) = match d {
        DType::Float16 => (0x7c00, 0x3ff),
        DType::BFloat16 => (0x7f80, 0x7f),
        DType::Float32 => (0x7f80_0000, 0x7f_ffff),
        DType::Float64 => (0x7ff0_0000_0000_0000, 0xf_ffff_ffff_ffff),
        _ => (0, 0),
    };
    let nan = |x: u64| exponent != 0 && x & exponent == exponent && x & mantissa != 0;
    if nan(a) || nan(b) {
        return NAN;
    }
    let ordered = |x: u64| -> i128 {
        let sign = 1u64 << (bits - 1);
        if d.is_inexact() && x & sign != 0 {
            -((x & (sign - 1)) as i128)
        } else {
            x as i128
        }
    };
    (ordered(a) - ordered(b)).unsigned_abs() as u64
}

/// Deviations found per (op, input dtype): (values, max ulps, examples).
type Found = BTreeMap<(String, String), (usize, u64, Vec<String>)>;

fn replay(framework: &str) -> (usize, Found, Vec<String>) {
    let fx = load(framework);
    let policy = builtin(framework).unwrap();
    let (mut values, mut found, mut hard) = (0, Found::new(), vec![]);
    for r in &fx.results {
        let a = &fx.operands[&('S', r.dtype.name().to_string())];
        let b = &fx.operands[&('B', r.dtype.name().to_string())];
        // the namespace function (the recordings call np.OP / torch.OP), of one operand where
        // the op takes one, else of two
        let unary = format!("{}:function {}", r.op, r.dtype).parse::<Call>();
        let binary = unary.is_err();
        let call: Call = unary.unwrap_or_else(|_| {
            format!("{}:function {} {}", r.op, r.dtype, r.dtype)
                .parse()
                .unwrap()
        });
        let calls: Vec<(usize, usize)> = if r.whole {
            vec![(0, a.len())]
        } else {
            (0..r.bits.len()).map(|i| (i, i + 1)).collect()
        };
        let mut got = vec![];
        for (lo, hi) in calls {
            let (x, y) = (array_of(r.dtype, &a[lo..hi]), array_of(r.dtype, &b[lo..hi]));
            let data = [Some(x.view()), Some(y.view())];
            match evaluate(&*policy, &call, &data[..if binary { 2 } else { 1 }]) {
                Ok(e) if e.plan.result == r.result => got.extend(bits_of(e.data.view())),
                Ok(e) => hard.push(format!(
                    "{framework} {call}: result {} (recorded {})",
                    e.plan.result, r.result
                )),
                Err(e) => hard.push(format!("{framework} {call}: {e}")),
            }
            if hard
                .last()
                .is_some_and(|h| h.starts_with(&format!("{framework} {call}:")))
            {
                break; // one message per call
            }
        }
        if got.len() != r.bits.len() {
            continue;
        }
        values += got.len();
        for (i, (&w, &g)) in r.bits.iter().zip(&got).enumerate() {
            if w == g {
                continue;
            }
            let u = ulps(r.result, w, g);
            let e = found
                .entry((r.op.clone(), r.dtype.name().to_string()))
                .or_insert((0, 0, vec![]));
            e.0 += 1;
            e.1 = e.1.max(u);
            if e.2.len() < 3 {
                let form = if r.whole { "n" } else { "1" };
                e.2.push(format!(
                    "[{form}] a={:#x} b={:#x}: want {w:#x} got {g:#x} ({u} ulp)",
                    a[i], b[i]
                ));
            }
        }
    }
    (values, found, hard)
}

fn check(framework: &str) {
    let (values, found, mut hard) = replay(framework);
    assert!(
        values > 50_000,
        "{framework}: only {values} values replayed"
    );
    let deviating: usize = found.values().map(|f| f.0).sum();
    eprintln!("{framework}: {values} values replayed, {deviating} within the listed allowances");
    for ((op, dt), (n, u, examples)) in &found {
        match allowance(framework, op, dt) {
            Some(a) if *n <= a.3 && *u <= a.4 => {}
            _ => hard.push(format!(
                "ROW (\"{framework}\", \"{op}\", \"{dt}\", {n}, {u}, \"\"),  e.g. {examples:?}"
            )),
        }
    }
    for a in ALLOWED.iter().filter(|a| a.0 == framework) {
        if !found.contains_key(&(a.1.to_string(), a.2.to_string())) {
            hard.push(format!(
                "{framework} {} {}: allowance no longer needed ({})",
                a.1, a.2, a.5
            ));
        }
    }
    assert!(
        hard.is_empty(),
        "{} failures:\n{}",
        hard.len(),
        hard.join("\n")
    );
}

#[test]
fn numpy_dense_values_replay() {
    check("numpy");
}

#[test]
fn torch_dense_values_replay() {
    check("torch");
}
