//! `bfr lsp` driven as an editor drives it: JSON-RPC over the server's stdin and
//! stdout with `Content-Length` framing, on a copy of the 2015 edition.

use crate::support::{EDITION_2015, TempDir, root};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

/// The release binary where `.ci/run` names it (each change re-checks the
/// whole edition), else the test build's.
fn bin() -> std::ffi::OsString {
    std::env::var_os("BFR_RELEASE_BIN")
        .map(|b| root().join(b).into_os_string())
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_bfr").into())
}

/// A language client: the server process, a thread reading its messages.
struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    messages: Receiver<Value>,
    next_id: i64,
    /// Notifications read while waiting for a response.
    notifications: Vec<Value>,
}

fn read_message(r: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length: ") {
            length = n.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    r.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(bin())
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("bfr lsp starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            while let Some(m) = read_message(&mut r) {
                if tx.send(m).is_err() {
                    break;
                }
            }
        });
        Client {
            stdin: child.stdin.take(),
            child,
            messages: rx,
            next_id: 0,
            notifications: Vec::new(),
        }
    }

    fn send(&mut self, message: &Value) {
        self.send_raw(&serde_json::to_vec(message).unwrap());
    }

    fn send_raw(&mut self, body: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        write!(stdin, "Content-Length: {}\r\n\r\n", body.len()).unwrap();
        stdin.write_all(body).unwrap();
        stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and waits (at most 60 s) for its response; what comes
    /// before it is kept in `notifications`.
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let m = self
                .messages
                .recv_timeout(Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("no answer to {method}"));
            if m.get("id") == Some(&json!(id)) && m.get("method").is_none() {
                return m;
            }
            self.notifications.push(m);
        }
    }

    /// The result of a request that must succeed.
    fn result(&mut self, method: &str, params: Value) -> Value {
        let r = self.request(method, params);
        assert!(r.get("error").is_none(), "{method}: {r}");
        r["result"].clone()
    }

    /// The diagnostics published since the last call, by file name (the last
    /// list for each file); a request answered after the notification that
    /// caused them guarantees they have all arrived.
    fn published(&mut self) -> Vec<(String, Vec<Value>)> {
        self.result(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": "file:///nowhere/x.bfr"}}),
        );
        let mut out: Vec<(String, Vec<Value>)> = Vec::new();
        for n in self.notifications.drain(..) {
            if n["method"] != "textDocument/publishDiagnostics" {
                continue;
            }
            let uri = n["params"]["uri"].as_str().unwrap().to_string();
            let name = uri.rsplit('/').next().unwrap().to_string();
            let list = n["params"]["diagnostics"].as_array().unwrap().clone();
            out.retain(|(f, _)| *f != name);
            out.push((name, list));
        }
        out
    }

    /// Shuts the server down; its exit status.
    fn shutdown(mut self) -> i32 {
        let r = self.request("shutdown", Value::Null);
        assert_eq!(r["result"], Value::Null, "{r}");
        self.notify("exit", Value::Null);
        drop(self.stdin.take());
        wait(&mut self.child)
    }
}

