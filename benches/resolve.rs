//! How fast a policy resolves: two strong tensors (the dense-table path), a tensor with a
//! Python literal, a 0-d tensor with a literal (the full rule pipeline), and one JSONL line of the
//! machine interface end to end.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use promote::{builtin, query, Call, Policy};

fn bench(c: &mut Criterion) {
    for name in ["torch", "jax", "numpy"] {
        let Ok(p) = builtin(name) else { continue };
        let two: Call = "add int8 uint8".parse().unwrap();
        let lit: Call = "add int8 1.0".parse().unwrap();
        let zero: Call = "multiply int16(3) 300".parse().unwrap();
        c.bench_function(&format!("{name}/two tensors"), |b| {
            b.iter(|| p.result(black_box(&two)).map_err(|e| e.kind()))
        });
        c.bench_function(&format!("{name}/tensor with literal"), |b| {
            b.iter(|| p.result(black_box(&lit)).map_err(|e| e.kind()))
        });
        c.bench_function(&format!("{name}/0-d with literal"), |b| {
            b.iter(|| p.result(black_box(&zero)).map_err(|e| e.kind()))
        });
        c.bench_function(&format!("{name}/explained plan"), |b| {
            b.iter(|| p.resolve(black_box(&lit)).map_err(|e| e.kind()))
        });
        let line = r#"{"op": "add", "operands": [{"dtype": "int8"}, {"scalar": "float", "value": "1.0"}]}"#;
        c.bench_function(&format!("{name}/jsonl line"), |b| {
            b.iter(|| query::answer_line(&*p, black_box(line)))
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(std::time::Duration::from_millis(300)).measurement_time(std::time::Duration::from_secs(1));
    targets = bench
}
criterion_main!(benches);
