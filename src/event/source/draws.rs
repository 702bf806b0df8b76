//! Recorded draws: the source gives the draw written in the file, and reports the
//! runner's verdict on it — a broken rule (E0720, the run stops before it) or a
//! draw the rules would not have made (W0720, it stands; one warning for all such
//! draws of a run).

use super::{EventSource, Waiting, describe_draw};
use crate::diag::Diagnostic;
use crate::event::model::RecordedDraw;
use crate::event::record::MadeDraw;
use crate::runner::{Awaited, DrawAt, DrawProblem, Verdict};
use crate::source::Span;

impl EventSource<'_> {
    /// The draws made in this run that the file does not record: every round and
    /// stage drawn, in order.
    pub fn unrecorded(&self) -> Vec<MadeDraw> {
        let mut out = Vec::new();
        for (round, (pairs, bye)) in &self.rounds_drawn {
            if self.recorded(DrawAt::Round(*round)).is_none() {
                out.push(MadeDraw {
                    round: Some(*round),
                    stage: None,
                    pairs: pairs.clone(),
                    bye: *bye,
                });
            }
        }
        for stage in &self.stage_order {
            if let Some((pairs, bye)) = self.stages_drawn.get(stage)
                && self.recorded(DrawAt::Stage(stage)).is_none()
            {
                let entry = self
                    .stage_index(stage)
                    .and_then(|i| self.event.stages.get(i));
                out.push(MadeDraw {
                    round: None,
                    stage: Some(entry.map_or_else(|| stage.clone(), |e| e.written.clone())),
                    pairs: pairs.clone(),
                    bye: *bye,
                });
            }
        }
        out
    }

    /// The recorded draw of a round or stage, if the file has one.
    pub(super) fn recorded(&self, at: DrawAt<'_>) -> Option<&RecordedDraw> {
        match at {
            DrawAt::Round(r) => self
                .round_index(r)
                .and_then(|i| self.event.rounds.get(i))
                .and_then(|e| e.draw.as_ref()),
            DrawAt::Stage(s) => self
                .stage_index(s)
                .and_then(|i| self.event.stages.get(i))
                .and_then(|e| e.draw.as_ref()),
        }
    }

    /// Reports the runner's verdict on a recorded draw.
    pub(super) fn verdict(&mut self, at: DrawAt<'_>, verdict: &Verdict) {
        let Some(draw) = self.recorded(at).cloned() else {
            return;
        };
        let place = match at {
            DrawAt::Round(r) => format!("round {r}"),
            DrawAt::Stage(s) => self.event.stage_title(s),
        };
        // The stage is reached and its draw is the record: the choices that made it
        // are not asked again.
        if let DrawAt::Stage(s) = at
            && let Some(i) = self.stage_index(s)
        {
            let n = self.event.stages.get(i).map_or(0, |e| e.choices.len());
            if let Some(m) = self.choices_made.get_mut(i) {
                *m = n;
            }
        }
        match verdict {
            Verdict::Same => {}
            Verdict::Differs(pairs, byes) => {
                let mut rules = describe_draw(pairs, byes.first().copied());
                if let DrawAt::Stage(s) = at
                    && self.kept_fields.contains(s)
                {
                    rules.push_str(" (with the teams drawn there)");
                }
                self.differing.push(Differing {
                    place,
                    at: draw.span,
                    rules,
                });
            }
            Verdict::OneSided { pairs, choosers } => {
                let words: Vec<String> = pairs
                    .iter()
                    .map(|(a, b, upper)| {
                        let side = if *upper {
                            format!("both now among the {choosers} teams placed to choose")
                        } else {
                            "both now among the teams chosen from".to_string()
                        };
                        format!("team {a} with team {b} ({side})")
                    })
                    .collect();
                self.diags.push(
                    Diagnostic::warning(
                        "W0720",
                        format!(
                            "the draw of {place} as recorded was chosen from places the results as they stand now have moved: it pairs {}; it stands",
                            crate::diag::and_list(&words)
                        ),
                        draw.span,
                    )
                    .with_label("the draw as recorded")
                    .with_help(format!(
                        "each match of a draw by choice has a team placed 1–{choosers} and one placed below; a result corrected or a penalty given after the draw does not change a draw made (keep the record), but check the draw if it was written by hand"
                    )),
                );
            }
            Verdict::Refused(problems) => {
                for p in problems {
                    let stage = matches!(at, DrawAt::Stage(_));
                    self.diags.push(problem(&draw, (&place, stage), p));
                }
                if let DrawAt::Stage(s) = at
                    && let Some(i) = self.stage_index(s)
                    && let Some(b) = self.choices_blocked.get_mut(i)
                {
                    *b = true;
                }
                let title = match at {
                    DrawAt::Round(r) => format!("{} round {r}", self.event.qualification_title),
                    DrawAt::Stage(_) => place.clone(),
                };
                self.wait(Waiting::Halt(
                    format!(
                        "{place}: the draw as recorded breaks the rules; correct it in the file (see the errors)"
                    ),
                    Awaited::RecordedDraw { title },
                ));
            }
        }
    }
}

