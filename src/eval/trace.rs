//! Traces: which rules took part in a result, with their sources and inputs.
//!
//! A tracing evaluator records a [`Trace`]: each call as the rule's index, its
//! depth, its inputs and output as values, and which row applied, in the order
//! the calls began. An output the program's evaluation form keeps (a row, a
//! const) is held by reference, and a table row's input is its variant, kept in
//! the call's record. Nothing is put into words while evaluating. The words come
//! when asked: [`Trace::render`] writes the text `bfr explain` prints, straight
//! from the record and the program; [`Trace::nodes`] makes [`TraceNode`]s, which
//! own their words and outlive the evaluator and the program (entries, invoices,
//! the federation's commands, JSON).

use super::Detail;
use crate::ir::{Program, Rule, SourceInfo, Type, Value};
use serde::Serialize;
use std::borrow::Cow;
use std::fmt::Write;

/// One rule call in a trace.
#[derive(Debug, Clone, Serialize)]
pub struct TraceNode {
    /// The rule's name.
    pub rule: String,
    /// Where it comes from in the document.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<SourceInfo>,
    /// Its doc comment, as the edition's editors wrote it.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub doc: String,
    /// Parameter names and the values it saw.
    pub inputs: Vec<(String, String)>,
    /// What it returned (absent if it failed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
    /// Which row of a scale or table applied.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// The rules it called.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<TraceNode>,
    /// Its depth, for a call nested deeper than [`MAX_SHOWN_DEPTH`] (shown at
    /// that depth, beside the calls nested deeper still).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
}

/// How deep calls are shown nested. A chain of rules may be 10,000 calls deep;
/// shown nested, its lines were indented by up to 20,000 spaces (100 MB of
/// text for one explanation, 2.4 GB of JSON, and the JSON's nesting overflowed
/// the stack). A call deeper than this is shown at this depth, with its own:
/// the JSON then nests at most some 70 deep, which parsers take (serde_json's
/// limit is 128).
pub const MAX_SHOWN_DEPTH: u32 = 32;

/// The depth a call of depth `depth` is shown at, and its own when that differs.
fn shown_depth(depth: u32) -> (u32, Option<u32>) {
    if depth > MAX_SHOWN_DEPTH {
        (MAX_SHOWN_DEPTH, Some(depth))
    } else {
        (depth, None)
    }
}

/// One call as recorded. Nothing in it needs dropping, so forgetting the
/// calls of a trace is setting a length.
#[derive(Debug, Clone, Copy)]
struct Call<'p> {
    rule: u32,
    /// How many calls were open when it began (0: called at the top level).
    depth: u32,
    inputs: Inputs,
    output: Output<'p>,
    detail: Option<Detail>,
}

/// Where a recorded call's inputs are.
#[derive(Debug, Clone, Copy)]
enum Inputs {
    /// In `values[first..first + len]`.
    Values { first: u32, len: u32 },
    /// A table's call answered by its row: the one input is the row's
    /// variant, `Value::Enum(of, variant)`, not kept apart.
    Variant { of: u32, variant: u32 },
}

/// What a recorded call returned.
#[derive(Debug, Clone, Copy)]
enum Output<'p> {
    /// Nothing: it failed, or has not returned.
    None,
    /// A value computed for the call, at this place in `values`.
    At(u32),
    /// A value the program's evaluation form keeps (a table's or scale's row,
    /// a const), by reference: not copied into the trace.
    Kept(&'p Value),
    /// A value not kept: it would have taken a limited trace past the values
    /// it keeps.
    LeftOut,
}

