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

const HTML: &str = "text/html; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";
const MANIFEST: &str = "application/manifest+json";
const SVG: &str = "image/svg+xml";
const PNG: &str = "image/png";
const JSON: &str = "application/json";

/// The page's files, each with its address and type: every file of
/// `crates/web/assets` (a test checks that none is missing). The
/// static site's own (its backend, the engine's worker, the service
/// worker) are served too, though this server's page never loads them.
const ASSETS: &[(&str, &[u8], &str)] = &[
    ("/", include_bytes!("../../assets/index.html"), HTML),
    (
        "/index.html",
        include_bytes!("../../assets/index.html"),
        HTML,
    ),
    ("/main.js", include_bytes!("../../assets/main.js"), JS),
    (
        "/controller.js",
        include_bytes!("../../assets/controller.js"),
        JS,
    ),
    ("/view.js", include_bytes!("../../assets/view.js"), JS),
    ("/state.js", include_bytes!("../../assets/state.js"), JS),
    ("/dom.js", include_bytes!("../../assets/dom.js"), JS),
    ("/i18n.js", include_bytes!("../../assets/i18n.js"), JS),
    ("/errors.js", include_bytes!("../../assets/errors.js"), JS),
    (
        "/settings.js",
        include_bytes!("../../assets/settings.js"),
        JS,
    ),
    ("/rules.js", include_bytes!("../../assets/rules.js"), JS),
    ("/board.js", include_bytes!("../../assets/board.js"), JS),
    ("/ui.js", include_bytes!("../../assets/ui.js"), JS),
    ("/sound.js", include_bytes!("../../assets/sound.js"), JS),
    ("/offline.js", include_bytes!("../../assets/offline.js"), JS),
    (
        "/panels/analysis.js",
        include_bytes!("../../assets/panels/analysis.js"),
        JS,
    ),
    (
        "/panels/clock.js",
        include_bytes!("../../assets/panels/clock.js"),
        JS,
    ),
    (
        "/panels/controls.js",
        include_bytes!("../../assets/panels/controls.js"),
        JS,
    ),
    (
        "/panels/moves.js",
        include_bytes!("../../assets/panels/moves.js"),
        JS,
    ),
    (
        "/panels/record.js",
        include_bytes!("../../assets/panels/record.js"),
        JS,
    ),
    (
        "/panels/review.js",
        include_bytes!("../../assets/panels/review.js"),
        JS,
    ),
    (
        "/panels/setup.js",
        include_bytes!("../../assets/panels/setup.js"),
        JS,
    ),
    (
        "/panels/status.js",
        include_bytes!("../../assets/panels/status.js"),
        JS,
    ),
    (
        "/backend/backend.js",
        include_bytes!("../../assets/backend/backend.js"),
        JS,
    ),
    (
        "/backend/server.js",
        include_bytes!("../../assets/backend/server.js"),
        JS,
    ),
    (
        "/backend/local.js",
        include_bytes!("../../assets/backend/local.js"),
        JS,
    ),
    (
        "/backend/kept-clock.js",
        include_bytes!("../../assets/backend/kept-clock.js"),
        JS,
    ),
    (
        "/backend/split-search.js",
        include_bytes!("../../assets/backend/split-search.js"),
        JS,
    ),
    ("/boot.js", include_bytes!("../../assets/boot.js"), JS),
    (
        "/engine-worker.js",
        include_bytes!("../../assets/engine-worker.js"),
        JS,
    ),
    ("/sw.js", include_bytes!("../../assets/sw.js"), JS),
    ("/app.css", include_bytes!("../../assets/app.css"), CSS),
    (
        "/manifest.webmanifest",
        include_bytes!("../../assets/manifest.webmanifest"),
        MANIFEST,
    ),
    ("/icon.svg", include_bytes!("../../assets/icon.svg"), SVG),
    (
        "/icon-192.png",
        include_bytes!("../../assets/icon-192.png"),
        PNG,
    ),
    (
        "/icon-512.png",
        include_bytes!("../../assets/icon-512.png"),
        PNG,
    ),
    // The page asks which backend it has: this server's API (a static
    // site's site.json names the in-page one).
    ("/site.json", b"{\"backend\": \"server\"}\n", JSON),
];

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
    let mut router = Router::new();
    for &(path, bytes, kind) in ASSETS {
        router = router.route(path, get(move || async move { asset(bytes, kind) }));
    }
    router.fallback(not_found)
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

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// The files under `dir`, as addresses (`/panels/moves.js`).
    fn files(dir: &Path, prefix: &str, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            let name = format!("{prefix}/{}", entry.file_name().to_string_lossy());
            if entry.file_type().unwrap().is_dir() {
                files(&entry.path(), &name, out);
            } else {
                out.push(name);
            }
        }
    }

    #[test]
    fn every_file_of_the_page_is_embedded() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
        let mut on_disk = Vec::new();
        files(&dir, "", &mut on_disk);
        on_disk.sort();
        let mut embedded: Vec<String> = super::ASSETS
            .iter()
            .map(|(path, _, _)| path.to_string())
            .filter(|path| path != "/" && path != "/site.json")
            .collect();
        embedded.sort();
        assert_eq!(on_disk, embedded);
    }

    /// The modules `main.js` imports, itself included, in the order first
    /// met: every `import ... from "./x.js";` line, followed.
    fn imported_by_main(dir: &Path) -> Vec<String> {
        let (mut seen, mut next) = (Vec::new(), vec!["main.js".to_string()]);
        while let Some(module) = next.pop() {
            if seen.contains(&module) {
                continue;
            }
            let text = std::fs::read_to_string(dir.join(&module)).unwrap();
            let base = Path::new(&module).parent().unwrap().to_path_buf();
            for line in text.lines().filter(|l| l.starts_with("import ")) {
                let Some((_, from)) = line.rsplit_once(" from \"") else {
                    continue;
                };
                let target = base.join(from.trim_end_matches("\";"));
                // `./x.js` and `../x.js` of a module, as a path of the folder.
                let mut parts: Vec<&str> = Vec::new();
                for part in target.to_str().unwrap().split('/') {
                    match part {
                        "." | "" => {}
                        ".." => {
                            parts.pop();
                        }
                        name => parts.push(name),
                    }
                }
                next.push(parts.join("/"));
            }
            seen.push(module);
        }
        seen
    }

    #[test]
    fn the_page_preloads_every_module_main_imports() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
        let page = std::fs::read_to_string(dir.join("index.html")).unwrap();
        let mut preloaded: Vec<&str> = page
            .lines()
            .filter_map(|l| l.strip_prefix("<link rel=\"modulepreload\" href=\""))
            .map(|l| l.trim_end_matches("\">"))
            .collect();
        preloaded.sort_unstable();
        let mut imported = imported_by_main(&dir);
        imported.sort();
        assert_eq!(preloaded, imported);
    }
}
