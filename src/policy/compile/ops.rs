//! `[[op]]` and `[[ops]]`: the ops a policy file adds to the catalogue, and each op's rule.
//! Every op starts at "compute in the promoted dtype"; the entries apply in order, each to the
//! ops and op classes it names, later ones refining earlier ones. A policy answers the spec's
//! core ops and every op it names (or whose class it names) in an `[[ops]]` entry; any other op
//! is one the framework lacks.

use crate::dtype::DType;
use crate::error::{suggest, PromoteError};
use crate::op::{Form, Op};

use super::super::compiled::{
    Action, Chain, ChainArg, ChainStep, JoinOrder, OpRule, OutRule, Range,
};
use super::super::spec::{self, OpRuleSpec};
use super::nodes::{Dtypes, Graph};
use super::operands::{literal_entry, range};
use super::{cast_levels, Ctx};

/// One `[[ops]]` entry, compiled; `None` fields leave an op's rule as it was.
struct Entry {
    /// Compute dtype → result dtype, by selector rank.
    returns: [Option<(u8, DType)>; DType::COUNT],
    /// `dtype=` arguments refused.
    dtype_unsupported: Vec<DType>,
    /// Operand dtypes with a loop of their own.
    exact_loops: Vec<Vec<DType>>,
    /// Promoted dtype → action, with the rank of the selector that set it.
    actions: [Option<(u8, Action)>; DType::COUNT],
    result: Option<DType>,
    outside: Option<DType>,
    loops: Option<Vec<DType>>,
    literal: [Option<Vec<usize>>; 4],
    range: Option<Range>,
    /// `sequence`: (by highest kind, by NumPy's DType sequence, the join scheme's order).
    sequence: Option<(bool, bool, JoinOrder)>,
    can_cast: Option<[Option<OutRule>; 6]>,
    cast_order: Option<CastOrder>,
    astype: Option<Vec<[bool; DType::COUNT]>>,
    like: Option<(String, Option<Form>)>,
    /// `chain` (`Some(None)`: `chain = []`, none).
    chain: Option<Option<std::sync::Arc<Chain>>>,
}

/// A safe-cast order: `[from][to]`.
type CastOrder = std::sync::Arc<[[bool; DType::COUNT]; DType::COUNT]>;

/// `[[ops]]`: the rule of every op.
pub(crate) fn ops(
    ctx: &Ctx,
    spec: &spec::PolicySpec,
    dt: &Dtypes,
    g: &Graph,
) -> Result<Vec<OpRule>, PromoteError> {
    for (i, e) in spec.op.iter().enumerate() {
        crate::op::register(e).map_err(|m| ctx.err(op_entry_span(ctx, i), m))?;
    }
    let mut ops: Vec<OpRule> = Op::all().iter().map(|op| default_rule(*op)).collect();
    for r in &spec.ops {
        let targets = op_targets(ctx, &r.ops)?;
        let entry = entry(ctx, r, dt, g)?;
        for op in targets {
            apply(&mut ops[op.index()], r, &entry);
        }
        for name in &r.ops {
            let name = name.get_ref().as_str();
            if name == "all" {
                continue; // the word for every op, not the reduction `all` (spell it `alltrue`)
            }
            for (op, rule) in Op::all().iter().zip(ops.iter_mut()) {
                if op.name() == name || op.class() == name || op.info().aliases.contains(&name) {
                    rule.known = true;
                }
            }
        }
    }
    Ok(ops)
}

/// Where the `i`-th `[[op]]` entry starts (for errors; the tables carry no spans).
fn op_entry_span(ctx: &Ctx, i: usize) -> std::ops::Range<usize> {
    ctx.src
        .match_indices("[[op]]")
        .nth(i)
        .map(|(at, m)| at..at + m.len())
        .unwrap_or(0..0)
}

