//! What every report of the command line shares: aligned Markdown tables, the one output path,
//! and how an invalid call is refused.

use crate::error::PromoteError;

/// Write to standard output; a closed pipe (`| head`) ends the output quietly (exit status 3).
pub(crate) fn emit(text: &str) {
    super::emit(text)
}

/// An invalid call (an unknown op or dtype, a literal that does not parse): the answer is an
/// error, so the typed error goes to standard error and the exit status is 1, as `resolve`'s.
pub(crate) fn refuse(e: &PromoteError) -> Result<i32, PromoteError> {
    eprintln!("promote: {e}");
    Ok(super::EXIT_REFUSED)
}

/// An aligned Markdown table of rows of text, the first row the header.
pub(crate) fn aligned<R: AsRef<[String]>>(rows: &[R]) -> String {
    aligned_with(rows, false)
}

/// [`aligned`], with centred columns (`:---:`) when `centered`.
pub(crate) fn aligned_with<R: AsRef<[String]>>(rows: &[R], centered: bool) -> String {
    let ncol = rows.iter().map(|r| r.as_ref().len()).max().unwrap_or(0);
    let width: Vec<usize> = (0..ncol)
        .map(|i| {
            rows.iter()
                .filter_map(|r| r.as_ref().get(i))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
                .max(3)
        })
        .collect();
    let pad = |s: &str, w: usize| format!("{s}{}", " ".repeat(w - s.chars().count()));
    let mut out = String::new();
    for (k, r) in rows.iter().enumerate() {
        let cells: Vec<String> = (0..ncol)
            .map(|i| pad(r.as_ref().get(i).map_or("", |s| s.as_str()), width[i]))
            .collect();
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
        if k == 0 {
            let rule: Vec<String> = width
                .iter()
                .map(|&w| {
                    if centered {
                        format!(":{}:", "-".repeat(w))
                    } else {
                        "-".repeat(w + 2)
                    }
                })
                .collect();
            out.push_str(&format!("|{}|\n", rule.join("|")));
        }
    }
    out
}
