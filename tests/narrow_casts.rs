//! The narrow casts, bit for bit against ml_dtypes 0.6.0 and PyTorch 2.15, every recorded cell
//! (`tests/fixtures/narrow/`, written by `tools/oracle/record_narrow_casts.py`).

use std::collections::HashMap;
use std::io::Read;

use flate2::read::GzDecoder;
use promote::kernel::narrow::codec;
use promote::kernel::narrow::fast::FastF32;
use promote::kernel::narrow::format::{lookup, Kind, FORMATS};
use promote::kernel::narrow::rules::{CastRules, Library};
use promote::kernel::narrow::Codec;
use rayon::prelude::*;

const LIBS: [Library; 2] = [Library::MlDtypes, Library::Torch];

fn gunzip(name: &str) -> Vec<u8> {
    let path = format!(
        "{}/tests/fixtures/narrow/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut out = Vec::new();
    GzDecoder::new(std::fs::File::open(&path).unwrap_or_else(|e| panic!("{path}: {e}")))
        .read_to_end(&mut out)
        .unwrap();
    out
}

/// A `.bin.gz` fixture: the inputs' bits and one byte column per name.
struct Table {
    inputs: Vec<u64>,
    columns: Vec<(String, Vec<u8>)>,
}

fn table(name: &str, width: usize) -> Table {
    let raw = gunzip(name);
    let nl = raw.iter().position(|&b| b == b'\n').unwrap();
    let header = std::str::from_utf8(&raw[..nl]).unwrap();
    let field = |k: &str| {
        header
            .split(' ')
            .find_map(|w| w.strip_prefix(k))
            .unwrap_or_else(|| panic!("{name}: no {k} in {header}"))
    };
    let n: usize = field("n=").parse().unwrap();
    let names: Vec<&str> = field("columns=").split(',').collect();
    let mut at = nl + 1;
    let inputs = raw[at..at + n * width]
        .chunks(width)
        .map(|c| {
            let mut b = [0u8; 8];
            b[..width].copy_from_slice(c);
            u64::from_le_bytes(b)
        })
        .collect();
    at += n * width;
    let mut columns = Vec::new();
    for c in names {
        columns.push((c.to_string(), raw[at..at + n].to_vec()));
        at += n;
    }
    assert_eq!(at, raw.len(), "{name}: trailing bytes");
    Table { inputs, columns }
}

fn codec_of(library: Library, name: &str) -> Codec {
    Codec::for_library(name, library).unwrap_or_else(|e| panic!("{e}"))
}

fn report(what: &str, bad: &[String], total: usize) {
    assert!(
        bad.is_empty(),
        "{what}: {} of {total} cells differ, e.g.\n{}",
        bad.len(),
        bad[..bad.len().min(12)].join("\n")
    );
}

#[test]
fn decode_every_bit_pattern() {
    for lib in LIBS {
        let text = String::from_utf8(gunzip(&format!("{}-decode.txt.gz", lib.name()))).unwrap();
        let (mut bad, mut cells, mut no_cast) = (Vec::new(), 0, 0);
        let mut codecs: HashMap<String, Codec> = HashMap::new();
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("# no-cast ") {
                let dtype = rest.split(':').next().unwrap();
                assert!(
                    Codec::for_library(dtype, lib).is_err(),
                    "{} casts {dtype}, we say it cannot",
                    lib.name()
                );
                no_cast += 1;
                continue;
            }
            if line.starts_with('#') {
                continue;
            }
            let w: Vec<&str> = line.split(' ').collect();
            let c = codecs
                .entry(w[0].to_string())
                .or_insert_with(|| codec_of(lib, w[0]));
            let code = u8::from_str_radix(w[1], 16).unwrap();
            let (want32, want64) = (
                u32::from_str_radix(w[2], 16).unwrap(),
                u64::from_str_radix(w[3], 16).unwrap(),
            );
            let (got32, got64) = (c.decode_f32(code).to_bits(), c.decode_f64(code).to_bits());
            if (got32, got64) != (want32, want64) {
                bad.push(format!(
                    "{} {line}: we give {got32:08x} {got64:016x}",
                    lib.name()
                ));
            }
            cells += 1;
        }
        report(&format!("{} decode", lib.name()), &bad, cells);
        assert!(
            cells >= 1280 && cells + no_cast > 5,
            "{}: only {cells} cells",
            lib.name()
        );
        // the slice path is the table
        for (name, c) in &codecs {
            let codes: Vec<u8> = (0..=255).collect();
            let mut out = vec![0f32; 256];
            c.decode_f32_slice(&codes, &mut out).unwrap();
            assert!(
                out.iter()
                    .zip(&codes)
                    .all(|(v, &k)| v.to_bits() == c.decode_f32(k).to_bits()),
                "{name}"
            );
        }
    }
}

