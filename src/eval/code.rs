//! A folded rule body compiled to a list of steps over the call's frame, for the
//! evaluation form ([`Prepared`](super::Prepared)).
//!
//! The tree walk moves every step's result up the tree, clones every literal and
//! local it reads, and dispatches on each node's kind. Compiled, a body is a flat
//! list of steps run in order: each step reads its operands where they are (a
//! slot of the frame or a value of the code) and writes its result into a slot
//! of its own after the rule's locals. The steps run the tree walk's own
//! operations ([`binary_value`](super::binary_value), …) on the same values in
//! the same order, with the same spans, so a compiled body gives exactly the
//! value or the failure the tree walk gives. A part the steps do not cover (a
//! `match`, a list, `and`/`or`, …) is one step that tree-walks that part in the
//! same frame.

use super::{
    Evaluator, R, binary_value, copy_value, deduct_value, not_value, put, second_is_extreme, unset,
};
use crate::ir::{BinOp, Builtin, Expr, ExprKind, Type, Unit, Value};
use crate::source::Span;

/// Bodies nested deeper than this are not compiled (they stay tree-walked):
/// compiling recurses over the body, and real rule bodies are shallow.
const MAX_DEPTH: u32 = 64;

/// Where a step finds a value.
#[derive(Debug, Clone, Copy)]
enum Operand {
    /// A slot of the frame: a parameter, a `let`, or an earlier step's result.
    Slot(u32),
    /// A value of the code (a literal of the body).
    Value(u32),
}

/// One step of compiled code; `dst` is the slot it writes.
#[derive(Debug, Clone)]
enum Step {
    /// `a op b` (not `and`/`or`, which may leave `b` unevaluated); `unit` is the
    /// checked type's unit, which a product or quotient takes.
    Binary {
        op: BinOp,
        a: Operand,
        b: Operand,
        unit: Option<Unit>,
        dst: u32,
        span: Span,
    },
    /// `min(a, b)` or `max(a, b)`.
    Extreme {
        builtin: Builtin,
        a: Operand,
        b: Operand,
        dst: u32,
        span: Span,
    },
    Neg {
        x: Operand,
        dst: u32,
        span: Span,
    },
    Not {
        x: Operand,
        dst: u32,
        span: Span,
    },
    Deduct {
        x: Operand,
        dst: u32,
        span: Span,
    },
    Copy {
        x: Operand,
        dst: u32,
    },
    /// Goes on when `cond` is true, to step `otherwise` when it is false; any
    /// other value is the failure of an `if` whose condition is at `span`.
    Branch {
        cond: Operand,
        otherwise: u32,
        span: Span,
    },
    Jump {
        to: u32,
    },
    /// A call of rule `rule` with these arguments.
    Call {
        rule: u32,
        args: Box<[Operand]>,
        dst: u32,
        span: Span,
    },
    /// A part evaluated by the tree walk, in the same frame.
    Tree {
        expr: Box<Expr>,
        dst: u32,
    },
}

/// A compiled rule body.
#[derive(Debug, Clone)]
pub(super) struct Code {
    steps: Vec<Step>,
    values: Vec<Value>,
    result: Operand,
    /// The slots a frame needs: the rule's locals, then the steps' results.
    frame: u32,
}

/// `body` compiled, for a rule whose frame has `locals` slots; `None` when it
/// is better left to the tree walk (it reads or writes a slot outside the
/// frame, or nests too deeply to compile).
pub(super) fn compile(body: &Expr, locals: u32) -> Option<Code> {
    if !slots_within(body, locals, 0)? {
        return None;
    }
    let mut c = Compiler {
        steps: Vec::new(),
        values: Vec::new(),
        next: locals,
    };
    let result = c.expr(body, 0)?;
    Some(Code {
        steps: c.steps,
        values: c.values,
        result,
        frame: c.next,
    })
}