/// The calls of an evaluation, recorded as values: made into words only by
/// [`render`](Trace::render) or [`nodes`](Trace::nodes).
///
/// A trace lives as long as the program (`'p`) whose evaluation form it may
/// refer to for the answers kept there.
#[derive(Debug, Clone, Default)]
pub struct Trace<'p> {
    /// In the order they began (a call before the calls it made).
    calls: Vec<Call<'p>>,
    /// The calls' inputs and computed outputs, but for a kept output (held by
    /// reference) and a table row's input (its variant, in the call's record).
    values: Vec<Value>,
    /// The calls not yet returned, innermost last ([`LEFT_OUT`] for a call
    /// not recorded).
    open: Vec<u32>,
    /// The calls recorded at most, `None`: every call (see
    /// [`limit`](Self::limit)).
    limit: Option<usize>,
    /// The values kept apart so far, each counted with the values of the
    /// lists and records in it.
    kept: u64,
    /// How many calls were not recorded, the trace being full.
    left_out: u64,
    /// The rules of the calls not recorded, each once, in the order first
    /// called: what took part is known whole even when the calls are not.
    rules_left_out: Vec<u32>,
    /// The same rules, to find one quickly.
    rules_left_out_seen: std::collections::BTreeSet<u32>,
}

/// The calls `bfr explain` shows at most. The longest explanation of an
/// example of the 2015 edition records 370 calls; an expression that calls
/// rules in a loop over long lists may record millions, which would be
/// gigabytes of text.
pub const EXPLAIN_CALLS: usize = 10_000;

/// The values a limited trace keeps at most (each value of a list or record
/// counted, inputs and outputs): calls with long lists as inputs or outputs fill memory before they reach
/// the limit of calls.
const KEPT_VALUES: u64 = 1_000_000;

/// The characters a value is shown in at most in a limited trace: a call's
/// input or output may be a list of thousands of values.
const SHOWN_CHARS: usize = 200;

/// The words shown for an output a limited trace did not keep.
const OUTPUT_LEFT_OUT: &str =
    "… (left out: an explanation keeps at most a million values of inputs and outputs)";

/// The place in `open` of a call not recorded.
const LEFT_OUT: u32 = u32::MAX;

impl<'p> Trace<'p> {
    /// Whether no rule took part.
    pub fn is_empty(&self) -> bool {
        self.calls.is_empty()
    }

    /// How many calls were recorded.
    pub fn len(&self) -> usize {
        self.calls.len()
    }

    /// How many calls were not recorded, the trace being full: the calls
    /// recorded are the first ones, in the order they began.
    pub fn left_out(&self) -> u64 {
        self.left_out
    }

    /// Records at most `calls` calls, and as many values (inputs and outputs)
    /// as a million values of lists and records, each shown in at most
    /// 200 characters; the calls past it are only counted
    /// ([`left_out`](Self::left_out)), so a trace of an evaluation that calls
    /// rules without end stays small.
    pub fn limit(&mut self, calls: usize) {
        self.limit = Some(calls);
    }

    /// Forgets every call, keeping the room for the next evaluation.
    #[inline]
    pub fn clear(&mut self) {
        self.calls.clear();
        super::empty(&mut self.values);
        self.open.clear();
        self.kept = 0;
        self.left_out = 0;
        self.rules_left_out.clear();
        self.rules_left_out_seen.clear();
    }

    /// The inventory IDs of every rule that took part, in the order first
    /// called (each once): those of the calls recorded, then those of rules
    /// called only past the limit.
    pub fn rule_ids(&self, program: &Program) -> Vec<String> {
        let mut seen = std::collections::BTreeSet::new();
        self.calls
            .iter()
            .map(|c| c.rule)
            .chain(self.rules_left_out.iter().copied())
            .filter_map(|r| program.rules.get(r as usize)?.source.as_ref())
            .filter(|s| seen.insert(&*s.id))
            .map(|s| s.id.to_string())
            .collect()
    }

    /// Whether the trace is limited and full: a call of `rule` is then
    /// counted, not recorded (its rule is kept once).
    #[inline(always)]
    fn full(&mut self, rule: u32) -> bool {
        let full = self
            .limit
            .is_some_and(|calls| self.calls.len() >= calls || self.kept >= KEPT_VALUES);
        if full {
            self.left_out = self.left_out.saturating_add(1);
            if self.rules_left_out_seen.insert(rule) {
                self.rules_left_out.push(rule);
            }
        }
        full
    }

