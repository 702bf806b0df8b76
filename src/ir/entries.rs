//! The questions an entries check and an invoice ask an edition (`bfr entries
//! check`, `bfr invoice`), each with the signature its answer must have. An edition
//! says which of its rules answers each in an `entries { question = rule … }`
//! block; the checker types each rule against the signature here (E0823–E0825), so
//! a rule may have any name and parameter names of the edition's choosing.
//!
//! The enums the questions pass variants of are the edition's too: the block says
//! which enum plays each role (`district = District`), so a variant edition may
//! name its enums as it likes (E0826 a role not given or given something else).
//! So are the competitions a team enters: the block says which of the edition's
//! competitions take a team asked the `cc_…` questions (`cc_team = cup`) and which
//! the `lv_…` questions (`lv_team = [lv_series, lv_ko]`), so an entries file names a
//! team's competition as the edition declares it (E0827 a role naming no
//! competition, E0828 a competition named by two roles).

use super::{Program, Type};
use std::collections::BTreeMap;

/// What an edition's enum (or one of its variants) plays in the questions.
#[derive(Debug, Clone, Copy)]
pub struct Role {
    /// The key written in the `entries` block.
    pub key: &'static str,
    /// What it holds, in words.
    pub what: &'static str,
    /// An enum, or a variant of the enum of another role.
    pub kind: RoleKind,
}

/// Whether a role is played by an enum, by one variant of a role's enum, or by
/// competitions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoleKind {
    /// An enum of the edition.
    Enum,
    /// A variant of the enum playing role `of`.
    Variant {
        /// The enum role the variant belongs to.
        of: &'static str,
    },
    /// One competition of the edition, or a list of them: the competitions a team
    /// entry of one form enters.
    Competitions,
}

/// Every role, in the order docs/entries.md lists them.
pub const ROLES: &[Role] = &[
    Role {
        key: "district",
        what: "the districts",
        kind: RoleKind::Enum,
    },
    Role {
        key: "sm_event",
        what: "the SM disciplines with district quotas",
        kind: RoleKind::Enum,
    },
    Role {
        key: "sm_stage",
        what: "the SM stages played at the festival",
        kind: RoleKind::Enum,
    },
    Role {
        key: "sm_veteran",
        what: "the veterans' SM discipline",
        kind: RoleKind::Variant { of: "sm_event" },
    },
    Role {
        key: "cc_team",
        what: "the competitions whose teams are asked the `cc_…` questions (district teams, a round-3 start, a fee from the knockout on)",
        kind: RoleKind::Competitions,
    },
    Role {
        key: "lv_team",
        what: "the competitions whose teams are asked the `lv_…` questions (players' birth years, a late start, one team fee)",
        kind: RoleKind::Competitions,
    },
];

/// The roles a team entry's competition may play, in the order of [`ROLES`].
pub const TEAM_ROLES: [&str; 2] = ["cc_team", "lv_team"];

/// The role with this key.
pub fn role(key: &str) -> Option<&'static Role> {
    ROLES.iter().find(|r| r.key == key)
}

/// What plays each role, by key: the enum (and, for a variant role, the variant),
/// or the competitions.
#[derive(
    Debug,
    Clone,
    Default,
    PartialEq,
    Eq,
    serde::Serialize,
    borsh::BorshSerialize,
    borsh::BorshDeserialize,
)]
pub struct Roles {
    /// The enum (and variant) of each enum or variant role.
    pub enums: BTreeMap<String, (u32, Option<u32>)>,
    /// The competitions (indices into the program's competitions, in the order the
    /// block writes them) of each competition role.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub competitions: BTreeMap<String, Vec<u32>>,
}

impl Roles {
    /// The enum playing role `key`, if the edition gives one.
    pub fn enum_of(&self, key: &str) -> Option<u32> {
        self.enums.get(key).map(|(e, _)| *e)
    }

    /// The variant playing role `key` (with its enum), if the edition gives one.
    pub fn variant_of(&self, key: &str) -> Option<(u32, u32)> {
        self.enums.get(key).and_then(|(e, v)| v.map(|v| (*e, v)))
    }

