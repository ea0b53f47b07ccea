//! What the CLI tests share: running the built `promote` binary.

use std::process::Command;

/// Run `promote ARGS`: (exit status, stdout, stderr).
pub fn promote(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_promote"))
        .args(args)
        .output()
        .expect("promote runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("utf-8"),
        String::from_utf8(out.stderr).expect("utf-8"),
    )
}
