//! Draws as recorded: a round's or a stage's draw, once made and written down, stands
//! (a later correction of an earlier result does not re-draw it). The runner checks a
//! recorded draw against what the rules require of any draw (every team once, no
//! repeat opponent) and compares it with the draw the rules would have made; the
//! source reports both (a broken rule refuses the draw, a difference is a warning).

use super::plan::Target;
use std::collections::{BTreeMap, BTreeSet};

/// Where a recorded draw belongs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawAt<'a> {
    /// A qualification round.
    Round(u32),
    /// A knockout stage, by name.
    Stage(&'a str),
}

/// A rule a recorded draw breaks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DrawProblem {
    /// The team is not in this round or stage.
    NotHere(u32),
    /// The team is drawn more than once.
    Twice(u32),
    /// The team plays here but the draw leaves it out.
    Missing(u32),
    /// The two teams already met, in the given round.
    Rematch(u32, u32, u32),
    /// A team is drawn against itself.
    Itself(u32),
}

/// The runner's verdict on a recorded draw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// It breaks these rules: it is refused and the run stops before it.
    Refused(Vec<DrawProblem>),
    /// It is legal but not the draw the rules make, which is this (pairs, bye).
    Differs(Vec<(u32, u32)>, Vec<u32>),
    /// It is a legal draw by choice, but pairs these teams of one side as the
    /// places stand now (a correction moved them after the choices were made):
    /// each pair with `true` where both are among the `choosers` (the upper
    /// half, this many teams), `false` where both are among those chosen from.
    OneSided {
        pairs: Vec<(u32, u32, bool)>,
        choosers: usize,
    },
    /// It is the draw the rules make.
    Same,
}

/// The pairs of a draw by choice with both teams among the `choosers` (`true`)
/// or both outside them (`false`): each match of such a draw has one chooser
/// and one team chosen.
pub fn one_sided(pairs: &[(u32, u32)], choosers: &BTreeSet<u32>) -> Vec<(u32, u32, bool)> {
    pairs
        .iter()
        .filter(|(a, b)| choosers.contains(a) == choosers.contains(b))
        .map(|&(a, b)| (a, b, choosers.contains(&a)))
        .collect()
}

/// Checks a recorded draw of `pairs` (and the teams without a match, `byes`) for the
/// teams `playing`; `met` gives the round in which two teams (lower id first) met.
pub fn check(
    pairs: &[(u32, u32)],
    byes: &[u32],
    playing: &BTreeSet<u32>,
    met: &BTreeMap<(u32, u32), u32>,
) -> Vec<DrawProblem> {
    let mut problems = Vec::new();
    let mut seen = BTreeSet::new();
    let teams = pairs
        .iter()
        .flat_map(|(a, b)| [*a, *b])
        .chain(byes.iter().copied());
    for t in teams {
        if !playing.contains(&t) {
            if !problems.contains(&DrawProblem::NotHere(t)) {
                problems.push(DrawProblem::NotHere(t));
            }
        } else if !seen.insert(t) && !problems.contains(&DrawProblem::Twice(t)) {
            problems.push(DrawProblem::Twice(t));
        }
    }
    for (a, b) in pairs {
        if a == b {
            problems.push(DrawProblem::Itself(*a));
        } else if let Some(round) = met.get(&(*a.min(b), *a.max(b))) {
            problems.push(DrawProblem::Rematch(*a, *b, *round));
        }
    }
    for t in playing {
        if !seen.contains(t) {
            problems.push(DrawProblem::Missing(*t));
        }
    }
    problems
}

/// Whether two draws are the same matches and byes (table order and home and away
/// aside).
pub fn same(a: &[(u32, u32)], a_byes: &[u32], b: &[(u32, u32)], b_byes: &[u32]) -> bool {
    let set = |p: &[(u32, u32)]| -> BTreeSet<(u32, u32)> {
        p.iter().map(|(x, y)| (*x.min(y), *x.max(y))).collect()
    };
    let byes = |v: &[u32]| -> BTreeSet<u32> { v.iter().copied().collect() };
    set(a) == set(b) && byes(a_byes) == byes(b_byes)
}

