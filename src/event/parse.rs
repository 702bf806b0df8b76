//! The small text parsers for an event file's values: a result (IMPs or board
//! scores), a seating pick, an absent captain, a choice.

use rust_decimal::Decimal;

/// A parsed result: the two teams, their IMPs (zero until board scores are turned
/// into IMPs), the boards it counts if given, and the board scores if given.
pub type ParsedResult = (
    u32,
    u32,
    Decimal,
    Decimal,
    Option<Decimal>,
    Option<Vec<Decimal>>,
);

/// Parses `"12-7 boards +420 -50 0 +1100"`: the score difference on each board from the
/// first team's side.
fn parse_board_scores(text: &str) -> Option<Result<ParsedResult, String>> {
    let (teams, scores) = text.split_once(" boards ")?;
    let shape =
        || format!("`{text}` is not a result by boards; write `home-away boards +420 -50 0 …`");
    let parsed = (|| {
        let (a, b) = teams.trim().split_once('-').ok_or_else(shape)?;
        let (a, b) = (
            a.trim().parse::<u32>().map_err(|_| shape())?,
            b.trim().parse::<u32>().map_err(|_| shape())?,
        );
        if a == b {
            return Err(format!("`{text}`: team {a} cannot play itself"));
        }
        let scores: Vec<Decimal> = scores
            .split_whitespace()
            .map(|s| {
                s.trim_start_matches('+')
                    .parse::<Decimal>()
                    .map_err(|_| shape())
            })
            .collect::<Result<_, _>>()?;
        if scores.is_empty() {
            return Err(shape());
        }
        Ok((a, b, Decimal::ZERO, Decimal::ZERO, None, Some(scores)))
    })();
    Some(parsed)
}

/// Parses `"12-7 45:12"` (spaces around `-` and `:` allowed; IMPs may have decimals),
/// optionally followed by `/15`: the match counts 15 boards (a fouled board cancelled).
pub fn parse_result(text: &str) -> Result<ParsedResult, String> {
    if let Some(by_boards) = parse_board_scores(text) {
        return by_boards;
    }
    let shape = || {
        format!(
            "`{text}` is not a result; write `home-away homeIMPs:awayIMPs`, e.g. `12-7 45:12` (or `12-7 45:12 /15` when the match counts 15 boards)"
        )
    };
    let (text, boards) = match text.split_once('/') {
        Some((r, b)) => {
            let b = b.trim();
            let n = b
                .parse::<u32>()
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| format!("`{b}` after `/` is not a number of boards"))?;
            (r, Some(Decimal::from(n)))
        }
        None => (text, None),
    };
    let (left, away_imps) = text.split_once(':').ok_or_else(shape)?;
    let left = left.trim_end();
    let cut = left.rfind(|c: char| c.is_whitespace()).ok_or_else(shape)?;
    let (teams, home_imps) = (&left[..cut], left[cut..].trim());
    let (home, away) = teams.split_once('-').ok_or_else(shape)?;
    let team = |s: &str| s.trim().parse::<u32>().map_err(|_| shape());
    let imps = |s: &str| {
        let s = s.trim();
        if let Some(m) = imps_problem(text, s) {
            return Err(m);
        }
        if s.is_empty() || !s.chars().all(|c| c.is_ascii_digit() || c == '.') {
            return Err(shape());
        }
        s.parse::<Decimal>().map_err(|_| shape())
    };
    let (home, away) = (team(home)?, team(away)?);
    if home == away {
        return Err(format!("`{text}`: team {home} cannot play itself"));
    }
    Ok((home, away, imps(home_imps)?, imps(away_imps)?, boards, None))
}

/// A specific problem with IMPs `s` written in result `text`: a negative figure or
/// a decimal comma, each with the fix.
fn imps_problem(text: &str, s: &str) -> Option<String> {
    let digits = |t: &str| !t.is_empty() && t.chars().all(|c| c.is_ascii_digit() || c == '.');
    if let Some(n) = s.strip_prefix('-').filter(|n| digits(n.trim())) {
        return Some(format!(
            "`{text}`: IMPs cannot be negative (`{s}`): each team's IMPs are what it won on its boards, 0 or more; write both teams' IMPs as scored, e.g. `0:{}` rather than `-{}:0`",
            n.trim(),
            n.trim()
        ));
    }
    if let Some((whole, frac)) = s.split_once(',')
        && digits(whole)
        && digits(frac)
    {
        return Some(format!(
            "`{text}`: `{s}` has a decimal comma; IMPs are written with a decimal point, `{whole}.{frac}`"
        ));
    }
    None
}

/// Parses seating picks `"1-7 3,1"`: in the match of teams 1 and 7 the home team
/// picked segment 3, then the away team segment 1.
pub fn parse_seating(text: &str) -> Result<(u32, u32, u32, u32), String> {
    let shape = || {
        format!(
            "`{text}` are not seating picks; write `home-away homePick,awayPick`, e.g. `1-7 3,1`"
        )
    };
    let (teams, picks) = text.trim().split_once(' ').ok_or_else(shape)?;
    let (a, b) = teams.split_once('-').ok_or_else(shape)?;
    let (h, w) = picks.split_once(',').ok_or_else(shape)?;
    let n = |s: &str| s.trim().parse::<u32>().map_err(|_| shape());
    Ok((n(a)?, n(b)?, n(h)?, n(w)?))
}

