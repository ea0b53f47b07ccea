//! The benchmark cases of `promote bench` and `benches/kernels.rs`, on generated data, with
//! copies of the same traffic as the memory-bandwidth floor.
//!
//! The floor of a case is the fastest of three copies of half its bytes (a copy reads and
//! writes each byte, so it moves what the kernel reads plus what it writes), each timed in
//! the same interleaved rounds as the kernel: one `memcpy` on the calling thread
//! ([`memcpy`]), `memcpy` in 64 KB pieces on the rayon pool ([`copy`]), and a streaming
//! copy on the rayon pool ([`stream_copy`]). A reduction (one result value) reads its operand
//! and writes nothing to speak of: its floor is [`read`], all its bytes read on the rayon pool.
//!
//! ```
//! use promote::kernel::bench::{cases, Case};
//! assert_eq!(cases().len(), 13);
//! assert_eq!(cases()[0].call, "add int8 uint8");
//! ```

use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::array::{Array, C32, C64};
use super::cast::cast_array;
use super::compute::Semantics;
use super::exec::{execute, execute_into};
use crate::dtype::DType;
use crate::op::Call;
use crate::plan::Plan;
use crate::policy::Policy;

/// One benchmark case: a call in the compact syntax.
#[derive(Clone, Copy, Debug)]
pub struct Case {
    /// `add int8 uint8`.
    pub call: &'static str,
    /// What it is, for the table.
    pub label: &'static str,
}

/// The cases of the issue: mixed-dtype binary ops over large arrays, then two without
/// promotion work (an operand in the compute dtype already, or a Python scalar); then issue
/// 12's unary ops and reductions (each as the policy resolves it: `sqrt int8` is float32 in
/// PyTorch, float16 in NumPy; PyTorch refuses `mean int32`).
pub fn cases() -> Vec<Case> {
    vec![
        Case {
            call: "add int8 uint8",
            label: "int8 + uint8",
        },
        Case {
            call: "add int32 float32",
            label: "int32 + float32",
        },
        Case {
            call: "add float16 float32",
            label: "float16 + float32",
        },
        Case {
            call: "add complex64 float64",
            label: "complex64 + float64",
        },
        Case {
            call: "divide int64 int64",
            label: "int64 / int64",
        },
        Case {
            call: "less uint8 int8",
            label: "uint8 < int8",
        },
        Case {
            call: "add float64 1.0",
            label: "float64 + 1.0",
        },
        Case {
            call: "multiply int16 int16",
            label: "int16 * int16",
        },
        Case {
            call: "sqrt int8",
            label: "sqrt(int8)",
        },
        Case {
            call: "exp float16",
            label: "exp(float16)",
        },
        Case {
            call: "mean int32",
            label: "mean(int32)",
        },
        Case {
            call: "sum float32",
            label: "sum(float32)",
        },
        Case {
            call: "cumsum float32",
            label: "cumsum(float32)",
        },
    ]
}

/// Deterministic data of a dtype: small nonzero values (no zeros, so divisions stay finite).
pub fn data(d: DType, n: usize, seed: u64) -> Array {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let v: Vec<f64> = (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            ((x >> 40) % 100) as f64 + 1.0
        })
        .collect();
    match d {
        DType::Complex64 => Array::from(
            v.iter()
                .map(|&r| C32::new(r as f32, 1.0))
                .collect::<Vec<_>>(),
        ),
        DType::Complex128 => Array::from(v.iter().map(|&r| C64::new(r, 1.0)).collect::<Vec<_>>()),
        _ => cast_array(Array::from(v).view(), d),
    }
}

/// A prepared case: the plan, its inputs and a preallocated output.
pub struct Prepared {
    /// The case.
    pub case: Case,
    /// The plan the policy resolved.
    pub plan: Plan,
    /// The inputs.
    pub inputs: Vec<Array>,
    /// The output.
    pub out: Array,
    /// Bytes read plus bytes written by one run.
    pub bytes: usize,
}

impl Prepared {
    /// Resolve and generate data.
    pub fn new(policy: &dyn Policy, case: Case, n: usize) -> Result<Prepared, crate::PromoteError> {
        let call: Call = case.call.parse()?;
        let plan = policy.resolve(&call)?;
        let inputs: Vec<Array> = call
            .operands
            .iter()
            .enumerate()
            .map(|(i, o)| match (o.dtype(), o.literal()) {
                (Some(d), _) => Ok(data(d, n, i as u64 + 1)),
                (None, Some(l)) => super::eval::literal_array(l, plan.inputs[i]),
                (None, None) => Err(crate::PromoteError::Invalid {
                    message: format!(
                        "bench case `{}`: operand {i} is neither a tensor nor a literal",
                        case.call
                    ),
                }),
            })
            .collect::<Result<_, _>>()?;
        let lens: Vec<usize> = inputs.iter().map(Array::len).collect();
        let len = super::exec::result_len(plan.op, &lens)
            .map_err(|e| super::eval::kernel_error(policy, &plan, e))?;
        let out = Array::zeros(plan.result, len);
        let bytes = inputs.iter().map(|a| a.nbytes()).sum::<usize>() + out.nbytes();
        Ok(Prepared {
            case,
            plan,
            inputs,
            out,
            bytes,
        })
    }

