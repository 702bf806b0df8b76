//! What `bfr run` hands out besides the report: the incidents as the rules decided
//! them, and what comes next (`cli::render` puts them into words).

use super::Ran;
use super::model::{At, Effect, Event};
use crate::diag;
use crate::source::Sources;
use rust_decimal::Decimal;
use serde::Serialize;

/// A match of the next round or stage, and its result if the file has it.
#[derive(Debug, Clone, Serialize)]
pub struct NextMatch {
    /// Table number.
    pub table: usize,
    /// Home team.
    pub home: u32,
    /// Away team.
    pub away: u32,
    /// The IMPs (home, away), if given.
    #[serde(serialize_with = "imps_as_numbers")]
    pub result: Option<(Decimal, Decimal)>,
    /// The teams of the two that withdrew after the draw (one or both): the
    /// match is a walkover and needs no result.
    pub withdrawn: Vec<u32>,
}

/// What the run needs next.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Next {
    /// The results of a drawn round or stage.
    Results {
        /// The round's or stage's title.
        title: String,
        /// The qualification round, if it is one.
        round: Option<u32>,
        /// The stage's name, if it is one.
        stage: Option<String>,
        /// The draw.
        matches: Vec<NextMatch>,
        /// The team with the bye.
        bye: Option<u32>,
    },
    /// A captain's choice.
    Choice {
        /// The stage's title.
        title: String,
        /// The stage's name.
        stage: String,
        /// The team whose turn it is.
        chooser: u32,
        /// The teams it chooses among.
        candidates: Vec<u32>,
    },
    /// An incident the run cannot decide.
    Halt {
        /// Why.
        message: String,
    },
    /// Anything else, in the runner's words.
    Other {
        /// What.
        message: String,
    },
}

/// An incident as the rules decided it.
#[derive(Debug, Clone, Serialize)]
pub struct IncidentLine {
    /// The team.
    pub team: u32,
    /// The round, if in the qualification.
    pub round: Option<u32>,
    /// The stage, if in the knockout.
    pub stage: Option<String>,
    /// The rule as written.
    pub rule: String,
    /// The penalty the rules give, in words; `None` if it could not be evaluated.
    pub penalty: Option<String>,
    /// What it does: `deducted`, `warning (nothing applies)`, `stops the run`, `not applied`.
    pub applied: String,
    /// The file's note.
    pub note: Option<String>,
}

/// The incidents of an event, as evaluated, and whether the run applied each
/// (`applied`, in the file's order: one the run did not reach, or that applies
/// to nothing, is "not applied").
pub fn incident_lines(event: &Event, applied: &[bool]) -> Vec<IncidentLine> {
    event
        .incidents
        .iter()
        .zip(applied.iter().copied().chain(std::iter::repeat(false)))
        .map(|(i, used)| IncidentLine {
            team: i.team,
            round: match &i.at {
                At::Round(r) => Some(*r),
                At::Stage(_) => None,
            },
            stage: match &i.at {
                At::Stage(s) => Some(s.clone()),
                At::Round(_) => None,
            },
            rule: i.rule.clone(),
            penalty: i.penalty.clone(),
            applied: match &i.effect {
                Some(Effect::Deduct(_)) if used => "deducted".into(),
                Some(Effect::Warning) => "warning: nothing applies".into(),
                Some(Effect::Halt(_)) if used => "stops the run".into(),
                _ => "not applied".into(),
            },
            note: i.note.clone(),
        })
        .collect()
}

impl Ran {
    /// `{ "report", "pending", "next", "incidents", "diagnostics" }`.
    pub fn to_json(&self, sources: &Sources) -> serde_json::Value {
        // A stopped run's `pending` says why as data too (`kind`: `stopped`,
        // `recorded_draw`), as every other `pending` does.
        let pending = match &self.outcome {
            Some(o) => serde_json::to_value(&o.pending).unwrap_or_default(),
            None => serde_json::Value::Null,
        };
        serde_json::json!({
            "report": self.outcome.as_ref().map(|o| &o.report),
            "pending": pending,
            "next": self.next,
            "also_next": self.also,
            "teams": self
                .names
                .iter()
                .map(|(id, name)| serde_json::json!({ "id": id, "name": name }))
                .collect::<Vec<_>>(),
            "incidents": self.incidents,
            // As many as `bfr check` shows, with the same W0002 line for the rest.
            "diagnostics": diag::shown(&self.diagnostics, sources)
                .iter()
                .map(|d| diag::to_json(d, sources))
                .collect::<Vec<_>>(),
        })
    }
}

/// A result's IMPs as JSON numbers, like the report's quantities.
fn imps_as_numbers<S: serde::Serializer>(
    result: &Option<(Decimal, Decimal)>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    use rust_decimal::prelude::ToPrimitive;
    let pair = result.map(|(h, a)| (h.to_f64(), a.to_f64()));
    serde::Serialize::serialize(&pair, serializer)
}
