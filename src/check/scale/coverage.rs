//! The sweep over a scale's rows: once every bound has its value, rows that
//! are empty, lie outside the domain or overlap are reported, and so is every
//! hole the rows leave.

use crate::check::Checker;
use crate::check::expr::Scope;
use crate::diag::Diagnostic;
use crate::ir::{self, RuleBody, Type, Value};
use crate::source::Span;
use crate::syntax::ast;
use rust_decimal::Decimal;
use std::collections::BTreeSet;

/// An interval on the line of order keys; `None` ends are infinite.
#[derive(Debug, Clone, Copy)]
struct Interval {
    lo: Option<(Decimal, bool)>,
    hi: Option<(Decimal, bool)>,
}

/// The next whole number, saturating at the largest decimal (bounds there are
/// written by hand and must not crash the checker).
fn succ(d: Decimal) -> Decimal {
    d.checked_add(Decimal::ONE).unwrap_or(d)
}

/// The previous whole number, saturating at the smallest decimal.
fn pred(d: Decimal) -> Decimal {
    d.checked_sub(Decimal::ONE).unwrap_or(d)
}

impl Interval {
    /// On the integers, open ends become closed ones: `5 < n` is `6 <= n`.
    fn integral(self) -> Interval {
        let lo = self.lo.map(|(v, inc)| {
            let c = v.ceil();
            if inc || c != v {
                (c, true)
            } else {
                c.checked_add(Decimal::ONE)
                    .map_or((c, false), |n| (n, true))
            }
        });
        let hi = self.hi.map(|(v, inc)| {
            let f = v.floor();
            if inc || f != v {
                (f, true)
            } else {
                f.checked_sub(Decimal::ONE)
                    .map_or((f, false), |n| (n, true))
            }
        });
        Interval { lo, hi }
    }

    fn is_empty(&self) -> bool {
        match (self.lo, self.hi) {
            (Some((a, ai)), Some((b, bi))) => a > b || (a == b && !(ai && bi)),
            _ => false,
        }
    }

    fn intersects(&self, o: &Interval) -> bool {
        let lo = max_lo(self.lo, o.lo);
        let hi = min_hi(self.hi, o.hi);
        !Interval { lo, hi }.is_empty()
    }
}

fn max_lo(a: Option<(Decimal, bool)>, b: Option<(Decimal, bool)>) -> Option<(Decimal, bool)> {
    match (a, b) {
        (None, x) | (x, None) => x,
        (Some(x), Some(y)) => Some(if x.0 > y.0 || (x.0 == y.0 && !x.1) {
            x
        } else {
            y
        }),
    }
}

fn min_hi(a: Option<(Decimal, bool)>, b: Option<(Decimal, bool)>) -> Option<(Decimal, bool)> {
    match (a, b) {
        (None, x) | (x, None) => x,
        (Some(x), Some(y)) => Some(if x.0 < y.0 || (x.0 == y.0 && !x.1) {
            x
        } else {
            y
        }),
    }
}

/// The ends of one range of a scale (a row's or the domain's) as written, and
/// where the range is.
pub(crate) struct RangeEnds {
    lower: Option<ast::Bound>,
    upper: Option<ast::Bound>,
    span: Span,
}

impl From<ast::Range> for RangeEnds {
    fn from(r: ast::Range) -> Self {
        RangeEnds {
            lower: r.lower,
            upper: r.upper,
            span: r.span,
        }
    }
}

/// What the analysis of a scale's rows reads of its tree: the bounds of its rows
/// and of its domain, kept once the rest of the tree (the rows' values, the
/// ranges' variables) is freed with the scale's lowering. The bounds are
/// lowered and evaluated only when every rule is lowered, since they may name
/// consts declared anywhere.
pub(crate) struct ScaleRows {
    /// The rule's index in the program.
    index: u32,
    name: ast::Name,
    domain: Option<RangeEnds>,
    rows: Vec<RangeEnds>,
}

impl ScaleRows {
    /// Keeps the bounds of `decl`, the scale with this rule index, and frees the rest.
    pub(crate) fn new(index: u32, decl: ast::ScaleDecl) -> Self {
        ScaleRows {
            index,
            name: decl.name,
            domain: decl.domain.map(RangeEnds::from),
            rows: decl.arms.into_iter().map(|(r, _)| r.into()).collect(),
        }
    }
}

