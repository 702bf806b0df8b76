//! What a run produces: every round, draw, result and the final places, as data
//! (`--format json`) and as terminal tables.

use rust_decimal::Decimal;
use serde::Serialize;
use std::fmt::Write;

/// One qualification match.
#[derive(Debug, Clone, Serialize)]
pub struct QualMatch {
    /// Table number.
    pub table: usize,
    /// Home team id.
    pub home: u32,
    /// Away team id.
    pub away: u32,
    /// IMPs of the home team.
    pub home_imps: Decimal,
    /// IMPs of the away team.
    pub away_imps: Decimal,
    /// VP of the home team.
    pub home_vp: Decimal,
    /// VP of the away team.
    pub away_vp: Decimal,
}

/// One qualification round.
#[derive(Debug, Clone, Serialize)]
pub struct QualRound {
    /// Round number.
    pub round: u32,
    /// The matches.
    pub matches: Vec<QualMatch>,
    /// The team with the bye.
    pub bye: Option<u32>,
}

/// One line of the qualification standings.
#[derive(Debug, Clone, Serialize)]
pub struct StandingLine {
    /// Place.
    pub place: usize,
    /// Team id.
    pub team: u32,
    /// Total VP, adjustments and carry-over included.
    pub vp: Decimal,
    /// Swiss points.
    pub swiss_points: Decimal,
    /// IMPs won.
    pub imps_won: Decimal,
    /// IMPs lost.
    pub imps_lost: Decimal,
    /// The criterion that put the team below the one above it.
    pub decided_by: Option<String>,
}

/// One knockout match.
#[derive(Debug, Clone, Serialize)]
pub struct KoMatch {
    /// Table number.
    pub table: u32,
    /// Home team (the better ranking).
    pub home: u32,
    /// Away team.
    pub away: u32,
    /// The home team's ranking before the match.
    pub home_ranking: u32,
    /// The away team's ranking before the match.
    pub away_ranking: u32,
    /// IMPs of the home team.
    pub home_imps: Decimal,
    /// IMPs of the away team.
    pub away_imps: Decimal,
    /// The winner.
    pub winner: u32,
    /// How the match was decided: `imps`, `tie-break` or `walkover`.
    pub decided_by: String,
    /// Who takes their seats first, or who has seating rights in each segment.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seating: Option<String>,
}

/// One knockout stage.
#[derive(Debug, Clone, Serialize)]
pub struct KoStage {
    /// Its name in the edition.
    pub name: String,
    /// Its title.
    pub title: String,
    /// Its number in the document.
    pub order: u32,
    /// Boards per match.
    pub boards: Decimal,
    /// How it was drawn.
    pub draw: String,
    /// The teams in position order (by origin, then ranking), before withdrawals.
    pub positions: Vec<u32>,
    /// Teams that withdrew at the draw.
    pub withdrawn: Vec<u32>,
    /// Teams that went through without a match.
    pub byes: Vec<u32>,
    /// Choices in the order made: (chooser, chosen).
    pub choices: Vec<(u32, u32)>,
    /// The matches.
    pub matches: Vec<KoMatch>,
}

/// A team's final standing.
#[derive(Debug, Clone, Serialize)]
pub struct FinalLine {
    /// `1`, `5/6`, or `out at BC32-B`.
    pub standing: String,
    /// Team id.
    pub team: u32,
}

/// A whole run.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The competition.
    pub competition: String,
    /// The seed of every random choice (the first round's draw, simulated results).
    pub seed: u64,
    /// Teams entered.
    pub teams: u32,
    /// What a reader of the report should know about how it was run.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Qualification rounds.
    pub rounds: Vec<QualRound>,
    /// Final qualification standings.
    pub standings: Vec<StandingLine>,
    /// Knockout stages in order.
    pub stages: Vec<KoStage>,
    /// Final places and exits.
    pub places: Vec<FinalLine>,
    /// The district team that got furthest, and its prize (CC-DISTRICT).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub district_prize: Option<(u32, String)>,
    /// Challenge-trophy points by team, for the teams whose place earns any (CC-TROPHY):
    /// each player of the team with enough boards in its last matches earns them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub trophy_points: Vec<(u32, String)>,
}

