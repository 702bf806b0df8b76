//! The functions the language has built in: by name, as the checker finds them
//! and the interpreter runs them.

use serde::Serialize;

/// Built-in functions.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Builtin {
    /// Smallest argument.
    Min,
    /// Largest argument (for penalties: the most severe).
    Max,
    /// Round up to a whole number.
    Ceil,
    /// Round down to a whole number.
    Floor,
    /// Round half away from zero, to 0 or the given number of decimals.
    Round,
    /// Absolute value.
    Abs,
    /// Square root of a plain number.
    Sqrt,
    /// A plain number to the power of a plain number.
    Pow,
    /// Remainder of a division.
    Mod,
    /// Whether a penalty refers the case to a named body.
    IsReferral,
    /// The calendar year of a date.
    Year,
    /// The date of a date-time.
    DateOf,
    /// A date-time from a date and a time of day.
    At,
    /// The number of values in a list.
    Len,
    /// The sum of a list of numbers or durations (zero for an empty list).
    Sum,
    /// Whether a list holds a value.
    Contains,
    /// Two lists, one after the other.
    Concat,
    /// The whole numbers from one to another, both included.
    Range,
}

impl Builtin {
    /// Every built-in with its name as written.
    pub const ALL: [(&'static str, Builtin); 18] = [
        ("min", Builtin::Min),
        ("max", Builtin::Max),
        ("ceil", Builtin::Ceil),
        ("floor", Builtin::Floor),
        ("round", Builtin::Round),
        ("abs", Builtin::Abs),
        ("sqrt", Builtin::Sqrt),
        ("pow", Builtin::Pow),
        ("mod", Builtin::Mod),
        ("is_referral", Builtin::IsReferral),
        ("year", Builtin::Year),
        ("date_of", Builtin::DateOf),
        ("at", Builtin::At),
        ("len", Builtin::Len),
        ("sum", Builtin::Sum),
        ("contains", Builtin::Contains),
        ("concat", Builtin::Concat),
        ("range", Builtin::Range),
    ];

    /// The built-in with this name.
    pub fn named(name: &str) -> Option<Builtin> {
        Builtin::ALL
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, b)| *b)
    }

    /// The name as written.
    pub fn name(self) -> &'static str {
        Builtin::ALL
            .iter()
            .find(|(_, b)| *b == self)
            .map_or("?", |(n, _)| n)
    }

    /// Whether it makes or takes lists only (`min` and `max` also take one list).
    pub fn is_list_builtin(self) -> bool {
        matches!(
            self,
            Builtin::Len | Builtin::Sum | Builtin::Contains | Builtin::Concat | Builtin::Range
        )
    }
}

/// List operations that evaluate a function (`x => …`) for each value.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, borsh::BorshSerialize, borsh::BorshDeserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum ListLoop {
    /// The function's value for each value: `map(xs, x => x * 2)`.
    Map,
    /// The values for which the function is true: `filter(xs, x => x > 0)`.
    Filter,
    /// The values ordered by the function's value, stable: `sort_by(xs, x => x.vp)`.
    SortBy,
    /// One value built up from each value in turn: `fold(xs, 0, (acc, x) => acc + x)`.
    Fold,
}

impl ListLoop {
    /// Every list operation with its name as written.
    pub const ALL: [(&'static str, ListLoop); 4] = [
        ("map", ListLoop::Map),
        ("filter", ListLoop::Filter),
        ("sort_by", ListLoop::SortBy),
        ("fold", ListLoop::Fold),
    ];

    /// The list operation with this name.
    pub fn named(name: &str) -> Option<ListLoop> {
        ListLoop::ALL
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, l)| *l)
    }

    /// The name as written.
    pub fn name(self) -> &'static str {
        ListLoop::ALL
            .iter()
            .find(|(_, l)| *l == self)
            .map_or("?", |(n, _)| n)
    }
}