/// Evaluates every scale's bounds, then checks overlaps, holes and rows outside
/// the domain. Scales whose bounds use a const in a cycle are skipped (the cycle
/// is already reported).
pub(crate) fn analyse_all(c: &mut Checker, scales: &[ScaleRows], cyclic: &BTreeSet<u32>) {
    for decl in scales {
        let index = &decl.index;
        if cyclic.contains(index) {
            continue;
        }
        let whole = c
            .program
            .rules
            .get(*index as usize)
            .and_then(|r| r.counting.first().map(|c| c.is_whole()))
            .unwrap_or(false);
        let Some(param_ty) = c
            .program
            .rules
            .get(*index as usize)
            .and_then(|r| r.params.first().map(|(_, t)| t.clone()))
        else {
            continue;
        };
        let mut intervals = Vec::new();
        let mut ok = true;
        for (arm_no, range) in decl.rows.iter().enumerate() {
            match bound_values(c, range, &param_ty) {
                Some((lo, hi)) => {
                    if let Some(RuleBody::Scale { arms }) = c
                        .program
                        .rules
                        .get_mut(*index as usize)
                        .map(|r| &mut r.body)
                        && let Some(arm) = arms.get_mut(arm_no)
                    {
                        if let (Some(b), Some((v, _))) = (arm.lower.as_mut(), &lo) {
                            b.value = v.clone();
                        }
                        if let (Some(b), Some((v, _))) = (arm.upper.as_mut(), &hi) {
                            b.value = v.clone();
                        }
                    }
                    intervals.push((key_interval(&lo, &hi, whole), range.span));
                }
                None => ok = false,
            }
        }
        let domain = match &decl.domain {
            Some(d) => match bound_values(c, d, &param_ty) {
                Some((lo, hi)) => Some((key_interval(&lo, &hi, whole), d.span)),
                None => {
                    ok = false;
                    None
                }
            },
            None => None,
        };
        if ok {
            // The parameter's name as written (its tree is freed once declared).
            let param = c
                .program
                .rules
                .get(*index as usize)
                .and_then(|r| r.params.first())
                .map_or_else(|| "the input".to_string(), |(name, _)| name.clone());
            coverage(c, &decl.name, &param, &intervals, domain, whole, &param_ty);
        }
    }
}

type Ends = (Option<(Value, bool)>, Option<(Value, bool)>);

fn bound_values(c: &mut Checker, r: &RangeEnds, ty: &Type) -> Option<Ends> {
    let mut one = |b: &Option<ast::Bound>| -> Result<Option<(Value, bool)>, ()> {
        let Some(b) = b else { return Ok(None) };
        let mut scope = Scope::default();
        let e = c.expr(&b.value, &mut scope);
        if !e.ty.fits(ty) {
            return Err(());
        }
        // No room left in the check's steps: said once, by the check.
        let Some(result) = c.computer.value(&c.program, &e) else {
            return Err(());
        };
        match result {
            Ok(v) if v.order_key().is_some() => Ok(Some((v, b.inclusive))),
            Ok(_) => Err(()),
            Err(err) if super::super::reported_at_its_const(&c.program, &err) => Err(()),
            Err(err) => {
                c.diags.push(
                    Diagnostic::error(
                        "E0305",
                        format!("this bound cannot be computed: {}", err.message),
                        b.value.span,
                    )
                    .with_help("bounds must be constants: numbers, quantities or consts"),
                );
                Err(())
            }
        }
    };
    let lo = one(&r.lower).ok()?;
    let hi = one(&r.upper).ok()?;
    Some((lo, hi))
}

fn key_interval(lo: &Option<(Value, bool)>, hi: &Option<(Value, bool)>, whole: bool) -> Interval {
    let key =
        |b: &Option<(Value, bool)>| b.as_ref().and_then(|(v, inc)| Some((v.order_key()?, *inc)));
    let i = Interval {
        lo: key(lo),
        hi: key(hi),
    };
    if whole { i.integral() } else { i }
}

/// An order key back in the parameter's own terms (`5 min`, `8`, `9 teams`).
fn show_key(k: Decimal, ty: &Type, units: &ir::Program) -> String {
    match ty {
        Type::Duration => ir::value::show_duration(k),
        Type::Num(u) => units.show_num(k, u),
        _ => k.normalize().to_string(),
    }
}

/// One end of an interval: the order key and whether it is included.
type End = Option<(Decimal, bool)>;

/// An uncovered stretch between two rows: `from` is how far the rows reach
/// (and whether that point itself is covered), `to` where the next row begins.
type Hole = (End, End);

