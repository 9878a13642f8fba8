//! The SVG boards: well-formed XML with the expected squares, pieces,
//! labels and highlights, for both games; bad input is an error.

use qi_play::svg::{
    move_squares, render, render_game, render_record, Marks, RenderError, RenderOptions,
};
use roxmltree::{Document, Node};

fn parse(svg: &str) -> Document<'_> {
    Document::parse(svg).unwrap_or_else(|e| panic!("not well-formed: {e}\n{svg}"))
}

fn with_class<'a, 'i>(doc: &'a Document<'i>, class: &str) -> Vec<Node<'a, 'i>> {
    doc.descendants()
        .filter(|n| {
            n.attribute("class")
                .is_some_and(|c| c.split_whitespace().any(|w| w == class))
        })
        .collect()
}

fn texts(node: Node<'_, '_>) -> Vec<String> {
    node.descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text().map(str::to_string))
        .collect()
}

#[test]
fn jungle_start_has_terrain_and_sixteen_labelled_animals() {
    let svg = render("jungle", None, &RenderOptions::default()).unwrap();
    let doc = parse(&svg);
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    assert_eq!(with_class(&doc, "sq").len(), 63);
    assert_eq!(with_class(&doc, "water").len(), 12);
    assert_eq!(with_class(&doc, "trap").len(), 6);
    assert_eq!(with_class(&doc, "den").len(), 2);
    let pieces = with_class(&doc, "piece");
    assert_eq!(pieces.len(), 16);
    let red_elephant = pieces
        .iter()
        .find(|p| p.attribute("data-sq") == Some("a3"))
        .expect("a piece on a3");
    assert_eq!(red_elephant.attribute("data-side"), Some("first"));
    assert_eq!(red_elephant.attribute("data-piece"), Some("E"));
    assert_eq!(texts(*red_elephant), ["象", "Elephant"]);
    for (zh, en) in [
        ("象", "Elephant"),
        ("狮", "Lion"),
        ("虎", "Tiger"),
        ("豹", "Leopard"),
        ("狼", "Wolf"),
        ("狗", "Dog"),
        ("猫", "Cat"),
        ("鼠", "Rat"),
    ] {
        let count = pieces.iter().filter(|p| texts(**p) == [zh, en]).count();
        assert_eq!(count, 2, "{en}");
    }
    let blue_lion = pieces
        .iter()
        .find(|p| p.attribute("data-sq") == Some("a9"))
        .unwrap();
    assert_eq!(blue_lion.attribute("data-side"), Some("second"));
    assert_eq!(texts(*blue_lion), ["狮", "Lion"]);
}

#[test]
fn jungle_highlights_and_flip() {
    let options = RenderOptions {
        marks: Marks {
            last: vec!["a3".into(), "a4".into()],
            selected: Some("g3".into()),
            targets: vec!["g4".into(), "f3".into()],
        },
        flip: true,
        caption: true,
    };
    let svg = render(
        "jungle:datou",
        Some("l5t/1d3c1/r1p1w1e/7/7/E6/2W1P1R/1C3D1/T5L b 1 1"),
        &options,
    )
    .unwrap();
    let doc = parse(&svg);
    assert_eq!(with_class(&doc, "last").len(), 2);
    assert_eq!(with_class(&doc, "selected").len(), 1);
    assert_eq!(with_class(&doc, "target").len(), 2);
    assert!(svg.contains("Blue to move"));
    // Flipped: a1 is at the top right, so its cell is right of g1's.
    let x_of = |sq: &str| -> f64 {
        with_class(&doc, "sq")
            .iter()
            .find(|n| n.attribute("data-sq") == Some(sq))
            .and_then(|n| n.attribute("x"))
            .and_then(|x| x.parse().ok())
            .unwrap()
    };
    assert!(x_of("a1") > x_of("g1"));
}

#[test]
fn five_tigers_board_after_a_square_and_its_removal() {
    // X forms the small square b2 b3 c2 c3 and removes O's c4.
    let svg = render_game(
        "five-tigers",
        None,
        &["b2", "a5", "b3", "c4", "c2", "e5", "c3", "xc4"],
        &RenderOptions::default(),
    )
    .unwrap();
    let doc = parse(&svg);
    assert_eq!(with_class(&doc, "point").len(), 25);
    assert_eq!(with_class(&doc, "grid").len(), 10);
    // The diagonals of the three-diagonal, four-diagonal and
    // through-heaven formations.
    assert_eq!(with_class(&doc, "diagonal").len(), 10);
    let pieces = with_class(&doc, "piece");
    let on = |side: &str| -> Vec<&str> {
        let mut squares: Vec<&str> = pieces
            .iter()
            .filter(|p| p.attribute("data-side") == Some(side))
            .filter_map(|p| p.attribute("data-sq"))
            .collect();
        squares.sort_unstable();
        squares
    };
    assert_eq!(on("first"), ["b2", "b3", "c2", "c3"]);
    assert_eq!(on("second"), ["a5", "e5"]);
    assert!(pieces.iter().all(|p| {
        let label = texts(*p);
        label == ["X"] || label == ["O"]
    }));
    // The removal is the last move: its point is highlighted.
    assert_eq!(with_class(&doc, "last").len(), 1);
}

#[test]
fn records_are_drawn_at_any_ply() {
    let record = "[Game \"jungle:standard\"]\n[Result \"*\"]\n\na3a4 g7g6 a4a5 *\n";
    let at_one = render_record(record, Some(1), &RenderOptions::default()).unwrap();
    let doc = parse(&at_one);
    let pieces = with_class(&doc, "piece");
    assert!(pieces.iter().any(|p| p.attribute("data-sq") == Some("a4")));
    assert!(at_one.contains("Blue to move"));
    let end = render_record(record, None, &RenderOptions::default()).unwrap();
    assert!(parse(&end)
        .descendants()
        .any(|n| n.attribute("data-sq") == Some("a5") && n.attribute("data-piece") == Some("E")));
    assert_eq!(
        render_record(record, Some(4), &RenderOptions::default()),
        Err(RenderError::Ply { ply: 4, len: 3 })
    );
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let options = RenderOptions::default();
    assert!(matches!(
        render("chess", None, &options),
        Err(RenderError::Spec(_))
    ));
    assert!(matches!(
        render("jungle", Some("<bad>&"), &options),
        Err(RenderError::Position(_))
    ));
    assert!(matches!(
        render_game("jungle", None, &["a3a4", "a3a4"], &options),
        Err(RenderError::Move { number: 2, .. })
    ));
    assert!(matches!(
        render_record("not a record", None, &options),
        Err(RenderError::Record(_))
    ));
    let bad_mark = RenderOptions {
        marks: Marks {
            last: vec!["<h0>".into()],
            ..Marks::default()
        },
        ..RenderOptions::default()
    };
    let err = render("five-tigers", None, &bad_mark).unwrap_err();
    assert_eq!(err, RenderError::Square("&lt;h0&gt;".into()));
    assert!(matches!(
        render(
            "five-tigers",
            None,
            &RenderOptions {
                marks: Marks {
                    targets: vec!["f1".into()],
                    ..Marks::default()
                },
                ..RenderOptions::default()
            }
        ),
        Err(RenderError::Square(_))
    ));
}

#[test]
fn move_squares_reads_both_notations() {
    assert_eq!(move_squares("a3a4"), ["a3", "a4"]);
    assert_eq!(move_squares("c3-c4"), ["c3", "c4"]);
    assert_eq!(move_squares("xb2"), ["b2"]);
    assert_eq!(move_squares("c3"), ["c3"]);
    assert!(move_squares("").is_empty());
}
