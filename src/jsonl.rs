//! The JSONL framing of `promote resolve` and `promote eval`: every input line gets exactly
//! one answer line, in order (`../shared/spec/query-format.md`, "Framing").
//!
//! One reader serves both interfaces. It reads bytes up to `\n` (dropping one `\r` before
//! it), so a line that is not UTF-8 is one `invalid` answer and never swallows the next line;
//! a blank or whitespace-only line (spaces, `\r`, vertical tab, NBSP, ...) is one `invalid`
//! answer; a line longer than the cap ([`Framing::max_line_bytes`], the CLI's
//! `--max-line-bytes`) is one `invalid` answer, and the reader skips the rest of it without
//! holding it in memory.
//!
//! ```
//! use promote::jsonl::{LineReader, Frame};
//! let input: &[u8] = b"{\"a\": 1}\r\n\xff\xfe\n   \nnext\n";
//! let mut r = LineReader::new(input, 1 << 20);
//! assert!(matches!(r.next_line().unwrap(), Some(Frame::Query("{\"a\": 1}"))));
//! assert!(matches!(r.next_line().unwrap(), Some(Frame::Refused(_)))); // not UTF-8
//! assert!(matches!(r.next_line().unwrap(), Some(Frame::Refused(_)))); // blank
//! assert!(matches!(r.next_line().unwrap(), Some(Frame::Query("next"))));
//! assert!(r.next_line().unwrap().is_none());
//! ```

use std::io::{BufRead, Write};

use crate::error::PromoteError;

/// The default cap on one line: 1 GiB (an `eval` line of about 50 million float32 values).
pub const DEFAULT_MAX_LINE_BYTES: usize = 1 << 30;

/// Lines longer than this are answered with the writer flushed first, so the answers before a
/// big line are out even if the big one exhausts memory.
const FLUSH_BEFORE_BYTES: usize = 64 * 1024;

/// One line of input, framed.
#[derive(Debug)]
pub enum Frame<'a> {
    /// A line to answer (without its `\n` or `\r\n`).
    Query(&'a str),
    /// A line that gets an `invalid` answer without being parsed: blank, not UTF-8, too long.
    Refused(PromoteError),
}

/// Reads lines of bytes, with a cap on a line's size.
pub struct LineReader<R> {
    input: R,
    line: Vec<u8>,
    max_line_bytes: usize,
}

impl<R: BufRead> LineReader<R> {
    /// A reader refusing lines longer than `max_line_bytes` (not counting the line end).
    pub fn new(input: R, max_line_bytes: usize) -> Self {
        LineReader {
            input,
            line: Vec::new(),
            max_line_bytes,
        }
    }

    /// The next line, `None` at the end of input; `Err` only when reading itself fails.
    pub fn next_line(&mut self) -> std::io::Result<Option<Frame<'_>>> {
        self.line.clear();
        let Some(length) = self.read_raw()? else {
            return Ok(None);
        };
        if length > self.max_line_bytes {
            return Ok(Some(Frame::Refused(PromoteError::invalid(format!(
                "the line is {length} bytes, more than the limit of {} (raise it with --max-line-bytes, \
                 or pass big arrays as .npy files)",
                self.max_line_bytes
            )))));
        }
        if self.line.last() == Some(&b'\r') {
            self.line.pop();
        }
        let text = match std::str::from_utf8(&self.line) {
            Ok(t) => t,
            Err(e) => {
                return Ok(Some(Frame::Refused(PromoteError::invalid(format!(
                    "the line is not UTF-8 (byte {} of it); every line is one JSON query in UTF-8",
                    e.valid_up_to() + 1
                )))))
            }
        };
        if text.trim().is_empty() {
            return Ok(Some(Frame::Refused(PromoteError::invalid(
                "the line is blank; every line is one query, such as \
                 {\"op\": \"add\", \"operands\": [{\"dtype\": \"int8\"}, {\"dtype\": \"int8\"}]}",
            ))));
        }
        Ok(Some(Frame::Query(text)))
    }

    /// Read one line's bytes into `self.line` (kept only up to the cap); its length without
    /// the `\n`, or `None` at the end of input.
    fn read_raw(&mut self) -> std::io::Result<Option<usize>> {
        let mut length = 0usize;
        let mut any = false;
        loop {
            let available = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                break;
            }
            any = true;
            let (chunk, end) = match memchr::memchr(b'\n', available) {
                Some(i) => (&available[..i], i + 1),
                None => (available, available.len()),
            };
            length += chunk.len();
            if length <= self.max_line_bytes {
                self.line.extend_from_slice(chunk);
            } else if !self.line.is_empty() {
                // too long: forget what was kept and skip the rest
                self.line = Vec::new();
            }
            let done = end > chunk.len();
            self.input.consume(end);
            if done {
                return Ok(Some(length));
            }
        }
        Ok(any.then_some(length))
    }
}