/// Whether every local `e` reads or writes is below `locals` (`None`: too deep
/// to tell).
fn slots_within(e: &Expr, locals: u32, depth: u32) -> Option<bool> {
    if depth > MAX_DEPTH {
        return None;
    }
    let mut ok = true;
    let sub = |x: &Expr| slots_within(x, locals, depth + 1);
    match &e.kind {
        ExprKind::Lit(_) | ExprKind::RuleRef(_) => {}
        ExprKind::Local(s) => ok = *s < locals,
        ExprKind::Let(s, v, b) => ok = *s < locals && sub(v)? && sub(b)?,
        ExprKind::Loop {
            list,
            init,
            slots,
            body,
            ..
        } => {
            ok = slots.iter().all(|s| *s < locals) && sub(list)? && sub(body)?;
            if let Some(init) = init {
                ok &= sub(init)?;
            }
        }
        _ => {
            for x in children(e) {
                ok &= sub(x)?;
            }
        }
    }
    Some(ok)
}

/// The expressions directly inside `e`.
pub(super) fn children(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::Lit(_) | ExprKind::Local(_) | ExprKind::RuleRef(_) => Vec::new(),
        ExprKind::Call(_, xs)
        | ExprKind::Builtin(_, xs)
        | ExprKind::Record(_, xs)
        | ExprKind::List(xs) => xs.iter().collect(),
        ExprKind::Neg(x) | ExprKind::Not(x) | ExprKind::Field(x, _) | ExprKind::Deduct(x) => {
            vec![x]
        }
        ExprKind::Binary(_, a, b) | ExprKind::Let(_, a, b) | ExprKind::Index(a, b) => vec![a, b],
        ExprKind::If(c, t, f) => vec![c, t, f],
        ExprKind::Match(s, arms) => std::iter::once(&**s)
            .chain(arms.iter().map(|(_, x)| x))
            .collect(),
        ExprKind::Loop {
            list, init, body, ..
        } => std::iter::once(&**list)
            .chain(init.as_deref())
            .chain(std::iter::once(&**body))
            .collect(),
    }
}

/// Whether evaluating `e` can give a local a value (`let`, a list operation's
/// parameters): a local read before it must then be copied first.
fn writes_locals(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Let(..) | ExprKind::Loop { .. })
        || children(e).into_iter().any(writes_locals)
}

struct Compiler {
    steps: Vec<Step>,
    values: Vec<Value>,
    /// The next free slot.
    next: u32,
}

impl Compiler {
    fn slot(&mut self) -> u32 {
        let s = self.next;
        self.next += 1;
        s
    }

    fn at(&self) -> Option<u32> {
        u32::try_from(self.steps.len()).ok()
    }

