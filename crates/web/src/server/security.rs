//! What keeps other web pages away from the session API: the `Host` check
//! (against DNS rebinding: a page of `evil.example` whose name the attacker
//! points at 127.0.0.1 would otherwise talk to this server as its own
//! origin) and the `Origin` check (a page of any other origin can send
//! blind POSTs, which would create sessions, drive games and evict the
//! live ones).
//!
//! * `Host` must name this machine by an IP address (which no DNS answer
//!   can rebind), `localhost` (or a name under it), or a name allowed by
//!   [`Guard::allow_host`]. A request without `Host` comes from no browser
//!   and passes.
//! * A request that may change something (any method but GET, HEAD and
//!   OPTIONS) whose `Origin` is not `http://HOST` or `https://HOST` of its
//!   own `Host` is refused, and so is one a browser marks as sent from
//!   another site (`Sec-Fetch-Site` other than `same-origin` or `none`).
//!   Requests without `Origin` (command-line clients) pass.

use std::net::IpAddr;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::errors::ApiError;

/// The hosts a server answers to, beyond IP addresses and `localhost`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Guard {
    names: Vec<String>,
}

impl Guard {
    /// Also answers to `name` (a host name, without a port), as reverse
    /// proxies and other machines name this server.
    pub fn allow_host(&mut self, name: &str) {
        self.names
            .push(name.trim().trim_end_matches('.').to_ascii_lowercase());
    }

    /// Whether `host` (a `Host` header: a name or address, maybe with a
    /// port) names this server.
    pub fn host_allowed(&self, host: &str) -> bool {
        let name = host_name(host).to_ascii_lowercase();
        let name = name.trim_end_matches('.');
        name.parse::<IpAddr>().is_ok()
            || name == "localhost"
            || name.ends_with(".localhost")
            || self.names.iter().any(|n| n == name)
    }

    /// Why `method`, `headers` must be refused, if they must.
    fn refusal(&self, method: &Method, headers: &HeaderMap) -> Option<ApiError> {
        let host = match headers.get(header::HOST) {
            None => None,
            Some(value) => match value.to_str() {
                Ok(host) if self.host_allowed(host) => Some(host),
                _ => {
                    return Some(forbidden(
                        "forbidden_host",
                        format!(
                            "refused: the Host header '{}' does not name this server (it answers to IP addresses, localhost and the names of --allow-host)",
                            String::from_utf8_lossy(value.as_bytes())
                        ),
                    ))
                }
            },
        };
        if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
            return None;
        }
        if let Some(site) = headers.get("sec-fetch-site") {
            if !matches!(site.as_bytes(), b"same-origin" | b"none") {
                return Some(forbidden(
                    "forbidden_origin",
                    format!(
                        "refused: a request sent by another site (Sec-Fetch-Site '{}')",
                        String::from_utf8_lossy(site.as_bytes())
                    ),
                ));
            }
        }
        let origin = headers.get(header::ORIGIN)?;
        let own = origin
            .to_str()
            .ok()
            .zip(host)
            .is_some_and(|(origin, host)| {
                let origin = origin.to_ascii_lowercase();
                let host = host.to_ascii_lowercase();
                origin.strip_prefix("http://") == Some(host.as_str())
                    || origin.strip_prefix("https://") == Some(host.as_str())
            });
        (!own).then(|| {
            forbidden(
                "forbidden_origin",
                format!(
                    "refused: a request from another web page (Origin '{}')",
                    String::from_utf8_lossy(origin.as_bytes())
                ),
            )
        })
    }
}

/// `host` without its port (`[::1]:8080` is `::1`).
fn host_name(host: &str) -> &str {
    let host = host.trim();
    if let Some(rest) = host.strip_prefix('[') {
        return rest.split(']').next().unwrap_or(rest);
    }
    match host.rsplit_once(':') {
        Some((name, port)) if !name.contains(':') && port.bytes().all(|b| b.is_ascii_digit()) => {
            name
        }
        _ => host,
    }
}

fn forbidden(code: &'static str, message: String) -> ApiError {
    ApiError::with_code(StatusCode::FORBIDDEN, code, message)
}

/// The middleware: refuses what [`Guard`] refuses, with a 403.
pub(crate) async fn check(
    State(guard): State<Arc<Guard>>,
    request: Request,
    next: Next,
) -> Response {
    match guard.refusal(request.method(), request.headers()) {
        Some(refusal) => refusal.into_response(),
        None => next.run(request).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_addresses_localhost_or_allowed_names() {
        let mut guard = Guard::default();
        for host in [
            "127.0.0.1:8080",
            "127.0.0.1",
            "[::1]:80",
            "localhost:9",
            "LocalHost.",
            "app.localhost:3000",
            "192.168.1.7:8080",
        ] {
            assert!(guard.host_allowed(host), "{host}");
        }
        for host in [
            "evil.example:8080",
            "evil.example",
            "localhost.evil.example",
            "",
        ] {
            assert!(!guard.host_allowed(host), "{host}");
        }
        guard.allow_host("Board.Example");
        assert!(guard.host_allowed("board.example:443"));
    }
}
