//! `bfr lsp`: a language server for `.bfr` editions over stdio, on
//! `lsp-server` (the synchronous JSON-RPC loop rust-analyzer uses) and
//! `lsp-types`, with a transport of its own that reads with bounds
//! (`transport`).
//!
//! It sits at the edge, like the CLI: it loads and checks an edition with the
//! same code as `bfr check` (`store`), turns the diagnostics into LSP ones
//! (`diagnostics`), indexes names across the edition's files (`index`) for
//! definition, references (`navigate`), hover (`hover`), completion
//! (`complete`), document symbols (`symbols`) and semantic tokens
//! (`highlight`), and formats through `bfr fmt`'s code. Positions are UTF-16
//! columns (`position`).
//!
//! A half-typed file is the normal case: nothing here panics on bad input, and a
//! request about a file that is not a `.bfr` file answers empty.

mod complete;
mod diagnostics;
mod handshake;
mod highlight;
mod hover;
mod index;
mod navigate;
mod position;
mod store;
mod symbols;
mod transport;
mod uri;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, DidSaveTextDocument,
    Notification as _, PublishDiagnostics,
};
use lsp_types::request::{
    Completion, DocumentSymbolRequest, Formatting, GotoDefinition, HoverRequest, References,
    Request as _, SemanticTokensFullRequest,
};
use lsp_types::{
    CompletionOptions, GotoDefinitionResponse, OneOf, PublishDiagnosticsParams, SemanticTokens,
    SemanticTokensFullOptions, SemanticTokensOptions, SemanticTokensResult,
    SemanticTokensServerCapabilities, ServerCapabilities, ServerInfo, TextDocumentSyncCapability,
    TextDocumentSyncKind, TextEdit, Uri,
};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use store::{Analysis, Store};

/// What a document's changes come to.
#[derive(Debug, PartialEq, Eq)]
enum Changed {
    /// Its text after them.
    Text(String),
    /// Nothing to apply: no change, or a range of a document whose text is
    /// unknown here (never opened).
    Nothing,
    /// Changes of ranges that would take longer to apply than a server may
    /// keep its editor waiting (each indexes the text it edits): the text
    /// before them no longer stands for the document.
    TooCostly,
}

/// The bytes one notification's changes of ranges may walk over: four times
/// the largest file, about a second of work.
const MAX_CHANGE_WORK: usize = 4 * crate::syntax::MAX_FILE_BYTES;

/// A document's text after its changes, in order, from its text `before` if
/// it is open. The server asks for whole texts (full synchronisation), but a
/// client that sends a change of a range anyway has it applied where it says,
/// not taken for the whole text, as long as the work stays within
/// `max_work` bytes walked.
fn changed_text(
    before: Option<&str>,
    changes: Vec<lsp_types::TextDocumentContentChangeEvent>,
    max_work: usize,
) -> Changed {
    let Some(first) = changes.first() else {
        return Changed::Nothing;
    };
    let mut text = match before {
        Some(text) => text.to_string(),
        None if first.range.is_none() => String::new(),
        None => return Changed::Nothing,
    };
    let mut work = 0usize;
    for change in changes {
        match change.range {
            None => text = change.text,
            Some(range) => {
                work = work.saturating_add(text.len().saturating_add(change.text.len()));
                if work > max_work {
                    return Changed::TooCostly;
                }
                let ix = position::LineIndex::new(&text);
                let (a, b) = (ix.offset(range.start), ix.offset(range.end));
                text.replace_range(a.min(b)..a.max(b), &change.text);
            }
        }
    }
    Changed::Text(text)
}

/// How a session with an editor ended; the CLI turns it into an exit status
/// (LSP asks for 0 after a `shutdown` request and 1 otherwise).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// The client asked for `shutdown`, then `exit`.
    AfterShutdown,
    /// The client said `exit` without `shutdown`, broke the protocol, or the
    /// input ended.
    WithoutShutdown,
    /// The connection could not be written to or read from.
    ConnectionBroke,
}

