//! `promote table`: parse the arguments, build the library's [`Table`] and render it as
//! Markdown, CSV, JSON or HTML.

use clap::{Args, ValueEnum};

use super::render::aligned_with;
// `aligned` is re-exported for cli/dtypes.rs, which still imports it from here
pub(crate) use super::render::{aligned, emit};
use super::PolicyArg;
use crate::analysis::{table, Outcome, Table, TableOp, TableOptions};
pub(crate) use crate::analysis::{Style, With};
use crate::error::PromoteError;
use crate::operand::Literal;

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// An aligned Markdown table.
    Md,
    Csv,
    /// Stable JSON: labels, and every cell's dtype, weakness or error.
    Json,
    /// A standalone HTML page.
    Html,
}

#[derive(Args)]
pub(crate) struct TableArgs {
    #[command(flatten)]
    policy: PolicyArg,
    /// The op, or `promote`: the promotion alone, before any op rule (the join table, as the
    /// lattice tables of JAX's and TensorFlow's docs show it).
    #[arg(long, default_value = "add")]
    op: String,
    /// What the columns are (the rows are always tensors of each dtype, or every node with `nodes`).
    #[arg(long, value_enum, default_value = "tensors")]
    with: With,
    #[arg(long, value_enum, default_value = "md")]
    format: Format,
    /// Naming and order of the dtypes.
    #[arg(long, value_enum, default_value = "auto")]
    style: Style,
    /// Mark the cells where another policy answers differently (TensorFlow's guide marks the
    /// cells of its ALL table that SAFE forbids: `--policy tf-all --mark tf-safe`); a built-in
    /// name or a policy file.
    #[arg(long, value_name = "POLICY")]
    mark: Option<String>,
    /// The Python scalars of `--with scalars`, comma-separated as repr writes them.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "True,1,1.0,1j",
        allow_hyphen_values = true
    )]
    literals: Vec<String>,
}

/// The Markdown table, its title above and its legend below.
pub(crate) fn markdown(g: &Table) -> String {
    let mut rows = vec![std::iter::once(g.corner.clone())
        .chain(g.cols.iter().cloned())
        .collect::<Vec<_>>()];
    for (i, (r, row)) in g.rows.iter().zip(&g.cells).enumerate() {
        let mut line = vec![r.clone()];
        for (j, c) in row.iter().enumerate() {
            line.push(if g.marked(i, j).is_some() {
                format!("**{}**", c.text)
            } else {
                c.text.clone()
            });
        }
        rows.push(line);
    }
    let legend = if g.legend.is_empty() {
        String::new()
    } else {
        format!("\n{}.\n", g.legend.join(", "))
    };
    format!("{}\n\n{}{legend}", g.title, aligned_with(&rows, true))
}

/// CSV: a marked cell ends in `†`.
pub(crate) fn csv(g: &Table) -> String {
    let esc = |s: &str| {
        if s.contains([',', '"']) {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.to_string()
        }
    };
    let mut s = format!(
        "{},{}\n",
        esc(&g.corner),
        g.cols.iter().map(|c| esc(c)).collect::<Vec<_>>().join(",")
    );
    for (i, (r, row)) in g.rows.iter().zip(&g.cells).enumerate() {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(j, c)| {
                let mark = if g.marked(i, j).is_some() { "†" } else { "" };
                esc(&format!("{}{mark}", c.text))
            })
            .collect();
        s.push_str(&format!("{},{}\n", esc(r), cells.join(",")));
    }
    s
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn kind_class(o: &Outcome) -> &'static str {
    match o {
        Outcome::Value(d, _) => match d.kind() {
            crate::Kind::Bool => "k-bool",
            crate::Kind::Unsigned => "k-uint",
            crate::Kind::Signed => "k-int",
            crate::Kind::Float => "k-float",
            crate::Kind::Complex => "k-complex",
        },
        Outcome::Error(_) => "k-err",
        Outcome::Python(_) => "k-py",
    }
}

/// Markdown's backticks and bold in a legend line, as HTML.
fn legend_html(s: &str) -> String {
    let mut out = String::new();
    let e = html_escape(s);
    let mut code = false;
    for (i, part) in e.split('`').enumerate() {
        if i > 0 {
            out.push_str(if code { "</code>" } else { "<code>" });
            code = !code;
        }
        out.push_str(part);
    }
    let mut res = String::new();
    for (i, part) in out.split("**").enumerate() {
        if i % 2 == 1 {
            res.push_str(&format!("<span class=\"mark swatch\">{part}</span>"));
        } else {
            res.push_str(part);
        }
    }
    res
}