/// Every column of a cast fixture, through the slice path and the scalar codec.
fn check_casts(lib: Library, source: &str) {
    let width = if source == "f32" { 4 } else { 8 };
    let t = table(&format!("{}-from-{source}.bin.gz", lib.name()), width);
    assert!(
        t.inputs.len() > 30_000,
        "{source}: {} inputs",
        t.inputs.len()
    );
    for (column, want) in &t.columns {
        let (exact, name) = match column.strip_prefix("exact:") {
            Some(n) => (true, n),
            None => (false, column.as_str()),
        };
        let c = codec_of(lib, name);
        let c = if exact {
            Codec::new(c.format, c.rules.correctly_rounded())
        } else {
            c
        };
        let mut got = vec![0u8; want.len()];
        let scalar: Vec<u8> = if width == 4 {
            let x: Vec<f32> = t.inputs.iter().map(|&b| f32::from_bits(b as u32)).collect();
            c.encode_f32_slice(&x, &mut got).unwrap();
            x.iter()
                .map(|&v| codec::encode_f32(c.format, &c.rules, v))
                .collect()
        } else {
            let x: Vec<f64> = t.inputs.iter().map(|&b| f64::from_bits(b)).collect();
            c.encode_f64_slice(&x, &mut got).unwrap();
            x.iter()
                .map(|&v| codec::encode_f64(c.format, &c.rules, v))
                .collect()
        };
        let mut bad = Vec::new();
        for i in 0..want.len() {
            if got[i] != want[i] || scalar[i] != want[i] {
                bad.push(format!(
                    "{} {source} {column}: input bits {:x}: want {:02x}, slice {:02x}, scalar {:02x}",
                    lib.name(),
                    t.inputs[i],
                    want[i],
                    got[i],
                    scalar[i]
                ));
            }
        }
        report(
            &format!("{} {source} -> {column}", lib.name()),
            &bad,
            want.len(),
        );
    }
}

#[test]
fn ml_dtypes_from_float32() {
    check_casts(Library::MlDtypes, "f32");
}

#[test]
fn ml_dtypes_from_float64_and_exact_rounding() {
    check_casts(Library::MlDtypes, "f64");
    // the fixture holds double-rounding traps: for every float format with a mantissa, some
    // inputs round differently once than through float32
    let t = table("ml_dtypes-from-f64.bin.gz", 8);
    let column = |n: &str| &t.columns.iter().find(|(c, _)| c == n).unwrap().1;
    for f in FORMATS
        .iter()
        .filter(|f| f.kind == Kind::Float && f.mantissa_bits > 0)
    {
        let (lib, exact) = (column(f.name), column(&format!("exact:{}", f.name)));
        let traps = lib.iter().zip(exact).filter(|(a, b)| a != b).count();
        assert!(
            traps > 100,
            "{}: only {traps} double-rounding traps",
            f.name
        );
    }
}

#[test]
fn torch_from_float32() {
    check_casts(Library::Torch, "f32");
}

#[test]
fn torch_from_float64() {
    check_casts(Library::Torch, "f64");
}

