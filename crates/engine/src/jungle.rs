//! Jungle evaluation (placeholder while being written).
