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
//! * Before either, on every route, a request that says twice who it is
//!   for or from is refused with 400, as nginx does: two `Host` headers,
//!   two `Origin` headers, or a target in absolute form
//!   (`GET http://host/path`) whose host is not the `Host` header's (the
//!   checks above would read one name and the router serve another).

use std::net::IpAddr;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, Method, StatusCode, Uri};
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

/// Why a request that names its host or origin twice must be refused
/// (see the module's notes), if it must.
fn ambiguity(uri: &Uri, headers: &HeaderMap) -> Option<ApiError> {
    let bad =
        |message: String| ApiError::with_code(StatusCode::BAD_REQUEST, "bad_request", message);
    for name in [header::HOST, header::ORIGIN] {
        if headers.get_all(&name).iter().count() > 1 {
            return Some(bad(format!("refused: more than one {name} header")));
        }
    }
    let authority = uri.authority()?;
    let same = headers.get(header::HOST).is_some_and(|host| {
        host.as_bytes()
            .eq_ignore_ascii_case(authority.as_str().as_bytes())
    });
    (!same).then(|| {
        bad(format!(
            "refused: the request target names the host '{authority}', the Host header another"
        ))
    })
}

/// The middleware of every route: refuses a request that names its host
/// or origin twice, with a 400.
pub(crate) async fn unambiguous(request: Request, next: Next) -> Response {
    match ambiguity(request.uri(), request.headers()) {
        Some(refusal) => refusal.into_response(),
        None => next.run(request).await,
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

    #[test]
    fn a_request_naming_its_host_or_origin_twice_is_ambiguous() {
        let headers = |lines: &[(&'static str, &str)]| {
            let mut map = HeaderMap::new();
            for (name, value) in lines {
                map.append(*name, value.parse().unwrap());
            }
            map
        };
        let path: Uri = "/api/games".parse().unwrap();
        let host = ("host", "127.0.0.1:8080");
        assert!(ambiguity(&path, &headers(&[host])).is_none());
        let origin = ("origin", "http://127.0.0.1:8080");
        assert!(ambiguity(&path, &headers(&[host, origin])).is_none());
        for twice in [
            headers(&[host, ("host", "evil.example")]),
            headers(&[host, origin, ("origin", "http://evil.example")]),
        ] {
            let refusal = ambiguity(&path, &twice).unwrap();
            assert_eq!(refusal.status(), StatusCode::BAD_REQUEST);
        }
        let absolute: Uri = "http://evil.example/api/games".parse().unwrap();
        assert!(ambiguity(&absolute, &headers(&[host])).is_some());
        assert!(ambiguity(&absolute, &headers(&[])).is_some());
        let own: Uri = "http://127.0.0.1:8080/api/games".parse().unwrap();
        assert!(ambiguity(&own, &headers(&[host])).is_none());
    }
}