    /// Run the kernel once into the preallocated output.
    pub fn run(&mut self, sem: &Semantics) {
        let views: Vec<_> = self.inputs.iter().map(|a| a.view()).collect();
        execute_into(&self.plan, &views, self.out.view_mut(), sem).expect("bench case runs");
    }

    /// Run the kernel once, allocating the output (the path of `eval` and the bindings), and
    /// drop the result.
    pub fn run_allocating(&self, sem: &Semantics) {
        let views: Vec<_> = self.inputs.iter().map(|a| a.view()).collect();
        drop(execute(&self.plan, &views, sem).expect("bench case runs"));
    }
}

/// One `memcpy` of `src` into `dst` on the calling thread (glibc's, through
/// `copy_from_slice`).
///
/// # Panics
///
/// If the lengths differ.
pub fn memcpy(src: &[u8], dst: &mut [u8]) {
    assert_eq!(src.len(), dst.len(), "bench::memcpy: lengths differ");
    dst.copy_from_slice(src);
}

/// A streaming copy (non-temporal stores of the widest [`super::arch::Path`]) of `src` into
/// `dst`, split over the rayon pool in 1 MB-aligned blocks.
///
/// # Panics
///
/// If the lengths differ.
pub fn stream_copy(src: &[u8], dst: &mut [u8]) {
    assert_eq!(src.len(), dst.len(), "bench::stream_copy: lengths differ");
    let block = src
        .len()
        .div_ceil(rayon::current_num_threads())
        .next_multiple_of(1 << 20);
    dst.par_chunks_mut(block)
        .zip(src.par_chunks(block))
        .for_each(|(d, s)| {
            super::arch::stream_copy(d, s);
            super::arch::store_fence();
        });
}

/// A copy of `src` into `dst` in 64 KB pieces, over the same rayon pool as the kernels
/// (ordinary stores).
///
/// # Panics
///
/// If the lengths differ.
pub fn copy(src: &[u8], dst: &mut [u8]) {
    const PIECE: usize = 64 * 1024;
    assert_eq!(src.len(), dst.len(), "bench::copy: lengths differ");
    if src.len() < (1 << 20) {
        dst.copy_from_slice(src);
        return;
    }
    let tasks = rayon::current_num_threads() * 4;
    let block = src.len().div_ceil(tasks).div_ceil(PIECE) * PIECE;
    dst.par_chunks_mut(block)
        .zip(src.par_chunks(block))
        .for_each(|(d, s)| {
            for (d, s) in d.chunks_mut(PIECE).zip(s.chunks(PIECE)) {
                d.copy_from_slice(s);
            }
        });
}

/// Median wall time of `f` over at least `min_runs` runs and about `budget` of time.
pub fn median_time(mut f: impl FnMut(), min_runs: usize, budget: Duration) -> Duration {
    f(); // warm up: page in, spin up the pool
    let start = Instant::now();
    let mut times = Vec::new();
    while times.len() < min_runs || (start.elapsed() < budget && times.len() < 1000) {
        let t = Instant::now();
        f();
        times.push(t.elapsed());
    }
    times.sort();
    times[times.len() / 2]
}

/// Times of one thing over the rounds.
#[derive(Clone, Debug, Default)]
pub struct Times(pub Vec<f64>);

impl Times {
    /// The median, in seconds.
    pub fn median(&self) -> f64 {
        self.quantile(0.5)
    }
    /// The `q` quantile (0: fastest, 1: slowest), in seconds; NaN without times.
    pub fn quantile(&self, q: f64) -> f64 {
        let mut v = self.0.clone();
        if v.is_empty() {
            return f64::NAN;
        }
        v.sort_by(f64::total_cmp);
        v[((v.len() - 1) as f64 * q.clamp(0.0, 1.0)).round() as usize]
    }
}

/// A copy of a source into a destination of the same length.
pub type CopyFn = fn(&[u8], &mut [u8]);

/// The copies of the floor, by name, in the order they are timed.
pub const COPIES: [(&str, CopyFn); 3] = [
    ("memcpy", memcpy),
    ("memcpy pieces", copy),
    ("streaming copy", stream_copy),
];

/// One measured row.
#[derive(Clone, Debug)]
pub struct Row {
    /// The case.
    pub case: Case,
    /// The plan (`add: cast inputs to [...]...`).
    pub plan: String,
    /// Elements.
    pub elements: usize,
    /// Bytes moved per run.
    pub bytes: usize,
    /// The kernel into a preallocated output.
    pub kernel: Times,
    /// The kernel allocating its output (`execute`), the drop included.
    pub allocating: Times,
    /// Each of [`COPIES`], same order.
    pub copies: Vec<Times>,
    /// [`read`] of the case's bytes, for a reduction (its floor); `None` otherwise.
    pub read: Option<Times>,
}