/// Choices of opponent, (chooser, chosen) in the order made.
pub type Choices = Vec<(u32, u32)>;

/// A stage's recorded choices, (chooser, chosen) in the order made, split by its
/// recorded draw: those the draw keeps (the chooser plays the team it chose) and
/// those it contradicts. The draw stands for the choices, so only the first are
/// choices as made; the others are reported, never shown as made.
pub fn choices_kept(choices: Vec<(u32, u32)>, pairs: &[(u32, u32)]) -> (Choices, Choices) {
    let drawn: BTreeSet<(u32, u32)> = pairs.iter().map(|(a, b)| (*a.min(b), *a.max(b))).collect();
    choices
        .into_iter()
        .partition(|(a, b)| drawn.contains(&(*a.min(b), *a.max(b))))
}

/// A stage whose recorded draw stands with other teams than the rules place there
/// from the results as they stand now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptField {
    /// The stage, by its index in the plan.
    pub stage: usize,
    /// Teams drawn there that the rules now send elsewhere: they play there.
    pub drawn: Vec<u32>,
    /// Teams the rules now send there that the draw leaves out: with the other
    /// teams not drawn anywhere, they take the ways left, in order of place.
    pub displaced: Vec<u32>,
}

/// Routes teams so that recorded stage draws stand. `routes` holds each team and
/// the target its place gives it by the rules, best place first; `drawn` the teams
/// of each stage's recorded draw (with those withdrawn at it); teams not routed
/// from here (another stage's, or none) are left to the check of the draw. A team
/// drawn in a stage plays there; one the rules send elsewhere takes the stage's
/// worst place left by a team not drawn there; every other team, in order of
/// place, takes the first target left. A draw that cannot stand this way (more
/// teams than the stage's places, a team drawn in two stages) changes nothing: the
/// check of the draw then reports it. Returns the stages whose field changed.
pub fn keep_drawn_fields(
    routes: &mut [(u32, Target)],
    drawn: &BTreeMap<usize, BTreeSet<u32>>,
) -> Vec<KeptField> {
    let mut fixed = Fixed::new(routes.len());
    let moved_in: Vec<(usize, Vec<usize>)> = draws_that_stand(routes, drawn)
        .into_iter()
        .map(|(k, teams)| (k, fixed.drawn_teams(routes, k, &teams)))
        .collect();
    let targets = fixed.fill_free_ways(routes);
    let fields = moved_in
        .into_iter()
        .filter_map(|(k, moved_in)| kept_field(routes, &targets, k, &moved_in))
        .collect();
    for ((_, rule), now) in routes.iter_mut().zip(targets) {
        *rule = now;
    }
    fields
}

/// The recorded draws that can stand, each with its teams routed from here: no
/// more teams than the stage's places, and none drawn in another stage too.
fn draws_that_stand(
    routes: &[(u32, Target)],
    drawn: &BTreeMap<usize, BTreeSet<u32>>,
) -> Vec<(usize, BTreeSet<u32>)> {
    let routed: BTreeSet<u32> = routes.iter().map(|(team, _)| *team).collect();
    let mut stages_of: BTreeMap<u32, usize> = BTreeMap::new();
    for teams in drawn.values() {
        for t in teams {
            *stages_of.entry(*t).or_default() += 1;
        }
    }
    let places_of = |k: usize| {
        routes
            .iter()
            .filter(|(_, to)| *to == Target::Stage(k))
            .count()
    };
    drawn
        .iter()
        .map(|(k, teams)| (*k, teams.intersection(&routed).copied().collect()))
        .filter(|(k, teams): &(usize, BTreeSet<u32>)| {
            teams.len() <= places_of(*k) && teams.iter().all(|t| stages_of.get(t) == Some(&1))
        })
        .collect()
}

/// Which places (indexes into the routes) are taken by a kept draw, and where
/// each team fixed so far goes.
struct Fixed {
    taken: Vec<bool>,
    to: Vec<Option<Target>>,
}

impl Fixed {
    fn new(places: usize) -> Self {
        Fixed {
            taken: vec![false; places],
            to: vec![None; places],
        }
    }