/// Reports a scale's rows that contain nothing, lie outside the domain or
/// overlap an earlier row, then every hole the rows leave.
fn coverage(
    c: &mut Checker,
    name: &ast::Name,
    param: &str,
    intervals: &[(Interval, Span)],
    domain: Option<(Interval, Span)>,
    whole: bool,
    ty: &Type,
) {
    check_rows(c, intervals, &domain);
    // Only the units are needed to write quantities; a copy keeps `c` free.
    let units = ir::Program {
        units: c.program.units.clone(),
        ..ir::Program::default()
    };
    let show_key = |k: Decimal| show_key(k, ty, &units);
    for hole in find_holes(intervals, &domain, whole) {
        let describe = describe_hole(hole, whole, &show_key);
        c.diags.push(hole_diagnostic(
            name,
            param,
            &describe,
            domain.map(|(_, s)| s),
        ));
    }
}

/// Each row on its own: it must contain a value and meet the domain; then each
/// row that overlaps another gets one diagnostic (see [`overlaps`]).
fn check_rows(c: &mut Checker, intervals: &[(Interval, Span)], domain: &Option<(Interval, Span)>) {
    let mut usable = Vec::with_capacity(intervals.len());
    for (i, (a, span)) in intervals.iter().enumerate() {
        if a.is_empty() {
            c.diags.push(
                Diagnostic::error("E0306", "this range contains no value", *span)
                    .with_help("the lower end must be below the upper end"),
            );
            continue;
        }
        if let Some((d, dspan)) = domain
            && !d.intersects(a)
        {
            c.diags.push(
                Diagnostic::error(
                    "E0303",
                    "this row lies outside the scale's domain and can never be used",
                    *span,
                )
                .with_note(*dspan, "the domain")
                .with_help("remove the row or widen the domain"),
            );
            continue;
        }
        usable.push(i);
    }
    for (later, earlier) in overlaps(intervals, &usable) {
        let (Some((_, span)), Some((_, other))) = (intervals.get(later), intervals.get(earlier))
        else {
            continue;
        };
        c.diags.push(
            Diagnostic::error("E0301", "this row overlaps an earlier row", *span)
                .with_label("inputs here match two rows")
                .with_note(*other, "the earlier row")
                .with_help("make one end exclusive (`<`) so each input matches one row"),
        );
    }
}

/// Rows that overlap, as (row, an earlier row it overlaps), each row at most
/// once, in the order of the rows. A sweep in order of lower ends: a row meets
/// some row before it in that order exactly when it meets the one reaching
/// highest, so each row is compared once (n log n for n rows; a scale of 1,000
/// identical rows gives 999 diagnostics, not 499,500). Rows on the edge of a
/// run of overlaps may go unreported while the run is reported.
fn overlaps(intervals: &[(Interval, Span)], usable: &[usize]) -> Vec<(usize, usize)> {
    let mut order: Vec<usize> = usable.to_vec();
    let lo_of = |i: usize| intervals.get(i).and_then(|(a, _)| a.lo);
    order.sort_by(|&a, &b| {
        let by_lo = match (lo_of(a), lo_of(b)) {
            (None, None) => std::cmp::Ordering::Equal,
            (None, _) => std::cmp::Ordering::Less,
            (_, None) => std::cmp::Ordering::Greater,
            (Some(x), Some(y)) => x.0.cmp(&y.0).then(y.1.cmp(&x.1)),
        };
        by_lo.then(a.cmp(&b))
    });
    let mut found = std::collections::BTreeMap::new();
    // The row reaching highest so far, and its interval.
    let mut reach: Option<(usize, Interval)> = None;
    for i in order {
        let Some((a, _)) = intervals.get(i) else {
            continue;
        };
        if let Some((j, b)) = reach {
            if a.intersects(&b) {
                let (later, earlier) = if i > j { (i, j) } else { (j, i) };
                found.entry(later).or_insert(earlier);
            }
            if min_hi(a.hi, b.hi) == b.hi && a.hi != b.hi {
                reach = Some((i, *a));
            }
        } else {
            reach = Some((i, *a));
        }
    }
    found.into_iter().collect()
}

/// The non-empty rows in order of their lower ends (an open-below row first;
/// at equal ends the inclusive one first).
fn sorted_rows(intervals: &[(Interval, Span)]) -> Vec<&Interval> {
    let mut rows: Vec<&Interval> = intervals
        .iter()
        .map(|(i, _)| i)
        .filter(|i| !i.is_empty())
        .collect();
    rows.sort_by(|a, b| match (a.lo, b.lo) {
        (None, None) => std::cmp::Ordering::Equal,
        (None, _) => std::cmp::Ordering::Less,
        (_, None) => std::cmp::Ordering::Greater,
        (Some(x), Some(y)) => x.0.cmp(&y.0).then(y.1.cmp(&x.1)),
    });
    rows
}

