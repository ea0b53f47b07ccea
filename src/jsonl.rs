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
//! use promote::jsonl::{serve, Framing};
//! let input: &[u8] = b"{\"a\": 1}\r\n\xff\xfe\n   \nnext\n";
//! let mut out = Vec::new();
//! let framing = Framing { max_line_bytes: 1 << 20, flush_each: false };
//! let answer = |q: &str, w: &mut Vec<u8>| std::io::Write::write_all(w, format!("query {q}").as_bytes());
//! serve(input, &mut out, framing, answer, |_| "refused".to_string()).unwrap();
//! // not UTF-8, then blank: each one refused line
//! assert_eq!(String::from_utf8(out).unwrap(), "query {\"a\": 1}\nrefused\nrefused\nquery next\n");
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
pub(crate) enum Frame<'a> {
    /// A line to answer (without its `\n` or `\r\n`).
    Query(&'a str),
    /// A line that gets an `invalid` answer without being parsed: blank, not UTF-8, too long.
    Refused(PromoteError),
}

/// Reads lines of bytes, with a cap on a line's size.
pub(crate) struct LineReader<R> {
    input: R,
    line: Vec<u8>,
    max_line_bytes: usize,
}

impl<R: BufRead> LineReader<R> {
    /// A reader refusing lines longer than `max_line_bytes` (not counting the line end).
    pub(crate) fn new(input: R, max_line_bytes: usize) -> Self {
        LineReader {
            input,
            line: Vec::new(),
            max_line_bytes,
        }
    }

    /// The next line, `None` at the end of input; `Err` only when reading itself fails.
    pub(crate) fn next_line(&mut self) -> std::io::Result<Option<Frame<'_>>> {
        self.line.clear();
        let Some(length) = self.read_raw()? else {
            return Ok(None);
        };
        Ok(Some(frame(&mut self.line, length, self.max_line_bytes)))
    }

    /// The next line as [`next_line`](Self::next_line) frames it, or, once more than
    /// `stream_above` bytes of it have been read without reaching its end, the line as a
    /// [`LineStream`] (the bytes read so far, then the rest of the line from the input) that a
    /// parser reads without the line ever being held whole.
    pub(crate) fn next_streamed(
        &mut self,
        stream_above: usize,
    ) -> std::io::Result<Option<Line<'_, R>>> {
        self.line.clear();
        let (read, more) = self.read_prefix(stream_above.min(self.max_line_bytes))?;
        if !read {
            return Ok(None);
        }
        if more {
            let LineReader {
                input,
                line,
                max_line_bytes,
            } = self;
            return Ok(Some(Line::Stream(LineStream::new(
                line,
                input,
                *max_line_bytes,
            ))));
        }
        let length = self.line.len();
        Ok(Some(Line::Whole(frame(
            &mut self.line,
            length,
            self.max_line_bytes,
        ))))
    }

    /// Read a line into `self.line` up to its end (consumed, not kept) or up to `limit` bytes:
    /// (whether there was a line at all, whether the limit came first and the rest of the line
    /// is still to read).
    fn read_prefix(&mut self, limit: usize) -> std::io::Result<(bool, bool)> {
        let mut read = false;
        loop {
            let available = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                return Ok((read, false));
            }
            read = true;
            let room = limit.saturating_sub(self.line.len());
            match memchr::memchr(b'\n', available) {
                Some(i) if i <= room => {
                    self.line.extend_from_slice(&available[..i]);
                    self.input.consume(i + 1);
                    return Ok((true, false));
                }
                _ if available.len() > room => {
                    self.line.extend_from_slice(&available[..room]);
                    self.input.consume(room);
                    return Ok((true, true));
                }
                _ => {
                    let n = available.len();
                    self.line.extend_from_slice(available);
                    self.input.consume(n);
                }
            }
        }
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