/// The child's exit status, waiting at most 30 s.
fn wait(child: &mut Child) -> i32 {
    for _ in 0..300 {
        if let Some(s) = child.try_wait().unwrap() {
            return s.code().unwrap_or(-1);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = child.kill();
    panic!("bfr lsp did not exit");
}

/// The URI of a path, with the space of the copy's directory escaped.
fn uri(path: &Path) -> String {
    format!("file://{}", path.display()).replace(' ', "%20")
}

/// A copy of the 2015 edition in a temporary directory.
fn edition_copy() -> (TempDir, PathBuf) {
    let tmp = TempDir::new("lsp");
    let dir = tmp.0.join("edition 2015");
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(root().join(EDITION_2015)).unwrap() {
        let p = entry.unwrap().path();
        if p.is_file() {
            std::fs::copy(&p, dir.join(p.file_name().unwrap())).unwrap();
        }
    }
    (tmp, dir)
}

#[test]
fn hover_and_definition_on_names_with_swedish_letters() {
    let tmp = TempDir::new("lsp-svenska");
    for entry in std::fs::read_dir(root().join("tests/fixtures/svenska")).unwrap() {
        let p = entry.unwrap().path();
        std::fs::copy(&p, tmp.0.join(p.file_name().unwrap())).unwrap();
    }
    let rules = tmp.0.join("regler.bfr");
    let text = std::fs::read_to_string(&rules).unwrap();
    let mut c = Client::start();
    initialize(&mut c);
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri(&rules), "languageId": "bfr", "version": 1, "text": text}}),
    );
    // On the part of the name after `ö`: the position counts UTF-16 units.
    let h = c.result("textDocument/hover", at(&rules, &text, "sent * 2"));
    let md = h["contents"]["value"].as_str().unwrap_or_default();
    assert!(md.contains("const cc_ko_avgift_för_sent: SEK"), "{h}");
    let d = c.result("textDocument/definition", at(&rules, &text, "sent * 2"));
    let (line, col) = line_col(&text, "cc_ko_avgift_för_sent: SEK");
    assert_eq!(
        d["range"]["start"],
        json!({"line": line, "character": col}),
        "{d}"
    );
    let end = col + "cc_ko_avgift_för_sent".encode_utf16().count() as u64;
    assert_eq!(
        d["range"]["end"],
        json!({"line": line, "character": end}),
        "{d}"
    );
    // `Distrikt.Skåne` in an example goes to the variant.
    let d = c.result("textDocument/definition", at(&rules, &text, "Skåne) =="));
    let (line, col) = line_col(&text, "  Skåne \"Skåne\"");
    assert_eq!(
        d["range"]["start"],
        json!({"line": line, "character": col + 2}),
        "{d}"
    );
    assert_eq!(c.shutdown(), 0);
}

fn initialize(c: &mut Client) -> Value {
    let r = c.result(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": {}}),
    );
    c.notify("initialized", json!({}));
    r
}

/// 0-based line of the first line of `text` that contains `needle`, and the
/// UTF-16 column where it starts.
fn line_col(text: &str, needle: &str) -> (u64, u64) {
    for (i, line) in text.lines().enumerate() {
        if let Some(at) = line.find(needle) {
            let col = line[..at].encode_utf16().count();
            return (i as u64, col as u64);
        }
    }
    panic!("`{needle}` not found");
}

fn position(text: &str, needle: &str) -> Value {
    let (line, character) = line_col(text, needle);
    json!({"line": line, "character": character + 1})
}

fn at(file: &Path, text: &str, needle: &str) -> Value {
    json!({"textDocument": {"uri": uri(file)}, "position": position(text, needle)})
}

/// The file name, code and 0-based line of every diagnostic of `bfr check`.
fn check_findings(dir: &Path) -> Vec<(String, String, u64)> {
    let out = Command::new(env!("CARGO_BIN_EXE_bfr"))
        .args(["--format", "json", "check"])
        .arg(dir)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut found: Vec<_> = v[0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let file = d["file"]
                .as_str()
                .unwrap()
                .rsplit('/')
                .next()
                .unwrap()
                .to_string();
            let line = d["start"]["line"].as_u64().unwrap() - 1;
            (file, d["code"].as_str().unwrap().to_string(), line)
        })
        .collect();
    found.sort();
    found
}

