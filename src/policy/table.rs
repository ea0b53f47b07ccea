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

/// Parse the table text over `n` nodes; `node` looks a name up (its error is the message, with
/// a suggestion where one helps). A duplicate column or row, a `.` on the diagonal or facing
/// another `.`, a node index not below `n`, or more than 254 nodes are errors.
pub fn build(
    text: &str,
    n: usize,
    node: &dyn Fn(&str) -> Result<usize, String>,
) -> Result<JoinTable, TableError> {
    if n > 254 {
        return Err((0, 0, format!("{n} nodes: a table holds at most 254")));
    }
    let reader = Reader { n, node };
    let mut lines = text.lines().enumerate().filter(|(_, l)| {
        let t = l.trim();
        !t.is_empty() && !t.starts_with('#')
    });
    let (hl, header) = lines.next().ok_or((
        0,
        0,
        "the table is empty: write a header row of column names".to_string(),
    ))?;
    let cols = reader.header(hl, header)?;
    let mut raw: Vec<Vec<Option<Placed>>> = vec![vec![None; n]; n];
    let mut seen = vec![false; n];
    for (ln, line) in lines {
        reader.row(ln, line, &cols, &mut seen, &mut raw)?;
    }
    fill(n, &raw)
}

/// What reading a table needs: the node count and the name lookup.
struct Reader<'a> {
    n: usize,
    node: &'a dyn Fn(&str) -> Result<usize, String>,
}

impl Reader<'_> {
    /// The node a word names, at (line, column), below the table's node count.
    fn node(&self, ln: usize, c: usize, w: &str) -> Result<usize, TableError> {
        match (self.node)(w) {
            Ok(i) if i < self.n => Ok(i),
            Ok(i) => Err((
                ln,
                c,
                format!("`{w}` is node {i}, beyond the table's {} nodes", self.n),
            )),
            Err(m) => Err((ln, c, m)),
        }
    }

    /// The header row: the column nodes, each once, at least one.
    fn header(&self, hl: usize, header: &str) -> Result<Vec<usize>, TableError> {
        let mut cols = Vec::new();
        for (c, w) in words(header) {
            let col = self.node(hl, c, w)?;
            if cols.contains(&col) {
                return Err((hl, c, format!("column `{w}` appears twice in the header")));
            }
            cols.push(col);
        }
        if cols.is_empty() {
            return Err((
                hl,
                1,
                "the header row names no columns: write the column nodes first".to_string(),
            ));
        }
        Ok(cols)
    }

    /// One body row: its node (each row once), then one cell per header column.
    fn row(
        &self,
        ln: usize,
        line: &str,
        cols: &[usize],
        seen: &mut [bool],
        raw: &mut [Vec<Option<Placed>>],
    ) -> Result<(), TableError> {
        let mut ws = words(line);
        // a line of separators only (`|---|`) has no words: nothing to read
        let Some((c0, rname)) = ws.next() else {
            return Ok(());
        };
        let row = self.node(ln, c0, rname)?;
        if std::mem::replace(&mut seen[row], true) {
            return Err((ln, c0, format!("row `{rname}` appears twice")));
        }
        let mut count = 0;
        for (i, (c, w)) in ws.enumerate() {
            let col = *cols.get(i).ok_or((
                ln,
                c,
                format!("row `{rname}` has more cells than the header has columns"),
            ))?;
            let cell = self.cell(ln, c, w, rname, row == col)?;
            raw[row][col] = Some(Placed {
                cell,
                line: ln,
                col: c,
            });
            count += 1;
        }
        if count != cols.len() {
            return Err((
                ln,
                line.chars().count(),
                format!(
                    "row `{rname}` has {count} cells; the header has {} columns",
                    cols.len()
                ),
            ));
        }
        Ok(())
    }

    /// One cell of row `rname`: `-`, `.` (not on the diagonal) or a node name.
    fn cell(
        &self,
        ln: usize,
        c: usize,
        w: &str,
        rname: &str,
        diagonal: bool,
    ) -> Result<Cell, TableError> {
        Ok(match w {
            "-" => Cell::Never,
            "." if diagonal => {
                return Err((ln, c, format!("`.` on the diagonal (`{rname}` with itself) mirrors itself: write the join")));
            }
            "." => Cell::Mirror,
            _ => Cell::Node(self.node(ln, c, w).map_err(|(l, c, m)| {
                (
                    l,
                    c,
                    m.replacen(&format!("`{w}`"), &format!("`{w}` in row `{rname}`"), 1),
                )
            })?),
        })
    }
}

