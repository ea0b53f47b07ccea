//! float32 → float8_e4m3fn and back, 1e7 elements, one thread, next to the copy floor of the
//! same traffic and the `float8` crate's conversions.
//!
//!     cargo bench --bench narrow
//!     PROMOTE_BENCH_ELEMENTS=1000000 cargo bench --bench narrow -- encode
//!
//! Before timing, it counts where the `float8` crate's `F8E4M3::from_f32` / `to_f32` differ
//! from this crate's codec (which equals ml_dtypes and PyTorch on every recorded cell,
//! `tests/narrow_casts.rs`) over a sample of float32 patterns, and prints the counts.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use promote::kernel::bench::COPIES;
use promote::kernel::narrow::{rules::Library, Codec};

fn elements() -> usize {
    std::env::var("PROMOTE_BENCH_ELEMENTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000_000)
}

/// Values spread over e4m3fn's range, with some out of it (seeded, xorshift).
fn data(n: usize) -> Vec<f32> {
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let u = (s >> 11) as f64 / (1u64 << 53) as f64;
            ((u - 0.5) * 1000.0) as f32
        })
        .collect()
}

/// Where the `float8` crate disagrees with ml_dtypes / PyTorch (through our codec).
fn float8_crate_disagreements() {
    let ml = Codec::for_library("float8_e4m3fn", Library::MlDtypes).unwrap();
    let torch = Codec::for_library("float8_e4m3fn", Library::Torch).unwrap();
    let (mut vs_ml, mut vs_torch, mut n) = (0u64, 0u64, 0u64);
    for b in (0..=u32::MAX).step_by(97) {
        let x = f32::from_bits(b);
        let theirs = float8::F8E4M3::from_f32(x).to_bits();
        let mut ours = [0u8; 1];
        ml.encode_f32_slice(&[x], &mut ours).unwrap();
        vs_ml += u64::from(theirs != ours[0]);
        torch.encode_f32_slice(&[x], &mut ours).unwrap();
        vs_torch += u64::from(theirs != ours[0]);
        n += 1;
    }
    let decode = (0..=255u8)
        .filter(|&c| float8::F8E4M3::from_bits(c).to_f32().to_bits() != ml.decode_f32(c).to_bits())
        .count();
    eprintln!(
        "float8 crate F8E4M3::from_f32 vs ml_dtypes: {vs_ml} of {n} float32 patterns differ; \
         vs torch: {vs_torch}; to_f32 vs ml_dtypes: {decode} of 256 codes differ"
    );
}

fn narrow(c: &mut Criterion) {
    float8_crate_disagreements();
    let n = elements();
    let x = data(n);
    let mut codes = vec![0u8; n];
    let mut back = vec![0f32; n];
    let mut g = c.benchmark_group(format!("narrow/{n}"));
    g.sample_size(20);
    g.throughput(Throughput::Bytes((5 * n) as u64));
    for lib in [Library::MlDtypes, Library::Torch] {
        let k = Codec::for_library("float8_e4m3fn", lib).unwrap();
        g.bench_function(format!("encode f32->e4m3fn [{}]", lib.name()), |b| {
            b.iter(|| k.encode_f32_slice(black_box(&x), &mut codes).unwrap())
        });
        g.bench_function(format!("decode e4m3fn->f32 [{}]", lib.name()), |b| {
            b.iter(|| k.decode_f32_slice(black_box(&codes), &mut back).unwrap())
        });
    }
    g.bench_function("encode f32->e4m3fn [float8 crate]", |b| {
        b.iter(|| {
            for (d, &s) in codes.iter_mut().zip(black_box(&x)) {
                *d = float8::F8E4M3::from_f32(s).to_bits();
            }
        })
    });
    g.bench_function("decode e4m3fn->f32 [float8 crate]", |b| {
        b.iter(|| {
            for (d, &s) in back.iter_mut().zip(black_box(&codes)) {
                *d = float8::F8E4M3::from_bits(s).to_f32();
            }
        })
    });
    let half = 5 * n / 2;
    let (src, mut dst) = (vec![1u8; half], vec![0u8; half]);
    for (name, copy) in COPIES {
        g.bench_function(format!("{name} of the same traffic"), |b| {
            b.iter(|| copy(black_box(&src), &mut dst))
        });
    }
    g.finish();
}

criterion_group!(benches, narrow);
criterion_main!(benches);
