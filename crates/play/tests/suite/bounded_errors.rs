//! Errors repeat a bounded part of what they were given: a megabyte of
//! input gives a message of a line, not a megabyte (the web server and
//! the browser show these messages).

use qi_play::game::{load_record, new_game};

const LIMIT: usize = 400;

fn check(what: &str, message: String) {
    assert!(
        message.chars().count() < LIMIT,
        "{what}: a message of {} characters: {}…",
        message.chars().count(),
        message.chars().take(200).collect::<String>()
    );
    assert!(
        message.contains('…'),
        "{what}: the cut is marked: {message}"
    );
}

#[test]
fn long_input_is_cut_in_every_message() {
    let long = "x".repeat(1 << 20);
    let error = |r: Result<Box<dyn qi_play::game::WebGame>, qi_play::game::GameError>| {
        r.err().expect("an error").to_string()
    };
    check("game", error(new_game(&long, None)));
    check(
        "jungle preset",
        error(new_game(&format!("jungle:{long}"), None)),
    );
    check(
        "jungle option",
        error(new_game(&format!("jungle:standard,{long}=1"), None)),
    );
    check(
        "five tigers option",
        error(new_game(&format!("five-tigers:{long}=1"), None)),
    );
    check(
        "jungle position",
        error(new_game(
            "jungle",
            Some(&format!("7/7/7/7/7/7/7/7/6L w 0 1 {long}")),
        )),
    );
    check(
        "jungle side",
        error(new_game(
            "jungle",
            Some(&format!(
                "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L {long} 0 1"
            )),
        )),
    );
    check(
        "five tigers position",
        error(new_game(
            "five-tigers",
            Some(&format!("5/5/5/5/5 x {long} X:13,O:13 - x -,- 0")),
        )),
    );
    check(
        "record move",
        error(load_record(&format!("[Game \"jungle\"]\n\n{long} *\n"))),
    );
    check(
        "record game",
        error(load_record(&format!("[Game \"{long}\"]\n\n*\n"))),
    );
    check(
        "record result",
        error(load_record(&format!("[Result \"{long}\"]\n\n*\n"))),
    );
    let mut game = new_game("jungle", None).unwrap();
    check("move", game.play(&long).unwrap_err().to_string());
    check(
        "option",
        game.set_option(&long, "1").unwrap_err().to_string(),
    );
    check(
        "option value",
        game.set_option("MultiPV", &long).unwrap_err().to_string(),
    );
}
