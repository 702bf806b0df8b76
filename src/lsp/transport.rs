//! LSP's base protocol on stdin and stdout: `Content-Length` headers, then a
//! JSON body, read with bounds. It stands in for `lsp-server`'s own stdio
//! threads, which took a header's length at its word (`Content-Length:
//! 99999999999` allocated that much and ended the process), read a header
//! line without end, ended the session at a body that was not JSON, and were
//! joined at the end, so a client that never closed its output kept the
//! server from exiting.

use lsp_server::{Connection, ErrorCode, Message};
use std::io::{self, BufRead, Read, Write};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// The longest message read: four times the largest file bfr reads (a
/// `didOpen` holds a whole file, and a client may escape every letter that is
/// not ASCII, `\u00e5` for `å`: at most three times its bytes). A longer one is
/// read past and skipped, not kept.
pub const MAX_MESSAGE_BYTES: usize = 4 * crate::syntax::MAX_FILE_BYTES;

/// The longest header line (`Content-Length: 123`), end included.
const MAX_HEADER_LINE: usize = 1024;

/// The most header lines of one message (LSP has two).
const MAX_HEADERS: usize = 16;

/// What reading one message found.
#[derive(Debug)]
enum Frame {
    /// A message.
    Message(Message),
    /// A body that is not a message, or one too long: skipped, and why.
    Skipped(Skip),
    /// The input ended.
    End,
}

/// A message skipped: the JSON-RPC error it is answered with, and why.
#[derive(Debug)]
struct Skip {
    /// `-32700` for a body that is not JSON, `-32600` for one that is not a
    /// request bfr can answer.
    code: ErrorCode,
    /// The message's id as it was written, where one could be read (a number
    /// or a text); else `null`, as JSON-RPC has it.
    id: serde_json::Value,
    why: String,
}

impl Skip {
    /// A message that is not a request bfr can answer, with the id `value` gives
    /// if it is a request (a response of the editor's is never answered by id).
    fn invalid(value: Option<&serde_json::Value>, why: String) -> Frame {
        let id = value
            .filter(|v| v.get("method").is_some())
            .and_then(|v| v.get("id"))
            .filter(|id| id.is_number() || id.is_string())
            .cloned()
            .unwrap_or(serde_json::Value::Null);
        Frame::Skipped(Skip {
            code: ErrorCode::InvalidRequest,
            id,
            why,
        })
    }

    /// The error response, framed, so the editor can show why its message went
    /// unanswered and, where the id was read, stop waiting for it.
    fn response(&self) -> Vec<u8> {
        let body = serde_json::json!({
            "jsonrpc": "2.0",
            "id": self.id,
            "error": {"code": self.code as i32, "message": format!("bfr skipped {}", self.why)},
        })
        .to_string();
        let mut framed = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        framed.extend_from_slice(body.as_bytes());
        framed
    }
}

