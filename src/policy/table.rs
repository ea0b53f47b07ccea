//! The table engine: a promotion table written as text, the way the frameworks' docs print it.
//!
//! ```text
//!        b1   i8   i16
//! b1     b1   i8   i16
//! i8     i8   i8   i16
//! i16    i16  i16  i16
//! ```
//!
//! The first row names the columns; each further row starts with its node. A cell is a node
//! name, `-` for "does not promote", or `.` for "the mirror cell" (so a symmetric table can be
//! written as one triangle). Names are any dtype spelling or a node of the policy.

use super::JoinTable;

/// A cell that could not be read: (line within the text, column within the line, message).
pub type TableError = (usize, usize, String);

/// Parse the table text; `node` looks a name up.
pub fn build(
    text: &str,
    n: usize,
    node: &dyn Fn(&str) -> Option<usize>,
) -> Result<JoinTable, TableError> {
    let mut lines = text.lines().enumerate().filter(|(_, l)| {
        let t = l.trim();
        !t.is_empty() && !t.starts_with('#')
    });
    let (hl, header) = lines.next().ok_or((
        0,
        0,
        "the table is empty: write a header row of column names".to_string(),
    ))?;
    let cols = words(header)
        .map(|(c, w)| node(w).ok_or((hl, c, format!("unknown node `{w}` in the header"))))
        .collect::<Result<Vec<usize>, _>>()?;
    if cols.is_empty() {
        return Err((
            hl,
            1,
            "the header row names no columns: write the column nodes first".to_string(),
        ));
    }
    let mut raw: Vec<Vec<Option<Cell>>> = vec![vec![None; n]; n];
    for (ln, line) in lines {
        let mut ws = words(line);
        // a line of separators only (`|---|`) has no words: nothing to read
        let Some((c0, rname)) = ws.next() else {
            continue;
        };
        let row = node(rname).ok_or((ln, c0, format!("unknown row node `{rname}`")))?;
        let mut count = 0;
        for (i, (c, w)) in ws.enumerate() {
            let col = *cols.get(i).ok_or((
                ln,
                c,
                format!("row `{rname}` has more cells than the header has columns"),
            ))?;
            let cell = match w {
                "-" => Cell::Never,
                "." => Cell::Mirror,
                _ => Cell::Node(node(w).ok_or((
                    ln,
                    c,
                    format!("unknown node `{w}` in row `{rname}`"),
                ))?),
            };
            raw[row][col] = Some(cell);
            count += 1;
        }
        if count != cols.len() {
            return Err((
                ln,
                line.len(),
                format!(
                    "row `{rname}` has {count} cells; the header has {} columns",
                    cols.len()
                ),
            ));
        }
    }
    let mut t = JoinTable::new(n);
    // each cell may read its mirror across the diagonal, so both indices are needed
    #[allow(clippy::needless_range_loop)]
    for a in 0..n {
        for b in 0..n {
            let v = match raw[a][b] {
                Some(Cell::Node(x)) => Some(x),
                Some(Cell::Mirror) => match raw[b][a] {
                    Some(Cell::Node(x)) => Some(x),
                    _ => None,
                },
                _ => None,
            };
            t.set(a, b, v);
        }
    }
    Ok(t)
}

#[derive(Clone, Copy, Debug)]
enum Cell {
    Node(usize),
    Never,
    Mirror,
}

/// Words with their 1-based column.
fn words(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, ch) in line.char_indices() {
        if ch.is_whitespace() || ch == '|' {
            if let Some(s) = start.take() {
                out.push((s + 1, &line[s..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push((s + 1, &line[s..]));
    }
    out.into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(s: &str) -> Option<usize> {
        ["a", "b", "c"].iter().position(|x| *x == s)
    }

    #[test]
    fn mirror_and_never() {
        let t = build("  a b c\na a b -\nb . b c\nc . . c\n", 3, &names).unwrap();
        assert_eq!(t.join(1, 0), Some(1));
        assert_eq!(t.join(0, 2), None);
        assert_eq!(t.join(2, 1), Some(2));
    }

    #[test]
    fn separator_lines_are_skipped_not_panicked_on() {
        let t = build("a b\n|  |\na a b\nb . b\n", 3, &names).unwrap();
        assert_eq!(t.join(1, 0), Some(1));
        assert!(build("||\n", 3, &names).is_err());
    }

    #[test]
    fn errors_have_positions() {
        let e = build("a b\na a x\n", 3, &names).unwrap_err();
        assert_eq!((e.0, e.1), (1, 5));
        let e = build("a b\na a\n", 3, &names).unwrap_err();
        assert!(e.2.contains("1 cells"));
    }
}
