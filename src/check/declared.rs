//! A competition as the edition writes it, before its properties are typed:
//! what the routing and date checks and `competition.stage.property` paths read.
//! `check::typing` turns it into the typed [`crate::ir::Competition`].

use crate::ir::{Expr, SourceInfo};
use crate::source::Span;

/// A property as written: its key and its value.
#[derive(Debug, Clone, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct Property {
    /// The key.
    pub key: String,
    /// The checked value expression.
    pub value: Expr,
}

impl Property {
    /// The property `key` of a list, if given.
    pub fn find<'a>(props: &'a [Property], key: &str) -> Option<&'a Property> {
        props.iter().find(|p| p.key == key)
    }
}

/// A competition as written: its properties still expressions, its stages in
/// declaration order.
#[derive(Debug, Clone, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct Declared {
    /// Its name.
    pub name: String,
    /// Its title as the document writes it.
    pub title: Option<String>,
    /// Where it comes from.
    pub source: Option<SourceInfo>,
    /// Where it is declared.
    pub span: Span,
    /// Competition-wide properties.
    pub properties: Vec<Property>,
    /// Stages in declaration order.
    pub stages: Vec<DeclaredStage>,
}

/// A qualification or knockout stage.
#[derive(Debug, Clone, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct DeclaredStage {
    /// Its name.
    pub name: String,
    /// Its title as the document writes it.
    pub title: Option<String>,
    /// A ranked qualification rather than a knockout.
    pub qualification: bool,
    /// Where it comes from.
    pub source: Option<SourceInfo>,
    /// Properties (boards, day, screens, system, …).
    pub properties: Vec<Property>,
    /// Where its teams go.
    pub routes: Vec<Route>,
    /// Where it is declared.
    pub span: Span,
}

/// Who goes where after a stage.
#[derive(Debug, Clone, PartialEq, Eq, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub struct Route {
    /// `winners`, `losers`, `rest`, or `places a..b`.
    pub from: RouteFrom,
    /// A stage, out, or a final place.
    pub to: RouteTarget,
}

/// The group a route moves.
#[derive(Debug, Clone, PartialEq, Eq, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub enum RouteFrom {
    /// The winners of each match.
    Winners,
    /// The losers of each match.
    Losers,
    /// Everyone not routed otherwise.
    Rest,
    /// Places `a..=b` of a qualification.
    Places(u32, u32),
}

/// Where a route goes.
#[derive(Debug, Clone, PartialEq, Eq, borsh::BorshSerialize, borsh::BorshDeserialize)]
pub enum RouteTarget {
    /// The stage with this index in the same competition.
    Stage(u32),
    /// Out of the competition.
    Out,
    /// Final place `a`, shared up to `b`.
    Place(u32, u32),
}