#[test]
fn diagnostics_follow_the_text_as_it_is_typed() {
    let (_tmp, dir) = edition_copy();
    let file = dir.join("chairmans_cup.bfr");
    let good = std::fs::read_to_string(&file).unwrap();
    let mut c = Client::start();
    let init = initialize(&mut c);
    let caps = &init["capabilities"];
    for cap in [
        "hoverProvider",
        "definitionProvider",
        "referencesProvider",
        "documentFormattingProvider",
    ] {
        assert_eq!(caps[cap], json!(true), "{cap}");
    }
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri(&file), "languageId": "bfr", "version": 1, "text": good}}),
    );
    // The same findings as `bfr check`, none of them an error.
    let published = c.published();
    let mut found: Vec<(String, String, u64)> = published
        .iter()
        .flat_map(|(f, list)| {
            list.iter().map(move |d| {
                assert_eq!(d["severity"], json!(2), "{d}");
                (
                    f.clone(),
                    d["code"].as_str().unwrap().to_string(),
                    d["range"]["start"]["line"].as_u64().unwrap(),
                )
            })
        })
        .collect();
    found.sort();
    assert_eq!(found, check_findings(&dir));
    assert!(!found.is_empty());
    assert!(published.iter().all(|(f, _)| f != "chairmans_cup.bfr"));

    // A misspelt name after `ö` on the line: the range counts UTF-16 units.
    let typo = "const lsp_probe: date ref CC-REG p.14 \"Speltider, kaptensmöte\" = cc_frist_day\n";
    let bad = format!("{good}{typo}");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri(&file), "version": 2}, "contentChanges": [{"text": bad}]}),
    );
    let published = c.published();
    let (_, list) = published
        .iter()
        .find(|(f, _)| f == "chairmans_cup.bfr")
        .expect("diagnostics for the file");
    let e = list.iter().find(|d| d["code"] == "E0101").expect("E0101");
    let line = good.lines().count() as u64;
    let col = "const lsp_probe: date ref CC-REG p.14 \"Speltider, kaptensmöte\" = "
        .encode_utf16()
        .count() as u64;
    assert_eq!(
        col + 1,
        "const lsp_probe: date ref CC-REG p.14 \"Speltider, kaptensmöte\" = ".len() as u64
    );
    assert_eq!(
        e["range"],
        json!({"start": {"line": line, "character": col}, "end": {"line": line, "character": col + 12}})
    );
    assert_eq!(e["severity"], json!(1));
    assert_eq!(e["source"], "bfr");
    assert!(
        e["message"].as_str().unwrap().contains("cc_frist_day"),
        "{e}"
    );
    assert!(
        e["message"].as_str().unwrap().contains("cc_first_day"),
        "did you mean: {e}"
    );

    // Fixed: the file's list is cleared.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri(&file), "version": 3}, "contentChanges": [{"text": good}]}),
    );
    let published = c.published();
    let (_, list) = published
        .iter()
        .find(|(f, _)| f == "chairmans_cup.bfr")
        .expect("a cleared list");
    assert!(list.is_empty(), "{list:?}");
    assert_eq!(c.shutdown(), 0);
}

#[test]
fn hover_definition_references_and_completion_across_the_edition() {
    let (_tmp, dir) = edition_copy();
    let cup = dir.join("chairmans_cup.bfr");
    let cup_text = std::fs::read_to_string(&cup).unwrap();
    let general = dir.join("sm_general.bfr");
    let general_text = std::fs::read_to_string(&general).unwrap();
    let edition_text = std::fs::read_to_string(dir.join("edition.bfr")).unwrap();
    let mut c = Client::start();
    initialize(&mut c);
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri(&cup), "languageId": "bfr", "version": 1, "text": cup_text}}),
    );

    // Hover on a use of a rule: its signature, doc, source and the page's text.
    let h = c.result(
        "textDocument/hover",
        at(&cup, &cup_text, "cc_team_size_allowed(6"),
    );
    let md = h["contents"]["value"].as_str().unwrap();
    assert!(
        md.contains("fn cc_team_size_allowed(players: player) -> bool"),
        "{md}"
    );
    assert!(
        md.contains("Whether a team of this many players may enter"),
        "{md}"
    );
    assert!(
        md.contains("`CC-ENTRY`, page 14, section \"Att delta\""),
        "{md}"
    );
    assert!(md.contains("The document, page 14"), "{md}");
    assert!(md.to_lowercase().contains("> att delta"), "{md}");
    // A const: its type as written.
    let h = c.result(
        "textDocument/hover",
        at(&cup, &cup_text, "cc_max_players_per_team:"),
    );
    let md = h["contents"]["value"].as_str().unwrap();
    assert!(md.contains("const cc_max_players_per_team: player"), "{md}");

    // `District` used in sm_general.bfr is declared in edition.bfr.
    let d = c.result(
        "textDocument/definition",
        at(&general, &general_text, "District,"),
    );
    assert!(
        d["uri"]
            .as_str()
            .unwrap()
            .ends_with("/edition%202015/edition.bfr"),
        "{d}"
    );
    let (line, col) = line_col(&edition_text, "District ref");
    assert_eq!(d["range"]["start"], json!({"line": line, "character": col}));
    // `District.Skane` goes to the variant.
    let d = c.result(
        "textDocument/definition",
        at(&general, &general_text, "Skane,"),
    );
    let (line, col) = line_col(&edition_text, "  Skane");
    assert_eq!(
        d["range"]["start"],
        json!({"line": line, "character": col + 2}),
        "{d}"
    );

    // References of `District`: its declaration and uses in several files.
    let refs = c.result(
        "textDocument/references",
        json!({"textDocument": {"uri": uri(&general)}, "position": position(&general_text, "District,"), "context": {"includeDeclaration": true}}),
    );
    let refs = refs.as_array().unwrap();
    let files: std::collections::BTreeSet<&str> = refs
        .iter()
        .map(|r| r["uri"].as_str().unwrap().rsplit('/').next().unwrap())
        .collect();
    assert!(
        files.contains("edition.bfr") && files.contains("sm_general.bfr"),
        "{files:?}"
    );
    let uses_in_general = general_text.matches("District").count()
        - general_text.matches("SmDistrict").count()
        - general_text.matches("NextDistrict").count();
    let in_general = refs
        .iter()
        .filter(|r| r["uri"].as_str().unwrap().ends_with("sm_general.bfr"))
        .count();
    assert!(
        in_general > 0 && in_general <= uses_in_general,
        "{in_general} of {uses_in_general}"
    );
    let without = c.result(
        "textDocument/references",
        json!({"textDocument": {"uri": uri(&general)}, "position": position(&general_text, "District,"), "context": {"includeDeclaration": false}}),
    );
    assert_eq!(without.as_array().unwrap().len(), refs.len() - 1);

    // Completion after `District.` in a half-typed line offers the variants.
    let typing = format!("{cup_text}const lsp_probe: District = District.\n");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri(&cup), "version": 2}, "contentChanges": [{"text": typing}]}),
    );
    let line = cup_text.lines().count();
    let col = "const lsp_probe: District = District.".len();
    let items = c.result(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri(&cup)}, "position": {"line": line, "character": col}}),
    );
    let labels: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert!(
        labels.contains(&"Skane") && labels.contains(&"Stockholm"),
        "{labels:?}"
    );
    assert!(
        !labels.contains(&"cc_team_size_allowed"),
        "only variants after the dot"
    );
    // Elsewhere: the edition's names, still known while the file does not parse.
    let items = c.result(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri(&cup)}, "position": {"line": line, "character": 0}}),
    );
    let labels: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    for name in ["cc_team_size_allowed", "District", "SEK", "cup"] {
        assert!(labels.contains(&name), "{name}");
    }
    assert_eq!(c.shutdown(), 0);
}