/// The branch-free float32 encoder equals the codec on every float32 exponent, both signs,
/// every value of mantissa bits 11..23 and, below them, 0, 1, 0x400 and 0x7ff. For every
/// format the rounding position is at bit 18 or above (23 minus at most 4 mantissa bits, plus
/// more where the result is subnormal), so bits below 11 only act as "some bit is set": the
/// sample takes every rounding decision both paths can make.
#[test]
fn fast_path_equals_codec_on_every_rounding_decision() {
    let low = [0u32, 1, 0x400, 0x7ff];
    let patterns: Vec<u32> = (0..512u32)
        .flat_map(|se| (0..1u32 << 12).flat_map(move |hi| low.map(|l| (se << 23) | (hi << 11) | l)))
        .collect();
    for lib in LIBS {
        for f in FORMATS {
            let Some(r) = CastRules::of(lib, f) else {
                continue;
            };
            let Some(k) = FastF32::new(f, &r) else {
                continue;
            };
            let bad: Vec<u32> = patterns
                .par_iter()
                .copied()
                .filter(|&b| {
                    k.encode(f32::from_bits(b)) != codec::encode_f32(f, &r, f32::from_bits(b))
                })
                .take_any(5)
                .collect();
            assert!(
                bad.is_empty(),
                "{} {}: fast path differs at {bad:x?}",
                lib.name(),
                f.name
            );
        }
    }
}

/// The table's predicates agree with what the recorded decode says about each format.
#[test]
fn format_table_matches_the_recorded_codes() {
    let text = String::from_utf8(gunzip("ml_dtypes-decode.txt.gz")).unwrap();
    let mut seen = 0;
    for f in FORMATS.iter().filter(|f| f.kind != Kind::Complex) {
        let values: Vec<(u8, f64)> = text
            .lines()
            .filter(|l| l.split(' ').next() == Some(f.name))
            .map(|l| {
                let w: Vec<&str> = l.split(' ').collect();
                (
                    u8::from_str_radix(w[1], 16).unwrap(),
                    f64::from_bits(u64::from_str_radix(w[3], 16).unwrap()),
                )
            })
            .collect();
        assert_eq!(values.len(), f.code_count(), "{}", f.name);
        let finite: Vec<&(u8, f64)> = values.iter().filter(|(_, v)| v.is_finite()).collect();
        let max = finite.iter().max_by(|a, b| a.1.total_cmp(&b.1)).unwrap();
        assert_eq!(max.0, f.max_code, "{}: largest finite code", f.name);
        assert_eq!(
            f.has_nan(),
            values.iter().any(|(_, v)| v.is_nan()),
            "{}",
            f.name
        );
        assert_eq!(
            f.has_inf(),
            values.iter().any(|(_, v)| v.is_infinite()),
            "{}",
            f.name
        );
        for &(code, v) in &values {
            assert_eq!(f.is_nan_code(code), v.is_nan(), "{} {code:02x}", f.name);
            if !v.is_nan() {
                assert_eq!(
                    codec::decode_exact(f, code).to_bits(),
                    v.to_bits(),
                    "{} {code:02x}",
                    f.name
                );
            }
        }
        let negative_zero = values
            .iter()
            .any(|(_, v)| *v == 0.0 && v.is_sign_negative());
        if f.kind == Kind::Float && f.has_zero {
            assert_eq!(f.unsigned_zero, !negative_zero && f.signed, "{}", f.name);
        }
        if let Some(nan) = f.nan_code {
            assert!(f.is_nan_code(nan), "{}", f.name);
        }
        seen += 1;
    }
    assert_eq!(seen, 15);
}

