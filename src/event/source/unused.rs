//! The report after a run of the entries of an event file the run never used:
//! rounds never drawn, stage entries never reached, incidents never applied.

use super::{EventSource, Status, Waiting};
use crate::diag::Diagnostic;
use crate::event::model::{At, RoundEntry};
use crate::source::Span;

impl EventSource<'_> {
    /// Reports every entry of the file the run never used, saying `why`.
    pub(super) fn unused(&mut self, why: &str, completed: &[String]) {
        self.unused_rounds(why);
        self.unused_stage_entries(why, completed);
        self.unused_incidents(why);
    }

    /// Rounds with results, or a recorded draw, that were never drawn: a round
    /// number written wrongly leaves its draw unused, never silently.
    fn unused_rounds(&mut self, why: &str) {
        let event = self.event;
        for (i, r) in event.rounds.iter().enumerate() {
            if self.rounds_drawn.contains_key(&r.number)
                || (r.results.is_empty() && r.draw.is_none())
            {
                continue;
            }
            let results = self.rounds.get(i).map_or(0, Vec::len);
            let label = match (results, &r.draw) {
                (0, _) => "its recorded draw is not used".to_string(),
                (n, None) => format!("{} not used", crate::diag::counted(n, "result")),
                (n, Some(_)) => format!(
                    "its recorded draw and {} are not used",
                    crate::diag::counted(n, "result")
                ),
            };
            let fit = self.round_the_results_fit(r);
            let help = match fit {
                Some((fit, None)) => format!(
                    "its results are the matches of round {fit}'s draw, which waits for them: write `number = {fit}`"
                ),
                Some((fit, Some(_))) => format!(
                    "its results are the matches of round {fit}'s draw, which waits for them: move them into round {fit}'s entry"
                ),
                None => "a round's draw depends on the results before it: give the earlier results first, and check the round's `number`".to_string(),
            };
            let mut d = Diagnostic::error(
                "E0710",
                format!("round {} was never drawn: {why}", r.number),
                r.span,
            )
            .with_label(label)
            .with_help(help);
            if let Some((fit, Some(entry))) = fit {
                d = d.with_note(entry, format!("round {fit}'s entry, without results"));
            }
            self.diags.push(d);
        }
    }

    /// The drawn round, without results of its own in the file, whose draw
    /// has a match for each of `round`'s results: the round a director meant
    /// when the results went under the wrong number; with its own entry, when
    /// the file has one (its recorded draw, say), where the results belong.
    fn round_the_results_fit(&self, round: &RoundEntry) -> Option<(u32, Option<Span>)> {
        if round.results.is_empty() {
            return None;
        }
        let drawn_pair = |pairs: &[(u32, u32)], a: u32, b: u32| {
            pairs
                .iter()
                .any(|&(h, w)| (h, w) == (a, b) || (h, w) == (b, a))
        };
        self.rounds_drawn.iter().find_map(|(n, (pairs, _))| {
            let own = self.round_index(*n).and_then(|i| self.event.rounds.get(i));
            let fits = own.is_none_or(|e| e.results.is_empty())
                && round.results.iter().all(|m| drawn_pair(pairs, m.a, m.b));
            fits.then(|| (*n, own.map(|e| e.span)))
        })
    }

    /// Stages never drawn, results of walkovers, choices after the draw was complete.
    fn unused_stage_entries(&mut self, why: &str, completed: &[String]) {
        let event = self.event;
        for (i, s) in event.stages.iter().enumerate() {
            let drawn = self.stages_drawn.contains_key(&s.name);
            let made = self.choices_made.get(i).copied().unwrap_or(0);
            let blocked = self.choices_blocked.get(i).copied().unwrap_or(false);
            let title = event.stage_title(&s.name);
            if !drawn {
                let waiting_here = self
                    .waiting
                    .iter()
                    .any(|w| matches!(w, Waiting::Choice { stage, .. } if *stage == s.name));
                let empty = s.choices.is_empty()
                    && s.withdrawn.is_empty()
                    && s.withdrawn_at_draw.is_empty()
                    && s.absent.is_empty()
                    && s.seating.is_empty()
                    && s.results.is_empty();
                if !waiting_here && !blocked && made == 0 && !empty {
                    self.diags.push(
                        Diagnostic::error(
                            "E0710",
                            format!("{title} (`{}`) was never drawn: {why}", s.name),
                            s.span,
                        )
                        .with_label("this stage's entries are not used")
                        .with_help(
                            "a stage is drawn when the stages and rounds before it are complete",
                        ),
                    );
                }
                continue;
            }
            // A result never asked for was for a match decided without play (a
            // walkover): any such in a stage played to the end, and in one still
            // being played, those of a team that withdrew after the draw.
            let walkover = self.withdrawn_applied(i);
            let finished = completed.contains(&s.name);
            let statuses = self.stages.get(i).cloned().unwrap_or_default();
            for (r, status) in s.results.iter().zip(statuses) {
                let gone = walkover.iter().find(|t| r.a == **t || r.b == **t);
                if status == Status::Valid && (finished || gone.is_some()) {
                    let who = gone.map_or("a team".to_string(), |t| format!("team {t}"));
                    self.diags.push(
                            Diagnostic::error(
                                "E0710",
                                format!("this result was not needed: the match in {title} was decided without play"),
                                r.span,
                            )
                            .with_label("not used")
                            .with_help(format!("{who} withdrew after the draw, so the match was a walkover; remove the result")),
                        );
                }
            }
            for c in s.choices.iter().skip(made) {
                self.diags.push(
                    Diagnostic::error(
                        "E0710",
                        format!(
                            "this choice was not needed: the draw of {title} was complete without it"
                        ),
                        c.span,
                    )
                    .with_label("not used")
                    .with_help("the last chooser gets the team left over; remove this choice"),
                );
            }
        }
    }

    /// Incidents in a round or stage that was never drawn.
    fn unused_incidents(&mut self, why: &str) {
        let event = self.event;
        for (i, inc) in event.incidents.iter().enumerate() {
            if self.incidents.get(i) != Some(&Status::Unseen) || inc.effect.is_none() {
                continue;
            }
            let (reached, place) = match &inc.at {
                At::Round(r) => (self.rounds_drawn.contains_key(r), format!("round {r}")),
                At::Stage(s) => (self.stages_drawn.contains_key(s), event.stage_title(s)),
            };
            if !reached {
                self.diags.push(
                    Diagnostic::error(
                        "E0710",
                        format!("this incident is in {place}, which was never drawn: {why}"),
                        inc.span,
                    )
                    .with_label("not applied"),
                );
            }
        }
    }
}