    /// Compiles `e`: where its value will be.
    fn expr(&mut self, e: &Expr, depth: u32) -> Option<Operand> {
        if depth > MAX_DEPTH {
            return None;
        }
        let depth = depth + 1;
        let span = e.span;
        match &e.kind {
            ExprKind::Lit(v) => {
                self.values.push(v.clone());
                Some(Operand::Value(u32::try_from(self.values.len() - 1).ok()?))
            }
            ExprKind::Local(s) => Some(Operand::Slot(*s)),
            ExprKind::Binary(op, a, b) if !matches!(op, BinOp::And | BinOp::Or) => {
                let [a, b] = self.operands([a, b], depth)?;
                let unit = match &e.ty {
                    Type::Num(u) => Some(u.clone()),
                    _ => None,
                };
                let dst = self.slot();
                self.steps.push(Step::Binary {
                    op: *op,
                    a,
                    b,
                    unit,
                    dst,
                    span,
                });
                Some(Operand::Slot(dst))
            }
            ExprKind::Builtin(builtin @ (Builtin::Min | Builtin::Max), args) if args.len() == 2 => {
                let [a, b] = self.operands([args.first()?, args.get(1)?], depth)?;
                let dst = self.slot();
                self.steps.push(Step::Extreme {
                    builtin: *builtin,
                    a,
                    b,
                    dst,
                    span,
                });
                Some(Operand::Slot(dst))
            }
            ExprKind::Neg(x) | ExprKind::Not(x) | ExprKind::Deduct(x) => {
                let x = self.expr(x, depth)?;
                let dst = self.slot();
                self.steps.push(match e.kind {
                    ExprKind::Neg(_) => Step::Neg { x, dst, span },
                    ExprKind::Not(_) => Step::Not { x, dst, span },
                    _ => Step::Deduct { x, dst, span },
                });
                Some(Operand::Slot(dst))
            }
            ExprKind::If(c, t, f) => {
                let cond = self.expr(c, depth)?;
                let branch = self.steps.len();
                self.steps.push(Step::Branch {
                    cond,
                    otherwise: 0,
                    span: c.span,
                });
                let dst = self.slot();
                self.expr_into(t, dst, depth)?;
                let jump = self.steps.len();
                self.steps.push(Step::Jump { to: 0 });
                let otherwise = self.at()?;
                self.expr_into(f, dst, depth)?;
                let end = self.at()?;
                if let Some(Step::Branch { otherwise: o, .. }) = self.steps.get_mut(branch) {
                    *o = otherwise;
                }
                if let Some(Step::Jump { to }) = self.steps.get_mut(jump) {
                    *to = end;
                }
                Some(Operand::Slot(dst))
            }
            ExprKind::Let(slot, value, body) => {
                self.expr_into(value, *slot, depth)?;
                self.expr(body, depth)
            }
            ExprKind::Call(rule, args) => {
                let mut operands = Vec::with_capacity(args.len());
                for (k, arg) in args.iter().enumerate() {
                    let later = args.get(k + 1..).unwrap_or_default();
                    operands.push(self.operand(arg, later.iter(), depth)?);
                }
                let dst = self.slot();
                self.steps.push(Step::Call {
                    rule: *rule,
                    args: operands.into_boxed_slice(),
                    dst,
                    span,
                });
                Some(Operand::Slot(dst))
            }
            _ => {
                let dst = self.slot();
                self.steps.push(Step::Tree {
                    expr: Box::new(e.clone()),
                    dst,
                });
                Some(Operand::Slot(dst))
            }
        }
    }

    /// Two operands evaluated left to right.
    fn operands(&mut self, [a, b]: [&Expr; 2], depth: u32) -> Option<[Operand; 2]> {
        let x = self.operand(a, std::iter::once(b), depth)?;
        let y = self.expr(b, depth)?;
        Some([x, y])
    }

    /// Compiles `e`, whose value is read after `later` is evaluated: a local
    /// that `later` could give another value is copied first, as the tree walk
    /// would have read it before.
    fn operand<'e>(
        &mut self,
        e: &Expr,
        mut later: impl Iterator<Item = &'e Expr>,
        depth: u32,
    ) -> Option<Operand> {
        let x = self.expr(e, depth)?;
        if matches!(e.kind, ExprKind::Local(_)) && later.any(writes_locals) {
            let dst = self.slot();
            self.steps.push(Step::Copy { x, dst });
            return Some(Operand::Slot(dst));
        }
        Some(x)
    }

    /// Compiles `e` so that its value ends in slot `dst`: the last step writes
    /// there when it made the value, else the value is copied.
    fn expr_into(&mut self, e: &Expr, dst: u32, depth: u32) -> Option<()> {
        let first_new = self.next;
        let x = self.expr(e, depth)?;
        // Only a slot the last step alone writes (not an `if`'s, which each
        // branch writes) can be written in `dst` instead.
        if let Operand::Slot(s) = x
            && s >= first_new
            && let Some((last, before)) = self.steps.split_last_mut()
            && !before
                .iter_mut()
                .any(|step| written_slot(step).is_some_and(|w| *w == s))
            && let Some(written) = written_slot(last)
            && *written == s
        {
            *written = dst;
            return Some(());
        }
        self.steps.push(Step::Copy { x, dst });
        Some(())
    }
}

/// The slot a step writes, if it writes one.
fn written_slot(step: &mut Step) -> Option<&mut u32> {
    match step {
        Step::Binary { dst, .. }
        | Step::Extreme { dst, .. }
        | Step::Neg { dst, .. }
        | Step::Not { dst, .. }
        | Step::Deduct { dst, .. }
        | Step::Copy { dst, .. }
        | Step::Call { dst, .. }
        | Step::Tree { dst, .. } => Some(dst),
        Step::Branch { .. } | Step::Jump { .. } => None,
    }
}