/// Where coverage must start and end: the domain's ends if there is one,
/// otherwise the lowest row's lower end and the highest upper end (so only
/// holes between rows count).
fn sweep_ends(rows: &[&Interval], domain: &Option<(Interval, Span)>) -> (End, End) {
    match domain {
        Some((d, _)) => (d.lo, d.hi),
        None => (
            rows.first().and_then(|r| r.lo),
            rows.iter()
                .map(|r| r.hi)
                .reduce(|a, b| match (a, b) {
                    (None, _) | (_, None) => None,
                    (Some(x), Some(y)) => Some(if x.0 > y.0 || (x.0 == y.0 && x.1) {
                        x
                    } else {
                        y
                    }),
                })
                .flatten(),
        ),
    }
}

/// The holes: sweep the rows in order of their lower ends, remembering how far
/// they reach, and note every gap before the next row and after the last.
fn find_holes(
    intervals: &[(Interval, Span)],
    domain: &Option<(Interval, Span)>,
    whole: bool,
) -> Vec<Hole> {
    let rows = sorted_rows(intervals);
    let (start, end) = sweep_ends(&rows, domain);
    let mut holes = Vec::new();
    // `reach`: everything up to here is covered (None: nothing yet, from -inf).
    let mut reach: End = start.map(|(v, inc)| (v, !inc));
    let mut unbounded_above = false;
    for r in &rows {
        let gap = match (reach, r.lo) {
            (_, None) => false,
            (None, Some(_)) => start.is_none(),
            (Some((v, covered)), Some((lo, inc))) => {
                if whole {
                    let next = if covered { succ(v) } else { v };
                    lo > next
                } else {
                    lo > v || (lo == v && !covered && !inc)
                }
            }
        };
        if gap {
            holes.push((reach, r.lo));
        }
        match r.hi {
            None => {
                unbounded_above = true;
                break;
            }
            Some(hi) => {
                reach = match reach {
                    Some(cur) if cur.0 > hi.0 || (cur.0 == hi.0 && cur.1) => Some(cur),
                    _ => Some(hi),
                };
            }
        }
    }
    if !unbounded_above {
        if let (Some(end), Some(cur)) = (end, reach) {
            if end.0 > cur.0 || (end.0 == cur.0 && end.1 && !cur.1) {
                holes.push((Some(cur), Some((end.0, !end.1))));
            }
        } else if end.is_none() && domain.is_some() {
            holes.push((reach, None));
        }
    }
    holes
}

/// A hole in words, after "no row for n": `= 9`, `from 9 to 11`,
/// `over 5 min and under 10 min`, `all inputs`.
fn describe_hole((from, to): Hole, whole: bool, show_key: &dyn Fn(Decimal) -> String) -> String {
    match (from, to) {
        (Some((a, a_covered)), Some((b, b_inc))) if whole => {
            let first = if a_covered { succ(a) } else { a };
            let last = if b_inc { pred(b) } else { b };
            if first == last {
                format!("= {}", show_key(first))
            } else {
                format!("from {} to {}", show_key(first), show_key(last))
            }
        }
        (Some((a, a_covered)), Some((b, b_inc))) => format!(
            "{} {} {} {}",
            if a_covered { "over" } else { "from" },
            show_key(a),
            if b_inc {
                "and under"
            } else {
                "up to and including"
            },
            show_key(b),
        ),
        (Some((a, a_covered)), None) => {
            format!(
                "{} {}",
                if a_covered { "over" } else { "from" },
                show_key(a)
            )
        }
        (None, Some((b, b_inc))) => {
            format!(
                "{} {}",
                if b_inc {
                    "under"
                } else {
                    "up to and including"
                },
                show_key(b)
            )
        }
        (None, None) => "all inputs".into(),
    }
}

/// A hole is an error when a domain promises coverage, otherwise a warning:
/// the document may really have no rule there.
fn hole_diagnostic(
    name: &ast::Name,
    param: &str,
    describe: &str,
    domain: Option<Span>,
) -> Diagnostic {
    if let Some(dspan) = domain {
        Diagnostic::error(
            "E0302",
            format!("scale `{}` has no row for {param} {describe}", name.text),
            name.span,
        )
        .with_label("the domain is not covered")
        .with_note(dspan, "the declared domain")
        .with_help("add a row for these inputs, or narrow the domain")
    } else {
        Diagnostic::warning(
            "W0301",
            format!("no rule of `{}` covers {param} {describe}", name.text),
            name.span,
        )
        .with_label("a hole between the rows")
        .with_help("if the document really has no rule here, keep it; otherwise add a row")
    }
}