    /// Counts the values of `args` against the limit of values kept.
    #[inline(always)]
    fn keep(&mut self, args: &[Value]) {
        if self.limit.is_some() {
            for a in args {
                self.kept = self.kept.saturating_add(1 + super::weight(a));
            }
        }
    }

    /// Records the start of a call of rule `rule` with `args` (one per
    /// parameter it shows).
    pub(super) fn enter(&mut self, rule: u32, args: &[Value]) {
        if self.full(rule) {
            self.open.push(LEFT_OUT);
            return;
        }
        self.keep(args);
        let (Ok(depth), Ok(first_input), Ok(inputs), Ok(at)) = (
            u32::try_from(self.open.len()),
            u32::try_from(self.values.len()),
            u32::try_from(args.len()),
            u32::try_from(self.calls.len()),
        ) else {
            return;
        };
        for a in args {
            self.values.push(super::copy_value(a));
        }
        self.calls.push(Call {
            rule,
            depth,
            inputs: Inputs::Values {
                first: first_input,
                len: inputs,
            },
            output: Output::None,
            detail: None,
        });
        self.open.push(at);
    }

    /// Records a whole call at once: one answered without evaluating, which
    /// calls no rule and does not fail, with a value the evaluation form keeps.
    #[inline]
    pub(super) fn record(
        &mut self,
        rule: u32,
        args: &[Value],
        detail: Option<Detail>,
        output: &'p Value,
    ) {
        if self.full(rule) {
            return;
        }
        self.keep(args);
        // One bound for every index below: a call's inputs are few.
        let (Ok(depth), Ok(first_input), Ok(inputs)) = (
            u32::try_from(self.open.len()),
            u32::try_from(self.values.len()),
            u32::try_from(args.len()),
        ) else {
            return;
        };
        if first_input.checked_add(inputs).is_none() {
            return;
        }
        for a in args {
            self.values.push(super::copy_value(a));
        }
        self.calls.push(Call {
            rule,
            depth,
            inputs: Inputs::Values {
                first: first_input,
                len: inputs,
            },
            output: Output::Kept(output),
            detail,
        });
    }

    /// [`record`](Self::record) of a table's call answered by its row for
    /// `variant` of enum `of`: the variant is the call's input, kept in the
    /// call's record rather than apart.
    #[inline(always)]
    pub(super) fn record_row(&mut self, rule: u32, of: u32, variant: u32, output: &'p Value) {
        if self.full(rule) {
            return;
        }
        let Ok(depth) = u32::try_from(self.open.len()) else {
            return;
        };
        self.calls.push(Call {
            rule,
            depth,
            inputs: Inputs::Variant { of, variant },
            output: Output::Kept(output),
            detail: Some(Detail::Table(variant)),
        });
    }

    /// Records the end of the innermost open call.
    pub(super) fn leave(&mut self, detail: Option<Detail>, output: Option<&Value>) {
        let Some(at) = self.open.pop().filter(|at| *at != LEFT_OUT) else {
            return;
        };
        let place = u32::try_from(self.values.len()).ok();
        if let Some(call) = self.calls.get_mut(at as usize) {
            call.detail = detail;
            if let (Some(v), Some(place)) = (output, place) {
                // An output is counted like an input; one past the values a
                // limited trace keeps is not copied, and the trace is full.
                if self.limit.is_some() {
                    self.kept = self.kept.saturating_add(1 + super::weight(v));
                    if self.kept > KEPT_VALUES {
                        call.output = Output::LeftOut;
                        return;
                    }
                }
                call.output = Output::At(place);
                self.values.push(super::copy_value(v));
            }
        }
    }

    /// How many values are kept apart from the calls' records.
    #[cfg(test)]
    pub(super) fn values_kept_apart(&self) -> usize {
        self.values.len()
    }

    /// The words for `call`'s output; `None` when it failed.
    fn output(&self, program: &Program, call: &Call<'p>) -> Option<String> {
        match call.output {
            Output::None => None,
            Output::At(at) => self.values.get(at as usize).map(|v| self.show(program, v)),
            Output::Kept(v) => Some(self.show(program, v)),
            Output::LeftOut => Some(OUTPUT_LEFT_OUT.to_string()),
        }
    }