impl EventSource<'_> {
    /// W0721 for each recorded choice of `stage` that its recorded draw does not
    /// follow: the draw stands, and the warning names the choice and the match the
    /// draw has for the chooser.
    pub(super) fn choices_against_the_draw(&mut self, stage: &str, choices: &[(u32, u32)]) {
        let Some(draw) = self.recorded(DrawAt::Stage(stage)).cloned() else {
            return;
        };
        let Some(entry) = self
            .stage_index(stage)
            .and_then(|i| self.event.stages.get(i))
        else {
            return;
        };
        let title = self.event.stage_title(stage);
        for &(chooser, chosen) in choices {
            let Some(choice) = entry
                .choices
                .iter()
                .find(|c| (c.chooser, c.chosen) == (chooser, chosen))
            else {
                continue;
            };
            let drawn = draw
                .pairs
                .iter()
                .find(|(a, b, _)| *a == chooser || *b == chooser)
                .map(|&(a, b, _)| (a, b));
            let drawn_as = drawn.map_or(format!("no match of team {chooser}"), |(a, b)| {
                format!("the match {a}-{b}")
            });
            let as_drawn = drawn.map_or(String::new(), |(a, b)| {
                format!(" (\"{chooser}>{}\")", if a == chooser { b } else { a })
            });
            self.diags.push(
                Diagnostic::warning(
                    "W0721",
                    format!(
                        "the recorded draw of {title} does not follow this choice: team {chooser} chose team {chosen}, but the draw has {drawn_as}"
                    ),
                    choice.span,
                )
                .with_label(format!("team {chooser} chooses team {chosen}"))
                .with_note(draw.span_of(chooser), format!("the draw has {drawn_as}: it stands"))
                .with_help(format!(
                    "the recorded draw stands, and the report shows it, not this choice; if the draw is what was played, correct the choices to match it{as_drawn}; if the choices are right, correct the draw"
                )),
            );
        }
    }
}

/// A recorded draw the rules would not make now: where, and the draw they make.
pub(super) struct Differing {
    /// The round or stage, in words.
    place: String,
    /// The draw as recorded.
    at: Span,
    /// The draw the rules make now, in words.
    rules: String,
}

impl EventSource<'_> {
    /// W0720, once for every recorded draw the rules would not make now: a correction
    /// of an early result usually moves every later draw, and the director needs to
    /// hear it once, with each draw shown.
    pub(super) fn report_differing(&mut self) {
        let differing = std::mem::take(&mut self.differing);
        let Some((first, rest)) = differing.split_first() else {
            return;
        };
        let keep = "a result corrected or a penalty given after the draw does not change a draw made (keep the record)";
        if rest.is_empty() {
            self.diags.push(
                Diagnostic::warning(
                    "W0720",
                    format!(
                        "the draw of {} as recorded is not the draw the rules make now; it stands",
                        first.place
                    ),
                    first.at,
                )
                .with_label("the draw as recorded")
                .with_help(format!(
                    "the rules draw {} from the results as they stand now: {}; {keep}, but check the draw if it was written by hand",
                    first.place, first.rules
                )),
            );
            return;
        }
        // Each draw's label carries the draw the rules make now, so nothing the
        // separate warnings said is lost (and no help grows past what is shown).
        let label =
            |d: &Differing| format!("{} as recorded; the rules draw now: {}", d.place, d.rules);
        let places: Vec<&str> = differing.iter().map(|d| d.place.as_str()).collect();
        let mut d = Diagnostic::warning(
            "W0720",
            format!(
                "the draws of {} as recorded are not the draws the rules make now; they stand",
                and_list(&places)
            ),
            first.at,
        )
        .with_label(label(first));
        for r in rest {
            d = d.with_note(r.at, label(r));
        }
        self.diags.push(d.with_help(format!(
            "the rules draw each from the results as they stand now; {keep}, but check the draws if they were written by hand"
        )));
    }
}

