//! Reading documents (YAML as kubectl reads it, and JSON) into values with positions.
