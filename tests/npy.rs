//! `promote eval` on `.npy` files written by real NumPy (and ml_dtypes for bfloat16):
//! `tests/fixtures/npy/`, made by `tools/npy/make_fixtures.py`.

mod common;
use common::promote;

use std::path::{Path, PathBuf};

use promote::kernel::npy;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/npy")
        .join(name)
}

fn bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap()
}

#[test]
fn results_match_numpy_bit_for_bit() {
    let cases = std::fs::read_to_string(fixture("cases.txt")).unwrap();
    let dir = std::env::temp_dir().join(format!("promote-npy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut n = 0;
    for line in cases.lines() {
        let (name, op) = line.split_once(' ').unwrap();
        // NumPy has no bfloat16: ml_dtypes' arithmetic is JAX's
        let policy = if name.contains("bf16") {
            "jax"
        } else {
            "numpy"
        };
        let out = dir.join(format!("{name}.npy"));
        let a = fixture(&format!("{name}.a.npy"));
        let b = fixture(&format!("{name}.b.npy"));
        let (code, stdout, err) = promote(&[
            "eval",
            "--policy",
            policy,
            op,
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{name}: {stdout} {err}");
        let expected = fixture(&format!("{name}.expected.npy"));
        let (ours, theirs) = (npy::read(&out).unwrap(), npy::read(&expected).unwrap());
        assert_eq!(
            (ours.dtype, &ours.shape),
            (theirs.dtype, &theirs.shape),
            "{name}"
        );
        // NumPy 2 writes version 1.0 headers exactly as we do: whole files are equal
        if !name.contains("_v") {
            assert_eq!(bytes(&out), bytes(&expected), "{name}");
        }
        n += 1;
    }
    assert!(n >= 10);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bfloat16_is_read_as_ml_dtypes_writes_it() {
    let f = npy::read(&fixture("add_bf16.a.npy")).unwrap();
    assert_eq!(f.dtype, promote::DType::BFloat16);
    assert_eq!(npy::descr(promote::DType::BFloat16), "<V2");
}

#[test]
fn files_the_reader_refuses_say_why() {
    for (name, why) in [
        ("big_endian.npy", "big-endian"),
        ("structured.npy", "structured"),
        ("cases.txt", "not a .npy file"),
    ] {
        let e = npy::read(&fixture(name)).err().unwrap().to_string();
        assert!(e.contains(why), "{name}: {e}");
    }
    let f = fixture("fortran_2d.npy");
    let (code, out, _) = promote(&["eval", "-p", "numpy", "add", f.to_str().unwrap(), "1"]);
    assert_eq!(code, 1);
    assert!(out.contains("Fortran order"), "{out}");
    let (code, _, err) = promote(&["eval", "-p", "numpy", "add", "/no/such.npy", "1"]);
    assert_eq!(code, 3, "{err}");
}

#[test]
fn a_one_shot_result_without_o_is_printed_as_json() {
    let a = fixture("add_i8_u8.a.npy");
    let b = fixture("add_i8_u8.b.npy");
    let (code, out, _) = promote(&[
        "eval",
        "-p",
        "numpy",
        "add",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        out.trim(),
        r#"{"dtype":"int16","weak":false,"data":["128","127","7"]}"#
    );
}

#[test]
fn an_output_may_replace_an_operand_and_a_refused_call_leaves_no_file() {
    use promote::kernel::Array;
    let dir = std::env::temp_dir().join(format!("promote-npy-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let x = dir.join("x.npy");
    npy::write(&x, Array::from(vec![1i8, 2, 3]).view(), &[3]).unwrap();
    let xs = x.to_str().unwrap();
    // the result is computed into a file of its own, renamed over x.npy when complete
    let (code, out, err) = promote(&["eval", "-p", "numpy", "add", xs, "1", "-o", xs]);
    assert_eq!(code, 0, "{out} {err}");
    let back = npy::read(&x).unwrap();
    assert_eq!(back.view().to_array(), Array::from(vec![2i8, 3, 4]));
    let zero = dir.join("zero.npy");
    npy::write(&zero, Array::from(vec![0i8; 3]).view(), &[3]).unwrap();
    let q = dir.join("q.npy");
    let (code, out, _) = promote(&[
        "eval",
        "-p",
        "torch",
        "floor_divide",
        xs,
        zero.to_str().unwrap(),
        "-o",
        q.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("ZeroDivisionError"), "{out}");
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        left.len(),
        2,
        "no result and no partial file is left: {left:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