/// Frame one line held whole (`length`: its length as read, the line kept only up to the cap).
fn frame(line: &mut Vec<u8>, length: usize, max_line_bytes: usize) -> Frame<'_> {
    if length > max_line_bytes {
        return Frame::Refused(too_long(length, max_line_bytes));
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    match std::str::from_utf8(line) {
        Err(e) => Frame::Refused(not_utf8(e.valid_up_to())),
        Ok(text) if text.trim().is_empty() => Frame::Refused(blank()),
        Ok(text) => Frame::Query(text),
    }
}

fn too_long(length: usize, max_line_bytes: usize) -> PromoteError {
    PromoteError::invalid(format!(
        "the line is {length} bytes, more than the limit of {max_line_bytes} (raise it with \
         --max-line-bytes, or pass big arrays as .npy files)"
    ))
}

fn not_utf8(at: usize) -> PromoteError {
    PromoteError::invalid(format!(
        "the line is not UTF-8 (byte {} of it); every line is one JSON query in UTF-8",
        at + 1
    ))
}

fn blank() -> PromoteError {
    PromoteError::invalid(
        "the line is blank; every line is one query, such as \
         {\"op\": \"add\", \"operands\": [{\"dtype\": \"int8\"}, {\"dtype\": \"int8\"}]}",
    )
}

/// One line of input: held whole, or to be read as a stream.
pub(crate) enum Line<'a, R> {
    /// A line held whole, framed as [`LineReader::next_line`] frames it.
    Whole(Frame<'a>),
    /// A long line, read through [`LineStream`].
    Stream(LineStream<'a, R>),
}

/// The bytes of one line as a [`Read`](std::io::Read) that ends at the line's end, checked on
/// the way exactly as a line held whole is framed: UTF-8, not blank, not over the cap. A read
/// fails at the first byte that is not UTF-8 or over the cap, which stops a parser there;
/// [`LineStream::finish`] skips the rest of the line and says how it is framed.
pub(crate) struct LineStream<'a, R> {
    prefix: &'a [u8],
    input: &'a mut R,
    max_line_bytes: usize,
    /// Bytes of the line seen so far (without the `\n`).
    length: usize,
    ended: bool,
    /// A `\r` taken but not shown yet (dropped if the line ends right after it).
    held_cr: bool,
    check: TextCheck,
}

impl<'a, R: BufRead> LineStream<'a, R> {
    fn new(prefix: &'a [u8], input: &'a mut R, max_line_bytes: usize) -> Self {
        LineStream {
            prefix,
            input,
            max_line_bytes,
            length: 0,
            ended: false,
            held_cr: false,
            check: TextCheck::default(),
        }
    }

    /// Skip the rest of the line; the refusal the line gets if it is not a query (over the
    /// cap, not UTF-8, blank), which takes the place of whatever the parser made of it.
    pub(crate) fn finish(mut self) -> std::io::Result<Option<PromoteError>> {
        while self.advance(None)? > 0 {}
        if self.length > self.max_line_bytes {
            return Ok(Some(too_long(self.length, self.max_line_bytes)));
        }
        if let Some(at) = self.check.not_utf8_at {
            return Ok(Some(not_utf8(at)));
        }
        Ok((!self.check.seen_text).then(blank))
    }

    /// Move on by up to `into.len()` bytes (any number when `into` is `None`), copying them
    /// into `into`; 0 at the end of the line. A `\r` right before the line's end is dropped,
    /// as it is from a line held whole: a `\r` ending a piece is held back until the next byte
    /// shows whether the line ends there.
    fn advance(&mut self, mut into: Option<&mut [u8]>) -> std::io::Result<usize> {
        loop {
            if self.held_cr {
                self.held_cr = false;
                if !self.at_line_end()? {
                    if let Some(buf) = into.as_deref_mut() {
                        buf[0] = b'\r';
                    }
                    return Ok(1);
                }
            }
            let reading = into.is_some();
            match self.next_piece(into.as_deref_mut())? {
                (0, _) => return Ok(0),
                (_, 0) => continue, // only a `\r`, held back
                (_, shown) if reading => return self.refuse_bad_text(shown),
                (_, shown) => return Ok(shown),
            }
        }
    }

