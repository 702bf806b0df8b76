//! The start of a session: the client's `initialize` request, the server's
//! answer, and the client's `initialized` notification. Written here rather
//! than taken from `lsp_server`, whose start panics when the editor's end of
//! the connection is gone and puts whole messages into its errors (a message
//! may hold 256 MiB).

use lsp_server::{Connection, ErrorCode, Message, Response};
use serde_json::Value;

/// How the start went.
#[derive(Debug, PartialEq, Eq)]
pub enum Started {
    /// `initialize` answered and `initialized` received: the session is on.
    Ready,
    /// The client broke off or broke the protocol, as said (for stderr).
    Refused(String),
    /// The connection could not be written to.
    Broke,
}

/// The most characters of a method name an error repeats.
const MAX_QUOTED: usize = 64;

/// Waits for `initialize`, answers it with `init`, and waits for
/// `initialized`. A request before `initialize` is answered with
/// ServerNotInitialized, as LSP asks; a notification other than `exit` is
/// passed over.
pub fn handshake(connection: &Connection, init: Value) -> Started {
    let id = loop {
        let Ok(message) = connection.receiver.recv() else {
            return Started::Refused("the input ended before `initialize`".into());
        };
        match message {
            Message::Request(req) if req.method == "initialize" => break req.id,
            Message::Request(req) => {
                let refused = Response::new_err(
                    req.id,
                    ErrorCode::ServerNotInitialized as i32,
                    format!("`{}` before `initialize`", quoted(&req.method)),
                );
                if connection.sender.send(refused.into()).is_err() {
                    return Started::Broke;
                }
            }
            Message::Notification(n) if n.method == "exit" => {
                return Started::Refused("the client said `exit` before `initialize`".into());
            }
            Message::Notification(_) => {}
            Message::Response(_) => {
                return Started::Refused("a response came before `initialize`".into());
            }
        }
    };
    if connection
        .sender
        .send(Response::new_ok(id, init).into())
        .is_err()
    {
        return Started::Broke;
    }
    match connection.receiver.recv() {
        Ok(Message::Notification(n)) if n.method == "initialized" => Started::Ready,
        Ok(other) => Started::Refused(format!(
            "expected the `initialized` notification, got {}",
            what(&other)
        )),
        Err(_) => Started::Refused("the input ended before `initialized`".into()),
    }
}

/// A message named for an error, in bounded length.
fn what(message: &Message) -> String {
    match message {
        Message::Request(r) => format!("the request `{}`", quoted(&r.method)),
        Message::Notification(n) => format!("the notification `{}`", quoted(&n.method)),
        Message::Response(_) => "a response".into(),
    }
}

/// At most [`MAX_QUOTED`] characters of `text`, with `…` if there were more.
pub(super) fn quoted(text: &str) -> String {
    match text.char_indices().nth(MAX_QUOTED) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_server::{Notification, Request, RequestId};
    use serde_json::json;

    fn request(id: i32, method: &str) -> Message {
        Request::new(RequestId::from(id), method.into(), json!({})).into()
    }

    fn notification(method: &str) -> Message {
        Notification::new(method.into(), json!({})).into()
    }

    #[test]
    fn a_request_before_initialize_is_refused_and_the_start_goes_on() {
        let (server, client) = Connection::memory();
        let long = "x".repeat(10_000);
        for m in [
            request(1, &long),
            notification("$/progress"),
            request(2, "initialize"),
            notification("initialized"),
        ] {
            client.sender.send(m).unwrap();
        }
        assert_eq!(
            handshake(&server, json!({"capabilities": {}})),
            Started::Ready
        );
        let Ok(Message::Response(refused)) = client.receiver.recv() else {
            panic!("the first request is answered");
        };
        let error = refused.response_result.unwrap_err();
        assert_eq!(error.code, ErrorCode::ServerNotInitialized as i32);
        assert!(error.message.len() < 100, "{}", error.message);
        let Ok(Message::Response(init)) = client.receiver.recv() else {
            panic!("initialize is answered");
        };
        assert_eq!(init.id, RequestId::from(2));
        assert!(init.response_result.is_ok());
    }

    #[test]
    fn a_broken_start_is_said_in_few_words() {
        let (server, client) = Connection::memory();
        client.sender.send(notification("exit")).unwrap();
        assert_eq!(
            handshake(&server, json!({})),
            Started::Refused("the client said `exit` before `initialize`".into())
        );
        let (server, client) = Connection::memory();
        client.sender.send(request(1, "initialize")).unwrap();
        client.sender.send(request(2, &"y".repeat(10_000))).unwrap();
        let Started::Refused(why) = handshake(&server, json!({})) else {
            panic!("a request instead of `initialized` is refused");
        };
        assert!(why.starts_with("expected the `initialized` notification, got the request `yyy"));
        assert!(why.chars().count() < 150, "{why}");
        // The editor gone before the answer can be written: broken, no panic.
        let (server, client) = Connection::memory();
        client.sender.send(request(1, "initialize")).unwrap();
        drop(client.receiver);
        assert_eq!(handshake(&server, json!({})), Started::Broke);
        drop(client.sender);
        let (server, client) = Connection::memory();
        drop(client);
        assert_eq!(
            handshake(&server, json!({})),
            Started::Refused("the input ended before `initialize`".into())
        );
    }
}