/// Parses an absent captain: `"5"` never arrives, `"5@3"` arrives before turn 3.
pub fn parse_absent(text: &str) -> Result<(u32, Option<u32>), String> {
    let shape = || {
        format!(
            "`{text}` is not an absence; write `team` (never arrives) or `team@turn` (arrives before that turn), e.g. `5@3`"
        )
    };
    match text.split_once('@') {
        None => Ok((text.trim().parse().map_err(|_| shape())?, None)),
        Some((t, k)) => {
            let turn: u32 = k.trim().parse().map_err(|_| shape())?;
            if turn == 0 {
                return Err(shape());
            }
            Ok((t.trim().parse().map_err(|_| shape())?, Some(turn)))
        }
    }
}

/// Parses `"1>29"`.
pub fn parse_choice(text: &str) -> Result<(u32, u32), String> {
    let shape = || format!("`{text}` is not a choice; write `chooser>chosen`, e.g. `1>29`");
    let (a, b) = text.split_once('>').ok_or_else(shape)?;
    let a = a.trim().parse::<u32>().map_err(|_| shape())?;
    let b = b.trim().parse::<u32>().map_err(|_| shape())?;
    Ok((a, b))
}

/// Parses a match of a recorded draw, `"12-7"`: the home team, then the away team.
pub fn parse_pair(text: &str) -> Result<(u32, u32), String> {
    let shape = || format!("`{text}` is not a match of a draw; write `home-away`, e.g. `12-7`");
    let (a, b) = text.split_once('-').ok_or_else(shape)?;
    let a = a.trim().parse::<u32>().map_err(|_| shape())?;
    let b = b.trim().parse::<u32>().map_err(|_| shape())?;
    Ok((a, b))
}

#[cfg(test)]
mod tests {
    use super::parse_result;

    #[test]
    fn negative_imps_and_a_decimal_comma_get_their_own_words() {
        let m = parse_result("12-7 -3:5").unwrap_err();
        assert!(
            m.contains("cannot be negative") && m.contains("`0:3`"),
            "{m}"
        );
        let m = parse_result("12-7 3:-5").unwrap_err();
        assert!(m.contains("cannot be negative"), "{m}");
        let m = parse_result("12-7 12,5:3").unwrap_err();
        assert!(m.contains("decimal comma") && m.contains("`12.5`"), "{m}");
        let m = parse_result("12-7 x:3").unwrap_err();
        assert!(m.contains("is not a result"), "{m}");
        assert!(parse_result("12-7 12.5:3").is_ok());
    }
}

/// One player of a line-up: the name, the boards played, and where the name stands
/// in the text (a byte range).
pub type LineupPlayer = (String, u32, std::ops::Range<usize>);

/// Parses a match's line-up for one team: `"1: Anna Berg 64, Bo Ek 32"` — the
/// team, then each player's name and the boards that player played.
pub fn parse_lineup(text: &str) -> Result<(u32, Vec<LineupPlayer>), String> {
    let shape = || {
        format!(
            "`{text}` is not a line-up; write `team: player boards, player boards, …`, e.g. `1: Anna Berg 64, Bo Ek 32`"
        )
    };
    let (team, rest) = text.split_once(':').ok_or_else(shape)?;
    let team: u32 = team.trim().parse().map_err(|_| shape())?;
    let mut players = Vec::new();
    let mut offset = team_len(text);
    for part in rest.split(',') {
        let start = offset + part.len() - part.trim_start().len();
        offset += part.len() + 1;
        let part = part.trim();
        let (name, boards) = part.rsplit_once(char::is_whitespace).ok_or_else(|| {
            format!(
                "`{part}` in line-up `{text}` names no boards; write the player's name, then the boards played, e.g. `Anna Berg 64`"
            )
        })?;
        let boards: u32 = boards.parse().map_err(|_| {
            format!(
                "`{boards}` in line-up `{text}` is not a number of boards; write a whole number after the player's name, e.g. `Anna Berg 64`"
            )
        })?;
        let name = name.trim();
        players.push((name.to_string(), boards, start..start + name.len()));
    }
    Ok((team, players))
}

/// The bytes up to and including the line-up's `:`.
fn team_len(text: &str) -> usize {
    text.find(':').map_or(0, |i| i + 1)
}

#[cfg(test)]
mod lineup_tests {
    use super::parse_lineup;

    #[test]
    fn a_line_up_gives_each_player_boards_and_where_the_name_is() {
        let text = "3: Anna Berg 64, Bo Ek 32";
        let (team, players) = parse_lineup(text).unwrap();
        assert_eq!(team, 3);
        assert_eq!(players.len(), 2);
        assert_eq!((players[1].0.as_str(), players[1].1), ("Bo Ek", 32));
        assert_eq!(&text[players[1].2.clone()], "Bo Ek");
        assert_eq!(&text[players[0].2.clone()], "Anna Berg");
        assert!(parse_lineup("3 Anna Berg 64").is_err());
        assert!(parse_lineup("3: Anna Berg").is_err());
        assert!(parse_lineup("3: Anna Berg 6.5").is_err());
    }
}
