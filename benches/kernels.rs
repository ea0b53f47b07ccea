//! The kernel cases of `promote bench` under criterion, at 1M elements (in the caches) and
//! 16M elements (in memory), each into a preallocated output and allocating it, next to the
//! copies of the floor (`promote::kernel::bench::COPIES`) of the same traffic.
//!
//!     cargo bench --bench kernels
//!     PROMOTE_BENCH_ELEMENTS=4194304 cargo bench --bench kernels -- "int8"

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use promote::kernel::bench::{cases, Prepared, COPIES};
use promote::{builtin, Policy};

fn sizes() -> Vec<usize> {
    match std::env::var("PROMOTE_BENCH_ELEMENTS")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        Some(n) => vec![n],
        None => vec![1 << 20, 1 << 24],
    }
}

fn kernels(c: &mut Criterion) {
    for policy in ["numpy", "torch"] {
        let p = builtin(policy).unwrap();
        let sem = p.semantics();
        for n in sizes() {
            let mut g = c.benchmark_group(format!("{policy}/{n}"));
            g.sample_size(10);
            for case in cases() {
                let Ok(mut prep) = Prepared::new(&*p, case, n) else {
                    continue;
                };
                g.throughput(Throughput::Bytes(prep.bytes as u64));
                g.bench_function(case.call, |b| b.iter(|| prep.run(black_box(&sem))));
                g.bench_function(format!("{} (allocating)", case.call), |b| {
                    b.iter(|| prep.run_allocating(black_box(&sem)))
                });
                let half = prep.bytes / 2;
                let (src, mut dst) = (vec![1u8; half], vec![0u8; half]);
                for (name, copy) in COPIES {
                    g.bench_function(format!("{name} of the bytes of {}", case.call), |b| {
                        b.iter(|| copy(black_box(&src), &mut dst))
                    });
                }
            }
            g.finish();
        }
    }
}

criterion_group!(benches, kernels);
criterion_main!(benches);