/// The page's style sheet, up to the opening `<body>`.
const HTML_HEAD: &str = r#"<style>
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem; color: #1f2328; background: #fff; }
h1 { font-size: 1.25rem; font-weight: 600; margin: 0 0 .25rem; }
p.sub { margin: 0 0 1rem; color: #59636e; }
table { border-collapse: collapse; font: 13px/1.4 ui-monospace, "SF Mono", Menlo, Consolas, monospace; }
th, td { border: 1px solid #d1d9e0; padding: .3rem .55rem; text-align: center; min-width: 2.6rem; }
thead th { background: #f6f8fa; position: sticky; top: 0; }
tbody th { background: #f6f8fa; text-align: right; }
th.corner { background: #eaeef2; color: #59636e; font-weight: 500; }
td.k-bool { background: #f6f8fa; }
td.k-uint { background: #eef6ff; }
td.k-int { background: #ddf4ff; }
td.k-float { background: #e6f7ed; }
td.k-complex { background: #fbefff; }
td.k-err, td.k-py { color: #8c959f; background: #fff; }
td.weak { font-style: italic; }
.mark { background: #ffb86b !important; color: #3d1d00; font-weight: 700; box-shadow: inset 0 0 0 2px #e8590c; }
.swatch { display: inline-block; padding: 0 .4rem; border-radius: 3px; }
tr:hover th, tr:hover td { filter: brightness(.96); }
ul.legend { color: #59636e; font-size: .9rem; padding-left: 1.2rem; }
code { font-family: ui-monospace, Menlo, Consolas, monospace; background: #f6f8fa; padding: 0 .25rem; border-radius: 3px; }
</style>
</head>
<body>
"#;

/// A standalone HTML page: the table coloured by kind, marked cells highlighted, the legend.
pub(crate) fn html(g: &Table) -> String {
    let mut s = String::new();
    s.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    s.push_str(&format!("<title>{}</title>\n", html_escape(&g.title)));
    s.push_str(HTML_HEAD);
    s.push_str(&format!(
        "<h1>{}</h1>\n",
        html_escape(&format!("{}: {}", g.policy, g.op))
    ));
    s.push_str(&format!("<p class=\"sub\">{}</p>\n", html_escape(&g.title)));
    s.push_str("<table>\n<thead>\n<tr>");
    s.push_str(&format!(
        "<th class=\"corner\" scope=\"col\">{}</th>",
        html_escape(&g.corner)
    ));
    for c in &g.cols {
        s.push_str(&format!("<th scope=\"col\">{}</th>", html_escape(c)));
    }
    s.push_str("</tr>\n</thead>\n<tbody>\n");
    for (i, (r, row)) in g.rows.iter().zip(&g.cells).enumerate() {
        s.push_str(&format!("<tr><th scope=\"row\">{}</th>", html_escape(r)));
        for (j, c) in row.iter().enumerate() {
            let mut class = vec![kind_class(&c.outcome)];
            if matches!(c.outcome, Outcome::Value(_, true)) {
                class.push("weak");
            }
            let mut title = format!(
                "{} {} {}: {}",
                g.row_operands[i], g.op, g.col_operands[j], c.outcome
            );
            if let (Some(m), Some(marks)) = (g.marked(i, j), &g.mark) {
                class.push("mark");
                title.push_str(&format!("; {}: {}", marks.policy, m.outcome));
            }
            s.push_str(&format!(
                "<td class=\"{}\" title=\"{}\">{}</td>",
                class.join(" "),
                html_escape(&title),
                html_escape(&c.text)
            ));
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody>\n</table>\n<ul class=\"legend\">\n");
    s.push_str("<li>Rows are the first operand, columns the second. Hover a cell for the call and the full answer.</li>\n");
    for l in &g.legend {
        s.push_str(&format!(
            "<li>{}</li>\n",
            legend_html(&l.replace("**bold**", "**highlighted**"))
        ));
    }
    s.push_str("</ul>\n</body>\n</html>\n");
    s
}

/// The Python scalars of `--literals`: part of the call, so a bad one is an invalid call.
pub(crate) fn literals(texts: &[String]) -> Result<Vec<Literal>, PromoteError> {
    texts
        .iter()
        .map(|t| {
            Literal::parse(t).ok_or_else(|| PromoteError::Invalid {
                message: format!(
                    "`{t}` is not a Python literal (write it as repr does: True, 1, 1.0, 1j)"
                ),
            })
        })
        .collect()
}

pub(crate) fn run(a: TableArgs) -> Result<i32, PromoteError> {
    let p = a.policy.load()?;
    // the op and the literals are the call: an unknown one is an invalid call (exit status 1)
    let call = TableOp::parse(&a.op).and_then(|op| Ok((op, literals(&a.literals)?)));
    let (op, literals) = match call {
        Ok(c) => c,
        Err(e) => return super::render::refuse(&e),
    };
    let options = TableOptions {
        op,
        with: a.with,
        style: a.style,
        literals,
    };
    let mut g = table(&p, &options)?;
    if let Some(m) = &a.mark {
        g.mark(&*crate::analysis::load_policy(m)?);
    }
    emit(&match a.format {
        Format::Md => markdown(&g),
        Format::Csv => csv(&g),
        Format::Json => format!("{}\n", g.to_json()),
        Format::Html => html(&g),
    });
    Ok(0)
}