    /// Fixes stage `k`'s drawn teams there: a team the rules send there takes
    /// its own place; one they send elsewhere takes the stage's worst place
    /// left. Returns the latter, the teams moved in.
    fn drawn_teams(
        &mut self,
        routes: &[(u32, Target)],
        k: usize,
        teams: &BTreeSet<u32>,
    ) -> Vec<usize> {
        let here = Target::Stage(k);
        let (stay, moved_in): (Vec<usize>, Vec<usize>) = (0..routes.len())
            .filter(|i| teams.contains(&routes[*i].0))
            .partition(|i| routes[*i].1 == here);
        for i in stay {
            self.taken[i] = true;
            self.to[i] = Some(here);
        }
        let left: Vec<usize> = (0..routes.len())
            .filter(|i| routes[*i].1 == here && !self.taken[*i])
            .collect();
        for (i, place) in moved_in.iter().zip(left.iter().rev()) {
            self.taken[*place] = true;
            self.to[*i] = Some(here);
        }
        moved_in
    }

    /// Every team not fixed takes, in order of place, the first way left.
    fn fill_free_ways(&self, routes: &[(u32, Target)]) -> Vec<Target> {
        let mut free = (0..routes.len()).filter(|i| !self.taken[*i]);
        (0..routes.len())
            .map(|i| {
                self.to[i].unwrap_or_else(|| free.next().map_or(routes[i].1, |slot| routes[slot].1))
            })
            .collect()
    }
}