    /// The competitions playing role `key` (none where the edition gives none).
    pub fn competitions_of(&self, key: &str) -> &[u32] {
        self.competitions.get(key).map_or(&[], Vec::as_slice)
    }

    /// The competition role that names competition `c`, if one does.
    pub fn team_role_of(&self, c: u32) -> Option<&'static str> {
        TEAM_ROLES
            .into_iter()
            .find(|key| self.competitions_of(key).contains(&c))
    }

    /// Whether no role is given.
    pub fn is_empty(&self) -> bool {
        self.enums.is_empty() && self.competitions.is_empty()
    }
}

/// What a question passes for one parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Param {
    /// A count or quantity: a number in the unit the rule declares.
    Count,
    /// A truth value.
    Bool,
    /// A date and time (a rule may take the date alone).
    Stamp,
    /// A variant of the enum playing this role (a key of [`ROLES`]).
    Enum(&'static str),
}

/// What the answer must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// `true` or `false`.
    Bool,
    /// A number in any unit (a count of places).
    Number,
    /// An amount of money (a fee, a subsidy): every such answer of an edition is
    /// in one currency, since an invoice adds them.
    Amount,
    /// A record of the edition's (its fields are read by name).
    Record,
}

/// One question: its key, what it passes, what it wants back.
#[derive(Debug, Clone, Copy)]
pub struct Question {
    /// The key written in the `entries` block.
    pub key: &'static str,
    /// The parameters, in the order the rule takes them: (what it is, its kind).
    pub params: &'static [(&'static str, Param)],
    /// The answer.
    pub answer: Answer,
}

const fn q(
    key: &'static str,
    params: &'static [(&'static str, Param)],
    answer: Answer,
) -> Question {
    Question {
        key,
        params,
        answer,
    }
}

use Answer::{Amount as A, Bool as B, Number as N};
use Param::{Bool, Count, Enum, Stamp};