#[test]
fn every_spelling_names_one_format() {
    let mut owner = HashMap::new();
    for f in FORMATS {
        assert_eq!(lookup(f.name).map(|g| g.name), Some(f.name));
        for s in f.spellings {
            assert_eq!(lookup(s.name).map(|g| g.name), Some(f.name), "{}", s.name);
            if let Some(prev) = owner.insert(s.name, f.name) {
                panic!("{} names both {prev} and {}", s.name, f.name);
            }
        }
    }
    for name in [
        "f8e4m3fn",
        "chalf",
        "jnp.int4",
        "tf.dtypes.experimental.float8_e5m2",
        "paddle.float8_e5m2",
    ] {
        assert!(lookup(name).is_some(), "{name}");
    }
    let err = Codec::for_library("float7", Library::MlDtypes)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("float8_e4m3fn") && err.contains("use one of"),
        "{err}"
    );
    let err = Codec::for_library("uint4", Library::Torch)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("torch cannot cast to uint4") && err.contains("float8_e5m2"),
        "{err}"
    );
}

#[test]
fn slices_of_different_lengths_are_an_error() {
    let c = codec_of(Library::MlDtypes, "float8_e5m2");
    let err = c
        .encode_f32_slice(&[1.0, 2.0], &mut [0u8; 3])
        .unwrap_err()
        .to_string();
    assert!(err.contains("same length"), "{err}");
}

/// Large outputs take the streamed decoder; it writes what the table says, for every format.
#[test]
fn large_slices_decode_as_the_table() {
    let codes: Vec<u8> = (0..(1usize << 19) + 77)
        .map(|i| (i * 7 + i / 256) as u8)
        .collect();
    for lib in LIBS {
        for f in FORMATS {
            let Ok(c) = Codec::for_library(f.name, lib) else {
                continue;
            };
            let mut out32 = vec![0f32; codes.len()];
            let mut out64 = vec![0f64; codes.len()];
            c.decode_f32_slice(&codes, &mut out32).unwrap();
            c.decode_f64_slice(&codes, &mut out64).unwrap();
            for (i, &k) in codes.iter().enumerate() {
                assert_eq!(
                    out32[i].to_bits(),
                    c.decode_f32(k).to_bits(),
                    "{} {} {k:02x}",
                    lib.name(),
                    f.name
                );
                assert_eq!(
                    out64[i].to_bits(),
                    c.decode_f64(k).to_bits(),
                    "{} {} {k:02x}",
                    lib.name(),
                    f.name
                );
            }
        }
    }
}

/// The slice encoder (SIMD registers where the CPU has them, streamed when large) gives the
/// codec's codes on the sample of `fast_path_equals_codec_on_every_rounding_decision`, with
/// the output at two alignments, and on short slices of every length around a register's 64.
#[test]
fn slice_encoder_equals_codec_on_every_rounding_decision() {
    let low = [0u32, 1, 0x400, 0x7ff];
    let x: Vec<f32> = (0..512u32)
        .flat_map(|se| (0..1u32 << 12).flat_map(move |hi| low.map(|l| (se << 23) | (hi << 11) | l)))
        .map(f32::from_bits)
        .collect();
    for lib in LIBS {
        for f in FORMATS {
            let Some(r) = CastRules::of(lib, f) else {
                continue;
            };
            if FastF32::new(f, &r).is_none() {
                continue;
            }
            let c = Codec::new(f, r);
            let want: Vec<u8> = x.par_iter().map(|&v| codec::encode_f32(f, &r, v)).collect();
            let mut got = vec![0u8; x.len() + 1];
            for off in [0, 1] {
                c.encode_f32_slice(&x[off..], &mut got[off..x.len()])
                    .unwrap();
                assert!(
                    got[off..x.len()] == want[off..],
                    "{} {} at {off}",
                    lib.name(),
                    f.name
                );
            }
            for len in (0..140).chain([1000, 4097]) {
                let (from, to) = (x.len() / 2 + 3, x.len() / 2 + 3 + len);
                c.encode_f32_slice(&x[from..to], &mut got[..len]).unwrap();
                assert!(
                    got[..len] == want[from..to],
                    "{} {} len {len}",
                    lib.name(),
                    f.name
                );
            }
        }
    }
}
