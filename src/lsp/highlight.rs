//! Semantic tokens: the lossless token stream `bfr fmt` lays out (so comments,
//! strings, numbers and keywords are exactly the formatter's), with each name
//! coloured by what it resolves to in the edition's index.

use super::index::{DefKind, Index};
use super::position::LineIndex;
use super::store::Analysis;
use crate::syntax::format::tokens::Kind;
use logos::Logos;
use lsp_types::{SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokensLegend};

/// The token types, in the order their numbers refer to.
pub const TYPES: &[SemanticTokenType] = &[
    SemanticTokenType::KEYWORD,
    SemanticTokenType::FUNCTION,
    SemanticTokenType::VARIABLE,
    SemanticTokenType::ENUM_MEMBER,
    SemanticTokenType::TYPE,
    SemanticTokenType::NUMBER,
    SemanticTokenType::STRING,
    SemanticTokenType::COMMENT,
    SemanticTokenType::PROPERTY,
    SemanticTokenType::NAMESPACE,
    SemanticTokenType::DECORATOR,
];

/// The modifiers, in the order of their bits.
pub const MODIFIERS: &[SemanticTokenModifier] = &[
    SemanticTokenModifier::DECLARATION,
    SemanticTokenModifier::DOCUMENTATION,
];

/// The legend announced at initialisation.
pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: TYPES.to_vec(),
        token_modifiers: MODIFIERS.to_vec(),
    }
}

fn type_number(t: &SemanticTokenType) -> u32 {
    let at = TYPES.iter().position(|x| x == t).unwrap_or(0);
    u32::try_from(at).unwrap_or(0)
}

const DECLARATION: u32 = 1;
const DOCUMENTATION: u32 = 2;

/// The token type of a name that resolves to a definition of this kind.
fn of_kind(kind: DefKind) -> SemanticTokenType {
    match kind {
        DefKind::Fn | DefKind::Table | DefKind::Scale | DefKind::Procedure => {
            SemanticTokenType::FUNCTION
        }
        DefKind::Const => SemanticTokenType::VARIABLE,
        DefKind::Enum | DefKind::Record | DefKind::Unit => SemanticTokenType::TYPE,
        DefKind::Variant => SemanticTokenType::ENUM_MEMBER,
        DefKind::Field => SemanticTokenType::PROPERTY,
        DefKind::Competition | DefKind::Stage => SemanticTokenType::NAMESPACE,
    }
}

/// The semantic tokens of file `file`, delta-encoded as LSP sends them.
pub fn tokens(a: &Analysis, file: usize) -> Vec<SemanticToken> {
    let Some(f) = a.files.get(file) else {
        return Vec::new();
    };
    let text = f.text.as_str();
    // The index's places are offsets into the text its tree came from; they
    // colour names only when that is the text shown.
    let current = f.tree.as_ref().is_some_and(|(t, _)| t == text);
    let ix = LineIndex::new(text);
    let mut out = Encoder::default();
    let mut lexer = Kind::lexer(text);
    let mut previous_dot = false;
    let mut unit = InUnit::Outside;
    while let Some(kind) = lexer.next() {
        let span = lexer.span();
        let word = lexer.slice();
        // A character no token starts with (a half-typed file) is passed over.
        let Ok(kind) = kind else {
            previous_dot = false;
            continue;
        };
        let class = match kind {
            Kind::Comment => {
                let doc = word.starts_with("///") && !word.starts_with("////");
                Some((
                    SemanticTokenType::COMMENT,
                    if doc { DOCUMENTATION } else { 0 },
                ))
            }
            Kind::Str => Some((SemanticTokenType::STRING, 0)),
            Kind::Number | Kind::Date | Kind::Clock => Some((SemanticTokenType::NUMBER, 0)),
            Kind::RuleId | Kind::Pages => Some((SemanticTokenType::DECORATOR, 0)),
            // `refer` and `notice` are keywords before text, names elsewhere.
            Kind::Word
                if crate::syntax::RESERVED.contains(&word)
                    && (!crate::syntax::KEYWORDS_BEFORE_TEXT.contains(&word)
                        || text_follows(&lexer)) =>
            {
                Some((SemanticTokenType::KEYWORD, 0))
            }
            // A keyword only where it stands: a name where the index has it as
            // one (`out(3)` of a fn named `out`, not a route's `-> out`); in
            // text the index was not made from, a name if the edition has one.
            Kind::Word
                if crate::syntax::CONTEXTUAL.contains(&word)
                    && (word != "count" || unit == InUnit::Flags)
                    && if current {
                        a.index.exactly(file, span.start, span.end).is_none()
                    } else {
                        a.index.global(word).is_none()
                    } =>
            {
                Some((SemanticTokenType::KEYWORD, 0))
            }
            Kind::Word => Some(name(
                &a.index,
                file,
                current,
                span.clone(),
                word,
                previous_dot,
            )),
            _ => None,
        };
        previous_dot = kind == Kind::Dot;
        unit = unit.after(kind, word);
        if let Some((t, modifiers)) = class {
            out.push(&ix, text, span.start, span.end, type_number(&t), modifiers);
        }
    }
    out.tokens
}

