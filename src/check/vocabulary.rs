//! The declared schema of competitions: which properties a competition, a
//! qualification and a knockout stage may have, what each must be, and which a
//! stage cannot do without. `check::typing` builds the typed IR from it; the
//! language reference (docs/language.md) lists the same table.

/// What a property's value must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Want {
    /// A whole number (any unit), or a rule of the number of teams.
    Count,
    /// A whole number (any unit).
    Whole,
    /// A calendar date.
    Date,
    /// `true` or `false`.
    Bool,
    /// A value of one of the edition's enums, shown as written.
    AnyEnum,
    /// A quantity with a unit.
    Quantity,
    /// A rule, named by itself.
    Rule,
    /// A variant naming a meaning of the vocabulary enum with this name.
    Meaning(&'static str),
    /// A list of variants naming tie-break criteria, or one such variant.
    Criteria,
    /// A meaning, or a rule of the match length in boards giving one.
    MeaningOrRule(&'static str),
}

impl Want {
    /// What the editor must write, in words.
    pub(crate) fn words(self) -> String {
        match self {
            Want::Count => "a whole number, or a rule of the number of teams".into(),
            Want::Whole => "a whole number".into(),
            Want::Date => "a date".into(),
            Want::Bool => "`true` or `false`".into(),
            Want::AnyEnum => "a variant of an enum".into(),
            Want::Quantity => "a quantity with a unit".into(),
            Want::Rule => "the name of a scale or function".into(),
            Want::Meaning(what) => format!("a variant naming a `{what}`"),
            Want::Criteria => "a list of tie-break criteria, or one criterion".into(),
            Want::MeaningOrRule(what) => {
                format!("a variant naming a `{what}`, or a rule of the match length giving one")
            }
        }
    }
}

/// Where a property may be written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Scope {
    /// In the `competition` block itself.
    Competition,
    /// In its `qualification`.
    Qualification,
    /// In a knockout `stage`.
    Stage,
}

impl Scope {
    /// The block in words.
    pub(crate) fn words(self) -> &'static str {
        match self {
            Scope::Competition => "a competition",
            Scope::Qualification => "a qualification",
            Scope::Stage => "a knockout stage",
        }
    }
}

/// One property of the vocabulary.
pub(crate) struct PropertyDef {
    /// Its key.
    pub key: &'static str,
    /// What its value must be.
    pub want: Want,
    /// Where it may be written.
    pub scopes: &'static [Scope],
    /// Whether every block of those scopes must give it.
    pub required: bool,
}

const C: &[Scope] = &[Scope::Competition];
const Q: &[Scope] = &[Scope::Qualification];
const S: &[Scope] = &[Scope::Stage];
const QS: &[Scope] = &[Scope::Qualification, Scope::Stage];
const CQ: &[Scope] = &[Scope::Competition, Scope::Qualification];

const fn def(key: &'static str, want: Want, scopes: &'static [Scope]) -> PropertyDef {
    PropertyDef {
        key,
        want,
        scopes,
        required: false,
    }
}

const fn required(key: &'static str, want: Want, scopes: &'static [Scope]) -> PropertyDef {
    PropertyDef {
        key,
        want,
        scopes,
        required: true,
    }
}