/// Runs the server on stdin and stdout until the client says `exit` or its
/// input ends.
pub fn run() -> Ended {
    let (connection, transport) = transport::stdio();
    let capabilities = match serde_json::to_value(capabilities()) {
        Ok(c) => c,
        Err(_) => return Ended::ConnectionBroke,
    };
    let init = serde_json::json!({
        "capabilities": capabilities,
        "serverInfo": ServerInfo {
            name: "bfr".into(),
            version: Some(env!("CARGO_PKG_VERSION").into()),
        },
    });
    let status = match handshake::handshake(&connection, init) {
        handshake::Started::Ready => Server::default().serve(&connection),
        handshake::Started::Refused(why) => {
            eprintln!("bfr lsp: {why}");
            Ended::WithoutShutdown
        }
        handshake::Started::Broke => Ended::ConnectionBroke,
    };
    drop(connection);
    match transport.finish() {
        Ok(()) => status,
        Err(e) => {
            eprintln!("bfr lsp: {e}");
            Ended::ConnectionBroke
        }
    }
}

fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(lsp_types::HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![".".into()]),
            ..CompletionOptions::default()
        }),
        document_symbol_provider: Some(OneOf::Left(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
            SemanticTokensOptions {
                legend: highlight::legend(),
                full: Some(SemanticTokensFullOptions::Bool(true)),
                range: None,
                ..SemanticTokensOptions::default()
            },
        )),
        ..ServerCapabilities::default()
    }
}

/// The server's state between messages.
struct Server {
    store: Store,
    /// A `shutdown` request came: only `exit` is expected now.
    shut_down: bool,
    /// The files of each edition that were last sent diagnostics, so that a file
    /// whose problems are gone is sent an empty list.
    published: BTreeMap<PathBuf, BTreeSet<String>>,
    /// The bytes one notification's changes of ranges may walk over.
    max_change_work: usize,
}

impl Default for Server {
    fn default() -> Self {
        Server {
            store: Store::default(),
            shut_down: false,
            published: BTreeMap::new(),
            max_change_work: MAX_CHANGE_WORK,
        }
    }
}

impl Server {
    fn serve(&mut self, connection: &Connection) -> Ended {
        for message in &connection.receiver {
            match message {
                Message::Request(req) if self.shut_down || req.method == "shutdown" => {
                    let response = if self.shut_down {
                        Response::new_err(
                            req.id,
                            ErrorCode::InvalidRequest as i32,
                            "the server is shut down: only `exit` is expected".into(),
                        )
                    } else {
                        self.shut_down = true;
                        Response::new_ok(req.id, ())
                    };
                    if connection.sender.send(response.into()).is_err() {
                        return Ended::ConnectionBroke;
                    }
                }
                Message::Request(req) => {
                    // bfr does not panic by design; should a request ever do so, the
                    // editor gets an error for it and the server goes on.
                    let id = req.id.clone();
                    let response = std::panic::catch_unwind(AssertUnwindSafe(|| self.request(req)))
                        .unwrap_or_else(|_| {
                            Response::new_err(
                                id,
                                ErrorCode::InternalError as i32,
                                "internal failure in bfr; please report the file".into(),
                            )
                        });
                    if connection.sender.send(response.into()).is_err() {
                        return Ended::ConnectionBroke;
                    }
                }
                Message::Notification(n) if n.method == "exit" => {
                    return if self.shut_down {
                        Ended::AfterShutdown
                    } else {
                        Ended::WithoutShutdown
                    };
                }
                // After `shutdown` nothing is analysed any more.
                Message::Notification(_) if self.shut_down => {}
                Message::Notification(n) => {
                    let published =
                        std::panic::catch_unwind(AssertUnwindSafe(|| self.notification(n)))
                            .unwrap_or_default();
                    for out in published {
                        if connection.sender.send(out.into()).is_err() {
                            return Ended::ConnectionBroke;
                        }
                    }
                }
                Message::Response(_) => {}
            }
        }
        Ended::WithoutShutdown
    }