/// Whether the next token, past spaces, line breaks and comments, is text.
fn text_follows(lexer: &logos::Lexer<'_, Kind>) -> bool {
    let next = lexer
        .clone()
        .find(|k| !matches!(k, Ok(Kind::Space | Kind::Newline | Kind::Comment)));
    next == Some(Ok(Kind::Str))
}

/// What a name is: as the index resolved it here, else by its name alone.
fn name(
    index: &Index,
    file: usize,
    current: bool,
    span: std::ops::Range<usize>,
    word: &str,
    after_dot: bool,
) -> (SemanticTokenType, u32) {
    if current
        && let Some(o) = index.exactly(file, span.start, span.end)
        && let Some(d) = index.defs.get(o.def)
    {
        return (of_kind(d.kind), if o.is_def { DECLARATION } else { 0 });
    }
    match index.global(word).and_then(|d| index.defs.get(d)) {
        Some(d) if !after_dot => (of_kind(d.kind), 0),
        _ => (SemanticTokenType::VARIABLE, 0),
    }
}

/// Delta encoding; a token over several lines (a long string) is one token a line.
#[derive(Default)]
struct Encoder {
    tokens: Vec<SemanticToken>,
    line: u32,
    column: u32,
}

impl Encoder {
    fn push(
        &mut self,
        ix: &LineIndex<'_>,
        text: &str,
        start: usize,
        end: usize,
        token_type: u32,
        modifiers: u32,
    ) {
        let mut from = start;
        while from < end {
            // A line ends at `\n` or `\r` (a lone one too, as LSP counts lines);
            // the `\n` of a `\r\n` then gives a piece of no length.
            let line_end = text
                .get(from..end)
                .and_then(|s| s.find(['\r', '\n']))
                .map_or(end, |i| from + i);
            let (a, b) = (ix.position(from), ix.position(line_end));
            if b.character > a.character {
                let delta_line = a.line.saturating_sub(self.line);
                let delta_start = if delta_line == 0 {
                    a.character.saturating_sub(self.column)
                } else {
                    a.character
                };
                self.tokens.push(SemanticToken {
                    delta_line,
                    delta_start,
                    length: b.character.saturating_sub(a.character),
                    token_type,
                    token_modifiers_bitset: modifiers,
                });
                self.line = a.line;
                self.column = a.character;
            }
            from = line_end + 1;
        }
    }
}

/// Where the scanner stands in a unit declaration: among its flags is the one
/// place `count` is a keyword; everywhere else it is a common name (a
/// parameter, a field) the index does not hold. A declaration may be laid out
/// over several lines, with comments between its words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum InUnit {
    Outside,
    /// After `unit`: the unit's name comes next.
    Name,
    /// After the name: its description and flags.
    Flags,
    /// After `alias`: other names.
    Aliases,
}

