//! Go game JSON (placeholder while building).
