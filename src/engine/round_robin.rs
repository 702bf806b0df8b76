//! All-play-all schedules by the circle method (Berger tables).
//!
//! Team 1 stays put while the others rotate; with an odd field a bye takes the
//! empty seat. Every pair meets exactly once over `n - 1` rounds (`n` rounds for an
//! odd `n`), and home and away alternate so no team is home in every round.

/// One round: `(home, away)` pairs and the team with the bye, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundRobinRound<T> {
    /// The matches.
    pub pairs: Vec<(T, T)>,
    /// The team that sits out.
    pub bye: Option<T>,
}

/// The whole schedule for `teams`, in the order given (the first is the fixed seat).
pub fn schedule<T: Clone>(teams: &[T]) -> Vec<RoundRobinRound<T>> {
    let mut seats: Vec<Option<T>> = teams.iter().cloned().map(Some).collect();
    if seats.len() % 2 == 1 {
        seats.push(None);
    }
    let n = seats.len();
    if n < 2 {
        return Vec::new();
    }
    let mut rounds = Vec::with_capacity(n - 1);
    for r in 0..n - 1 {
        let mut pairs = Vec::with_capacity(n / 2);
        let mut bye = None;
        for i in 0..n / 2 {
            let (a, b) = (
                seats.get(i).cloned().flatten(),
                seats.get(n - 1 - i).cloned().flatten(),
            );
            match (a, b) {
                (Some(a), Some(b)) => {
                    // Alternate home and away by round so the fixed seat swaps each time.
                    if (r + i) % 2 == 0 {
                        pairs.push((a, b));
                    } else {
                        pairs.push((b, a));
                    }
                }
                (Some(t), None) | (None, Some(t)) => bye = Some(t),
                (None, None) => {}
            }
        }
        rounds.push(RoundRobinRound { pairs, bye });
        // Rotate every seat but the first one step clockwise.
        if let Some(last) = seats.pop() {
            seats.insert(1, last);
        }
    }
    rounds
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn check(n: u32) {
        let teams: Vec<u32> = (1..=n).collect();
        let rounds = schedule(&teams);
        let expected_rounds = if n.is_multiple_of(2) { n - 1 } else { n };
        assert_eq!(rounds.len() as u32, expected_rounds);
        let mut met = BTreeSet::new();
        let mut byes = BTreeSet::new();
        for r in &rounds {
            let mut seen = BTreeSet::new();
            for (a, b) in &r.pairs {
                assert!(seen.insert(*a) && seen.insert(*b));
                assert!(met.insert((*a.min(b), *a.max(b))));
            }
            if let Some(b) = r.bye {
                assert!(seen.insert(b));
                assert!(byes.insert(b), "a second bye for {b}");
            }
            assert_eq!(seen.len() as u32, n);
        }
        assert_eq!(met.len() as u32, n * (n - 1) / 2, "every pair meets once");
    }

    #[test]
    fn every_pair_meets_exactly_once() {
        for n in 2..=17 {
            check(n);
        }
    }

    #[test]
    fn home_and_away_alternate() {
        let rounds = schedule(&[1, 2, 3, 4, 5, 6]);
        let home_games = rounds
            .iter()
            .filter(|r| r.pairs.iter().any(|(h, _)| *h == 1))
            .count();
        assert!(
            (2..=3).contains(&home_games),
            "team 1 is home {home_games} times of 5"
        );
    }
}
