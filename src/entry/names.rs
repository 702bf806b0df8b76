//! The competitions an entries file names: a team's competition and a player's
//! other events, found among what the edition declares (its competitions by name or
//! title, the roles of its `entries` block), never among names written in bfr.

use super::model::{Enums, OtherEvent, TeamKind};
use crate::diag::Diagnostic;
use crate::ir::Program;
use crate::ir::entries::TEAM_ROLES;
use crate::source::Span;

/// The competition whose name or title is `written`, as [`crate::names::find_one`]
/// finds it.
pub(crate) fn competition(program: &Program, written: &str) -> Option<u32> {
    let cs = &program.competitions;
    let spellings = |i: usize| [cs[i].name.as_str(), cs[i].title.as_str()];
    u32::try_from(crate::names::find_one(cs.len(), written, spellings)?).ok()
}

/// The competitions the edition's team roles name, in the roles' order.
pub(super) fn team_competitions(program: &Program) -> Vec<u32> {
    TEAM_ROLES
        .iter()
        .flat_map(|k| program.entry_roles.competitions_of(k))
        .copied()
        .collect()
}

/// A competition's title, as the document writes it.
pub(super) fn title(program: &Program, c: u32) -> &str {
    program
        .competitions
        .get(c as usize)
        .map_or("", |c| c.title.as_str())
}

/// The initials of a title's words, `Chairman's Cup` → `cc`: what a director may
/// write for a competition, offered as a suggestion only (two titles may share them).
fn initials(title: &str) -> String {
    title
        .split_whitespace()
        .filter_map(|w| w.chars().find(|c| c.is_alphanumeric()))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The title (or, where it has none of its own, the name) of the competition of
/// `among` nearest to `written`, by its name, its title or its title's initials.
pub(crate) fn nearest(program: &Program, among: &[u32], written: &str) -> Option<String> {
    let mut spelled: Vec<(String, u32)> = Vec::new();
    for &c in among {
        let Some(comp) = program.competitions.get(c as usize) else {
            continue;
        };
        spelled.push((comp.name.clone(), c));
        spelled.push((comp.title.clone(), c));
        spelled.push((initials(&comp.title), c));
    }
    let near = crate::names::nearest(written, spelled.iter().map(|(s, _)| s.as_str()))?;
    let c = spelled.iter().find(|(s, _)| s == near).map(|(_, c)| *c)?;
    Some(title(program, c).to_string())
}

/// `` `cup` (Chairman's Cup), `lv` (Lag) ``: each competition by name and title.
pub(crate) fn listed(program: &Program, cs: &[u32]) -> String {
    let shown: Vec<String> = cs
        .iter()
        .filter_map(|&c| program.competitions.get(c as usize))
        .map(|c| {
            if c.title == c.name {
                format!("`{}`", c.name)
            } else {
                format!("`{}` ({})", c.name, c.title)
            }
        })
        .collect();
    shown.join(", ")
}

/// A team's `competition`: a competition a team role names, with the form that
/// role gives; else E0801 (no such team competition: the edition's team
/// competitions listed, the nearest offered) or E0802 (the edition's `entries`
/// block leaves a team role out).
pub(super) fn team_competition(
    program: &Program,
    forms: &[(&str, TeamKind)],
    written: &str,
    at: Span,
) -> Result<(TeamKind, u32), Diagnostic> {
    let roles = &program.entry_roles;
    let found = competition(program, written);
    if let Some(c) = found
        && let Some(role) = roles.team_role_of(c)
        && let Some((_, kind)) = forms.iter().find(|(k, _)| *k == role)
    {
        return Ok((*kind, c));
    }
    let teams = team_competitions(program);
    let missing: Vec<&str> = TEAM_ROLES
        .into_iter()
        .filter(|k| !roles.competitions.contains_key(*k))
        .collect();
    if !missing.is_empty() && (found.is_some() || teams.is_empty()) {
        let what = match found {
            Some(c) => format!(
                "the edition does not say which questions a team entered in {} is asked",
                title(program, c)
            ),
            None => "the edition does not say which competitions teams are entered in".into(),
        };
        let needs: Vec<String> = missing.iter().map(|k| format!("`{k} = …`")).collect();
        return Err(Diagnostic::error("E0802", what, at)
            .with_label("checking this team needs it")
            .with_help(format!(
                "the edition's `entries` block needs {} naming its team competitions (docs/entries.md)",
                needs.join(" and ")
            )));
    }
    let what = if found.is_some() {
        "a competition teams are entered in"
    } else {
        "a team competition of the edition"
    };
    let listed = listed(program, &teams);
    let help = match nearest(program, &teams, written) {
        Some(n) => format!("did you mean `{n}`? The edition's team competitions: {listed}"),
        None => format!(
            "write the name or the title of one of the edition's team competitions: {listed}"
        ),
    };
    Err(
        Diagnostic::error("E0801", format!("`{}` is not {what}", written.trim()), at)
            .with_label(format!("not {what}"))
            .with_help(help),
    )
}

/// One of a player's `other_events`: an SM discipline (a variant of the
/// `sm_event` role's enum, by name or label), or a competition of the `cc_team`
/// role (by name or title), whose knockout the player plays; else E0801.
pub(super) fn other_event(
    program: &Program,
    enums: Enums,
    written: &str,
    at: Span,
) -> Result<OtherEvent, Diagnostic> {
    if let Some(v) = crate::federation::variant(program, enums.event, written) {
        return Ok(OtherEvent::Discipline(v));
    }
    let knockouts = program.entry_roles.competitions_of("cc_team");
    if let Some(c) = competition(program, written)
        && knockouts.contains(&c)
    {
        return Ok(OtherEvent::Knockout(c));
    }
    let veteran = program.enums.get(enums.event as usize).and_then(|info| {
        let v = enums.veteran as usize;
        info.labels
            .get(v)
            .cloned()
            .flatten()
            .or_else(|| info.variants.get(v).cloned())
    });
    let mut help = String::from("write an SM discipline");
    if let Some(v) = &veteran {
        help.push_str(&format!(" (`{v}`)"));
    }
    if !knockouts.is_empty() {
        let titles: Vec<String> = knockouts
            .iter()
            .map(|&c| format!("`{}`", title(program, c)))
            .collect();
        help.push_str(&format!(
            ", or a competition whose knockout the player plays ({})",
            titles.join(", ")
        ));
    }
    if let Some(n) = nearest(program, knockouts, written) {
        help = format!("did you mean `{n}`? {help}");
    }
    Err(Diagnostic::error(
        "E0801",
        format!("`{}` is not an event entries know", written.trim()),
        at,
    )
    .with_label("not an event entries know")
    .with_help(help))
}

#[cfg(test)]
mod tests {
    use super::initials;

    #[test]
    fn initials_take_the_first_letter_of_each_word() {
        assert_eq!(initials("Kvarnens Kanna"), "kk");
        assert_eq!(initials("  Öppna Tävlingen i Lag "), "ötil");
        assert_eq!(initials("'Norra' Pokalen"), "np");
        assert_eq!(initials(""), "");
    }
}
