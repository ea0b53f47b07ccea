//! A coprocess client: spawn `promote`, write one line, wait for its answer, repeat.
//!
//! Waiting uses a timeout in the harness (a reader thread and `recv_timeout`), so a server
//! that never answers fails the test instead of hanging it; no timing is asserted.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

/// How long to wait for one answer before calling the server hung.
const PATIENCE: Duration = Duration::from_secs(60);

/// A running `promote` with a line-at-a-time conversation.
pub struct Coprocess {
    child: Child,
    stdin: Option<ChildStdin>,
    answers: Receiver<String>,
}

impl Coprocess {
    /// Start `promote ARGS` with piped stdin and stdout.
    pub fn start(args: &[&str]) -> Coprocess {
        let mut child = Command::new(env!("CARGO_BIN_EXE_promote"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("promote starts");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, answers) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Coprocess {
            child,
            stdin,
            answers,
        }
    }

    /// Send one line (bytes, a `\n` appended) and wait for its one answer.
    pub fn ask(&mut self, line: &[u8]) -> serde_json::Value {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line).expect("write");
        stdin.write_all(b"\n").expect("write");
        stdin.flush().expect("flush");
        let answer = self.answers.recv_timeout(PATIENCE).unwrap_or_else(|_| {
            panic!(
                "no answer to {:?} (the server hung or died)",
                String::from_utf8_lossy(&line[..line.len().min(80)])
            )
        });
        serde_json::from_str(&answer)
            .unwrap_or_else(|e| panic!("answer {answer:?} is not JSON: {e}"))
    }

    /// Close stdin; the exit status, and no answer left over.
    pub fn finish(mut self) -> i32 {
        drop(self.stdin.take());
        let status = self.child.wait().expect("promote exits");
        assert!(
            self.answers.recv_timeout(PATIENCE).is_err(),
            "an answer without a question"
        );
        status.code().unwrap_or(-1)
    }
}
