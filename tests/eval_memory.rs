//! The memory of `eval` (issue 8): the data of a JSONL line is parsed straight into typed
//! buffers, never held as the line's text or as one JSON value per element, so the peak resident
//! set of `promote eval` on one large line stays under 3× the decoded input arrays (above the
//! process's own baseline, measured on a one-element line).
//!
//! The only test of its own binary: the peaks come from `getrusage(RUSAGE_CHILDREN)`, the
//! largest resident set of any child this process has waited for. The full-size figures (1e7
//! elements as JSONL, 1e8 from `.npy`) are measured by hand: README, "Robustness".

use std::io::Write;
use std::process::{Command, Stdio};

/// `{"op": "add", "operands": [float32 × n, float32 × n]}`, values as varied text.
fn line(n: usize) -> Vec<u8> {
    let mut out = br#"{"op": "add", "operands": ["#.to_vec();
    for k in 0..2 {
        if k == 1 {
            out.extend_from_slice(b", ");
        }
        out.extend_from_slice(br#"{"dtype": "float32", "data": ["#);
        for i in 0..n {
            if i > 0 {
                out.push(b',');
            }
            let v = (i as f32 + 0.25) * if k == 0 { 0.37 } else { -1.3 };
            write!(out, "\"{v}\"").unwrap();
        }
        out.extend_from_slice(b"]}");
    }
    out.extend_from_slice(b"]}\n");
    out
}

/// Run `promote eval -p numpy` on `input` (answers discarded); the peak resident set, in bytes,
/// of every child waited for so far.
fn eval_peak(input: Vec<u8>) -> u64 {
    let mut child = Command::new(env!("CARGO_BIN_EXE_promote"))
        .args(["eval", "-p", "numpy"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    assert!(child.wait().unwrap().success());
    writer.join().unwrap().unwrap();
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage writes one rusage into the pointer it is given.
    assert_eq!(
        unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) },
        0
    );
    usage.ru_maxrss as u64 * 1024 // Linux reports kilobytes
}

#[test]
fn a_large_line_takes_under_three_times_its_decoded_arrays() {
    let baseline = eval_peak(line(1));
    let n = 2_000_000;
    let big = line(n);
    let text = big.len() as u64;
    let decoded = 2 * 4 * n as u64; // two float32 inputs
    let peak = eval_peak(big);
    let above = peak.saturating_sub(baseline);
    assert!(
        above < 3 * decoded,
        "eval of a {text}-byte line took {above} bytes above its {baseline}-byte baseline, \
         over 3× the {decoded} bytes of decoded arrays"
    );
}