    /// Whether the line ends right here (the next byte is its `\n`, or the input ends).
    fn at_line_end(&mut self) -> std::io::Result<bool> {
        if !self.prefix.is_empty() {
            return Ok(false);
        }
        if self.ended {
            return Ok(true);
        }
        let available = fill(self.input)?;
        Ok(available.first().is_none_or(|&b| b == b'\n'))
    }

    /// Take the next piece of the line (from the prefix, else the input): (bytes taken, bytes
    /// shown to the reader — one fewer when the piece ends in a `\r` held back).
    fn next_piece(&mut self, into: Option<&mut [u8]>) -> std::io::Result<(usize, usize)> {
        let want = into.as_ref().map_or(usize::MAX, |b| b.len());
        let from_prefix = !self.prefix.is_empty();
        if !from_prefix && self.ended {
            return Ok((0, 0));
        }
        let available: &[u8] = match from_prefix {
            true => self.prefix,
            false => fill(self.input)?,
        };
        let (end, newline) = match memchr::memchr(b'\n', available) {
            Some(i) => (i, true),
            None => (available.len(), !from_prefix && available.is_empty()),
        };
        let n = want.min(end);
        let available_len = available.len();
        if into.is_some() && self.length + n > self.max_line_bytes {
            return Err(std::io::Error::other("the line is over the cap"));
        }
        let piece = &available[..n];
        if self.length + n <= self.max_line_bytes {
            self.check.feed(piece);
        }
        let shown = n - usize::from(piece.last() == Some(&b'\r'));
        self.held_cr = shown < n;
        if let Some(buf) = into {
            buf[..shown].copy_from_slice(&piece[..shown]);
        }
        let at_end = newline && n == end;
        match from_prefix {
            true => self.prefix = &self.prefix[n..],
            false => self
                .input
                .consume(n + usize::from(at_end && end < available_len)),
        }
        self.length += n;
        if at_end {
            self.ended = true;
            self.held_cr = false;
            self.check.end();
        }
        Ok((n, shown))
    }

    fn refuse_bad_text(&self, n: usize) -> std::io::Result<usize> {
        match self.check.not_utf8_at {
            Some(_) => Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                "the line is not UTF-8",
            )),
            None => Ok(n),
        }
    }
}

/// The input's buffer, filled (empty at the end of input).
fn fill<R: BufRead>(input: &mut R) -> std::io::Result<&[u8]> {
    loop {
        match input.fill_buf() {
            Ok(_) => return input.fill_buf(),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
}

impl<R: BufRead> std::io::Read for LineStream<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        self.advance(Some(buf))
    }
}

/// UTF-8 and blankness of a line seen in pieces (a character may straddle two pieces).
#[derive(Default)]
struct TextCheck {
    /// Bytes seen so far.
    seen: usize,
    /// The start of a character not complete yet, and where it starts.
    pending: Vec<u8>,
    pending_at: usize,
    not_utf8_at: Option<usize>,
    seen_text: bool,
}

impl TextCheck {
    fn feed(&mut self, mut bytes: &[u8]) {
        let mut at = self.seen;
        self.seen += bytes.len();
        if self.not_utf8_at.is_some() {
            return;
        }
        if !self.pending.is_empty() {
            let need = utf8_width(self.pending[0]) - self.pending.len();
            let take = need.min(bytes.len());
            self.pending.extend_from_slice(&bytes[..take]);
            (bytes, at) = (&bytes[take..], at + take);
            if take < need {
                return;
            }
            match std::str::from_utf8(&self.pending).map(|c| !c.trim().is_empty()) {
                Ok(text) => self.seen_text |= text,
                Err(_) => {
                    self.not_utf8_at = Some(self.pending_at);
                    return;
                }
            }
            self.pending.clear();
        }
        match std::str::from_utf8(bytes) {
            Ok(t) => self.text(t),
            Err(e) => {
                let valid = e.valid_up_to();
                self.text(std::str::from_utf8(&bytes[..valid]).unwrap_or_default());
                match e.error_len() {
                    Some(_) => self.not_utf8_at = Some(at + valid),
                    None => {
                        self.pending = bytes[valid..].to_vec();
                        self.pending_at = at + valid;
                    }
                }
            }
        }
    }

