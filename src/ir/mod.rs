//! Stage 3: the typed rule IR.
//!
//! Plain data, serde-serialisable (`bfr debug ir`). Names are resolved to indices,
//! every expression has its type, and every rule keeps its source reference for
//! `explain`. Spans are kept for runtime messages but are not serialised.

pub mod builtin;
pub mod commands;
pub mod competition;
pub mod entries;
pub mod op;
pub mod unit;
pub mod value;
pub mod vocabulary;

use crate::source::Span;
pub use builtin::{Builtin, ListLoop};
pub use competition::{Competition, MAX_TEAMS};
pub use op::BinOp;
use rust_decimal::Decimal;
use serde::Serialize;
pub use unit::Unit;
pub use value::{Date, MAX_LIST_LEN, Penalty, Value};

/// A type of the language.
#[derive(
    Debug, Clone, PartialEq, Eq, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize,
)]
#[serde(tag = "type", content = "of", rename_all = "lowercase")]
pub enum Type {
    /// A number with a unit (the empty unit for plain numbers).
    Num(Unit),
    /// `true` or `false`.
    Bool,
    /// Text.
    Text,
    /// A calendar date.
    Date,
    /// A time of day.
    Time,
    /// A date and a time of day.
    DateTime,
    /// A length of time.
    Duration,
    /// A penalty: warning, deduction, referral or forfeit; with the unit it
    /// deducts, where known (`None` fits any: a warning deducts nothing).
    Penalty(Option<Unit>),
    /// A value of the enum with this index.
    Enum(u32),
    /// A value of the record type with this index.
    Record(u32),
    /// Where a stage sends a group of teams.
    Route,
    /// A reference to a rule (a scale named by a stage).
    Rule,
    /// A list of values of one type.
    List(Box<Type>),
    /// The type of an expression that already has an error; it matches anything,
    /// so one mistake gives one diagnostic.
    Error,
}

impl Type {
    /// A plain number.
    pub fn number() -> Type {
        Type::Num(Unit::none())
    }

    /// Whether a value of `self` can stand where `want` is expected.
    pub fn fits(&self, want: &Type) -> bool {
        match (self, want) {
            (Type::Error, _) | (_, Type::Error) => true,
            (Type::Penalty(a), Type::Penalty(b)) => a.is_none() || b.is_none() || a == b,
            (Type::List(a), Type::List(b)) => a.fits(b),
            _ => self == want,
        }
    }

    /// The type of a value that is either `self` or `other` (branches, rows), if
    /// they agree: a warning and a deduction of VP join to a penalty in VP. Penalties
    /// in different units join to a penalty of no fixed unit: the document may
    /// deduct VP in one phase and IMP in another.
    pub fn join(&self, other: &Type) -> Option<Type> {
        match (self, other) {
            (Type::Error, t) | (t, Type::Error) => Some(t.clone()),
            (Type::Penalty(None), Type::Penalty(u)) | (Type::Penalty(u), Type::Penalty(None)) => {
                Some(Type::Penalty(u.clone()))
            }
            (Type::Penalty(_), Type::Penalty(_)) if self != other => Some(Type::Penalty(None)),
            (Type::List(a), Type::List(b)) => a.join(b).map(|t| Type::List(Box::new(t))),
            _ if self == other => Some(self.clone()),
            _ => None,
        }
    }
}

/// Where a rule comes from in the regulation. Its texts are boxed, not `String`s:
/// they never change, and every rule holds one.
#[derive(
    Debug, Clone, PartialEq, Eq, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize,
)]
pub struct SourceInfo {
    /// Inventory ID.
    pub id: Box<str>,
    /// Page(s) of the document.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pages: Option<Box<str>>,
    /// Section heading.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub section: Option<Box<str>>,
}

impl std::fmt::Display for SourceInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.id)?;
        if let Some(p) = &self.pages {
            write!(f, " p.{p}")?;
        }
        if let Some(s) = &self.section {
            write!(f, " \"{s}\"")?;
        }
        Ok(())
    }
}

/// The edition's header.
#[derive(Debug, Clone, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct EditionInfo {
    /// Its name.
    pub name: String,
    /// The document it encodes.
    pub source: Option<String>,
    /// When the document was last updated.
    pub updated: Option<Date>,
    /// First and last day of the event.
    pub period: Option<(Date, Date)>,
}