/// The join table of the cells read, each `.` reading its mirror across the diagonal.
fn fill(n: usize, raw: &[Vec<Option<Placed>>]) -> Result<JoinTable, TableError> {
    let mut t = JoinTable::new(n);
    // each cell may read its mirror across the diagonal, so both indices are needed
    #[allow(clippy::needless_range_loop)]
    for a in 0..n {
        for b in 0..n {
            let v = match raw[a][b] {
                Some(Placed {
                    cell: Cell::Node(x),
                    ..
                }) => Some(x),
                Some(Placed {
                    cell: Cell::Mirror,
                    line,
                    col,
                }) => match raw[b][a] {
                    Some(Placed {
                        cell: Cell::Node(x),
                        ..
                    }) => Some(x),
                    Some(Placed {
                        cell: Cell::Never, ..
                    }) => None,
                    _ => {
                        return Err((line, col, "`.` mirrors a cell that is `.` too or not written: write the join, or `-`".to_string()));
                    }
                },
                _ => None,
            };
            t.set(a, b, v);
        }
    }
    Ok(t)
}

/// A cell as read, with its position.
#[derive(Clone, Copy, Debug)]
struct Placed {
    cell: Cell,
    line: usize,
    col: usize,
}

#[derive(Clone, Copy, Debug)]
enum Cell {
    Node(usize),
    Never,
    Mirror,
}

/// Words with their 1-based column, counted in characters.
fn words(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (k, (i, ch)) in line.char_indices().enumerate() {
        if ch.is_whitespace() || ch == '|' {
            if let Some((s, c)) = start.take() {
                out.push((c + 1, &line[s..i]));
            }
        } else if start.is_none() {
            start = Some((i, k));
        }
    }
    if let Some((s, c)) = start {
        out.push((c + 1, &line[s..]));
    }
    out.into_iter()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(s: &str) -> Result<usize, String> {
        ["a", "b", "c"]
            .iter()
            .position(|x| *x == s)
            .ok_or(format!("unknown node `{s}`"))
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

    #[test]
    fn duplicates_and_lone_mirrors_are_errors() {
        let e = build("a b a\n", 3, &names).unwrap_err();
        assert_eq!((e.0, e.1), (0, 5), "{e:?}");
        assert!(e.2.contains("column `a` appears twice"));
        let e = build("a b\na a b\nb . b\na a b\n", 3, &names).unwrap_err();
        assert_eq!((e.0, e.1), (3, 1));
        assert!(e.2.contains("row `a` appears twice"));
        let e = build("a b\na . b\nb . b\n", 3, &names).unwrap_err();
        assert_eq!((e.0, e.1), (1, 3));
        assert!(e.2.contains("diagonal"));
        let e = build("a b\na a .\nb . b\n", 3, &names).unwrap_err();
        assert_eq!((e.0, e.1), (1, 5));
        assert!(e.2.contains("mirrors a cell that is `.` too"));
    }

    #[test]
    fn columns_count_characters_and_indices_are_checked() {
        // NBSP is two bytes and one character
        let e = build("a b\na\u{a0}x b\n", 3, &names).unwrap_err();
        assert_eq!((e.0, e.1), (1, 3), "{e:?}");
        assert!(build("a\na a\n", 300, &names).is_err());
        assert!(build("a\na a\n", 0, &names)
            .unwrap_err()
            .2
            .contains("beyond"));
    }

    /// `JoinTable::join` documents its panic: node indices come from the policy that owns the
    /// table, so an index out of range is the caller's bug (the lookup stays a plain table load).
    #[test]
    #[should_panic]
    fn a_join_index_out_of_range_panics_as_documented() {
        let names = |w: &str| match w {
            "a" => Ok(0),
            "b" => Ok(1),
            _ => Err(format!("no node {w}")),
        };
        let t = build("  a b\na a b\nb . b\n", 2, &names).unwrap();
        assert_eq!(t.join(1, 0), Some(1));
        let _ = t.join(0, 5);
    }
}