/// How a stream is framed: the line cap and when answers are flushed.
#[derive(Clone, Copy, Debug)]
pub struct Framing {
    /// Lines longer than this many bytes get an `invalid` answer.
    pub max_line_bytes: usize,
    /// Flush after every answer (when standard input is not a regular file, a client may be
    /// waiting for each answer before it writes the next line).
    pub flush_each: bool,
}

impl Framing {
    /// The framing for standard input: flush each answer unless stdin is a regular file.
    pub fn for_stdin(max_line_bytes: usize) -> Framing {
        Framing {
            max_line_bytes,
            flush_each: !stdin_is_regular_file(),
        }
    }
}

/// Whether standard input is a regular file (not a pipe, a terminal or a socket).
pub fn stdin_is_regular_file() -> bool {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        let Ok(fd) = std::io::stdin().as_fd().try_clone_to_owned() else {
            return false;
        };
        std::fs::File::from(fd)
            .metadata()
            .map(|m| m.file_type().is_file())
            .unwrap_or(false)
    }
    #[cfg(not(unix))]
    {
        false
    }
}

/// Answer every line of `input` on `out`: `answer` writes the answer to a query line (without
/// the line end), `refused` the answer to a line refused by the framing. Fails only when
/// reading or writing fails ([`PromoteError::Io`]).
pub fn serve<R: BufRead, W: Write>(
    input: R,
    out: &mut W,
    framing: Framing,
    mut answer: impl FnMut(&str, &mut W) -> std::io::Result<()>,
    refused: impl Fn(&PromoteError) -> String,
) -> Result<(), PromoteError> {
    let stdout = |e: std::io::Error| PromoteError::io("stdout", &e);
    let mut lines = LineReader::new(input, framing.max_line_bytes);
    loop {
        let frame = lines
            .next_line()
            .map_err(|e| PromoteError::io("stdin", &e))?;
        match frame {
            None => break,
            Some(Frame::Query(q)) => {
                if q.len() > FLUSH_BEFORE_BYTES {
                    out.flush().map_err(stdout)?;
                }
                answer(q, out).map_err(stdout)?;
            }
            Some(Frame::Refused(e)) => out.write_all(refused(&e).as_bytes()).map_err(stdout)?,
        }
        out.write_all(b"\n").map_err(stdout)?;
        if framing.flush_each {
            out.flush().map_err(stdout)?;
        }
    }
    out.flush().map_err(stdout)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8], cap: usize) -> Vec<String> {
        let mut r = LineReader::new(std::io::BufReader::with_capacity(4, input), cap);
        let mut v = Vec::new();
        while let Some(f) = r.next_line().unwrap() {
            v.push(match f {
                Frame::Query(q) => q.to_string(),
                Frame::Refused(e) => format!("!{e}"),
            });
        }
        v
    }

    #[test]
    fn every_line_is_one_frame() {
        let f = frames(b"a\r\n\n \x0b\xc2\xa0\r\n\xff\nb\r\r\nlast", 100);
        assert_eq!(f.len(), 6, "{f:?}");
        assert_eq!(f[0], "a");
        assert!(f[1].contains("blank") && f[2].contains("blank"));
        assert!(f[3].contains("UTF-8"));
        assert_eq!(f[4], "b\r");
        assert_eq!(f[5], "last");
    }

    #[test]
    fn long_lines_are_refused_and_skipped() {
        let mut input = vec![b'x'; 1000];
        input.extend_from_slice(b"\nok\n");
        let f = frames(&input, 10);
        assert_eq!(f.len(), 2);
        assert!(f[0].contains("1000 bytes") && f[0].contains("--max-line-bytes"));
        assert_eq!(f[1], "ok");
        assert_eq!(frames(b"0123456789\n", 10), ["0123456789"]);
    }
}