/// Every property a competition, a qualification or a stage can have.
pub(crate) const PROPERTIES: &[PropertyDef] = &[
    // The competition.
    def("min_teams", Want::Whole, C),
    def("max_teams", Want::Whole, C),
    def("equal_rankings", Want::Meaning("EqualRankings"), C),
    def("inheritance", Want::Meaning("Inheritance"), C),
    def(
        "walkover_inheritance",
        Want::Meaning("WalkoverInheritance"),
        C,
    ),
    def("knockout_tie", Want::Meaning("KnockoutTie"), C),
    def("table_numbers", Want::Meaning("TableNumbering"), C),
    def("inheritance_scope", Want::Meaning("InheritanceScope"), C),
    def("absent_leftovers", Want::Meaning("LeftoverPlacement"), C),
    def("late_chooser", Want::Meaning("LateChooser"), C),
    def(
        "chooser_without_opponent",
        Want::Meaning("ChooserWithoutOpponent"),
        C,
    ),
    def("lower_withdrawal", Want::Meaning("LowerWithdrawal"), C),
    def("walkover_loser", Want::Meaning("WalkoverLoser"), C),
    def("lower_places", Want::Meaning("LowerPlaces"), C),
    def("imp_scale", Want::Rule, C),
    def("district_prize", Want::Quantity, C),
    def("trophy_points", Want::Rule, C),
    def("trophy_player_points", Want::Rule, C),
    def("trophy_matches", Want::Whole, C),
    def("lineup_seats", Want::Whole, C),
    def("segment_rights", Want::Rule, C),
    def("segment_picks_valid", Want::Rule, C),
    // When a qualification or stage is played.
    def("order", Want::Whole, QS),
    def("day", Want::Date, S),
    // A competition's days hold the stages it does not date one by one.
    def("first_day", Want::Date, CQ),
    def("last_day", Want::Date, CQ),
    def("part", Want::AnyEnum, S),
    def("screens", Want::Bool, QS),
    def("system", Want::AnyEnum, QS),
    // The qualification.
    def("format", Want::Meaning("QualificationFormat"), Q),
    def("first_round", Want::Meaning("FirstRound"), Q),
    def("rounds", Want::Count, Q),
    required("boards", Want::Count, QS),
    def("vp_scale", Want::Rule, Q),
    def("bye_score", Want::Quantity, Q),
    def("late_start_round", Want::Whole, Q),
    def("carry_over", Want::Quantity, QS),
    def("tie_break", Want::Criteria, Q),
    def("home", Want::Meaning("HomeTeam"), QS),
    def("pairing", Want::Meaning("Pairing"), Q),
    def("bye", Want::Meaning("Bye"), Q),
    def("swiss_points", Want::Meaning("SwissPointsBasis"), Q),
    def("imp_quotient", Want::Meaning("ImpQuotientEdges"), Q),
    // A knockout stage.
    def("teams", Want::Whole, S),
    required("draw", Want::Meaning("DrawMethod"), S),
    def("tie_break", Want::Meaning("KnockoutCriterion"), S),
    def("seating", Want::MeaningOrRule("SeatingMethod"), S),
    def("segments", Want::Whole, S),
    def("halftime_change", Want::Bool, S),
    def("walkovers", Want::Bool, S),
    def("absent_captains", Want::Meaning("AbsentCaptains"), S),
    def("positions", Want::Meaning("PositionsBy"), S),
    def("late_withdrawal", Want::Meaning("LateWithdrawal"), S),
    def("withdrawal_boards", Want::Whole, S),
    def("withdrawal_segments", Want::Whole, S),
];

/// The definition of `key` in a block of `scope`.
pub(crate) fn property(key: &str, scope: Scope) -> Option<&'static PropertyDef> {
    PROPERTIES
        .iter()
        .find(|p| p.key == key && p.scopes.contains(&scope))
}

/// The scopes `key` may be written in, for "only a knockout stage has …".
pub(crate) fn scopes_of(key: &str) -> Vec<Scope> {
    PROPERTIES
        .iter()
        .filter(|p| p.key == key)
        .flat_map(|p| p.scopes.iter().copied())
        .collect()
}

/// The keys a block of `scope` may have, for "did you mean".
pub(crate) fn keys_in(scope: Scope) -> impl Iterator<Item = &'static str> {
    PROPERTIES
        .iter()
        .filter(move |p| p.scopes.contains(&scope))
        .map(|p| p.key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_defined_once_per_scope() {
        for (i, p) in PROPERTIES.iter().enumerate() {
            for q in PROPERTIES.iter().skip(i + 1) {
                assert!(
                    q.key != p.key || q.scopes.iter().all(|s| !p.scopes.contains(s)),
                    "`{}` twice",
                    p.key
                );
            }
        }
    }

    #[test]
    fn a_knockout_stage_must_say_how_it_is_drawn() {
        let draw = property("draw", Scope::Stage).map(|p| p.required);
        assert_eq!(draw, Some(true));
        assert!(property("draw", Scope::Qualification).is_none());
        assert_eq!(scopes_of("draw"), [Scope::Stage]);
    }
}