/// A declared unit.
#[derive(Debug, Clone, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct UnitInfo {
    /// Canonical name.
    pub name: String,
    /// What it is.
    pub description: Option<String>,
    /// Quantities of it are whole numbers (IMPs, boards, players).
    pub whole: bool,
    /// It counts things: quantities are whole and never negative (players,
    /// boards; not IMPs).
    pub count: bool,
    /// Other names for it.
    pub aliases: Vec<String>,
    /// Where it is declared (its name).
    #[serde(skip)]
    pub span: Span,
}

/// An enumeration.
#[derive(Debug, Clone, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct EnumInfo {
    /// Its name.
    pub name: String,
    /// Variant names, in declaration order.
    pub variants: Vec<String>,
    /// Display labels (the document's spelling), where given.
    pub labels: Vec<Option<String>>,
    /// Source reference.
    pub source: Option<SourceInfo>,
    /// Where it is declared (its name).
    #[serde(skip)]
    pub span: Span,
}

/// A record type.
#[derive(Debug, Clone, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct RecordInfo {
    /// Its name.
    pub name: String,
    /// Field names and types.
    pub fields: Vec<(String, Type)>,
    /// Source reference.
    pub source: Option<SourceInfo>,
    /// Where it is declared (its name).
    #[serde(skip)]
    pub span: Span,
}

/// What a rule is. A const's or fn's expression is boxed, so that a rule is laid
/// out small while the checker collects every rule before it lowers their bodies.
#[derive(Debug, Clone, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum RuleBody {
    /// A named value.
    Const {
        /// Its value.
        value: Box<Expr>,
    },
    /// A pure function.
    Fn {
        /// Its body; parameters are locals `0..n`.
        body: Box<Expr>,
    },
    /// A table keyed by an enum: one value per variant, in variant order.
    Table {
        /// Row values by variant index.
        rows: Vec<Expr>,
    },
    /// A piecewise scale over one parameter.
    Scale {
        /// The rows.
        arms: Vec<ScaleArm>,
    },
}

/// One end of a scale row's range.
#[derive(Debug, Clone, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct Bound {
    /// The value (a number, quantity, duration, date or time).
    pub value: Value,
    /// Whether the end itself belongs to the range.
    pub inclusive: bool,
}

/// One row of a scale.
#[derive(Debug, Clone, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct ScaleArm {
    /// Lower end, if any.
    pub lower: Option<Bound>,
    /// Upper end, if any.
    pub upper: Option<Bound>,
    /// The value for inputs in the range.
    pub value: Expr,
    /// The range as written, for traces.
    pub text: String,
    /// Where the row is.
    #[serde(skip)]
    pub span: Span,
}

/// A rule: a const, fn, table or scale.
#[derive(Debug, Clone, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct Rule {
    /// Its name.
    pub name: String,
    /// Parameter names and types.
    pub params: Vec<(String, Type)>,
    /// What numbers each parameter admits: a call with any other is refused.
    pub counting: Box<[Counting]>,
    /// What numbers its answer may be: any other is refused.
    pub answer: Counting,
    /// Result type.
    pub ret: Type,
    /// Where it comes from in the regulation.
    pub source: Option<SourceInfo>,
    /// Its doc comment (boxed: it never changes, and every rule holds one).
    #[serde(skip_serializing_if = "is_empty")]
    pub doc: Box<str>,
    /// What it computes.
    pub body: RuleBody,
    /// Number of local slots a call needs (parameters and lets).
    pub locals: u32,
    /// Declared as a `reading`: the edition's answer to an open question.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub reading: bool,
    /// The other document whose fact a const holds (`cites "…"`): its dates are
    /// that document's, not the edition's, and a new year's calendar does not
    /// move them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cites: Option<Box<str>>,
    /// Where it is declared.
    #[serde(skip)]
    pub span: Span,
}

/// What numbers a rule's parameter or answer admits, from its declared type.
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    Serialize,
    borsh::BorshSerialize,
    borsh::BorshDeserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Counting {
    /// Any number (`number`, a unit declared without `whole` or `count`), or
    /// a value that is not a number.
    #[default]
    Any,
    /// Whole numbers of either sign: `integer`, a `whole` unit (an IMP margin).
    Whole,
    /// Whole numbers from zero: a `count` unit (boards, players).
    Count,
}

