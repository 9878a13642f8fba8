//! Boards as pictures for Gymnasium's `rgb_array` render mode: the SVG
//! that `qi render` and the web page draw (qi-play), rasterised by resvg.
//!
//! Text (the animals' names, the coordinates) is drawn with the system's
//! fonts, loaded once; where a font the drawing asks for is missing, resvg
//! falls back to another, and without any font the text is left out while
//! the board and the pieces are still drawn.

use std::sync::{Arc, OnceLock};

use numpy::{PyArray1, PyArray3, PyArrayMethods};
use pyo3::prelude::*;

use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg::{self, fontdb};

/// The largest picture side, in pixels: a larger scale is refused before
/// anything is allocated.
pub(crate) const MAX_SIDE: f32 = 4096.0;

/// The system's fonts, loaded at the first picture.
fn fonts() -> Arc<fontdb::Database> {
    static FONTS: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut database = fontdb::Database::new();
            database.load_system_fonts();
            Arc::new(database)
        })
        .clone()
}

/// A picture: `height` rows of `width` RGB pixels, row after row.
pub(crate) struct Picture {
    pub(crate) pixels: Vec<u8>,
    pub(crate) height: usize,
    pub(crate) width: usize,
}

fn parse(svg: &str) -> Result<usvg::Tree, String> {
    let options = usvg::Options {
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    usvg::Tree::from_str(svg, &options).map_err(|e| format!("the board's SVG: {e}"))
}

fn scaled(tree: &usvg::Tree, scale: f32) -> Result<(u32, u32), String> {
    let size = tree.size();
    let (width, height) = (size.width() * scale, size.height() * scale);
    if !(scale.is_finite() && scale > 0.0)
        || width.max(height) > MAX_SIDE
        || width.min(height) < 1.0
    {
        return Err(format!(
            "scale must be positive and keep the picture within 1 to {MAX_SIDE} pixels a side (the board is {} × {} at scale 1), not {scale}",
            size.width(),
            size.height()
        ));
    }
    Ok((width.ceil() as u32, height.ceil() as u32))
}

/// `svg` rasterised at `scale` (1: the SVG's own size in pixels) over a
/// white background.
pub(crate) fn rasterise(svg: &str, scale: f32) -> Result<Picture, String> {
    let tree = parse(svg)?;
    let (width, height) = scaled(&tree, scale)?;
    let mut pixmap = Pixmap::new(width, height).ok_or("the picture could not be allocated")?;
    pixmap.fill(resvg::tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    // Opaque after the white fill: the RGBA is RGB with alpha 255.
    let pixels = pixmap
        .data()
        .chunks_exact(4)
        .flat_map(|rgba| [rgba[0], rgba[1], rgba[2]])
        .collect();
    Ok(Picture {
        pixels,
        height: height as usize,
        width: width as usize,
    })
}

/// `picture` as a NumPy array, uint8 `(height, width, 3)`.
pub(crate) fn to_array(py: Python<'_>, picture: Picture) -> PyResult<Bound<'_, PyArray3<u8>>> {
    PyArray1::from_vec(py, picture.pixels)
        .reshape([picture.height, picture.width, 3])
        .map_err(|e| crate::value_error(e.to_string()))
}

/// Pictures of the same size stacked: uint8 `(n, height, width, 3)`.
pub(crate) fn stack(py: Python<'_>, pictures: Vec<Picture>) -> PyResult<Bound<'_, PyAny>> {
    let (height, width) = pictures.first().map_or((0, 0), |p| (p.height, p.width));
    let n = pictures.len();
    let pixels: Vec<u8> = pictures.into_iter().flat_map(|p| p.pixels).collect();
    Ok(PyArray1::from_vec(py, pixels)
        .reshape([n, height, width, 3])
        .map_err(|e| crate::value_error(e.to_string()))?
        .into_any())
}