impl Row {
    /// Median seconds of the kernel.
    pub fn seconds(&self) -> f64 {
        self.kernel.median()
    }
    /// The floor: the smallest median of the copies, and which copy it was (a reduction:
    /// the median of [`read`]).
    pub fn floor(&self) -> (f64, &'static str) {
        if let Some(r) = &self.read {
            return (r.median(), "read");
        }
        self.copies
            .iter()
            .zip(COPIES)
            .map(|(t, (name, _))| (t.median(), name))
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .unwrap_or((f64::NAN, ""))
    }
    /// Bytes moved per second by the kernel, in GB/s.
    pub fn gbps(&self) -> f64 {
        self.bytes as f64 / self.seconds() / 1e9
    }
}

/// Measure one case in interleaved rounds: per round the kernel into its preallocated output,
/// the allocating kernel, and each copy of the floor, so that all see the same load on the
/// machine. At least `min_runs` rounds, and more while `budget` lasts (up to 1000).
pub fn measure(
    policy: &dyn Policy,
    case: Case,
    n: usize,
    min_runs: usize,
    budget: Duration,
) -> Result<Row, crate::PromoteError> {
    let sem = policy.semantics();
    let mut p = Prepared::new(policy, case, n)?;
    let half = p.bytes / 2;
    let src = vec![1u8; half];
    let mut dst = vec![0u8; half];
    // warm up: page in, spin up the pool
    p.run(&sem);
    p.run_allocating(&sem);
    for (_, c) in COPIES {
        c(&src, &mut dst);
    }
    let time = |f: &mut dyn FnMut(), into: &mut Times| {
        let t = Instant::now();
        f();
        into.0.push(t.elapsed().as_secs_f64());
    };
    let (mut kernel, mut allocating) = (Times::default(), Times::default());
    let mut copies = vec![Times::default(); COPIES.len()];
    let reduction = p.out.len() == 1 && n > 1;
    let all = if reduction {
        vec![1u8; p.bytes]
    } else {
        vec![]
    };
    let mut read_times = reduction.then(Times::default);
    let start = Instant::now();
    while kernel.0.len() < min_runs || (start.elapsed() < budget && kernel.0.len() < 1000) {
        time(&mut || p.run(&sem), &mut kernel);
        if let Some(t) = read_times.as_mut() {
            time(
                &mut || {
                    std::hint::black_box(read(&all));
                },
                t,
            );
        }
        time(&mut || p.run_allocating(&sem), &mut allocating);
        for ((_, c), t) in COPIES.iter().zip(&mut copies) {
            time(&mut || c(&src, &mut dst), t);
        }
    }
    Ok(Row {
        case,
        plan: p.plan.to_string(),
        elements: n,
        bytes: p.bytes,
        kernel,
        allocating,
        copies,
        read: read_times,
    })
}

/// Reads every byte of `src` on the rayon pool (the XOR of its 64-bit words, in 1 MB pieces):
/// the floor of a reduction, which reads its operand and writes one value.
///
/// ```
/// use promote::kernel::bench::read;
/// assert_eq!(read(&[0u8; 64]), 0);
/// ```
pub fn read(src: &[u8]) -> u64 {
    src.par_chunks(1 << 20)
        .map(|c| {
            let (head, words, tail) = bytemuck::pod_align_to::<u8, u64>(c);
            let bytes = head.iter().chain(tail).fold(0u64, |a, &b| a ^ u64::from(b));
            words.iter().fold(bytes, |a, &w| a ^ w)
        })
        .reduce(|| 0, |a, b| a ^ b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_copy() {
        let src: Vec<u8> = (0..3 << 20).map(|i: u32| (i % 251) as u8).collect();
        for (name, c) in COPIES {
            let mut dst = vec![0u8; src.len()];
            c(&src, &mut dst);
            assert!(dst == src, "{name}");
        }
    }

    #[test]
    #[should_panic(expected = "lengths differ")]
    fn copy_of_unequal_lengths_panics_as_documented() {
        copy(&[1, 2, 3], &mut [0, 0]);
    }

    #[test]
    fn every_case_prepares_under_numpy_and_torch() {
        for policy in ["numpy", "torch"] {
            let p = crate::builtin(policy).unwrap();
            for case in cases() {
                let mut prep = match Prepared::new(&*p, case, 1000) {
                    Ok(prep) => prep,
                    // the one refusal the cases' doc names
                    Err(e) => {
                        assert_eq!((policy, case.call), ("torch", "mean int32"), "{e}");
                        continue;
                    }
                };
                prep.run(&p.semantics());
                let lens: Vec<usize> = prep.inputs.iter().map(Array::len).collect();
                let want = super::super::exec::result_len(prep.plan.op, &lens).unwrap();
                assert_eq!(prep.out.len(), want, "{policy} {}", case.call);
                // elementwise and cumulative cases write every element; whole reductions one
                assert!(want == 1000 || want == 1, "{}: {want}", case.call);
            }
        }
    }
}
