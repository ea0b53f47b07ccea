//! The values of `astype` between every pair of dtypes, bit for bit against NumPy 2.4.6 with
//! ml_dtypes 0.6.0 (`a.astype(T)`) and PyTorch 2.15 (`t.to(T)`): every bit pattern of each
//! source of 8 bits or fewer (bool, int8, uint8, the float8/6/4s, int4/uint4/int2/uint2) and
//! edge values of the wider ones, to every dtype the library has
//! (`tests/fixtures/astype/LIB.bin.gz`, `tools/oracle/record_astype_values.py`).
//! The float32 → narrow boundaries (every value ± 1 ulp, halfway points, overflow edges, NaN
//! payloads, subnormals, a dense sample) are `tests/narrow_casts.rs`'s.

use std::io::Read;

use promote::kernel::astype::{convert, Values};
use promote::kernel::narrow::rules::Library;
use promote::DType;

fn gunzip(name: &str) -> Vec<u8> {
    let path = format!(
        "{}/tests/fixtures/astype/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(
        std::fs::File::open(&path).unwrap_or_else(|e| panic!("{path}: {e}")),
    )
    .read_to_end(&mut out)
    .unwrap();
    out
}

fn itemsize(d: DType) -> usize {
    match d {
        DType::COMPLEX32 => 4,
        d if d.is_classic() => d.itemsize(),
        _ => 1,
    }
}

/// Both NaN (of any payload) in a float dtype of this itemsize, or the same bytes; bools by
/// truth (ml_dtypes' complex32 -> bool stores bytes such as 192, which NumPy reads as True).
fn same(d: DType, a: &[u8], b: &[u8]) -> bool {
    a == b
        || match d {
            DType::Bool => a.iter().zip(b).all(|(x, y)| (*x != 0) == (*y != 0)),
            DType::Float32 | DType::Complex64 => a.chunks(4).zip(b.chunks(4)).all(|(x, y)| {
                let f = |c: &[u8]| f32::from_le_bytes(c.try_into().unwrap());
                x == y || (f(x).is_nan() && f(y).is_nan())
            }),
            DType::Float64 | DType::Complex128 => a.chunks(8).zip(b.chunks(8)).all(|(x, y)| {
                let f = |c: &[u8]| f64::from_le_bytes(c.try_into().unwrap());
                x == y || (f(x).is_nan() && f(y).is_nan())
            }),
            _ => false,
        }
}

fn line(raw: &[u8], at: &mut usize) -> String {
    let nl = raw[*at..].iter().position(|&b| b == b'\n').unwrap();
    let s = String::from_utf8(raw[*at..*at + nl].to_vec()).unwrap();
    *at += nl + 1;
    s
}

/// The pairs still known to differ (tests/astype_known_misses.txt: `LIB FROM TO why`), for this
/// library; a line without its reason does not count.
fn known(lib: &str) -> std::collections::BTreeSet<String> {
    include_str!("astype_known_misses.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            (w.len() > 3 && w[0] == lib).then(|| format!("{} {}", w[1], w[2]))
        })
        .collect()
}

fn replay(lib: Library, file: &str) {
    let raw = gunzip(file);
    let mut at = 0;
    assert!(line(&raw, &mut at).starts_with("astype-values 1"));
    let (mut cells, mut bad, mut nan_payload) = (0usize, Vec::new(), 0usize);
    let mut known = known(lib.name());
    let mut listed = 0;
    while at < raw.len() {
        let head = line(&raw, &mut at);
        let w: Vec<&str> = head.split(' ').collect();
        let from = DType::parse(w[1]).unwrap();
        let n: usize = w[2].strip_prefix("n=").unwrap().parse().unwrap();
        let to: Vec<&str> = w[3].strip_prefix("to=").unwrap().split(',').collect();
        let src = &raw[at..at + n * itemsize(from)];
        at += src.len();
        let values = Values::from_le_bytes(from, src).unwrap();
        for t in to {
            let d = DType::parse(t).unwrap();
            let want = &raw[at..at + n * itemsize(d)];
            at += want.len();
            let got = convert(&values, d, lib).unwrap_or_else(|e| panic!("{from} -> {d}: {e}"));
            let got = got.to_le_bytes();
            cells += n;
            if got != want {
                if same(d, &got, want) {
                    nan_payload += 1;
                    continue;
                }
                let k = (0..n)
                    .find(|&k| {
                        let r = k * itemsize(d)..(k + 1) * itemsize(d);
                        got[r.clone()] != want[r]
                    })
                    .unwrap();
                let s = itemsize(from);
                let r = k * itemsize(d)..(k + 1) * itemsize(d);
                let pair = format!("{from} {d}");
                if known.remove(&pair) {
                    listed += 1;
                    continue;
                }
                bad.push(format!(
                    "{from} -> {d}: input {:02x?} gives {:02x?}, we give {:02x?}",
                    &src[k * s..(k + 1) * s],
                    &want[r.clone()],
                    &got[r]
                ));
            }
        }
    }
    println!(
        "{file}: {cells} cells, {nan_payload} pairs differ only in NaN payloads or bool bytes of one truth, {listed} listed pairs differ"
    );
    assert!(
        known.is_empty(),
        "{file}: listed in astype_known_misses.txt but now equal (remove them): {known:?}"
    );
    assert!(cells > 50_000, "{file}: only {cells} cells");
    assert!(
        bad.is_empty(),
        "{file}: {} pairs differ:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn ml_dtypes_astype_every_pair() {
    replay(Library::MlDtypes, "numpy.bin.gz");
}

#[test]
fn torch_to_every_pair() {
    replay(Library::Torch, "torch.bin.gz");
}
