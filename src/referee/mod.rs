//! The referee: engine-vs-engine matches (placeholder until the referee lands).