/// What the kept draw of stage `k` changed: the teams moved in and those the
/// rules sent there that now go elsewhere; `None` when nothing changed.
fn kept_field(
    routes: &[(u32, Target)],
    targets: &[Target],
    k: usize,
    moved_in: &[usize],
) -> Option<KeptField> {
    let here = Target::Stage(k);
    let displaced: Vec<u32> = routes
        .iter()
        .zip(targets)
        .filter(|((_, rule), now)| *rule == here && **now != here)
        .map(|((t, _), _)| *t)
        .collect();
    let drawn: Vec<u32> = moved_in.iter().map(|i| routes[*i].0).collect();
    (!drawn.is_empty() || !displaced.is_empty()).then_some(KeptField {
        stage: k,
        drawn,
        displaced,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A choice stands where the draw pairs the chooser with the team chosen,
    /// home or away; one the draw pairs otherwise is contradicted.
    #[test]
    fn a_recorded_draw_keeps_the_choices_it_follows_and_names_the_others() {
        let choices = vec![(1, 17), (28, 59), (20, 8)];
        let draw = [(1, 59), (28, 17), (8, 20)];
        let (kept, contradicted) = choices_kept(choices, &draw);
        assert_eq!(kept, vec![(20, 8)]);
        assert_eq!(contradicted, vec![(1, 17), (28, 59)]);
        let (kept, contradicted) = choices_kept(vec![(1, 59)], &draw);
        assert_eq!((kept, contradicted), (vec![(1, 59)], vec![]));
    }

    #[test]
    fn a_draw_with_every_team_once_and_no_rematch_passes() {
        let playing: BTreeSet<u32> = (1..=4).collect();
        let met = BTreeMap::from([((1, 2), 1)]);
        assert!(check(&[(1, 3), (2, 4)], &[], &playing, &met).is_empty());
        assert_eq!(
            check(&[(2, 1), (3, 4)], &[], &playing, &met),
            [DrawProblem::Rematch(2, 1, 1)]
        );
        assert_eq!(
            check(&[(1, 3), (3, 9)], &[], &playing, &met),
            [
                DrawProblem::Twice(3),
                DrawProblem::NotHere(9),
                DrawProblem::Missing(2),
                DrawProblem::Missing(4)
            ]
        );
        assert_eq!(
            check(&[(1, 3)], &[2], &playing, &met),
            [DrawProblem::Missing(4)]
        );
    }

    /// Ten teams in the order given: places 1–4 to stage 0, 5–8 to stage 1, 9–10 out.
    fn ranked(order: [u32; 10]) -> Vec<(u32, Target)> {
        order
            .into_iter()
            .enumerate()
            .map(|(i, t)| {
                let to = match i {
                    0..=3 => Target::Stage(0),
                    4..=7 => Target::Stage(1),
                    _ => Target::Out,
                };
                (t, to)
            })
            .collect()
    }

    fn routes() -> Vec<(u32, Target)> {
        ranked([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    }

    fn drawn(stages: &[(usize, &[u32])]) -> BTreeMap<usize, BTreeSet<u32>> {
        stages
            .iter()
            .map(|(k, teams)| (*k, teams.iter().copied().collect()))
            .collect()
    }

    fn targets(routes: &[(u32, Target)]) -> Vec<Target> {
        routes.iter().map(|(_, to)| *to).collect()
    }

    #[test]
    fn a_team_drawn_before_a_correction_plays_where_it_was_drawn() {
        // A correction moved team 9 above team 8 after stage 1 was drawn with 8.
        let mut r = ranked([1, 2, 3, 4, 5, 6, 7, 9, 8, 10]);
        let fields = keep_drawn_fields(&mut r, &drawn(&[(1, &[5, 6, 7, 8])]));
        assert_eq!(
            fields,
            [KeptField {
                stage: 1,
                drawn: vec![8],
                displaced: vec![9]
            }]
        );
        let now: BTreeMap<u32, Target> = r.into_iter().collect();
        assert_eq!(now[&8], Target::Stage(1));
        assert_eq!(now[&9], Target::Out);
        assert_eq!(now[&10], Target::Out);
    }

    #[test]
    fn a_team_displaced_from_a_drawn_stage_moves_up_into_one_not_drawn_yet() {
        // Stage 1 was drawn with team 5; a correction then put team 5 above team 4.
        // Stage 0 is not drawn yet, so team 4, the one left out of stage 1, takes
        // team 5's way into it.
        let mut r = ranked([1, 2, 3, 5, 4, 6, 7, 8, 9, 10]);
        let fields = keep_drawn_fields(&mut r, &drawn(&[(1, &[5, 6, 7, 8])]));
        assert_eq!(
            fields,
            [KeptField {
                stage: 1,
                drawn: vec![5],
                displaced: vec![4]
            }]
        );
        let now: BTreeMap<u32, Target> = r.into_iter().collect();
        assert_eq!(now[&5], Target::Stage(1));
        assert_eq!(now[&4], Target::Stage(0));
    }

    #[test]
    fn two_drawn_stages_keep_a_swap_between_them() {
        let mut r = ranked([1, 2, 3, 5, 4, 6, 7, 8, 9, 10]);
        let d = drawn(&[(0, &[1, 2, 3, 4]), (1, &[5, 6, 7, 8])]);
        assert_eq!(keep_drawn_fields(&mut r, &d).len(), 2);
        let now: BTreeMap<u32, Target> = r.into_iter().collect();
        assert_eq!(now[&4], Target::Stage(0));
        assert_eq!(now[&5], Target::Stage(1));
    }

    #[test]
    fn draws_that_agree_with_the_rules_or_cannot_stand_change_nothing() {
        let before = targets(&routes());
        for d in [
            drawn(&[(1, &[5, 6, 7, 8])]),
            // One team short (a bye not recorded, in a file from before stage
            // draws recorded theirs): the rest keep their way.
            drawn(&[(1, &[5, 6, 8])]),
            // More teams than the stage's places.
            drawn(&[(0, &[1, 2, 3, 4, 9])]),
            // A team drawn in two stages.
            drawn(&[(0, &[1, 2, 3, 5]), (1, &[5, 6, 7, 8])]),
            // A team not routed from here (another stage's, or a slip of the pen):
            // the others stand, and the check of the draw reports it.
            drawn(&[(1, &[5, 6, 7, 11])]),
        ] {
            let mut r = routes();
            assert_eq!(keep_drawn_fields(&mut r, &d), [], "{d:?}");
            assert_eq!(targets(&r), before, "{d:?}");
        }
    }

    #[test]
    fn the_same_draw_in_another_order_is_the_same() {
        assert!(same(&[(1, 2), (3, 4)], &[], &[(4, 3), (2, 1)], &[]));
        assert!(!same(&[(1, 3), (2, 4)], &[], &[(1, 2), (3, 4)], &[]));
        assert!(!same(&[(1, 2)], &[3], &[(1, 2)], &[4]));
    }
}