/// `x op y` of two quantities when it is a product, sum or difference that
/// fits: what [`binary_value`] gives then, without a call. `None` for every
/// other case (and for an overflow), which `binary_value` decides, failures
/// included.
#[inline(always)]
fn quantities(op: BinOp, x: &Value, y: &Value, unit: Option<&Unit>) -> Option<Value> {
    let (Value::Num(m, own), Value::Num(n, _)) = (x, y) else {
        return None;
    };
    match op {
        // A product takes the checked type's unit, as `binary_value` gives it.
        BinOp::Mul => Some(Value::Num(m.checked_mul(*n)?, unit?.clone())),
        BinOp::Add => Some(Value::Num(m.checked_add(*n)?, own.clone())),
        BinOp::Sub => Some(Value::Num(m.checked_sub(*n)?, own.clone())),
        _ => None,
    }
}

/// The value an operand names.
#[inline(always)]
fn read<'a>(
    frame: &'a [Value],
    values: &'a [Value],
    x: Operand,
    span: Span,
) -> Result<&'a Value, Box<super::EvalError>> {
    match x {
        Operand::Slot(s) => frame.get(s as usize),
        Operand::Value(v) => values.get(v as usize),
    }
    .ok_or_else(|| Evaluator::fail("internal error: a local has no value", span))
}