impl Report {
    /// Terminal tables: the standings after the qualification, each stage's draw
    /// and results, the final places.
    pub fn render(&self, name: &dyn Fn(u32) -> String) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} — {} teams, seed {}",
            self.competition, self.teams, self.seed
        );
        for note in &self.notes {
            let _ = writeln!(out, "Note: {note}");
        }
        // The report shows standings once the qualification is over; before that,
        // the rounds played so far.
        if self.standings.is_empty() {
            for r in &self.rounds {
                let _ = writeln!(out, "\nRound {}", r.round);
                for m in &r.matches {
                    let _ = writeln!(
                        out,
                        "   table {:>2}: {:<24} {:>4} - {:<4} {:<24} VP {} - {}",
                        m.table,
                        name(m.home),
                        m.home_imps.normalize(),
                        m.away_imps.normalize(),
                        name(m.away),
                        m.home_vp.normalize(),
                        m.away_vp.normalize()
                    );
                }
                if let Some(b) = r.bye {
                    let _ = writeln!(out, "   bye: {}", name(b));
                }
            }
        }
        if !self.standings.is_empty() {
            let _ = writeln!(out, "\nQualification: {} rounds", self.rounds.len());
            let _ = writeln!(
                out,
                "{:>5}  {:<24} {:>8} {:>8} {:>6} {:>6}  decided by",
                "place", "team", "VP", "SP", "IMP+", "IMP-"
            );
            for l in &self.standings {
                let _ = writeln!(
                    out,
                    "{:>5}  {:<24} {:>8} {:>8} {:>6} {:>6}  {}",
                    l.place,
                    name(l.team),
                    l.vp.normalize(),
                    l.swiss_points.normalize(),
                    l.imps_won.normalize(),
                    l.imps_lost.normalize(),
                    l.decided_by.as_deref().unwrap_or("")
                );
            }
        }
        for s in &self.stages {
            let _ = writeln!(
                out,
                "\n{}. {} ({}, {} boards, {})",
                s.order,
                s.title,
                s.name,
                s.boards.normalize(),
                s.draw
            );
            for team in &s.withdrawn {
                let _ = writeln!(out, "   {} withdrew at the draw", name(*team));
            }
            for (chooser, chosen) in &s.choices {
                let _ = writeln!(out, "   {} chooses {}", name(*chooser), name(*chosen));
            }
            for team in &s.byes {
                let _ = writeln!(out, "   {} goes through without a match", name(*team));
            }
            if s.matches.is_empty() && s.byes.is_empty() {
                let _ = writeln!(out, "   not played");
            }
            for m in &s.matches {
                let _ = writeln!(
                    out,
                    "   table {:>2}: {:<24} (rank {:>2}) {:>4} - {:<4} (rank {:>2}) {:<24} winner {} ({})",
                    m.table,
                    name(m.home),
                    m.home_ranking,
                    m.home_imps.normalize(),
                    m.away_imps.normalize(),
                    m.away_ranking,
                    name(m.away),
                    name(m.winner),
                    m.decided_by
                );
                if let Some(seating) = &m.seating {
                    let _ = writeln!(out, "             {seating}");
                }
            }
        }
        if !self.places.is_empty() {
            let _ = writeln!(out, "\nFinal places");
            let width = self
                .places
                .iter()
                .map(|l| l.standing.chars().count())
                .max()
                .unwrap_or(0);
            for l in &self.places {
                let pad = width.saturating_sub(l.standing.chars().count());
                let _ = writeln!(out, "{}{}  {}", " ".repeat(pad), l.standing, name(l.team));
            }
        }
        if !self.trophy_points.is_empty() {
            let _ = writeln!(out, "\nChallenge-trophy points (each qualifying player)");
            for (team, points) in &self.trophy_points {
                let _ = writeln!(out, "  {}: {points}", name(*team));
            }
        }
        if let Some((team, prize)) = &self.district_prize {
            let _ = writeln!(out, "\nDistrict prize: {} ({prize})", name(*team));
        }
        out
    }
}