    /// Takes in a notification; returns the diagnostics to publish.
    fn notification(&mut self, n: Notification) -> Vec<Notification> {
        let changed = match n.method.as_str() {
            DidOpenTextDocument::METHOD => parse::<lsp_types::DidOpenTextDocumentParams>(n.params)
                .and_then(|p| {
                    let (path, dir) = store::edition_of(&p.text_document.uri)?;
                    self.store.set(path, p.text_document.text);
                    Some(dir)
                }),
            DidChangeTextDocument::METHOD => {
                parse::<lsp_types::DidChangeTextDocumentParams>(n.params).and_then(|p| {
                    let (path, dir) = store::edition_of(&p.text_document.uri)?;
                    let before = self.store.text(&path);
                    match changed_text(before, p.content_changes, self.max_change_work) {
                        Changed::Text(text) => self.store.set(path, text),
                        Changed::Nothing => return None,
                        Changed::TooCostly => {
                            eprintln!(
                                "bfr lsp: the changes to `{}` were too many to apply; the file \
                                 on disk counts, and changes of ranges are ignored, until the \
                                 editor sends its whole text",
                                path.display()
                            );
                            self.store.lose(&path);
                        }
                    }
                    Some(dir)
                })
            }
            DidCloseTextDocument::METHOD => {
                parse::<lsp_types::DidCloseTextDocumentParams>(n.params).and_then(|p| {
                    let (path, dir) = store::edition_of(&p.text_document.uri)?;
                    self.store.close(&path);
                    Some(dir)
                })
            }
            DidSaveTextDocument::METHOD => parse::<lsp_types::DidSaveTextDocumentParams>(n.params)
                .and_then(|p| store::edition_of(&p.text_document.uri).map(|(_, dir)| dir)),
            _ => None,
        };
        let Some(dir) = changed else {
            return Vec::new();
        };
        let published = self.publish(&dir);
        // A close, or a save of a file of an edition with none open, leaves
        // an analysis no later close would let go.
        self.store.forget_closed();
        published
    }

    /// Analyses an edition again and says which files have which diagnostics
    /// now, clearing those that had some and have none.
    fn publish(&mut self, dir: &Path) -> Vec<Notification> {
        let analysis = self.store.refresh(dir);
        let now = diagnostics::by_file(analysis);
        let before = self.published.remove(dir).unwrap_or_default();
        let mut out = Vec::new();
        for key in before.difference(&now.keys().cloned().collect()) {
            if let Ok(uri) = key.parse::<Uri>() {
                out.push(published(uri, Vec::new()));
            }
        }
        for (uri, diagnostics) in now.values() {
            out.push(published(uri.clone(), diagnostics.clone()));
        }
        // An edition without problems is not kept: every edition the session
        // has seen would stay for good.
        if !now.is_empty() {
            self.published
                .insert(dir.to_path_buf(), now.into_keys().collect());
        }
        out
    }

    fn request(&mut self, req: Request) -> Response {
        let id = req.id.clone();
        match self.answer(req) {
            Ok(value) => Response::new_ok(id, value),
            Err((code, message)) => Response::new_err(id, code as i32, message),
        }
    }

    fn answer(&mut self, req: Request) -> Result<Value, (ErrorCode, String)> {
        use lsp_types::{
            CompletionParams, DocumentFormattingParams, DocumentSymbolParams, GotoDefinitionParams,
            HoverParams, ReferenceParams, SemanticTokensParams,
        };
        let params = req.params;
        let value = match req.method.as_str() {
            HoverRequest::METHOD => {
                let p: HoverParams = params_of(params)?;
                let at = p.text_document_position_params;
                self.with(&at.text_document.uri, |a, f| {
                    hover::hover(a, f, at.position)
                })
            }
            GotoDefinition::METHOD => {
                let p: GotoDefinitionParams = params_of(params)?;
                let at = p.text_document_position_params;
                self.with(&at.text_document.uri, |a, f| {
                    navigate::definition(a, f, at.position).map(GotoDefinitionResponse::Scalar)
                })
            }
            References::METHOD => {
                let p: ReferenceParams = params_of(params)?;
                let at = p.text_document_position;
                let declaration = p.context.include_declaration;
                self.with(&at.text_document.uri, |a, f| {
                    Some(navigate::references(a, f, at.position, declaration))
                })
            }
            Completion::METHOD => {
                let p: CompletionParams = params_of(params)?;
                let at = p.text_document_position;
                self.with(&at.text_document.uri, |a, f| {
                    Some(complete::complete(a, f, at.position))
                })
            }
            DocumentSymbolRequest::METHOD => {
                let p: DocumentSymbolParams = params_of(params)?;
                self.with(&p.text_document.uri, |a, f| Some(symbols::symbols(a, f)))
            }
            Formatting::METHOD => {
                let p: DocumentFormattingParams = params_of(params)?;
                self.with(&p.text_document.uri, format)
            }
            SemanticTokensFullRequest::METHOD => {
                let p: SemanticTokensParams = params_of(params)?;
                self.with(&p.text_document.uri, |a, f| {
                    Some(SemanticTokensResult::Tokens(SemanticTokens {
                        result_id: None,
                        data: highlight::tokens(a, f),
                    }))
                })
            }
            _ => {
                return Err((
                    ErrorCode::MethodNotFound,
                    format!(
                        "bfr lsp does not answer `{}`",
                        handshake::quoted(&req.method)
                    ),
                ));
            }
        };
        Ok(value)
    }