impl Counting {
    /// Whether `n` is one of the numbers admitted.
    #[inline]
    pub fn admits(self, n: Decimal) -> bool {
        match self {
            Counting::Any => true,
            Counting::Whole => is_whole(n),
            Counting::Count => n >= Decimal::ZERO && is_whole(n),
        }
    }

    /// Whether the numbers admitted are whole.
    pub fn is_whole(self) -> bool {
        self != Counting::Any
    }
}

/// Whether `n` is a whole number: at once for a number written without decimal
/// places (most are), else by its fraction.
#[inline]
pub fn is_whole(n: Decimal) -> bool {
    n.scale() == 0 || n.fract().is_zero()
}

/// Whether a boxed text is empty (a rule without a doc comment shows none).
fn is_empty(text: &str) -> bool {
    text.is_empty()
}

/// Documented text with no computable content (procedures).
#[derive(Debug, Clone, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct TextRule {
    /// Its name.
    pub name: String,
    /// Where it comes from.
    pub source: Option<SourceInfo>,
    /// The paragraphs.
    pub paragraphs: Vec<String>,
    /// Where it is declared (its name).
    #[serde(skip)]
    pub span: Span,
}

/// An `example` block.
#[derive(Debug, Clone, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct Example {
    /// Its title.
    pub title: String,
    /// Where it comes from.
    pub source: Option<SourceInfo>,
    /// The document's example is known to contradict its rule.
    pub contradicts: bool,
    /// Boolean expressions that must hold.
    pub assertions: Vec<Expr>,
    /// Where the title is.
    #[serde(skip)]
    pub span: Span,
}

/// A typed expression.
#[derive(Debug, Clone, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct Expr {
    /// What it computes.
    pub kind: ExprKind,
    /// Its type.
    pub ty: Type,
    /// Where it is written.
    #[serde(skip)]
    pub span: Span,
}

/// Expression forms.
#[derive(Debug, Clone, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExprKind {
    /// A constant value.
    Lit(Value),
    /// A local slot (parameter or `let`).
    Local(u32),
    /// A call of the rule with this index (a const takes no arguments).
    Call(u32, Vec<Expr>),
    /// The rule with this index as a value (`scale = vp25_8` in a stage).
    RuleRef(u32),
    /// A built-in function.
    Builtin(Builtin, Vec<Expr>),
    /// `-x`
    Neg(Box<Expr>),
    /// `not x`
    Not(Box<Expr>),
    /// `a op b`
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `if c then a else b`
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `let slot = value in body`
    Let(u32, Box<Expr>, Box<Expr>),
    /// `match x { V => a, _ => b }` with variant indices (`None` is `_`).
    Match(Box<Expr>, Vec<(Option<u32>, Expr)>),
    /// A record value: record index and field values in declaration order.
    Record(u32, Vec<Expr>),
    /// A record's field by index.
    Field(Box<Expr>, u32),
    /// `deduct amount`
    Deduct(Box<Expr>),
    /// A list value: `[a, b, c]`.
    List(Vec<Expr>),
    /// The value at a position of a list, counted from 1: `xs[i]`.
    Index(Box<Expr>, Box<Expr>),
    /// A list operation with its function: the list, the starting value (`fold`
    /// only), the local slots of the function's parameters, and its body.
    Loop {
        /// Which operation.
        op: ListLoop,
        /// The list it goes through.
        list: Box<Expr>,
        /// `fold`'s starting value.
        init: Option<Box<Expr>>,
        /// The function's parameters: `[x]`, or `[acc, x]` for `fold`.
        slots: Vec<u32>,
        /// The function's body.
        body: Box<Expr>,
    },
}