#[test]
fn symbols_formatting_and_semantic_tokens() {
    let (tmp, dir) = edition_copy();
    let cup = dir.join("chairmans_cup.bfr");
    let good = std::fs::read_to_string(&cup).unwrap();
    let mut c = Client::start();
    initialize(&mut c);
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri(&cup), "languageId": "bfr", "version": 1, "text": good}}),
    );

    // Symbols: rules of the open file; an enum with its variants, a competition
    // with its stages, in files that are not open.
    let s = c.result(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri(&cup)}}),
    );
    let rule = s
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["name"] == "cc_team_size_allowed")
        .expect("a rule");
    assert_eq!(rule["kind"], json!(12));
    let (line, _) = line_col(&good, "fn cc_team_size_allowed");
    assert_eq!(rule["selectionRange"]["start"]["line"], json!(line));
    let s = c.result(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri(&dir.join("edition.bfr"))}}),
    );
    let district = s
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["name"] == "District")
        .expect("District");
    assert_eq!(district["kind"], json!(10));
    assert!(
        district["children"]
            .as_array()
            .unwrap()
            .iter()
            .any(|v| v["name"] == "Skane")
    );
    let s = c.result(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": uri(&dir.join("chairmans_cup_knockout.bfr"))}}),
    );
    let comp = s
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["name"] == "cup")
        .expect("cup");
    let stages: Vec<&str> = comp["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    assert!(
        stages.contains(&"gh") && stages.contains(&"cc_final"),
        "{stages:?}"
    );

    // Formatting a badly laid-out text gives what `bfr fmt` writes.
    let messy = good
        .replacen(
            "const cc_max_players_per_team: player ref",
            "const   cc_max_players_per_team :player   ref",
            1,
        )
        .replacen(
            "\n  players >= 1 player and",
            "\n        players >=1 player and",
            1,
        );
    assert_ne!(messy, good);
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri(&cup), "version": 2}, "contentChanges": [{"text": messy}]}),
    );
    let edits = c.result(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri(&cup)}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    let edits = edits.as_array().unwrap();
    assert_eq!(edits.len(), 1);
    assert_eq!(
        edits[0]["range"]["start"],
        json!({"line": 0, "character": 0})
    );
    let formatted = edits[0]["newText"].as_str().unwrap();
    let alone = tmp.0.join("alone.bfr");
    std::fs::write(&alone, &messy).unwrap();
    let st = Command::new(bin())
        .arg("fmt")
        .arg(&alone)
        .output()
        .unwrap()
        .status;
    assert!(st.success());
    assert_eq!(formatted, std::fs::read_to_string(&alone).unwrap());
    assert_eq!(formatted, good);

    // Semantic tokens of the laid-out text: within their lines, and `fn`, the
    // rule's name, a comment and a string typed as the legend says.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri(&cup), "version": 3}, "contentChanges": [{"text": good}]}),
    );
    let legend = json!([
        "keyword",
        "function",
        "variable",
        "enumMember",
        "type",
        "number",
        "string",
        "comment"
    ]);
    let init_legend = {
        let mut c2 = Client::start();
        let r = initialize(&mut c2);
        assert_eq!(c2.shutdown(), 0);
        r["capabilities"]["semanticTokensProvider"]["legend"]["tokenTypes"].clone()
    };
    for t in legend.as_array().unwrap() {
        assert!(init_legend.as_array().unwrap().contains(t), "{t}");
    }
    let kind_of = |name: &str| {
        init_legend
            .as_array()
            .unwrap()
            .iter()
            .position(|t| t == name)
            .unwrap() as u64
    };
    let data = c.result(
        "textDocument/semanticTokens/full",
        json!({"textDocument": {"uri": uri(&cup)}}),
    );
    let data: Vec<u64> = data["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert!(!data.is_empty() && data.len().is_multiple_of(5));
    let lines: Vec<&str> = good.lines().collect();
    let (mut line, mut col) = (0u64, 0u64);
    let mut tokens = Vec::new();
    for t in data.chunks(5) {
        if t[0] > 0 {
            col = 0;
        }
        line += t[0];
        col += t[1];
        let text: Vec<u16> = lines[line as usize].encode_utf16().collect();
        assert!(
            col + t[2] <= text.len() as u64,
            "token past its line {line}"
        );
        let word = String::from_utf16(&text[col as usize..(col + t[2]) as usize]).unwrap();
        tokens.push((line, word, t[3]));
    }
    let (fn_line, _) = line_col(&good, "fn cc_team_size_allowed");
    let on = |l: u64, w: &str| {
        tokens
            .iter()
            .find(|(x, y, _)| *x == l && y == w)
            .map(|t| t.2)
    };
    assert_eq!(on(fn_line, "fn"), Some(kind_of("keyword")));
    assert_eq!(
        on(fn_line, "cc_team_size_allowed"),
        Some(kind_of("function"))
    );
    assert_eq!(on(fn_line, "player"), Some(kind_of("type")));
    assert_eq!(on(fn_line, "\"Att delta\""), Some(kind_of("string")));
    assert_eq!(on(0, lines[0]), Some(kind_of("comment")));
    let (v_line, _) = line_col(&good, "cc_system_level(Phase.Qualification");
    assert_eq!(on(v_line, "Qualification"), Some(kind_of("enumMember")));
    assert_eq!(on(v_line, "8"), Some(kind_of("number")));
    assert_eq!(c.shutdown(), 0);
}