impl InUnit {
    /// Where the scanner stands after token `kind`, whose text is `word`.
    fn after(self, kind: Kind, word: &str) -> InUnit {
        match (self, kind) {
            (_, Kind::Space | Kind::Newline | Kind::Comment) => self,
            (_, Kind::Word) if word == "unit" => InUnit::Name,
            (InUnit::Name, Kind::Percent) | (InUnit::Flags, Kind::Str) => self,
            (InUnit::Name, Kind::Word) => InUnit::Flags,
            (InUnit::Flags, Kind::Word) if word == "whole" || word == "count" => self,
            (InUnit::Flags, Kind::Word) if word == "alias" => InUnit::Aliases,
            (InUnit::Aliases, Kind::Comma | Kind::Percent) => self,
            (InUnit::Aliases, Kind::Word) if !crate::syntax::RESERVED.contains(&word) => self,
            _ => InUnit::Outside,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::store::Store;
    use super::*;

    #[test]
    fn a_token_over_line_breaks_is_one_token_a_line() {
        // A comment the scanner reads past a lone `\r`, and one past `\r\n`.
        for text in ["// ab\rcde", "// ab\r\ncde"] {
            let ix = LineIndex::new(text);
            let mut encoder = Encoder::default();
            encoder.push(&ix, text, 0, text.len(), 1, 0);
            let pieces: Vec<(u32, u32, u32)> = encoder
                .tokens
                .iter()
                .map(|t| (t.delta_line, t.delta_start, t.length))
                .collect();
            assert_eq!(pieces, [(0, 0, 5), (1, 0, 3)], "{text:?}");
        }
    }

    /// The token types of each `word` in an edition of one file, `text`, in
    /// order (the edition is written to a directory of its own, `tag`).
    fn types_of(tag: &str, text: &str, word: &str) -> Vec<SemanticTokenType> {
        let d = std::env::temp_dir().join(format!("bfr-highlight-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("edition.bfr"), text).unwrap();
        let mut store = Store::default();
        let words = typed_words(store.refresh(&d), 0);
        std::fs::remove_dir_all(&d).unwrap();
        words
            .into_iter()
            .filter(|(x, _)| x == word)
            .map(|(_, t)| t)
            .collect()
    }

    /// The words of file `file` with their token types, in order.
    fn typed_words(a: &Analysis, file: usize) -> Vec<(String, SemanticTokenType)> {
        let lines: Vec<&str> = a.files[file].text.lines().collect();
        let (mut line, mut col) = (0usize, 0usize);
        let mut out = Vec::new();
        for t in tokens(a, file) {
            if t.delta_line > 0 {
                col = 0;
            }
            line += t.delta_line as usize;
            col += t.delta_start as usize;
            let word = lines[line].get(col..col + t.length as usize).unwrap_or("");
            out.push((word.to_string(), TYPES[t.token_type as usize].clone()));
        }
        out
    }

    /// A word that is a keyword only where it stands is coloured as the name
    /// it is where it is one; reserved words are always keywords.
    #[test]
    fn a_fn_named_like_a_contextual_keyword_is_a_function() {
        let text = "edition \"Sample\" {\n  source \"a sample\"\n}\nunit SEK \"kronor\"\n\
                    /// Out.\nfn out(x: SEK) -> SEK ref X-1 = x\n\
                    /// A.\nconst a: SEK ref X-2 = out(1 SEK)\n\
                    /// Source.\nconst source: SEK ref X-3 = 2 SEK\n";
        let of = |w: &str| types_of("contextual", text, w);
        assert_eq!(of("out"), [SemanticTokenType::FUNCTION; 2]);
        // The header's `source` is a keyword, the const's name a name.
        assert_eq!(
            of("source"),
            [SemanticTokenType::KEYWORD, SemanticTokenType::VARIABLE]
        );
        assert_eq!(of("fn"), [SemanticTokenType::KEYWORD]);
    }

    /// `count` is a keyword among a unit's flags, and a name everywhere else.
    #[test]
    fn count_is_a_keyword_only_where_a_unit_is_declared() {
        // The second declaration is laid over lines; the third's unit is
        // named `count` and counted, and an alias is named `count` too.
        let text = "unit widget count alias widgets\n\
                    unit gadget \"gadgets\"\n  // counted\n  count\n  alias gadgets\n\
                    unit count count alias counts\nunit %pip alias pips, count\n\
                    record Box { count: widget }\n\
                    /// Price.\nfn price(count: widget) -> widget ref X-1 = count\n";
        let types = types_of("count", text, "count");
        use SemanticTokenType as T;
        let keyword = T::KEYWORD;
        assert_eq!(types.len(), 8, "{types:?}");
        assert_eq!(
            types[..4],
            [keyword.clone(), keyword.clone(), T::TYPE, keyword],
            "{types:?}"
        );
        assert!(!types[4..].contains(&T::KEYWORD), "{types:?}");
    }

    #[test]
    fn refer_is_a_keyword_before_text_and_a_function_called() {
        let text = "edition \"Sample\" {\n  source \"a sample\"\n}\nunit SEK \"kronor\"\n\
                    /// Refer.\nfn refer(x: SEK) -> SEK ref X-1 = x\n\
                    /// A.\nconst a: SEK ref X-2 = refer(1 SEK)\n\
                    /// P.\nconst p: penalty ref X-3 = refer \"the board\"\n";
        assert_eq!(
            types_of("refer", text, "refer"),
            [
                SemanticTokenType::FUNCTION,
                SemanticTokenType::FUNCTION,
                SemanticTokenType::KEYWORD
            ]
        );
    }
}