impl EventSource<'_> {
    /// W0720 for a stage whose recorded draw stands although a later correction
    /// moved other teams into its places: `drawn` play there, `displaced` go where
    /// the words with each say.
    pub(super) fn kept_field(&mut self, stage: &str, drawn: &[u32], displaced: &[(u32, String)]) {
        let Some(draw) = self.recorded(DrawAt::Stage(stage)).cloned() else {
            return;
        };
        self.kept_fields.insert(stage.to_string());
        let place = self.event.stage_title(stage);
        let ids: Vec<u32> = displaced.iter().map(|(t, _)| *t).collect();
        let (drawn, put) = (teams(drawn), teams(&ids));
        let (message, label) = match (drawn.is_empty(), put.is_empty()) {
            (false, false) => (
                format!(
                    "the draw of {place} as recorded stands: the results as they stand now put {put} there instead of {drawn}"
                ),
                format!("drawn with {drawn}; the rules now put {put} here"),
            ),
            (false, true) => (
                format!(
                    "the draw of {place} as recorded stands with {drawn}, whom the results as they stand now send elsewhere"
                ),
                format!("drawn with {drawn}"),
            ),
            _ => (
                format!(
                    "the draw of {place} as recorded stands without {put}, whom the results as they stand now put there"
                ),
                format!("drawn without {put}"),
            ),
        };
        let ways: Vec<String> = displaced
            .iter()
            .map(|(t, to)| format!("team {t} {to}"))
            .collect();
        let ways: Vec<&str> = ways.iter().map(String::as_str).collect();
        let mut help = format!(
            "a result corrected or a penalty given after the draw does not change a draw made: the teams drawn in {place} play there"
        );
        if !ways.is_empty() {
            help.push_str(&format!(
                ", and {} (the teams not drawn there take the ways left, in order of place)",
                and_list(&ways)
            ));
        }
        help.push_str("; check the draw if it was written by hand");
        self.diags.push(
            Diagnostic::warning("W0720", message, draw.span)
                .with_label(label)
                .with_help(help),
        );
    }
}

/// `team 5`, `teams 5 and 6`, `teams 5, 6 and 7`; empty for none.
fn teams(ids: &[u32]) -> String {
    let names: Vec<String> = ids.iter().map(u32::to_string).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    match names.len() {
        0 => String::new(),
        1 => format!("team {}", names[0]),
        _ => format!("teams {}", and_list(&names)),
    }
}

use crate::diag::and_list;

/// The diagnostic for one broken rule of a recorded draw of a round or stage
/// (`place`, in words, and whether it is a stage).
fn problem(draw: &RecordedDraw, (place, stage): (&str, bool), p: &DrawProblem) -> Diagnostic {
    // A knockout result corrected after the next stage was drawn changes who plays
    // there: the draw cannot stand, and the director draws it again.
    let (now, redraw) = if stage {
        (
            " by the results as they stand now",
            "; if a result of an earlier round or stage was corrected after this draw, delete the stage's `draw` (and any results given for it) and run `bfr run --write-draw` to draw it again",
        )
    } else {
        ("", "")
    };
    let (at, message, label, help) = match p {
        DrawProblem::NotHere(t) => (
            draw.span_of(*t),
            format!("team {t} does not play in {place}, but the draw as recorded has it"),
            format!("team {t} is not in {place}"),
            format!(
                "only the teams that play in {place}{now} can be drawn there: correct the record{redraw}"
            ),
        ),
        DrawProblem::Twice(t) => (
            draw.span_of(*t),
            format!("team {t} is drawn twice in {place}"),
            format!("team {t} again"),
            "every team plays one match of a draw".to_string(),
        ),
        DrawProblem::Missing(t) => (
            draw.span,
            format!("team {t} plays in {place}, but the draw as recorded leaves it out"),
            format!("no match (or bye) of team {t}"),
            format!(
                "every team of the {} has a match, or the bye (`bye = N`){redraw}",
                if stage { "stage" } else { "round" }
            ),
        ),
        DrawProblem::Rematch(a, b, round) => (
            draw.span_of(*a),
            format!(
                "team {a} and team {b} already met in round {round}: teams meet at most once in the qualification"
            ),
            "a repeat opponent".to_string(),
            "draw the round again without repeat opponents, or correct the record".to_string(),
        ),
        DrawProblem::Itself(t) => (
            draw.span_of(*t),
            format!("team {t} is drawn against itself in {place}"),
            "a team cannot play itself".to_string(),
            "correct the record".to_string(),
        ),
    };
    Diagnostic::error("E0720", message, at)
        .with_label(label)
        .with_help(help)
}