/// Reads one message of at most `max_bytes` from `input`. An error is a frame
/// broken so that the next message cannot be found (a header line without
/// end, no length).
fn read_frame(input: &mut impl BufRead, max_bytes: usize) -> io::Result<Frame> {
    let broken = |why: &str| io::Error::new(io::ErrorKind::InvalidData, why.to_string());
    let mut length = None;
    let mut line = Vec::new();
    for headers in 0.. {
        if headers > MAX_HEADERS {
            return Err(broken("more header lines than a message has"));
        }
        line.clear();
        let limit = u64::try_from(MAX_HEADER_LINE).unwrap_or(u64::MAX);
        input.by_ref().take(limit).read_until(b'\n', &mut line)?;
        if line.is_empty() && headers == 0 {
            return Ok(Frame::End);
        }
        let Some(header) = line.strip_suffix(b"\r\n") else {
            return Err(broken("a header line without its end"));
        };
        if header.is_empty() {
            break;
        }
        let text = String::from_utf8_lossy(header);
        let Some((name, value)) = text.split_once(':') else {
            return Err(broken("a header line that is not `name: value`"));
        };
        if name.trim().eq_ignore_ascii_case("Content-Length") {
            length = Some(
                value
                    .trim()
                    .parse::<u64>()
                    .map_err(|_| broken("a `Content-Length` that is not a number"))?,
            );
        }
    }
    let length = length.ok_or_else(|| broken("a message without `Content-Length`"))?;
    let mut body = input.by_ref().take(length);
    if usize::try_from(length).map_or(true, |n| n > max_bytes) {
        // Read past, not kept, so the next message is found.
        let skipped = io::copy(&mut body, &mut io::sink())?;
        if skipped < length {
            return Ok(Frame::End);
        }
        return Ok(Skip::invalid(
            None,
            format!("a message of {length} bytes; bfr reads messages of at most {max_bytes} bytes"),
        ));
    }
    // Grown as the bytes arrive, not to the length the header claims.
    let mut bytes = Vec::new();
    body.read_to_end(&mut bytes)?;
    if (bytes.len() as u64) < length {
        return Ok(Frame::End);
    }
    let not_json_rpc = |e: &serde_json::Error| {
        format!(
            "a message that is not a JSON-RPC request, response or notification (line {}, column {})",
            e.line(),
            e.column()
        )
    };
    let value = match serde_json::from_slice::<serde_json::Value>(&bytes) {
        Ok(v) => v,
        Err(e) => {
            return Ok(Frame::Skipped(Skip {
                code: ErrorCode::ParseError,
                id: serde_json::Value::Null,
                why: not_json_rpc(&e),
            }));
        }
    };
    if let Some(id) = unanswerable_id(&value) {
        return Ok(Skip::invalid(
            Some(&value),
            format!(
                "a request with the id {id}, which cannot be answered: bfr answers requests whose id is a text or a whole number from -2147483648 to 2147483647"
            ),
        ));
    }
    match serde_json::from_value::<Message>(value.clone()) {
        Ok(message) => Ok(Frame::Message(message)),
        Err(e) => Ok(Skip::invalid(Some(&value), not_json_rpc(&e))),
    }
}

/// The id of a request whose id a response cannot carry (a number past 32
/// bits, a fraction, `null`, an object): read as a notification, it would
/// never be answered and its sender would wait for ever.
fn unanswerable_id(value: &serde_json::Value) -> Option<String> {
    let id = value.get("id")?;
    value.get("method")?;
    let answerable = id.is_string() || id.as_i64().is_some_and(|n| i32::try_from(n).is_ok());
    (!answerable).then(|| crate::diag::bounded(&id.to_string()))
}

/// The threads that read stdin and write stdout for a [`Connection`].
pub struct Transport {
    /// Why the reader stopped, when its input broke: set before the reader lets
    /// go of the connection, so it is there once the server sees the end.
    broken: Arc<Mutex<Option<String>>>,
    writer: JoinHandle<io::Result<()>>,
}

/// A connection on stdin and stdout, and the threads that serve it.
pub fn stdio() -> (Connection, Transport) {
    let (server, client) = Connection::memory();
    let Connection { sender, receiver } = client;
    let broken = Arc::new(Mutex::new(None));
    let told = Arc::clone(&broken);
    // Not joined: it may wait on an input the client never closes.
    std::thread::spawn(move || {
        let stdin = io::stdin();
        let answer = |skip: &Skip| {
            let mut output = io::stdout().lock();
            output
                .write_all(&skip.response())
                .and_then(|()| output.flush())
                .is_ok()
        };
        if let Err(e) = read_all(&mut stdin.lock(), |m| sender.send(m).is_ok(), answer)
            && let Ok(mut slot) = told.lock()
        {
            *slot = Some(e.to_string());
        }
        // Only now the server may see the end of its input.
        drop(sender);
    });
    let writer = std::thread::spawn(move || {
        for message in receiver {
            // Locked message by message: the reader answers what it skipped.
            message.write(&mut io::stdout().lock())?;
        }
        Ok(())
    });
    (server, Transport { broken, writer })
}