    fn text(&mut self, t: &str) {
        self.seen_text = self.seen_text || !t.trim().is_empty();
    }

    /// The line ended: a character left incomplete is not UTF-8.
    fn end(&mut self) {
        if !self.pending.is_empty() && self.not_utf8_at.is_none() {
            self.not_utf8_at = Some(self.pending_at);
        }
    }
}

/// The length of the UTF-8 sequence a byte starts (1 for bytes that start none).
fn utf8_width(first: u8) -> usize {
    match first {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    }
}

/// How a stream is framed: the line cap and when answers are flushed.
///
/// ```
/// use promote::jsonl::Framing;
/// let f = Framing { max_line_bytes: 1024, flush_each: true };
/// assert_eq!(f.max_line_bytes, 1024);
/// ```
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
    ///
    /// ```
    /// let f = promote::jsonl::Framing::for_stdin(1 << 20);
    /// assert_eq!(f.max_line_bytes, 1 << 20);
    /// ```
    pub fn for_stdin(max_line_bytes: usize) -> Framing {
        Framing {
            max_line_bytes,
            flush_each: !stdin_is_regular_file(),
        }
    }
}

/// Whether standard input is a regular file (not a pipe, a terminal or a socket).
pub(crate) fn stdin_is_regular_file() -> bool {
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
///
/// ```
/// use promote::jsonl::{serve, Framing};
/// use promote::{builtin, query};
/// let torch = builtin("torch").unwrap();
/// let input: &[u8] = b"{\"op\": \"add\", \"operands\": [{\"dtype\": \"int8\"}, {\"dtype\": \"uint8\"}]}\n\n";
/// let mut out = Vec::new();
/// let framing = Framing { max_line_bytes: 1 << 20, flush_each: false };
/// let answer = |q: &str, w: &mut Vec<u8>| std::io::Write::write_all(w, query::answer_line(&*torch, q).as_bytes());
/// serve(input, &mut out, framing, answer, |e| format!("refused: {e}")).unwrap();
/// let out = String::from_utf8(out).unwrap();
/// assert!(out.starts_with("{\"dtype\":\"int16\",\"weak\":false}\nrefused: "));
/// ```
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

/// `promote eval` reads lines longer than this as streams ([`serve_streaming`]).
pub const STREAM_ABOVE_BYTES: usize = 1 << 20;

/// Answer every line of `input` on `out` as [`serve`] does, but a line longer than
/// `stream_above` bytes is never held whole: `answer_stream` parses it from a
/// [`Read`](std::io::Read) of the line's bytes (checked on the way as a held line is framed),
/// and the answer is written only once the whole line has been read — a line over the cap, not
/// UTF-8 or blank gets its `invalid` answer whatever the parser made of it. `answer` answers a
/// line held whole, `write` writes an answer (without the line end).
///
/// ```
/// use promote::jsonl::{serve_streaming, Framing};
/// use std::io::Read;
/// let input: &[u8] = b"short\n0123456789abcdef\n\xff0123456789abcdef\n";
/// let mut out = Vec::new();
/// let framing = Framing { max_line_bytes: 1 << 20, flush_each: false };
/// serve_streaming(input, &mut out, framing, 8,
///     |line| format!("held {}", line.len()),
///     |r| { let mut s = String::new(); r.read_to_string(&mut s).map(|_| format!("streamed {}", s.len())).unwrap_or_default() },
///     |a, w| std::io::Write::write_all(w, a.as_bytes()),
///     |e| format!("refused: {e}")).unwrap();
/// let out = String::from_utf8(out).unwrap();
/// assert_eq!(out.lines().collect::<Vec<_>>()[..2], ["held 5", "streamed 16"]);
/// assert!(out.lines().nth(2).unwrap().contains("not UTF-8 (byte 1 of it)"));
/// ```
#[allow(clippy::too_many_arguments)]
pub fn serve_streaming<R: BufRead, W: Write, T>(
    input: R,
    out: &mut W,
    framing: Framing,
    stream_above: usize,
    mut answer: impl FnMut(&str) -> T,
    mut answer_stream: impl FnMut(&mut dyn std::io::Read) -> T,
    mut write: impl FnMut(&T, &mut W) -> std::io::Result<()>,
    refused: impl Fn(&PromoteError) -> String,
) -> Result<(), PromoteError> {
    let stdout = |e: std::io::Error| PromoteError::io("stdout", &e);
    let stdin = |e: std::io::Error| PromoteError::io("stdin", &e);
    let mut lines = LineReader::new(input, framing.max_line_bytes);
    while let Some(line) = lines.next_streamed(stream_above).map_err(stdin)? {
        let refusal = match line {
            Line::Whole(Frame::Query(q)) => {
                if q.len() > FLUSH_BEFORE_BYTES {
                    out.flush().map_err(stdout)?;
                }
                write(&answer(q), out).map_err(stdout)?;
                None
            }
            Line::Whole(Frame::Refused(e)) => Some(e),
            Line::Stream(mut stream) => {
                out.flush().map_err(stdout)?;
                let a = answer_stream(&mut stream);
                let refusal = stream.finish().map_err(stdin)?;
                if refusal.is_none() {
                    write(&a, out).map_err(stdout)?;
                }
                refusal
            }
        };
        if let Some(e) = refusal {
            out.write_all(refused(&e).as_bytes()).map_err(stdout)?;
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

    /// Every line framed through a stream (`stream_above` bytes held at most) as it is framed
    /// held whole: the same query text, or the same refusal.
    fn streamed(input: &[u8], cap: usize, stream_above: usize) -> Vec<String> {
        use std::io::Read;
        let mut r = LineReader::new(std::io::BufReader::with_capacity(3, input), cap);
        let mut v = Vec::new();
        while let Some(line) = r.next_streamed(stream_above).unwrap() {
            v.push(match line {
                Line::Whole(Frame::Query(q)) => q.to_string(),
                Line::Whole(Frame::Refused(e)) => format!("!{e}"),
                Line::Stream(mut s) => {
                    let mut bytes = Vec::new();
                    let read = s.read_to_end(&mut bytes);
                    match (s.finish().unwrap(), read) {
                        (Some(e), _) => format!("!{e}"),
                        (None, Ok(_)) => String::from_utf8(bytes).unwrap(),
                        (None, Err(e)) => panic!("a read failed on a good line: {e}"),
                    }
                }
            });
        }
        v
    }

    #[test]
    fn streamed_lines_are_framed_as_held_lines() {
        let inputs: [&[u8]; 7] = [
            b"a\r\n\n \x0b\xc2\xa0\r\n\xff\nb\r\r\nlast",
            b"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80x\n   \xc2\xa0   \n\xf0\x9f\x98\x80\xf0\x9f\n",
            b"{\"a\": [1, 2, 3]}\n\xe0\x80 \n\xe2\x82\n\xe2\x82\xac\r\n",
            b"0123456789abcdef\n0123456789abcdefg\n0123456789abcdefgh",
            b"a\rb\r\r\r\n\r\r\n\r\rx\r\r",
            b"                     \n\t\t\t\t\t\t\t\t\t\t\t x\n",
            b"",
        ];
        for input in inputs {
            let held = frames(input, 17);
            for above in [1, 2, 3, 5, 8, 100] {
                assert_eq!(streamed(input, 17, above), held, "{input:?} above {above}");
            }
        }
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
