//! Exports (placeholder).