/// Passes every message of `input` on (`pass` says whether the server still
/// listens) and answers every one skipped (`answer` says whether the editor
/// still listens), until the input ends, `exit` comes or the server or the
/// editor stops listening; an error is a broken frame.
fn read_all(
    input: &mut impl BufRead,
    mut pass: impl FnMut(Message) -> bool,
    mut answer: impl FnMut(&Skip) -> bool,
) -> io::Result<()> {
    loop {
        match read_frame(input, MAX_MESSAGE_BYTES)? {
            Frame::Message(message) => {
                let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                if !pass(message) || exit {
                    return Ok(());
                }
            }
            Frame::Skipped(skip) => {
                eprintln!("bfr lsp: skipped {}", skip.why);
                if !answer(&skip) {
                    return Ok(());
                }
            }
            Frame::End => return Ok(()),
        }
    }
}

impl Transport {
    /// Waits for the last messages to be written (the server's end of the
    /// connection must be dropped first) and says whether the connection held.
    /// The reader is not waited for: a client that keeps its end open after
    /// `exit` does not keep the server.
    pub fn finish(self) -> Result<(), String> {
        let written = self
            .writer
            .join()
            .map_err(|_| "the writer failed".to_string())?;
        written.map_err(|e| format!("cannot write to the editor: {e}"))?;
        match self.broken.lock().map(|slot| slot.clone()) {
            Ok(Some(why)) => Err(format!("cannot read from the editor: {why}")),
            Ok(None) => Ok(()),
            Err(_) => Err("the reader failed".to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Frame, Skip, read_all, read_frame};
    use lsp_server::ErrorCode;
    use std::io::Cursor;

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    const EXIT: &str = r#"{"jsonrpc":"2.0","method":"exit"}"#;

    #[test]
    fn a_message_too_long_is_skipped_and_the_next_is_read() {
        let long = format!(
            r#"{{"jsonrpc":"2.0","method":"x","params":"{}"}}"#,
            "a".repeat(40)
        );
        let mut input = Cursor::new(format!("{}{}", frame(&long), frame(EXIT)));
        let skipped = read_frame(&mut input, 40).unwrap();
        assert!(
            matches!(&skipped, Frame::Skipped(Skip { code: ErrorCode::InvalidRequest, why, .. }) if why.contains("of at most 40 bytes")),
            "{skipped:?}"
        );
        assert!(matches!(
            read_frame(&mut input, 40).unwrap(),
            Frame::Message(_)
        ));
        assert!(matches!(read_frame(&mut input, 40).unwrap(), Frame::End));
        // At the limit exactly, a message.
        let mut input = Cursor::new(frame(EXIT));
        assert!(matches!(
            read_frame(&mut input, EXIT.len()).unwrap(),
            Frame::Message(_)
        ));
    }

    #[test]
    fn a_length_the_input_does_not_hold_is_its_end_not_an_allocation() {
        for header in [
            "Content-Length: 99999999999\r\n\r\n{",
            "Content-Length: 12\r\n\r\n{}",
        ] {
            let mut input = Cursor::new(header.to_string());
            assert!(matches!(
                read_frame(&mut input, usize::MAX).unwrap(),
                Frame::End
            ));
        }
    }

    #[test]
    fn a_body_that_is_not_a_message_is_skipped() {
        let mut input = Cursor::new(format!("{}{}", frame("{not json"), frame(EXIT)));
        let skipped = read_frame(&mut input, 1000).unwrap();
        assert!(
            matches!(&skipped, Frame::Skipped(Skip { code: ErrorCode::ParseError, why, .. }) if why.contains("line 1, column 2")),
            "{skipped:?}"
        );
        assert!(matches!(
            read_frame(&mut input, 1000).unwrap(),
            Frame::Message(_)
        ));
    }

    #[test]
    fn a_skipped_message_is_answered_with_an_error_and_the_id_it_could_read() {
        let bodies = [
            "{not json",
            r#"{"jsonrpc":"2.0","method":1}"#,
            r#"{"jsonrpc":"2.0","id":3.5,"method":"shutdown"}"#,
            r#"{"jsonrpc":"2.0","id":9,"method":1}"#,
            r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#,
            EXIT,
            "{not json",
        ];
        let input: String = bodies.iter().map(|b| frame(b)).collect();
        let (mut passed, mut answered) = (0, Vec::new());
        read_all(
            &mut Cursor::new(input),
            |_| {
                passed += 1;
                true
            },
            |skip| {
                answered.push(skip.response());
                true
            },
        )
        .unwrap();
        // `exit` ends the reading: the last body is never read.
        assert_eq!(passed, 2);
        let codes: Vec<_> = answered
            .iter()
            .map(|framed| {
                // Read as JSON: lsp-server has no response without an id.
                let text = String::from_utf8(framed.clone()).unwrap();
                let (header, body) = text.split_once("\r\n\r\n").unwrap();
                assert_eq!(header, format!("Content-Length: {}", body.len()));
                let value: serde_json::Value = serde_json::from_str(body).unwrap();
                assert_eq!(value["jsonrpc"], "2.0", "{value}");
                let message = value["error"]["message"].as_str().unwrap();
                assert!(message.starts_with("bfr skipped a "), "{message}");
                (
                    value["error"]["code"].as_i64().unwrap(),
                    value["id"].clone(),
                )
            })
            .collect();
        // The id as written where one could be read, so the sender stops waiting.
        assert_eq!(
            codes,
            [
                (-32700, serde_json::Value::Null),
                (-32600, serde_json::Value::Null),
                (-32600, serde_json::json!(3.5)),
                (-32600, serde_json::json!(9)),
            ]
        );
        // An editor that no longer listens ends the reading.
        let input = format!("{}{}", frame("{not json"), frame(EXIT));
        let mut passed = 0;
        read_all(
            &mut Cursor::new(input),
            |_| {
                passed += 1;
                true
            },
            |_| false,
        )
        .unwrap();
        assert_eq!(passed, 0);
    }

    #[test]
    fn a_request_whose_id_no_response_can_carry_is_said_not_taken_for_a_notification() {
        for id in ["2147483648", "3.0", "null", "{\"a\":1}", "-2147483649"] {
            let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"shutdown"}}"#);
            let read = read_frame(&mut Cursor::new(frame(&body)), 1000).unwrap();
            assert!(
                matches!(&read, Frame::Skipped(Skip { code: ErrorCode::InvalidRequest, why, .. }) if why.contains(&format!("the id {id}, which cannot be answered"))),
                "{id}: {read:?}"
            );
        }
        for id in ["2147483647", "-2147483648", "\"x\""] {
            let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"shutdown"}}"#);
            let read = read_frame(&mut Cursor::new(frame(&body)), 1000).unwrap();
            assert!(
                matches!(&read, Frame::Message(lsp_server::Message::Request(_))),
                "{id}: {read:?}"
            );
        }
    }

    #[test]
    fn header_lines_are_bounded_in_length_and_number() {
        let long = format!("X-Note: {}\r\n{}", "n".repeat(2000), frame(EXIT));
        assert!(read_frame(&mut Cursor::new(long), 1000).is_err());
        // Sixteen header lines (and the blank one) at most.
        let with = |extra: usize| format!("{}{}", "X: y\r\n".repeat(extra), frame(EXIT));
        let at_limit = read_frame(&mut Cursor::new(with(15)), 1000).unwrap();
        assert!(matches!(at_limit, Frame::Message(_)), "{at_limit:?}");
        assert!(read_frame(&mut Cursor::new(with(16)), 1000).is_err());
    }

    #[test]
    fn a_broken_frame_is_an_error() {
        for input in [
            format!("Content-Length: {}", "9".repeat(2000)),
            "Content-Type: x\r\n\r\n{}".to_string(),
            "Content-Length 2\r\n\r\n{}".to_string(),
            "Content-Length: two\r\n\r\n{}".to_string(),
            "X: y\r\n".repeat(20),
        ] {
            assert!(
                read_frame(&mut Cursor::new(input.clone()), 1000).is_err(),
                "{input:?}"
            );
        }
    }
}
