//! The page's files: the server's own page (embedded in the binary, so it
//! works offline), or a static site from a directory.

use std::path::Path;

use axum::body::Body;
use axum::http::{header, HeaderValue};
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use tower_http::services::ServeDir;

use super::errors::not_found;

const INDEX_HTML: &str = include_str!("../../assets/index.html");
const APP_JS: &str = include_str!("../../assets/app.js");
const ERRORS_JS: &str = include_str!("../../assets/errors.js");
const APP_CSS: &str = include_str!("../../assets/app.css");
const MANIFEST: &str = include_str!("../../assets/manifest.webmanifest");
const ICON_SVG: &str = include_str!("../../assets/icon.svg");
const ICON_192: &[u8] = include_bytes!("../../assets/icon-192.png");
const ICON_512: &[u8] = include_bytes!("../../assets/icon-512.png");
const SITE_JSON: &str = "{\"backend\": \"server\"}\n";

fn asset(bytes: impl Into<Body>, kind: &'static str) -> Response {
    let mut response = Response::new(bytes.into());
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// The embedded page.
pub(crate) fn embedded() -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { asset(INDEX_HTML, "text/html; charset=utf-8") }),
        )
        .route(
            "/app.js",
            get(|| async { asset(APP_JS, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/errors.js",
            get(|| async { asset(ERRORS_JS, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/app.css",
            get(|| async { asset(APP_CSS, "text/css; charset=utf-8") }),
        )
        // The app's manifest and icons (the service worker is the static
        // site's only: a page of this server needs it anyway).
        .route(
            "/manifest.webmanifest",
            get(|| async { asset(MANIFEST, "application/manifest+json") }),
        )
        .route(
            "/icon.svg",
            get(|| async { asset(ICON_SVG, "image/svg+xml") }),
        )
        .route(
            "/icon-192.png",
            get(|| async { asset(ICON_192, "image/png") }),
        )
        .route(
            "/icon-512.png",
            get(|| async { asset(ICON_512, "image/png") }),
        )
        // The page asks which backend it has: this server's API (a static
        // site's site.json names the in-page one).
        .route(
            "/site.json",
            get(|| async { asset(SITE_JSON, "application/json") }),
        )
        .fallback(not_found)
}

/// The files of `dir` (`index.html` for a directory), revalidated on
/// every load so that a site exported again shows at once. tower-http's
/// `ServeDir` keeps requests inside `dir` and sends each file's type
/// (`application/wasm` included, which browsers need to compile it while
/// it loads).
pub(crate) fn directory(dir: &Path) -> Router {
    Router::new()
        .fallback_service(ServeDir::new(dir))
        .layer(axum::middleware::map_response(
            |mut response: Response| async move {
                response
                    .headers_mut()
                    .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
                response
            },
        ))
}