impl Evaluator<'_> {
    /// Runs compiled code in `frame`, which holds the call's arguments.
    pub(super) fn run(&mut self, code: &Code, frame: &mut Vec<Value>, span: Span) -> R {
        if frame.len() < code.frame as usize {
            frame.resize_with(code.frame as usize, unset);
        }
        let values = code.values.as_slice();
        let mut pc = 0usize;
        while let Some(step) = code.steps.get(pc) {
            pc += 1;
            self.charge(1, span)?;
            let (dst, value) = match step {
                Step::Binary {
                    op,
                    a,
                    b,
                    unit,
                    dst,
                    span,
                } => {
                    let (x, y) = (
                        read(frame, values, *a, *span)?,
                        read(frame, values, *b, *span)?,
                    );
                    let value = match quantities(*op, x, y, unit.as_ref()) {
                        Some(value) => value,
                        None => binary_value(*op, x, y, unit.as_ref(), *span)?,
                    };
                    (*dst, value)
                }
                Step::Extreme {
                    builtin,
                    a,
                    b,
                    dst,
                    span,
                } => {
                    let (x, y) = (
                        read(frame, values, *a, *span)?,
                        read(frame, values, *b, *span)?,
                    );
                    let chosen = if second_is_extreme(*builtin, x, y, *span)? {
                        y
                    } else {
                        x
                    };
                    (*dst, copy_value(chosen))
                }
                Step::Neg { x, dst, span } => {
                    let x = read(frame, values, *x, *span)?;
                    (
                        *dst,
                        super::arith::negate(x).map_err(|m| Evaluator::fail(m, *span))?,
                    )
                }
                Step::Not { x, dst, span } => {
                    (*dst, not_value(read(frame, values, *x, *span)?, *span)?)
                }
                Step::Deduct { x, dst, span } => {
                    (*dst, deduct_value(read(frame, values, *x, *span)?, *span)?)
                }
                Step::Copy { x, dst } => {
                    let x = read(frame, values, *x, span)?;
                    self.charge_value(x, span)?;
                    (*dst, copy_value(x))
                }
                Step::Branch {
                    cond,
                    otherwise,
                    span,
                } => {
                    match read(frame, values, *cond, *span)? {
                        Value::Bool(true) => {}
                        Value::Bool(false) => pc = *otherwise as usize,
                        _ => {
                            return Err(Evaluator::fail(
                                "the condition is not true or false",
                                *span,
                            ));
                        }
                    }
                    continue;
                }
                Step::Jump { to } => {
                    pc = *to as usize;
                    continue;
                }
                Step::Call {
                    rule,
                    args,
                    dst,
                    span,
                } => {
                    let mut call = self.fresh();
                    for a in args {
                        match read(frame, values, *a, *span)
                            .and_then(|v| self.charge_value(v, *span).map(|()| v))
                        {
                            Ok(v) => call.push(copy_value(v)),
                            Err(e) => {
                                self.recycle(call);
                                return Err(e);
                            }
                        }
                    }
                    let (rule, span) = (*rule, *span);
                    (*dst, self.nested(|ev| ev.call_owned(rule, call, span))?)
                }
                Step::Tree { expr, dst } => (*dst, self.eval(expr, frame)?),
            };
            if let Some(slot) = frame.get_mut(dst as usize) {
                put(slot, value);
            }
        }
        match code.result {
            Operand::Slot(s) => frame
                .get_mut(s as usize)
                .map(|v| std::mem::replace(v, Value::Bool(false)))
                .ok_or_else(|| Evaluator::fail("internal error: a local has no value", span)),
            Operand::Value(v) => read(frame, values, Operand::Value(v), span).map(copy_value),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Answer, Evaluator, Prepared, trace::Trace};
    use crate::ir::{BinOp, Expr, ExprKind, Program, Rule, RuleBody, Type, Unit, Value};
    use crate::source::Span;
    use rust_decimal::Decimal;

    /// An expression written at `at` (so failures can be told apart by span).
    fn e(kind: ExprKind, at: u32) -> Expr {
        Expr {
            kind,
            ty: Type::number(),
            span: Span {
                file: 0,
                start: at,
                end: at + 1,
            },
        }
    }

    fn num(n: i64) -> Expr {
        e(ExprKind::Lit(Value::Num(Decimal::from(n), Unit::none())), 0)
    }

    fn local(slot: u32) -> Expr {
        e(ExprKind::Local(slot), 0)
    }

    fn bin(op: BinOp, a: Expr, b: Expr, at: u32) -> Expr {
        e(ExprKind::Binary(op, Box::new(a), Box::new(b)), at)
    }

    fn let_in(slot: u32, value: Expr, body: Expr) -> Expr {
        e(ExprKind::Let(slot, Box::new(value), Box::new(body)), 0)
    }

    /// A program of one fn `widget(x)` with this body and two locals.
    fn program(body: Expr) -> Program {
        let rule = Rule {
            name: "widget".into(),
            params: vec![("x".into(), Type::number())],
            counting: Box::new([crate::ir::Counting::Any]),
            answer: crate::ir::Counting::Any,
            ret: Type::number(),
            source: None,
            doc: Box::default(),
            body: RuleBody::Fn {
                body: Box::new(body),
            },
            locals: 2,
            reading: false,
            cites: None,
            span: Span::default(),
        };
        Program {
            rules: vec![Box::new(rule)],
            ..Program::default()
        }
    }

    /// A program of one rule, `widget`, a table by the variants of enum 0.
    fn table(rows: Vec<Expr>) -> Program {
        let mut program = program(num(0));
        let rule = &mut program.rules[0];
        rule.params = vec![("key".into(), Type::Enum(0))];
        rule.body = RuleBody::Table { rows };
        program
    }

    /// `widget(x)` by the tree walk and by the compiled body, failures with
    /// their spans; the compiled body is checked to have been made.
    fn both(program: &Program, x: i64) -> [Result<Value, (String, u32)>; 2] {
        let prepared = Prepared::new(program);
        let args = [Value::Num(Decimal::from(x), Unit::none())];
        let run = |mut ev: Evaluator| {
            ev.call_with(0, &args, Span::default())
                .map_err(|e| (e.message, e.span.start))
        };
        let walked = run(Evaluator::new(program));
        let compiled = run(Evaluator::prepared(program, &prepared));
        assert_eq!(prepared.compiled(), 1);
        [walked, compiled]
    }

    fn n(x: i64) -> Value {
        Value::Num(Decimal::from(x), Unit::none())
    }

    #[test]
    fn a_handle_answers_as_call_with_and_refuses_a_call_it_cannot_make() {
        let program = program(bin(BinOp::Add, local(0), num(1), 0));
        let prepared = Prepared::new(&program);
        let mut ev = Evaluator::prepared(&program, &prepared);
        let handle = ev.handle("widget").expect("a handle");
        assert!(ev.handle("gadget").is_none());
        let span = Span::default();
        for x in [2, 5, -1] {
            let answer = ev.answer(&handle, &[n(x)], span).map(Answer::into_value);
            assert_eq!(answer.ok(), Some(n(x + 1)));
        }
        // Twice, then on a frame the first calls left behind.
        assert_eq!(ev.call_with(0, &[n(7)], span).ok(), Some(n(8)));
        let wrong = ev.answer(&handle, &[], span).map(Answer::into_value);
        assert!(wrong.is_err_and(|e| e.message.contains("takes 1 argument, not 0")));
        let other = program.clone();
        let other_prepared = Prepared::new(&other);
        let mut stranger = Evaluator::prepared(&other, &other_prepared);
        assert!(stranger.answer(&handle, &[n(2)], span).is_err());
    }

    /// A table whose rows all fold, and one with a row that does not (it
    /// fails: 1 / 0), through a handle: each folded row is answered ready,
    /// the other computed, each as the tree walk gives it, failures with their
    /// spans.
    #[test]
    fn a_handle_answers_a_table_whether_or_not_every_row_folded() {
        let span = Span::default();
        let full = table(vec![num(5), num(6)]);
        let partial = table(vec![num(5), bin(BinOp::Div, num(1), num(0), 7)]);
        for (program, whole) in [(&full, true), (&partial, false)] {
            let prepared = Prepared::new(program);
            let mut ev = Evaluator::prepared(program, &prepared);
            let mut walk = Evaluator::new(program);
            let handle = ev.handle("widget").expect("a handle");
            for v in 0..3 {
                let args = [Value::Enum(0, v)];
                let answer = ev.answer(&handle, &args, span);
                let ready = matches!(answer, Ok(Answer::Ready(_)));
                assert_eq!(ready, v == 0 || (whole && v == 1), "row {v}");
                let got = answer.map(Answer::into_value).map_err(|e| e.span.start);
                let want = walk.call_with(0, &args, span).map_err(|e| e.span.start);
                assert_eq!(got, want, "row {v}");
            }
        }
        let mut walk = Evaluator::new(&partial);
        let failed = walk.call_with(0, &[Value::Enum(0, 1)], span);
        assert!(failed.is_err_and(|e| e.span.start == 7));
        // A handle that keeps rows answers only for its own form and program.
        let prepared = Prepared::new(&full);
        let handle = Evaluator::prepared(&full, &prepared)
            .handle("widget")
            .expect("a handle");
        let other_prepared = Prepared::new(&partial);
        let mut stranger = Evaluator::prepared(&partial, &other_prepared);
        assert!(
            stranger
                .answer(&handle, &[Value::Enum(0, 0)], span)
                .is_err()
        );
        assert!(
            Evaluator::new(&partial)
                .answer(&handle, &[Value::Enum(0, 0)], span)
                .is_err()
        );
    }

    /// A tracing evaluator answering through a handle: a table whose rows
    /// call no rule is answered from the kept rows, recording the call as one
    /// record (nothing kept apart: its input is its row's variant, its output
    /// the kept row); a table with a row that calls a rule (here a const) is
    /// evaluated, recording that call too. Either way the trace is the tree
    /// walk's, in words and as nodes. A handle is refused by a tracing
    /// evaluator of another program and form.
    #[test]
    fn a_tracing_handle_records_a_table_call_as_the_walk_does() {
        let with_gadget = |rows: Vec<Expr>| {
            let mut program = table(rows);
            program.enums.push(crate::ir::EnumInfo {
                name: "Key".into(),
                variants: vec!["alpha".into(), "beta".into()],
                labels: vec![None, None],
                source: None,
                span: Span::default(),
            });
            let mut gadget = (*program.rules[0]).clone();
            gadget.name = "gadget".into();
            gadget.params = Vec::new();
            gadget.body = RuleBody::Const {
                value: Box::new(num(6)),
            };
            program.rules.push(Box::new(gadget));
            program
        };
        let span = Span::default();
        let quiet = with_gadget(vec![num(5), num(6)]);
        let calling = with_gadget(vec![num(5), e(ExprKind::Call(1, Vec::new()), 3)]);
        let seen = |ev: &Evaluator, program: &Program| {
            let trace = ev.trace().expect("tracing");
            let mut text = String::new();
            trace.render(program, 0, &mut text);
            let nodes = serde_json::to_string(&trace.nodes(program)).expect("nodes");
            (trace.len(), text, nodes)
        };
        for (program, calls) in [(&quiet, [1, 1]), (&calling, [1, 2])] {
            let prepared = Prepared::new(program);
            let mut ev = Evaluator::tracing_prepared(program, &prepared);
            let handle = ev.handle("widget").expect("a handle");
            for (v, row) in [(0, "alpha"), (1, "beta")] {
                let args = [Value::Enum(0, v)];
                let mut walk = Evaluator::tracing(program);
                let want = walk.call_with(0, &args, span).map_err(|e| e.message);
                ev.clear_trace();
                let got = ev.answer(&handle, &args, span);
                let got = got.map(Answer::into_value).map_err(|e| e.message);
                assert_eq!(got, want, "row {v}");
                let (len, text, nodes) = seen(&ev, program);
                assert_eq!(len, calls[v as usize], "row {v}");
                assert!(text.contains(&format!("key = Key.{row}")), "{text}");
                assert!(text.contains(&format!("by row `{row}`")), "{text}");
                assert_eq!((len, text, nodes), seen(&walk, program), "row {v}");
                // One record and nothing apart where every row is quiet.
                let apart = ev.trace().map_or(0, Trace::values_kept_apart);
                assert_eq!(apart == 0, std::ptr::eq(program, &quiet), "row {v}");
            }
        }
        let prepared = Prepared::new(&quiet);
        let handle = Evaluator::tracing_prepared(&quiet, &prepared)
            .handle("widget")
            .expect("a handle");
        let other = quiet.clone();
        let other_prepared = Prepared::new(&other);
        let mut stranger = Evaluator::tracing_prepared(&other, &other_prepared);
        let refused = stranger.answer(&handle, &[Value::Enum(0, 0)], span);
        assert!(refused.is_err());
    }

    #[test]
    fn a_local_read_before_a_let_gives_it_another_value_keeps_the_value_read() {
        // let y = x in y + (let y = 7 in y), both `y` in slot 1: 3 + 7.
        let body = let_in(
            1,
            local(0),
            bin(BinOp::Add, local(1), let_in(1, num(7), local(1)), 0),
        );
        let [walked, compiled] = both(&program(body), 3);
        assert_eq!(walked, Ok(n(10)));
        assert_eq!(compiled, walked);
    }

    #[test]
    fn both_branches_of_an_if_give_a_let_its_value() {
        // let y = if x > 0 then x + 1 else x - 1 in y * 2
        let cond = bin(BinOp::Gt, local(0), num(0), 0);
        let choice = e(
            ExprKind::If(
                Box::new(cond),
                Box::new(bin(BinOp::Add, local(0), num(1), 0)),
                Box::new(bin(BinOp::Sub, local(0), num(1), 0)),
            ),
            0,
        );
        let body = let_in(1, choice, bin(BinOp::Mul, local(1), num(2), 0));
        let program = program(body);
        for (x, want) in [(1, 4), (-1, -4)] {
            let [walked, compiled] = both(&program, x);
            assert_eq!(walked, Ok(n(want)));
            assert_eq!(compiled, walked);
        }
    }

    #[test]
    fn a_failure_has_the_tree_walks_message_and_span() {
        // if x > 0 then 10 / (x - 1) else deduct x: x = 1 divides by zero at
        // 20, x = 0 deducts nothing at 30.
        let cond = bin(BinOp::Gt, local(0), num(0), 10);
        let divide = bin(
            BinOp::Div,
            num(10),
            bin(BinOp::Sub, local(0), num(1), 21),
            20,
        );
        let deduct = e(ExprKind::Deduct(Box::new(local(0))), 30);
        let body = e(
            ExprKind::If(Box::new(cond), Box::new(divide), Box::new(deduct)),
            0,
        );
        let program = program(body);
        for (x, at) in [(1, 20), (0, 30)] {
            let [walked, compiled] = both(&program, x);
            assert!(matches!(&walked, Err((_, a)) if *a == at), "{walked:?}");
            assert_eq!(compiled, walked);
        }
    }
}
