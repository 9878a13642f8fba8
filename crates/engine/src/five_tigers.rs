//! Five Tigers evaluation (placeholder while being written).