/// An op's rule before any entry: compute in the promoted dtype; known if a core op.
fn default_rule(op: Op) -> OpRule {
    OpRule {
        known: op.info().core,
        dtype_arg: false,
        dtype_unsupported: [false; DType::COUNT],
        dtype_loop: false,
        dtype_result: false,
        exact_loops: Vec::new(),
        dtype_source: String::new(),
        literal_component: false,
        returns: [None; DType::COUNT],
        action: std::array::from_fn(|i| Action::Compute(DType::ALL[i])),
        result: None,
        same_dtype: false,
        promoted_inputs: false,
        keep_weak: true,
        range: None,
        sources: Vec::new(),
        outside: None,
        loops: None,
        literal: Default::default(),
        ignore_out: false,
        weak_only_scalars: false,
        weak_default: false,
        condition_first: false,
        operand_counts: None,
        value_in_order: false,
        can_cast_by_value: false,
        by_highest_kind: false,
        common_dtype: false,
        join_order: JoinOrder::All,
        can_cast: None,
        cast_order: None,
        dtypes_as_written: false,
        astype: None,
        like: None,
        chain: None,
    }
}

/// The ops an entry names: op names or spellings, op classes, or `all` (every op); shared with
/// `[[rules]]`.
pub(crate) fn op_targets(ctx: &Ctx, names: &[spec::Text]) -> Result<Vec<Op>, PromoteError> {
    let mut targets = Vec::new();
    let every = Op::all();
    for o in names {
        let name = o.get_ref().as_str();
        let matched: Vec<Op> = every
            .iter()
            .copied()
            .filter(|op| {
                (name == "all" && !op.info().apart)
                    || op.name() == name
                    || op.class() == name
                    || op.info().aliases.contains(&name)
            })
            .collect();
        if matched.is_empty() {
            let words = every
                .iter()
                .flat_map(|o| [o.name(), o.class()])
                .chain(["all"]);
            let s = suggest(name, words);
            return Err(ctx.err(
                o.span(),
                format!(
                    "unknown op or op class `{name}`{}",
                    s.map(|x| format!("; did you mean `{x}`?"))
                        .unwrap_or_default()
                ),
            ));
        }
        targets.extend(matched);
    }
    Ok(targets)
}

