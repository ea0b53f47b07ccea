//! The benchmark cases of `promote bench` and `benches/kernels.rs`, on generated data, with
//! a plain copy of the same number of bytes as the memory-bandwidth floor.
//!
//! ```
//! use promote::kernel::bench::{cases, Case};
//! assert_eq!(cases().len(), 6);
//! assert_eq!(cases()[0].call, "add int8 uint8");
//! ```

use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::array::{Array, C32, C64};
use super::cast::cast_array;
use super::compute::Semantics;
use super::exec::execute_into;
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

/// The cases of the issue: mixed-dtype binary ops over large arrays.
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
            .map(|(i, o)| data(o.dtype().expect("tensor"), n, i as u64 + 1))
            .collect();
        let out = Array::zeros(plan.result, n);
        let bytes = inputs.iter().map(|a| a.nbytes()).sum::<usize>() + out.nbytes();
        Ok(Prepared {
            case,
            plan,
            inputs,
            out,
            bytes,
        })
    }

    /// Run the kernel once.
    pub fn run(&mut self, sem: &Semantics) {
        let views: Vec<_> = self.inputs.iter().map(|a| a.view()).collect();
        execute_into(&self.plan, &views, self.out.view_mut(), sem).expect("bench case runs");
    }
}

/// A copy of `src` into `dst` in 64 KB pieces, over the same rayon pool as the kernels:
/// the bandwidth floor (same bytes moved, ordinary stores like the kernels').
pub fn copy(src: &[u8], dst: &mut [u8]) {
    const PIECE: usize = 64 * 1024;
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
    /// Median seconds of the kernel.
    pub seconds: f64,
    /// Median seconds of the copy floor.
    pub copy_seconds: f64,
}

impl Row {
    /// Bytes moved per second, in GB/s.
    pub fn gbps(&self) -> f64 {
        self.bytes as f64 / self.seconds / 1e9
    }
    /// The copy floor in GB/s.
    pub fn copy_gbps(&self) -> f64 {
        self.bytes as f64 / self.copy_seconds / 1e9
    }
}

/// Measure one case: kernel runs and copy runs alternate, so that both see the same load on
/// the machine; the medians of each are reported.
pub fn measure(
    policy: &dyn Policy,
    case: Case,
    n: usize,
    min_runs: usize,
    budget: Duration,
) -> Result<Row, crate::PromoteError> {
    let sem = Semantics::for_policy(policy.name());
    let mut p = Prepared::new(policy, case, n)?;
    // the floor: copy half the bytes (a copy reads and writes each byte: the same traffic)
    let half = p.bytes / 2;
    let src = vec![1u8; half];
    let mut dst = vec![0u8; half];
    p.run(&sem);
    copy(&src, &mut dst);
    let start = Instant::now();
    let (mut tk, mut tc) = (Vec::new(), Vec::new());
    while tk.len() < min_runs || (start.elapsed() < budget && tk.len() < 1000) {
        let t = Instant::now();
        p.run(&sem);
        tk.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        copy(&src, &mut dst);
        tc.push(t.elapsed().as_secs_f64());
    }
    let med = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    Ok(Row {
        case,
        plan: p.plan.to_string(),
        elements: n,
        bytes: p.bytes,
        seconds: med(&mut tk),
        copy_seconds: med(&mut tc),
    })
}