/// A whole checked edition.
#[derive(Debug, Clone, Default, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct Program {
    /// The header.
    pub edition: Option<EditionInfo>,
    /// Units.
    pub units: Vec<UnitInfo>,
    /// Enumerations.
    pub enums: Vec<EnumInfo>,
    /// Record types.
    pub records: Vec<RecordInfo>,
    /// Consts, fns, tables and scales.
    pub rules: Vec<Box<Rule>>,
    /// Procedures.
    pub texts: Vec<TextRule>,
    /// Examples.
    pub examples: Vec<Example>,
    /// Competitions.
    pub competitions: Vec<Competition>,
    /// The rule that answers each question of an entries check or an invoice
    /// (`entries { question = rule … }`), by the question's key.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub entry_rules: std::collections::BTreeMap<String, u32>,
    /// The enum (or variant) playing each role in the questions (`entries { district
    /// = District … }`), by the role's key.
    #[serde(skip_serializing_if = "entries::Roles::is_empty")]
    pub entry_roles: entries::Roles,
    /// The rule each federation command calls (`federation { allocation = … }`),
    /// by the command's key (`ir::commands`).
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub command_rules: std::collections::BTreeMap<String, u32>,
    /// What each command's file may name only once (`federation {
    /// vacancies_unique = [declined.pair, pot] }`), by the command's key.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub command_unique: std::collections::BTreeMap<String, Vec<commands::Unique>>,
}

impl Program {
    /// The rule with this name.
    pub fn rule(&self, name: &str) -> Option<(u32, &Rule)> {
        self.rule_named(name)
    }

    /// The rule the edition's `federation` block gives command `key` (`ir::commands`).
    pub fn command_rule(&self, key: &str) -> Option<(u32, &Rule)> {
        let index = *self.command_rules.get(key)?;
        self.rules.get(index as usize).map(|r| (index, &**r))
    }

    /// What the file of command `key` may name only once.
    pub fn command_unique(&self, key: &str) -> &[commands::Unique] {
        self.command_unique.get(key).map_or(&[], Vec::as_slice)
    }

    fn rule_named(&self, name: &str) -> Option<(u32, &Rule)> {
        self.rules
            .iter()
            .enumerate()
            .find(|(_, r)| r.name == name)
            .map(|(i, r)| (u32::try_from(i).unwrap_or(u32::MAX), &**r))
    }

    /// A quantity as an editor writes it, with the unit's plural alias (declared
    /// as `unit player alias players`) when the amount is not one: `4 players`.
    pub fn show_num(&self, n: rust_decimal::Decimal, unit: &Unit) -> String {
        let plural = unit.as_base().and_then(|base| {
            let info = self.units.iter().find(|u| u.name == base)?;
            // The alias that is the name and an `s` (compared without building it).
            info.aliases
                .iter()
                .find(|a| a.strip_suffix('s') == Some(base))
        });
        match plural {
            Some(p) if n.abs() != rust_decimal::Decimal::ONE => format!("{} {p}", n.normalize()),
            _ => value::show_num(n, unit),
        }
    }

    /// Whether `rule` can score a match: a run calls it with the IMP margin
    /// (and the match's boards, if it takes a second parameter), both numbers,
    /// and reads both teams' VP from the record it returns, `winner` and `loser`.
    pub fn is_vp_scale(&self, rule: &Rule) -> bool {
        let numbers = rule.params.iter().all(|(_, t)| matches!(t, Type::Num(_)));
        let Type::Record(i) = rule.ret else {
            return false;
        };
        let gives = |want: &str| {
            self.records.get(i as usize).is_some_and(|info| {
                info.fields
                    .iter()
                    .any(|(name, ty)| name == want && matches!(ty, Type::Num(_)))
            })
        };
        matches!(rule.params.len(), 1 | 2) && numbers && gives("winner") && gives("loser")
    }

    /// What to name instead of `named`, which is no VP scale: the VP scale
    /// whose name shares the longest start with it (`wbf20_result` for
    /// `wbf20_winner_vp`), else the nearest name, else the first few.
    pub fn vp_scale_help(&self, named: &str) -> String {
        let scales: Vec<&str> = self
            .rules
            .iter()
            .filter(|r| self.is_vp_scale(r))
            .map(|r| r.name.as_str())
            .collect();
        let shared = |s: &str| {
            named
                .chars()
                .zip(s.chars())
                .take_while(|(a, b)| a == b)
                .count()
        };
        let longest = scales.iter().map(|s| shared(s)).max().unwrap_or(0);
        let sharing: Vec<&str> = scales
            .iter()
            .copied()
            .filter(|s| shared(s) == longest)
            .collect();
        let near = match sharing.as_slice() {
            [one] if longest >= 3 => Some(*one),
            _ => crate::names::nearest(named, scales.iter().copied()),
        };
        match near {
            Some(n) => format!("did you mean `{n}`, which gives both teams' VP?"),
            None if scales.is_empty() => {
                "name a scale or function of the IMP margin (and the boards) that returns a record with `winner` and `loser` VP".into()
            }
            None => {
                let mut shown: Vec<&str> = scales.iter().copied().take(5).collect();
                if scales.len() > 5 {
                    shown.push("…");
                }
                format!(
                    "name one that gives both teams' VP: {}",
                    crate::diag::and_list(&shown)
                )
            }
        }
    }