#[test]
fn bad_input_gets_an_answer_and_never_a_crash() {
    let (_tmp, dir) = edition_copy();
    let cup = dir.join("chairmans_cup.bfr");
    let mut c = Client::start();
    initialize(&mut c);
    // A file of another kind, a scheme that is not a file: empty answers.
    let other = json!({"textDocument": {"uri": "untitled:Untitled-1"}, "position": {"line": 0, "character": 0}});
    assert_eq!(c.result("textDocument/hover", other), Value::Null);
    let txt = json!({"textDocument": {"uri": uri(&dir.join("document.toml"))}, "position": {"line": 0, "character": 0}});
    assert_eq!(c.result("textDocument/definition", txt), Value::Null);
    // Unknown methods and bad parameters are errors, not crashes.
    let r = c.request("textDocument/codeLens", json!({}));
    assert_eq!(r["error"]["code"], json!(-32601));
    let r = c.request("textDocument/hover", json!({"nonsense": 1}));
    assert_eq!(r["error"]["code"], json!(-32602));
    // Half-typed and hostile text: every request still answers.
    for text in [
        "fn (",
        "enum District { Sk",
        "const x: SEK = ((((((((",
        "é\u{0}\r\n😀 \"",
        "",
    ] {
        c.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri(&cup), "languageId": "bfr", "version": 1, "text": text}}),
        );
        for method in [
            "textDocument/hover",
            "textDocument/definition",
            "textDocument/completion",
        ] {
            let r = c.request(method, json!({"textDocument": {"uri": uri(&cup)}, "position": {"line": 0, "character": 3}}));
            assert!(r.get("error").is_none(), "{method} on {text:?}: {r}");
        }
        let r = c.request(
            "textDocument/semanticTokens/full",
            json!({"textDocument": {"uri": uri(&cup)}}),
        );
        assert!(r.get("error").is_none(), "{r}");
        let r = c.request("textDocument/formatting", json!({"textDocument": {"uri": uri(&cup)}, "options": {"tabSize": 2, "insertSpaces": true}}));
        assert!(r.get("error").is_none(), "{r}");
    }
    // The parse error is published, with its code.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri(&cup), "version": 9}, "contentChanges": [{"text": "fn ("}]}),
    );
    let published = c.published();
    let (_, list) = published
        .iter()
        .find(|(f, _)| f == "chairmans_cup.bfr")
        .unwrap();
    assert_eq!(list[0]["code"], "E0001");
    assert_eq!(c.shutdown(), 0);

    // A body that is not JSON is skipped, answered with JSON-RPC's parse error
    // (its id null: none could be read), said on stderr, and the session goes
    // on; so is JSON that is no message (an invalid request). After `shutdown`
    // a request is refused; `exit` ends the server with 0 even while the client
    // keeps its end open.
    let mut c = Client::start();
    initialize(&mut c);
    c.send_raw(b"{not json");
    c.send_raw(br#"{"jsonrpc":"2.0","method":7}"#);
    let hover = json!({"textDocument": {"uri": "untitled:Untitled-1"}, "position": {"line": 0, "character": 0}});
    assert_eq!(c.result("textDocument/hover", hover.clone()), Value::Null);
    let answered: Vec<_> = c
        .notifications
        .drain(..)
        .map(|m| (m["id"].clone(), m["error"]["code"].clone()))
        .collect();
    assert_eq!(
        answered,
        [(Value::Null, json!(-32700)), (Value::Null, json!(-32600))]
    );
    assert_eq!(c.result("shutdown", Value::Null), Value::Null);
    let refused = c.request("textDocument/hover", hover);
    assert_eq!(refused["error"]["code"], json!(-32600), "{refused}");
    c.notify("exit", Value::Null);
    assert_eq!(wait(&mut c.child), 0);
    let err = stderr_of(&mut c);
    assert!(
        err.contains(
            "bfr lsp: skipped a message that is not a JSON-RPC request, response or notification"
        ),
        "{err}"
    );
    // A length the input never gives is the input's end, not an allocation of
    // that size: exit 1 at once (no `shutdown`).
    let mut c = Client::start();
    initialize(&mut c);
    raw(&mut c, b"Content-Length: 99999999999\r\n\r\n{");
    drop(c.stdin.take());
    assert_eq!(wait(&mut c.child), 1);
    assert!(!stderr_of(&mut c).contains("panicked"));
    // A header line without end: no next message can be found, an I/O failure.
    let mut c = Client::start();
    initialize(&mut c);
    raw(&mut c, "9".repeat(2000).as_bytes());
    drop(c.stdin.take());
    assert_eq!(wait(&mut c.child), 3);
    let err = stderr_of(&mut c);
    assert!(
        err.contains("bfr lsp: cannot read from the editor: a header line without its end"),
        "{err}"
    );
}

/// Bytes written to the server as they are, without a header.
fn raw(c: &mut Client, bytes: &[u8]) {
    let stdin = c.stdin.as_mut().unwrap();
    stdin.write_all(bytes).unwrap();
    stdin.flush().unwrap();
}

/// What the server wrote on stderr (once it has exited).
fn stderr_of(c: &mut Client) -> String {
    let mut err = String::new();
    c.child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    err
}
