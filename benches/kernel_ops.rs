//! The op kernels of issue 12 (`promote::kernel::ops`) under criterion: unary float functions,
//! reductions and a cumulative op, each called through the name-keyed lookup with its compute
//! and result dtype, under NumPy's and PyTorch's semantics.
//!
//!     cargo bench --bench kernel_ops
//!     PROMOTE_BENCH_ELEMENTS=1048576 cargo bench --bench kernel_ops -- "sqrt"

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use promote::kernel::bench::data;
use promote::kernel::ops::{kernel, Args};
use promote::kernel::Semantics;
use promote::DType;

/// (op, input dtype, compute dtype, result dtype): the cases of issue 12's speed section.
const CASES: &[(&str, DType, DType, DType)] = &[
    ("sqrt", DType::Int8, DType::Float32, DType::Float32),
    ("sqrt", DType::Float32, DType::Float32, DType::Float32),
    ("exp", DType::Float64, DType::Float64, DType::Float64),
    ("exp", DType::Float16, DType::Float16, DType::Float16),
    ("sum", DType::Int8, DType::Int64, DType::Int64),
    ("sum", DType::Float32, DType::Float32, DType::Float32),
    ("mean", DType::Int32, DType::Float64, DType::Float64),
    ("cumsum", DType::Float32, DType::Float32, DType::Float32),
];

fn elements() -> usize {
    std::env::var("PROMOTE_BENCH_ELEMENTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1 << 20)
}

fn ops(c: &mut Criterion) {
    let n = elements();
    for sem in [Semantics::NUMPY, Semantics::TORCH] {
        let mut g = c.benchmark_group(format!("ops {}/{n}", sem.name));
        g.sample_size(10);
        for &(op, input, compute, result) in CASES {
            let x = data(input, n, 1);
            let k = kernel(op, &sem).expect("a known op");
            g.throughput(Throughput::Bytes((n * input.itemsize()) as u64));
            g.bench_function(format!("{op} {input} -> {result}"), |b| {
                b.iter(|| {
                    let views = [x.view()];
                    let args = Args::elementwise(&views, compute, result);
                    black_box(k.run(black_box(&args)).expect("runs"))
                })
            });
        }
        g.finish();
    }
}

criterion_group!(benches, ops);
criterion_main!(benches);