    /// Runs `f` on the analysis of the file's edition; `null` for a URI that
    /// names no `.bfr` file, or a file the edition does not hold.
    fn with<T: serde::Serialize>(
        &mut self,
        uri: &Uri,
        f: impl FnOnce(&Analysis, usize) -> Option<T>,
    ) -> Value {
        let Some((path, dir)) = store::edition_of(uri) else {
            return Value::Null;
        };
        let analysis = self.store.analysis(&dir);
        let value = analysis
            .file(&path)
            .and_then(|file| f(analysis, file))
            .and_then(|v| serde_json::to_value(v).ok())
            .unwrap_or(Value::Null);
        // A request about an edition none of whose files is open: no close
        // will come to let its analysis go.
        self.store.forget_closed();
        value
    }
}

/// The whole file laid out as `bfr fmt` lays it out, as one edit (none when it
/// is laid out already); `None` when it does not parse, as `bfr fmt` leaves
/// such a file alone.
fn format(a: &Analysis, file: usize) -> Option<Vec<TextEdit>> {
    let f = a.files.get(file)?;
    let formatted = crate::syntax::format::format_checked(&f.text, 0).ok()?;
    if formatted == f.text {
        return Some(Vec::new());
    }
    let whole = position::LineIndex::new(&f.text).whole();
    Some(vec![TextEdit::new(whole, formatted)])
}

fn published(uri: Uri, diagnostics: Vec<lsp_types::Diagnostic>) -> Notification {
    Notification::new(
        PublishDiagnostics::METHOD.to_string(),
        PublishDiagnosticsParams {
            uri,
            diagnostics,
            version: None,
        },
    )
}

fn parse<T: serde::de::DeserializeOwned>(params: Value) -> Option<T> {
    serde_json::from_value(params).ok()
}

fn params_of<T: serde::de::DeserializeOwned>(params: Value) -> Result<T, (ErrorCode, String)> {
    serde_json::from_value(params).map_err(|e| (ErrorCode::InvalidParams, params_problem(&e)))
}

