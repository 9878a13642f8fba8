//! The server's JSON API, called through the router: games, sessions,
//! moves, navigation, records, engine moves, analysis with its event
//! stream, bad requests (4xx with a JSON error), session isolation and the
//! limits.

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use qi_web::server::{Config, Server};
use serde_json::{json, Value};
use tower::ServiceExt;

fn app(config: Config) -> (Server, Router) {
    let server = Server::new(config);
    let router = server.router();
    (server, router)
}

fn default_app() -> Router {
    app(Config::default()).1
}

async fn raw(app: &Router, method: &str, uri: &str, body: &str) -> (StatusCode, String) {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

async fn call(app: &Router, method: &str, uri: &str, body: Value) -> (StatusCode, Value) {
    let text = if body.is_null() {
        String::new()
    } else {
        body.to_string()
    };
    let (status, text) = raw(app, method, uri, &text).await;
    let value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{uri}: not JSON ({e}): {text}"));
    (status, value)
}

/// A POST of `body` to `/api/sessions/ID` + `action`.
async fn post(app: &Router, id: &str, action: &str, body: Value) -> (StatusCode, Value) {
    call(app, "POST", &format!("/api/sessions/{id}{action}"), body).await
}

async fn session(app: &Router, body: Value) -> (String, Value) {
    let (status, view) = call(app, "POST", "/api/sessions", body).await;
    assert_eq!(status, StatusCode::CREATED, "{view}");
    (view["id"].as_str().unwrap().to_string(), view)
}

/// The record of session `id` (`GET /api/sessions/ID/record`), as text.
async fn record(app: &Router, id: &str) -> String {
    let uri = format!("/api/sessions/{id}/record");
    let (status, saved) = call(app, "GET", &uri, Value::Null).await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    saved["record"]
        .as_str()
        .unwrap_or_else(|| panic!("no record: {saved}"))
        .to_string()
}

fn moves(view: &Value) -> Vec<&str> {
    view["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect()
}

fn legal(view: &Value) -> Vec<&str> {
    view["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect()
}

fn error_of(status: StatusCode, body: &Value) -> &str {
    assert!(
        status.is_client_error() || status.is_server_error(),
        "{status}"
    );
    body["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error message: {body}"))
}

#[tokio::test]
async fn the_page_and_its_assets_are_served() {
    let app = default_app();
    let (status, html) = raw(&app, "GET", "/", "").await;
    assert_eq!(status, StatusCode::OK);
    // Relative addresses: the same page works as a static site from any
    // directory of a host.
    assert!(html.contains("<script type=\"module\" src=\"main.js\""));
    // The page asks which backend it has.
    let (status, site) = raw(&app, "GET", "/site.json", "").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        serde_json::from_str::<Value>(&site).unwrap()["backend"],
        "server"
    );
    for asset in [
        "/main.js",
        "/errors.js",
        "/panels/moves.js",
        "/panels/clock.js",
        "/panels/review.js",
        "/backend/server.js",
        "/app.css",
        "/site.json",
        "/manifest.webmanifest",
    ] {
        let (status, text) = raw(&app, "GET", asset, "").await;
        assert_eq!(status, StatusCode::OK);
        assert!(!text.is_empty());
        assert!(
            !text.contains("http://") && !text.contains("https://"),
            "{asset} loads nothing from the internet"
        );
    }
    // The app's icons (an SVG names its namespace by URL: no load).
    let (status, icon) = raw(&app, "GET", "/icon.svg", "").await;
    assert_eq!(status, StatusCode::OK);
    assert!(icon.starts_with("<svg"));
    let (status, games) = call(&app, "GET", "/api/games", Value::Null).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(games["default"], "jungle:standard");
    assert_eq!(games["games"][1]["name"], "five-tigers");
    assert!(games["games"][1]["presets"]
        .as_array()
        .unwrap()
        .contains(&json!("five-tigers:ten")));
}

#[tokio::test]
async fn a_jungle_game_plays_undoes_and_navigates() {
    let app = default_app();
    let (id, view) = session(&app, Value::Null).await;
    assert_eq!(view["spec"], "jungle:standard");
    assert_eq!(view["status"], "Red to move");
    assert_eq!(legal(&view).len(), 24);
    assert!(view["svg"].as_str().unwrap().starts_with("<svg"));
    let base = format!("/api/sessions/{id}");
    for mv in ["a3a4", "g7g6", "a4a5"] {
        let (status, view) = post(&app, &id, "/play", json!({"move": mv})).await;
        assert_eq!(status, StatusCode::OK, "{view}");
        assert_eq!(view["last"], mv);
    }
    let (_, view) = call(&app, "GET", &base, Value::Null).await;
    assert_eq!(moves(&view), ["a3a4", "g7g6", "a4a5"]);
    assert_eq!(view["ply"], 3);
    assert_eq!(view["to_move_name"], "Blue");
    let (status, view) = post(&app, &id, "/goto", json!({"ply": 1})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(view["ply"], 1);
    assert_eq!(moves(&view).len(), 3, "navigation keeps the line");
    assert_eq!(
        view["text"],
        "l5t/1d3c1/r1p1w1e/7/7/E6/2W1P1R/1C3D1/T5L b 1 1"
    );
    // A move played inside the line starts a variation: the line stays.
    let (_, view) = post(&app, &id, "/play", json!({"move": "a7a6"})).await;
    assert_eq!(moves(&view), ["a3a4", "a7a6"]);
    assert_eq!(view["tree"].as_array().unwrap().len(), 4);
    let (_, view) = post(&app, &id, "/undo", json!({"count": 2})).await;
    assert_eq!(view["ply"], 0);
    assert!(moves(&view).is_empty());
    let (status, body) = post(&app, &id, "/undo", Value::Null).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(error_of(status, &body), "no move to take back");
}

#[tokio::test]
async fn the_tree_of_moves_navigates_promotes_and_previews() {
    let app = default_app();
    let (id, _) = session(&app, Value::Null).await;
    for mv in ["a3a4", "g7g6"] {
        post(&app, &id, "/play", json!({"move": mv})).await;
    }
    post(&app, &id, "/goto", json!({"ply": 1})).await;
    let (_, view) = post(&app, &id, "/play", json!({"move": "a7a6"})).await;
    assert_eq!(view["node"], 2);
    assert_eq!(
        view["tree"][2],
        json!({"parent": 0, "move": "a7a6", "mover": "second"})
    );
    // Any line of the tree can be shown.
    let (status, view) = post(&app, &id, "/line", json!({"moves": ["a3a4", "g7g6"]})).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["ply"], 2);
    assert_eq!(view["node"], 1);
    let (status, body) = post(&app, &id, "/line", json!({"moves": ["b3b4"]})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["kind"], "move");
    // Promoted, the variation is the main line, and the record says so.
    post(&app, &id, "/line", json!({"moves": ["a3a4", "a7a6"]})).await;
    let (status, view) = post(&app, &id, "/promote", Value::Null).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["tree"][1]["move"], "a7a6");
    let saved = record(&app, &id).await;
    assert!(saved.contains("a3a4 a7a6 (g7g6) *"), "{saved}");
    // A preview draws a line without playing it.
    let (status, preview) = post(&app, &id, "/preview", json!({"moves": ["a4a5"]})).await;
    assert_eq!(status, StatusCode::OK, "{preview}");
    assert!(preview["svg"].as_str().unwrap().starts_with("<svg"));
    let (_, view) = call(&app, "GET", &format!("/api/sessions/{id}"), Value::Null).await;
    assert_eq!(moves(&view), ["a3a4", "a7a6"]);
    let (status, body) = post(&app, &id, "/preview", json!({"moves": ["a9a1"]})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
}

#[tokio::test]
async fn five_tigers_square_and_removal() {
    let app = default_app();
    let (id, view) = session(&app, json!({"spec": "five-tigers"})).await;
    assert_eq!(view["status"], "X to place");
    assert_eq!(view["hands"], json!([13, 13]));
    let mut view = view;
    for mv in ["b2", "a5", "b3", "c4", "c2", "e5", "c3"] {
        let (status, next) = post(&app, &id, "/play", json!({"move": mv})).await;
        assert_eq!(status, StatusCode::OK, "{next}");
        view = next;
    }
    assert_eq!(
        view["removal"],
        json!({"side": "X", "count": 1, "chooser": "X"})
    );
    assert_eq!(
        view["status"],
        "X must remove 1 of O's pieces (loose ones first)"
    );
    let mut removals = legal(&view);
    removals.sort_unstable();
    assert_eq!(removals, ["xa5", "xc4", "xe5"]);
    let (_, view) = post(&app, &id, "/play", json!({"move": "xc4"})).await;
    assert!(view["removal"].is_null());
    assert_eq!(view["status"], "O to place");
    assert_eq!(view["phase"], "place");
}

#[tokio::test]
async fn a_game_ends_with_its_reason_in_words() {
    let app = default_app();
    let (id, _) = session(
        &app,
        json!({"spec": "jungle", "text": "6l/3R3/7/7/7/7/7/7/6L w 0 1"}),
    )
    .await;
    let (status, view) = post(&app, &id, "/play", json!({"move": "d8d9"})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(view["result"]["token"], "1-0");
    assert_eq!(view["result"]["winner"], "Red");
    assert_eq!(view["result"]["reason"], "den entered");
    assert_eq!(view["status"], "Red wins: den entered.");
    assert!(legal(&view).is_empty());
    let (status, body) = post(&app, &id, "/play", json!({"move": "g9g8"})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(error_of(status, &body).contains("the game is over"));
    // The kind and fields of the error, as the JavaScript package throws
    // them, beside the message.
    assert_eq!(body["kind"], "move");
    assert_eq!(body["fields"]["text"], "g9g8");
    assert!(body["fields"]["reason"]
        .as_str()
        .unwrap()
        .contains("the game is over"));
    let (status, body) = post(&app, &id, "/engine", json!({})).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(error_of(status, &body), "the game is over");
    assert_eq!(body["kind"], "game-over");
}

#[tokio::test]
async fn the_servers_own_errors_carry_their_kind_and_fields() {
    let app = default_app();
    let (id, _) = session(&app, Value::Null).await;
    let (status, body) = post(&app, &id, "/play", json!({"mov": "a3a4"})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["kind"], "bad-json");
    assert!(body["fields"]["reason"]
        .as_str()
        .unwrap()
        .contains("unknown field `mov`"));
    let (_, body) = post(&app, &id, "/undo", json!({"count": 0})).await;
    assert_eq!(body["kind"], "argument.range");
    assert_eq!(
        body["fields"],
        json!({"name": "count", "min": 1, "max": 1000, "value": "0"})
    );
    let (_, body) = post(&app, &id, "/engine", json!({"level": 11})).await;
    assert_eq!(body["kind"], "argument.range");
    assert_eq!(body["fields"]["name"], "level");
    assert_eq!(body["fields"]["value"], "11");
    let (_, body) = post(&app, &id, "/engine", json!({"movetime_ms": 0})).await;
    assert_eq!(body["fields"]["name"], "movetime_ms");
    let (_, body) = post(&app, &id, "/analysis/start", json!({"level": 3})).await;
    assert_eq!(body["kind"], "analysis-level");
    let (_, body) = post(&app, &id, "/analysis/start", json!({"multipv": 0})).await;
    assert_eq!(body["kind"], "option");
    let (status, body) = post(&app, "nope", "/play", json!({"move": "a3a4"})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(
        (&body["code"], &body["kind"]),
        (&json!("unknown_session"), &json!("no-session"))
    );
    assert_eq!(body["fields"], json!({"id": "nope"}));
}

#[tokio::test]
async fn each_game_says_why_it_ended() {
    let app = default_app();
    for (spec, text, sentence) in [
        (
            "jungle",
            "7/7/7/7/7/7/7/7/6L b 0 1",
            "Red wins: no animals left.",
        ),
        (
            "five-tigers:ten",
            "5/5/5/X4/OX3 o move X:0,O:0 - o -,- 0",
            "X wins: no step left.",
        ),
        (
            "five-tigers:ten",
            "5/5/5/5/X4 o move X:0,O:0 - o -,- 0",
            "X wins: no pieces left.",
        ),
    ] {
        let (_, view) = session(&app, json!({"spec": spec, "text": text})).await;
        assert_eq!(view["result"]["text"], sentence, "{spec} {text}");
        assert_eq!(view["status"], sentence);
        assert_eq!(view["result"]["token"], "1-0");
    }
}

#[tokio::test]
async fn history_rules_end_games_in_words_too() {
    let app = default_app();
    // Jungle's traditional rules: the side that began a repetition and
    // does not vary loses.
    let (id, _) = session(
        &app,
        json!({"spec": "jungle:traditional", "text": "1L5/c6/7/7/7/7/7/7/6E w 0 1"}),
    )
    .await;
    let mut view = Value::Null;
    for mv in [
        "b9b8", "a8a9", "b8b9", "a9a8", "b9b8", "a8a9", "b8b9", "a9a8", "b9b8",
    ] {
        let (status, next) = post(&app, &id, "/play", json!({"move": mv})).await;
        assert_eq!(status, StatusCode::OK, "{mv}: {next}");
        view = next;
    }
    assert_eq!(
        view["result"]["text"],
        "Blue wins: repetition (the side that began it did not vary)."
    );
    // The no-capture draw, after two quiet plies.
    let (id, _) = session(&app, json!({"spec": "jungle:standard,no_capture_draw=2"})).await;
    post(&app, &id, "/play", json!({"move": "a3a4"})).await;
    let (_, view) = post(&app, &id, "/play", json!({"move": "g7g6"})).await;
    assert_eq!(view["result"]["text"], "Draw: no capture for 2 plies.");
    assert_eq!(view["result"]["token"], "1/2-1/2");
}

#[tokio::test]
async fn records_save_and_load() {
    let app = default_app();
    let (a, _) = session(&app, json!({"spec": "five-tigers:ten"})).await;
    for mv in ["c3", "b2"] {
        post(&app, &a, "/play", json!({"move": mv})).await;
    }
    let saved = record(&app, &a).await;
    assert!(saved.contains("[Game \"five-tigers:ten\"]"));
    assert!(saved.contains("c3 b2 *"));
    // Loading it elsewhere changes that session's game, shown at its end.
    let (b, _) = session(&app, Value::Null).await;
    let (status, view) = post(&app, &b, "/record", json!({"record": saved})).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["spec"], "five-tigers:ten");
    assert_eq!(moves(&view), ["c3", "b2"]);
    assert_eq!(view["ply"], 2);
    // A finished record replays with its result.
    let finished = "[Game \"jungle\"]\n[Start \"6l/3R3/7/7/7/7/7/7/6L w 0 1\"]\n[Result \"1-0\"]\n\nd8d9 1-0\n";
    let (_, view) = post(&app, &b, "/record", json!({"record": finished})).await;
    assert_eq!(view["result"]["reason"], "den entered");
    let (_, view) = post(&app, &b, "/goto", json!({"ply": 0})).await;
    assert!(view["result"].is_null());
    for bad in [
        "nonsense",
        "[Game \"chess\"]\n\n*\n",
        "[Game \"jungle\"]\n\na3a5 *\n",
    ] {
        let (status, body) = post(&app, &b, "/record", json!({"record": bad})).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
        assert!(error_of(status, &body).starts_with("bad record"), "{body}");
    }
}

#[tokio::test]
async fn bad_requests_get_4xx_with_a_json_error() {
    let app = default_app();
    let (id, _) = session(&app, Value::Null).await;
    let base = format!("/api/sessions/{id}");
    // (method, path: under the session when it starts with '/', body,
    // status)
    let cases: [(&str, &str, &str, u16); 26] = [
        ("POST", "/play", "{", 400),
        ("POST", "/play", "[]", 400),
        ("POST", "/play", r#"{"move": 3}"#, 400),
        ("POST", "/play", r#"{"move": "a3a4", "x": 1}"#, 400),
        ("POST", "/play", r#"{"move": "zz\u001b[31m"}"#, 422),
        ("POST", "/play", r#"{"move": "a3a5"}"#, 422),
        ("POST", "/goto", r#"{"ply": 5}"#, 400),
        ("POST", "/goto", r#"{"ply": -1}"#, 400),
        ("POST", "/undo", r#"{"count": 0}"#, 400),
        ("POST", "/new", r#"{"spec": "chess"}"#, 400),
        ("POST", "/new", r#"{"spec": "jungle", "text": "xx"}"#, 400),
        (
            "POST",
            "/new",
            r#"{"spec": "five-tigers:ten,pieces_per_side=99"}"#,
            400,
        ),
        ("POST", "/engine", r#"{"movetime_ms": 0}"#, 400),
        ("POST", "/engine", r#"{"movetime_ms": 999999999}"#, 400),
        ("POST", "/engine", r#"{"level": 0}"#, 400),
        ("POST", "/engine", r#"{"level": 11}"#, 400),
        ("POST", "/analysis/start", r#"{"level": 3}"#, 400),
        ("POST", "/analysis/start", r#"{"movetime_ms": "soon"}"#, 400),
        ("POST", "/analysis/start", r#"{"multipv": 0}"#, 400),
        ("POST", "/analysis/start", r#"{"multipv": 1000}"#, 400),
        ("DELETE", "/play", "", 405),
        ("POST", "api/sessions", r#"{"spec": 7}"#, 400),
        ("GET", "api/sessions/nope%7F", "", 404),
        ("POST", "api/sessions/nope/play", r#"{"move": "a3a4"}"#, 404),
        ("GET", "api/nothing", "", 404),
        ("PUT", "api/sessions", "", 405),
    ];
    for (method, path, body, expected) in cases {
        let uri = match path.strip_prefix('/') {
            Some(_) => format!("{base}{path}"),
            None => format!("/{path}"),
        };
        let (status, text) = raw(&app, method, &uri, body).await;
        assert_eq!(status.as_u16(), expected, "{method} {uri} {body}: {text}");
        let value: Value = serde_json::from_str(&text)
            .unwrap_or_else(|_| panic!("{method} {uri}: not JSON: {text}"));
        let message = error_of(status, &value);
        assert!(!message.is_empty());
        assert!(
            !message.contains('\u{1b}'),
            "control characters are escaped: {message}"
        );
    }
    // A body over the limit.
    let huge = format!(
        "{{\"record\": \"{}\"}}",
        "a".repeat(qi_web::server::MAX_BODY + 10)
    );
    let (status, text) = raw(&app, "POST", &format!("{base}/record"), &huge).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(text.contains("\"error\""));
    // The session is unharmed.
    let (status, view) = call(&app, "GET", &base, Value::Null).await;
    assert_eq!(status, StatusCode::OK);
    assert!(moves(&view).is_empty());
}

#[tokio::test]
async fn sessions_are_isolated() {
    let app = default_app();
    let (a, _) = session(&app, Value::Null).await;
    let (b, _) = session(&app, json!({"spec": "five-tigers"})).await;
    assert_ne!(a, b);
    post(&app, &a, "/play", json!({"move": "a3a4"})).await;
    let (_, view_b) = call(&app, "GET", &format!("/api/sessions/{b}"), Value::Null).await;
    assert!(moves(&view_b).is_empty());
    assert_eq!(view_b["game"], "five-tigers");
    let (_, view_a) = call(&app, "GET", &format!("/api/sessions/{a}"), Value::Null).await;
    assert_eq!(moves(&view_a), ["a3a4"]);
    let (status, _) = raw(&app, "DELETE", &format!("/api/sessions/{a}"), "").await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, _) = call(&app, "GET", &format!("/api/sessions/{a}"), Value::Null).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = call(&app, "GET", &format!("/api/sessions/{b}"), Value::Null).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn the_number_of_sessions_is_bounded() {
    let (server, app) = app(Config {
        max_sessions: 2,
        ..Config::default()
    });
    let (first, _) = session(&app, Value::Null).await;
    let (second, _) = session(&app, Value::Null).await;
    // Using the first makes the second the one unused the longest.
    call(&app, "GET", &format!("/api/sessions/{first}"), Value::Null).await;
    let (third, _) = session(&app, Value::Null).await;
    assert_eq!(server.session_count(), 2);
    let (status, _) = call(&app, "GET", &format!("/api/sessions/{second}"), Value::Null).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    for id in [&first, &third] {
        let (status, _) = call(&app, "GET", &format!("/api/sessions/{id}"), Value::Null).await;
        assert_eq!(status, StatusCode::OK);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_answers_a_move() {
    let app = default_app();
    let (id, _) = session(&app, Value::Null).await;
    post(&app, &id, "/play", json!({"move": "a3a4"})).await;
    let (status, view) = post(&app, &id, "/engine", json!({"movetime_ms": 100})).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(moves(&view).len(), 2);
    assert_eq!(view["to_move_name"], "Red");
    assert!(view["searching"].is_null());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_holds_its_search_table_only_while_it_searches() {
    let (server, app) = app(Config::default());
    for _ in 0..3 {
        let (id, _) = session(&app, Value::Null).await;
        let (status, view) = post(&app, &id, "/engine", json!({"movetime_ms": 20})).await;
        assert_eq!(status, StatusCode::OK, "{view}");
    }
    // Each search built a table of 16 MiB; each freed it when it ended
    // (64 sessions kept 1 GiB).
    assert_eq!(server.session_count(), 3);
    assert_eq!(server.search_memory(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_engine_plays_at_the_level_asked() {
    let app = default_app();
    let (id, _) = session(&app, Value::Null).await;
    // At full strength the search would use all of its 30 s; level 1's
    // node budget ends it at once (`docs/levels.md`).
    let start = std::time::Instant::now();
    let (status, view) = post(
        &app,
        &id,
        "/engine",
        json!({"movetime_ms": 30000, "level": 1}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(moves(&view).len(), 1);
    assert!(
        start.elapsed() < std::time::Duration::from_secs(10),
        "level 1 searched for {:?}",
        start.elapsed()
    );
}

/// Reads the event stream until `done` or `limit` events.
async fn read_events(body: Body, until_done: bool, limit: usize) -> Vec<Value> {
    let mut body = body;
    let mut events = Vec::new();
    let mut pending = String::new();
    while events.len() < limit {
        let frame = tokio::time::timeout(Duration::from_secs(20), body.frame())
            .await
            .expect("an event within 20 s");
        let Some(Ok(frame)) = frame else { break };
        let Ok(data) = frame.into_data() else {
            continue;
        };
        pending.push_str(&String::from_utf8_lossy(&data));
        while let Some(end) = pending.find("\n\n") {
            let block: String = pending.drain(..end + 2).collect();
            for line in block.lines() {
                if let Some(json) = line.strip_prefix("data: ") {
                    let event: Value = serde_json::from_str(json).unwrap();
                    let done = event["type"] == "done";
                    events.push(event);
                    if done && until_done {
                        return events;
                    }
                }
            }
        }
    }
    events
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analysis_streams_iterations_and_stops_on_request() {
    let (_server, app) = app(Config {
        max_searches: 1,
        ..Config::default()
    });
    let (id, _) = session(&app, Value::Null).await;
    let (other, _) = session(&app, Value::Null).await;
    let request = Request::get(format!("/api/sessions/{id}/events"))
        .body(Body::empty())
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    let (status, view) = post(&app, &id, "/analysis/start", Value::Null).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{view}");
    assert_eq!(view["searching"], "analysis");
    // One search per session, and here one search in all.
    let (status, body) = post(&app, &id, "/analysis/start", Value::Null).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(error_of(status, &body).contains("a search is running"));
    assert_eq!(body["kind"], "searching");
    assert_eq!(body["fields"], json!({"search": "analysis"}));
    let (status, body) = post(&app, &other, "/engine", json!({"movetime_ms": 50})).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(error_of(status, &body).contains("too many searches"));
    assert_eq!(body["kind"], "too-many-searches");
    assert_eq!(body["fields"], json!({"max": 1}));
    let events = read_events(response.into_body(), false, 3).await;
    assert_eq!(events[0]["type"], "start");
    assert_eq!(events[1]["type"], "info");
    assert_eq!(events[1]["search"], "analysis");
    let info = &events[2];
    assert!(info["depth"].as_u64().unwrap() >= 1);
    assert!(info["nodes"].as_u64().unwrap() > 0);
    assert!(
        info["score"].as_str().unwrap().starts_with("cp ")
            || info["score"].as_str().unwrap().starts_with("mate ")
    );
    assert!(!info["pv"].as_array().unwrap().is_empty());
    let (status, view) = post(&app, &id, "/analysis/stop", Value::Null).await;
    assert_eq!(status, StatusCode::OK);
    assert!(view["searching"].is_null());
    assert!(moves(&view).is_empty(), "analysis plays no move");
    // The search slot is free again; playing a move stops an analysis.
    post(&app, &id, "/analysis/start", Value::Null).await;
    let (status, view) = post(&app, &id, "/play", json!({"move": "a3a4"})).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert!(view["searching"].is_null());
    let (status, view) = post(&app, &other, "/engine", json!({"movetime_ms": 50})).await;
    assert_eq!(status, StatusCode::OK, "{view}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closing_the_server_stops_searches_and_event_streams() {
    let (server, app) = app(Config::default());
    let (id, _) = session(&app, Value::Null).await;
    let request = Request::get(format!("/api/sessions/{id}/events"))
        .body(Body::empty())
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    post(&app, &id, "/analysis/start", Value::Null).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    server.close();
    // The stream ends (it would otherwise run for ten minutes).
    let events = tokio::time::timeout(
        Duration::from_secs(10),
        read_events(response.into_body(), false, 10_000),
    )
    .await
    .expect("the stream ends");
    assert!(events.len() < 10_000);
    let (status, body) = post(&app, &id, "/analysis/stop", Value::Null).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = post(&app, &id, "/engine", json!({"movetime_ms": 50})).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(error_of(status, &body), "the server is stopping");
    assert_eq!(body["kind"], "stopping");
}

#[tokio::test]
async fn a_refused_undo_leaves_the_game_unchanged() {
    let app = default_app();
    let (id, _) = session(&app, Value::Null).await;
    for mv in ["a3a4", "g7g6", "a4a5"] {
        post(&app, &id, "/play", json!({"move": mv})).await;
    }
    let (_, before) = post(&app, &id, "/goto", json!({"ply": 1})).await;
    for count in [2, 3, 1000] {
        let (status, body) = post(&app, &id, "/undo", json!({"count": count})).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert!(
            error_of(status, &body).contains("cannot take back"),
            "{body}"
        );
        assert_eq!(body["kind"], "undo-count");
        assert_eq!(body["fields"], json!({"count": count, "ply": 1}));
        let (_, view) = call(&app, "GET", &format!("/api/sessions/{id}"), Value::Null).await;
        assert_eq!(view, before, "undo {count} changed nothing");
    }
    // Within the shown position it takes back and drops the rest.
    let (status, view) = post(&app, &id, "/undo", json!({"count": 1})).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["ply"], 0);
    assert!(moves(&view).is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_refused_change_leaves_the_session_as_it_was() {
    let app = default_app();
    let (id, _) = session(&app, Value::Null).await;
    post(&app, &id, "/play", json!({"move": "a3a4"})).await;
    let (status, _) = post(&app, &id, "/analysis/start", Value::Null).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    let (_, before) = call(&app, "GET", &format!("/api/sessions/{id}"), Value::Null).await;
    assert_eq!(before["searching"], "analysis");
    for (action, body) in [
        ("/play", json!({"move": "a3a5"})),
        ("/play", json!({"move": "nonsense"})),
        ("/undo", json!({"count": 2})),
        ("/goto", json!({"ply": 7})),
        ("/new", json!({"spec": "chess"})),
        ("/new", json!({"text": "not a position"})),
        ("/record", json!({"record": "nonsense"})),
        ("/analysis/start", json!({})),
        ("/engine", json!({"movetime_ms": 0})),
        ("/engine", json!({"level": 11})),
        ("/flip", json!({"flip": "yes"})),
    ] {
        let (status, answer) = post(&app, &id, action, body.clone()).await;
        assert!(status.is_client_error(), "{action} {body}: {answer}");
        let (_, view) = call(&app, "GET", &format!("/api/sessions/{id}"), Value::Null).await;
        assert_eq!(
            view, before,
            "{action} {body} changed nothing, the analysis goes on"
        );
    }
    post(&app, &id, "/analysis/stop", Value::Null).await;
}

#[tokio::test]
async fn error_answers_quote_a_bounded_part_of_the_input() {
    let app = default_app();
    let (id, _) = session(&app, Value::Null).await;
    let long = "x".repeat(500_000);
    for (path, body) in [
        ("/api/sessions".to_string(), json!({"spec": long})),
        (
            "/api/sessions".to_string(),
            json!({"spec": format!("jungle:{long}")}),
        ),
        (
            "/api/sessions".to_string(),
            json!({"spec": format!("five-tigers:{long}=1")}),
        ),
        ("/api/sessions".to_string(), json!({"text": long})),
        (
            "/api/sessions".to_string(),
            json!({"spec": 1, "text": long}),
        ),
        (format!("/api/sessions/{id}/play"), json!({"move": long})),
        (format!("/api/sessions/{id}/goto"), json!({"ply": long})),
        (
            format!("/api/sessions/{id}/record"),
            json!({"record": long}),
        ),
        (
            format!("/api/sessions/{id}/record"),
            json!({"record": format!("[Game \"jungle\"]\n\n{long} *\n")}),
        ),
        (
            format!("/api/sessions/{id}/record"),
            json!({"record": format!("[Game \"{long}\"]\n\n*\n")}),
        ),
        (
            format!("/api/sessions/{id}/record"),
            json!({"record": format!("[Result \"{long}\"]\n\n*\n")}),
        ),
        (
            format!("/api/sessions/{}/play", &long[..20_000]),
            json!({"move": "a3a4"}),
        ),
    ] {
        let (status, text) = raw(&app, "POST", &path, &body.to_string()).await;
        assert!(status.is_client_error(), "{status}");
        assert!(
            text.len() < 1000,
            "{status}: an answer of {} bytes: {}…",
            text.len(),
            &text[..200.min(text.len())]
        );
        let value: Value = serde_json::from_str(&text).unwrap();
        assert!(value["error"].as_str().unwrap().contains('…') || !text.contains("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"), "{text}");
    }
}

#[tokio::test]
async fn the_saved_record_says_why_the_game_ended_as_the_page_does() {
    let app = default_app();
    for (spec, text) in [
        ("jungle", "7/7/7/7/7/7/7/7/6L b 0 1"),
        ("five-tigers:ten", "5/5/5/X4/OX3 o move X:0,O:0 - o -,- 0"),
        ("five-tigers:ten", "5/5/5/5/X4 o move X:0,O:0 - o -,- 0"),
    ] {
        let (id, view) = session(&app, json!({"spec": spec, "text": text})).await;
        let reason = view["result"]["reason"].as_str().unwrap().to_string();
        let saved = record(&app, &id).await;
        assert!(
            saved.contains(&format!("[Termination \"{reason}\"]")),
            "{spec}: the page says {reason:?}, the record {saved}"
        );
    }
}

#[tokio::test]
async fn a_clock_runs_for_the_side_to_move_and_a_game_records_its_time_control() {
    let app = default_app();
    let (id, _) = session(&app, Value::Null).await;
    let (status, body) = post(&app, &id, "/clock", json!({"time_control": "0+0"})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["kind"], "clock.time-control");
    assert_eq!(body["fields"]["text"], "0+0");
    let (status, body) = post(&app, &id, "/clock/pause", Value::Null).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(body["kind"], "clock.none");
    let (status, view) = post(&app, &id, "/clock", json!({"time_control": "300+2"})).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["clock"]["control"], "300+2");
    assert_eq!(view["clock"]["running"], "first");
    let (_, view) = post(&app, &id, "/play", json!({"move": "a3a4"})).await;
    assert_eq!(view["clock"]["running"], "second");
    // The mover's increment was added: more than its base may be left.
    let first = view["clock"]["remaining_ms"][0].as_u64().unwrap();
    assert!(first > 290_000 && first <= 302_000, "{view}");
    let (_, view) = post(&app, &id, "/clock/pause", Value::Null).await;
    assert_eq!(view["clock"]["paused"], true);
    let (status, body) = post(&app, &id, "/play", json!({"move": "g7g6"})).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(body["kind"], "clock.paused");
    let (_, view) = post(&app, &id, "/clock/resume", Value::Null).await;
    assert_eq!(view["clock"]["paused"], false);
    // A takeback hands the time back to the side to move.
    let (_, view) = post(&app, &id, "/undo", Value::Null).await;
    assert_eq!(view["clock"]["running"], "first");
    assert!(record(&app, &id).await.contains("[TimeControl \"300+2\"]"));
    let (status, view) = call(
        &app,
        "DELETE",
        &format!("/api/sessions/{id}/clock"),
        Value::Null,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(view["clock"].is_null());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_side_out_of_time_can_move_no_more() {
    let app = default_app();
    let (id, _) = session(&app, Value::Null).await;
    // One second and no increment: the first side is out of time soon.
    post(&app, &id, "/clock", json!({"time_control": "1"})).await;
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    let (status, body) = post(&app, &id, "/play", json!({"move": "a3a4"})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["kind"], "clock.flagged");
    assert_eq!(body["fields"]["side"], "first");
    let (_, view) = call(&app, "GET", &format!("/api/sessions/{id}"), Value::Null).await;
    assert_eq!(view["clock"]["flagged"], "first");
    assert!(moves(&view).is_empty());
    let (status, body) = post(&app, &id, "/engine", json!({"movetime_ms": 50})).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(body["kind"], "clock.flagged");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_marks_the_blunder_and_the_better_move() {
    let app = default_app();
    let record = "[Game \"jungle\"]\n[Start \"l6/7/7/7/7/7/6E/7/1Cw4 w 0 1\"]\n\ng3g4 c1d1 0-1\n";
    let (status, review) = call(
        &app,
        "POST",
        "/api/review",
        json!({"record": record, "depth": 4}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{review}");
    assert_eq!(review["complete"], true);
    assert_eq!(review["budget"], json!({"depth": 4}));
    assert_eq!(review["moves"][0]["judgement"], "blunder");
    assert_eq!(review["moves"][0]["best"], "b1c1");
    assert!(review["moves"][1]["judgement"].is_null());
    assert_eq!(review["sides"][0]["blunders"], 1);
    assert_eq!(review["positions"].as_array().unwrap().len(), 3);
    let (status, body) = call(
        &app,
        "POST",
        "/api/review",
        json!({"record": record, "nodes": 0}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["kind"], "review.budget");
    assert_eq!(
        body["fields"],
        json!({"name": "nodes", "value": 0, "max": 100_000_000})
    );
    let (status, body) = call(&app, "POST", "/api/review", json!({"record": "x"})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["kind"], "record");
}

/// A review request that accepts NDJSON: the response, its body unread.
async fn review_streamed(app: &Router, body: Value) -> axum::response::Response {
    let request = Request::builder()
        .method("POST")
        .uri("/api/review")
        .header("content-type", "application/json")
        .header("accept", "application/x-ndjson")
        .body(Body::from(body.to_string()))
        .unwrap();
    app.clone().oneshot(request).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_streams_its_progress_then_the_review() {
    let app = default_app();
    let record = "[Game \"jungle\"]\n[Start \"l6/7/7/7/7/7/6E/7/1Cw4 w 0 1\"]\n\ng3g4 c1d1 0-1\n";
    let response = review_streamed(&app, json!({"record": record, "depth": 4})).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "application/x-ndjson");
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    // One line after each of the three positions, then the review.
    let progress: Vec<(u64, u64)> = lines[..lines.len() - 1]
        .iter()
        .map(|l| {
            let p = &l["progress"];
            (p["done"].as_u64().unwrap(), p["total"].as_u64().unwrap())
        })
        .collect();
    assert_eq!(progress, [(1, 3), (2, 3), (3, 3)], "{text}");
    let review = &lines[lines.len() - 1]["review"];
    assert_eq!(review["complete"], true);
    assert_eq!(review["moves"][0]["judgement"], "blunder");
    // A refusal before the first position is a plain error answer.
    let response = review_streamed(&app, json!({"record": "x"})).await;
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let body: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(body["kind"], "record");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_streamed_review_stops_when_its_client_goes_away() {
    // One search slot: a second review is refused while the first runs.
    let (_server, app) = app(Config {
        max_searches: 1,
        ..Config::default()
    });
    // A long game at a large budget: minutes of work if nothing stops it.
    let (id, mut view) = session(&app, Value::Null).await;
    for ply in 0..40 {
        let legal = legal(&view);
        if legal.is_empty() {
            break;
        }
        let mv = legal[ply * 7 % legal.len()].to_string();
        view = post(&app, &id, "/play", json!({ "move": mv })).await.1;
    }
    assert!(moves(&view).len() >= 20, "{view}");
    let saved = record(&app, &id).await;
    let response = review_streamed(&app, json!({"record": saved, "nodes": 3_000_000})).await;
    assert_eq!(response.status(), StatusCode::OK);
    let mut body = response.into_body();
    // The first line comes after the first position is searched.
    let frame = body.frame().await.unwrap().unwrap();
    let line = String::from_utf8(frame.into_data().unwrap().to_vec()).unwrap();
    assert!(line.starts_with("{\"progress\":"), "{line}");
    // While it runs, no other search starts.
    let (status, refused) = call(&app, "POST", "/api/review", json!({"record": saved})).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{refused}");
    assert_eq!(refused["kind"], "too-many-searches");
    // The client goes away: the review stops and gives its slot back
    // (within its current search: milliseconds, waited for 20 s at most,
    // far less than the whole review takes).
    drop(body);
    let short = "[Game \"jungle\"]\n\na3a4 *\n";
    for _ in 0..200 {
        let (status, _) = call(
            &app,
            "POST",
            "/api/review",
            json!({"record": short, "depth": 1}),
        )
        .await;
        if status == StatusCode::OK {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the review went on after its client went away");
}