fn entry(ctx: &Ctx, r: &OpRuleSpec, dt: &Dtypes, g: &Graph) -> Result<Entry, PromoteError> {
    let mut literal: [Option<Vec<usize>>; 4] = Default::default();
    for (k, v) in &r.literal {
        let (kind, nodes) = literal_entry(ctx, g, k, v)?;
        literal[kind] = Some(nodes);
    }
    let target = |t: &spec::Text| dt.target(ctx, t);
    let mut dtype_unsupported = Vec::new();
    for sel in &r.dtype_unsupported {
        let (_, ds) = ctx.selector(sel.get_ref(), sel.span())?;
        dtype_unsupported.extend(ds);
    }
    let mut returns: [Option<(u8, DType)>; DType::COUNT] = [None; DType::COUNT];
    for (sel, v) in &r.returns {
        let (rank, ds) = ctx.selector(sel, v.span())?;
        let d = dt.target(ctx, v)?;
        for s in ds {
            if returns[s.index()].is_none_or(|(r0, _)| rank >= r0) {
                returns[s.index()] = Some((rank, d));
            }
        }
    }
    let exact_loops = r
        .exact_loops
        .iter()
        .map(|l| {
            l.get_ref()
                .split_whitespace()
                .map(|w| DType::parse(w).map_err(|e| ctx.err(l.span(), e.to_string())))
                .collect::<Result<Vec<_>, _>>()
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Entry {
        returns,
        dtype_unsupported,
        exact_loops,
        actions: actions(ctx, r, dt)?,
        result: r.result.as_ref().map(target).transpose()?,
        outside: r.outside.as_ref().map(target).transpose()?,
        loops: r
            .loops
            .as_ref()
            .map(|v| {
                v.iter()
                    .map(|t| ctx.dtype(t))
                    .collect::<Result<Vec<_>, _>>()
            })
            .transpose()?,
        literal,
        range: r
            .literal_range
            .as_ref()
            .map(|x| range(ctx, x))
            .transpose()?,
        sequence: sequence(ctx, r)?,
        can_cast: can_cast(ctx, r)?,
        cast_order: r
            .cast_order
            .as_ref()
            .map(|t| cast_order(ctx, t))
            .transpose()?,
        astype: r.astype.as_ref().map(|m| astype(ctx, m)).transpose()?,
        like: r.like.as_ref().map(|l| like(ctx, l)).transpose()?,
        chain: chain(ctx, r)?,
    })
}

/// `chain = ["OP[:FORM] A B", ...]` with `chain_keeps_shape` and `chain_weak`: each step an op
/// through an entry point on two arguments, a call's operand (`1`, `2`, ...) or the result so
/// far (`_`, not in the first step).
fn chain(ctx: &Ctx, r: &OpRuleSpec) -> Result<Option<Option<std::sync::Arc<Chain>>>, PromoteError> {
    let Some(steps) = r.chain.as_ref() else {
        if let Some(t) = r.chain_weak.as_ref() {
            return Err(ctx.err(t.span(), "chain_weak goes with a `chain`"));
        }
        return Ok(None);
    };
    if steps.is_empty() {
        return Ok(Some(None));
    }
    let mut out = Vec::new();
    for (i, t) in steps.iter().enumerate() {
        out.push(chain_step(ctx, t, i == 0)?);
    }
    let weak_of_first = match r.chain_weak.as_ref().map(|t| (t, t.get_ref().as_str())) {
        None => false,
        Some((_, "first")) => true,
        Some((t, x)) => return Err(ctx.err(t.span(), format!("chain_weak is `first`; not `{x}`"))),
    };
    Ok(Some(Some(std::sync::Arc::new(Chain {
        steps: out,
        keeps_shape: r.chain_keeps_shape.unwrap_or(false),
        weak_of_first,
    }))))
}

/// One step of a `chain`: `OP[:FORM] A B`.
fn chain_step(ctx: &Ctx, t: &spec::Text, first: bool) -> Result<ChainStep, PromoteError> {
    let err = |m: String| ctx.err(t.span(), m);
    let words: Vec<&str> = t.get_ref().split_whitespace().collect();
    let [head, a, b] = words.as_slice() else {
        return Err(err(format!(
            "a chain step is `OP[:FORM] A B` (A, B: an operand's number from 1, or `_` for the result so far); not `{}`",
            t.get_ref()
        )));
    };
    let (name, form) = match head.split_once(':') {
        Some((n, f)) => (n, Some(Form::parse(f).map_err(|e| err(e.to_string()))?)),
        None => (*head, None),
    };
    let op = Op::parse(name).map_err(|e| err(e.to_string()))?;
    if !op.accepts(2) {
        return Err(err(format!(
            "a chain step calls a binary op; `{op}` does not take two operands"
        )));
    }
    let arg = |w: &str| match w {
        "_" if !first => Ok(ChainArg::SoFar),
        "_" => Err(err(
            "the first chain step has no result so far: name two operands".into(),
        )),
        n => match n.parse::<usize>() {
            Ok(k) if k >= 1 => Ok(ChainArg::Operand(k - 1)),
            _ => Err(err(format!(
                "a chain argument is an operand's number from 1 or `_`; not `{n}`"
            ))),
        },
    };
    Ok(ChainStep {
        op,
        form,
        args: [arg(a)?, arg(b)?],
    })
}

/// `sequence`: how an n-ary op takes its operands (by highest kind, by NumPy's DType sequence,
/// the join scheme's order).
fn sequence(ctx: &Ctx, r: &OpRuleSpec) -> Result<Option<(bool, bool, JoinOrder)>, PromoteError> {
    let Some(s) = r.sequence.as_ref() else {
        return Ok(None);
    };
    const NAMES: &str = "fold, highest_kind, common_dtype, pairwise or arrays_first";
    let order = match s.get_ref().as_str() {
        "fold" => (false, false, JoinOrder::All),
        "highest_kind" => (true, false, JoinOrder::All),
        "common_dtype" => (false, true, JoinOrder::All),
        "pairwise" => (false, false, JoinOrder::Pairwise),
        "arrays_first" => (false, false, JoinOrder::ArraysFirst),
        x => return Err(ctx.err(s.span(), format!("sequence is {NAMES}; not `{x}`"))),
    };
    Ok(Some(order))
}

/// `cast_order`: edge lines `LOWER -> UPPER ...` over dtypes, closed into the order (every
/// dtype casts to itself; a cast follows edges).
fn cast_order(ctx: &Ctx, t: &spec::Text) -> Result<CastOrder, PromoteError> {
    let mut up = [[false; DType::COUNT]; DType::COUNT];
    for (ln, line) in t.get_ref().lines().enumerate() {
        let line = line.split('#').next().unwrap_or("");
        if line.trim().is_empty() {
            continue;
        }
        let dtype = |w: &str| {
            DType::parse(w.trim()).map_err(|e| ctx.err_in(t, ln, 1, format!("cast_order: {e}")))
        };
        let (lo, his) = line.split_once("->").ok_or_else(|| {
            ctx.err_in(
                t,
                ln,
                1,
                "a cast_order line is `LOWER -> UPPER [UPPER ...]`",
            )
        })?;
        let a = dtype(lo)?;
        for hi in his.split_whitespace() {
            up[a.index()][dtype(hi)?.index()] = true;
        }
    }
    let mut reach = up;
    for (i, row) in reach.iter_mut().enumerate() {
        row[i] = true;
    }
    // Floyd-Warshall closure over the dtypes
    for k in 0..DType::COUNT {
        for i in 0..DType::COUNT {
            if reach[i][k] {
                let via = reach[k];
                for (j, r) in reach[i].iter_mut().enumerate() {
                    *r |= via[j];
                }
            }
        }
    }
    Ok(std::sync::Arc::new(reach))
}

/// `astype = { FROM = [TO, ...] }`: per source dtype, the targets the framework refuses
/// (selectors on both sides).
fn astype(
    ctx: &Ctx,
    refuses: &std::collections::BTreeMap<String, Vec<spec::Text>>,
) -> Result<Vec<[bool; DType::COUNT]>, PromoteError> {
    let mut refused = vec![[false; DType::COUNT]; DType::COUNT];
    for (from, tos) in refuses {
        let first = tos.first().map_or(0..0, |t| t.span());
        let (_, froms) = ctx.selector(from, first)?;
        for to in tos {
            let (_, targets) = ctx.selector(to.get_ref(), to.span())?;
            for f in &froms {
                for t in &targets {
                    refused[f.index()][t.index()] = true;
                }
            }
        }
    }
    Ok(refused)
}

/// `like = "POLICY"` or `"POLICY:FORM"`: a built-in policy's name (checked here, compiled
/// only when a call needs it: the policy may be this one) and an entry point.
fn like(ctx: &Ctx, l: &spec::Text) -> Result<(String, Option<Form>), PromoteError> {
    let (name, form) = match l.get_ref().split_once(':') {
        Some((n, f)) => (
            n,
            Some(Form::parse(f).map_err(|e| ctx.err(l.span(), e.to_string()))?),
        ),
        None => (l.get_ref().as_str(), None),
    };
    if !super::super::builtin::BUILTIN.contains(&name) {
        let near = suggest(name, super::super::builtin::BUILTIN.iter().copied());
        return Err(ctx.err(
            l.span(),
            format!(
                "like names a built-in policy (`promote policies`); not `{name}`{}",
                near.map(|n| format!(" (did you mean `{n}`?)"))
                    .unwrap_or_default()
            ),
        ));
    }
    Ok((name.to_string(), form))
}

/// `can_cast = { LEVEL = RELATION }`: the relation per `casting=` level (`none`: a call
/// without one), in [`crate::Casting::ALL`]'s order then `none`.
fn can_cast(ctx: &Ctx, r: &OpRuleSpec) -> Result<Option<[Option<OutRule>; 6]>, PromoteError> {
    if r.can_cast.is_empty() {
        return Ok(None);
    }
    let mut levels: [Option<OutRule>; 6] = Default::default();
    for (level, v) in &r.can_cast {
        let i = crate::Casting::ALL
            .iter()
            .map(|c| c.name())
            .chain(["none"])
            .position(|n| n == level)
            .ok_or_else(|| {
                ctx.err(
                    v.span(),
                    format!(
                        "can_cast level `{level}`: use no, equiv, safe, same_kind, unsafe or none"
                    ),
                )
            })?;
        levels[i] = Some(match v.get_ref().as_str() {
            "equal" => OutRule::Equal,
            "safe" => OutRule::Safe,
            "any" => OutRule::Any,
            k if k.contains('<') => OutRule::Kinds(cast_levels(ctx, v)?, k.to_string()),
            x => {
                return Err(ctx.err(
                    v.span(),
                    format!("a can_cast relation is equal, safe, any or a kind order such as \"bool < unsigned < signed < float < complex\"; not `{x}`"),
                ))
            }
        });
    }
    Ok(Some(levels))
}

/// `compute` and `unsupported`: selector → action, the most specific selector wins.
fn actions(
    ctx: &Ctx,
    r: &OpRuleSpec,
    dt: &Dtypes,
) -> Result<[Option<(u8, Action)>; DType::COUNT], PromoteError> {
    let mut acts: [Option<(u8, Action)>; DType::COUNT] = [None; DType::COUNT];
    for (sel, v) in &r.compute {
        let (rank, ds) = ctx.selector(sel, v.span())?;
        let act = match v.get_ref().as_str() {
            "unsupported" => Action::Unsupported,
            _ => Action::Compute(dt.target(ctx, v)?),
        };
        for d in ds {
            if acts[d.index()].is_none_or(|(r0, _)| rank >= r0) {
                acts[d.index()] = Some((rank, act));
            }
        }
    }
    for sel in &r.unsupported {
        let (_, ds) = ctx.selector(sel.get_ref(), sel.span())?;
        for d in ds {
            acts[d.index()] = Some((u8::MAX, Action::Unsupported));
        }
    }
    Ok(acts)
}

/// An entry applied to one op's rule.
fn apply(rule: &mut OpRule, r: &OpRuleSpec, e: &Entry) {
    for (i, a) in e.actions.iter().enumerate() {
        if let Some((_, a)) = a {
            rule.action[i] = *a;
        }
    }
    rule.result = e.result.or(rule.result);
    rule.outside = e.outside.or(rule.outside);
    if e.loops.is_some() {
        rule.loops = e.loops.clone();
    }
    for (k, l) in e.literal.iter().enumerate() {
        if l.is_some() {
            rule.literal[k] = l.clone();
        }
    }
    rule.ignore_out = r.ignore_out.unwrap_or(rule.ignore_out);
    rule.weak_only_scalars = r.weak_only_scalars.unwrap_or(rule.weak_only_scalars);
    rule.weak_default = r.weak_default.unwrap_or(rule.weak_default);
    rule.dtype_arg = r.dtype_arg.unwrap_or(rule.dtype_arg);
    rule.dtype_loop = r.dtype_loop.unwrap_or(rule.dtype_loop);
    rule.dtype_result = r.dtype_result.unwrap_or(rule.dtype_result);
    if let Some(src) = &r.dtype_source {
        rule.dtype_source.clone_from(src);
    }
    if !e.exact_loops.is_empty() {
        rule.exact_loops = e.exact_loops.clone();
    }
    rule.literal_component = r.literal_component.unwrap_or(rule.literal_component);
    for (i, r) in e.returns.iter().enumerate() {
        if let Some((_, d)) = r {
            rule.returns[i] = Some(*d);
        }
    }
    for d in &e.dtype_unsupported {
        rule.dtype_unsupported[d.index()] = true;
    }
    rule.same_dtype = r.same_dtype.unwrap_or(rule.same_dtype);
    rule.promoted_inputs = r.promoted_inputs.unwrap_or(rule.promoted_inputs);
    rule.condition_first = r.condition_first.unwrap_or(rule.condition_first);
    if r.operand_counts.is_some() {
        rule.operand_counts = r.operand_counts.clone();
    }
    if let Some((highest, common_dtype, order)) = e.sequence {
        (rule.by_highest_kind, rule.common_dtype, rule.join_order) = (highest, common_dtype, order);
    }
    rule.value_in_order = r.value_in_order.unwrap_or(rule.value_in_order);
    rule.can_cast_by_value = r.can_cast_by_value.unwrap_or(rule.can_cast_by_value);
    if e.can_cast.is_some() {
        rule.can_cast = e.can_cast.clone();
    }
    if e.astype.is_some() {
        rule.astype = e.astype.clone();
    }
    if e.like.is_some() {
        rule.like = e.like.clone();
    }
    if e.cast_order.is_some() {
        rule.cast_order = e.cast_order.clone();
    }
    if let Some(c) = &e.chain {
        rule.chain = c.clone();
    }
    rule.dtypes_as_written = r.dtypes_as_written.unwrap_or(rule.dtypes_as_written);
    rule.keep_weak = r.keep_weak.unwrap_or(rule.keep_weak);
    if e.range.is_some() {
        rule.range = e.range.clone();
    }
    if !r.source.is_empty() {
        rule.sources.push(r.source.clone());
    }
}