    /// `v` in words; in a limited trace, at most [`SHOWN_CHARS`] characters
    /// of them, so a few calls with long lists do not print megabytes.
    fn show(&self, program: &Program, v: &Value) -> String {
        let mut text = v.show(program);
        if self.limit.is_none() {
            return text;
        }
        if let Some((cut, _)) = text.char_indices().nth(SHOWN_CHARS) {
            text.truncate(cut);
            text.push('…');
            if let Value::List(values) = v {
                let _ = write!(text, " ({} values)", super::show_count(values.len() as u64));
            }
        }
        text
    }

    fn inputs(&self, call: &Call<'p>) -> Cow<'_, [Value]> {
        match call.inputs {
            Inputs::Values { first, len } => {
                let first = first as usize;
                Cow::Borrowed(
                    self.values
                        .get(first..first + len as usize)
                        .unwrap_or_default(),
                )
            }
            Inputs::Variant { of, variant } => Cow::Owned(vec![Value::Enum(of, variant)]),
        }
    }

    /// The trace as text, as `bfr explain` prints it: each call indented by
    /// `depth` plus its own depth (see [`TraceNode::render`]).
    pub fn render(&self, program: &Program, depth: usize, out: &mut String) {
        for call in &self.calls {
            let Some(rule) = program.rules.get(call.rule as usize) else {
                continue;
            };
            let values = self.inputs(call);
            let inputs: Vec<(&str, String)> = rule
                .params
                .iter()
                .zip(values.iter())
                .map(|((name, _), v)| (name.as_str(), self.show(program, v)))
                .collect();
            let output = self.output(program, call);
            let detail = call.detail.map(|d| describe(program, rule, d));
            let (level, own) = shown_depth(call.depth);
            write_call(
                out,
                depth + level as usize,
                &Shown {
                    rule: &rule.name,
                    inputs: &inputs,
                    output: output.as_deref(),
                    source: rule.source.as_ref(),
                    doc: &rule.doc,
                    detail: detail.as_deref(),
                    depth: own,
                },
            );
        }
        if self.left_out > 0 {
            for _ in 0..depth {
                out.push_str("  ");
            }
            // Writing to a `String` cannot fail.
            let _ = writeln!(
                out,
                "… {} more rule calls left out: an explanation shows the first {} calls",
                self.left_out,
                self.calls.len()
            );
        }
    }

    /// The trace as nodes that own their words: the calls made at the top
    /// level, each with the calls it made.
    pub fn nodes(&self, program: &Program) -> Vec<TraceNode> {
        let mut top = Vec::new();
        // The open ancestors of the next call, outermost first.
        let mut open: Vec<TraceNode> = Vec::new();
        for call in &self.calls {
            let (level, own) = shown_depth(call.depth);
            while open.len() > level as usize {
                close(&mut open, &mut top);
            }
            let mut node = self.node(program, call);
            node.depth = own;
            open.push(node);
        }
        while !open.is_empty() {
            close(&mut open, &mut top);
        }
        top
    }

    fn node(&self, program: &Program, call: &Call<'p>) -> TraceNode {
        let Some(rule) = program.rules.get(call.rule as usize) else {
            return TraceNode::named("?");
        };
        let inputs = self.inputs(call);
        TraceNode {
            rule: rule.name.clone(),
            source: rule.source.clone(),
            doc: rule.doc.to_string(),
            inputs: rule
                .params
                .iter()
                .zip(inputs.iter())
                .map(|((name, _), v)| (name.clone(), self.show(program, v)))
                .collect(),
            output: self.output(program, call),
            detail: call.detail.map(|d| describe(program, rule, d)),
            children: Vec::new(),
            depth: None,
        }
    }
}

/// Hangs the innermost open node under its parent, or at the top level.
fn close(open: &mut Vec<TraceNode>, top: &mut Vec<TraceNode>) {
    if let Some(node) = open.pop() {
        match open.last_mut() {
            Some(parent) => parent.children.push(node),
            None => top.push(node),
        }
    }
}

/// Which row applied, in words: ``row `Skane` ``, ``row `5 min < late <= 10 min` ``.
fn describe(program: &Program, rule: &Rule, detail: Detail) -> String {
    match (detail, &rule.body) {
        (Detail::Table(v), _) => {
            let key = rule
                .params
                .first()
                .and_then(|(_, t)| match t {
                    Type::Enum(e) => program.enums.get(*e as usize),
                    _ => None,
                })
                .and_then(|info| info.variants.get(v as usize))
                .map_or("?", String::as_str);
            format!("row `{key}`")
        }
        (Detail::Scale(a), crate::ir::RuleBody::Scale { arms }) => {
            format!("row `{}`", arms.get(a as usize).map_or("?", |a| &a.text))
        }
        (Detail::Scale(_), _) => String::new(),
    }
}

/// One call in words, borrowed from wherever they are kept.
struct Shown<'a, I: AsRef<str>> {
    rule: &'a str,
    inputs: &'a [(I, String)],
    output: Option<&'a str>,
    source: Option<&'a SourceInfo>,
    doc: &'a str,
    detail: Option<&'a str>,
    /// Its own depth, when it is shown at another ([`MAX_SHOWN_DEPTH`]).
    depth: Option<u32>,
}

