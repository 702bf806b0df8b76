//! Traces: which rules took part in a result, with their sources and inputs.

use crate::ir::{Rule, SourceInfo};
use serde::Serialize;
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
}

impl TraceNode {
    pub(super) fn root() -> Self {
        TraceNode {
            rule: String::new(),
            source: None,
            doc: String::new(),
            inputs: Vec::new(),
            output: None,
            detail: None,
            children: Vec::new(),
        }
    }

    pub(super) fn enter(rule: &Rule, inputs: Vec<(String, String)>) -> Self {
        TraceNode {
            rule: rule.name.clone(),
            source: rule.source.clone(),
            doc: rule.doc.clone(),
            inputs,
            ..TraceNode::root()
        }
    }

    /// The trace as indented lines:
    /// `late_arrival_qualification(late = 12 min) = deduct 2 VP   [CC-LATE p.20 "Sen ankomst"] row …`
    pub fn render(&self, depth: usize, out: &mut String) {
        // Written piece by piece into `out`: no line is built apart and copied.
        // Room for this node's lines at once, not grown a piece at a time.
        let inputs: usize = self.inputs.iter().map(|(n, v)| n.len() + v.len() + 5).sum();
        let output = self.output.as_ref().map_or(8, String::len);
        let detail = self.detail.as_ref().map_or(0, String::len);
        out.reserve(4 * depth + self.rule.len() + inputs + output + self.doc.len() + detail + 64);
        let indent = |out: &mut String| {
            for _ in 0..depth {
                out.push_str("  ");
            }
        };
        indent(out);
        out.push_str(&self.rule);
        if !self.inputs.is_empty() {
            out.push('(');
            for (i, (name, value)) in self.inputs.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(name);
                out.push_str(" = ");
                out.push_str(value);
            }
            out.push(')');
        }
        out.push_str(" = ");
        out.push_str(self.output.as_deref().unwrap_or("(failed)"));
        out.push('\n');
        if let Some(s) = &self.source {
            indent(out);
            // Writing to a `String` cannot fail.
            let _ = writeln!(out, "    source: {s}");
        }
        // The doc comment's first paragraph says what the rule is.
        let mut about = self
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
        if let Some(d) = &self.detail {
            indent(out);
            out.push_str("    by ");
            out.push_str(d);
            out.push('\n');
        }
        for c in &self.children {
            c.render(depth + 1, out);
        }
    }
}