/// Every question, in the order docs/entries.md lists them.
pub const QUESTIONS: &[Question] = &[
    q("cc_team_size_allowed", &[("players", Count)], B),
    q(
        "cc_player_eligible",
        &[
            ("paid_membership", Bool),
            ("member_of_other_national_federation", Bool),
        ],
        B,
    ),
    q("cc_registration_in_time", &[("registered_at", Stamp)], B),
    q(
        "cc_is_district_team",
        &[
            ("players_in_earlier_cc", Count),
            ("all_players_same_district", Bool),
            ("bears_district_name", Bool),
        ],
        B,
    ),
    q(
        "cc_may_start_in_round_3",
        &[
            ("players_not_in_sm_par_veteran", Count),
            ("pre_registered", Bool),
        ],
        B,
    ),
    q(
        "lv_may_start_late",
        &[
            ("players_not_in_cc_bc_playoff", Count),
            ("pre_registered", Bool),
        ],
        B,
    ),
    q(
        "lv_team_valid",
        &[("players", Count), ("all_members", Bool)],
        B,
    ),
    q("lv_player_eligible", &[("birth_year", Count)], B),
    q("lv_registration_in_time", &[("registered_at", Stamp)], B),
    q("lv_team_fee", &[("plays_playoff", Bool)], A),
    q(
        "is_junior",
        &[("birth_year", Count), ("season_year", Count)],
        B,
    ),
    q(
        "is_veteran",
        &[("birth_year", Count), ("season_year", Count)],
        B,
    ),
    q(
        "sm_member_fee_in_time",
        &[("paid_at", Stamp), ("starts", Stamp)],
        B,
    ),
    q(
        "sm_pair_disqualified_for_membership",
        &[("first_paid_in_time", Bool), ("second_paid_in_time", Bool)],
        B,
    ),
    q("sm_may_start_in_qualifier", &[("earlier_starts", Count)], B),
    q("sm_has_last_chance", &[("event", Enum("sm_event"))], B),
    q(
        "sm_keeps_district_place",
        &[("entered_last_chance", Bool)],
        B,
    ),
    q("sm_may_join_qualifier", &[("session", Count)], B),
    q(
        "sm_double_qualification",
        &[("players_qualified_before", Count)],
        Answer::Record,
    ),
    q(
        "sm_pair_qualified",
        &[
            ("stages_together_without_reserve", Count),
            ("a_regular_player_in_every_session", Bool),
        ],
        B,
    ),
    q(
        "sm_reserve_allowed_in_final",
        &[("reason_arose_after_start", Bool)],
        B,
    ),
    q(
        "sm_in_competition_with_reserve",
        &[("reserve_used", Bool)],
        B,
    ),
    q(
        "sm_deceased_replaceable",
        &[
            ("last_years_champion", Bool),
            ("district_qualifier_played", Bool),
            ("reserve_meets_criteria", Bool),
        ],
        B,
    ),
    q(
        "cc_gh_entry_fee_for",
        &[
            ("seniors", Count),
            ("juniors", Count),
            ("district_team", Bool),
        ],
        A,
    ),
    q("cc_gh_fee_late_surcharge", &[("paid_at", Stamp)], A),
    q("cc_ko_fee", &[], A),
    q("cc_ko_fee_late_surcharge", &[("paid_at", Stamp)], A),
    q("sm_start_fee_per_pair", &[("event", Enum("sm_event"))], A),
    q("sm_last_chance_fee_per_pair", &[("cash", Bool)], A),
    q(
        "sm_table_fee_per_pair",
        &[("event_stage", Enum("sm_stage"))],
        A,
    ),
    q(
        "sm_table_fee_in_time",
        &[("event_stage", Enum("sm_stage")), ("paid_at", Stamp)],
        B,
    ),
    q(
        "sm_travel_subsidy_for",
        &[
            ("event_stage", Enum("sm_stage")),
            ("district", Enum("district")),
            ("in_first_open_allotment", Bool),
        ],
        A,
    ),
    q("sm_emfund_contribution", &[("pairs", Count)], A),
    q(
        "sm_missed_replacement_charge",
        &[("event", Enum("sm_event")), ("replacement_reported", Bool)],
        A,
    ),
    q("sm_open_first_allotment", &[], N),
];

/// The question with this key.
pub fn question(key: &str) -> Option<&'static Question> {
    QUESTIONS.iter().find(|q| q.key == key)
}

/// Whether a rule's parameter of type `ty` takes what `param` passes, the enums
/// playing each role given by `roles`.
pub fn fits(roles: &Roles, param: Param, ty: &Type) -> bool {
    match (param, ty) {
        (Param::Count, Type::Num(_)) | (Param::Bool, Type::Bool) => true,
        (Param::Stamp, Type::DateTime | Type::Date) => true,
        (Param::Enum(role), Type::Enum(e)) => roles.enum_of(role) == Some(*e),
        _ => false,
    }
}

/// Whether an answer of type `ty` is what `answer` wants.
pub fn answers(answer: Answer, ty: &Type) -> bool {
    matches!(
        (answer, ty),
        (Answer::Bool, Type::Bool)
            | (Answer::Number | Answer::Amount, Type::Num(_))
            | (Answer::Record, Type::Record(_))
    )
}

/// A parameter's kind in words, for a diagnostic: an enum by the name the
/// edition gives the enum playing its role.
pub fn words(program: &Program, roles: &Roles, param: Param) -> String {
    match param {
        Param::Count => "a number".into(),
        Param::Bool => "`bool`".into(),
        Param::Stamp => "a `datetime` (or `date`)".into(),
        Param::Enum(role) => match roles
            .enum_of(role)
            .and_then(|e| program.enums.get(e as usize))
        {
            Some(e) => format!("`{}`", e.name),
            None => format!("the enum playing `{role}`"),
        },
    }
}

/// An answer's kind in words.
pub fn answer_words(answer: Answer) -> &'static str {
    match answer {
        Answer::Bool => "`bool`",
        Answer::Number => "a number",
        Answer::Amount => "an amount (a number in the edition's currency)",
        Answer::Record => "a record",
    }
}