/// serde's words for params that do not fit, without the names of bfr's types
/// (`expected struct HoverParams`): what was found, and the field at fault.
fn params_problem(e: &serde_json::Error) -> String {
    let message = e.to_string();
    if message.contains("missing field") {
        return format!(
            "the params lack a {}",
            message.trim_start_matches("missing ")
        );
    }
    let found = message
        .strip_prefix("invalid type: ")
        .and_then(|rest| rest.split_once(", expected"))
        .map(|(found, _)| found);
    match found {
        Some(found) => {
            format!("the params or one of their fields is of the wrong kind: found {found}")
        }
        None => "the params do not have this request's shape (see the LSP specification)".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::{Changed, MAX_CHANGE_WORK, Server, changed_text, params_of, uri};

    #[test]
    fn params_that_do_not_fit_are_said_without_bfrs_type_names() {
        let said = |v: serde_json::Value| params_of::<lsp_types::HoverParams>(v).unwrap_err().1;
        let null = said(serde_json::Value::Null);
        assert_eq!(
            null,
            "the params or one of their fields is of the wrong kind: found null"
        );
        let lacking = said(serde_json::json!({"position": {"line": 0, "character": 0}}));
        assert_eq!(lacking, "the params lack a field `textDocument`");
        for m in [null, lacking] {
            assert!(!m.contains("struct") && !m.contains("Params"), "{m}");
        }
    }
    use lsp_server::{Notification, Request, RequestId};
    use lsp_types::{Position, Range, TextDocumentContentChangeEvent};
    use serde_json::json;

    #[test]
    fn an_editions_analysis_goes_with_its_last_open_file() {
        let base = std::env::temp_dir().join(format!("bfr-lsp-forget-{}", std::process::id()));
        let (open, other) = (base.join("open"), base.join("other"));
        for d in [&open, &other] {
            std::fs::create_dir_all(d).unwrap();
            std::fs::write(d.join("fee.bfr"), "const fee: number ref X-1 = 5\n").unwrap();
        }
        let doc = |d: &std::path::Path| uri::from_path(&d.join("fee.bfr")).unwrap();
        let mut server = Server::default();
        let opened = json!({"textDocument": {"uri": doc(&open), "languageId": "bfr",
            "version": 1, "text": "const fee: number ref X-1 = 6\n"}});
        server.notification(Notification::new("textDocument/didOpen".into(), opened));
        assert!(server.store.holds(&open));
        // A request about a file of an edition with none open: answered, not kept.
        let hover = json!({"textDocument": {"uri": doc(&other)},
            "position": {"line": 0, "character": 7}});
        let answer = server.request(Request::new(
            RequestId::from(1),
            "textDocument/hover".into(),
            hover,
        ));
        assert!(
            answer.response_result.is_ok_and(|r| !r.is_null()),
            "the hover is answered"
        );
        assert!(!server.store.holds(&other));
        assert!(server.store.holds(&open));
        // Nor is one made to publish a save's diagnostics.
        let saved = json!({"textDocument": {"uri": doc(&other)}});
        server.notification(Notification::new("textDocument/didSave".into(), saved));
        assert!(!server.store.holds(&other));
        let closed = json!({"textDocument": {"uri": doc(&open)}});
        server.notification(Notification::new("textDocument/didClose".into(), closed));
        assert!(!server.store.holds(&open));
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn problems_gone_are_cleared_once_and_their_edition_not_kept() {
        let dir = std::env::temp_dir().join(format!("bfr-lsp-cleared-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("fee.bfr"), "const fee: number ref X-1 = 5\n").unwrap();
        let doc = uri::from_path(&dir.join("fee.bfr")).unwrap();
        let mut server = Server::default();
        let mut send = |text: &str, version: i32| {
            let opened = json!({"textDocument": {"uri": doc, "languageId": "bfr",
                "version": version, "text": text}});
            let sent =
                server.notification(Notification::new("textDocument/didOpen".into(), opened));
            let lists: Vec<usize> = sent
                .iter()
                .map(|n| n.params["diagnostics"].as_array().unwrap().len())
                .collect();
            (lists, server.published.len())
        };
        assert_eq!(send("const fee: number ref X-1 = \n", 1), (vec![1], 1));
        // Put right: the file is sent an empty list, and nothing is kept.
        assert_eq!(send("const fee: number ref X-1 = 6\n", 2), (vec![0], 0));
        // Nothing to clear any more.
        assert_eq!(send("const fee: number ref X-1 = 7\n", 3), (vec![], 0));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn change(
        range: Option<((u32, u32), (u32, u32))>,
        text: &str,
    ) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range: range.map(|((l1, c1), (l2, c2))| {
                Range::new(Position::new(l1, c1), Position::new(l2, c2))
            }),
            range_length: None,
            text: text.into(),
        }
    }

    /// The text the changes come to, or `None` if they come to nothing.
    fn applied(
        before: Option<&str>,
        changes: Vec<TextDocumentContentChangeEvent>,
    ) -> Option<String> {
        match changed_text(before, changes, MAX_CHANGE_WORK) {
            Changed::Text(text) => Some(text),
            Changed::Nothing => None,
            Changed::TooCostly => panic!("small changes are never too costly"),
        }
    }

    #[test]
    fn a_change_of_a_range_is_applied_where_it_says() {
        let before = "const å: number = 1\nconst b: number = 2\n";
        let after = applied(
            Some(before),
            vec![
                // `1` → `10`, after a letter of two bytes and one unit.
                change(Some(((0, 18), (0, 19))), "10"),
                // A range given end first, and one past the text: clamped.
                change(Some(((1, 19), (1, 18))), "3"),
                change(Some(((9, 0), (9, 4))), "// end\n"),
            ],
        );
        assert_eq!(
            after.as_deref(),
            Some("const å: number = 10\nconst b: number = 3\n// end\n")
        );
        // A change without a range is the whole text.
        let whole = applied(
            after.as_deref(),
            vec![change(None, "x"), change(Some(((0, 1), (0, 1))), "y")],
        );
        assert_eq!(whole.as_deref(), Some("xy"));
        // No change at all, or a range of a document never opened: nothing.
        assert_eq!(applied(Some(before), Vec::new()), None);
        assert_eq!(
            applied(None, vec![change(Some(((0, 0), (0, 1))), "z")]),
            None
        );
        assert_eq!(applied(None, vec![change(None, "z")]).as_deref(), Some("z"));
    }

    #[test]
    fn changes_that_would_walk_too_far_are_refused_whole() {
        let before = "x".repeat(100);
        let edit = || change(Some(((0, 0), (0, 0))), "y");
        // Each change walks the text and what it inserts: 101, then 102 bytes.
        assert_eq!(
            changed_text(Some(&before), vec![edit(), edit()], 203),
            Changed::Text(format!("yy{before}"))
        );
        assert_eq!(
            changed_text(Some(&before), vec![edit(), edit()], 202),
            Changed::TooCostly
        );
        // A whole text costs no walk, and a range after it walks the new text.
        assert_eq!(
            changed_text(Some(&before), vec![change(None, "ab"), edit()], 3),
            Changed::Text("yab".into())
        );
    }

    #[test]
    fn a_document_whose_changes_are_refused_is_read_from_disk() {
        let dir = std::env::temp_dir().join(format!("bfr-lsp-costly-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("fee.bfr");
        std::fs::write(&path, "const fee: number ref X-1 = 5\n").unwrap();
        let doc = uri::from_path(&path).unwrap();
        // A bound the size of the open text: a second edit passes it.
        let mut server = Server {
            max_change_work: 40,
            ..Server::default()
        };
        let opened = json!({"textDocument": {"uri": doc, "languageId": "bfr",
            "version": 1, "text": "const fee: number ref X-1 = 6\n"}});
        server.notification(Notification::new("textDocument/didOpen".into(), opened));
        assert!(server.store.text(&path).is_some());
        let edits = 2;
        let one = json!({"range": {"start": {"line": 0, "character": 0},
            "end": {"line": 0, "character": 0}}, "text": ""});
        let changed = json!({"textDocument": {"uri": doc, "version": 2},
            "contentChanges": vec![one; edits]});
        server.notification(Notification::new("textDocument/didChange".into(), changed));
        assert_eq!(
            server.store.text(&path),
            None,
            "the open text no longer counts"
        );
        assert!(server.store.holds(&dir), "the edition is still open");
        // A later change of a range has nothing to apply to; a whole text does.
        let one_more = json!({"textDocument": {"uri": doc, "version": 3},
            "contentChanges": [{"range": {"start": {"line": 0, "character": 0},
                "end": {"line": 0, "character": 0}}, "text": "x"}]});
        server.notification(Notification::new("textDocument/didChange".into(), one_more));
        assert_eq!(server.store.text(&path), None);
        let whole = json!({"textDocument": {"uri": doc, "version": 4},
            "contentChanges": [{"text": "const fee: number ref X-1 = 7\n"}]});
        server.notification(Notification::new("textDocument/didChange".into(), whole));
        assert_eq!(
            server.store.text(&path),
            Some("const fee: number ref X-1 = 7\n")
        );
        let closed = json!({"textDocument": {"uri": doc}});
        server.notification(Notification::new("textDocument/didClose".into(), closed));
        assert!(!server.store.holds(&dir));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
