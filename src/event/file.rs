//! The event file as written: TOML (or the same structure in JSON), read with serde
//! into raw entries that keep their byte spans, in both formats.

use crate::spanned::listed::read_listed;
pub use crate::spanned::{ReadError, Sp};
use serde::Deserialize;

/// The whole file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEvent {
    pub competition: Sp<String>,
    pub seed: Sp<u64>,
    #[serde(default)]
    pub vp_scale: Option<Sp<String>>,
    #[serde(default)]
    pub imp_scale: Option<Sp<String>>,
    #[serde(default)]
    pub team: Vec<Sp<RawTeam>>,
    #[serde(default)]
    pub round: Vec<Sp<RawRound>>,
    #[serde(default)]
    pub stage: Vec<Sp<RawStage>>,
    #[serde(default)]
    pub incident: Vec<Sp<RawIncident>>,
}

/// `[[team]]`
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTeam {
    pub id: Sp<u32>,
    #[serde(default)]
    pub name: Option<Sp<String>>,
    #[serde(default)]
    pub late: Option<Sp<bool>>,
    #[serde(default)]
    pub district: Option<Sp<bool>>,
    #[serde(default)]
    pub players: Vec<Sp<String>>,
}

/// `[[round]]`
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRound {
    pub number: Sp<u32>,
    #[serde(default)]
    pub draw: Option<Sp<Vec<Sp<String>>>>,
    #[serde(default)]
    pub bye: Option<Sp<u32>>,
    #[serde(default)]
    pub results: Vec<Sp<String>>,
}

/// `[[stage]]`
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawStage {
    pub name: Sp<String>,
    #[serde(default)]
    pub draw: Option<Sp<Vec<Sp<String>>>>,
    #[serde(default)]
    pub bye: Option<Sp<u32>>,
    #[serde(default)]
    pub choices: Vec<Sp<String>>,
    #[serde(default)]
    pub withdrawn: Vec<Sp<u32>>,
    #[serde(default)]
    pub withdrawn_at_draw: Vec<Sp<u32>>,
    #[serde(default)]
    pub absent: Vec<Sp<TeamOrText>>,
    #[serde(default)]
    pub seating: Vec<Sp<String>>,
    #[serde(default)]
    pub lineups: Vec<Sp<String>>,
    #[serde(default)]
    pub results: Vec<Sp<String>>,
}

/// A list item that is a team's number, written bare (`5`) as in `withdrawn`,
/// or in quotes with more after it (`"7@3"`); kept as text.
#[derive(Debug)]
pub struct TeamOrText(pub String);

impl<'de> Deserialize<'de> for TeamOrText {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Either;
        impl serde::de::Visitor<'_> for Either {
            type Value = TeamOrText;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a team's number or a quoted text")
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<TeamOrText, E> {
                Ok(TeamOrText(n.to_string()))
            }
            fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<TeamOrText, E> {
                // A negative number is no team; said as the text it is.
                Ok(TeamOrText(n.to_string()))
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<TeamOrText, E> {
                Ok(TeamOrText(text.to_owned()))
            }
        }
        d.deserialize_any(Either)
    }
}

/// `[[incident]]`
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawIncident {
    pub team: Sp<u32>,
    #[serde(default)]
    pub round: Option<Sp<u32>>,
    #[serde(default)]
    pub stage: Option<Sp<String>>,
    pub rule: Sp<String>,
    #[serde(default)]
    pub note: Option<Sp<String>>,
}

/// Reads an event file (JSON when `json`, else TOML); spans point at each
/// value's own text. Each team, round, stage and incident is read on its own,
/// so every one that cannot be read is said, in the order of the file.
pub fn read(text: &str, json: bool) -> Result<RawEvent, Vec<ReadError>> {
    read_listed(text, json, |lists| {
        let team = lists.each("team");
        let round = lists.each("round");
        let stage = lists.each("stage");
        let incident = lists.each("incident");
        let rest: RawEvent = lists.rest()?;
        Some(RawEvent {
            team,
            round,
            stage,
            incident,
            ..rest
        })
    })
}