/// Writes one call's lines (not its children's) at `depth`.
fn write_call<I: AsRef<str>>(out: &mut String, depth: usize, call: &Shown<'_, I>) {
    // Written piece by piece into `out`: no line is built apart and copied.
    // Room for this call's lines at once, not grown a piece at a time.
    let inputs: usize = call
        .inputs
        .iter()
        .map(|(n, v)| n.as_ref().len() + v.len() + 5)
        .sum();
    let output = call.output.map_or(8, str::len);
    let detail = call.detail.map_or(0, str::len);
    out.reserve(4 * depth + call.rule.len() + inputs + output + call.doc.len() + detail + 64);
    let indent = |out: &mut String| {
        for _ in 0..depth {
            out.push_str("  ");
        }
    };
    indent(out);
    if let Some(own) = call.depth {
        // Writing to a `String` cannot fail.
        let _ = write!(out, "[depth {own}] ");
    }
    out.push_str(call.rule);
    if !call.inputs.is_empty() {
        out.push('(');
        for (i, (name, value)) in call.inputs.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(name.as_ref());
            out.push_str(" = ");
            out.push_str(value);
        }
        out.push(')');
    }
    out.push_str(" = ");
    out.push_str(call.output.unwrap_or("(failed)"));
    out.push('\n');
    if let Some(s) = call.source {
        indent(out);
        // Writing to a `String` cannot fail.
        let _ = writeln!(out, "    source: {s}");
    }
    // The doc comment's first paragraph says what the rule is.
    let mut about = call
        .doc
        .lines()
        .map(str::trim)
        .take_while(|l| !l.is_empty())
        .peekable();
    if about.peek().is_some() {
        indent(out);
        out.push_str("    about:");
        for line in about {
            out.push(' ');
            out.push_str(line);
        }
        out.push('\n');
    }
    if let Some(d) = call.detail {
        indent(out);
        out.push_str("    by ");
        out.push_str(d);
        out.push('\n');
    }
}

impl TraceNode {
    fn named(rule: &str) -> Self {
        TraceNode {
            rule: rule.to_string(),
            source: None,
            doc: String::new(),
            inputs: Vec::new(),
            output: None,
            detail: None,
            children: Vec::new(),
            depth: None,
        }
    }

    /// The trace as indented lines:
    /// `late_arrival_qualification(late = 12 min) = deduct 2 VP`, then its
    /// source, what it is about and the row that applied, then its calls.
    pub fn render(&self, depth: usize, out: &mut String) {
        write_call(
            out,
            depth,
            &Shown {
                rule: &self.rule,
                inputs: &self.inputs,
                output: self.output.as_deref(),
                source: self.source.as_ref(),
                doc: &self.doc,
                detail: self.detail.as_deref(),
                depth: self.depth,
            },
        );
        for c in &self.children {
            c.render(depth + 1, out);
        }
    }
}