    /// A type as the editor writes it.
    pub fn type_name(&self, ty: &Type) -> String {
        match ty {
            Type::Num(u) if u.is_none() => "number".into(),
            Type::Num(u) => u.to_string(),
            Type::Bool => "bool".into(),
            Type::Text => "text".into(),
            Type::Date => "date".into(),
            Type::Time => "time".into(),
            Type::DateTime => "datetime".into(),
            Type::Duration => "duration".into(),
            Type::Penalty(None) => "penalty".into(),
            Type::Penalty(Some(u)) => format!("penalty in {u}"),
            Type::Enum(i) => self
                .enums
                .get(*i as usize)
                .map_or("?".into(), |e| e.name.clone()),
            Type::Record(i) => self
                .records
                .get(*i as usize)
                .map_or("?".into(), |r| r.name.clone()),
            Type::Route => "route".into(),
            Type::Rule => "rule".into(),
            // An empty list no context gave a type.
            Type::List(element) if **element == Type::Error => "list".into(),
            Type::List(element) => format!("[{}]", self.type_name(element)),
            Type::Error => "?".into(),
        }
    }

    /// A number type as the editor writes it where what it admits is known:
    /// a plain number admitting whole numbers only is an `integer`.
    pub fn counted_type_name(&self, ty: &Type, counting: Counting) -> String {
        if is_integer(ty, counting) {
            "integer".into()
        } else {
            self.type_name(ty)
        }
    }

    /// The type of `rule`'s parameter `index` as the editor wrote it.
    pub fn param_type_name(&self, rule: &Rule, index: usize) -> String {
        let counting = rule.counting.get(index).copied().unwrap_or_default();
        rule.params.get(index).map_or_else(
            || "?".into(),
            |(_, ty)| self.counted_type_name(ty, counting),
        )
    }

    /// `rule`'s parameters as the editor wrote them: `late: duration, boards: board`.
    pub fn params_shown(&self, rule: &Rule) -> String {
        let shown: Vec<String> = (rule.params.iter().enumerate())
            .map(|(i, (name, _))| format!("{name}: {}", self.param_type_name(rule, i)))
            .collect();
        shown.join(", ")
    }

    /// The type of `rule`'s answer as the editor wrote it.
    pub fn answer_type_name(&self, rule: &Rule) -> String {
        self.counted_type_name(&rule.ret, rule.answer)
    }

    /// `rule`'s signature: `(late: duration) -> penalty`.
    pub fn signature(&self, rule: &Rule) -> String {
        format!(
            "({}) -> {}",
            self.params_shown(rule),
            self.answer_type_name(rule)
        )
    }
}

/// Whether a number of type `ty` admitting `counting` is an `integer`: a plain
/// number (no unit) admitting whole numbers only. Units say what they admit in
/// their own declaration, so keep their names.
pub fn is_integer(ty: &Type, counting: Counting) -> bool {
    matches!(ty, Type::Num(unit) if unit.is_none()) && counting.is_whole()
}

/// A scale's top row: the row open above, from an inclusive lower bound (`x >= 4000
/// score_points => 24 IMP`), when the rule is a scale with exactly one such row.
pub fn top_row(rule: &Rule) -> Option<&ScaleArm> {
    let RuleBody::Scale { arms } = &rule.body else {
        return None;
    };
    let mut open = arms
        .iter()
        .filter(|a| a.upper.is_none() && a.lower.as_ref().is_some_and(|l| l.inclusive));
    let top = open.next()?;
    open.next().is_none().then_some(top)
}
